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
  strengths, one per people, never to a single card.

>>> len(CARDS), CARDS[0].people, CARDS[0].strength
(80, <People.ORCS: 'orcs'>, 0)
>>> sum(m.value for m in MINE_SIDES)
72
"""

from __future__ import annotations

import enum

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
    """The four peoples; each player is the king of one (its King card)."""

    ORCS = "orcs"
    GOBLINS = "goblins"
    DWARVES = "dwarves"
    GIANTS = "giants"


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


#: The 20 mine sides every people carries, one per card. Value grows with the
#: work a mine needs: depth (turns of the owner) plus one for an overseer,
#: plus up to one for a high defence (a mine that is harder to take).
MINE_SIDES: tuple[Mine, ...] = (
    Mine(1, 1, 1),
    Mine(2, 1, 2),
    Mine(3, 1, 3),
    Mine(5, 2, 4),
    Mine(1, 2, 1),
    Mine(2, 2, 2),
    Mine(4, 2, 3),
    Mine(6, 3, 4),
    Mine(2, 3, 1),
    Mine(3, 3, 2),
    Mine(4, 3, 3),
    Mine(6, 1, 4, overseer=True),
    Mine(2, 1, 1, overseer=True),
    Mine(3, 1, 2, overseer=True),
    Mine(4, 1, 3, overseer=True),
    Mine(7, 3, 4, overseer=True),
    Mine(3, 2, 2),
    Mine(4, 2, 2, overseer=True),
    Mine(5, 2, 3, overseer=True),
    Mine(5, 3, 3),
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
