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

import functools
import itertools
import math
from collections.abc import Container, Sequence
from typing import Any, cast

from meeple.engine import Command, Outcome, Rng
from meeple.engine.memo import derived

from .board import Board, Cell, GoalCard, shape
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
from .data import DIRECTIONS, KINDS, ROUNDS, Action, Category, Door, E, GoalKind, N, Role, S, W
from .state import Deed, Front
from .view import View

Pos = tuple[int, int]
_FAR = 99
#: Scores at which a player counts as a suspect (likely saboteur) or as trusted (likely digger).
SUSPECT, TRUSTED = 2.0, -1.0
#: How far the gold still to come may move the standings, in nuggets per square root of the rounds left
#: (:meth:`HeuristicBot.break_worth`): fitted to 3,000 matches of three heuristic bots (docs/bots.md).
GOLD_SPREAD = 1.75
# enum members bound once: looked up on their class they cost several times a plain name
_BREAK, _TRAPPED, _REPAIR, _FREE, _THEFT, _ROCKFALL = (
    Action.BREAK, Action.TRAPPED, Action.REPAIR, Action.FREE, Action.THEFT, Action.ROCKFALL)
_ATTACKS = (_BREAK, _TRAPPED)
_HELPS = (_REPAIR, _FREE)
_SABOTEUR, _GOLD, _COALS = Role.SABOTEUR, GoalKind.GOLD, (GoalKind.COAL_A, GoalKind.COAL_B)

# -- tables of the card kinds, by kind id ------------------------------------------
#: How many open edges each card shows (a digger prefers the card that opens most).
_OPEN: tuple[int, ...] = tuple(bin(k.edges).count("1") for k in KINDS)
#: The action of each card kind (None for a path card).
_ACTION: tuple[Action | None, ...] = tuple(k.action for k in KINDS)
#: True for a path card (any other card is an action).
_PATH: tuple[bool, ...] = tuple(k.category is Category.PATH for k in KINDS)
#: True for a path card with a tunnel through it (not a dead end).
_TUNNEL: tuple[bool, ...] = tuple(bool(k.groups) for k in KINDS)
#: How a digger ranks path cards that bring the tunnel equally near: most open edges, then most crystals.
_DIG_RANK: tuple[tuple[int, int], ...] = tuple((-_OPEN[i], -k.crystals) for i, k in enumerate(KINDS))
#: The path cards a green or a blue miner keeps off the table: doors of the other colour.
_DOORS_BANNED: dict[Role, frozenset[int]] = {
    Role.GREEN: frozenset(i for i, k in enumerate(KINDS) if k.door is Door.BLUE),
    Role.BLUE: frozenset(i for i, k in enumerate(KINDS) if k.door is Door.GREEN),
}


def _exits_of(kind: int, rotated: bool, ports: int) -> int:
    tile = shape(kind, rotated)
    out = 0
    for group in tile.groups:
        if tile.ladder or group & ports:
            out |= group
    return out


#: ``_EXITS[kind][rotated][ports]``: the edges a tunnel coming in through ``ports`` leaves a card by.
_EXITS: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = tuple(
    (tuple(_exits_of(i, False, p) for p in range(16)), tuple(_exits_of(i, True, p) for p in range(16)))
    for i in range(len(KINDS))
)


def _goal_targets(view: View) -> tuple[Pos, ...]:
    """Goal positions that may hold the gold, as far as the seat knows (once per board and knowledge)."""
    memo = derived(view.board.network.memo, _goal_targets)
    key = view.known_goals
    found = cast("tuple[Pos, ...] | None", memo.get(key))
    if found is None:
        found = memo[key] = _targets(view.board.goals, dict(view.known_goals))
    return found


def _targets(goals: tuple[GoalCard, ...], known: dict[int, GoalKind]) -> tuple[Pos, ...]:
    for i, kind in known.items():
        if kind is _GOLD and goals[i].kind is None:
            return ((goals[i].col, goals[i].row),)
    out = tuple((g.col, g.row) for i, g in enumerate(goals) if g.kind is None and known.get(i) not in _COALS)
    return out or tuple((g.col, g.row) for g in goals if g.kind is None)


def _distance(q: Pos, targets: Sequence[Pos]) -> int:
    col, row = q
    best = _FAR
    for tc, tr in targets:
        d = abs(col - tc) + abs(row - tr)
        if d < best:
            best = d
    return best


@functools.lru_cache(maxsize=32)
def _field(targets: tuple[Pos, ...]) -> dict[Pos, int]:
    """Each square's distance to the nearest of ``targets``, filled in as squares are asked about (for every board)."""
    return {}


def reach(board: Board, targets: tuple[Pos, ...]) -> int:
    """The reach of ``board``: the least distance from a hole a reached tunnel comes into to a target goal.

    Worked out once per board and targets (every bot at the table shares the board).
    """
    return _Reach.of(board, targets).now


class _Reach:
    """Distances from the tunnel's open, connected edges to the target goals, on one board.

    Use :meth:`of`: the board's network keeps one per targets, shared by every
    bot that looks at the board.
    """

    __slots__ = ("_across", "_field", "_goals", "_second", "_spots", "_tiles", "holes", "nearest", "now", "targets")

    def __init__(self, board: Board, targets: tuple[Pos, ...]) -> None:
        net = board.network  # not kept: the network keeps this object
        self._tiles, self._goals, self.holes = net.tiles, net.goals, net.holes
        self.targets = targets
        self._field = field = _field(targets)
        # the nearest hole (the first by position on a tie), its distance, and the best
        # distance elsewhere, whatever square a card takes
        now = second = _FAR
        nearest: Pos | None = None
        for q, _ in net.frontier():
            d = field.get(q, -1)
            if d < 0:
                d = field[q] = _distance(q, targets)
            if d < now:
                now, second, nearest = d, now, q
            elif d < second:
                second = d
        self.now, self._second, self.nearest = now, second, nearest
        self._across = _acrosses(targets, tuple(net.goals))
        self._spots: dict[Pos, tuple[int, int, int, int, int, int, int]] = {}

    @classmethod
    def of(cls, board: Board, targets: tuple[Pos, ...]) -> _Reach:
        """The distances of ``board`` to ``targets`` (kept with the board's network)."""
        memo = derived(board.network.memo, _Reach)
        found = memo.get(targets)
        if found is None:
            found = memo[targets] = cls(board, targets)
        return cast("_Reach", found)

    def dist(self, q: Pos) -> int | None:
        """Distance from empty cell ``q`` to the nearest target (0: ``q`` is a target); None if blocked."""
        if q in self.targets:
            return 0
        if q in self._tiles or q in self._goals:
            return None
        return _distance(q, self.targets)

    def _spot(self, pos: Pos) -> tuple[int, int, int, int, int, int, int]:
        """For hole ``pos``: its ports, its edges facing no card, the reach elsewhere, and :func:`_across` it."""
        hole = self.holes.get(pos)
        if hole is not None:  # each neighbour card set an open or a wall bit of the hole, for its edge
            ports, free = hole >> 8, ~(hole | hole >> 4) & 15
        else:
            col, row = pos
            ports, free = 0, 0
            for edge, dc, dr, _ in DIRECTIONS:
                if (col + dc, row + dr) not in self._tiles:
                    free |= edge
        across = self._across.get(pos)
        if across is None:
            across = self._across[pos] = _across(pos, self.targets, self._goals)
        spot = (ports, free, self._second if pos == self.nearest else self.now, *across)
        self._spots[pos] = spot
        return spot

    def afters(self, paths: Sequence[PlayPath]) -> list[int]:
        """The reach after laying each of ``paths`` (other cards joined through it are ignored)."""
        spots = self._spots
        out = []
        for cmd in paths:
            pos = (cmd.col, cmd.row)
            spot = spots.get(pos)
            ports, free, best, n, e, s, w = self._spot(pos) if spot is None else spot
            exits = _EXITS[cmd.card][cmd.rotated][ports] & free
            if exits & N and n < best:
                best = n
            if exits & E and e < best:
                best = e
            if exits & S and s < best:
                best = s
            if exits & W and w < best:
                best = w
            out.append(best)
        return out


@functools.lru_cache(maxsize=32)
def _acrosses(targets: tuple[Pos, ...], goals: tuple[Pos, ...]) -> dict[Pos, tuple[int, int, int, int]]:
    """Each square's :func:`_across` for these targets and face-down goals, filled in as squares are asked about."""
    return {}


def _across(pos: Pos, targets: tuple[Pos, ...], goals: Container[Pos]) -> tuple[int, int, int, int]:
    """The distance to the nearest target from the squares across the N, E, S and W edges of ``pos``.

    A target counts 0 and another face-down goal far; any other square is
    taken to be empty (:meth:`_Reach._spot` leaves out the edges facing a card).
    """
    col, row = pos
    n, e, s, w = ((col, row - 1), (col + 1, row), (col, row + 1), (col - 1, row))
    return (0 if n in targets else _FAR if n in goals else _distance(n, targets),
            0 if e in targets else _FAR if e in goals else _distance(e, targets),
            0 if s in targets else _FAR if s in goals else _distance(s, targets),
            0 if w in targets else _FAR if w in goals else _distance(w, targets))


@functools.lru_cache(maxsize=8)
def _board(cells: tuple[Cell, ...], goals: tuple[GoalCard, ...]) -> Board:
    """One board for these cards, shared by every bot that rebuilds it (so is the network of each card laid on it)."""
    return Board(cells, goals)


def _settled(role: Role) -> float:
    """The score an Inspection's answer gives: a saboteur, a player of neither team, a digger."""
    return 10.0 if role is Role.SABOTEUR else 0.0 if role in (Role.PROFITEER, Role.GEOLOGIST) else -10.0


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

    def update(self, view: View, me_digger: bool, targets: Sequence[Pos] | None = None) -> None:
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
                    if _PATH[deed.card]:
                        cells.remove(deed.cell)
                    else:
                        cells.append(deed.cell)  # a rockfall took it away
            board = _board(tuple(cells), view.board.goals)
        goals = tuple(_goal_targets(view) if targets is None else targets)
        for deed in new:
            if deed.card is not None:
                board = self._read(deed, board, goals, view.seat, me_digger)
        self.board = view.board  # the table itself (goals turned included), for the next look

    def of(self, view: View, seat: int) -> float:
        """The score of ``seat``; an Inspection's answer settles it."""
        for t, role in view.inspected:
            if t == seat:
                return _settled(role)
        return self.score.get(seat, 0.0)

    def others(self, view: View, seat: int) -> dict[int, float]:
        """The score of every seat but ``seat`` (as :meth:`of` gives each)."""
        score = self.score
        out = {t: score.get(t, 0.0) for t in range(view.seats) if t != seat}
        for t, role in reversed(view.inspected):  # the first answer about a seat settles it
            if t in out:
                out[t] = _settled(role)
        return out

    def _blame(self, seat: int, amount: float) -> None:
        self.score[seat] = self.score.get(seat, 0.0) + amount

    def _read(self, deed: Deed, board: Board, targets: tuple[Pos, ...], me: int | None, me_digger: bool) -> Board:
        """Score one deed; return the board after it."""
        assert deed.card is not None
        card, cell = deed.card, deed.cell
        action, laid = _ACTION[card], _PATH[card]
        if cell is not None and (laid or action is _ROCKFALL):
            board, blame = _judged(board, cell, laid, targets)
            if blame:
                score = self.score
                score[deed.seat] = score.get(deed.seat, 0.0) + blame
            return board
        target = deed.target
        if target is None or target == deed.seat:
            return board
        trust = (-10.0 if me_digger else 10.0) if target == me else self.score.get(target, 0.0)
        if action in _ATTACKS:
            self._blame(deed.seat, 1.5 if trust <= TRUSTED else -0.5 if trust >= SUSPECT else 0.3)
        elif action in _HELPS:
            self._blame(deed.seat, 1.0 if trust >= SUSPECT else -1.0 if trust <= TRUSTED else -0.3)
        return board


def _judged(board: Board, cell: Cell, laid: bool, targets: tuple[Pos, ...]) -> tuple[Board, float]:
    """The board after ``cell`` is laid (a path card) or else taken away (by a rockfall), and the score it adds its player.

    The same for every seat that aims at ``targets``: the score is worked out
    once per board, card and targets, and kept with the board's network. The
    board after is not kept there (:meth:`Board.lay` and :meth:`Board.remove`
    hand back the same one while it lives): a board's memo holding its
    children would keep, through a match's kept states, every board a round
    ever judged.
    """
    memo = derived(board.network.memo, _judged)
    key = (laid, cell.col, cell.row, cell.kind, cell.rotated, targets)  # plain values hash quicker than a Cell
    after = board.lay(cell) if laid else board.remove(cell.col, cell.row)
    score = cast("float | None", memo.get(key))
    if score is None:
        score = memo[key] = _judge(board, after, cell, laid, targets)
    return after, score


def _judge(board: Board, after: Board, cell: Cell, laid: bool, targets: tuple[Pos, ...]) -> float:
    if laid:
        if not _TUNNEL[cell.kind]:  # a dead end: across the tunnel if a reached tunnel came into its square
            hole = board.network.holes.get((cell.col, cell.row))
            return 2.0 if hole is not None and hole.ports else 0.5
        before, now = _Reach.of(board, targets).now, _Reach.of(after, targets).now
        return -1.0 if now < before else 1.0 if now > before else 0.0
    if not _TUNNEL[cell.kind]:  # a rockfall
        return -1.0
    before, now = _Reach.of(board, targets).now, _Reach.of(after, targets).now
    return 2.0 if now > before else 0.5


class _Options:
    """The legal commands by what they do (by exact class), each list in the order of ``legal``."""

    __slots__ = ("clears", "discards", "maps", "paths", "players", "rockfalls")

    def __init__(self, legal: Sequence[Command]) -> None:
        self.paths: list[PlayPath] = []
        #: cards played on a player: break, repair and the other actions aimed at someone
        self.players: list[BreakTool | RepairTool | TargetAction] = []
        self.rockfalls: list[Rockfall] = []
        self.maps: list[PeekGoal] = []
        self.discards: list[Discard] = []  # of one card or more
        self.clears: list[ClearFront] = []
        into: dict[type, list[Any]] = {
            PlayPath: self.paths, BreakTool: self.players, RepairTool: self.players, TargetAction: self.players,
            Rockfall: self.rockfalls, PeekGoal: self.maps, Discard: self.discards, ClearFront: self.clears,
        }
        for cls, run in itertools.groupby(legal, type):  # by runs of one class: legal mostly lists them together
            found = into.get(cls)
            if found is not None:
                found += run


class HeuristicBot:
    """Plays its role: diggers dig towards the gold, saboteurs block and break; both remember who did what."""

    def __init__(self, seed: int = 0, suspicion: bool = True) -> None:
        self._rng = Rng(seed & ((1 << 64) - 1))
        self.suspicion = Suspicion() if suspicion else None
        # the goals that may be gold, for the goal cards and the seat's knowledge they were worked out from
        self._aim: tuple[tuple[GoalCard, ...], tuple[tuple[int, GoalKind], ...], tuple[Pos, ...]] = ((), (), ())

    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        """Return one element of ``legal`` suited to the seat's role."""
        first = legal[0]
        if isinstance(first, TakeGold):
            return max(legal, key=lambda c: c.value if isinstance(c, TakeGold) else 0)
        if isinstance(first, Steal) or not isinstance(view, View):
            return self._rng.choice(legal)
        saboteur = view.role is _SABOTEUR
        goals, known, targets = self._aim
        if view.board.goals is not goals or view.known_goals != known:  # a goal turned, a map looked at, a new round
            goals, known = view.board.goals, view.known_goals
            targets = _targets(goals, dict(known))
            self._aim = goals, known, targets
        if self.suspicion is not None:
            self.suspicion.update(view, me_digger=not saboteur, targets=targets)
        reach = _Reach.of(view.board, targets)
        options = _Options(legal)
        if saboteur:
            return self._saboteur(view, legal, options, seat, reach)
        return self._digger(view, legal, options, seat, reach)

    @staticmethod
    def break_worth(outcome: Outcome, view: Any, seat: int) -> float:
        """``seat``'s chance to win the match from the gold standings ``outcome`` at the end of a round.

        After the last round it is the share of the win; before, the softer the
        more rounds are left: each player's odds grow as ``e`` to the power of
        its gold over ``GOLD_SPREAD`` times the square root of the rounds left
        (a lead of a few nuggets after the first round is far from a win, and
        the other digger of a miners' win is not a loser). A search bot's
        playouts that end with the round (:class:`~meeple.bots.PIMC`) are worth this.

        >>> import meeple
        >>> view = meeple.Match.start("saboteur", seats=3, seed=2).view(0)  # in the first round
        >>> after = Outcome((0,), (3, 1, 0), "after round 1 the most gold is 3 nuggets")
        >>> [round(HeuristicBot.break_worth(after, view, s), 2) for s in range(3)]
        [0.57, 0.26, 0.17]
        """
        gold = outcome.scores
        if not 0 <= seat < len(gold):
            return 0.0
        left = ROUNDS - getattr(view, "round", ROUNDS)
        if left <= 0:
            return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0
        spread = GOLD_SPREAD * math.sqrt(left)
        top = max(gold)
        odds = [math.exp((g - top) / spread) for g in gold]
        return odds[seat] / sum(odds)

    def _scores(self, view: View, seat: int) -> dict[int, float]:
        """Every other player's score, or nothing without the memory."""
        if self.suspicion is None:
            return {}
        return self.suspicion.others(view, seat)

    # -- diggers -------------------------------------------------------------------
    def _digger(self, view: View, legal: Sequence[Command], options: _Options, seat: int, reach: _Reach) -> Command:
        banned = _DOORS_BANNED.get(view.role) if view.role is not None else None
        paths = [c for c in options.paths if c.card not in banned] if banned else options.paths
        afters = reach.afters(paths)
        if paths:
            low = min(afters)
            if low < reach.now:  # the first of the nearest, by rank
                return min((c for a, c in zip(afters, paths, strict=True) if a == low), key=lambda c: _DIG_RANK[c.card])
        players = options.players
        for c in players:
            if type(c) is RepairTool and c.target == seat:
                return c
            if type(c) is TargetAction and _ACTION[c.card] is _FREE and c.target == seat:
                return c
        scores = self._scores(view, seat)
        if scores:
            helped = [c for c in players if _ACTION[c.card] in _HELPS and scores.get(c.target, 0.0) <= TRUSTED]
            if helped:  # repair or free the player who digs best
                return min(helped, key=lambda c: (scores[c.target], c.target))
            hit = [c for c in players if _ACTION[c.card] in _ATTACKS and scores.get(c.target, 0.0) >= SUSPECT]
            if hit:  # break or trap the most suspected
                return max(hit, key=lambda c: (scores[c.target], -c.target))
        maps = options.maps
        if maps and not any(k is _GOLD for _, k in view.known_goals):
            known = {i for i, _ in view.known_goals}
            fresh = [c for c in maps if c.goal not in known]
            if fresh:
                return min(fresh, key=lambda c: abs(c.goal - 1))
        if reach.now <= 6:
            rockfalls = [c for c in options.rockfalls if not _TUNNEL[self._cell(view, c)]]
            if rockfalls:
                return rockfalls[0]
        for c in players:
            if type(c) is TargetAction and _ACTION[c.card] is _THEFT:
                return c
        if paths and reach.now > 0:
            good = [i for i, c in enumerate(paths) if _TUNNEL[c.card] and afters[i] <= reach.now]
            if good:
                return paths[min(good, key=lambda i: afters[i])]
        clear = [c for c in options.clears if c.removed is not Front.THEFT]
        if clear and len(view.hand) >= 4:
            return clear[0]
        return self._discard(legal, options, keep_paths=True)

    @staticmethod
    def _cell(view: View, c: Rockfall) -> int:
        """The kind of the path card a rockfall would take away."""
        memo = view.board.network.memo
        kinds = cast("dict[Pos, int] | None", memo.get("kinds"))
        if kinds is None:
            kinds = memo["kinds"] = {(cell.col, cell.row): cell.kind for cell in view.board.cells}
        return kinds[(c.col, c.row)]

    # -- saboteurs -----------------------------------------------------------------
    def _saboteur(self, view: View, legal: Sequence[Command], options: _Options, seat: int, reach: _Reach) -> Command:
        paths = options.paths
        afters = reach.afters(paths)
        if paths:
            top = max(afters)
            if top > reach.now:  # the first of the farthest, a dead end first
                tops = [c for a, c in zip(afters, paths, strict=True) if a == top]
                return next((c for c in tops if not _TUNNEL[c.card]), tops[0])
        if reach.now <= 3:
            rocks = [c for c in options.rockfalls if _TUNNEL[self._cell(view, c)]]
            if rocks:
                return min(rocks, key=lambda c: self._tip(reach, c))
        players = options.players
        for c in players:
            if type(c) is RepairTool and c.target == seat:
                return c
        scores = self._scores(view, seat)
        if scores:
            fellows = [c for c in players if _ACTION[c.card] in _HELPS and scores.get(c.target, 0.0) >= SUSPECT]
            if fellows:  # help the likely saboteur
                return max(fellows, key=lambda c: (scores[c.target], -c.target))
        for c in players:  # Theft lies in front of yourself, Trapped! in front of another player
            if type(c) is TargetAction and _ACTION[c.card] is _THEFT:
                return c
        traps: list[BreakTool | RepairTool | TargetAction] = [
            c for c in players if type(c) is TargetAction and _ACTION[c.card] is _TRAPPED
        ]
        breaks: list[BreakTool | RepairTool | TargetAction] = [
            c for c in players if type(c) is BreakTool and c.target != seat
        ]
        if scores:  # hit the best digger, never a likely fellow
            for choices in (traps, breaks):
                hits = [c for c in choices if scores.get(c.target, 0.0) < SUSPECT]
                if hits:
                    return min(hits, key=lambda c: (scores[c.target], c.target))
        elif traps:
            return traps[0]
        elif breaks:
            return self._rng.choice(breaks)
        if paths:
            dead = [i for i, c in enumerate(paths) if not _TUNNEL[c.card] and afters[i] >= reach.now]
            if dead:
                return paths[max(dead, key=lambda i: afters[i])]
        return self._discard(legal, options, keep_paths=False)

    @staticmethod
    def _tip(reach: _Reach, c: Rockfall) -> int:
        d = reach.dist((c.col, c.row))
        if d is not None:
            return d
        return min(abs(c.col - t[0]) + abs(c.row - t[1]) for t in reach.targets) if reach.targets else _FAR

    # -- discarding --------------------------------------------------------------------
    def _discard(self, legal: Sequence[Command], options: _Options, keep_paths: bool) -> Command:
        discards = [c for c in options.discards if len(c.cards) == 1]
        if not discards:
            others = [c for c in legal if not isinstance(c, (SwapHand, Inspect))]
            return self._rng.choice(others or list(legal))
        worth = _KEEP if keep_paths else _SPARE
        return min(discards, key=lambda c: worth[c.cards[0]])


def _worth(kind: int, keep_paths: bool) -> int:
    """How much a bot needs a card of ``kind`` (the least needed is discarded); ``keep_paths``: a digger's view."""
    k = KINDS[kind]
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


#: What each card kind is worth to a digger (``_KEEP``) and to a saboteur (``_SPARE``), by kind id.
_KEEP: tuple[int, ...] = tuple(_worth(i, True) for i in range(len(KINDS)))
_SPARE: tuple[int, ...] = tuple(_worth(i, False) for i in range(len(KINDS)))
