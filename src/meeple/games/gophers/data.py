"""The printed material of Gophers, as data: the cards and the six-spread burrow book.

No component list or board of the game is public, so every number here is
designed (``docs/rules/gophers.md`` gives each with its reason). The rules
read this module; nothing here is rule code.

The burrow book is a grid of :data:`ROWS` x :data:`COLS` holes, numbered row by
row from 0 (top left). The holes are the same on every spread, so a pawn keeps
its hole when the book is turned; each spread has its own tunnels (which
neighbouring holes connect) and its own label on each hole.

>>> SPREADS[0].labels[3]
Label(kind=<LabelKind.PORTAL: 'portal'>, supply=None, count=0)
>>> sorted(SPREADS[0].neighbours[0])
[1, 5]
"""

from __future__ import annotations

import enum
from collections import Counter

import attrs

# -- cards ----------------------------------------------------------------------


class Kind(enum.Enum):
    """What a card is: one of the three supplies, or a dig card ("копалка")."""

    ACORN = "acorn"
    BERRY = "berry"
    WHEAT = "wheat"
    DIG = "dig"

    # Members are compared by identity, so they may hash by identity too: at C
    # speed, where the default hashes the member's name in Python.
    __hash__ = object.__hash__


#: The three supply kinds, in the order cards are sorted and printed.
SUPPLY_KINDS: tuple[Kind, ...] = (Kind.ACORN, Kind.BERRY, Kind.WHEAT)

#: One-letter names used in labels, commands and the renderer.
LETTER: dict[Kind, str] = {Kind.ACORN: "A", Kind.BERRY: "B", Kind.WHEAT: "W", Kind.DIG: "D"}
_BY_LETTER = {v: k for k, v in LETTER.items()}


def _face_value(card: Card, _attribute: object, value: int) -> None:
    if value.__class__ is not int or not (value == 0 if card.kind is Kind.DIG else 1 <= value <= 10):
        raise ValueError(f"no {card.kind.value} card has the value {value!r} (supplies 1..10, the dig card 0)")


@attrs.frozen(eq=False)
class Card:
    """One card: a supply ``kind`` with face ``value`` 1..10, or a dig card (value 0).

    Cards of the same kind and value are identical, and in the program they
    are one object: the box has 31 faces and ``Card(kind, value)`` always
    returns the one of that face, so cards compare and hash by identity (as
    fast as ints). Hands and piles are sorted tuples of cards (multisets).

    >>> Card(Kind.BERRY, 7), Card(Kind.BERRY, 7) is card("B7")
    (B7, True)
    """

    kind: Kind
    value: int = attrs.field(validator=_face_value)

    def __new__(cls, kind: Kind, value: int) -> Card:
        # Only an exact face is looked up: attrs' __init__ then sets the same
        # values again on the shared object. Anything else (True for 1, 1.0)
        # gets an object of its own, which its validator refuses.
        if value.__class__ is not int or kind.__class__ is not Kind:
            return super().__new__(cls)
        found = _FACE.get((kind, value))
        if found is None:
            found = super().__new__(cls)
            if value == 0 if kind is Kind.DIG else 1 <= value <= 10:
                _FACE[kind, value] = found  # a card of the box (anything else fails its validator)
        return found

    def __reduce__(self) -> tuple[type[Card], tuple[Kind, int]]:
        return (Card, (self.kind, self.value))

    @property
    def key(self) -> int:
        """The sort key: the card's place in :data:`FACES` (acorns, berries, wheat, dig; then value)."""
        return RANK[self]

    def __repr__(self) -> str:
        return "D" if self.kind is Kind.DIG else f"{LETTER[self.kind]}{self.value}"


_FACE: dict[tuple[Kind, int], Card] = {}


DIG = Card(Kind.DIG, 0)


#: Each card of the box by its name (``"A7"``, ``"D"``).
CARD_NAMED: dict[str, Card] = {}


def card(text: str) -> Card:
    """Parse a card from its short name: ``"A7"``, ``"B10"``, ``"W1"`` or ``"D"``.

    >>> card("W10")
    W10
    """
    found = CARD_NAMED.get(text)
    if found is not None:
        return found
    kind = _BY_LETTER.get(text[:1])
    if kind is None or kind is Kind.DIG or not text[1:].isdigit() or not 1 <= int(text[1:]) <= 10:
        raise ValueError(f"not a card name: {text!r} (use A7, B10, W1 or D)")
    return Card(kind, int(text[1:]))


#: Every card face in the canonical order: acorns 1..10, berries 1..10,
#: wheat ears 1..10, then the dig card. Hands, piles and collections list
#: cards in this order.
FACES: tuple[Card, ...] = (*(Card(k, v) for k in (Kind.ACORN, Kind.BERRY, Kind.WHEAT) for v in range(1, 11)), DIG)
#: The position of each face in :data:`FACES` (the sort key of cards).
RANK: dict[Card, int] = {c: i for i, c in enumerate(FACES)}
CARD_NAMED.update((repr(c), c) for c in FACES)


def sort_cards(cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """Return ``cards`` as a sorted tuple (the canonical form of a multiset of cards).

    >>> sort_cards([card("W2"), card("A9"), card("A1")])
    (A1, A9, W2)
    """
    return tuple(sorted(cards, key=RANK.__getitem__))


#: Face values printed on supply cards (designed: 1..10, so the simplified
#: rules' "remove 8, 9 and 10" leaves 1..7).
VALUES: tuple[int, ...] = tuple(range(1, 11))
#: Copies of each supply card (designed: two, so a hand can pair equal values
#: and the deck outlasts a 4-player deal).
COPIES = 2
#: Dig cards in the full game: seven, because the simplified rules remove two
#: and say five remain.
DIG_CARDS = 7
#: Dig cards the simplified rules remove (seed text: "две карты-копалки").
DIG_REMOVED_SIMPLIFIED = 2
#: Values the simplified rules remove (seed text: "с номиналом 8, 9 и 10").
VALUES_REMOVED_SIMPLIFIED: tuple[int, ...] = (8, 9, 10)
#: Cards dealt to each player at set-up (seed text: "по шесть карт").
HAND_SIZE = 6
#: Cards shown by a gift (seed text: "три верхние карты").
GIFT_CARDS = 3
#: The end trigger: the deck is empty and some hand holds at most this many
#: cards (seed text: "три или менее карт").
END_HAND = 3
#: The die has six faces, one per spread of the book.
DIE = 6
#: Book rolls (portals and dig cards) allowed in one turn (designed: a safety
#: stop for portal chains; a chain this long has probability below 10**-6).
MAX_BOOK_ROLLS = 12
#: Beginner rules: extra moves that gifts may give in one turn (designed, as
#: the portal chains are capped: the twelfth gift in a row moves no more).
MAX_EXTRA_MOVES = 12
#: Rounds in a row of unproductive turns that draw no card after which the
#: game ends (designed: a safety stop; the mover draws after every
#: unproductive turn, so it counts only once the deck is empty; with five
#: rounds it ended games in which collections were still possible, see the
#: rules page for the figures).
STALL_ROUNDS = 20
#: Beginner rules: the same guard, in rounds without a collection (designed:
#: longer, because every card of the bank can be taken somewhere and only
#: wandering pawns delay the end; see the rules page).
STALL_ROUNDS_BEGINNER = 100
#: Beginner rules: most cards taken from the bank and given back as change in
#: one collection (seed text: "одной картой, можно двумя-тремя ... со сдачей").
BANK_TAKE = 3
BANK_CHANGE = 2


def supply_cards(removed_values: tuple[int, ...] = ()) -> tuple[Card, ...]:
    """Every supply card of the box (:data:`COPIES` of each kind and value), minus ``removed_values``."""
    return tuple(
        Card(k, v) for k in SUPPLY_KINDS for v in VALUES if v not in removed_values for _ in range(COPIES)
    )


# -- the burrow book ------------------------------------------------------------------

ROWS = 4
COLS = 5
HOLES = ROWS * COLS


class LabelKind(enum.Enum):
    """What is printed next to a hole on one spread."""

    NOTHING = "nothing"
    SUPPLY = "supply"  # a supply of one kind, with a count
    STORE = "store"  # a store: any kind, with a count
    PORTAL = "portal"  # a secret passage: roll and turn the book
    GIFT = "gift"  # a gift: three cards, keep one


@attrs.frozen
class Label:
    """The label of one hole on one spread: ``kind``, and for supplies and stores the count."""

    kind: LabelKind
    supply: Kind | None = None
    count: int = 0

    def __str__(self) -> str:
        match self.kind:
            case LabelKind.SUPPLY:
                assert self.supply is not None
                return f"{LETTER[self.supply]}{self.count}"
            case LabelKind.STORE:
                return f"S{self.count}"
            case LabelKind.PORTAL:
                return "P"
            case LabelKind.GIFT:
                return "G"
        return "."


def _label(text: str) -> Label:
    if text == ".":
        return Label(LabelKind.NOTHING)
    if text == "P":
        return Label(LabelKind.PORTAL)
    if text == "G":
        return Label(LabelKind.GIFT)
    if text[0] == "S":
        return Label(LabelKind.STORE, None, int(text[1:]))
    return Label(LabelKind.SUPPLY, _BY_LETTER[text[0]], int(text[1:]))


@attrs.frozen
class Spread:
    """One spread of the book: its ``number`` (1..6), ``tunnels`` and one label per hole."""

    number: int
    tunnels: frozenset[tuple[int, int]]
    labels: tuple[Label, ...]
    neighbours: tuple[tuple[int, ...], ...]

    def connected(self, a: int, b: int) -> bool:
        """True if a tunnel joins holes ``a`` and ``b`` on this spread."""
        return (min(a, b), max(a, b)) in self.tunnels


def _spread(number: int, labels: str, tunnels: str) -> Spread:
    cells = labels.split()
    if len(cells) != HOLES:
        raise ValueError(f"spread {number}: {len(cells)} labels, expected {HOLES}")
    pairs = []
    for t in tunnels.split():
        a, b = (int(x) for x in t.split("-"))
        ra, ca = divmod(a, COLS)
        rb, cb = divmod(b, COLS)
        if abs(ra - rb) + abs(ca - cb) != 1:
            raise ValueError(f"spread {number}: tunnel {t} joins holes that are not neighbours")
        pairs.append((min(a, b), max(a, b)))
    nbrs: list[list[int]] = [[] for _ in range(HOLES)]
    for a, b in sorted(pairs):
        nbrs[a].append(b)
        nbrs[b].append(a)
    return Spread(number, frozenset(pairs), tuple(_label(c) for c in cells), tuple(tuple(sorted(n)) for n in nbrs))


# Each spread: the labels drawn as the 4 x 5 grid of holes (A/B/W + count: a
# supply of acorns, berries or wheat ears; S + count: a store; P: portal;
# G: gift; ".": nothing), then its tunnels as pairs of hole numbers.
# Designed: every spread is a perfect maze (a spanning tree of the grid) with
# four extra tunnels making loops; two portals, two gifts, two stores, three
# supplies of each kind (counts 2..12, stores 6..14) and five empty holes.
_BOOK = (
    (
        """
        .   .   G   P   W11
        P   B8  .   A4  W7
        G   B11 .   S13 A5
        .   S12 A2  W10 B2
        """,
        "0-1 0-5 1-2 1-6 2-3 2-7 3-4 5-6 5-10 7-8 8-9 8-13 9-14 10-11 10-15 11-12 12-13 12-17 14-19 "
        "15-16 16-17 17-18 18-19",
    ),
    (
        """
        B12 P   A5  .   G
        W4  .   G   .   .
        W7  A9  S6  .   B7
        P   S11 B10 A10 W8
        """,
        "0-1 0-5 2-3 2-7 3-4 4-9 5-6 5-10 6-7 6-11 7-8 9-14 10-11 10-15 11-16 12-13 12-17 13-14 13-18 "
        "14-19 15-16 16-17 18-19",
    ),
    (
        """
        A11 A4  B12 S12 P
        G   B9  S10 .   .
        .   A8  W8  P   .
        W11 W8  B7  G   .
        """,
        "0-1 0-5 1-2 2-3 2-7 3-4 5-6 6-7 6-11 7-12 8-9 8-13 9-14 10-11 10-15 12-13 13-14 13-18 14-19 "
        "15-16 16-17 17-18 18-19",
    ),
    (
        """
        .   P   W11 W9  S14
        S10 .   .   B2  P
        G   A3  B4  W2  A9
        B10 .   G   A12 .
        """,
        "0-1 0-5 1-2 1-6 2-3 3-4 3-8 5-6 5-10 6-7 6-11 7-8 8-9 8-13 9-14 10-11 11-12 11-16 12-17 14-19 "
        "15-16 17-18 18-19",
    ),
    (
        """
        .   A11 B9  A9  S11
        S8  .   .   G   B2
        P   B3  W11 G   P
        .   W5  A9  W10 .
        """,
        "0-1 0-5 2-3 3-4 3-8 4-9 5-10 6-7 6-11 7-8 7-12 8-13 9-14 10-15 11-16 12-17 13-14 13-18 14-19 "
        "15-16 16-17 17-18 18-19",
    ),
    (
        """
        .   A6  P   S9  S8
        W9  A9  P   G   .
        .   B10 .   W7  A7
        G   W4  B6  B4  .
        """,
        "0-1 0-5 1-6 2-3 2-7 3-4 4-9 5-10 6-7 6-11 7-8 8-9 8-13 9-14 10-11 10-15 11-12 13-14 14-19 "
        "15-16 16-17 17-18 18-19",
    ),
)

#: The six spreads, ``SPREADS[n - 1]`` being spread number ``n``.
SPREADS: tuple[Spread, ...] = tuple(_spread(i + 1, labels, tunnels) for i, (labels, tunnels) in enumerate(_BOOK))


def spread(number: int) -> Spread:
    """Return spread ``number`` (1..6)."""
    return SPREADS[number - 1]


def label_census() -> Counter[str]:
    """Count the label kinds over the whole book (used by the docs and tests)."""
    return Counter(lab.kind.value for s in SPREADS for lab in s.labels)


# -- the beginner bank -----------------------------------------------------------------

#: Beginner rules (5+), the ``bank="harder"`` preset: the face values of each
#: kind laid out in the open bank, two cards of each (designed; rules version
#: 2's default). They are the values 1..10 that some hole of that kind asks
#: for exactly, so every card left in the bank can be taken on its own
#: somewhere in the book. The seed's own beginner game lays out every card
#: (``bank="full"``, 60 cards); taking values out is its harder game
#: ("убрать карты с частью чисел").
BEGINNER_VALUES: dict[Kind, tuple[int, ...]] = {
    Kind.ACORN: (2, 3, 4, 5, 6, 7, 8, 9, 10),
    Kind.BERRY: (2, 3, 4, 6, 7, 8, 9, 10),
    Kind.WHEAT: (2, 4, 5, 7, 8, 9, 10),
}


def beginner_bank(removed_values: tuple[int, ...] = (), bank: str = "full") -> tuple[Card, ...]:
    """The open bank of the beginner rules, sorted, minus ``removed_values``.

    ``bank`` is ``"full"`` (every supply card of the box) or ``"harder"``
    (the values of :data:`BEGINNER_VALUES` only).

    >>> len(beginner_bank()), len(beginner_bank(bank="harder")), beginner_bank(bank="harder")[:3]
    (60, 48, (A2, A2, A3))
    """
    if bank == "full":
        return supply_cards(removed_values)
    return tuple(
        Card(k, v) for k in SUPPLY_KINDS for v in BEGINNER_VALUES[k] if v not in removed_values for _ in range(COPIES)
    )
