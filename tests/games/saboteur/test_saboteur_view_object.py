"""The seat's View is built without its ``__init__``: it must be the same object ``View(...)`` builds.

``view()`` fills a dict-backed View in one update; these tests check, on
every position of real heuristic matches (base and Deluxe), for every seat
and a spectator, that each field is set, and that the result equals, hashes,
prints and evolves as the View built the ordinary way.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import meeple
from meeple.engine import ENGINE
from meeple.games.saboteur.bot import HeuristicBot
from meeple.games.saboteur.view import View

FIELDS = tuple(f.name for f in attrs.fields(View))


def _views(seats: int, options: dict[str, Any], seed: int) -> list[View]:
    m = meeple.Match.start("saboteur", seats=seats, seed=seed, options=options)
    bots = [HeuristicBot(seed * 16 + s) for s in range(seats)]
    out: list[View] = []
    while acting := [s for s in m.to_act if s != ENGINE]:
        out += [m.view(s) for s in (None, *range(seats))]
        seat = acting[0]
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    return out + [m.view(s) for s in (None, *range(seats))]


@pytest.mark.parametrize(("seats", "options"), [(4, {}), (2, {"edition": "deluxe"})])
def test_a_view_is_the_view_its_fields_build(seats: int, options: dict[str, Any]) -> None:
    for view in _views(seats, options, seed=5):
        assert tuple(vars(view)) == FIELDS  # every field set, in order, and nothing else
        built = View(**{name: getattr(view, name) for name in FIELDS})
        assert view == built
        assert hash(view) == hash(built)
        assert repr(view) == repr(built)
        assert attrs.evolve(view, seat=view.seat) == view


def test_a_view_stays_frozen() -> None:
    view = meeple.Match.start("saboteur", seats=3, seed=1).view(0)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        view.seat = 1  # type: ignore[misc]
