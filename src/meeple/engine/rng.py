"""A portable, counter-based random number generator.

Every random outcome in meeple comes from :class:`Rng`: the *n*-th 64-bit word
of a match is a pure function of the seed and *n*, so a match can resume,
fork or be verified from nothing but ``(seed, counter)``, and a program in
another language can reproduce it bit for bit. The algorithm is SplitMix64
used as a counter-based generator; ``docs/rng.md`` specifies it with test
vectors, and ``tests/engine/test_rng.py`` pins them.

>>> rng = Rng(seed=42)
>>> rng.below(6), rng.counter
(1, 1)
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TYPE_CHECKING, TypeVar, cast

from ._compiled import speedups

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_TWO64 = 1 << 64
_SMALL = 1024
#: ``2**64 mod n`` for small ``n``: the rejection threshold of :meth:`Rng.below`.
_THRESHOLDS = tuple((_TWO64 - n) % n if n else 0 for n in range(_SMALL))


def word(seed: int, counter: int) -> int:
    """Return the 64-bit word number ``counter`` (from 0) of the stream ``seed``.

    This is the SplitMix64 output after ``counter + 1`` increments of its state
    from ``seed``; with seed 0 the first word is ``0xE220A8397B1DCDAF``.
    """
    z = (seed + (counter + 1) * GOLDEN_GAMMA) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class PyRngCore:
    """The seed, the counter and the commonest draws of :class:`Rng`, in pure Python.

    ``meeple._speedups.RngCore`` does the same in C (the same words, draws
    and counters: ``tests/engine/test_speedups.py`` holds the two together); a
    package built without a C compiler, or run with ``MEEPLE_PURE_PYTHON``
    set, uses this one.
    """

    __slots__ = ("counter", "seed")

    def __init__(self, seed: int, counter: int = 0) -> None:
        if not 0 <= seed <= MASK64:
            raise ValueError("seed must be an integer in [0, 2**64)")
        if not 0 <= counter <= MASK64:
            raise ValueError("counter must be an integer in [0, 2**64)")
        self.seed = seed
        self.counter = counter

    def next64(self) -> int:
        """Return the next 64-bit word and advance the counter by one."""
        counter = self.counter
        self.counter = counter + 1
        # word(seed, counter), inlined: the hot path of every shuffle and roll
        z = (self.seed + (counter + 1) * GOLDEN_GAMMA) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)`` (``n`` >= 1), without bias."""
        if n < 1:
            raise ValueError("below() needs n >= 1")
        if n > _TWO64:
            raise ValueError("below() needs n <= 2**64")
        threshold = _THRESHOLDS[n] if n < _SMALL and n.__class__ is int else (_TWO64 - n) % n  # == 2**64 mod n
        seed = self.seed
        counter = self.counter
        while True:
            # word(seed, counter), inlined
            counter += 1
            z = (seed + counter * GOLDEN_GAMMA) & MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            x = z ^ (z >> 31)
            if x >= threshold:
                self.counter = counter
                return x % n

    def shuffle_in_place(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle: for i from len-1 down to 1, swap i with below(i+1)."""
        below = self.below
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]


def _compiled_core() -> type[PyRngCore] | None:
    """``meeple._speedups.RngCore``, or None where it was not built or ``MEEPLE_PURE_PYTHON`` is set."""
    return cast("type[PyRngCore] | None", getattr(speedups, "RngCore", None))


if TYPE_CHECKING:
    _Core = PyRngCore
else:
    _Core = _compiled_core() or PyRngCore


class Rng(_Core):
    """Draws from the stream of ``seed``, starting at word ``counter``.

    The only mutable object a game ever sees: ``decide`` draws from it, and the
    engine stores the counter after each command. Bounded integers are
    unbiased (rejection of the ``2**64 mod n`` lowest words). ``seed`` and
    ``counter`` are integers in ``[0, 2**64)``.

    The seed, the counter and the draws ``next64``, ``below`` and
    ``shuffle_in_place`` come from a compiled core where the package was
    built with one (``meeple._speedups``), else from :class:`PyRngCore`: the
    same words either way.
    """

    __slots__ = ()

    def __reduce__(self) -> tuple[type[Rng], tuple[int, int]]:
        return (Rng, (self.seed, self.counter))

    def between(self, low: int, high: int) -> int:
        """Return a uniform integer in ``[low, high]``, both ends included."""
        return low + self.below(high - low + 1)

    def die(self, sides: int = 6) -> int:
        """Roll one die with faces ``1..sides``."""
        return 1 + self.below(sides)

    def dice(self, count: int, sides: int = 6) -> tuple[int, ...]:
        """Roll ``count`` dice, in order: ``1 + below(sides)`` each."""
        if sides < 1:
            raise ValueError("dice() needs sides >= 1")
        threshold = _THRESHOLDS[sides] if sides < _SMALL and sides.__class__ is int else (_TWO64 - sides) % sides
        seed = self.seed
        counter = self.counter
        out: list[int] = []
        while len(out) < count:
            # below(sides), inlined: rolling dice is the commonest draw of a game
            counter += 1
            z = (seed + counter * GOLDEN_GAMMA) & MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            x = z ^ (z >> 31)
            if x >= threshold:
                out.append(1 + x % sides)
        self.counter = counter
        return tuple(out)

    def choice(self, items: Sequence[T]) -> T:
        """Return one element of a non-empty sequence, uniformly."""
        if not items:
            raise ValueError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        """Return a shuffled tuple of ``items`` (see :meth:`shuffle_in_place`)."""
        out = list(items)
        self.shuffle_in_place(out)
        return tuple(out)

    def __repr__(self) -> str:
        return f"Rng(<secret>, counter={self.counter})"
