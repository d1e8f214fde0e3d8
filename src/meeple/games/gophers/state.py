"""The referee's state of a Gophers match, the turn in progress, and the phases of a turn.

Besides the cards themselves the state records **who knows which hidden
card**: ``seen`` (aligned with each hand) and ``deck_seen`` (aligned with the
deck) hold a bit mask per card, bit ``s`` set when seat ``s`` knows that this
card is there. A seat learns a hidden card's place in one way only: it saw
the card in its own gift offer and put it back under the deck, where it
stays known as the deck moves up, into the hand of whoever draws it, or into
another gift offer. Views show each seat what it knows and
``determinize`` keeps it.
"""

from __future__ import annotations

import enum

import attrs

from .data import Card
from .options import GophersOptions


class Phase(enum.Enum):
    """Where the match stands; each phase names who acts and what they may do.

    * ``DEAL``: the engine deals (or lays out the beginner bank).
    * ``PLACE``: players place pawns in turn, youngest (seat 0) first.
    * ``OPEN``: the engine rolls the die and opens the book at that spread.
    * ``START``: the player to move rolls, or plays a dig card instead.
    * ``MOVE``: the roll is known: walk exactly that many steps, or dig.
    * ``GIFT``: the mover keeps one of the three gift cards.
    * ``COLLECT``: the first seat of ``turn.collectors`` lays cards and collects, or passes.
    * ``OVER``: the game has ended.
    """

    DEAL = "deal"
    PLACE = "place"
    OPEN = "open"
    START = "start"
    MOVE = "move"
    GIFT = "gift"
    COLLECT = "collect"
    OVER = "over"


@attrs.frozen
class Turn:
    """The turn in progress; it starts afresh when the turn ends.

    ``book_rolls`` counts portal and dig rolls (capped), ``extra_moves`` the
    beginner gifts' extra moves (capped), ``gift_used`` whether a gift was
    offered (one per turn). ``offer`` and ``offer_seen`` are the gift cards
    shown to the mover and who knows each. ``collectors`` are the seats still
    to be asked to collect, in order; ``added`` and ``subtracted`` the cards
    the first of them has laid so far. ``jumped`` are the seats whose pawns the mover
    jumped, ``productive`` whether the mover collected or kept a gift, and
    ``haul`` the cards that did it (added, subtracted), for baskets.
    """

    roll: int = 0
    turned: bool = False
    book_rolls: int = 0
    extra_moves: int = 0
    gift_used: bool = False
    offer: tuple[Card, ...] = ()
    offer_seen: tuple[int, ...] = ()
    collectors: tuple[int, ...] = ()
    added: tuple[Card, ...] = ()
    subtracted: tuple[Card, ...] = ()
    jumped: tuple[int, ...] = ()
    productive: bool = False
    haul: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())


#: The turn as every turn starts.
NEW_TURN = Turn()


@attrs.frozen
class State:
    """Everything about a match (the referee's copy); hands and deck order are secret.

    Per-seat tuples are indexed by seat. ``hands`` are sorted card tuples,
    ``seen`` the knowledge masks aligned with them; ``deck`` lists the draw
    pile from the top, ``deck_seen`` its masks (see the module docstring).
    ``plus`` is each seat's face-up pile (added cards and gifts; the loot in
    the beginner rules), ``minus`` its face-down pile (subtracted cards).
    ``baskets[owner]`` is the seat holding that owner's basket; ``own_digs``
    the beginner rules' own dig cards. ``idle`` counts the unproductive turns
    in a row that drew no card (the stall guard).
    """

    seats: int
    options: GophersOptions
    phase: Phase = Phase.DEAL
    current: int = 0
    spread: int = 0
    positions: tuple[int, ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()
    seen: tuple[tuple[int, ...], ...] = ()
    deck: tuple[Card, ...] = ()
    deck_seen: tuple[int, ...] = ()
    plus: tuple[tuple[Card, ...], ...] = ()
    minus: tuple[tuple[Card, ...], ...] = ()
    bank: tuple[Card, ...] = ()
    own_digs: tuple[int, ...] = ()
    baskets: tuple[int, ...] = ()
    turn: Turn = NEW_TURN
    idle: int = 0
    end_reason: str = ""
