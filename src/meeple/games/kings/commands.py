"""What players (and the engine) may ask for in Underground Kings.

A turn is two commands: :class:`Play` (or :class:`Retreat` when no squad can
be played), then :class:`DrawDeck` or :class:`DrawCamp`.

No command carries a secret: a squad is played or retreated face up (its
event names it to everybody), a camp pile is public and a deck draw names no
card. Every class declares so (``secret = ()``), and the test suite checks
that the command a seat is shown says nothing its redacted events do not.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from meeple.engine import Command

from .data import People


@attrs.frozen
class SetUp(Command):
    """The engine deals the King cards, shuffles the deck and lays out the table."""

    tag: ClassVar[str] = "setup"
    secret: ClassVar[tuple[str, ...]] = ()


@attrs.frozen
class Play(Command):
    """Play squad ``card`` from hand onto mine number ``mine``.

    The mine is central (unowned) or one of the player's own; the squad must
    beat the top squad there (higher strength, or a 0 on a 9).

    A play that captures a mine turns up a new one (``MineTurned``, an
    information barrier), so a player may take back a play only if it
    captured nothing (tooling may undo anything).
    """

    tag: ClassVar[str] = "play"
    secret: ClassVar[tuple[str, ...]] = ()  # the squad goes face up onto the mine
    card: int
    mine: int


@attrs.frozen
class Retreat(Command):
    """With no legal play, show your hand and put squad ``card`` from it on its people's camp pile.

    Showing the hand proves that no squad in it can be played; the rest of
    the hand stays known to everybody until played (``Retreated.hand``).
    Its ``Retreated`` event is an information barrier: the player may not
    show the hand and take it back.
    """

    tag: ClassVar[str] = "retreat"
    secret: ClassVar[tuple[str, ...]] = ()  # the squad goes face up onto the camp
    card: int


@attrs.frozen
class DrawDeck(Command):
    """Draw the top card of the deck into hand (ends the game if it was the last).

    Its ``DrewFromDeck`` event is an information barrier: the player has seen
    the card's squad side and everybody the next card's mine side, so a player
    may not draw, look and take it back.
    """

    tag: ClassVar[str] = "draw_deck"
    secret: ClassVar[tuple[str, ...]] = ()


@attrs.frozen
class DrawCamp(Command):
    """Draw the top squad of the camp pile of ``people`` into hand."""

    tag: ClassVar[str] = "draw_camp"
    secret: ClassVar[tuple[str, ...]] = ()  # the camp piles are public
    people: People


#: Every command of the game, in the order of the log's type table (:func:`meeple.engine.assemble`).
COMMANDS: tuple[type[Command], ...] = (SetUp, Play, Retreat, DrawDeck, DrawCamp)
