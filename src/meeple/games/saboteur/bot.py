"""Bots for Saboteur (the heuristic bot)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.engine import Command, Rng


class HeuristicBot:
    """Placeholder."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed & ((1 << 64) - 1))

    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        """Return one legal command."""
        return self._rng.choice(legal)
