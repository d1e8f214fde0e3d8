"""What a seat sees in Mordred: everything on the table.

Mordred has no hidden information: the map, every marker on the road, every
purse, Mordred's supply and the last roll are public. A view is the state
plus the seat it is for; it never holds the seed or the RNG position, which
the state does not hold either. ``redact`` keeps the default (every event is
public) and ``determinize`` the default (the state itself).
"""

from __future__ import annotations

import attrs

from .state import Building, End, LastRoll, MordredOptions, Phase, State


@attrs.frozen
class View:
    """A seat's view (``seat`` None: a spectator); the fields mean what they mean on :class:`State`."""

    seat: int | None
    seats: int
    options: MordredOptions
    phase: Phase
    turn: int
    first: int
    buildings: tuple[Building | None, ...]
    warriors: tuple[bool, ...]
    supply: int
    hand: int
    money: tuple[int, ...]
    road: tuple[int, ...]
    turns: int
    last_roll: LastRoll | None
    ended: End | None


def make_view(state: State, seat: int | None) -> View:
    """Return ``seat``'s view of ``state`` (all of it is public)."""
    return View(
        seat=seat,
        seats=state.seats,
        options=state.options,
        phase=state.phase,
        turn=state.turn,
        first=state.first,
        buildings=state.buildings,
        warriors=state.warriors,
        supply=state.supply,
        hand=state.hand,
        money=state.money,
        road=state.road,
        turns=state.turns,
        last_roll=state.last_roll,
        ended=state.ended,
    )
