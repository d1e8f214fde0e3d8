"""Underground Kings' view speed layer: the parts of a view, made once and shared between views.

Nothing here decides what a seat may see: :func:`.view.view` says that and
reads these by name. A view is made for every position a bot, a client or
a learning environment is shown, and most of the table is as it was one
move before: the state's tuples that did not change are the very same
objects, so each part is remembered by the *identity* of the state's
values it reads (each memo holds those values, so that their identities
cannot pass to other objects while remembered), never hashed:

* a mine's view by its :class:`~.state.MineSlot` (a play replaces one slot;
  the others carry over, and where a capture or a development moved
  several, the views of the last table's slots still on the table);
* the views of the mines on the table by the state's ``mines`` tuple (a
  draw leaves it as it was);
* the mine sides of a hand (its back) by the hand's tuple, of each seat's
  developed mines by the state's ``developed`` tuple;
* the scores by the state's ``mines`` and ``developed`` tuples, which are
  all :func:`~.scoring.scores` reads.

A play replaces one slot of the ``mines`` tuple: the views of the mines on
a new table are patched from the last table's (one view made), and its
scores are the last table's where that slot kept its owner and card (a
squad added changes no score). Each memo holds :data:`KEPT` answers.
"""

from __future__ import annotations

from operator import is_not
from typing import Any

import attrs

from meeple.engine.memo import Table

from .data import MINE_SIDES, Mine, backs
from .scoring import scores
from .state import MineSlot, State
from .tables import MINE

__all__ = ["MineView", "changed_one", "developed_sides", "hand_backs", "mine_views", "table_scores"]


@attrs.frozen
class MineView:
    """A mine on the table as everybody sees it: number, owner, mine side, squads on it (part of
    :class:`~.view.KingsView`, made here so that views share it)."""

    number: int
    owner: int | None
    mine: Mine
    stack: tuple[int, ...]


#: How many answers each memo below holds. One match's hits come from its last few positions (a draw
#: leaves the mines as they were; the seats' views of one position share them), but a server asks
#: for the views of many matches in turn: with 16 answers, 50 Kings matches on one server cost 6-7 %
#: more engine time per command than with 256 (benchmarks/server_load.py, docs/rl.md).
KEPT = 256
_SLOTS: Table[int, tuple[MineSlot, MineView]] = Table("kings: views of mines", limit=KEPT)
_TABLES: Table[int, tuple[tuple[MineSlot, ...], tuple[MineView, ...]]] = Table(
    "kings: views of the mines on the table", limit=KEPT)
_BACKS: Table[int, tuple[tuple[int, ...], tuple[Mine, ...]]] = Table("kings: backs of hands", limit=KEPT)
_DEVELOPED: Table[int, tuple[tuple[tuple[int, ...], ...], tuple[tuple[Mine, ...], ...]]] = Table(
    "kings: sides of developed mines", limit=KEPT)
_SCORES: Table[tuple[int, int], tuple[tuple[MineSlot, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]] = Table(
    "kings: scores of a table", limit=KEPT)
_KEEP = MINE_SIDES  # the mine sides the views share live with this module


def changed_one(old: tuple[Any, ...], new: tuple[Any, ...]) -> int:
    """The index of the one item of ``new`` that is not (by identity) the item of ``old`` there, else -1.

    -1 too where the tuples differ in length or in more than one item.
    Read in C (``map`` of :func:`operator.is_not`): a play replaces one
    slot of the table's tuple of mines and leaves the others as they were.
    """
    if len(old) != len(new):
        return -1
    flags = list(map(is_not, old, new))
    return flags.index(True) if flags.count(True) == 1 else -1


#: The table of mines whose views were made last and those views: a play changes one slot of it.
_LAST_TABLE: list[tuple[tuple[MineSlot, ...], tuple[MineView, ...]]] = []


def mine_views(mines: tuple[MineSlot, ...]) -> tuple[MineView, ...]:
    """The views of the state's ``mines``: number, owner, mine side and stack of each, in their order."""
    hit = _TABLES.get(id(mines))
    if hit is not None and hit[0] is mines:
        return hit[1]
    slots = _SLOTS
    last = _LAST_TABLE[0] if _LAST_TABLE else None  # read once: another thread may replace it
    i = changed_one(last[0], mines) if last is not None else -1
    if last is not None and i >= 0:  # one slot replaced: the views of the others carry over
        out = list(last[1])
        m = mines[i]
        seen = slots.get(id(m))
        if seen is None or seen[0] is not m:
            seen = slots.put(id(m), (m, MineView(m.number, m.owner, MINE[m.card], m.stack)))
        out[i] = seen[1]
    else:  # the slots of the last table still on this one (a capture or a development moves several) keep their views
        kept = dict(zip(map(id, last[0]), last[1])) if last is not None else {}  # ``last`` holds those slots alive
        out = []
        for m in mines:
            view = kept.get(id(m))
            if view is None:
                seen = slots.get(id(m))
                if seen is None or seen[0] is not m:
                    seen = slots.put(id(m), (m, MineView(m.number, m.owner, MINE[m.card], m.stack)))
                view = seen[1]
            out.append(view)
    views = tuple(out)
    _TABLES.put(id(mines), (mines, views))
    _LAST_TABLE[:] = ((mines, views),)
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


#: The state's mines and developed tuples whose scores were worked out last, and those scores.
_LAST_SCORES: list[tuple[tuple[MineSlot, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]] = []


def table_scores(state: State) -> tuple[int, ...]:
    """:func:`~.scoring.scores` of ``state``, remembered by the ``mines`` and ``developed`` tuples it reads.

    Scores read each mine's owner and card, not its squads: where the last
    table worked out differs from this one in one mine, by its squads only
    (owner and card kept), and the developed mines are the same tuple, the
    scores are the last ones.
    """
    mines, developed = state.mines, state.developed
    key = (id(mines), id(developed))
    hit = _SCORES.get(key)
    if hit is not None and hit[0] is mines and hit[1] is developed:
        return hit[2]
    if _LAST_SCORES:
        old, dev, pts = _LAST_SCORES[0]
        if dev is developed:
            i = changed_one(old, mines)
            if i >= 0 and old[i].owner == mines[i].owner and old[i].card == mines[i].card:
                _LAST_SCORES[:] = ((mines, developed, pts),)
                return _SCORES.put(key, (mines, developed, pts))[2]
    pts = scores(state)
    _LAST_SCORES[:] = ((mines, developed, pts),)
    return _SCORES.put(key, (mines, developed, pts))[2]
