"""What players (and the engine) may ask for in Gophers."""

from __future__ import annotations

from typing import ClassVar

import attrs

from meeple.engine import Command

from .data import Card


@attrs.frozen
class Deal(Command):
    """Engine: shuffle the deck and deal six cards each (beginner: lay out the bank)."""

    tag: ClassVar[str] = "deal"


@attrs.frozen
class Place(Command):
    """Put your pawn on an empty ``hole`` (set-up, youngest first)."""

    tag: ClassVar[str] = "place"
    hole: int


@attrs.frozen
class OpenBook(Command):
    """Engine: roll the die and open the book at that spread."""

    tag: ClassVar[str] = "open"


@attrs.frozen
class Roll(Command):
    """Roll the die for your walk."""

    tag: ClassVar[str] = "roll"


@attrs.frozen
class Dig(Command):
    """Instead of walking (before or after rolling), play a dig card and roll for a new spread."""

    tag: ClassVar[str] = "dig"


@attrs.frozen
class Move(Command):
    """Walk to ``dest``, jumping the pawns of the seats in ``jumped`` (sorted) on the way.

    A walk that shows gift cards or ends in a draw holds a barrier event
    (``GiftOffered``, ``CardDrawn``), so a player may not undo that walk.
    """

    tag: ClassVar[str] = "move"
    dest: int
    jumped: tuple[int, ...] = ()


@attrs.frozen
class TakeGift(Command):
    """Keep ``card`` of the three gift cards (a dig card is used at once)."""

    tag: ClassVar[str] = "take_gift"
    card: Card


@attrs.frozen
class Collect(Command):
    """Collect the supplies at your hole: ``plus`` cards added, ``minus`` cards subtracted.

    Both are sorted tuples of cards. With hands, both come from your hand; in
    the beginner rules ``plus`` comes from the bank and ``minus`` is change
    given back from your pile.
    """

    tag: ClassVar[str] = "collect"
    plus: tuple[Card, ...]
    minus: tuple[Card, ...] = ()


@attrs.frozen
class Pass(Command):
    """Do not collect now (the mover's turn is then unproductive).

    The mover's pass draws a card (``CardDrawn``, a barrier event), so a
    player may not undo it.
    """

    tag: ClassVar[str] = "pass"


COMMANDS: tuple[type[Command], ...] = (Deal, Place, OpenBook, Roll, Dig, Move, TakeGift, Collect, Pass)
