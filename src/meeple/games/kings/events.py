"""The facts of an Underground Kings match; the state is their fold.

Hidden fields (the deck order, other players' squad sides, the squad side of
every mine) are ``None`` in redacted copies; see :mod:`.view`.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from meeple.engine import Event

from .data import Mine, People


@attrs.frozen
class KingsDealt(Event):
    """Each seat drew a King card: ``peoples[seat]`` is its people."""

    tag: ClassVar[str] = "kings_dealt"
    peoples: tuple[People, ...]


@attrs.frozen
class DeckShuffled(Event):
    """The 80 cards were shuffled; ``order`` from the top (hidden from every seat)."""

    tag: ClassVar[str] = "deck_shuffled"
    order: tuple[int, ...] | None


@attrs.frozen
class MineTurned(Event):
    """The top card of the deck became central mine ``number`` with mine side ``mine``.

    ``card`` (the squad side, face down) is hidden from every seat. An undo
    barrier: everybody has seen a new mine and the next card's mine side.
    """

    tag: ClassVar[str] = "mine_turned"
    barrier: ClassVar[bool] = True
    number: int
    card: int | None
    mine: Mine


@attrs.frozen
class CampLaid(Event):
    """The next cards of the deck were laid squad side up as the miners' camp."""

    tag: ClassVar[str] = "camp_laid"
    cards: tuple[int, ...]


@attrs.frozen
class HandDealt(Event):
    """``seat`` was dealt ``cards`` (hidden from others, who see only the mine ``backs``)."""

    tag: ClassVar[str] = "hand_dealt"
    seat: int
    cards: tuple[int, ...] | None
    backs: tuple[Mine, ...]


@attrs.frozen
class SquadPlayed(Event):
    """``seat`` played squad ``card`` onto mine ``mine``."""

    tag: ClassVar[str] = "squad_played"
    seat: int
    card: int
    mine: int


@attrs.frozen
class MineCaptured(Event):
    """Mine ``mine`` went to ``owner`` (for ``people``); its ``squads`` went to the camp in play order."""

    tag: ClassVar[str] = "mine_captured"
    mine: int
    owner: int
    people: People
    squads: tuple[int, ...]


@attrs.frozen
class MineDeveloped(Event):
    """``seat`` developed mine ``mine`` (worth ``value``); its ``squads`` left it in play order."""

    tag: ClassVar[str] = "mine_developed"
    seat: int
    mine: int
    value: int
    squads: tuple[int, ...]


@attrs.frozen
class Retreated(Event):
    """``seat`` could not play: it showed its ``hand`` and put squad ``card`` from it on its people's camp pile.

    The rest of the shown hand stays known to everybody until it is played
    (the state's ``open_cards``): a public "I cannot play" says something of
    a hand, so the hand is shown rather than left to be guessed at.
    An undo barrier: everybody has seen the hand.
    """

    tag: ClassVar[str] = "retreated"
    barrier: ClassVar[bool] = True
    seat: int
    card: int
    hand: tuple[int, ...]


@attrs.frozen
class DrewFromDeck(Event):
    """``seat`` drew the top card of the deck (others see only its mine side ``back``).

    An undo barrier: the drawer has seen the squad side.
    """

    tag: ClassVar[str] = "drew_deck"
    barrier: ClassVar[bool] = True
    seat: int
    card: int | None
    back: Mine


@attrs.frozen
class DrewFromCamp(Event):
    """``seat`` drew squad ``card`` from the top of the camp pile of ``people``."""

    tag: ClassVar[str] = "drew_camp"
    seat: int
    people: People
    card: int


@attrs.frozen
class TurnEnded(Event):
    """``seat``'s turn ended without a draw: the deck is gone and the round is being finished (``end="round"``)."""

    tag: ClassVar[str] = "turn_ended"
    seat: int


@attrs.frozen
class GameEnded(Event):
    """The last card of the deck was taken: the match is over and is scored."""

    tag: ClassVar[str] = "game_ended"
    reason: str


#: Every event of the game, in the order of the log's type table (:func:`meeple.engine.assemble`).
EVENTS: tuple[type[Event], ...] = (
    KingsDealt, DeckShuffled, MineTurned, CampLaid, HandDealt, SquadPlayed, MineCaptured, MineDeveloped,
    Retreated, DrewFromDeck, DrewFromCamp, TurnEnded, GameEnded,
)
