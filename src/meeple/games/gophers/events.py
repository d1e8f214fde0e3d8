"""What happened in a Gophers match; the state is the fold of these events."""

from __future__ import annotations

from typing import ClassVar

import attrs

from meeple.engine import Event

from .data import Card


@attrs.frozen
class Dealt(Event):
    """The deck was shuffled and dealt: ``hands`` per seat, ``deck`` the rest in order.

    Redacted: the deck becomes None and so does every hand but the viewer's.
    """

    tag: ClassVar[str] = "dealt"
    deck: tuple[Card, ...] | None
    hands: tuple[tuple[Card, ...] | None, ...]


@attrs.frozen
class BankLaid(Event):
    """Beginner rules: the open bank of supply cards was laid out."""

    tag: ClassVar[str] = "bank_laid"
    bank: tuple[Card, ...]


@attrs.frozen
class Placed(Event):
    """``seat`` placed its pawn on ``hole``."""

    tag: ClassVar[str] = "placed"
    seat: int
    hole: int


@attrs.frozen
class BookOpened(Event):
    """The die showed ``roll`` and the book was opened at that spread (set-up)."""

    tag: ClassVar[str] = "book_opened"
    roll: int


@attrs.frozen
class Rolled(Event):
    """``seat`` rolled ``roll`` for its walk."""

    tag: ClassVar[str] = "rolled"
    seat: int
    roll: int


@attrs.frozen
class Moved(Event):
    """``seat`` walked to ``dest``, jumping the pawns of ``jumped``."""

    tag: ClassVar[str] = "moved"
    seat: int
    dest: int
    jumped: tuple[int, ...]


@attrs.frozen
class DigPlayed(Event):
    """``seat`` used a dig card (from its hand, its own beginner card, or a gift)."""

    tag: ClassVar[str] = "dig_played"
    seat: int
    from_gift: bool


@attrs.frozen
class BookRolled(Event):
    """A portal or dig card had ``seat`` roll ``roll``; ``turned`` if the book changed spread."""

    tag: ClassVar[str] = "book_rolled"
    seat: int
    roll: int
    turned: bool


@attrs.frozen
class GiftOffered(Event):
    """``seat`` took the top ``cards`` of the deck as a gift offer (None: hidden from the viewer).

    An undo barrier: the cards were seen.
    """

    tag: ClassVar[str] = "gift_offered"
    barrier: ClassVar[bool] = True
    seat: int
    cards: tuple[Card, ...] | None


@attrs.frozen
class GiftTaken(Event):
    """``seat`` kept ``card``, the ``index``-th of the offer; ``returned`` went under the deck (None: hidden).

    Everybody sees the kept card (it goes face up in the mover's pile); the
    others go under the deck in the order they were drawn, so only the mover
    knows what lies there, and which place of the offer the kept card had
    (``index``, None to the other seats: it would tell worlds apart that they
    cannot tell apart otherwise). An information barrier: the kept card of a
    hidden offer is shown, so the choice cannot be taken back.
    """

    tag: ClassVar[str] = "gift_taken"
    barrier: ClassVar[bool] = True
    seat: int
    card: Card
    index: int | None
    returned: tuple[Card, ...] | None


@attrs.frozen
class ExtraMove(Event):
    """Beginner rules: ``seat`` ended on a gift and moves again."""

    tag: ClassVar[str] = "extra_move"
    seat: int


@attrs.frozen
class CollectionOpened(Event):
    """These seats, in this order, are asked to collect at their holes now.

    With hands, every seat on a supply or store that holds cards is asked,
    whether it can collect or not (a hand's contents must not show). In the
    beginner rules everything is open, so only seats that can collect are asked.
    """

    tag: ClassVar[str] = "collection_opened"
    collectors: tuple[int, ...]


@attrs.frozen
class CardLaid(Event):
    """``seat`` laid ``card`` for its collection, ``subtracted`` or added.

    With hands the card leaves the hand; in the beginner rules an added card
    leaves the bank and a subtracted one (change) leaves the seat's pile.
    """

    tag: ClassVar[str] = "card_laid"
    seat: int
    card: Card
    subtracted: bool


@attrs.frozen
class Collected(Event):
    """``seat`` collected ``count`` supplies with the laid cards: ``plus`` added, ``minus`` subtracted."""

    tag: ClassVar[str] = "collected"
    seat: int
    plus: tuple[Card, ...]
    minus: tuple[Card, ...]
    count: int


@attrs.frozen
class Passed(Event):
    """``seat`` did not collect."""

    tag: ClassVar[str] = "passed"
    seat: int


@attrs.frozen
class CardDrawn(Event):
    """``seat`` drew ``card`` after an unproductive turn (None: hidden from the viewer).

    An undo barrier: the card was seen.
    """

    tag: ClassVar[str] = "card_drawn"
    barrier: ClassVar[bool] = True
    seat: int
    card: Card | None


@attrs.frozen
class BasketsTaken(Event):
    """``seat`` jumped ``victim`` on a productive turn and took the baskets of ``owners``."""

    tag: ClassVar[str] = "baskets_taken"
    seat: int
    victim: int
    owners: tuple[int, ...]


@attrs.frozen
class BasketRedeemed(Event):
    """``owner`` paid ``holder`` this turn's supplies (``plus``, ``minus``) and got its basket back."""

    tag: ClassVar[str] = "basket_redeemed"
    owner: int
    holder: int
    plus: tuple[Card, ...]
    minus: tuple[Card, ...]


@attrs.frozen
class TurnEnded(Event):
    """``seat``'s turn ended (``productive`` or not); ``next`` moves now.

    ``idle`` counts the unproductive turns in a row that drew no card (the
    stall guard of the end rules).
    """

    tag: ClassVar[str] = "turn_ended"
    seat: int
    productive: bool
    next: int
    idle: int


@attrs.frozen
class GameEnded(Event):
    """The game ended for ``reason``."""

    tag: ClassVar[str] = "game_ended"
    reason: str


EVENTS: tuple[type[Event], ...] = (
    Dealt, BankLaid, Placed, BookOpened, Rolled, Moved, DigPlayed, BookRolled, GiftOffered, GiftTaken,
    ExtraMove, CollectionOpened, CardLaid, Collected, Passed, CardDrawn, BasketsTaken, BasketRedeemed, TurnEnded,
    GameEnded,
)
