"""Saboteur's speed layer, first part: values made once, copiers, and the memos of the rules' answers.

Nothing here is a rule. :mod:`.rules` states the rules and reads these by
name:

* the commands and events of every card kind and seat, built once (they are
  immutable values, so lists of legal commands and decided events may share
  them);
* quick builders and copiers of the state's values
  (:func:`meeple.engine.copies.builder` and ``replacer``): the same values as
  the classes build, in fewer steps, for the evolvers that make a new state
  per event;
* the memos of the rules' answers (:mod:`meeple.engine.memo`), each keyed by
  everything the answer depends on.

The fused folds of the commonest turns are the second part, :mod:`.fastfold`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from meeple.engine import Command
from meeple.engine.copies import builder
from meeple.engine.memo import Last, Table

from . import data
from .board import Cell, Hole
from .commands import BreakTool, Discard, Inspect, PeekGoal, PlayPath, RepairTool, Rockfall, SwapHand, TargetAction
from .data import KINDS, Action, Tool
from .events import CardDrawn, CardsDiscarded, PathPlayed, TurnEnded
from .state import BROKEN, Deal, Deed, Front, Knowledge, KnownHand, Purse, State, replacer

#: The most seats a table has (``INFO.max_seats``; a test holds them equal).
MOST_SEATS = 12
_SEATS = range(MOST_SEATS)

# -- commands, made once --------------------------------------------------------------------

#: Each seat alone, as ``to_act`` gives it.
ALONE: tuple[tuple[int], ...] = tuple((s,) for s in _SEATS)
#: The tools a broken-tool or repair card shows, in a fixed order (by name).
TOOLS: dict[int, tuple[Tool, ...]] = {i: tuple(sorted(k.tools, key=lambda t: t.value)) for i, k in enumerate(KINDS)}
#: The broken-tool card each break card kind lays.
BREAKS: dict[int, Front] = {i: BROKEN[TOOLS[i][0]] for i, k in enumerate(KINDS) if k.action is Action.BREAK}
#: Passing with one card, for every card kind.
DISCARD_ONE: dict[int, Discard] = {i: Discard((i,)) for i in range(len(KINDS))}


def _on_player(kind: int, action: Action | None) -> tuple[Command, ...] | None:
    if action is Action.BREAK:
        return tuple(BreakTool(kind, t) for t in _SEATS)
    if action in (Action.THEFT, Action.HANDS_OFF, Action.SWAP_HATS, Action.TRAPPED, Action.FREE):
        return tuple(TargetAction(kind, t) for t in _SEATS)
    if action is Action.SWAP_HAND:
        return tuple(SwapHand(kind, t) for t in _SEATS)
    if action is Action.INSPECTION:
        return tuple(Inspect(kind, t) for t in _SEATS)
    return None


#: A card played on each of the players, for every card kind played on a player.
ON_PLAYER: dict[int, tuple[Command, ...]] = {
    i: on for i, k in enumerate(KINDS) if (on := _on_player(i, k.action)) is not None
}
#: Repairing, for every repair card kind: per player, the (broken tool card, command) pairs, tools in order.
REPAIRS: dict[int, tuple[tuple[tuple[Front, RepairTool], ...], ...]] = {
    i: tuple(tuple((BROKEN[tool], RepairTool(i, t, tool)) for tool in TOOLS[i]) for t in _SEATS)
    for i, k in enumerate(KINDS) if k.action is Action.REPAIR
}
#: Looking at each goal, for every map card kind.
PEEKS: dict[int, tuple[PeekGoal, ...]] = {
    i: tuple(PeekGoal(i, g) for g in range(len(data.GOALS))) for i, k in enumerate(KINDS) if k.action is Action.MAP
}
#: ``PlayPath(kind, col, row, rotated)``, one object per value (the lists of legal commands reuse them).
play_path: Callable[[int, int, int, bool], PlayPath] = functools.lru_cache(maxsize=1 << 16)(builder(PlayPath))

# -- events and values, made once or built quickly --------------------------------------------

#: A draw of each card kind by each seat, a pass with one card of each kind, the turn passing from each seat
#: to each other: the events of nearly every turn.
DRAWS: tuple[tuple[CardDrawn, ...], ...] = tuple(tuple(CardDrawn(s, k) for k in range(len(KINDS))) for s in _SEATS)
ONE_DISCARDED: tuple[tuple[CardsDiscarded, ...], ...] = tuple(
    tuple(CardsDiscarded(s, 1, (k,)) for k in range(len(KINDS))) for s in _SEATS)
TURNS_ENDED: tuple[tuple[TurnEnded, ...], ...] = tuple(tuple(TurnEnded(s, t) for t in _SEATS) for s in _SEATS)
#: A pass, as the round's record shows it, for each seat.
PASSED: tuple[Deed, ...] = tuple(Deed(s, None) for s in _SEATS)
# the other events and values of a turn, built as their classes would build them
new_cards_discarded: Callable[[int, int, tuple[int, ...]], CardsDiscarded] = builder(CardsDiscarded)
new_path_played: Callable[[int, int, int, int, bool], PathPlayed] = builder(PathPlayed)
new_cell: Callable[[int, int, int, bool], Cell] = builder(Cell)
new_deed: Callable[[int, int | None, int | None, Cell | None], Deed] = builder(Deed)

# -- copiers: the fields each evolver changes, in the order it passes them ---------------------------

with_play = replacer(State, "hands", "deeds", "passes", "known")
with_path = replacer(State, "hands", "deeds", "passes", "known", "board")
with_front = replacer(State, "hands", "deeds", "passes", "known", "front")
with_discard = replacer(State, "deeds", "passes", "hands", "discards", "known")
with_draw = replacer(State, "pile", "hands")
with_turn = replacer(State, "turn")
with_front_thieves = replacer(State, "hands", "deeds", "passes", "known", "front", "thieves")
with_board = replacer(State, "board")
with_known = replacer(State, "known")
with_result = replacer(State, "phase", "results")
with_purse = replacer(State, "purse")
with_phase_purse = replacer(State, "phase", "purse")
with_cleared = replacer(State, "deeds", "passes", "front", "thieves", "hands", "discards", "known")
with_swap = replacer(State, "hands", "known")
with_deal_known = replacer(State, "deal", "known")
with_turn_passes = replacer(State, "turn", "passes")
with_goals_seen = replacer(Knowledge, "goals")
with_roles_seen = replacer(Knowledge, "roles")
with_hands_seen = replacer(Knowledge, "hands")
with_role_spent = replacer(Deal, "roles", "leftover_roles", "spent_roles")
purse_offered = replacer(Purse, "offer", "chooser", "deck")
purse_taken = replacer(Purse, "offer", "gold", "chooser", "ledger")
purse_paid = replacer(Purse, "gold", "deck", "ledger")
purse_closed = replacer(Purse, "offer", "chooser", "theft_queue")
purse_gold = replacer(Purse, "gold")
purse_queue = replacer(Purse, "theft_queue")
purse_robbed = replacer(Purse, "gold", "theft_queue")
hand_played = replacer(KnownHand, "cards", "sure")
hand_spilled = replacer(KnownHand, "sure", "discarded_by")
hand_moved = replacer(KnownHand, "holder")

# -- memos of the rules' answers -------------------------------------------------------------------

#: ``Rockfall(kind, col, row)``, one object per value, by ``(kind, col, row)`` (squares lie within a deck's
#: reach of the start).
ROCKFALLS: Table[tuple[int, int, int], Rockfall] = Table("saboteur: rockfall commands", limit=1 << 16)
#: The ``PlayPath`` commands of each card kind in a hole, by the hole's square and what it asks, then by kind
#: (``()`` for a kind that does not fit); about 10 MB at most.
PLAYS: Table[tuple[tuple[int, int], Hole], dict[int, tuple[PlayPath, ...]]] = Table(
    "saboteur: path commands by hole", limit=1 << 15)
#: The commands of the cards that break or repair tools, by the cards in front of every player, then by kind:
#: they depend on nothing else, and the cards in front change far less often than the turn.
ON_FRONTS: Table[tuple[frozenset[Front], ...], dict[int, tuple[Command, ...]]] = Table(
    "saboteur: break and repair commands", limit=1 << 12)
#: The same, for the cards in front last asked about: the states of a round share that tuple until a card is
#: laid in front, so most turns find it by its identity, without hashing it.
LAST_FRONT: Last[tuple[frozenset[Front], ...], dict[int, tuple[Command, ...]]] = Last(
    "saboteur: break and repair commands, last front")
#: The looks at the goals, by map card kind, for the goals last asked about (by identity: the boards of a
#: round share one goals tuple until a goal turns over).
LAST_GOALS: Last[tuple[object, ...], dict[int, tuple[Command, ...]]] = Last("saboteur: looks at the goals")
