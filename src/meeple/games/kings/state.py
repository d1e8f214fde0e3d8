"""The state of an Underground Kings match, its options, and small value types.

The state is the referee's copy: it holds the deck order, every hand and the
squad side of every mine. Players get a :class:`~meeple.games.kings.view.KingsView`.
"""

from __future__ import annotations

import bisect
import enum
import operator
from typing import Literal

import attrs

from meeple.engine import ConfigError, Options

from .data import PEOPLES, People

#: Where the squads of a developed mine go.
DevelopedCards = Literal["camp", "discard"]


@attrs.frozen
class KingsOptions(Options):
    """Options of a match.

    ``developed_cards``: where the squads of a developed mine go: ``"camp"``
    (the standard rules: onto their peoples' camp piles, in play order) or
    ``"discard"`` (out of the game; the ``discard`` variant).

    ``end``: when the match ends once the last card has left the deck:
    ``"card"`` (at once, the seed's words) or ``"round"`` (designed: the
    players after the one who took it play one more squad each, without a
    draw, so every seat has had as many turns).
    """

    developed_cards: DevelopedCards = attrs.field(default="camp", metadata={"help": (
        "where the squads of a developed mine go: 'camp' (onto their peoples' camp piles, "
        "the standard rules) or 'discard' (out of the game)")})
    end: Literal["card", "round"] = attrs.field(default="card", metadata={"help": (
        "when the match ends: as soon as the last 'card' leaves the deck (the seed) or at the end of that "
        "'round', the later seats playing one more squad each without a draw (designed: seat balance)")})

    def validate(self, seats: int) -> None:
        """Refuse an unknown destination for developed squads."""
        if self.developed_cards not in ("camp", "discard"):
            raise ConfigError(f"kings: developed_cards must be 'camp' or 'discard', not {self.developed_cards!r}")
        if self.end not in ("card", "round"):
            raise ConfigError(f"kings: end must be 'card' or 'round', not {self.end!r}")


class Phase(enum.Enum):
    """Where a match stands: set-up, a player's play or draw step, or over."""

    SETUP = "setup"
    PLAY = "play"
    DRAW = "draw"
    OVER = "over"


@attrs.frozen
class MineSlot:
    """A mine on the table (central or owned), not yet developed.

    ``number`` is its public handle (mines are numbered in the order they are
    turned up; commands name mines by number), ``card`` the card it is printed
    on (its squad side is hidden from everybody), ``owner`` the seat that
    owns it (None while it is central) and ``stack`` the squads on it, in play
    order (the last is the top).
    """

    number: int
    card: int
    owner: int | None = None
    stack: tuple[int, ...] = ()


_NUMBER = operator.attrgetter("number")


def _empty_camp() -> tuple[tuple[int, ...], ...]:
    return tuple(() for _ in PEOPLES)


@attrs.frozen(slots=False)
class State:
    """The referee's state of a match.

    ``deck`` lists card ids from the top (index 0, mine side up, public) down;
    ``hands`` are sorted card ids per seat; ``mines`` are the mines on the
    table by number; ``developed`` the mine cards each seat has developed;
    ``camp`` one pile per people (in :data:`~meeple.games.kings.data.PEOPLES`
    order) from bottom to top; ``open_cards`` the cards in each hand that
    everybody has seen (taken from the camp, or shown in a retreat);
    ``retreated`` is set while a player
    who could not play waits to draw (then only from the deck).
    """

    seats: int
    options: KingsOptions
    phase: Phase = Phase.SETUP
    peoples: tuple[People, ...] = ()
    deck: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ()
    open_cards: tuple[tuple[int, ...], ...] = ()
    mines: tuple[MineSlot, ...] = ()
    developed: tuple[tuple[int, ...], ...] = ()
    camp: tuple[tuple[int, ...], ...] = attrs.field(factory=_empty_camp)
    discard: tuple[int, ...] = ()
    turn: int = 0
    next_number: int = 0
    retreated: bool = False

    # A changed copy of the state is made for every event, so the state keeps its fields in a
    # __dict__ rather than slots: copying it is then two dict updates (see tables.changed),
    # about half the cost of a slotted class's __init__. It is frozen all the same.

    def mine(self, number: int) -> MineSlot | None:
        """Return the mine on the table with this number, or None."""
        i = self.mine_index(number)
        return None if i is None else self.mines[i]

    def mine_index(self, number: int) -> int | None:
        """Return where the mine with this number is in ``mines``, or None (they are in number order)."""
        mines = self.mines
        i = bisect.bisect_left(mines, number, key=_NUMBER)
        return i if i < len(mines) and mines[i].number == number else None

    def seat_of(self, people: People) -> int | None:
        """Return the seat playing ``people``, or None if nobody does."""
        try:
            return self.peoples.index(people)
        except ValueError:
            return None
