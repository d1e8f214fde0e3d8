"""What each seat may know in Underground Kings: views, redaction, determinization.

The cards are double-sided, so what a player sees follows the table:

* its own hand (both sides);
* the *mine side* of every card in every other hand (the backs face the
  table) and of the deck's top card, never their squad side, except for
  the cards a player took from the camp or showed when it retreated, which
  everybody saw;
* everything squad side up: the stacks on the mines, the camp piles (whole:
  every card in them was laid or played openly), the discard;
* the mine side of every mine on the table and developed; the squad side
  printed under a mine is never seen by anybody.

The order of the deck below its top card is hidden from everybody.
"""

from __future__ import annotations

import attrs

from meeple.engine import Event, Rng

from .data import CARDS, Mine, People, backs
from .events import DeckShuffled, DrewFromDeck, HandDealt, MineTurned
from .state import KingsOptions, MineSlot, Phase, State
from .tables import MINE
from .viewparts import MineView, developed_sides, hand_backs, mine_views, table_scores


@attrs.frozen(slots=False)
class KingsView:
    """What one seat (``None``: a spectator) knows of a match.

    ``hand`` is the seat's own card ids (empty for a spectator); ``hand_backs``
    the mine sides of every seat's hand; ``open_hands`` the cards in each
    hand that everybody has seen (taken from the camp, or shown in a
    retreat); ``deck_top`` the mine side of the
    deck's top card; ``mines`` the mines on the table (central ones have no
    owner); ``developed`` the mine sides each seat has developed; ``camp``
    the camp piles per people, bottom to top; ``scores`` the points as the
    position stands; ``must_draw_deck`` is set after a retreat; ``seats`` and
    ``options`` are the table's size and rules, public from the start.
    """

    seat: int | None
    seats: int
    options: KingsOptions
    phase: Phase
    turn: int
    peoples: tuple[People, ...]
    hand: tuple[int, ...]
    hand_backs: tuple[tuple[Mine, ...], ...]
    open_hands: tuple[tuple[int, ...], ...]
    deck_size: int
    deck_top: Mine | None
    mines: tuple[MineView, ...]
    developed: tuple[tuple[Mine, ...], ...]
    camp: tuple[tuple[int, ...], ...]
    discard: tuple[int, ...]
    scores: tuple[int, ...]
    must_draw_deck: bool

    # A view is made for every position a seat is shown: with its fields in a __dict__ rather than
    # slots, attrs's __init__ stores them with one dict write each instead of a call each, about half
    # the cost. It is frozen all the same.


_SETUP = Phase.SETUP


def view(state: State, seat: int | None) -> KingsView:
    """Return what ``seat`` may know of ``state``."""
    own = state.hands[seat] if seat is not None and seat < len(state.hands) else ()
    return KingsView(  # the fields by position, in the class's order (a call with keywords costs more)
        seat,  # seat
        state.seats,  # seats
        state.options,  # options
        state.phase,  # phase
        state.turn,  # turn
        state.peoples,  # peoples
        own,  # hand
        hand_backs(state.hands),  # hand_backs
        state.open_cards,  # open_hands
        len(state.deck),  # deck_size
        MINE[state.deck[0]] if state.deck and state.phase is not _SETUP else None,  # deck_top
        mine_views(state.mines),  # mines
        developed_sides(state.developed),  # developed
        state.camp,  # camp
        state.discard,  # discard
        table_scores(state) if state.peoples else (),  # scores
        state.retreated,  # must_draw_deck
    )


# A view is built for every move a bot or a client is shown, and most of the table is as it was
# one move before: the parts above are remembered in .viewparts (they are frozen values).


def redact(event: Event, seat: int | None) -> Event | None:
    """Return ``event`` as ``seat`` sees it: hidden card ids set to None.

    The deck order and the squad side of a new mine are hidden from every
    seat; a dealt hand or a card drawn from the deck only from other seats.
    """
    match event:
        case DeckShuffled():
            return DeckShuffled(None)
        case MineTurned():
            return attrs.evolve(event, card=None)
        case HandDealt(seat=owner) if owner != seat:
            return attrs.evolve(event, cards=None)
        case DrewFromDeck(seat=owner) if owner != seat:
            return attrs.evolve(event, card=None)
    return event


def determinize(state: State, seat: int | None, rng: Rng) -> State:
    """Return a state ``seat`` cannot tell from ``state``, hidden cards re-dealt at random.

    Every card whose squad side ``seat`` cannot see (other hands, the deck, the
    cards under mines) is re-dealt among those places, keeping each visible
    mine side: a card in another hand, under a mine, or on top of the deck is
    replaced by a card with the same mine side; the rest of the deck gets
    what is left, shuffled. Cards everybody has seen in a hand (taken from
    the camp, shown in a retreat) stay put.
    """
    if state.phase is Phase.SETUP:
        return state
    # the hidden places that show a mine side, in a fixed order
    hands = [
        [c for c in h if c not in state.open_cards[s]] if s != seat else None for s, h in enumerate(state.hands)
    ]
    fixed: list[int] = [c for h in hands if h is not None for c in h]
    fixed += [m.card for m in state.mines]
    fixed += [c for dev in state.developed for c in dev]
    fixed += list(state.deck[:1])
    pool = fixed + list(state.deck[1:])
    groups: dict[Mine, list[int]] = {}
    for c in sorted(pool):
        groups.setdefault(CARDS[c].mine, []).append(c)
    shuffled = {mine: list(rng.shuffled(cards)) for mine, cards in groups.items()}
    new_fixed = [shuffled[CARDS[c].mine].pop() for c in fixed]
    rest = rng.shuffled(sorted(c for cards in shuffled.values() for c in cards))
    it = iter(new_fixed)
    new_hands = tuple(
        tuple(sorted((*state.open_cards[s], *(next(it) for _ in h)))) if h is not None else state.hands[s]
        for s, h in enumerate(hands)
    )
    new_mines = tuple(attrs.evolve(m, card=next(it)) for m in state.mines)
    new_dev = tuple(tuple(next(it) for _ in dev) for dev in state.developed)
    new_deck = tuple(next(it) for _ in state.deck[:1]) + rest
    return attrs.evolve(state, hands=new_hands, mines=new_mines, developed=new_dev, deck=new_deck)


__all__ = ["KingsView", "MineSlot", "MineView", "backs", "determinize", "redact", "view"]
