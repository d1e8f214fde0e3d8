"""What players (and the engine) may ask for in Gophers.

No command carries a secret: every field of every command is seen at the
table (a kept gift card goes face up, laid cards are shown), so none
declares ``secret`` fields and other seats see each command whole.

Commands name cards as a player says them, ``"A7"``, ``"B10"``, ``"D"``
(:func:`~.data.card` reads a name, ``repr`` of a card writes one), so every
field of a command is a plain number or string.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from meeple.engine import Command


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
    """Walk to hole ``dest``, jumping on the way the pawns of the seats in ``jumps``.

    ``jumps`` holds one bit per seat (bit ``s`` for seat ``s``): 0 jumps
    nobody, ``0b110`` jumps seats 1 and 2; :attr:`jumped` lists them. (A
    number keeps every field of every command plain, and gives a fixed
    action space its index.) A walk that shows gift cards or ends in a
    draw holds a barrier event (``GiftOffered``, ``CardDrawn``), so a player
    may not undo that walk.

    >>> Move(7, 0b110).jumped
    (1, 2)
    """

    tag: ClassVar[str] = "move"
    dest: int
    jumps: int = 0

    @property
    def jumped(self) -> tuple[int, ...]:
        """The seats whose pawns the walk jumps, in order."""
        jumps = self.jumps
        if 0 <= jumps < len(_SEATS_OF):
            return _SEATS_OF[jumps]
        return tuple(s for s in range(jumps.bit_length()) if jumps >> s & 1)


#: The seats of each bit mask of up to eight seats, in order (:attr:`Move.jumped`).
_SEATS_OF = tuple(tuple(s for s in range(8) if j >> s & 1) for j in range(256))


@attrs.frozen
class TakeGift(Command):
    """Keep the gift card named ``card`` (``"A7"``; a dig card, ``"D"``, is used at once)."""

    tag: ClassVar[str] = "take_gift"
    card: str


@attrs.frozen
class Add(Command):
    """Lay the card named ``card`` (``"A7"``) as an added card of the collection you are making.

    With hands the card comes from your hand; in the beginner rules it is
    taken from the bank. Cards are laid in the order of
    :data:`~.data.FACES` (acorns, berries, wheat; by value), and for one
    value the added cards before the subtracted ones, so each collection
    has exactly one way to be laid. A card is legal only if the collection
    can still be completed.
    """

    tag: ClassVar[str] = "add"
    card: str


@attrs.frozen
class Subtract(Command):
    """Lay the card named ``card`` as a subtracted card (beginner rules: give it back as change from your pile).

    Same order rule as :class:`Add`. Not in the simplified rules.
    """

    tag: ClassVar[str] = "subtract"
    card: str


@attrs.frozen
class Collect(Command):
    """Finish the collection: the laid cards make exactly the count at your hole.

    Added cards go to your face-up pile, subtracted ones to the face-down
    pile (beginner rules: the taken cards to your pile, the change to the bank).
    """

    tag: ClassVar[str] = "collect"


@attrs.frozen
class Pass(Command):
    """Do not collect now (only before laying a card; the mover's turn is then unproductive).

    Every seat that stands on a supply is asked, whether it could collect or
    not, so a pass tells nobody anything about a hand. The mover's pass
    draws a card (``CardDrawn``, a barrier event), so a player may not undo it.
    """

    tag: ClassVar[str] = "pass"


COMMANDS: tuple[type[Command], ...] = (Deal, Place, OpenBook, Roll, Dig, Move, TakeGift, Add, Subtract, Collect, Pass)
