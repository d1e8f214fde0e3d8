"""Saboteur's speed layer, second part: the commonest turns folded in one copy of the state.

A turn of a card played or discarded, a card drawn and the turn passed
makes three events; :func:`fold`, the game object's ``Game.fold``, folds them
into one new state where :mod:`.rules` would make three, by changing at once
the fields each evolver would change. Anything else is folded one event at
a time by the evolvers of :mod:`.rules`. The conformance kit holds every
record's fold equal to the one-by-one fold (``check_fold_and_verify``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from meeple.engine import Event

from .events import CardDrawn, CardsDiscarded, PathPlayed, TurnEnded
from .rules import (
    _drawn,
    _fold_one,
    _known_after_discard,
    _known_after_play,
    _set,
    _take,
    _turn_ended,
    add_card,
    remove_card,
    swap_card,
)
from .state import State, replacer
from .tables import PASSED, new_cell, new_deed


def fold(state: State, events: Sequence[Event]) -> State:
    """Fold one record's events (``Game.fold``): a turn's three or two events at once, the rest one by one."""
    if len(events) == 3 and events[1].__class__ is CardDrawn and events[2].__class__ is TurnEnded:
        return _turn_folded(state, events[0], events[1], events[2])
    if len(events) == 2 and events[1].__class__ is TurnEnded:  # the pile is out: no draw
        return _undrawn_turn_folded(state, events[0], events[1])
    for e in events:
        state = _fold_one(state, e)
    return state


# A turn's three events (a card played or discarded, a card drawn, the next player) folded into one copy,
# for the commonest turns: the fields each of them would change, changed at once.
_with_pass_drawn = replacer(State, "deeds", "passes", "hands", "discards", "known", "pile", "turn")
_with_path_drawn = replacer(State, "hands", "deeds", "passes", "known", "board", "pile", "turn")
_with_draw_turn = replacer(State, "pile", "hands", "turn")


def _turn_folded(s: State, card_event: Event, drawn: CardDrawn, ended: TurnEnded) -> State:
    """What ``card_event``, ``drawn`` and ``ended`` fold into, one by one, in fewer copies of the state.

    The draw means the pile was not empty, so neither a pass nor the end of
    the turn counts passes (``round_end="lap"``): every such turn leaves
    ``passes`` at 0, as :func:`_discarded` and :func:`_turn_ended` say.
    """
    new = drawn.card
    assert new is not None
    seat = drawn.seat
    kind = card_event.__class__ if 0 <= seat < s.seats else None  # a forged seat: folded one by one, below
    if kind is CardsDiscarded:  # a pass, the commonest turn
        passed = cast(CardsDiscarded, card_event)
        cards = passed.cards
        if passed.seat == seat and cards is not None and len(cards) == 1:
            (card,) = cards
            hand = swap_card(s.hands[seat], card, new)
            deeds = s.deeds + (PASSED[seat],)  # noqa: RUF005 - quicker than unpacking into a new tuple
            known = _known_after_discard(s.known, seat, 1)
            return _with_pass_drawn(s, deeds, 0, _set(s.hands, seat, hand),
                                    _set(s.discards, seat, add_card(s.discards[seat], card)),
                                    known, remove_card(s.pile, new), ended.next)
    elif kind is PathPlayed:
        played = cast(PathPlayed, card_event)
        if played.seat == seat:
            card = played.card
            cell = new_cell(played.col, played.row, card, played.rotated)
            hand = swap_card(s.hands[seat], card, new)
            deeds = s.deeds + (new_deed(seat, card, None, cell),)  # noqa: RUF005 - as above
            known = _known_after_play(s.known, seat, card)
            return _with_path_drawn(s, _set(s.hands, seat, hand), deeds, 0, known, s.board.lay(cell),
                                    remove_card(s.pile, new), ended.next)
    s = _fold_one(s, card_event)
    if s.passes or kind is None:  # only a pass can leave passes counted; _turn_ended decides what the draw changes
        return _turn_ended(_drawn(s, drawn), ended)
    return _with_draw_turn(s, remove_card(s.pile, new), _set(s.hands, seat, add_card(s.hands[seat], new)), ended.next)


_with_pass_turn = replacer(State, "deeds", "passes", "hands", "discards", "known", "turn")
_with_path_turn = replacer(State, "hands", "deeds", "passes", "known", "board", "turn")


def _undrawn_turn_folded(s: State, card_event: Event, ended: TurnEnded) -> State:
    """What ``card_event`` and ``ended`` fold into, one by one, in one copy of the state, for a pass or a path card.

    The passes are counted as :func:`_discarded` and then :func:`_turn_ended`
    count them (``round_end="lap"``, once the pile is out).
    """
    kind = card_event.__class__
    if kind is CardsDiscarded:
        passed = cast(CardsDiscarded, card_event)
        seat, cards = passed.seat, passed.cards
        if 0 <= seat < s.seats and cards is not None and len(cards) == 1:
            (card,) = cards
            passes = s.passes + 1 if not s.pile and s.options.round_end == "lap" else 0
            if passes:  # what _turn_ended adds: the players it skips
                passes += (ended.next - ended.seat - 1) % s.seats
            deeds = s.deeds + (PASSED[seat],)  # noqa: RUF005 - quicker than unpacking into a new tuple
            known = _known_after_discard(s.known, seat, 1)
            return _with_pass_turn(s, deeds, passes, _set(s.hands, seat, remove_card(s.hands[seat], card)),
                                   _set(s.discards, seat, add_card(s.discards[seat], card)), known, ended.next)
    elif kind is PathPlayed:
        played = cast(PathPlayed, card_event)
        seat, card = played.seat, played.card
        if 0 <= seat < s.seats:
            cell = new_cell(played.col, played.row, card, played.rotated)
            deeds = s.deeds + (new_deed(seat, card, None, cell),)  # noqa: RUF005 - as above
            known = _known_after_play(s.known, seat, card)
            return _with_path_turn(s, _take(s, seat, card), deeds, 0, known, s.board.lay(cell), ended.next)
    return _turn_ended(_fold_one(s, card_event), ended)

