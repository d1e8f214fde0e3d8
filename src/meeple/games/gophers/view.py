"""What each seat may know: views, redacted events, and determinization.

Secret: every hand but your own, the order (and so the contents) of the
deck, the gift cards offered to somebody else and the two cards they return
to the bottom. Public: the open spread, the pawns, every pile (collected cards
are shown to prove the sum), hand and deck sizes, baskets, the beginner bank.
"""

from __future__ import annotations

import attrs

from meeple.engine import Event, Rng

from .data import Card, sort_cards
from .events import CardDrawn, Dealt, GiftOffered, GiftTaken
from .options import Variant
from .state import Phase, State


@attrs.frozen
class View:
    """One seat's knowledge of the match (``seat`` None: a spectator, who sees no hand).

    Per-seat tuples are indexed by seat; ``hand`` is the viewer's own hand and
    ``gift_offer`` the cards offered to the viewer (empty unless it is choosing).
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
    deck_size: int
    plus: tuple[tuple[Card, ...], ...]
    minus: tuple[tuple[Card, ...], ...]
    bank: tuple[Card, ...]
    own_digs: tuple[int, ...]
    baskets: tuple[int, ...]
    gift_offer: tuple[Card, ...]
    gift_size: int
    collectors: tuple[int, ...]
    turned: bool
    jumped: tuple[int, ...]
    productive: bool
    scores: tuple[int, ...]
    end_reason: str


def view(state: State, seat: int | None) -> View:
    """Return what ``seat`` may know of ``state``."""
    from .rules import score  # rules imports this module

    n = state.seats if state.hands else 0
    mine = state.hands[seat] if seat is not None and seat < len(state.hands) else ()
    offer = state.gift_offer if seat is not None and seat == state.current else ()
    return View(
        seat=seat,
        variant=state.options.variant,
        phase=state.phase,
        spread=state.spread,
        current=state.current,
        roll=state.roll,
        positions=state.positions,
        hand=mine,
        hand_sizes=tuple(len(h) for h in state.hands),
        deck_size=len(state.deck),
        plus=state.plus,
        minus=state.minus,
        bank=state.bank,
        own_digs=state.own_digs,
        baskets=state.baskets,
        gift_offer=offer,
        gift_size=len(state.gift_offer),
        collectors=state.collectors,
        turned=state.turned,
        jumped=state.jumped,
        productive=state.productive,
        scores=tuple(score(state, s) for s in range(n)),
        end_reason=state.end_reason,
    )


def redact(event: Event, seat: int | None) -> Event | None:
    """Return ``event`` as ``seat`` sees it: other seats' cards and the deck become None."""
    match event:
        case Dealt(hands=hands):
            return Dealt(None, tuple(h if s == seat else None for s, h in enumerate(hands)))
        case GiftOffered(seat=owner) if owner != seat:
            return GiftOffered(owner, None)
        case GiftTaken(seat=owner, card=card) if owner != seat:
            return GiftTaken(owner, card, None)
        case CardDrawn(seat=owner) if owner != seat:
            return CardDrawn(owner, None)
    return event


def determinize(state: State, seat: int | None, rng: Rng) -> State:
    """Re-deal every card ``seat`` cannot see: other hands, the deck, another seat's gift offer.

    Sizes stay as they are, so ``view(determinize(s, seat, rng), seat) == view(s, seat)``.
    """
    if state.options.variant is Variant.BEGINNER or not state.hands:
        return state
    others = [s for s in range(state.seats) if s != seat]
    hide_offer = state.phase is Phase.GIFT and seat != state.current
    pool: list[Card] = list(state.deck)
    for s in others:
        pool.extend(state.hands[s])
    if hide_offer:
        pool.extend(state.gift_offer)
    cards = list(rng.shuffled(pool))
    hands = list(state.hands)
    for s in others:
        k = len(state.hands[s])
        hands[s], cards = sort_cards(cards[:k]), cards[k:]
    offer = state.gift_offer
    if hide_offer:
        k = len(offer)
        offer, cards = tuple(cards[:k]), cards[k:]
    return attrs.evolve(state, hands=tuple(hands), deck=tuple(cards), gift_offer=offer)
