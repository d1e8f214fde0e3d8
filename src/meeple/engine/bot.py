"""The bot protocol, and the random bot every game gets for free.

A bot sees what a player sees: its seat's view and the legal commands. It
never reads the true state or the match's RNG (fair bots, DESIGN invariant 9).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .game import Command
from .rng import Rng


class Bot(Protocol):
    """Anything with ``choose(view, legal, seat) -> Command``."""

    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        """Return one element of ``legal``."""
        ...


class RandomBot:
    """Plays a uniformly random legal command, from its own seeded stream.

    >>> bot = RandomBot(seed=1)
    >>> bot.choose(None, ["a", "b", "c"], 0) in ("a", "b", "c")
    True
    """

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed & ((1 << 64) - 1))

    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        """Return a uniformly random element of ``legal``."""
        return self._rng.choice(legal)
