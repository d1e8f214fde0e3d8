"""A role-aware heuristic bot for Saboteur, with a memory of who acted against whom.

The bot sees only its seat's :class:`~meeple.games.saboteur.view.View` and the
legal commands. It measures the tunnel by its *reach*: the shortest Manhattan
distance from an open, start-connected edge to a goal that may hold the gold
(the one a map showed to be gold, else every goal not known to be coal).

* Diggers (miners, green and blue miners, boss, profiteer, geologist) lay the
  path card that shortens the reach most, repair their own tools first, look
  at unknown goals with maps, clear dead ends near the tunnel with rockfalls,
  and otherwise discard what they need least.
* Saboteurs lay the card that lengthens the reach most (dead ends and walls
  across the tunnel's tip), drop a rockfall on the tip once it nears a goal,
  break other players' tools, trap them (Deluxe), and discard repairs last.

**Suspicion.** The view lists the round's turns as the table saw them
(``View.deeds``); the bot reads the new ones at each of its turns and keeps a
score per player (:class:`Suspicion`): laying a dead end across the tunnel,
a card that takes the tunnel away from the gold, a rockfall on a useful
tunnel, breaking or trapping a trusted player, or repairing a suspect raise
it; cards that bring the tunnel nearer, clearing dead ends, repairing the
trusted or breaking suspects lower it. An Inspection settles it. A digger
then repairs and frees trusted players, and breaks or traps the most
suspected; a saboteur breaks and traps the most trusted diggers and repairs
its likely fellows. ``HeuristicBot(seed, suspicion=False)`` plays without the
memory (the bot before it had one), for comparisons.

>>> from meeple.games.saboteur.bot import HeuristicBot
>>> import meeple
>>> m = meeple.Match.start("saboteur", seats=4, seed=2)
>>> seat = m.to_act[0]
>>> HeuristicBot(1).choose(m.view(seat), m.legal(seat), seat) in m.legal(seat)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeGuard, cast

from meeple.engine import Command, Rng

from .board import Board, shape
from .commands import (
    BreakTool,
    ClearFront,
    Discard,
    Inspect,
    PeekGoal,
    PlayPath,
    RepairTool,
    Rockfall,
    Steal,
    SwapHand,
    TakeGold,
    TargetAction,
)
from .data import DIRECTIONS, KINDS, Action, Category, Door, GoalKind, Role
from .state import Deed, Front
from .view import View

Pos = tuple[int, int]
_FAR = 99
#: Scores at which a player counts as a suspect (likely saboteur) or as trusted (likely digger).
SUSPECT, TRUSTED = 2.0, -1.0
_ATTACKS = (Action.BREAK, Action.TRAPPED)
#: How many open edges each card shows (a digger prefers the card that opens most).
_OPEN: tuple[int, ...] = tuple(bin(k.edges).count("1") for k in KINDS)
_HELPS = (Action.REPAIR, Action.FREE)


def _goal_targets(view: View) -> list[Pos]:
    """Goal positions that may hold the gold, as far as the seat knows."""
    known = dict(view.known_goals)
    goals = view.board.goals
    for i, kind in known.items():
        if kind is GoalKind.GOLD and goals[i].kind is None:
            return [(goals[i].col, goals[i].row)]
    out = [
        (g.col, g.row) for i, g in enumerate(goals)
        if g.kind is None and known.get(i) not in (GoalKind.COAL_A, GoalKind.COAL_B)
    ]
    return out or [(g.col, g.row) for g in goals if g.kind is None]


def _distance(q: Pos, targets: Sequence[Pos]) -> int:
    col, row = q
    best = _FAR
    for tc, tr in targets:
        d = abs(col - tc) + abs(row - tr)
        if d < best:
            best = d
    return best


def reach(board: Board, targets: tuple[Pos, ...]) -> int:
    """The reach of ``board``: the least distance from a hole a reached tunnel comes into to a target goal.

    Worked out once per board and targets (every bot at the table shares the board).
    """
    memo = board.network.memo
    key = ("reach", targets)
    found = cast("int | None", memo.get(key))
    if found is None:
        found = _FAR
        for q, _ in board.network.frontier():
            d = _distance(q, targets)
            if d < found:
                found = d
        memo[key] = found
    return found


class _Reach:
    """Distances from the tunnel's open, connected edges to the target goals."""

    def __init__(self, board: Board, targets: list[Pos]) -> None:
        self.net = net = board.network
        self.targets = targets
        self.target_set = set(targets)
        key = ("frontier", tuple(targets))
        frontier = cast("tuple[tuple[int, Pos], ...] | None", net.memo.get(key))
        if frontier is None:  # worked out once per board and targets
            frontier = tuple(sorted((_distance(q, targets), q) for q, _ in net.frontier()))
            net.memo[key] = frontier
        self.frontier = frontier
        self.now = frontier[0][0] if frontier else _FAR
        # the best distance elsewhere, whatever square a card takes
        self._second = frontier[1][0] if len(frontier) > 1 else _FAR

    def dist(self, q: Pos) -> int | None:
        """Distance from empty cell ``q`` to the nearest target (0: ``q`` is a target); None if blocked."""
        if q in self.target_set:
            return 0
        if q in self.net.tiles or q in self.net.goals:
            return None
        return _distance(q, self.targets)

    def after(self, cmd: PlayPath) -> int:
        """The reach after laying ``cmd`` (other cards joined through it are ignored)."""
        pos = (cmd.col, cmd.row)
        frontier = self.frontier
        best = (self._second if frontier[0][1] == pos else self.now) if frontier else _FAR
        tile = shape(cmd.card, cmd.rotated)
        hole = self.net.holes.get(pos)
        ports = hole.ports if hole is not None else 0
        col, row = pos
        for group in tile.groups:
            if not (tile.ladder or group & ports):
                continue
            for e, dc, dr, _ in DIRECTIONS:
                if group & e:
                    d = self.dist((col + dc, row + dr))
                    if d is not None and d < best:
                        best = d
        return best


class Suspicion:
    """What a seat saw each player do this round, as a score per seat: above 0 like a saboteur, below like a digger.

    Built from the view alone: its ``deeds`` (read once each, in order) and
    its Inspections. ``me_digger`` says which side the seat itself is on.
    """

    def __init__(self) -> None:
        self.round = -1
        self.seen = 0
        self.board: Board | None = None
        self.score: dict[int, float] = {}

    def update(self, view: View, me_digger: bool, targets: list[Pos] | None = None) -> None:
        """Read the deeds done since the last look (a new round starts afresh); ``targets``: the goals that may be gold."""
        if view.round != self.round:
            self.round, self.seen, self.score, self.board = view.round, 0, {}, None
        new = view.deeds[self.seen :]
        self.seen = len(view.deeds)
        if not new:
            return
        board = self.board
        if board is None:  # the first look this round: the table now, with the new deeds' cards taken back
            cells = list(view.board.cells)
            for deed in reversed(new):
                if deed.cell is not None and deed.card is not None:
                    if KINDS[deed.card].category is Category.PATH:
                        cells.remove(deed.cell)
                    else:
                        cells.append(deed.cell)  # a rockfall took it away
            board = Board(tuple(cells), view.board.goals)
        goals = tuple(_goal_targets(view) if targets is None else targets)
        for deed in new:
            board = self._read(deed, board, goals, view.seat, me_digger)
        self.board = view.board  # the table itself (goals turned included), for the next look

    def of(self, view: View, seat: int) -> float:
        """The score of ``seat``; an Inspection's answer settles it."""
        for t, role in view.inspected:
            if t == seat:
                return 10.0 if role is Role.SABOTEUR else 0.0 if role in (Role.PROFITEER, Role.GEOLOGIST) else -10.0
        return self.score.get(seat, 0.0)

    def _blame(self, seat: int, amount: float) -> None:
        self.score[seat] = self.score.get(seat, 0.0) + amount

    def _read(self, deed: Deed, board: Board, targets: tuple[Pos, ...], me: int | None, me_digger: bool) -> Board:
        if deed.card is None:
            return board
        k = KINDS[deed.card]
        if deed.cell is not None and k.category is Category.PATH:
            after = board.lay(deed.cell)
            pos = (deed.cell.col, deed.cell.row)
            before_reach, after_reach = reach(board, targets), reach(after, targets)
            if not k.groups:
                hole = board.network.holes.get(pos)
                self._blame(deed.seat, 2.0 if hole is not None and hole.ports else 0.5)
            elif after_reach < before_reach:
                self._blame(deed.seat, -1.0)
            elif after_reach > before_reach:
                self._blame(deed.seat, 1.0)
            return after
        if k.action is Action.ROCKFALL and deed.cell is not None:
            after = board.remove(deed.cell.col, deed.cell.row)
            if not KINDS[deed.cell.kind].groups:
                self._blame(deed.seat, -1.0)
            else:
                worse = reach(after, targets) > reach(board, targets)
                self._blame(deed.seat, 2.0 if worse else 0.5)
            return after
        target = deed.target
        if target is None or target == deed.seat:
            return board
        trust = (-10.0 if me_digger else 10.0) if target == me else self.score.get(target, 0.0)
        if k.action in _ATTACKS:
            self._blame(deed.seat, 1.5 if trust <= TRUSTED else -0.5 if trust >= SUSPECT else 0.3)
        elif k.action in _HELPS:
            self._blame(deed.seat, 1.0 if trust >= SUSPECT else -1.0 if trust <= TRUSTED else -0.3)
        return board


class HeuristicBot:
    """Plays its role: diggers dig towards the gold, saboteurs block and break; both remember who did what."""

    def __init__(self, seed: int = 0, suspicion: bool = True) -> None:
        self._rng = Rng(seed & ((1 << 64) - 1))
        self.suspicion = Suspicion() if suspicion else None

    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        """Return one element of ``legal`` suited to the seat's role."""
        first = legal[0]
        if isinstance(first, TakeGold):
            return max(legal, key=lambda c: c.value if isinstance(c, TakeGold) else 0)
        if isinstance(first, Steal) or not isinstance(view, View):
            return self._rng.choice(legal)
        saboteur = view.role is Role.SABOTEUR
        targets = _goal_targets(view)
        if self.suspicion is not None:
            self.suspicion.update(view, me_digger=not saboteur, targets=targets)
        reach = _Reach(view.board, targets)
        if saboteur:
            return self._saboteur(view, legal, seat, reach)
        return self._digger(view, legal, seat, reach)

    def _scores(self, view: View, seat: int) -> dict[int, float]:
        """Every other player's score, or nothing without the memory."""
        if self.suspicion is None:
            return {}
        return {t: self.suspicion.of(view, t) for t in range(view.seats) if t != seat}

    # -- diggers -------------------------------------------------------------------
    def _digger(self, view: View, legal: Sequence[Command], seat: int, reach: _Reach) -> Command:
        paths = [c for c in legal if isinstance(c, PlayPath) and self._door_ok(view, c.card)]
        afters = [reach.after(c) for c in paths]
        if paths:
            first = min(range(len(paths)), key=lambda i: (afters[i], -_OPEN[paths[i].card], -KINDS[paths[i].card].crystals))
            if afters[first] < reach.now:
                return paths[first]
        for c in legal:
            if isinstance(c, RepairTool) and c.target == seat:
                return c
            if isinstance(c, TargetAction) and KINDS[c.card].action is Action.FREE and c.target == seat:
                return c
        scores = self._scores(view, seat)
        if scores:
            helped = [c for c in legal if self._acts(c, _HELPS) and scores.get(c.target, 0.0) <= TRUSTED]
            if helped:  # repair or free the player who digs best
                return min(helped, key=lambda c: (scores[c.target], c.target))
            hit = [c for c in legal if self._acts(c, _ATTACKS) and scores.get(c.target, 0.0) >= SUSPECT]
            if hit:  # break or trap the most suspected
                return max(hit, key=lambda c: (scores[c.target], -c.target))
        maps = [c for c in legal if isinstance(c, PeekGoal)]
        known = {i for i, _ in view.known_goals}
        if maps and not any(k is GoalKind.GOLD for _, k in view.known_goals):
            fresh = [c for c in maps if c.goal not in known]
            if fresh:
                return min(fresh, key=lambda c: abs(c.goal - 1))
        rockfalls = [c for c in legal if isinstance(c, Rockfall) and not KINDS[self._cell(view, c)].groups]
        if rockfalls and reach.now <= 6:
            return rockfalls[0]
        for c in legal:
            if isinstance(c, TargetAction) and KINDS[c.card].action is Action.THEFT:
                return c
        if paths:
            good = [i for i, c in enumerate(paths) if KINDS[c.card].groups and afters[i] <= reach.now]
            if good and reach.now > 0:
                return paths[min(good, key=lambda i: afters[i])]
        clear = [c for c in legal if isinstance(c, ClearFront) and c.removed is not Front.THEFT]
        if clear and len(view.hand) >= 4:
            return clear[0]
        return self._discard(view, legal, keep_paths=True)

    @staticmethod
    def _acts(c: Command, actions: tuple[Action, ...]) -> TypeGuard[BreakTool | RepairTool | TargetAction]:
        """True if ``c`` plays a card of one of ``actions`` on a player."""
        return isinstance(c, (BreakTool, RepairTool, TargetAction)) and KINDS[c.card].action in actions

    @staticmethod
    def _door_ok(view: View, card: int) -> bool:
        door = KINDS[card].door
        if door is None:
            return True
        return not ((view.role is Role.GREEN and door is Door.BLUE) or (view.role is Role.BLUE and door is Door.GREEN))

    @staticmethod
    def _cell(view: View, c: Rockfall) -> int:
        cell = view.board.cell_at(c.col, c.row)
        assert cell is not None
        return cell.kind

    # -- saboteurs -----------------------------------------------------------------
    def _saboteur(self, view: View, legal: Sequence[Command], seat: int, reach: _Reach) -> Command:
        paths = [c for c in legal if isinstance(c, PlayPath)]
        afters = [reach.after(c) for c in paths]
        if paths:
            best = max(range(len(paths)), key=lambda i: (afters[i], not KINDS[paths[i].card].groups))
            if afters[best] > reach.now:
                return paths[best]
        if reach.now <= 3:
            rocks = [c for c in legal if isinstance(c, Rockfall) and KINDS[self._cell(view, c)].groups]
            if rocks:
                return min(rocks, key=lambda c: self._tip(reach, c))
        for c in legal:
            if isinstance(c, RepairTool) and c.target == seat:
                return c
        scores = self._scores(view, seat)
        if scores:
            fellows = [c for c in legal if self._acts(c, _HELPS) and scores.get(c.target, 0.0) >= SUSPECT]
            if fellows:  # help the likely saboteur
                return max(fellows, key=lambda c: (scores[c.target], -c.target))
        for c in legal:  # Theft lies in front of yourself, Trapped! in front of another player
            if isinstance(c, TargetAction) and KINDS[c.card].action is Action.THEFT:
                return c
        traps: list[TargetAction | BreakTool] = [
            c for c in legal if isinstance(c, TargetAction) and KINDS[c.card].action is Action.TRAPPED
        ]
        breaks: list[TargetAction | BreakTool] = [c for c in legal if isinstance(c, BreakTool) and c.target != seat]
        if scores:  # hit the best digger, never a likely fellow
            for options in (traps, breaks):
                hits = [c for c in options if scores.get(c.target, 0.0) < SUSPECT]
                if hits:
                    return min(hits, key=lambda c: (scores[c.target], c.target))
        elif traps:
            return traps[0]
        elif breaks:
            return self._rng.choice(breaks)
        if paths:
            dead = [i for i, c in enumerate(paths) if not KINDS[c.card].groups and afters[i] >= reach.now]
            if dead:
                return paths[max(dead, key=lambda i: afters[i])]
        return self._discard(view, legal, keep_paths=False)

    @staticmethod
    def _tip(reach: _Reach, c: Rockfall) -> int:
        d = reach.dist((c.col, c.row))
        if d is not None:
            return d
        return min(abs(c.col - t[0]) + abs(c.row - t[1]) for t in reach.targets) if reach.targets else _FAR

    # -- discarding --------------------------------------------------------------------
    def _discard(self, view: View, legal: Sequence[Command], keep_paths: bool) -> Command:
        discards = [c for c in legal if isinstance(c, Discard) and len(c.cards) == 1]
        if not discards:
            others = [c for c in legal if not isinstance(c, (SwapHand, Inspect))]
            return self._rng.choice(others or list(legal))

        def worth(c: Discard) -> int:
            k = KINDS[c.cards[0]]
            if k.category is Category.PATH:
                if not k.groups:
                    return 0 if keep_paths else 5
                return 4 if keep_paths else 1
            if k.action is Action.REPAIR:
                return 6 if keep_paths else 5
            if k.action is Action.BREAK:
                return 2 if keep_paths else 7
            if k.action is Action.ROCKFALL:
                return 3 if keep_paths else 6
            return 1

        return min(discards, key=worth)
