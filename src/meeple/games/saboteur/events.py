"""Events: the facts a Saboteur match is folded from.

Fields that some seats may not see are optional: ``redact`` (in ``view.py``)
sets them to None for those seats.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from meeple.engine import Event

from .data import GoalKind, Role, Tool
from .state import Front


@attrs.frozen
class RoundDealt(Event):
    """A round is laid out: goals, roles, hands, the pile and the cards set aside."""

    tag: ClassVar[str] = "dealt"
    round: int
    starter: int
    goals: tuple[GoalKind, ...] | None
    roles: tuple[Role | None, ...]
    leftover_roles: tuple[Role, ...] | None
    hands: tuple[tuple[int, ...] | None, ...]
    pile: tuple[int, ...] | None
    set_aside: tuple[int, ...] | None


@attrs.frozen
class PathPlayed(Event):
    """``seat`` laid path card ``card`` at (``col``, ``row``)."""

    tag: ClassVar[str] = "path_played"
    seat: int
    card: int
    col: int
    row: int
    rotated: bool


@attrs.frozen
class GoalRevealed(Event):
    """Goal ``goal`` was reached and turned over; a coal card is turned to fit.

    An undo barrier: every player has seen the goal.
    """

    tag: ClassVar[str] = "goal_revealed"
    barrier: ClassVar[bool] = True
    goal: int
    kind: GoalKind
    rotated: bool


@attrs.frozen
class ToolBroken(Event):
    """``seat`` laid a broken-tool card in front of ``target``."""

    tag: ClassVar[str] = "tool_broken"
    seat: int
    card: int
    target: int


@attrs.frozen
class ToolRepaired(Event):
    """``seat`` repaired ``target``'s ``tool``; both cards went to the discard pile."""

    tag: ClassVar[str] = "tool_repaired"
    seat: int
    card: int
    target: int
    tool: Tool


@attrs.frozen
class PathRemoved(Event):
    """``seat`` played a rockfall and removed the path card at (``col``, ``row``)."""

    tag: ClassVar[str] = "path_removed"
    seat: int
    card: int
    col: int
    row: int


@attrs.frozen
class GoalPeeked(Event):
    """``seat`` played a map and looked at goal ``goal`` (only ``seat`` sees ``kind``)."""

    tag: ClassVar[str] = "goal_peeked"
    seat: int
    card: int
    goal: int
    kind: GoalKind | None


@attrs.frozen
class CardsDiscarded(Event):
    """``seat`` discarded ``count`` cards face down (only ``seat`` sees ``cards``)."""

    tag: ClassVar[str] = "discarded"
    seat: int
    count: int
    cards: tuple[int, ...] | None


@attrs.frozen
class FrontCleared(Event):
    """``seat`` discarded two cards face down to remove ``removed`` from in front of them."""

    tag: ClassVar[str] = "front_cleared"
    seat: int
    cards: tuple[int, ...] | None
    removed: Front


@attrs.frozen
class CardDrawn(Event):
    """``seat`` drew a card from the pile (only ``seat`` sees ``card``)."""

    tag: ClassVar[str] = "drawn"
    seat: int
    card: int | None


@attrs.frozen
class ActionPlayed(Event):
    """``seat`` played Theft, Hands Off, Swap Your Hats' card, Trapped! or Free at Last! on ``target``."""

    tag: ClassVar[str] = "action_played"
    seat: int
    card: int
    target: int


@attrs.frozen
class HandsSwapped(Event):
    """``seat`` swapped hands with ``target`` (only those two see the cards)."""

    tag: ClassVar[str] = "hands_swapped"
    seat: int
    card: int
    target: int
    given: tuple[int, ...] | None
    taken: tuple[int, ...] | None


@attrs.frozen
class RoleInspected(Event):
    """``seat`` looked at ``target``'s dwarf card (only ``seat`` sees ``role``)."""

    tag: ClassVar[str] = "role_inspected"
    seat: int
    card: int
    target: int
    role: Role | None


@attrs.frozen
class HatSwapped(Event):
    """``target`` put their dwarf card away unseen and drew ``role`` from the leftovers."""

    tag: ClassVar[str] = "hat_swapped"
    target: int
    old: Role | None
    role: Role | None


@attrs.frozen
class TurnEnded(Event):
    """The turn passes to ``next`` (the next player clockwise who holds cards)."""

    tag: ClassVar[str] = "turn_ended"
    seat: int
    next: int


@attrs.frozen
class RoundEnded(Event):
    """A round ended: ``team`` won, ``ender`` played the last card, every role is shown.

    An undo barrier: every role is shown.
    """

    tag: ClassVar[str] = "round_ended"
    barrier: ClassVar[bool] = True
    team: str
    ender: int
    finisher: int
    roles: tuple[Role, ...]
    winners: tuple[int, ...]


@attrs.frozen
class GoldOffered(Event):
    """Base game: ``count`` gold cards are drawn for the miners; ``chooser`` picks first."""

    tag: ClassVar[str] = "gold_offered"
    count: int
    values: tuple[int, ...] | None
    chooser: int


@attrs.frozen
class GoldTaken(Event):
    """``seat`` took a gold card of ``value``; ``next`` picks next (-1: none left).

    An undo barrier: the cards left are handed to ``next``, who now sees them.
    """

    tag: ClassVar[str] = "gold_taken"
    barrier: ClassVar[bool] = True
    seat: int
    value: int | None
    next: int


@attrs.frozen
class GoldPaid(Event):
    """``seat`` received ``amount`` nuggets (base: as ``cards`` from the gold deck)."""

    tag: ClassVar[str] = "gold_paid"
    seat: int
    amount: int | None
    cards: tuple[int, ...] | None


@attrs.frozen
class ThievesReady(Event):
    """Deluxe: the thieves who will steal, in order (last to play Theft first)."""

    tag: ClassVar[str] = "thieves_ready"
    order: tuple[int, ...]


@attrs.frozen
class Stolen(Event):
    """Deluxe: ``seat`` stole one gold piece from ``target``."""

    tag: ClassVar[str] = "stolen"
    seat: int
    target: int


@attrs.frozen
class PayoutDone(Event):
    """The round is paid; ``gold`` holds every total once the game is over (else None)."""

    tag: ClassVar[str] = "payout_done"
    game_over: bool
    gold: tuple[int, ...] | None


EVENTS: tuple[type[Event], ...] = (
    RoundDealt, PathPlayed, GoalRevealed, ToolBroken, ToolRepaired, PathRemoved, GoalPeeked, CardsDiscarded,
    FrontCleared, CardDrawn, ActionPlayed, HandsSwapped, RoleInspected, HatSwapped, TurnEnded, RoundEnded,
    GoldOffered, GoldTaken, GoldPaid, ThievesReady, Stolen, PayoutDone,
)
