"""Gophers' speed layer: values made once, the copiers of the state, and the memos of the rules' answers.

Nothing here is a rule. :mod:`.rules` states the rules and reads these by
name:

* the commands a seat may be offered, built once (they are immutable
  values, so lists of legal commands share them), and the turn order from
  every seat;
* each spread's labels, and tables made from them by a rule that
  :mod:`.rules` hands in (:func:`by_hole`);
* quick builders and copiers of the state's values
  (:func:`meeple.engine.copies.builder` and ``replacer``): the same values
  as the classes build, in fewer steps, for the evolvers, which make a new
  state per event;
* the memos of the rules' answers (:mod:`meeple.engine.memo`), each keyed by
  everything the answer depends on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from meeple.engine.copies import builder, replacer
from meeple.engine.memo import Last, Table

from .combos import Step
from .commands import Add, Collect, Dig, Move, Pass, Place, Roll, Subtract, TakeGift
from .data import FACES, HOLES, SPREADS, Label, LabelKind
from .events import (
    BookRolled,
    CardDrawn,
    CardLaid,
    Collected,
    CollectionOpened,
    DigPlayed,
    GiftOffered,
    GiftTaken,
    Moved,
    Passed,
    Rolled,
    TurnEnded,
)
from .state import Cards, State, Turn
from .state import Table as Piles

T = TypeVar("T")

# -- commands and orders, made once --------------------------------------------------------------

#: The commands without arguments.
ROLL_CMD, DIG_CMD, COLLECT_CMD, PASS_CMD = Roll(), Dig(), Collect(), Pass()
#: The commands with one argument, by it: a pawn placed on each hole, each card laid or kept.
PLACE_CMDS = tuple(Place(h) for h in range(HOLES))
ADD = {c: Add(repr(c)) for c in FACES}
SUBTRACT = {c: Subtract(repr(c)) for c in FACES}
TAKE = {c: TakeGift(repr(c)) for c in FACES}
#: What the mover may do at the start of a turn, by whether it may dig.
START_CMDS = {False: (ROLL_CMD,), True: (ROLL_CMD, DIG_CMD)}
#: Every walk command there can be: (hole, bits of the seats jumped).
MOVE_CMDS = {(d, j): Move(d, j) for d in range(HOLES) for j in range(1 << 4)}
#: The seats in turn order from each seat (``ORDER[seats][first]``).
ORDER = tuple(tuple(tuple((first + i) % n for i in range(n)) for first in range(n)) for n in range(9))

# -- the spreads -----------------------------------------------------------------------------------

#: The labels a walk's end is tested for, as module constants (see ``state.MOVE``).
PORTAL_LABEL, GIFT_LABEL = LabelKind.PORTAL, LabelKind.GIFT
#: The labels of each spread by number (``LABELS[0]`` is unused).
LABELS = ((), *(sp.labels for sp in SPREADS))


def by_hole(rule: Callable[[Label], T]) -> tuple[tuple[T, ...], ...]:
    """``rule`` of every hole's label, by spread number and hole (index 0 unused), worked out once."""
    return ((), *(tuple(rule(lab) for lab in sp.labels) for sp in SPREADS))


# -- memos of the rules' answers ---------------------------------------------------------------------

#: The walks of recent positions, by everything a walk depends on: (spread, roll, seat, positions).
MOVES: Table[tuple[int, int, int, tuple[int, ...]], tuple[Move, ...]] = Table("gophers: walks", limit=1 << 13)
#: The cards each seat may lay next in this very state (by identity), by seat: ``decide`` asks again
#: for the state that ``legal_commands`` was just asked about.
LAST_STEPS: Last[State, dict[int, tuple[Step, ...]]] = Last("gophers: collection steps")

# -- builders and copiers ------------------------------------------------------------------------------

#: The events of a turn, each built as its class builds it, quicker (an attrs class sets each field
#: through a Python call; nearly every command emits one or two of these).
turn_ended = builder(TurnEnded)
rolled = builder(Rolled)
moved = builder(Moved)
book_rolled = builder(BookRolled)
dig_played = builder(DigPlayed)
gift_offered = builder(GiftOffered)
gift_taken = builder(GiftTaken)
collection_opened = builder(CollectionOpened)
card_laid = builder(CardLaid)
collected = builder(Collected)
passed = builder(Passed)
card_drawn = builder(CardDrawn)


def set_item(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    """``t`` with item ``i`` replaced by ``v``."""
    out = list(t)  # one list and one tuple made: quicker than joining two slices around ``v``
    out[i] = v
    return tuple(out)


# The copies the commonest events make, the new values given in the order named (``state.replacer``).
with_roll = replacer(State, "phase", "roll")
with_positions = replacer(State, "positions")
with_walk = replacer(State, "positions", "turn")
with_turn = replacer(State, "turn")
with_spread = replacer(State, "spread", "turn")
with_next_turn = replacer(State, "phase", "current", "roll", "collectors", "turn", "idle")
with_collectors = replacer(State, "phase", "collectors")
with_asked = replacer(State, "collectors")
with_laid = replacer(State, "cards", "turn")
with_collected = replacer(State, "collectors", "table", "turn")
with_cards = replacer(State, "cards")
with_gift = replacer(State, "phase", "cards", "turn")
with_gift_kept = replacer(State, "cards", "table", "turn")
with_roll_turn = replacer(State, "phase", "roll", "turn")
with_table_turn = replacer(State, "table", "turn")
turn_offer = replacer(Turn, "gift_used", "offer", "offer_seen")
turn_offer_gone = replacer(Turn, "offer", "offer_seen")
turn_gift_kept = replacer(Turn, "offer", "offer_seen", "productive", "haul")
turn_collected = replacer(Turn, "added", "subtracted", "productive", "haul")
turn_extra = replacer(Turn, "extra_moves")
turn_jumped = replacer(Turn, "jumped")
turn_rolls = replacer(Turn, "book_rolls")
turn_turned = replacer(Turn, "turned", "book_rolls")
turn_added = replacer(Turn, "added")
turn_subtracted = replacer(Turn, "subtracted")
turn_cleared = replacer(Turn, "added", "subtracted")
cards_deck = replacer(Cards, "deck", "deck_seen")
table_piles = replacer(Piles, "plus", "minus", "scores")
new_cards = builder(Cards)
