"""The fold of Gophers: how each event changes the state, one small function per event type.

``fold(state, event)`` is the game's ``evolve``: pure, it never draws and
never fails on an event ``decide`` made. It also keeps the record of who
knows which hidden card (see :mod:`.state`).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import Any

from meeple.engine import Event
from meeple.engine.copies import builder, replacer

from .data import DIG, RANK, Card, sort_cards
from .events import (
    BankLaid,
    BasketRedeemed,
    BasketsTaken,
    BookOpened,
    BookRolled,
    CardDrawn,
    CardLaid,
    Collected,
    CollectionOpened,
    Dealt,
    DigPlayed,
    ExtraMove,
    GameEnded,
    GiftOffered,
    GiftTaken,
    Moved,
    Passed,
    Placed,
    Rolled,
    TurnEnded,
)
from .state import (
    COLLECT,
    GIFT,
    MOVE,
    NEW_TURN,
    OPEN,
    OVER,
    PLACE,
    START,
    Cards,
    State,
    Table,
    Turn,
    replace_state,
    replace_table,
)

# -- cards and who knows them ------------------------------------------------------


def add_card(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """``cards`` (sorted) with ``card`` put in its place."""
    i = bisect.bisect_right(cards, RANK[card], key=RANK.__getitem__)
    return (*cards[:i], card, *cards[i:])


def add_cards(cards: tuple[Card, ...], more: Sequence[Card]) -> tuple[Card, ...]:
    """``cards`` (sorted) with ``more`` put in their places."""
    return sort_cards([*cards, *more]) if more else cards


def remove_cards(cards: tuple[Card, ...], gone: Sequence[Card]) -> tuple[Card, ...]:
    """``cards`` without one copy of each of ``gone``."""
    out = list(cards)
    for c in gone:
        out.remove(c)
    return tuple(out)


def hand_add(hand: tuple[Card, ...], seen: tuple[int, ...], card: Card, mask: int) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """``hand`` and its masks with ``card`` added, known to the seats of ``mask``."""
    i = bisect.bisect_right(hand, RANK[card], key=RANK.__getitem__)
    return (*hand[:i], card, *hand[i:]), (*seen[:i], mask, *seen[i:])


def hand_drop(hand: tuple[Card, ...], seen: tuple[int, ...], card: Card) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """``hand`` and its masks with one copy of ``card`` gone (it was shown: laid or played).

    Copies of a card are alike, so a seat that knew of ``k`` copies in this
    hand knows of ``k - 1`` afterwards: the shown one may have been any.
    """
    i = hand.index(card)
    j = i + 1
    while j < len(hand) and hand[j] is card:
        j += 1
    masks = seen[i:j]
    rest = masks[1:]
    if any(masks):
        known = [0] * (j - i - 1)
        union = 0
        for m in masks:
            union |= m
        bit = 0
        while union >> bit:
            if union >> bit & 1:
                for k in range(sum(m >> bit & 1 for m in masks) - 1):
                    known[k] |= 1 << bit
            bit += 1
        rest = tuple(known)
    return (*hand[:i], *hand[i + 1 :]), (*seen[:i], *rest, *seen[j:])


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    out = list(t)  # one list and one tuple made: quicker than joining two slices around ``v``
    out[i] = v
    return tuple(out)


def pile_score(beginner: bool, plus: tuple[Card, ...], minus: tuple[Card, ...]) -> int:
    """The score of one seat's piles (the rule is ``rules.score``).

    Standard rules: the face-up pile's values minus the face-down pile's.
    Beginner rules: the total of the kind the seat has least of.
    """
    if beginner:
        totals = [0, 0, 0]
        for c in plus:
            totals[RANK[c] // 10] += c.value
        return min(totals)
    return sum(c.value for c in plus) - sum(c.value for c in minus)


def _piles(s: State, t: Table, seats: Sequence[int], plus: tuple[tuple[Card, ...], ...],
           minus: tuple[tuple[Card, ...], ...], **more: Any) -> Table:
    """The table with new piles, the scores of ``seats`` worked out again."""
    beginner = s.options.beginner
    scores = t.scores
    for seat in seats:
        scores = _set(scores, seat, pile_score(beginner, plus[seat], minus[seat]))
    if more:
        return replace_table(t, plus=plus, minus=minus, scores=scores, **more)
    return _table_piles(t, plus, minus, scores)


# The copies the commonest events make, the new values given in the order named (``state.replacer``).
_with_roll = replacer(State, "phase", "roll")
_with_positions = replacer(State, "positions")
_with_walk = replacer(State, "positions", "turn")
_with_turn = replacer(State, "turn")
_with_spread = replacer(State, "spread", "turn")
_with_next_turn = replacer(State, "phase", "current", "roll", "collectors", "turn", "idle")
_with_collectors = replacer(State, "phase", "collectors")
_with_asked = replacer(State, "collectors")
_with_laid = replacer(State, "cards", "turn")
_with_collected = replacer(State, "collectors", "table", "turn")
_with_cards = replacer(State, "cards")
_with_gift = replacer(State, "phase", "cards", "turn")
_with_gift_kept = replacer(State, "cards", "table", "turn")
_turn_offer = replacer(Turn, "gift_used", "offer", "offer_seen")
_turn_offer_gone = replacer(Turn, "offer", "offer_seen")
_turn_gift_kept = replacer(Turn, "offer", "offer_seen", "productive", "haul")
_turn_collected = replacer(Turn, "added", "subtracted", "productive", "haul")
_cards_deck = replacer(Cards, "deck", "deck_seen")
_with_roll_turn = replacer(State, "phase", "roll", "turn")
_with_table_turn = replacer(State, "table", "turn")
_turn_extra = replacer(Turn, "extra_moves")
_table_piles = replacer(Table, "plus", "minus", "scores")
_turn_jumped = replacer(Turn, "jumped")
_turn_rolls = replacer(Turn, "book_rolls")
_turn_turned = replacer(Turn, "turned", "book_rolls")
_turn_added = replacer(Turn, "added")
_turn_subtracted = replacer(Turn, "subtracted")
_turn_cleared = replacer(Turn, "added", "subtracted")
_new_cards = builder(Cards)


# -- the turn ---------------------------------------------------------------------


def _rolled(s: State, e: Rolled) -> State:
    return _with_roll(s, MOVE, e.roll)


def _moved(s: State, e: Moved) -> State:
    positions = _set(s.positions, e.seat, e.dest)
    if not e.jumped:
        return _with_positions(s, positions)
    turn = s.turn
    return _with_walk(s, positions, _turn_jumped(turn, (*turn.jumped, *e.jumped)))


def _book_rolled(s: State, e: BookRolled) -> State:
    turn = s.turn
    if e.turned:
        return _with_spread(s, e.roll, _turn_turned(turn, True, turn.book_rolls + 1))
    return _with_turn(s, _turn_rolls(turn, turn.book_rolls + 1))


def _dig_played(s: State, e: DigPlayed) -> State:
    if e.from_gift:
        return s
    seat = e.seat
    if s.options.beginner:
        t = s.table
        return replace_state(s, table=replace_table(t, own_digs=_set(t.own_digs, seat, t.own_digs[seat] - 1)))
    return _with_cards(s, _hand_without(s.cards, seat, DIG))


def _gift_offered(s: State, e: GiftOffered) -> State:
    c = s.cards
    cards = e.cards or ()
    n = len(cards)
    mine = 1 << e.seat
    offer_seen = tuple(m | mine for m in c.deck_seen[:n])
    return _with_gift(s, GIFT, _cards_deck(c, c.deck[n:], c.deck_seen[n:]), _turn_offer(s.turn, True, cards, offer_seen))


def _gift_taken(s: State, e: GiftTaken) -> State:
    turn, c = s.turn, s.cards
    offer, seen, i = turn.offer, turn.offer_seen, e.index
    assert i is not None, "only a redacted GiftTaken hides the place, and the state folds the referee's events"
    cards = _cards_deck(c, (*c.deck, *offer[:i], *offer[i + 1 :]),  # under the deck, in the order drawn
                        (*c.deck_seen, *seen[:i], *seen[i + 1 :]))
    if e.card is DIG:
        return _with_laid(s, cards, _turn_offer_gone(turn, (), ()))
    t = s.table
    plus = _set(t.plus, e.seat, add_card(t.plus[e.seat], e.card))
    haul = ((*turn.haul[0], e.card), turn.haul[1])
    return _with_gift_kept(s, cards, _piles(s, t, (e.seat,), plus, t.minus), _turn_gift_kept(turn, (), (), True, haul))


def _extra_move(s: State, e: ExtraMove) -> State:
    turn = s.turn
    return _with_roll_turn(s, START, 0, _turn_extra(turn, turn.extra_moves + 1))


def _turn_ended(s: State, e: TurnEnded) -> State:
    return _with_next_turn(s, START, e.next, 0, (), NEW_TURN, e.idle)


# -- collecting -------------------------------------------------------------------


def _collection_opened(s: State, e: CollectionOpened) -> State:
    return _with_collectors(s, COLLECT, e.collectors)


def _card_laid(s: State, e: CardLaid) -> State:
    turn, seat, card = s.turn, e.seat, e.card
    laid = _turn_subtracted(turn, (*turn.subtracted, card)) if e.subtracted else _turn_added(turn, (*turn.added, card))
    if not s.options.beginner:
        return _with_laid(s, _hand_without(s.cards, seat, card), laid)
    t = s.table
    if e.subtracted:  # change, from the seat's pile
        plus = _set(t.plus, seat, remove_cards(t.plus[seat], (card,)))
        return _with_table_turn(s, _piles(s, t, (seat,), plus, t.minus), laid)
    return _with_table_turn(s, replace_table(t, bank=remove_cards(t.bank, (card,))), laid)


def _collected(s: State, e: Collected) -> State:
    turn, seat, t = s.turn, e.seat, s.table
    if seat == s.current:
        haul = ((*turn.haul[0], *e.plus), (*turn.haul[1], *e.minus))
        nxt = _turn_collected(turn, (), (), True, haul)
    else:
        nxt = _turn_cleared(turn, (), ())
    plus = _set(t.plus, seat, add_cards(t.plus[seat], e.plus))
    if s.options.beginner:  # the taken cards to the pile, the change to the bank
        table = _piles(s, t, (seat,), plus, t.minus, bank=add_cards(t.bank, e.minus))
    else:
        table = _piles(s, t, (seat,), plus, _set(t.minus, seat, add_cards(t.minus[seat], e.minus)))
    return _with_collected(s, s.collectors[1:], table, nxt)


def _passed(s: State, e: Passed) -> State:
    return _with_asked(s, s.collectors[1:])


def _card_drawn(s: State, e: CardDrawn) -> State:
    assert e.card is not None
    c, seat = s.cards, e.seat
    hand, seen = hand_add(c.hands[seat], c.seen[seat], e.card, c.deck_seen[0] & ~(1 << seat))
    return _with_cards(s, _new_cards(_set(c.hands, seat, hand), _set(c.seen, seat, seen), c.deck[1:], c.deck_seen[1:]))


def _hand_without(c: Cards, seat: int, card: Card) -> Cards:
    hand, seen = hand_drop(c.hands[seat], c.seen[seat], card)
    return _new_cards(_set(c.hands, seat, hand), _set(c.seen, seat, seen), c.deck, c.deck_seen)


# -- baskets ----------------------------------------------------------------------


def _baskets_taken(s: State, e: BasketsTaken) -> State:
    t = s.table
    return replace_state(s, table=replace_table(t, baskets=tuple(e.seat if o in e.owners else h
                                                                 for o, h in enumerate(t.baskets))))


def _basket_redeemed(s: State, e: BasketRedeemed) -> State:
    owner, holder, t = e.owner, e.holder, s.table
    plus = _set(_set(t.plus, owner, remove_cards(t.plus[owner], e.plus)), holder, add_cards(t.plus[holder], e.plus))
    minus = _set(_set(t.minus, owner, remove_cards(t.minus[owner], e.minus)), holder,
                 add_cards(t.minus[holder], e.minus))
    return replace_state(s, table=_piles(s, t, (owner, holder), plus, minus, baskets=_set(t.baskets, owner, owner)))


# -- set-up and the end --------------------------------------------------------------


def _dealt(s: State, e: Dealt) -> State:
    n = s.seats
    deck = e.deck or ()
    hands = tuple(h or () for h in e.hands)
    return replace_state(s, phase=PLACE, positions=(-1,) * n, current=0,
                         cards=Cards(hands, tuple((0,) * len(h) for h in hands), deck, (0,) * len(deck)),
                         table=Table(((),) * n, ((),) * n, (), (0,) * n, tuple(range(n)), (0,) * n))


def _bank_laid(s: State, e: BankLaid) -> State:
    return replace_state(s, table=replace_table(s.table, bank=e.bank, own_digs=(1,) * s.seats))


def _placed(s: State, e: Placed) -> State:
    after = e.seat + 1
    return replace_state(s, positions=_set(s.positions, e.seat, e.hole), current=after % s.seats,
                         phase=PLACE if after < s.seats else OPEN)


def _book_opened(s: State, e: BookOpened) -> State:
    return replace_state(s, spread=e.roll, phase=START, current=0)


def _game_ended(s: State, e: GameEnded) -> State:
    return replace_state(s, phase=OVER, end_reason=e.reason)


#: The fold of each event type.
FOLD: dict[type[Event], Callable[[State, Any], State]] = {
    Rolled: _rolled, Moved: _moved, BookRolled: _book_rolled, DigPlayed: _dig_played,
    GiftOffered: _gift_offered, GiftTaken: _gift_taken, ExtraMove: _extra_move, TurnEnded: _turn_ended,
    CollectionOpened: _collection_opened, CardLaid: _card_laid, Collected: _collected, Passed: _passed,
    CardDrawn: _card_drawn, BasketsTaken: _baskets_taken, BasketRedeemed: _basket_redeemed, Dealt: _dealt,
    BankLaid: _bank_laid, Placed: _placed, BookOpened: _book_opened, GameEnded: _game_ended,
}


def fold(state: State, event: Event) -> State:
    """The state after ``event``."""
    step = FOLD.get(type(event))
    if step is None:
        raise TypeError(f"gophers cannot fold {event!r}")
    return step(state, event)
