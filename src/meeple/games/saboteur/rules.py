"""Saboteur's rules: set-up, turns, the tunnel board, round ends and payouts.

The rule texts are ``shared/seeds/000`` (Russian, base and Deluxe) and
``shared/seeds/001`` (Armenian, base); the numbers and rulings come from
``saboteur-facts.md``. ``docs/rules/saboteur.md`` states every rule as
implemented, with its source.

>>> import meeple
>>> m = meeple.Match.start("saboteur", seats=4, seed=1)
>>> m.to_act
(0,)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations_with_replacement
from typing import Any

import attrs

from meeple.engine import ENGINE, Code, Command, ConfigError, Event, Game, GameInfo, Outcome, RandomBot, Rng

from . import data
from .board import Board, coal_rotation, goal_tile, route_free_of, shape, symmetric
from .commands import (
    COMMANDS,
    BreakTool,
    ClearFront,
    DealRound,
    Discard,
    Inspect,
    PeekGoal,
    PlayPath,
    RepairTool,
    Rockfall,
    SettleRound,
    Steal,
    SwapHand,
    TakeGold,
    TargetAction,
)
from .data import KINDS, Action, Category, Door, GoalKind, Role, Tool
from .events import (
    EVENTS,
    ActionPlayed,
    CardDrawn,
    CardsDiscarded,
    FrontCleared,
    GoalPeeked,
    GoalRevealed,
    GoldOffered,
    GoldPaid,
    GoldTaken,
    HandsSwapped,
    HatSwapped,
    PathPlayed,
    PathRemoved,
    PayoutDone,
    RoleInspected,
    RoundDealt,
    RoundEnded,
    Stolen,
    ThievesReady,
    ToolBroken,
    ToolRepaired,
    TurnEnded,
)
from .state import Cell, Edition, Front, Goal, Phase, RoundResult, SaboteurOptions, State
from .view import View, determinize, redact, view

INFO = GameInfo(
    id="saboteur",
    title="Saboteur",
    rules_version=1,
    min_seats=2,
    max_seats=12,
    variants=("standard", "deluxe"),
    variant_seats=(("standard", 3, 10), ("deluxe", 2, 12)),
    summary="Dwarves dig for gold; hidden saboteurs dig against them. Base game 3-10, Deluxe 2-12.",
)

BROKEN: dict[Tool, Front] = {
    Tool.PICKAXE: Front.BROKEN_PICKAXE,
    Tool.LANTERN: Front.BROKEN_LANTERN,
    Tool.CART: Front.BROKEN_CART,
}
#: Cards in front of a player that forbid path cards (broken tools; Deluxe: Trapped!).
BLOCKING = frozenset({Front.BROKEN_PICKAXE, Front.BROKEN_LANTERN, Front.BROKEN_CART, Front.TRAPPED})
DIGGERS = frozenset({Role.MINER, Role.GREEN, Role.BLUE})


# -- small pure helpers -------------------------------------------------------------


def remove_cards(hand: tuple[int, ...], cards: Iterable[int]) -> tuple[int, ...]:
    """Return ``hand`` without one copy of each of ``cards``."""
    out = list(hand)
    for c in cards:
        out.remove(c)
    return tuple(out)


def holds(hand: Sequence[int], cards: Sequence[int]) -> bool:
    """True if ``hand`` holds every card of ``cards`` (with multiplicity)."""
    return all(hand.count(c) >= cards.count(c) for c in set(cards))


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*t[:i], v, *t[i + 1 :])


def hand_size(state: State) -> int:
    """Cards dealt per player this edition and player count."""
    return data.DELUXE_HAND_SIZE if state.deluxe else data.base_hand_size(state.seats)


def board_of(state: State) -> Board:
    """The board of ``state`` (start, path cards and goals)."""
    return Board(state.cells, state.goals)


def blocked(state: State, seat: int) -> bool:
    """True if ``seat`` may not lay path cards (a broken tool or Trapped! in front)."""
    return bool(state.front[seat] & BLOCKING)


def path_targets(state: State, kind: int, board: Board | None = None) -> list[tuple[int, int, bool]]:
    """Every (col, row, rotated) where path card ``kind`` may be laid now.

    ``board`` is ``board_of(state)`` when the caller already has it, so that
    listing several kinds walks the network once.
    """
    if board is None:
        board = board_of(state)
    k = KINDS[kind]
    rotations = (False,) if symmetric(kind) else (False, True)
    out: list[tuple[int, int, bool]] = []
    if k.ladder:
        goal_pos = [(g.col, g.row) for g in state.goals]
        cells = [p for p in board.empty_neighbours() if not board.next_to_goal(p, goal_pos)]
        for pos in sorted(cells):
            out.extend((pos[0], pos[1], r) for r in rotations if board.fits(pos, shape(kind, r)))
        return out
    for pos in board.frontier():
        for r in rotations:
            tile = shape(kind, r)
            if board.fits(pos, tile) and board.joins_network(pos, tile):
                out.append((pos[0], pos[1], r))
    return out


def path_allowed(state: State, kind: int, col: int, row: int, rotated: bool) -> str | None:
    """Return why path card ``kind`` may not lie at (col, row) turned ``rotated``, or None."""
    if rotated and symmetric(kind):
        return "this card looks the same turned: play it with rotated=False"
    board = board_of(state)
    pos = (col, row)
    if board.occupied(pos):
        return f"a card already lies at ({col}, {row})"
    tile = shape(kind, rotated)
    if KINDS[kind].ladder:
        if not board.touches_card(pos):
            return "a ladder must touch a card on the table"
        if board.next_to_goal(pos, [(g.col, g.row) for g in state.goals]):
            return "a ladder may not lie next to a goal card"
        if not board.fits(pos, tile):
            return "the card does not fit its neighbours (open edge against wall)"
        return None
    if not board.fits(pos, tile):
        return "the card does not fit its neighbours (open edge against wall); try turning it"
    if not board.joins_network(pos, tile):
        return "the card must join a tunnel that leads back to the start"
    return None


def reached_goals(cells: tuple[Cell, ...], goals: tuple[Goal, ...]) -> list[GoalRevealed]:
    """The goals the start now reaches, turned (coal turned to fit), until no more are reached."""
    out: list[GoalRevealed] = []
    goals_now = goals
    while True:
        net = Board(cells, goals_now).network
        if not net.goals:
            return out
        for i in sorted(net.goals):
            g = goals_now[i]
            rot = False if g.kind is GoalKind.GOLD else coal_rotation(g.kind, net.goals[i])
            out.append(GoalRevealed(i, g.kind, rot))
            goals_now = _set(goals_now, i, attrs.evolve(g, revealed=True, rotated=rot))


def deluxe_teams(state: State, finisher: int) -> tuple[str, ...]:
    """Which digger teams win when ``finisher`` reached the gold in ``state`` (doors checked).

    The "at least one route" rule (facts section 14, as BGA words it): a team can
    use the gold if some route from the start passes no door of the other colour.
    """
    board = board_of(state)
    gold = next(g for g in state.goals if g.kind is GoalKind.GOLD)
    tiles = dict(board.tiles)
    tiles[(gold.col, gold.row)] = goal_tile(gold.kind, gold.rotated)
    green_ok = route_free_of(tiles, (gold.col, gold.row), Door.BLUE)
    blue_ok = route_free_of(tiles, (gold.col, gold.row), Door.GREEN)
    role = state.roles[finisher]
    if role is Role.GREEN:
        return ("green",) if green_ok else ("blue",) if blue_ok else ()
    if role is Role.BLUE:
        return ("blue",) if blue_ok else ("green",) if green_ok else ()
    return tuple(t for t, ok in (("green", green_ok), ("blue", blue_ok)) if ok)


def round_winners(state: State, team: str) -> tuple[int, ...]:
    """The seats that win a round won by ``team`` (Deluxe: trapped players do not count)."""
    roles = state.roles
    if not state.deluxe:
        want = Role.MINER if team == "miners" else Role.SABOTEUR
        return tuple(s for s in range(state.seats) if roles[s] is want)
    if team == "saboteurs":
        wanted = {Role.SABOTEUR, Role.PROFITEER}
    else:
        wanted = {Role.BOSS, Role.PROFITEER}
        if "green" in team:
            wanted.add(Role.GREEN)
        if "blue" in team:
            wanted.add(Role.BLUE)
    return tuple(s for s in range(state.seats) if roles[s] in wanted and Front.TRAPPED not in state.front[s])


def exact_payment(deck: Sequence[int], amount: int) -> tuple[int, ...]:
    """Gold cards from ``deck`` that add up to ``amount``, fewest cards first.

    If no combination is exact (facts section 15, gap 6), the largest cards
    that do not exceed ``amount`` are taken and the bank makes up the rest.
    """
    counts = {v: deck.count(v) for v in (3, 2, 1)}
    best: tuple[int, ...] | None = None
    for threes in range(min(counts[3], amount // 3), -1, -1):
        rest = amount - 3 * threes
        for twos in range(min(counts[2], rest // 2), -1, -1):
            ones = rest - 2 * twos
            if ones <= counts[1]:
                cand = (3,) * threes + (2,) * twos + (1,) * ones
                if best is None or len(cand) < len(best):
                    best = cand
    if best is not None:
        return best
    out: list[int] = []
    left = amount
    for v in (3, 2, 1):
        while counts[v] and v <= left:
            out.append(v)
            counts[v] -= 1
            left -= v
    return tuple(out)


# -- the game --------------------------------------------------------------------------


class Saboteur(Game[State, SaboteurOptions]):
    """Saboteur, base game (3-10 players) and Deluxe edition (2-12), on the meeple protocol.

    >>> import meeple
    >>> m = meeple.Match.start("saboteur", seats=5, seed=3, options={"edition": "deluxe"})
    >>> len(m.view(0).hand)
    6
    """

    info = INFO
    options_type = SaboteurOptions
    state_type = State
    view_type = View
    commands = COMMANDS
    events = EVENTS

    # -- set-up -----------------------------------------------------------------
    def initial_state(self, seats: int, options: SaboteurOptions) -> State:
        """The state before the first deal: no cards out, nobody has gold."""
        deluxe = options.edition is Edition.DELUXE
        return State(
            seats=seats,
            options=options,
            gold=(0,) * seats,
            gold_deck=() if deluxe else data.GOLD_CARDS,
        )

    def to_act(self, state: State) -> tuple[int, ...]:
        """The engine deals and settles; players play, choose gold or steal."""
        match state.phase:
            case Phase.DEAL | Phase.SETTLE:
                return (ENGINE,)
            case Phase.PLAY:
                return (state.turn,)
            case Phase.CHOOSE:
                return (state.chooser,)
            case Phase.THEFT:
                return (state.theft_queue[0],)
        return ()

    def auto_command(self, state: State) -> Command:
        """Deal a round, or settle one."""
        return DealRound() if state.phase is Phase.DEAL else SettleRound()

    # -- legal commands ------------------------------------------------------------
    def legal_commands(self, state: State, seat: int) -> Sequence[Command]:
        """Every command ``seat`` may play now, cards named by kind, each kind once."""
        if seat == ENGINE or seat not in self.to_act(state):
            return ()
        if state.phase is Phase.CHOOSE:
            return [TakeGold(v) for v in sorted(set(state.offer))]
        if state.phase is Phase.THEFT:
            return [Steal(t) for t in range(state.seats) if t != seat and state.gold[t] > 0]
        return self._turn_commands(state, seat)

    def _turn_commands(self, state: State, seat: int) -> list[Command]:
        hand = state.hands[seat]
        kinds = sorted(set(hand))
        n = state.seats
        out: list[Command] = []
        front = state.front
        board = None if blocked(state, seat) else board_of(state)
        for kind in kinds:
            k = KINDS[kind]
            if k.category is Category.PATH:
                if board is not None:
                    out.extend(PlayPath(kind, c, r, rot) for c, r, rot in path_targets(state, kind, board))
                continue
            match k.action:
                case Action.BREAK:
                    (tool,) = k.tools
                    out.extend(BreakTool(kind, t) for t in range(n) if BROKEN[tool] not in front[t])
                case Action.REPAIR:
                    out.extend(
                        RepairTool(kind, t, tool)
                        for t in range(n)
                        for tool in sorted(k.tools, key=lambda x: x.value)
                        if BROKEN[tool] in front[t]
                    )
                case Action.ROCKFALL:
                    out.extend(Rockfall(kind, c.col, c.row) for c in sorted(state.cells, key=lambda c: (c.col, c.row)))
                case Action.MAP:
                    out.extend(PeekGoal(kind, i) for i, g in enumerate(state.goals) if not g.revealed)
                case Action.THEFT:
                    if Front.THEFT not in front[seat]:
                        out.append(TargetAction(kind, seat))
                case Action.HANDS_OFF:
                    out.extend(TargetAction(kind, t) for t in range(n) if Front.THEFT in front[t])
                case Action.SWAP_HAND:
                    out.extend(SwapHand(kind, t) for t in range(n) if t != seat)
                case Action.INSPECTION:
                    out.extend(Inspect(kind, t) for t in range(n) if t != seat)
                case Action.SWAP_HATS:
                    if state.leftover_roles:
                        out.extend(TargetAction(kind, t) for t in range(n))
                case Action.TRAPPED:
                    out.extend(TargetAction(kind, t) for t in range(n) if t != seat and Front.TRAPPED not in front[t])
                case Action.FREE:
                    out.extend(TargetAction(kind, t) for t in range(n) if Front.TRAPPED in front[t])
        most = state.options.pass_discards if state.deluxe else 1
        for size in range(1, min(most, len(hand)) + 1):
            out.extend(Discard(c) for c in sorted(set(combinations_with_replacement(kinds, size))) if holds(hand, c))
        if state.deluxe and len(hand) >= 2 and front[seat]:
            pairs = [c for c in combinations_with_replacement(kinds, 2) if holds(hand, c)]
            for item in sorted(front[seat], key=lambda f: f.value):
                out.extend(ClearFront(c, item) for c in pairs)
        return out

    # -- decide ------------------------------------------------------------------------
    def decide(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        """Check ``command`` against the rules and return its events (see the rules page)."""
        match command:
            case DealRound():
                if state.phase is not Phase.DEAL or seat != ENGINE:
                    raise self.illegal("no round is waiting to be dealt", Code.WRONG_PHASE, command)
                return self._deal(state, rng)
            case SettleRound():
                if state.phase is not Phase.SETTLE or seat != ENGINE:
                    raise self.illegal("no round is waiting to be paid", Code.WRONG_PHASE, command)
                return self._settle(state, rng)
            case TakeGold(value=value):
                if state.phase is not Phase.CHOOSE or seat != state.chooser:
                    raise self.illegal("it is not your turn to take a gold card", Code.WRONG_PHASE, command)
                if value not in state.offer:
                    raise self.illegal(
                        f"no gold card of value {value} is on offer; choose one of {sorted(set(state.offer))}",
                        Code.BAD_ARGUMENT, command,
                    )
                return self._take_gold(state, seat, value)
            case Steal(target=target):
                if state.phase is not Phase.THEFT or not state.theft_queue or seat != state.theft_queue[0]:
                    raise self.illegal("it is not your turn to steal", Code.WRONG_PHASE, command)
                if not self._valid_seat(state, target) or target == seat or state.gold[target] <= 0:
                    raise self.illegal("steal from another player who holds gold", Code.BAD_ARGUMENT, command)
                events: tuple[Event, ...] = (Stolen(seat, target),)
                after = self._fold(state, events)
                if not after.theft_queue:
                    events += (self._payout_done(after),)
                return events
        if state.phase is not Phase.PLAY or seat != state.turn:
            raise self.illegal("it is not your turn to play a card", Code.WRONG_PHASE, command)
        return self._decide_turn(state, seat, command, rng)

    @staticmethod
    def _valid_seat(state: State, target: int) -> bool:
        return isinstance(target, int) and not isinstance(target, bool) and 0 <= target < state.seats

    def _card(self, state: State, seat: int, card: int, command: Command, *want: Action | Category) -> data.CardKind:
        if card not in state.hands[seat]:
            raise self.illegal(f"you hold no card of kind {card}; play a card from your hand", Code.NOT_IN_HAND, command)
        k = KINDS[card]
        if k.category not in want and k.action not in want:
            raise self.illegal(f"{k.name} cannot be played this way", Code.BAD_ARGUMENT, command)
        return k

    def _target(self, state: State, target: int, command: Command, *, other_than: int | None = None) -> None:
        if not self._valid_seat(state, target):
            raise self.illegal(f"there is no seat {target}; seats are 0..{state.seats - 1}", Code.BAD_ARGUMENT, command)
        if target == other_than:
            raise self.illegal("choose another player, not yourself", Code.BAD_ARGUMENT, command)

    def _decide_turn(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        front = state.front
        match command:
            case PlayPath(card=card, col=col, row=row, rotated=rotated):
                self._card(state, seat, card, command, Category.PATH)
                if blocked(state, seat):
                    what = ", ".join(sorted(f.value for f in front[seat] & BLOCKING))
                    raise self.illegal(
                        f"you may not lay path cards while {what} lies in front of you; "
                        "play an action card or discard", Code.RULE, command,
                    )
                why = path_allowed(state, card, col, row, rotated)
                if why is not None:
                    raise self.illegal(why, Code.RULE, command)
                return self._after_path(state, seat, PathPlayed(seat, card, col, row, rotated), rng)
            case BreakTool(card=card, target=target):
                k = self._card(state, seat, card, command, Action.BREAK)
                self._target(state, target, command)
                (tool,) = k.tools
                if BROKEN[tool] in front[target]:
                    raise self.illegal(f"seat {target} already has a broken {tool.value}", Code.RULE, command)
                return self._end_turn(state, seat, (ToolBroken(seat, card, target),), rng)
            case RepairTool(card=card, target=target, tool=tool):
                k = self._card(state, seat, card, command, Action.REPAIR)
                self._target(state, target, command)
                if tool not in k.tools:
                    raise self.illegal(f"{k.name} does not repair a {tool.value}", Code.RULE, command)
                if BROKEN[tool] not in front[target]:
                    raise self.illegal(f"seat {target} has no broken {tool.value} to repair", Code.RULE, command)
                return self._end_turn(state, seat, (ToolRepaired(seat, card, target, tool),), rng)
            case Rockfall(card=card, col=col, row=row):
                self._card(state, seat, card, command, Action.ROCKFALL)
                if not any(c.col == col and c.row == row for c in state.cells):
                    raise self.illegal(
                        f"no path card to remove at ({col}, {row}); a rockfall never removes the start or a goal",
                        Code.RULE, command,
                    )
                return self._end_turn(state, seat, (PathRemoved(seat, card, col, row),), rng)
            case PeekGoal(card=card, goal=goal):
                self._card(state, seat, card, command, Action.MAP)
                if not (isinstance(goal, int) and 0 <= goal < len(state.goals)) or state.goals[goal].revealed:
                    raise self.illegal("look at a face-down goal: 0 (top), 1 (middle) or 2 (bottom)",
                                       Code.BAD_ARGUMENT, command)
                return self._end_turn(state, seat, (GoalPeeked(seat, card, goal, state.goals[goal].kind),), rng)
            case Discard(cards=cards):
                most = state.options.pass_discards if state.deluxe else 1
                if not 1 <= len(cards) <= most or list(cards) != sorted(cards):
                    raise self.illegal(
                        f"discard {'one card' if most == 1 else f'1 to {most} cards, listed in ascending order'}",
                        Code.BAD_ARGUMENT, command,
                    )
                if not holds(state.hands[seat], cards):
                    raise self.illegal("you can discard only cards you hold", Code.NOT_IN_HAND, command)
                return self._end_turn(state, seat, (CardsDiscarded(seat, len(cards), cards),), rng, draws=len(cards))
            case ClearFront(cards=cards, removed=removed):
                if not state.deluxe:
                    raise self.illegal("only the Deluxe edition lets you discard two cards to clear one",
                                       Code.RULE, command)
                if len(cards) != 2 or list(cards) != sorted(cards) or not holds(state.hands[seat], cards):
                    raise self.illegal("discard exactly two cards you hold, listed in ascending order",
                                       Code.BAD_ARGUMENT, command)
                if removed not in front[seat]:
                    raise self.illegal(f"no {removed.value} card lies in front of you", Code.RULE, command)
                return self._end_turn(state, seat, (FrontCleared(seat, cards, removed),), rng)
            case TargetAction(card=card, target=target):
                return self._target_action(state, seat, command, card, target, rng)
            case SwapHand(card=card, target=target):
                self._card(state, seat, card, command, Action.SWAP_HAND)
                self._target(state, target, command, other_than=seat)
                given = remove_cards(state.hands[seat], (card,))
                ev = HandsSwapped(seat, card, target, given, state.hands[target])
                return self._end_turn(state, seat, (ev,), rng, drawer=target)
            case Inspect(card=card, target=target):
                self._card(state, seat, card, command, Action.INSPECTION)
                self._target(state, target, command, other_than=seat)
                return self._end_turn(state, seat, (RoleInspected(seat, card, target, state.roles[target]),), rng)
        raise self.illegal(f"{type(command).__name__} is not a turn in saboteur", Code.UNKNOWN_COMMAND, command)

    def _target_action(
        self, state: State, seat: int, command: Command, card: int, target: int, rng: Rng
    ) -> tuple[Event, ...]:
        k = self._card(state, seat, card, command, Action.THEFT, Action.HANDS_OFF, Action.SWAP_HATS,
                       Action.TRAPPED, Action.FREE)
        self._target(state, target, command)
        front = state.front[target]
        events: tuple[Event, ...] = (ActionPlayed(seat, card, target),)
        match k.action:
            case Action.THEFT:
                if target != seat:
                    raise self.illegal("Theft is laid in front of yourself", Code.RULE, command)
                if Front.THEFT in front:
                    raise self.illegal("a Theft card already lies in front of you", Code.RULE, command)
            case Action.HANDS_OFF:
                if Front.THEFT not in front:
                    raise self.illegal(f"seat {target} has no Theft card to remove", Code.RULE, command)
            case Action.TRAPPED:
                if target == seat:
                    raise self.illegal("Trapped! is played on another player", Code.RULE, command)
                if Front.TRAPPED in front:
                    raise self.illegal(f"seat {target} is already trapped", Code.RULE, command)
            case Action.FREE:
                if Front.TRAPPED not in front:
                    raise self.illegal(f"seat {target} is not trapped", Code.RULE, command)
            case Action.SWAP_HATS:
                if not state.leftover_roles:
                    raise self.illegal("no dwarf cards are left to draw from", Code.RULE, command)
                pick = state.leftover_roles[rng.below(len(state.leftover_roles))]
                events += (HatSwapped(target, state.roles[target], pick),)
        return self._end_turn(state, seat, events, rng)

    # -- turn flow -----------------------------------------------------------------
    def _fold(self, state: State, events: Iterable[Event]) -> State:
        for e in events:
            state = self.evolve(state, e)
        return state

    def _after_path(self, state: State, seat: int, played: PathPlayed, rng: Rng) -> tuple[Event, ...]:
        after = self.evolve(state, played)
        reveals = reached_goals(after.cells, after.goals)
        events: tuple[Event, ...] = (played, *reveals)
        after = self._fold(after, reveals)
        if any(r.kind is GoalKind.GOLD for r in reveals):
            if state.deluxe:
                teams = deluxe_teams(after, seat)
                team = "+".join(teams) if teams else "saboteurs"
            else:
                team = "miners"
            return (*events, RoundEnded(team, seat, seat, after.roles, round_winners(after, team)))
        return self._end_turn(state, seat, events, rng, folded=after)

    def _end_turn(
        self, state: State, seat: int, events: tuple[Event, ...], rng: Rng, draws: int = 1, drawer: int | None = None,
        folded: State | None = None,
    ) -> tuple[Event, ...]:
        """Draw (while the pile lasts), then pass the turn or end the round.

        ``folded`` is ``events`` already folded onto ``state``, where the caller has it.
        """
        after = self._fold(state, events) if folded is None else folded
        out = list(events)
        who = seat if drawer is None else drawer
        for _ in range(draws):
            if not after.pile:
                break
            card = after.pile[rng.below(len(after.pile))]
            drawn = CardDrawn(who, card)
            out.append(drawn)
            after = self.evolve(after, drawn)
        n = state.seats
        nxt = next((s % n for s in range(seat + 1, seat + n + 1) if after.hands[s % n]), None)
        if nxt is None:
            out.append(RoundEnded("saboteurs", seat, -1, after.roles, round_winners(after, "saboteurs")))
        else:
            out.append(TurnEnded(seat, nxt))
        return tuple(out)

    # -- dealing -----------------------------------------------------------------
    def _deal(self, state: State, rng: Rng) -> tuple[Event, ...]:
        n = state.seats
        number = state.round + 1
        if number == 1:
            starter = 0
        elif state.options.next_starter == "ender":
            starter = state.ender
        else:
            starter = (state.ender + 1) % n
        goals = rng.shuffled(data.GOALS)
        roles = rng.shuffled(data.DELUXE_ROLES if state.deluxe else data.base_roles(n))
        cards = rng.shuffled(data.deck(state.deluxe))
        aside = data.DELUXE_SET_ASIDE if state.deluxe else 0
        size = hand_size(state)
        hands = tuple(tuple(cards[aside + i * size : aside + (i + 1) * size]) for i in range(n))
        pile = tuple(sorted(cards[aside + n * size :]))
        return (
            RoundDealt(
                round=number,
                starter=starter,
                goals=goals,
                roles=roles[:n],
                leftover_roles=tuple(sorted(roles[n:], key=lambda r: r.value)),
                hands=hands,
                pile=pile,
                set_aside=tuple(sorted(cards[:aside])),
            ),
        )

    # -- payouts -------------------------------------------------------------------
    def _settle(self, state: State, rng: Rng) -> tuple[Event, ...]:
        result = state.results[-1]
        return self._settle_deluxe(state, result) if state.deluxe else self._settle_base(state, result, rng)

    def _eligible_miners(self, state: State) -> list[int]:
        forfeit = state.options.broken_tools_forfeit
        return [
            s for s in range(state.seats)
            if state.roles[s] is Role.MINER and not (forfeit and state.front[s] & BLOCKING)
        ]

    def _next_chooser(self, state: State, after: int) -> int:
        """The nearest eligible miner after ``after`` in the passing direction (``after`` itself last)."""
        eligible = self._eligible_miners(state)
        n = state.seats
        step = 1 if state.options.gold_pass == "clockwise" else -1
        return next(s for s in ((after + step * (i + 1)) % n for i in range(n)) if s in eligible)

    def _settle_base(self, state: State, result: RoundResult, rng: Rng) -> tuple[Event, ...]:
        n = state.seats
        if result.team == "miners":
            eligible = self._eligible_miners(state)
            if not eligible:
                return (self._payout_done(state),)
            count = min(n, 9) if state.options.gold_cards == "players" else len(result.winners)
            deck = list(state.gold_deck)
            values = []
            for _ in range(min(count, len(deck))):
                values.append(deck.pop(rng.below(len(deck))))
            if not values:
                return (self._payout_done(state),)
            finder = state.finisher
            first = finder if finder in eligible else self._next_chooser(state, finder)
            return (GoldOffered(len(values), tuple(values), first),)
        saboteurs = result.winners
        pay = data.SABOTEUR_PAY.get(len(saboteurs), 0)
        events: list[Event] = []
        deck = list(state.gold_deck)
        for s in saboteurs:
            cards = exact_payment(deck, pay)
            for c in cards:
                deck.remove(c)
            events.append(GoldPaid(s, pay, cards))
        after = self._fold(state, events)
        return (*events, self._payout_done(after))

    def _take_gold(self, state: State, seat: int, value: int) -> tuple[Event, ...]:
        rest = remove_cards(state.offer, (value,))
        nxt = self._next_chooser(state, seat) if rest else -1
        events: tuple[Event, ...] = (GoldTaken(seat, value, nxt),)
        if not rest:
            events += (self._payout_done(self._fold(state, events)),)
        return events

    def _settle_deluxe(self, state: State, result: RoundResult) -> tuple[Event, ...]:
        n = state.seats
        events: list[Event] = []
        share = data.deluxe_share(len(result.winners))
        for s in result.winners:
            cut = {Role.BOSS: 1, Role.PROFITEER: 2}.get(state.roles[s], 0)
            amount = max(0, share - cut)
            if amount:
                events.append(GoldPaid(s, amount, None))
        geologists = [s for s in range(n) if state.roles[s] is Role.GEOLOGIST]
        if geologists:
            each = board_of(state).crystals() // len(geologists)
            for s in geologists:
                if each and Front.TRAPPED not in state.front[s]:
                    events.append(GoldPaid(s, each, None))
        free = [t for t in state.thieves if Front.TRAPPED not in state.front[t]]
        if free:
            last = free[-1]  # the last thief to play Theft steals first, then clockwise
            events.append(ThievesReady(tuple(sorted(free, key=lambda t: (t - last) % n))))
        after = self._fold(state, events)
        if after.phase is not Phase.THEFT:
            events.append(self._payout_done(after))
        return tuple(events)

    def _payout_done(self, state: State) -> PayoutDone:
        over = state.round >= data.ROUNDS
        return PayoutDone(over, state.gold if over else None)

    # -- evolve ------------------------------------------------------------------------
    def evolve(self, state: State, event: Event) -> State:
        """Fold one event into the state (never draws, never fails on a decided event)."""
        handler = _EVOLVE.get(type(event))
        if handler is None:
            raise TypeError(f"saboteur cannot fold {event!r}")
        return handler(state, event)

    # -- the end -----------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        """After three rounds: the most gold wins; tied players share the win."""
        if state.phase is not Phase.OVER:
            return None
        best = max(state.gold)
        winners = tuple(s for s in range(state.seats) if state.gold[s] == best)
        names = ", ".join(f"seat {s}" for s in winners)
        verb = "holds" if len(winners) == 1 else "share"
        return Outcome(winners, state.gold, f"after three rounds {names} {verb} the most gold ({best} nuggets)")

    # -- presentation and helpers (view.py, render.py, bot.py) ---------------------------
    def view(self, state: State, seat: int | None) -> View:
        """What ``seat`` may know; see :func:`meeple.games.saboteur.view.view`."""
        return view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """The event as ``seat`` sees it; see :func:`meeple.games.saboteur.view.redact`."""
        return redact(event, seat)

    def determinize(self, state: State, seat: int | None, rng: Rng) -> State:
        """Re-deal what ``seat`` cannot see; see :func:`meeple.games.saboteur.view.determinize`."""
        return determinize(state, seat, rng)

    def render(self, state: State, seat: int | None = None) -> str:
        """The board as a grid, and the table as ``seat`` sees it (None: the referee)."""
        from .render import render

        return render(state, seat)

    def describe(self, command: Command) -> str:
        """A short description of a command, e.g. ``lay crossroads at (1, 0)``."""
        from .render import describe

        return describe(command)

    def bots(self) -> Mapping[str, Callable[[int], Any]]:
        """``random`` and the role-aware ``heuristic`` bot."""
        from .bot import HeuristicBot

        return {"random": lambda seed: RandomBot(seed), "heuristic": lambda seed: HeuristicBot(seed)}

    def variant_options(self, variant: str) -> dict[str, Any]:
        """``standard`` is the base game; ``deluxe`` is ``{"edition": "deluxe"}``."""
        if variant == "standard":
            return {}
        if variant == "deluxe":
            return {"edition": "deluxe"}
        raise ConfigError(f"saboteur has no variant {variant!r}; variants: standard, deluxe")


# -- evolve, one small function per event ---------------------------------------------------


def _dealt(s: State, e: RoundDealt) -> State:
    n = s.seats
    assert e.goals is not None and e.leftover_roles is not None and e.pile is not None and e.set_aside is not None
    roles = tuple(r for r in e.roles if r is not None)
    hands = tuple(h for h in e.hands if h is not None)
    return attrs.evolve(
        s,
        round=e.round,
        phase=Phase.PLAY,
        turn=e.starter,
        starter=e.starter,
        roles=roles,
        leftover_roles=e.leftover_roles,
        hands=hands,
        pile=e.pile,
        set_aside=e.set_aside,
        discards=((),) * n,
        cells=(),
        goals=tuple(Goal(c, r, k) for (c, r), k in zip(data.GOAL_POSITIONS, e.goals, strict=True)),
        front=(frozenset(),) * n,
        thieves=(),
        known_goals=(frozenset(),) * n,
        inspections=(),
        offer=(),
        chooser=-1,
        theft_queue=(),
        ender=-1,
        finisher=-1,
    )


def _take(s: State, seat: int, cards: Iterable[int]) -> tuple[tuple[int, ...], ...]:
    return _set(s.hands, seat, remove_cards(s.hands[seat], cards))


def _front(s: State, seat: int, add: Front | None = None, drop: Front | None = None) -> tuple[frozenset[Front], ...]:
    f = s.front[seat]
    if add is not None:
        f = f | {add}
    if drop is not None:
        f = f - {drop}
    return _set(s.front, seat, f)


def _path_played(s: State, e: PathPlayed) -> State:
    return attrs.evolve(s, hands=_take(s, e.seat, (e.card,)), cells=(*s.cells, Cell(e.col, e.row, e.card, e.rotated)))


def _goal_revealed(s: State, e: GoalRevealed) -> State:
    g = attrs.evolve(s.goals[e.goal], revealed=True, rotated=e.rotated)
    return attrs.evolve(s, goals=_set(s.goals, e.goal, g))


def _tool_broken(s: State, e: ToolBroken) -> State:
    (tool,) = KINDS[e.card].tools
    s = attrs.evolve(s, hands=_take(s, e.seat, (e.card,)))
    return attrs.evolve(s, front=_front(s, e.target, add=BROKEN[tool]))


def _tool_repaired(s: State, e: ToolRepaired) -> State:
    s = attrs.evolve(s, hands=_take(s, e.seat, (e.card,)))
    return attrs.evolve(s, front=_front(s, e.target, drop=BROKEN[e.tool]))


def _path_removed(s: State, e: PathRemoved) -> State:
    cells = tuple(c for c in s.cells if (c.col, c.row) != (e.col, e.row))
    return attrs.evolve(s, hands=_take(s, e.seat, (e.card,)), cells=cells)


def _goal_peeked(s: State, e: GoalPeeked) -> State:
    known = _set(s.known_goals, e.seat, s.known_goals[e.seat] | {e.goal})
    return attrs.evolve(s, hands=_take(s, e.seat, (e.card,)), known_goals=known)


def _discarded(s: State, e: CardsDiscarded) -> State:
    assert e.cards is not None
    return attrs.evolve(
        s, hands=_take(s, e.seat, e.cards), discards=_set(s.discards, e.seat, (*s.discards[e.seat], *e.cards))
    )


def _front_cleared(s: State, e: FrontCleared) -> State:
    assert e.cards is not None
    thieves = tuple(t for t in s.thieves if t != e.seat) if e.removed is Front.THEFT else s.thieves
    return attrs.evolve(
        s,
        hands=_take(s, e.seat, e.cards),
        discards=_set(s.discards, e.seat, (*s.discards[e.seat], *e.cards)),
        front=_front(s, e.seat, drop=e.removed),
        thieves=thieves,
    )


def _drawn(s: State, e: CardDrawn) -> State:
    assert e.card is not None
    return attrs.evolve(
        s, pile=remove_cards(s.pile, (e.card,)), hands=_set(s.hands, e.seat, (*s.hands[e.seat], e.card))
    )


def _action_played(s: State, e: ActionPlayed) -> State:
    s = attrs.evolve(s, hands=_take(s, e.seat, (e.card,)))
    match KINDS[e.card].action:
        case Action.THEFT:
            return attrs.evolve(s, front=_front(s, e.target, add=Front.THEFT), thieves=(*s.thieves, e.target))
        case Action.HANDS_OFF:
            thieves = tuple(t for t in s.thieves if t != e.target)
            return attrs.evolve(s, front=_front(s, e.target, drop=Front.THEFT), thieves=thieves)
        case Action.TRAPPED:
            return attrs.evolve(s, front=_front(s, e.target, add=Front.TRAPPED))
        case Action.FREE:
            return attrs.evolve(s, front=_front(s, e.target, drop=Front.TRAPPED))
    return s


def _hands_swapped(s: State, e: HandsSwapped) -> State:
    assert e.given is not None and e.taken is not None
    hands = _set(_set(s.hands, e.seat, e.taken), e.target, e.given)
    return attrs.evolve(s, hands=hands)


def _role_inspected(s: State, e: RoleInspected) -> State:
    assert e.role is not None
    return attrs.evolve(s, hands=_take(s, e.seat, (e.card,)), inspections=(*s.inspections, (e.seat, e.target, e.role)))


def _hat_swapped(s: State, e: HatSwapped) -> State:
    assert e.role is not None
    left = list(s.leftover_roles)
    left.remove(e.role)
    return attrs.evolve(s, roles=_set(s.roles, e.target, e.role), leftover_roles=tuple(left))


def _turn_ended(s: State, e: TurnEnded) -> State:
    return attrs.evolve(s, turn=e.next)


def _round_ended(s: State, e: RoundEnded) -> State:
    result = RoundResult(s.round, e.team, e.ender, e.roles, e.winners)
    return attrs.evolve(s, phase=Phase.SETTLE, ender=e.ender, finisher=e.finisher, results=(*s.results, result))


def _gold_offered(s: State, e: GoldOffered) -> State:
    assert e.values is not None
    return attrs.evolve(
        s, phase=Phase.CHOOSE, offer=e.values, chooser=e.chooser, gold_deck=remove_cards(s.gold_deck, e.values)
    )


def _gold_taken(s: State, e: GoldTaken) -> State:
    assert e.value is not None
    gold = _set(s.gold, e.seat, s.gold[e.seat] + e.value)
    return attrs.evolve(s, offer=remove_cards(s.offer, (e.value,)), gold=gold, chooser=e.next)


def _gold_paid(s: State, e: GoldPaid) -> State:
    assert e.amount is not None
    deck = s.gold_deck if e.cards is None else remove_cards(s.gold_deck, e.cards)
    return attrs.evolve(s, gold=_set(s.gold, e.seat, s.gold[e.seat] + e.amount), gold_deck=deck)


def _ready_thieves(s: State, queue: tuple[int, ...]) -> tuple[int, ...]:
    """Drop thieves at the head of the queue who have nobody to steal from."""
    while queue and not any(t != queue[0] and s.gold[t] > 0 for t in range(s.seats)):
        queue = queue[1:]
    return queue


def _thieves_ready(s: State, e: ThievesReady) -> State:
    queue = _ready_thieves(s, e.order)
    return attrs.evolve(s, phase=Phase.THEFT if queue else s.phase, theft_queue=queue)


def _stolen(s: State, e: Stolen) -> State:
    gold = _set(_set(s.gold, e.target, s.gold[e.target] - 1), e.seat, s.gold[e.seat] + 1)
    s = attrs.evolve(s, gold=gold)
    return attrs.evolve(s, theft_queue=_ready_thieves(s, s.theft_queue[1:]))


def _payout_done(s: State, e: PayoutDone) -> State:
    return attrs.evolve(
        s, phase=Phase.OVER if e.game_over else Phase.DEAL, offer=(), chooser=-1, theft_queue=()
    )


_EVOLVE: dict[type[Event], Callable[[State, Any], State]] = {
    RoundDealt: _dealt,
    PathPlayed: _path_played,
    GoalRevealed: _goal_revealed,
    ToolBroken: _tool_broken,
    ToolRepaired: _tool_repaired,
    PathRemoved: _path_removed,
    GoalPeeked: _goal_peeked,
    CardsDiscarded: _discarded,
    FrontCleared: _front_cleared,
    CardDrawn: _drawn,
    ActionPlayed: _action_played,
    HandsSwapped: _hands_swapped,
    RoleInspected: _role_inspected,
    HatSwapped: _hat_swapped,
    TurnEnded: _turn_ended,
    RoundEnded: _round_ended,
    GoldOffered: _gold_offered,
    GoldTaken: _gold_taken,
    GoldPaid: _gold_paid,
    ThievesReady: _thieves_ready,
    Stolen: _stolen,
    PayoutDone: _payout_done,
}
