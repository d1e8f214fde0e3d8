"""Seed schedules: which seed each record draws from, and the commitment that binds them.

A match draws its randomness from a *seed schedule*: pairs ``(from_record,
seed)``, the first from record 0, each later one starting strictly after the
one before (a fork with a new seed adds one). Record ``n`` draws from the seed
of the last pair with ``from_record <= n``. The log header commits to the
whole schedule with ``BLAKE2b-128(salt || msgpack(schedule))``, where the salt
is derived from the schedule's last seed, so the commitment is a function of
the schedule alone: a log made in memory, saved, loaded, stored and forked
carries the same one, and ``verify`` can check it whether the seeds are shown
or hidden. ``docs/rng.md`` states these rules; ``docs/log-format.md`` the bytes.

>>> schedule = ((0, 42), (10, 7))
>>> seed_at(schedule, 9), seed_at(schedule, 10)
(42, 7)
>>> epochs(schedule)
(SeedEpoch(start=0, stop=10, seed=42), SeedEpoch(start=10, stop=None, seed=7))
>>> commitment_of(schedule) == seed_commitment(schedule, derive_salt(7))
True
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NamedTuple

from .codec import digest, pack
from .rng import MASK64

#: A seed schedule: ``(from_record, seed)`` pairs, the first from record 0, starts increasing.
Schedule = tuple[tuple[int, int], ...]

#: The longest seed schedule a reader accepts (one pair per fork with a new
#: seed); a guard for hostile headers, as each record looks its seed up in it.
MAX_SEEDS = 256

_SALT_LABEL = b"meeple-seed-salt"


class SeedEpoch(NamedTuple):
    """One seed of a schedule: records ``start`` up to ``stop`` (excluded; None: to the end) draw from ``seed``."""

    start: int
    stop: int | None
    seed: int


def derive_salt(seed: int) -> bytes:
    """The commitment salt of a seed: ``BLAKE2b-128(b"meeple-seed-salt" || seed as 8 bytes, big-endian)``.

    Derived, not random, so the same inputs give byte-identical logs; the
    commitment hides the seed as well as its 64 bits of entropy do.
    """
    return digest(seed.to_bytes(8, "big"), _SALT_LABEL)


def schedule_salt(seeds: Sequence[tuple[int, int]]) -> bytes:
    """The salt of a schedule's commitment: :func:`derive_salt` of its last seed."""
    return derive_salt(seeds[-1][1])


def seed_commitment(seeds: Sequence[tuple[int, int]], salt: bytes) -> bytes:
    """``BLAKE2b-128(salt || msgpack(seeds))``, the seeds as an array of ``[from_record, seed]`` arrays."""
    return digest(pack([list(s) for s in seeds]), salt)


def commitment_of(seeds: Sequence[tuple[int, int]]) -> bytes:
    """The commitment a log header carries for ``seeds``: :func:`seed_commitment` with :func:`schedule_salt`."""
    return seed_commitment(seeds, schedule_salt(seeds))


def seed_at(seeds: Sequence[tuple[int, int]], seq: int) -> int:
    """The seed record ``seq`` draws from: that of the last pair with ``from_record <= seq``."""
    seed = seeds[0][1]
    for start, s in seeds:
        if start > seq:
            break
        seed = s
    return seed


def reseeded(seeds: Sequence[tuple[int, int]], at: int, seed: int) -> Schedule:
    """The schedule of a fork at ``at`` with a new ``seed``: the pairs starting before ``at``, then ``(at, seed)``."""
    return (*(s for s in seeds if s[0] < at), (at, seed))


def epochs(seeds: Sequence[tuple[int, int]]) -> tuple[SeedEpoch, ...]:
    """The schedule as epochs: each seed with the records that draw from it."""
    stops: list[int | None] = [start for start, _ in seeds[1:]]
    stops.append(None)
    return tuple(SeedEpoch(start, stop, seed) for (start, seed), stop in zip(seeds, stops))


def schedule_problem(seeds: Sequence[tuple[int, int]]) -> str | None:
    """What makes ``seeds`` (pairs of ints) no seed schedule, or None for a good one."""
    if len(seeds) == 1 and seeds[0][0] == 0 and 0 <= seeds[0][1] <= MASK64:  # most logs never re-seed
        return None
    if not 1 <= len(seeds) <= MAX_SEEDS:
        return f"the seed schedule must have 1 to {MAX_SEEDS} entries, not {len(seeds)}"
    if not all(0 <= s <= MASK64 for _, s in seeds):
        return "a seed is an integer in [0, 2**64)"
    if seeds[0][0] != 0:
        return f"the seed schedule starts at record {seeds[0][0]}, not 0"
    for (a, _), (b, _) in itertools.pairwise(seeds):
        if b <= a:
            return f"the seed schedule goes from record {a} to record {b}: each seed starts after the one before"
    return None
