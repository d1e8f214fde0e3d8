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

from meeple.engine.copies import own_dict as own_dict  # the state is built through it; importable from here too
from meeple.engine.copies import replacer

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
    * ``COLLECT``: the first seat of ``collectors`` lays cards and collects, or passes.
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


# The phases as module constants, for the code that tests the phase on every command: on CPython
# 3.11 an enum class reads its members through its metaclass's ``__getattr__`` hook, several times
# slower than a global. ``phase is MOVE`` is the test ``phase is Phase.MOVE``.
DEAL, PLACE, OPEN, START, MOVE, GIFT, COLLECT, OVER = (
    Phase.DEAL, Phase.PLACE, Phase.OPEN, Phase.START, Phase.MOVE, Phase.GIFT, Phase.COLLECT, Phase.OVER)


@attrs.frozen(slots=False)
class Turn:
    """The turn in progress, but for the roll and the collectors (which sit in the state); it starts afresh.

    ``book_rolls`` counts portal and dig rolls (capped), ``extra_moves`` the
    beginner gifts' extra moves (capped), ``gift_used`` whether a gift was
    offered (one per turn). ``offer`` and ``offer_seen`` are the gift cards
    shown to the mover and who knows each. ``added`` and ``subtracted`` are
    the cards the seat collecting now has laid so far. ``jumped`` are the
    seats whose pawns the mover jumped, ``productive`` whether the mover
    collected or kept a gift, and ``haul`` the cards that did it (added,
    subtracted), for baskets.
    """

    turned: bool = False
    book_rolls: int = 0
    extra_moves: int = 0
    gift_used: bool = False
    offer: tuple[Card, ...] = ()
    offer_seen: tuple[int, ...] = ()
    added: tuple[Card, ...] = ()
    subtracted: tuple[Card, ...] = ()
    jumped: tuple[int, ...] = ()
    productive: bool = False
    haul: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())


#: The turn as every turn starts.
NEW_TURN = own_dict(Turn())


@attrs.frozen
class Cards:
    """The hidden cards: ``hands`` (sorted tuples, indexed by seat) and the ``deck`` (from the top).

    ``seen`` and ``deck_seen`` are the knowledge masks aligned with them (see
    the module docstring).
    """

    hands: tuple[tuple[Card, ...], ...] = ()
    seen: tuple[tuple[int, ...], ...] = ()
    deck: tuple[Card, ...] = ()
    deck_seen: tuple[int, ...] = ()


@attrs.frozen
class Table:
    """What lies open, indexed by seat: the piles, the beginner bank and dig cards, the baskets.

    ``plus`` is each seat's face-up pile (added cards and gifts; the loot in
    the beginner rules), ``minus`` its face-down pile (subtracted cards).
    ``baskets[owner]`` is the seat holding that owner's basket; ``own_digs``
    the beginner rules' own dig cards. ``scores`` are the seats' scores,
    worked out from the piles whenever they change (see ``rules.score``).
    """

    plus: tuple[tuple[Card, ...], ...] = ()
    minus: tuple[tuple[Card, ...], ...] = ()
    bank: tuple[Card, ...] = ()
    own_digs: tuple[int, ...] = ()
    baskets: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()


@attrs.frozen(slots=False)
class State:
    """Everything about a match (the referee's copy); hands and deck order are secret.

    ``cards`` holds the hidden cards, ``table`` the open ones, ``turn`` the
    turn in progress; the fields that change with almost every command
    (``phase``, ``roll``, ``collectors``, ``positions``) sit in the state
    itself, so most events rebuild one small record. ``collectors`` are the
    seats still to be asked to collect, in order. ``idle`` counts the
    unproductive turns in a row that drew no card (the stall guard).
    The properties (``hands``, ``deck``, ``plus``, ...) read through to the
    records.
    """

    seats: int
    options: GophersOptions
    phase: Phase = Phase.DEAL
    current: int = 0
    spread: int = 0
    roll: int = 0
    positions: tuple[int, ...] = ()
    collectors: tuple[int, ...] = ()
    cards: Cards = Cards()
    table: Table = Table()
    turn: Turn = NEW_TURN
    idle: int = 0
    end_reason: str = ""

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's hand (sorted)."""
        return self.cards.hands

    @property
    def seen(self) -> tuple[tuple[int, ...], ...]:
        """The knowledge masks of the hands' cards."""
        return self.cards.seen

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deck, from the top."""
        return self.cards.deck

    @property
    def deck_seen(self) -> tuple[int, ...]:
        """The knowledge masks of the deck's cards."""
        return self.cards.deck_seen

    @property
    def plus(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's face-up pile."""
        return self.table.plus

    @property
    def minus(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's face-down pile."""
        return self.table.minus

    @property
    def bank(self) -> tuple[Card, ...]:
        """The beginner rules' open bank."""
        return self.table.bank

    @property
    def own_digs(self) -> tuple[int, ...]:
        """The beginner rules' own dig cards left, per seat."""
        return self.table.own_digs

    @property
    def baskets(self) -> tuple[int, ...]:
        """Who holds each owner's basket."""
        return self.table.baskets


#: ``attrs.evolve`` for the state and its records, quicker (see :func:`replacer`).
replace_state = replacer(State)
replace_turn = replacer(Turn)
replace_cards = replacer(Cards)
replace_table = replacer(Table)


def new_state(seats: int, options: GophersOptions) -> State:
    """The state of a new match before the deal (see :func:`own_dict`)."""
    return own_dict(State(seats=seats, options=options))
