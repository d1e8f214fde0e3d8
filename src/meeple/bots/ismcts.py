"""Information-set Monte Carlo tree search: a search bot for every game, through the protocol alone.

:class:`ISMCTS` is single-observer ISMCTS with UCT (Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012).
Each iteration samples a *world* from the bot's own view with
:meth:`Game.world <meeple.engine.Game.world>` (never the true state, never
the match's RNG: DESIGN invariant 9), walks one tree of the bot's
information set keyed by commands, choosing among the children that are
legal in this world by UCB1 with availability counts, expands one, plays
the rest out with a random policy (or a given bot), and credits each
command with the outcome for the seat that played it (:func:`win_share`).
A game without hidden information gets plain MCTS: its one world is its
state, sampled once per decision.

Chance (the engine's own steps: deals, rolls) is drawn afresh in every
iteration from the bot's RNG, so the tree branches on the players'
commands only ("open loop"). Where several seats may act at once, the
first of ``to_act`` moves first inside the search, as in batch runs.

>>> import meeple
>>> bot = ISMCTS("liars-dice", seed=1, iterations=200)
>>> m = meeple.Match.start("liars-dice", 2, seed=3)
>>> seat = m.to_act[0]
>>> bot.choose(m.view(seat), m.legal(seat), seat) in m.legal(seat)
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..engine import ENGINE, Command, Game, Outcome, Rng
from ..engine.bot import Bot
from ..engine.errors import ConfigError, MeepleError
from ..engine.registry import resolve

#: A bot factory: ``factory(seed) -> Bot``, as :meth:`Game.bots` gives them.
Factory = Callable[[int], Bot]

#: The exploration constant of UCB1 for rewards in [0, 1] (the ISMCTS paper's 0.7).
EXPLORATION = 0.7
#: Commands a rollout may last before it stops and counts as a draw nobody wins.
MAX_ROLLOUT = 1_000
#: Engine steps after one command before a world is taken for broken.
MAX_ENGINE_STEPS = 10_000
#: Seeds are 64-bit.
MASK64 = (1 << 64) - 1
#: The clocks a time budget may be measured on: ``wall`` (elapsed time) or ``cpu`` (the searching
#: thread's CPU time, ``time.thread_time``, which other processes on a shared machine do not eat into).
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}


def win_share(outcome: Outcome, seat: int) -> float:
    """The reward of ``seat`` from an outcome: 1 split equally among the winners, 0 for everyone else.

    >>> win_share(Outcome((0, 2), (3, 1, 3), "a tie"), 2), win_share(Outcome((0,), (1, 0), "won"), 1)
    (0.5, 0.0)
    """
    winners = outcome.winners
    return 1.0 / len(winners) if seat in winners else 0.0


def advance(game: Game[Any, Any], state: Any, seat: int, command: Command, rng: Rng) -> Any:
    """``state`` after ``command`` of ``seat`` and the engine steps it brings (deals, rolls), drawing from ``rng``."""
    _, state = game.decide_and_fold(state, seat, command, rng)
    guard = 0
    while ENGINE in game.to_act(state):
        _, state = game.decide_and_fold(state, ENGINE, game.auto_command(state), rng)
        guard += 1
        if guard > MAX_ENGINE_STEPS:
            raise MeepleError(f"{game.info.id}: the engine seat acted {MAX_ENGINE_STEPS} times in a row")
    return state


def check_budget(bot: str, iterations: int | None, seconds: float | None, clock: str = "wall") -> None:
    """Refuse a search budget that is not a positive whole number of iterations or a positive time (:class:`ConfigError`).

    ``clock`` must name one of :data:`CLOCKS`.
    """
    if clock not in CLOCKS:
        raise ConfigError(f"{bot}: the clock is one of {', '.join(CLOCKS)}, not {clock!r}")
    if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1):
        raise ConfigError(f"{bot}: iterations must be a positive integer, not {iterations!r}")
    if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0 and math.isfinite(seconds)):
        raise ConfigError(f"{bot}: seconds must be a positive number, not {seconds!r}")


class _Node:
    """One node of the information-set tree: reached by ``command`` of ``mover``."""

    __slots__ = ("avail", "children", "command", "mover", "parent", "reward", "visits")

    def __init__(self, parent: _Node | None, command: Command | None, mover: int) -> None:
        self.parent = parent
        self.command = command
        self.mover = mover
        #: children by (seat, command): in different worlds one command may come from different seats
        self.children: dict[tuple[int, Command], _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0


class ISMCTS:
    """Chooses by information-set Monte Carlo tree search over worlds sampled from its view.

    ``game`` is a game object or id. The budget is ``iterations`` per
    decision, or ``seconds`` of wall-clock time, or both (whichever ends
    first; default 500 iterations). ``seed`` seeds the bot's own RNG, the
    only source of its worlds, its chance draws and its rollouts: with an
    iteration budget, a bot of the same seed asked the same questions in the
    same order gives the same answers, in any process. A time budget gives
    no such promise (how many iterations fit depends on the machine); it
    guarantees at least one iteration, a legal answer, and a return about
    one iteration after the deadline. ``clock`` says what ``seconds``
    measures: ``"wall"`` (elapsed time, the default) or ``"cpu"`` (the CPU
    time of the searching thread, so that a search on a shared machine gets
    the same work done, only later).

    ``rollout`` is a bot factory (``factory(seed) -> Bot``) whose bots play
    the rollouts, one per seat, each fed its seat's view of the world; None
    plays them uniformly at random. ``exploration`` is UCB1's constant
    (rewards are in [0, 1]); ``max_rollout`` caps a rollout's commands (a
    capped rollout counts as a draw nobody wins: 0 for every seat).

    A game that cannot sample worlds (:meth:`Game.world
    <meeple.engine.Game.world>` raises
    :class:`~meeple.engine.NoWorldSampling`) cannot be searched: ``choose``
    lets that error through.
    """

    def __init__(
        self,
        game: str | Game[Any, Any],
        seed: int = 0,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        rollout: Factory | None = None,
        exploration: float = EXPLORATION,
        max_rollout: int = MAX_ROLLOUT,
        clock: str = "wall",
    ) -> None:
        if iterations is None and seconds is None:
            iterations = 500
        check_budget("ismcts", iterations, seconds, clock)
        if not exploration >= 0:
            raise ConfigError(f"ismcts: the exploration constant must be >= 0, not {exploration!r}")
        self.game: Game[Any, Any] = resolve(game)
        self.iterations = iterations
        self.seconds = seconds
        self.clock = clock
        self.rollout = rollout
        self.exploration = float(exploration)
        self.max_rollout = max_rollout
        self._rng = Rng(seed & MASK64)
        #: iterations run by the last :meth:`choose` (0 when it had one legal command)
        self.last_iterations = 0

    def __repr__(self) -> str:
        budget = [f"iterations={self.iterations}"] if self.iterations is not None else []
        if self.seconds is not None:
            budget.append(f"seconds={self.seconds}" + ("" if self.clock == "wall" else f", clock={self.clock!r}"))
        return f"ISMCTS({self.game.info.id!r}, {', '.join(budget)})"

    # -- the bot protocol ----------------------------------------------------------------
    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        """Return the element of ``legal`` the search visited most (ties: the better mean reward, then the first)."""
        if not legal:
            raise ValueError("choose() needs at least one legal command")
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = self._search(view, seat)
        best: Command | None = None
        best_key: tuple[int, float] = (0, 0.0)
        for command in legal:
            child = root.children.get((seat, command))
            if child is not None and (child.visits, child.reward / child.visits) > best_key:
                best, best_key = command, (child.visits, child.reward / child.visits)
        return best if best is not None else self._rng.choice(legal)

    def stats(self, view: Any, legal: Sequence[Command], seat: int) -> list[tuple[Command, int, float]]:
        """Search as :meth:`choose` does; return ``(command, visits, mean reward)`` for each of ``legal``.

        What the search thought of each command, for tuning and for a
        player who wants to see why the bot played what it played.
        """
        root = self._search(view, seat)
        out = []
        for command in legal:
            child = root.children.get((seat, command))
            visits = child.visits if child is not None else 0
            out.append((command, visits, child.reward / visits if child is not None and visits else 0.0))
        return out

    def _search(self, view: Any, seat: int) -> _Node:
        """Run the budget's iterations from ``view``; return the root of the tree."""
        game, rng = self.game, self._rng
        root = _Node(None, None, seat)
        fixed = None if game.info.hidden_information else game.world(view, seat, rng)
        now = CLOCKS[self.clock]
        deadline = None if self.seconds is None else now() + self.seconds
        done = 0
        while True:
            self._iterate(root, fixed if fixed is not None else game.world(view, seat, rng), seat)
            done += 1
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and now() >= deadline:
                break
        self.last_iterations = done
        return root

    # -- one iteration ---------------------------------------------------------------------
    def _iterate(self, root: _Node, state: Any, seat: int) -> None:
        game, rng, c = self.game, self._rng, self.exploration
        node = root
        mover: int | None = seat
        while mover is not None and game.outcome(state) is None:
            legal = game.legal_commands(state, mover)
            if not legal:
                break
            children = node.children
            untried = []
            for cmd in legal:
                child = children.get((mover, cmd))
                if child is None:
                    untried.append(cmd)
                else:
                    child.avail += 1
            if untried:
                cmd = untried[rng.below(len(untried))] if len(untried) > 1 else untried[0]
                child = _Node(node, cmd, mover)
                children[mover, cmd] = child
                state = self._step(state, mover, cmd)
                node = child
                break
            best, best_score = None, -math.inf
            for cmd in legal:
                child = children[mover, cmd]
                score = child.reward / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if score > best_score:
                    best, best_score = child, score
            assert best is not None and best.command is not None
            state = self._step(state, mover, best.command)
            node = best
            mover = self._mover(state)
        out = self._rollout(state)
        up: _Node | None = node
        while up is not None:
            up.visits += 1
            if out is not None and up.parent is not None:
                up.reward += win_share(out, up.mover)
            up = up.parent

    def _mover(self, state: Any) -> int | None:
        for s in self.game.to_act(state):
            if s != ENGINE:
                return s
        return None

    def _step(self, state: Any, seat: int, command: Command) -> Any:
        """``state`` after ``command`` of ``seat`` and the engine steps it brings, drawing from the bot's RNG."""
        return advance(self.game, state, seat, command, self._rng)

    def _rollout(self, state: Any) -> Outcome | None:
        """Play ``state`` out and return its outcome (None for a rollout cut at ``max_rollout``)."""
        game, rng = self.game, self._rng
        bots: dict[int, Bot] = {}
        for _ in range(self.max_rollout):
            out = game.outcome(state)
            if out is not None:
                return out
            mover = self._mover(state)
            if mover is None:
                return None
            legal = game.legal_commands(state, mover)
            if not legal:
                return None
            if self.rollout is None:
                cmd = legal[rng.below(len(legal))]
            else:
                bot = bots.get(mover)
                if bot is None:
                    bot = bots[mover] = self.rollout(rng.next64())
                cmd = bot.choose(game.view(state, mover), legal, mover)
            state = self._step(state, mover, cmd)
        return game.outcome(state)
