"""Underground Kings' view speed layer: the parts of a view, made once and shared between views.

Nothing here decides what a seat may see: :func:`.view.view` says that and
reads these by name. A view is made for every position a bot, a client or
a learning environment is shown, and most of the table is as it was one
move before: the state's tuples that did not change are the very same
objects, so each part is remembered by the *identity* of the state's
values it reads (each memo holds those values, so that their identities
cannot pass to other objects while remembered), never hashed:

* a mine's view by its :class:`~.state.MineSlot` (a play replaces one slot;
  the others carry over);
* the views of the mines on the table by the state's ``mines`` tuple (a
  draw leaves it as it was);
* the mine sides of a hand (its back) by the hand's tuple, of each seat's
  developed mines by the state's ``developed`` tuple;
* the scores by the state's ``mines`` and ``developed`` tuples, which are
  all :func:`~.scoring.scores` reads.
"""

from __future__ import annotations

import attrs

from meeple.engine.memo import Table

from .data import MINE_SIDES, Mine, backs
from .scoring import scores
from .state import MineSlot, State
from .tables import MINE

__all__ = ["MineView", "developed_sides", "hand_backs", "mine_views", "table_scores"]


@attrs.frozen
class MineView:
    """A mine on the table as everybody sees it: number, owner, mine side, squads on it (part of
    :class:`~.view.KingsView`, made here so that views share it)."""

    number: int
    owner: int | None
    mine: Mine
    stack: tuple[int, ...]


_SLOTS: Table[int, tuple[MineSlot, MineView]] = Table("kings: views of mines", limit=256)
_TABLES: Table[int, tuple[tuple[MineSlot, ...], tuple[MineView, ...]]] = Table(
    "kings: views of the mines on the table", limit=256)
_BACKS: Table[int, tuple[tuple[int, ...], tuple[Mine, ...]]] = Table("kings: backs of hands", limit=256)
_DEVELOPED: Table[int, tuple[tuple[tuple[int, ...], ...], tuple[tuple[Mine, ...], ...]]] = Table(
    "kings: sides of developed mines", limit=256)
_SCORES: Table[tuple[int, int], tuple[tuple[MineSlot, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]] = Table(
    "kings: scores of a table", limit=256)
_KEEP = MINE_SIDES  # the mine sides the views share live with this module


def mine_views(mines: tuple[MineSlot, ...]) -> tuple[MineView, ...]:
    """The views of the state's ``mines``: number, owner, mine side and stack of each, in their order."""
    hit = _TABLES.get(id(mines))
    if hit is not None and hit[0] is mines:
        return hit[1]
    slots = _SLOTS
    out = []
    for m in mines:
        seen = slots.get(id(m))
        if seen is None or seen[0] is not m:
            seen = slots.put(id(m), (m, MineView(m.number, m.owner, MINE[m.card], m.stack)))
        out.append(seen[1])
    views = tuple(out)
    _TABLES.put(id(mines), (mines, views))
    return views


def hand_backs(hands: tuple[tuple[int, ...], ...]) -> tuple[tuple[Mine, ...], ...]:
    """The mine sides of every hand (:func:`~.data.backs`), each remembered by the hand's tuple."""
    memo = _BACKS
    out = []
    for hand in hands:
        hit = memo.get(id(hand))
        if hit is None or hit[0] is not hand:
            hit = memo.put(id(hand), (hand, backs(hand)))
        out.append(hit[1])
    return tuple(out)


def developed_sides(developed: tuple[tuple[int, ...], ...]) -> tuple[tuple[Mine, ...], ...]:
    """The mine sides of each seat's developed mines, in the order developed."""
    hit = _DEVELOPED.get(id(developed))
    if hit is not None and hit[0] is developed:
        return hit[1]
    sides = tuple([tuple([MINE[c] for c in dev]) for dev in developed])
    _DEVELOPED.put(id(developed), (developed, sides))
    return sides


def table_scores(state: State) -> tuple[int, ...]:
    """:func:`~.scoring.scores` of ``state``, remembered by the ``mines`` and ``developed`` tuples it reads."""
    mines, developed = state.mines, state.developed
    key = (id(mines), id(developed))
    hit = _SCORES.get(key)
    if hit is not None and hit[0] is mines and hit[1] is developed:
        return hit[2]
    return _SCORES.put(key, (mines, developed, scores(state)))[2]
