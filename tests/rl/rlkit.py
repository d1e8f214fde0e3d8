"""Helpers shared by the encoding tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from meeple import Match
from meeple.engine import ENGINE, get_game


def heuristic_positions(game: str, seats: int, seed: int, options: dict[str, Any] | None = None) -> Iterator[Any]:
    """Every position of a match of heuristic bots: (match, seat to act, its view, its legal commands)."""
    g = get_game(game)
    m = Match.start(game, seats, seed=seed, options=options)
    bots = [g.bots()["heuristic"](seed + s) for s in range(seats)]
    while not m.is_over:
        seat = next(s for s in m.to_act if s != ENGINE)
        view, legal = m.view(seat), m.legal(seat)
        yield m, seat, view, legal
        m.play(seat, bots[seat].choose(view, legal, seat))
