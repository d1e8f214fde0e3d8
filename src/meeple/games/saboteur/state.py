"""The referee's state of a Saboteur match, and its small value types.

The state is grouped the way the table is: the tunnel (:class:`~.board.Board`,
public), the cards in hands and the pile, the cards in front of players and
the round's public record (:class:`Deed`), the face-down part of the deal
(:class:`Deal`: roles, goal kinds, set-aside cards), what players
learned in secret (:class:`Knowledge`) and the gold (:class:`Purse`).
"""

from __future__ import annotations

import enum
from typing import Literal

import attrs

from meeple.engine import ConfigError, Options
from meeple.engine.copies import replace, replacer

from .board import Board, Cell, GoalCard
from .data import GoalKind, Role, Tool

__all__ = [
    "BROKEN", "Board", "Cell", "Deal", "Deed", "Edition", "Front", "GoalCard", "GoldMove", "Inspection", "Knowledge", "KnownHand",
    "Phase", "Purse", "RoundResult", "SaboteurOptions", "SpentRole", "State", "replace", "replacer",
]


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
    * ``saboteur_pay``: base saboteurs are paid 4/3/3/2 ``nuggets`` in gold cards that add up
      (R1, S1) or 4/3/3/2 gold ``cards`` drawn at random (S0).
    * ``next_starter``: the next round starts with the player ``after-ender`` (S0, R1, R2)
      or, with ``ender`` (the Armenian seed text), with the player who laid the round's last
      path card (the ender if nobody laid one).
    * ``round_end``: without the gold, a round ends when the pile is empty and ``empty-hands``
      (R1, R2, S1), or after a ``lap`` of passes once the pile is empty (a reading of S0).
    * ``pass_discards``: Deluxe pass discards one card (the Russian seed text) or up to
      ``3`` (R2), drawing as many.
    * ``geologists``: Deluxe geologists ``split`` one nugget per crystal between them (R2)
      or ``each`` get one per crystal (S0, which speaks of one geologist).
    * ``broken_tools_forfeit``: R1's optional rule: a miner with a broken tool at round
      end gets no gold (base game).
    * ``gold_pass``: base payout passes the gold cards ``counter-clockwise`` (R1) or
      ``clockwise`` (the Armenian seed text: "to the nearest miner on the left").
    """

    edition: Edition = attrs.field(default=Edition.BASE, metadata={
        "help": "which box: 'base' (3-10 players) or 'deluxe' (the base game with the expansion, 2-12 players)"})
    gold_cards: Literal["players", "miners"] = attrs.field(default="players", metadata={
        "help": "base payout draws one gold card per 'players' (the published rules; 9 at 10 players) or per 'miners'"})
    next_starter: Literal["after-ender", "ender"] = attrs.field(default="after-ender", metadata={
        "help": "who starts the next round: the player 'after-ender' (the published rules) or, with 'ender' "
                "(the Armenian text), the player who laid the round's last path card (else the ender)"})
    pass_discards: int = attrs.field(default=1, metadata={
        "help": "Deluxe: how many cards a pass may discard, drawing as many: 1 (the Russian text) or 3 "
                "(the expansion rules)"})
    broken_tools_forfeit: bool = attrs.field(default=False, metadata={
        "help": "the published optional rule: a miner with a broken tool at the end of a round gets no gold "
                "(base game)"})
    gold_pass: Literal["counter-clockwise", "clockwise"] = attrs.field(default="counter-clockwise", metadata={
        "help": "the direction gold cards pass in the base payout: 'counter-clockwise' (the published rules) or "
                "'clockwise' (the Armenian text)"})
    saboteur_pay: Literal["nuggets", "cards"] = attrs.field(default="nuggets", metadata={
        "help": "base game: winning saboteurs get 4/3/3/2 'nuggets' in gold cards that add up (the published "
                "rules) or 4/3/3/2 gold 'cards' drawn at random (the Russian text)"})
    round_end: Literal["empty-hands", "lap"] = attrs.field(default="empty-hands", metadata={
        "help": "without the gold, a round ends when the pile and every hand are empty ('empty-hands', the "
                "published rules) or after a 'lap' of passes once the pile is empty (a reading of the Russian text)"})
    geologists: Literal["split", "each"] = attrs.field(default="split", metadata={
        "help": "Deluxe: geologists 'split' one nugget per crystal between them (the expansion rules) or 'each' "
                "get one per crystal (the Russian text)"})

    def validate(self, seats: int) -> None:
        """Base game: 3-10 players; Deluxe: 2-12; each option only where its edition has the rule."""
        base = self.edition is Edition.BASE
        if base and not 3 <= seats <= 10:
            raise ConfigError(
                f"saboteur: the base game is for 3-10 players, not {seats} (its hand and dwarf card tables stop "
                "at 10); the Deluxe edition (--variant deluxe) takes 2-12"
            )
        if self.pass_discards not in (1, 3):
            raise ConfigError(f"saboteur: pass_discards is 1 or 3, not {self.pass_discards}")
        if self.pass_discards != 1 and base:
            raise ConfigError("saboteur: pass_discards applies to the Deluxe edition only")
        if self.geologists != "split" and base:
            raise ConfigError("saboteur: geologists applies to the Deluxe edition only")
        for name, default in (("broken_tools_forfeit", False), ("gold_pass", "counter-clockwise"),
                              ("saboteur_pay", "nuggets"), ("gold_cards", "players")):
            if getattr(self, name) != default and not base:
                raise ConfigError(f"saboteur: {name} applies to the base game only")


class Phase(enum.Enum):
    """Where the match is: each member names who acts (see ``Saboteur.to_act``)."""

    DEAL = "deal"  # the engine lays out a new round
    PLAY = "play"  # the player in turn plays, or discards
    SETTLE = "settle"  # the engine pays the round
    CHOOSE = "choose"  # base game: a miner picks a gold card from the offer
    THEFT = "theft"  # Deluxe: a thief steals one nugget
    OVER = "over"  # three rounds are played


class Front(enum.Enum):
    """A card lying face up in front of a player.

    Members hash by identity (they are singletons), which is what sets of
    them need; nothing iterates such a set without sorting it.
    """

    __hash__ = object.__hash__

    BROKEN_PICKAXE = "broken-pickaxe"
    BROKEN_LANTERN = "broken-lantern"
    BROKEN_CART = "broken-cart"
    TRAPPED = "trapped"
    THEFT = "theft"


#: The broken-tool card that breaking each tool lays in front of a player.
BROKEN: dict[Tool, Front] = {
    Tool.PICKAXE: Front.BROKEN_PICKAXE,
    Tool.LANTERN: Front.BROKEN_LANTERN,
    Tool.CART: Front.BROKEN_CART,
}


@attrs.frozen
class Deed:
    """One turn of the round as every player saw it.

    ``card`` is the card played face up (its kind), or None when cards were
    discarded face down (a pass; or two cards to remove a card in front of
    the player, then ``target`` is that player). ``target`` is the player a
    card was played on; ``cell`` the path card laid, or the one a rockfall
    removed.
    """

    seat: int
    card: int | None
    target: int | None = None
    cell: Cell | None = None


@attrs.frozen
class SpentRole:
    """A dwarf card put away by Swap Your Hats: whose it was, and who knows what it shows."""

    seat: int
    role: Role
    known_by: frozenset[int]


@attrs.frozen
class Deal:
    """The round's face-down cards, as the engine dealt them (hidden from the players).

    ``spent_roles`` are the dwarf cards Swap Your Hats put out of play.
    """

    starter: int = 0
    roles: tuple[Role, ...] = ()
    leftover_roles: tuple[Role, ...] = ()
    spent_roles: tuple[SpentRole, ...] = ()
    goal_kinds: tuple[GoalKind, ...] = ()
    set_aside: tuple[int, ...] = ()


@attrs.frozen
class Inspection:
    """``viewer`` looked at ``target``'s dwarf card and saw ``role`` (dropped when the target swaps hats)."""

    viewer: int
    target: int
    role: Role


@attrs.frozen
class KnownHand:
    """What ``viewer`` knows of ``holder``'s hand, from a hand swap.

    ``holder`` holds at least ``sure`` of ``cards`` (sorted); those of them no
    longer held lie among the face-down discards of the players
    ``discarded_by`` (who held the hand when they discarded). Right after a
    swap, ``sure`` is every card; a card played face up from the hand leaves
    ``cards``, a face-down discard lowers ``sure``; the knowledge moves with
    the hand when it is swapped again.
    """

    viewer: int
    holder: int
    cards: tuple[int, ...]
    sure: int
    discarded_by: tuple[int, ...] = ()


@attrs.frozen
class Knowledge:
    """What players learned in secret this round.

    ``goals[seat]``: the goal indices ``seat`` looked at with a map;
    ``roles``: the dwarf cards seen with Inspection; ``hands``: what hand
    swaps showed of other hands.
    """

    goals: tuple[frozenset[int], ...] = ()
    roles: tuple[Inspection, ...] = ()
    hands: tuple[KnownHand, ...] = ()


@attrs.frozen
class GoldMove:
    """Gold cards a player took in a base-game payout: ``picked`` from the miners' offer, or a saboteur's pay.

    ``amount`` is the nuggets received (more than the cards add up to when the
    bank made change).
    """

    round: int
    seat: int
    cards: tuple[int, ...]
    amount: int
    picked: bool


@attrs.frozen
class Purse:
    """The gold: each player's nuggets, the base gold cards left, and a payout under way.

    ``ledger`` lists, in order, the gold cards each player took (base game),
    so that a search can re-deal the values a player never saw.
    """

    gold: tuple[int, ...] = ()
    deck: tuple[int, ...] = ()
    offer: tuple[int, ...] = ()
    chooser: int = -1
    theft_queue: tuple[int, ...] = ()
    ledger: tuple[GoldMove, ...] = ()


@attrs.frozen
class RoundResult:
    """A finished round: who won, who ended it, and every role (public once the round ends).

    ``team`` is "miners", "saboteurs", "green", "blue" or "green+blue";
    ``ender`` played or discarded the card that ended it, ``finisher`` laid
    the card that reached the gold (-1: nobody); ``winners`` are the seats
    that share the pay (Deluxe: trapped players excluded).
    """

    number: int
    team: str
    ender: int
    finisher: int
    roles: tuple[Role, ...]
    winners: tuple[int, ...]


@attrs.frozen(slots=False)  # a dict-backed instance, so replace() copies it in one dict copy
class State:
    """Everything the referee knows.

    Public: the board, the cards in front of players, the thieves, the
    round's deeds, hand and pile sizes, results. Hidden: hands (sorted), the
    pile (unordered: draws pick at random), each player's face-down discards
    this round (sorted), the deal, the knowledge, the gold.
    ``passes`` counts the players who passed in a row since the pile ran out
    (option ``round_end="lap"`` only).
    """

    seats: int
    options: SaboteurOptions
    round: int = 0
    phase: Phase = Phase.DEAL
    turn: int = 0
    passes: int = 0
    hands: tuple[tuple[int, ...], ...] = ()
    pile: tuple[int, ...] = ()
    discards: tuple[tuple[int, ...], ...] = ()
    board: Board = attrs.field(factory=Board)
    front: tuple[frozenset[Front], ...] = ()
    thieves: tuple[int, ...] = ()
    deeds: tuple[Deed, ...] = ()
    deal: Deal = attrs.field(factory=Deal)
    known: Knowledge = attrs.field(factory=Knowledge)
    purse: Purse = attrs.field(factory=Purse)
    results: tuple[RoundResult, ...] = ()

    @property
    def deluxe(self) -> bool:
        """True in the Deluxe edition."""
        return self.options.edition is Edition.DELUXE

    @property
    def roles(self) -> tuple[Role, ...]:
        """Every player's dwarf card this round (hidden; public once the round ends)."""
        return self.deal.roles

    @property
    def gold(self) -> tuple[int, ...]:
        """Every player's nuggets (hidden until the game ends)."""
        return self.purse.gold

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The path cards on the board."""
        return self.board.cells
