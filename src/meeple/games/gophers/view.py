"""What each seat may know: views, redacted events, and determinization.

Secret: every hand but your own, the order (and so the contents) of the
deck, the gift cards offered to somebody else and the cards they put back
under the deck. Public: the open spread, the pawns, every pile (collected
cards are shown to prove the sum), the cards being laid for a collection,
hand and deck sizes, baskets, the beginner bank.

A seat also knows the cards it put under the deck after its own gift, and
where they go from there (see :mod:`.state`); its view lists them
(``known_deck``, ``known_hands``, the known cards of another seat's
``gift_offer``) and :func:`determinize` keeps them in place.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import and_

import attrs

from meeple.engine import Event, Rng
from meeple.engine.copies import builder, replacer
from meeple.engine.memo import Table

from .data import RANK, Card, sort_cards
from .events import CardDrawn, Dealt, GiftOffered, GiftTaken
from .options import GophersOptions, Variant
from .state import Cards, Phase, State, Turn, replace_state, replace_turn


@attrs.frozen
class View:
    """One seat's knowledge of the match (``seat`` None: a spectator, who sees no hand).

    Per-seat tuples are indexed by seat. ``hand`` is the viewer's own hand;
    ``known_hands[s]`` the cards of seat ``s``'s hand the viewer knows;
    ``known_deck`` the deck cards it knows, as (place from the top, card);
    ``gift_offer`` the gift cards on show, as far as the viewer knows them
    (all of them for the mover, None for a card it has not seen).
    ``collectors`` are the seats still to be asked to collect, the first
    of them laying ``laid`` (added, subtracted). ``options``, ``seats``, ``idle``,
    ``turn`` (the turn in progress without its gift cards, which
    ``gift_offer`` shows as far as the viewer knows them), ``deck_seen``
    (who knows the card at each place of the deck: places move in the open)
    and ``hand_seen`` (who knows each card of the viewer's own hand) are
    the facts a search needs to rebuild a state (``Game.world``).
    """

    seat: int | None
    variant: Variant
    phase: Phase
    spread: int
    current: int
    roll: int
    positions: tuple[int, ...]
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    known_hands: tuple[tuple[Card, ...], ...]
    deck_size: int
    known_deck: tuple[tuple[int, Card], ...]
    plus: tuple[tuple[Card, ...], ...]
    minus: tuple[tuple[Card, ...], ...]
    bank: tuple[Card, ...]
    own_digs: tuple[int, ...]
    baskets: tuple[int, ...]
    gift_offer: tuple[Card | None, ...]
    collectors: tuple[int, ...]
    laid: tuple[tuple[Card, ...], tuple[Card, ...]]
    turned: bool
    jumped: tuple[int, ...]
    productive: bool
    scores: tuple[int, ...]
    end_reason: str
    options: GophersOptions
    seats: int
    idle: int
    turn: Turn
    deck_seen: tuple[int, ...]
    hand_seen: tuple[int, ...]


_new_view = builder(View)
_turn_without_offer = replacer(Turn, "offer")


def _knows(mask: int, seat: int | None) -> bool:
    return seat is not None and bool(mask >> seat & 1)


#: The view with the fields the state holds itself made anew (see :func:`view`).
_view_moved = replacer(View, "phase", "spread", "current", "roll", "positions", "collectors", "end_reason", "idle")
#: The last view of each seat, with the state it shows (see :func:`view`). It is not handed back as it
#: is: :func:`view` copies it only when every part of the state the copy keeps (the cards, the table,
#: the turn, the options, the seats, and whose offer it is) is the very same object as before, and
#: makes the state's own fields anew; so the answer depends on nothing the check does not look at.
_LAST: Table[int | None, tuple[State, View]] = Table("gophers: last view by seat", limit=16)


def view(state: State, seat: int | None) -> View:
    """Return what ``seat`` may know of ``state``.

    Most commands change no card, pile or turn record (a roll, a walk, a
    pass): then the seat's last view is copied with the fields the state
    holds itself made anew, the same view as one built from scratch.
    """
    table, turn = state.table, state.turn
    last = _LAST.get(seat)
    if last is not None:
        before, shown = last
        if (before.cards is state.cards and before.table is table and before.turn is turn
                and before.options is state.options and before.seats == state.seats
                and (not turn.offer or before.current == state.current)):  # whose offer it is decides what shows
            shown = _view_moved(shown, state.phase, state.spread, state.current, state.roll, state.positions,
                                state.collectors, state.end_reason, state.idle)
            _LAST[seat] = (state, shown)
            return shown
    mine, sizes, known_hands, deck_size, known_deck, deck_seen, hand_seen = _cards_known(state.cards, seat)
    offer: tuple[Card | None, ...] = turn.offer
    if offer and (seat is None or seat != state.current):
        offer = tuple(c if _knows(m, seat) else None for c, m in zip(offer, turn.offer_seen))
    shown = _new_view(seat, state.options.variant, state.phase, state.spread, state.current, state.roll,
                      state.positions, mine, sizes, known_hands, deck_size, known_deck, table.plus, table.minus,
                      table.bank, table.own_digs, table.baskets, offer, state.collectors, (turn.added, turn.subtracted),
                      turn.turned, turn.jumped, turn.productive, table.scores if sizes else (), state.end_reason,
                      state.options, state.seats, state.idle, _turn_without_offer(turn, ()) if turn.offer else turn,
                      deck_seen, hand_seen)
    _LAST.put(seat, (state, shown))
    return shown


#: What a seat knows of the hidden cards: (its hand, hand sizes, known hands, deck size, known deck
#: places, who knows each deck place, who knows each card of its hand).
CardsKnown = tuple[tuple[Card, ...], tuple[int, ...], tuple[tuple[Card, ...], ...], int,
                   tuple[tuple[int, Card], ...], tuple[int, ...], tuple[int, ...]]

#: :func:`_cards_known` of recent card records, by (the record's ``id``, seat), and the known deck
#: places of recent decks, by (the knowledge masks' ``id``, seat). The objects are held with their
#: answers, so an ``id`` names no other object while its entry lives. Most events leave the cards
#: alone (a roll, a walk), and most that change them leave the deck alone (a laid card), so views
#: of one seat in a row, and of the seats in turn, ask about the same objects again.
_KNOWN: Table[tuple[int, int | None], tuple[Cards, CardsKnown]] = Table("gophers: hidden cards known", limit=64)
_KNOWN_DECK: Table[tuple[int, int], tuple[tuple[Card, ...], tuple[int, ...], tuple[tuple[int, Card], ...]]] = Table(
    "gophers: deck places known", limit=64)


def _cards_known(cards: Cards, seat: int | None) -> CardsKnown:
    """The part of ``seat``'s view made from the hidden cards (remembered for recent records)."""
    key = (id(cards), seat)
    found = _KNOWN.get(key)
    if found is not None and found[0] is cards:
        return found[1]
    hands, seen, deck, deck_seen = cards.hands, cards.seen, cards.deck, cards.deck_seen
    n = len(hands)
    mine: tuple[Card, ...] = ()
    hand_seen: tuple[int, ...] = ()
    known_hands: tuple[tuple[Card, ...], ...] = ((),) * n
    known_deck: tuple[tuple[int, Card], ...] = ()
    if seat is not None:
        if 0 <= seat < n:
            mine, hand_seen = hands[seat], seen[seat]
        bit = 1 << seat
        if any(map(any, seen)):
            known_hands = tuple([() if s == seat or not any(masks) else tuple(compress(hands[s], map(and_, masks, repeat(bit))))
                                 for s, masks in enumerate(seen)])
        if any(deck_seen):
            known_deck = _deck_known(deck, deck_seen, seat)
    known = (mine, tuple(map(len, hands)), known_hands, len(deck), known_deck, deck_seen, hand_seen)
    _KNOWN.put(key, (cards, known))
    return known


def _deck_known(deck: tuple[Card, ...], deck_seen: tuple[int, ...], seat: int) -> tuple[tuple[int, Card], ...]:
    """The places of ``deck`` that ``seat`` knows, with their cards (remembered for recent decks)."""
    key = (id(deck_seen), seat)
    found = _KNOWN_DECK.get(key)
    if found is not None and found[0] is deck and found[1] is deck_seen:
        return found[2]
    # Known places are cards put under the deck after a gift, so they lie below the unknown ones: the
    # places are read from the first known one down (all of them when an unknown one lies among them).
    first = deck_seen.count(0)
    if 0 in deck_seen[first:]:
        first = 0
    bit = 1 << seat
    known = tuple([(i, deck[i]) for i in range(first, len(deck)) if deck_seen[i] & bit])
    _KNOWN_DECK.put(key, (deck, deck_seen, known))
    return known


def redact(event: Event, seat: int | None) -> Event | None:
    """Return ``event`` as ``seat`` sees it: other seats' cards and the deck become None."""
    match event:
        case Dealt(deck=deck, hands=hands) if deck or any(hands):  # the beginner deal deals nothing to hide
            return Dealt(None, tuple(h if s == seat else None for s, h in enumerate(hands)))
        case GiftOffered(seat=owner) if owner != seat:
            return GiftOffered(owner, None)
        case GiftTaken(seat=owner, card=card) if owner != seat:
            return GiftTaken(owner, card, None, None)
        case CardDrawn(seat=owner) if owner != seat:
            return CardDrawn(owner, None)
    return event


def determinize(state: State, seat: int | None, rng: Rng) -> State:
    """Re-deal every card ``seat`` cannot know: the rest of other hands, the deck, another seat's gift offer.

    Cards the seat knows stay where they are (its hand, the cards it put
    under the deck and where they went since); sizes and who knows which
    place stay too, so ``view(determinize(s, seat, rng), seat) == view(s, seat)``.
    The beginner rules hide nothing: the state comes back as it is.

    >>> import meeple
    >>> m = meeple.Match.start("gophers", seats=2, seed=1)
    >>> other = determinize(m.state, 0, Rng(5))
    >>> other.hands[0] == m.state.hands[0], other.hands[1] == m.state.hands[1]
    (True, False)
    """
    if state.options.variant is Variant.BEGINNER or not state.hands:
        return state
    turn, c = state.turn, state.cards
    bit = 0 if seat is None else 1 << seat
    hide_offer = state.phase is Phase.GIFT and seat != state.current
    # the cards to deal again: each place the seat does not know
    plain_deck = not any(c.deck_seen)
    unknown = range(len(c.deck)) if plain_deck else [i for i, m in enumerate(c.deck_seen) if not m & bit]
    pool = [c.deck[i] for i in unknown]
    others = [s for s in range(state.seats) if s != seat]
    for s in others:
        seen = c.seen[s]
        if any(seen):
            pool.extend(card for card, m in zip(c.hands[s], seen) if not m & bit)
        else:
            pool.extend(c.hands[s])
    if hide_offer:
        pool.extend(card for card, m in zip(turn.offer, turn.offer_seen) if not m & bit)
    dealt = rng.shuffled(pool)
    n = len(unknown)
    if plain_deck:
        deck = tuple(dealt[:n])
    else:
        placed = list(c.deck)
        for i, card in zip(unknown, dealt):
            placed[i] = card
        deck = tuple(placed)
    cards = iter(dealt[n:])
    hands, seens = list(c.hands), list(c.seen)
    for s in others:
        seen = c.seen[s]
        if any(seen):  # cards known to somebody keep their masks: they move with their places
            held = [(card if m & bit else next(cards), m) for card, m in zip(c.hands[s], seen)]
            held.sort(key=lambda cm: (RANK[cm[0]], cm[1]))
            hands[s] = tuple(card for card, _ in held)
            seens[s] = tuple(m for _, m in held)
        else:
            hands[s] = sort_cards([next(cards) for _ in seen])
    offer = turn.offer
    if hide_offer:
        offer = tuple(card if m & bit else next(cards) for card, m in zip(turn.offer, turn.offer_seen))
    return replace_state(state, cards=Cards(tuple(hands), tuple(seens), deck, c.deck_seen),
                         turn=replace_turn(turn, offer=offer) if hide_offer else turn)

