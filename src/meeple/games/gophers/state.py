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
from collections.abc import Callable
from typing import Any, TypeVar

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


@attrs.frozen
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
NEW_TURN = Turn()


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


@attrs.frozen
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


T = TypeVar("T")


def replacer(cls: type[T], *only: str) -> Callable[..., T]:
    """A quick ``attrs.evolve`` for the frozen class ``cls``: ``replace(obj, field=value, ...)``.

    The fold makes a new state for every event, so this is the game's
    hottest code. The copy is made as the engine's codec builds decoded
    records: a new object whose slots are set one by one, each from ``obj``
    unless given, which is all the class's ``__init__`` would do (it has no
    validators, converters or hooks; a test checks that the copies equal
    ``attrs.evolve``'s). The function is written out once per class.

    With field names ``only``, the copy changes exactly those fields, their
    new values given in that order: ``replace(obj, v1, v2)`` (quicker again,
    for the fold's commonest changes: no keywords to match).

    >>> replace_turn(Turn(), book_rolls=2).book_rolls
    2
    >>> replacer(Turn, "turned", "book_rolls")(Turn(), True, 3) == Turn(turned=True, book_rolls=3)
    True
    """
    fields = attrs.fields(cls)  # type: ignore[arg-type]
    if any(f.validator or f.converter or not f.init for f in fields) or hasattr(cls, "__attrs_post_init__"):
        raise TypeError(f"{cls.__name__} does more than set its fields when built")
    names = [f.name for f in fields]
    unknown = set(only) - set(names)
    if unknown or len(set(only)) != len(only):
        raise TypeError(f"{cls.__name__} fields to change must be distinct fields, not {only}")
    namespace: dict[str, Any] = {"_KEEP": object(), "_new": object.__new__, "_cls": cls}
    body = ["    o = _new(_cls)"]
    for i, name in enumerate(names):
        namespace[f"_set{i}"] = getattr(cls, name).__set__
        if not only:
            body.append(f"    _set{i}(o, obj.{name} if {name} is _KEEP else {name})")
        else:
            body.append(f"    _set{i}(o, {name if name in only else 'obj.' + name})")
    params = ", ".join(only) if only else "*, " + ", ".join(f"{n}=_KEEP" for n in names)
    exec(f"def replace(obj, {params}):\n" + "\n".join(body) + "\n    return o\n", namespace)
    replace: Callable[..., T] = namespace["replace"]
    changed = f" with {', '.join(only)} changed" if only else " with the given fields changed"
    replace.__doc__ = f"A copy of a {cls.__name__}{changed}."
    return replace


def builder(cls: type[T]) -> Callable[..., T]:
    """A quick constructor of the frozen class ``cls`` from all its fields, in order.

    The same object as ``cls(*values)``, built as :func:`replacer` builds
    copies (the class may only set its fields when built).

    >>> builder(Turn)(True, 1, 0, False, (), (), (), (), (), False, ((), ())) == Turn(turned=True, book_rolls=1)
    True
    """
    fields = attrs.fields(cls)  # type: ignore[arg-type]
    if any(f.validator or f.converter or not f.init for f in fields) or hasattr(cls, "__attrs_post_init__"):
        raise TypeError(f"{cls.__name__} does more than set its fields when built")
    names = [f.name for f in fields]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    body = ["    o = _new(_cls)"]
    for i, name in enumerate(names):
        namespace[f"_set{i}"] = getattr(cls, name).__set__
        body.append(f"    _set{i}(o, {name})")
    exec(f"def build({', '.join(names)}):\n" + "\n".join(body) + "\n    return o\n", namespace)
    build: Callable[..., T] = namespace["build"]
    build.__doc__ = f"A new {cls.__name__} from all its fields, in order."
    return build


#: ``attrs.evolve`` for the state and its records, quicker (see :func:`replacer`).
replace_state = replacer(State)
replace_turn = replacer(Turn)
replace_cards = replacer(Cards)
replace_table = replacer(Table)
