"""What a seat sees in Mordred: everything on the table.

Mordred has no hidden information: the map, every marker on the road, every
purse, Mordred's supply and the last roll are public. A view is the state
plus the seat it is for; it never holds the seed, the commitment salt or the
RNG position, which the state does not hold either. So the game keeps the
protocol's defaults: ``redact`` shows every event to everyone,
``redact_command`` every command (no command class declares a ``secret``
field), and ``determinize`` returns the state itself, since there is nothing
a seat does not know (``GameInfo.hidden_information`` is False). The dice
still to come are chance, not hidden information: they are not in the state.
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
    standing: tuple[tuple[int, int, int], ...]
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
        standing=state.standing,
        warriors=state.warriors,
        supply=state.supply,
        hand=state.hand,
        money=state.money,
        road=state.road,
        turns=state.turns,
        last_roll=state.last_roll,
        ended=state.ended,
    )
