"""The referee's state of a Saboteur match, and its small value types."""

from __future__ import annotations

import enum
from typing import Literal

import attrs

from meeple.engine import ConfigError, Options

from .data import GoalKind, Role


class Edition(enum.Enum):
    """Which game is played: the base game or the Deluxe edition (base + expansion)."""

    BASE = "base"
    DELUXE = "deluxe"


@attrs.frozen
class SaboteurOptions(Options):
    """The edition and the documented rule options (see ``docs/rules/saboteur.md``).

    * ``edition``: ``base`` (3-10 players) or ``deluxe`` (base + expansion, 2-12 players).
    * ``gold_cards``: base payout draws one gold card per ``players`` (R1, 9 at 10 players)
      or per ``miners`` (UBG).
    * ``next_starter``: the next round starts with the player ``after-ender`` (R1, R2)
      or with the ``ender`` (the Armenian seed text).
    * ``pass_discards``: Deluxe pass discards one card (the Russian seed text) or up to
      ``3`` (R2), drawing as many.
    * ``broken_tools_forfeit``: R1's optional rule: a miner with a broken tool at round
      end gets no gold (base game).
    * ``gold_pass``: base payout passes the gold cards ``counter-clockwise`` (R1) or
      ``clockwise`` (the Armenian seed text: "to the nearest miner on the left").
    """

    edition: Edition = Edition.BASE
    gold_cards: Literal["players", "miners"] = "players"
    next_starter: Literal["after-ender", "ender"] = "after-ender"
    pass_discards: int = 1
    broken_tools_forfeit: bool = False
    gold_pass: Literal["counter-clockwise", "clockwise"] = "counter-clockwise"

    def validate(self, seats: int) -> None:
        """Base game: 3-10 players; Deluxe: 2-12; ``pass_discards`` 1 or 3 (Deluxe only)."""
        if self.edition is Edition.BASE and not 3 <= seats <= 10:
            raise ConfigError(
                f"saboteur: the base game is for 3-10 players, not {seats}; "
                "the Deluxe edition (--variant deluxe) takes 2-12"
            )
        if self.pass_discards not in (1, 3):
            raise ConfigError(f"saboteur: pass_discards is 1 or 3, not {self.pass_discards}")
        if self.pass_discards != 1 and self.edition is not Edition.DELUXE:
            raise ConfigError("saboteur: pass_discards applies to the Deluxe edition only")
        if self.broken_tools_forfeit and self.edition is not Edition.BASE:
            raise ConfigError("saboteur: broken_tools_forfeit applies to the base game only")
        if self.gold_pass != "counter-clockwise" and self.edition is not Edition.BASE:
            raise ConfigError("saboteur: gold_pass applies to the base game only")


class Phase(enum.Enum):
    """Where the match is: each member names who acts (see ``Saboteur.to_act``)."""

    DEAL = "deal"  # the engine lays out a new round
    PLAY = "play"  # the player in turn plays, or discards
    SETTLE = "settle"  # the engine pays the round
    CHOOSE = "choose"  # base game: a miner picks a gold card from the offer
    THEFT = "theft"  # Deluxe: a thief steals one nugget
    OVER = "over"  # three rounds are played


class Front(enum.Enum):
    """A card lying face up in front of a player."""

    BROKEN_PICKAXE = "broken-pickaxe"
    BROKEN_LANTERN = "broken-lantern"
    BROKEN_CART = "broken-cart"
    TRAPPED = "trapped"
    THEFT = "theft"


@attrs.frozen
class Cell:
    """A path card on the board at (``col``, ``row``), turned 180 degrees if ``rotated``."""

    col: int
    row: int
    kind: int
    rotated: bool = False


@attrs.frozen
class Goal:
    """A goal card at (``col``, ``row``); ``kind`` is hidden until ``revealed``."""

    col: int
    row: int
    kind: GoalKind
    revealed: bool = False
    rotated: bool = False


@attrs.frozen
class RoundResult:
    """A finished round: who won, who ended it, and every role (public once the round ends).

    ``team`` is "miners", "saboteurs", "green", "blue" or "green+blue";
    ``winners`` are the seats that share the pay (Deluxe: trapped players excluded).
    """

    number: int
    team: str
    ender: int
    roles: tuple[Role, ...]
    winners: tuple[int, ...]


@attrs.frozen
class State:
    """Everything the referee knows. Hidden parts: roles, hands, pile, goals, gold, discards."""

    seats: int
    options: SaboteurOptions
    round: int = 0
    phase: Phase = Phase.DEAL
    turn: int = 0
    starter: int = 0
    roles: tuple[Role, ...] = ()
    leftover_roles: tuple[Role, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ()
    pile: tuple[int, ...] = ()
    set_aside: tuple[int, ...] = ()
    discards: tuple[tuple[int, ...], ...] = ()
    cells: tuple[Cell, ...] = ()
    goals: tuple[Goal, ...] = ()
    front: tuple[frozenset[Front], ...] = ()
    thieves: tuple[int, ...] = ()
    known_goals: tuple[frozenset[int], ...] = ()
    inspections: tuple[tuple[int, int, Role], ...] = ()
    gold: tuple[int, ...] = ()
    gold_deck: tuple[int, ...] = ()
    offer: tuple[int, ...] = ()
    chooser: int = -1
    theft_queue: tuple[int, ...] = ()
    ender: int = -1
    finisher: int = -1
    results: tuple[RoundResult, ...] = ()

    @property
    def deluxe(self) -> bool:
        """True in the Deluxe edition."""
        return self.options.edition is Edition.DELUXE
