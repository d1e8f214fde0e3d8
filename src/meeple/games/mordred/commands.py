"""Mordred's commands: what a player (or the engine, at set-up) asks to do.

Areas are named by their three-letter codes (``data.AREAS``).
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from meeple.engine import Command

from .data import Kind, Row


@attrs.frozen
class Start(Command):
    """The engine's set-up step: everybody rolls both dice for the first turn (ties re-roll)."""

    tag: ClassVar[str] = "start"


@attrs.frozen
class Roll(Command):
    """Declare a row of the Money table and roll both dice (row C when none is declared)."""

    tag: ClassVar[str] = "roll"
    row: Row = Row.C


@attrs.frozen
class Place(Command):
    """Place one of the warriors you took on ``area`` (rolling against a building there)."""

    tag: ClassVar[str] = "place"
    area: str


@attrs.frozen
class Build(Command):
    """Build a ``kind`` on ``area`` (on your own building: replace it, at full price)."""

    tag: ClassVar[str] = "build"
    area: str
    kind: Kind


@attrs.frozen
class Attack(Command):
    """Pay £2 and attack from your building on ``source`` the warrior (or Mordred's castle) on ``target``."""

    tag: ClassVar[str] = "attack"
    source: str
    target: str


@attrs.frozen
class EndTurn(Command):
    """Keep the money left and pass the turn clockwise."""

    tag: ClassVar[str] = "end_turn"


#: Every command of the game, in the order of the log's type table (:func:`meeple.engine.assemble`).
COMMANDS: tuple[type[Command], ...] = (Start, Roll, Place, Build, Attack, EndTurn)
