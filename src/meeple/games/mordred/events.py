"""Mordred's events: the facts a match's state is folded from.

Every die rolled is written into an event, so the fold never draws.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from meeple.engine import Event

from .data import Kind, Row
from .state import End


@attrs.frozen
class FirstPlayerRolled(Event):
    """The set-up rolls: each round lists ``(seat, die, die)``; ties for the top re-rolled; ``first`` starts."""

    tag: ClassVar[str] = "first_player"
    rounds: tuple[tuple[tuple[int, int, int], ...], ...]
    first: int


@attrs.frozen
class Rolled(Event):
    """``seat`` declared ``row`` and rolled ``dice``; took ``money`` and ``warriors`` and moved ``steps`` on the road."""

    tag: ClassVar[str] = "rolled"
    seat: int
    row: Row
    dice: tuple[int, int]
    money: int
    warriors: int
    steps: int


@attrs.frozen
class WarriorPlaced(Event):
    """``seat`` placed a warrior on the empty ``area``."""

    tag: ClassVar[str] = "warrior_placed"
    seat: int
    area: str


@attrs.frozen
class Siege(Event):
    """``seat`` placed a warrior on ``owner``'s ``kind`` on ``area``, rolled ``die`` needing ``need``.

    On success the building went back to its owner and the warrior took the
    area; otherwise the warrior went back to Mordred's supply.
    """

    tag: ClassVar[str] = "siege"
    seat: int
    area: str
    owner: int
    kind: Kind
    die: int
    need: int
    success: bool


@attrs.frozen
class Built(Event):
    """``seat`` paid ``cost`` and built a ``kind`` on ``area`` (``replaced``: the own building taken back)."""

    tag: ClassVar[str] = "built"
    seat: int
    area: str
    kind: Kind
    cost: int
    replaced: Kind | None


@attrs.frozen
class Attacked(Event):
    """``seat`` paid £2, attacked ``target`` from ``source``, rolled ``die`` needing ``need``.

    On success the warrior left the map (back to Mordred's supply) and the
    marker moved ``steps`` spaces back: 1, or 0 when it could not move back
    (then a ``GameEnded`` follows).
    """

    tag: ClassVar[str] = "attacked"
    seat: int
    source: str
    target: str
    die: int
    need: int
    success: bool
    steps: int


@attrs.frozen
class Assaulted(Event):
    """``seat`` paid £2 and attacked Mordred in his castle from ``source``: ``die`` against ``need``."""

    tag: ClassVar[str] = "assaulted"
    seat: int
    source: str
    die: int
    need: int
    success: bool


@attrs.frozen
class TurnEnded(Event):
    """``seat`` ended the turn; ``next`` is on turn."""

    tag: ClassVar[str] = "turn_ended"
    seat: int
    next: int


@attrs.frozen
class GameEnded(Event):
    """The match ended at once on ``reason``; ``detail`` says what triggered it."""

    tag: ClassVar[str] = "game_ended"
    reason: End
    detail: str


#: Every event of the game, in the order of the log's type table (:func:`meeple.engine.assemble`).
EVENTS: tuple[type[Event], ...] = (
    FirstPlayerRolled, Rolled, WarriorPlaced, Siege, Built, Attacked, Assaulted, TurnEnded, GameEnded,
)
