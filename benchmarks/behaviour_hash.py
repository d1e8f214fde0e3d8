"""Hash what a game does over many matches: one digest that a behaviour-preserving change keeps.

    python benchmarks/behaviour_hash.py                 # every configuration of Saboteur and Gophers
    python benchmarks/behaviour_hash.py saboteur --seeds 2

For each configuration (Saboteur base 3-10, Deluxe 2/4/7/12, Deluxe with
three-card passes, ``round_end="lap"``, ``next_starter="ender"``; Gophers
every rule set at 2-4 seats) it plays random playouts (as ``run.py`` plays
them) and heuristic matches, and hashes, at every step, the legal list of
every seat, the canonical view of every seat, and every record (actor,
command, events, RNG counter), then the final state. It prints one digest
per configuration and one for all, so a refactoring of the rules can be
checked against the tree it started from: the digests must not move.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import meeple
from meeple.engine import ENGINE, Match, Rng
from meeple.engine.codec import canonical

MAX_STEPS = 20_000

SABOTEUR: list[tuple[int, dict[str, Any]]] = [
    *((n, {}) for n in range(3, 11)),
    *((n, {"edition": "deluxe"}) for n in (2, 4, 7, 12)),
    (5, {"edition": "deluxe", "pass_discards": 3}),
    (2, {"edition": "deluxe", "pass_discards": 3}),
    (4, {"round_end": "lap"}),
    (6, {"edition": "deluxe", "round_end": "lap", "pass_discards": 3}),
    (5, {"next_starter": "ender"}),
]
GOPHERS: list[tuple[int, dict[str, Any]]] = [
    (n, {"variant": v}) for v in ("standard", "simplified", "advanced", "beginner") for n in (2, 3, 4)
]
CONFIGS = {"saboteur": SABOTEUR, "gophers": GOPHERS}


def _steps(match: Match, pick: Rng | None, bots: Sequence[Any] | None) -> Iterator[bytes]:
    """Play ``match`` to its end (random picks or the bots), yielding the bytes to hash at each step."""
    game = match.game
    seats = match.seats
    for _ in range(MAX_STEPS):
        for s in range(seats):
            yield canonical(list(match.legal(s)))
            yield canonical(game.view(match.state, s))
        acting = [s for s in match.to_act if s != ENGINE]
        if not acting:
            break
        seat = acting[0]
        if bots is None:
            assert pick is not None
            legal = match.legal(seat)
            command = legal[pick.below(len(legal))]
        else:
            command = bots[seat].choose(match.view(seat), match.legal(seat), seat)
        match.play(seat, command)
    for r in match.records:
        yield canonical([r.seq, r.actor, r.command, list(r.events), r.rng])
    yield match.state_hash()


def config_hash(gid: str, seats: int, options: Mapping[str, Any], seeds: int) -> str:
    """The digest of ``seeds`` random playouts and ``seeds`` heuristic matches of one configuration."""
    game = meeple.get_game(gid)
    h = hashlib.blake2b(digest_size=16)
    factory = game.bots()["heuristic"]
    for seed in range(seeds):
        m = Match.start(game, seats, seed=seed, options=options)
        for chunk in _steps(m, Rng(seed + 7919), None):
            h.update(chunk)
        m = Match.start(game, seats, seed=seed + 1000, options=options)
        bots = [factory(seed * 16 + s) for s in range(seats)]
        for chunk in _steps(m, None, bots):
            h.update(chunk)
    return h.hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    """Print one digest per configuration, then one over all of them."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", default=sorted(CONFIGS), help="games to hash (default: all)")
    ap.add_argument("--seeds", type=int, default=3, help="playouts and heuristic matches per configuration")
    args = ap.parse_args(argv)
    total = hashlib.blake2b(digest_size=16)
    for gid in args.games:
        for seats, options in CONFIGS[gid]:
            digest = config_hash(gid, seats, options, args.seeds)
            total.update(digest.encode())
            print(f"{gid} {seats} {options}: {digest}", flush=True)
    print(f"all: {total.hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
