"""Underground Kings' speed layer: values made once and the copiers of the state.

Nothing here is a rule. :mod:`.rules` states the rules and reads these by
name:

* every card's strength, mine side and camp pile by id, and, made from the
  ordering rule that :mod:`.rules` hands in, what a mine takes by its top
  squad (:func:`squad_tables`);
* the commands a player may be offered and the answers of ``to_act``, built
  once (they are immutable values, so lists of legal commands share them);
* the copier of the state the evolvers use (:func:`changed`): the same value
  as ``attrs.evolve`` makes, in fewer steps, as it runs for every event.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from meeple.engine import ENGINE

from .commands import DrawCamp, DrawDeck, Play, Retreat
from .data import CARDS, DECK_SIZE, PEOPLES, TOP_STRENGTH, Card
from .state import State

# -- the cards by id ------------------------------------------------------------------------------

#: The index of an empty mine in the tables of :func:`squad_tables`.
EMPTY = TOP_STRENGTH + 1
#: Every card's strength, mine side and camp pile (its people's, in ``PEOPLES`` order), by id.
STRENGTH = tuple(c.strength for c in CARDS)
MINE = tuple(c.mine for c in CARDS)
PILE = tuple(c.people.index for c in CARDS)
#: No card at all (what another player's mine takes).
NOTHING: frozenset[int] = frozenset()

#: Squad tables: for every top (0-9, then :data:`EMPTY`), the ids of the allowed squads that beat it.
Squads = tuple[frozenset[int], ...]


def squad_tables(beats: Callable[[int, int | None], bool]) -> tuple[Squads, tuple[Squads, ...], tuple[Squads, ...]]:
    """What a mine takes by the strength of its top squad, worked out once from the ordering rule ``beats``.

    Three tables, as sets of card ids: any squad (a central mine), the
    squads foreign to each people (the workers of its king's mines), the
    squads of each people (their overseers).
    """

    def squads(allowed: Callable[[Card], bool]) -> Squads:
        return tuple(
            frozenset(c.id for c in CARDS if allowed(c) and beats(c.strength, None if top == EMPTY else top))
            for top in range(TOP_STRENGTH + 2)
        )

    foreign = tuple(squads(lambda c, p=p: c.people is not p) for p in PEOPLES)  # type: ignore[misc]
    own = tuple(squads(lambda c, p=p: c.people is p) for p in PEOPLES)  # type: ignore[misc]
    return squads(lambda c: True), foreign, own


# -- commands and answers, made once ----------------------------------------------------------------

#: The plays onto each mine number by card (made when that mine is first offered, see :func:`plays_onto`).
PLAYS_ONTO: list[tuple[Play, ...]] = []
#: The retreats by card, and the draws.
RETREATS = tuple(Retreat(card) for card in range(DECK_SIZE))
DRAW_DECK = DrawDeck()
DRAW_CAMP = tuple(DrawCamp(p) for p in PEOPLES)
#: Who acts, as the shared tuples ``to_act`` returns (the engine asks several times per command);
#: every seat is the king of a people, so there are at most as many seats as peoples.
SEAT_ACTS = tuple((seat,) for seat in range(len(PEOPLES)))
ENGINE_ACTS = (ENGINE,)


def plays_onto(number: int) -> tuple[Play, ...]:
    """The plays of every card onto mine ``number``, made once."""
    while len(PLAYS_ONTO) <= number:
        n = len(PLAYS_ONTO)
        PLAYS_ONTO.append(tuple(Play(card, n) for card in range(DECK_SIZE)))
    return PLAYS_ONTO[number]


# -- copiers ----------------------------------------------------------------------------------------

#: A mine's number (mines are kept in number order, and found by bisection).
NUMBER = operator.attrgetter("number")


def changed(state: State, changes: dict[str, Any]) -> State:
    """``attrs.evolve(state, **changes)`` at a fraction of its cost (it runs for every event).

    The state has no validators or converters, and keeps its fields in a
    ``__dict__``, so a changed copy is the old fields updated with the new.
    """
    new = object.__new__(State)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    return new


def replace(state: State, **changes: Any) -> State:
    """:func:`changed` with the changes given by keyword."""
    return changed(state, changes)


def set_item(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    """``items`` with item ``i`` replaced (hands, piles, mines and lists per seat are tuples)."""
    items_ = list(items)
    items_[i] = value
    return tuple(items_)
