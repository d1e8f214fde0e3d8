"""The cards of Underground Kings: 80 double-sided cards, as data.

Every card has a *squad* side (a people and a strength 0-9) and a *mine* side
(value, defence, depth and an overseer flag). No public card list exists, so
the list is designed here (``docs/rules/kings.md``, "The cards"):

* 20 cards per people, strengths 0-9 twice each;
* the same 20 mine sides (:data:`MINE_SIDES`) for every people, so no people
  is richer than another;
* which mine side is printed on which squad is rotated by three places per
  people, so a mine side seen on the back of a card (the deck's top card, the
  backs of an opponent's hand) narrows its squad side down to four different
  strengths, one per people (eight cards for the three mine sides printed
  twice), never to a single card.

>>> len(CARDS), CARDS[0].people, CARDS[0].strength
(80, <People.ORCS: 'orcs'>, 0)
>>> sum(m.value for m in MINE_SIDES)
63
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

import attrs

#: Cards in a hand after every draw (the rules' "draw back to six").
HAND_SIZE = 6
#: Central (unowned) mines laid out at set-up.
CENTRAL_MINES = 4
#: Cards laid squad side up as the miners' camp at set-up.
CAMP_START = 4
#: Highest squad strength; a 0 beats it.
TOP_STRENGTH = 9


class People(enum.Enum):
    """The four peoples; each player is the king of one (its King card).

    ``index`` is the people's place in :data:`PEOPLES`: its cards are ids
    ``20 * index`` to ``20 * index + 19``, and its camp pile is
    ``camp[index]``.

    >>> People("dwarves").index
    2
    """

    index: int

    def __new__(cls, value: str, index: int) -> People:
        member = object.__new__(cls)
        member._value_ = value
        member.index = index
        return member

    ORCS = "orcs", 0
    GOBLINS = "goblins", 1
    DWARVES = "dwarves", 2
    GIANTS = "giants", 3


#: The peoples in card-id order (cards 0-19 are orcs, 20-39 goblins, ...).
PEOPLES: tuple[People, ...] = tuple(People)


@attrs.frozen
class Mine:
    """The mine side of a card.

    ``value`` is scored plus when developed and minus when owned but not
    developed at the end; ``defence`` is how many squads capture it;
    ``depth`` how many foreign workers develop it; ``overseer`` whether one
    squad of the owner's own people must then be played on top as well.
    """

    value: int
    defence: int
    depth: int
    overseer: bool = False

    def label(self) -> str:
        """A short text such as ``"5pt def2 dep3+O"``."""
        return f"{self.value}pt def{self.defence} dep{self.depth}{'+O' if self.overseer else ''}"


@attrs.frozen
class Card:
    """One double-sided card: ``id`` 0-79, its squad side and its mine side."""

    id: int
    people: People
    strength: int
    mine: Mine

    def squad_label(self) -> str:
        """A short text such as ``"orcs 7"``."""
        return f"{self.people.value} {self.strength}"


def mine_value(defence: int, depth: int, overseer: bool) -> int:
    """The designed value of a mine: the work it needs plus a premium for risk.

    ``depth`` (one turn and one foreign squad per worker), plus one for an
    overseer (a squad of the owner's own people that must beat the top), plus
    one for a deep vein (depth 3 or more: it may not be finished before the
    deck runs out, and then it costs its value), plus one for defence 3 (three
    squads to take it: it is taken late and by whoever plays the last squad).

    >>> mine_value(defence=1, depth=3, overseer=True)
    5
    """
    return depth + int(overseer) + int(depth >= 3) + int(defence == 3)


def _mine(defence: int, depth: int, overseer: bool = False) -> Mine:
    return Mine(mine_value(defence, depth, overseer), defence, depth, overseer)


#: The 20 mine sides every people carries, one per card: six of depth 1,
#: seven of depth 2, five of depth 3 and two of depth 4; defence 1, 2, 3 on
#: six, eight and six of them; seven need an overseer. An overseer must beat
#: the top worker, and the workers climb under the ordering rule, so an
#: overseer sits only on shallow mines (depth 1-2, where the top stays low)
#: and on one depth-3 mine of defence 1 (taken at once, by the player who
#: wants it); guarded mines (defence 3, taken late) are at most three deep.
#: Listed so that the two cards of one strength (index i and i + 10) carry
#: unlike mines.
MINE_SIDES: tuple[Mine, ...] = (
    _mine(1, 1),
    _mine(2, 4),
    _mine(1, 2),
    _mine(2, 3),
    _mine(3, 1),
    _mine(1, 2, overseer=True),
    _mine(3, 3),
    _mine(1, 1, overseer=True),
    _mine(1, 4),
    _mine(2, 2),
    _mine(2, 1),
    _mine(2, 3),
    _mine(3, 2),
    _mine(3, 3),
    _mine(2, 1, overseer=True),
    _mine(2, 2, overseer=True),
    _mine(1, 3, overseer=True),
    _mine(2, 2),
    _mine(3, 2, overseer=True),
    _mine(3, 1, overseer=True),
)

#: Places the mine sides are rotated by from one people to the next.
ROTATION = 3


def _build_cards() -> tuple[Card, ...]:
    cards = []
    for p, people in enumerate(PEOPLES):
        for j in range(20):
            cards.append(Card(p * 20 + j, people, j % 10, MINE_SIDES[(j + ROTATION * p) % 20]))
    return tuple(cards)


#: Every card, indexed by id.
CARDS: tuple[Card, ...] = _build_cards()
#: Number of cards in the game.
DECK_SIZE = len(CARDS)


def _mine_key(m: Mine) -> tuple[int, int, int, bool]:
    return (m.value, m.defence, m.depth, m.overseer)


#: Every card's place in the order of mine sides (by value, defence, depth, overseer), and its side.
_BACK_RANK = tuple(sorted({_mine_key(m) for m in MINE_SIDES}).index(_mine_key(c.mine)) for c in CARDS)
_BACK = tuple(c.mine for c in CARDS)


def backs(cards: Iterable[int]) -> tuple[Mine, ...]:
    """The mine sides of ``cards``, sorted by value, defence, depth, overseer (what the table sees of a hand).

    >>> [m.label() for m in backs([0, 1])]
    ['1pt def1 dep1', '5pt def2 dep4']
    """
    return tuple([_BACK[c] for c in sorted(cards, key=_BACK_RANK.__getitem__)])
