"""Commands: what a player (or the engine) asks to do.

Cards are named by kind id (see :data:`~meeple.games.saboteur.data.KINDS`).
Where several cards are named (discards) they are listed in ascending order.
Every card drawn comes from the pile by the match's RNG, so a command that
draws is an information barrier for undo; commands that always reveal
hidden information without drawing declare ``barrier``, and so do the events
that reveal it only sometimes (``GoalRevealed``, ``RoundEnded``).

Fields only the acting player may see are declared ``secret`` (the cards of
a face-down discard, the value of the gold card a miner takes): every other
seat and a spectator see them as None (``Game.redact_command``).
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from meeple.engine import Command

from .data import Tool
from .state import Front


@attrs.frozen
class DealRound(Command):
    """The engine lays out a round: start and goals, roles, shuffled cards, hands."""

    tag: ClassVar[str] = "deal"


@attrs.frozen
class SettleRound(Command):
    """The engine pays a finished round (gold offer or fixed shares)."""

    tag: ClassVar[str] = "settle"


@attrs.frozen
class PlayPath(Command):
    """Lay path card ``card`` at (``col``, ``row``), turned 180 degrees if ``rotated``."""

    tag: ClassVar[str] = "path"
    card: int
    col: int
    row: int
    rotated: bool = False


@attrs.frozen
class BreakTool(Command):
    """Lay a broken-tool card in front of ``target`` (any player, yourself included)."""

    tag: ClassVar[str] = "break"
    card: int
    target: int


@attrs.frozen
class RepairTool(Command):
    """Repair ``tool`` of ``target`` with a repair card that shows that tool."""

    tag: ClassVar[str] = "repair"
    card: int
    target: int
    tool: Tool


@attrs.frozen
class Rockfall(Command):
    """Remove the path card at (``col``, ``row``) (never the start or a goal)."""

    tag: ClassVar[str] = "rockfall"
    card: int
    col: int
    row: int


@attrs.frozen
class PeekGoal(Command):
    """Play a map: look at face-down goal ``goal`` (0 top, 1 middle, 2 bottom) in secret."""

    tag: ClassVar[str] = "map"
    barrier: ClassVar[bool] = True
    card: int
    goal: int


@attrs.frozen
class Discard(Command):
    """Pass: discard ``cards`` face down (one; Deluxe option: up to three), then draw as many."""

    tag: ClassVar[str] = "discard"
    secret: ClassVar[tuple[str, ...]] = ("cards",)
    cards: tuple[int, ...]


@attrs.frozen
class ClearFront(Command):
    """Deluxe: discard two ``cards`` to remove the card ``removed`` lying in front of you."""

    tag: ClassVar[str] = "clear"
    secret: ClassVar[tuple[str, ...]] = ("cards",)
    cards: tuple[int, ...]
    removed: Front


@attrs.frozen
class TargetAction(Command):
    """Deluxe: play Theft (on yourself), Hands Off, Swap Your Hats, Trapped! or Free at Last! on ``target``."""

    tag: ClassVar[str] = "act"
    card: int
    target: int


@attrs.frozen
class SwapHand(Command):
    """Deluxe: play Swap Your Hand to swap hands with ``target``, who then draws one card."""

    tag: ClassVar[str] = "swap_hand"
    barrier: ClassVar[bool] = True
    card: int
    target: int


@attrs.frozen
class Inspect(Command):
    """Deluxe: play Inspection to look at ``target``'s dwarf card in secret."""

    tag: ClassVar[str] = "inspect"
    barrier: ClassVar[bool] = True
    card: int
    target: int


@attrs.frozen
class TakeGold(Command):
    """Base game payout: take one gold card of ``value`` from the offer (others do not see which)."""

    tag: ClassVar[str] = "take"
    secret: ClassVar[tuple[str, ...]] = ("value",)
    value: int


@attrs.frozen
class Steal(Command):
    """Deluxe payout: as a thief, take one gold piece from ``target``."""

    tag: ClassVar[str] = "steal"
    target: int


COMMANDS: tuple[type[Command], ...] = (
    DealRound, SettleRound, PlayPath, BreakTool, RepairTool, Rockfall, PeekGoal, Discard, ClearFront,
    TargetAction, SwapHand, Inspect, TakeGold, Steal,
)
