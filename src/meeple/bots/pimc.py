"""Rollout search over sampled worlds: the heuristic's move, improved where many playouts agree.

:class:`PIMC` is determinized ("perfect information") Monte Carlo search
with a policy's rollouts, in the spirit of Tesauro and Galperin's rollout
algorithm ("On-line policy improvement using Monte-Carlo search", 1996) and
of PIMC search in card games (Long, Sturtevant, Buro and Furtak, 2010). It
plays through the game protocol alone:

* the *policy* is a bot factory (``factory(seed) -> Bot``), by default the
  game's ``heuristic`` bot where it has one (uniformly random play
  otherwise); it proposes the candidates, a few of the legal commands in its
  order of preference (it is asked again with its previous answers left
  out), and it plays every seat in every playout, fed that seat's view of
  the sampled world;
* each *round* samples a world from the bot's own view (:meth:`Game.world
  <meeple.engine.Game.world>`, never the true state), then plays every
  candidate in that world and the rest of the match out by the policy, all
  candidates on the same world, the same chance draws and the same policy
  seeds (common random numbers), so that what differs between their
  playouts is the candidate alone; an *own* policy, where one is given,
  stands for the searching seat (it proposes the candidates and plays that
  seat in the playouts), the policy for the others;
* a playout is worth :func:`win_share` to the seat, plus a small term for
  its score margin (``margin``), which separates two wins (or two losses)
  by how safe they were (where the policy offers ``margin(view, seat)
  -> float``, the margin of a finished match by what the rules decide it
  on, as Mordred's heuristic does, that one; else the scores' margin,
  :func:`margin`); with ``horizon`` (the default) a playout ends at
  the first break in play where the game states its standings
  (:meth:`Game.interim <meeple.engine.Game.interim>`: the end of a round
  in Saboteur), and is worth those standings, so that the next rounds'
  deals neither cost time nor add noise; where the policy judges
  standings (a bot with ``break_worth(outcome, view, seat) -> float``,
  the seat's chance to win the match from a break's standings, as
  Saboteur's heuristic has), it is worth that instead, since a lead
  at a break is not yet a win;
* where the policy estimates positions (a bot with ``estimate(view, seat)
  -> float``, the seat's chance to win, as Mordred's heuristic has), a
  playout ends when the searching seat comes to move again for the
  ``depth``-th time after the others moved (``DEPTH`` rounds of turns),
  worth that estimate; each turn of such a playout draws its chance from
  a stream of its own, so that the candidates' playouts meet the same
  dice turn by turn;
* the answer is the policy's own first choice, unless another candidate did
  better in the same worlds by more than ``confidence`` standard errors of
  the paired differences: search only overrides the policy where the
  playouts agree.

Against the policy it is built on, the playouts model the opponents' play
exactly except for what the view hides, so each override is a policy
improvement step. Games may run for hundreds of commands: a playout is cut
after ``max_rollout`` commands (and then worth the margin term alone).

>>> import meeple
>>> bot = PIMC("kings", seed=1, iterations=24)
>>> m = meeple.Match.start("kings", 2, seed=3)
>>> seat = m.to_act[0]
>>> bot.choose(m.view(seat), m.legal(seat), seat) in m.legal(seat)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..engine import ENGINE, Command, Game, Outcome, RandomBot, Rng
from ..engine.bot import Bot
from ..engine.errors import ConfigError, MeepleError
from ..engine.registry import resolve
from .ismcts import CLOCKS, MASK64, MAX_ENGINE_STEPS, Factory, advance, check_budget, win_share

#: How many of the policy's preferred commands are searched by default.
WIDTH = 4
#: Rounds a search should reach: a smaller budget searches fewer candidates (at least two).
MIN_ROUNDS = 4
#: Standard errors by which a candidate must beat the policy's choice (paired over worlds) to replace it.
CONFIDENCE = 1.0
#: The weight of the score margin in a playout's worth (a win is worth 1).
MARGIN = 0.1
#: Commands a playout may last before it is cut.
MAX_ROLLOUT = 2_000
#: Rounds a playout lasts, where the policy estimates positions, before it is worth that estimate.
DEPTH = 2
_GOLDEN = 0x9E3779B97F4A7C15


def margin(outcome: Outcome, seat: int) -> float:
    """``seat``'s score margin in an outcome, in [-1, 1]: its score less the best other, over their magnitudes.

    >>> margin(Outcome((0,), (30, 10), "won"), 0), margin(Outcome((1,), (30, 10), "won"), 1)
    (0.5, -0.5)
    """
    scores = outcome.scores
    if len(scores) < 2 or not 0 <= seat < len(scores):
        return 0.0
    mine = scores[seat]
    best = max(s for i, s in enumerate(scores) if i != seat)
    scale = abs(mine) + abs(best)
    return (mine - best) / scale if scale else 0.0


class PIMC:
    """Plays the policy's move unless rollouts over worlds sampled from its view show a better one.

    ``game`` is a game object or id. ``policy`` is a bot factory
    (``factory(seed) -> Bot``); None takes the game's ``heuristic`` bot, or
    the random bot for a game without one. ``own`` (None: ``policy``) is the
    searching seat's own policy, a factory too: it proposes the candidates,
    plays that seat in the playouts and offers the hooks below
    (``estimate``, ``break_worth``, ``margin``), while ``policy`` plays the
    other seats, so the playouts model the opponents by the bot they are
    taken to be and the searching seat by its best. ``width`` is how many candidates
    are searched (the own policy's first ``width`` choices), fewer where the
    budget would not reach ``MIN_ROUNDS`` rounds (but at least two). The budget is
    ``iterations`` playouts per decision, or ``seconds`` of wall-clock time,
    or both (whichever ends first; default 200 playouts); a decision plays
    whole rounds, one playout per candidate each, and at least one round.
    With a time budget its first round plays two candidates, and it starts
    no round that would end past the budget if its playouts lasted as long
    as the mean one so far, so a decision keeps within ``seconds`` unless
    its first two playouts alone do not. ``clock`` says what ``seconds``
    measures: ``"wall"`` (elapsed time, the default) or ``"cpu"`` (the
    searching thread's CPU time, :func:`time.thread_time`: on a machine
    shared with other work the search then does the same work, only later).
    ``horizon`` (True by default) ends each playout at the first break in
    play the game marks (:meth:`Game.interim <meeple.engine.Game.interim>`,
    the end of a Saboteur round), worth its standings (or the policy's
    ``break_worth`` of them, where it has one); False plays every
    playout to the match's end, as games without breaks always do.
    ``depth`` (``DEPTH`` rounds by default; None: never) ends a playout
    after that many rounds of turns where the policy has an ``estimate``
    (ignored where it has none), worth the estimate. ``turn_chance``
    (None: on exactly when playouts are cut so) draws each turn's chance
    from a stream of its own.

    ``seed`` seeds the bot's own RNG, the only source of its worlds, chance
    draws and policy seeds: with an iteration budget, a bot of the same seed
    asked the same questions in the same order gives the same answers, in
    any process. A time budget gives no such promise.

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
        policy: Factory | None = None,
        width: int = WIDTH,
        confidence: float = CONFIDENCE,
        margin_weight: float = MARGIN,
        max_rollout: int = MAX_ROLLOUT,
        clock: str = "wall",
        horizon: bool = True,
        depth: int | None = DEPTH,
        turn_chance: bool | None = None,
        own: Factory | None = None,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = 200
        check_budget("pimc", iterations, seconds, clock)
        if isinstance(width, bool) or not isinstance(width, int) or width < 1:
            raise ConfigError(f"pimc: the width must be a positive integer, not {width!r}")
        if not confidence >= 0:
            raise ConfigError(f"pimc: the confidence must be >= 0, not {confidence!r}")
        if not margin_weight >= 0:
            raise ConfigError(f"pimc: the margin weight must be >= 0, not {margin_weight!r}")
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
            raise ConfigError(f"pimc: the depth must be a positive integer or None, not {depth!r}")
        self.game: Game[Any, Any] = resolve(game)
        if policy is None:
            policy = self.game.bots().get("heuristic", RandomBot)
        self.policy: Factory = policy
        #: the searching seat's own policy: it proposes the candidates and plays that seat in the playouts
        self.own: Factory = policy if own is None else own
        self.iterations = iterations
        self.seconds = seconds
        self.clock = clock
        self.width = width
        self.confidence = float(confidence)
        self.margin_weight = float(margin_weight)
        self.max_rollout = max_rollout
        self.horizon = bool(horizon)
        self._rng = Rng(seed & MASK64)
        self._prior = self.own(self._rng.next64())
        estimate = getattr(self._prior, "estimate", None)
        #: the policy's estimate of a seat's chance (``estimate(view, seat)``) that ends a playout, or None
        self.estimate: Any = estimate if depth is not None and callable(estimate) else None
        judge = getattr(self._prior, "break_worth", None)
        #: the policy's worth to a seat of a break's standings (``break_worth(outcome, view, seat)``), or None
        self.break_worth: Any = judge if horizon and callable(judge) else None
        self.depth = depth if self.estimate is not None else None
        own_margin = getattr(self._prior, "margin", None)
        #: the policy's margin of a finished match (``margin(view, seat)``, in [-1, 1]), or None: the scores'
        self.final_margin: Any = own_margin if callable(own_margin) else None
        #: True: each turn of a playout draws its chance from a stream of its own (see :meth:`_playout`)
        self.turn_chance = self.depth is not None if turn_chance is None else bool(turn_chance)
        #: playouts run by the last :meth:`choose` (0 when it had one legal command)
        self.last_iterations = 0

    def __repr__(self) -> str:
        budget = [f"iterations={self.iterations}"] if self.iterations is not None else []
        if self.seconds is not None:
            budget.append(f"seconds={self.seconds}" + ("" if self.clock == "wall" else f", clock={self.clock!r}"))
        return f"PIMC({self.game.info.id!r}, {', '.join(budget)}, width={self.width})"

    # -- the bot protocol ----------------------------------------------------------------
    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        """Return the policy's choice among ``legal``, or a candidate that beat it in the playouts."""
        if not legal:
            raise ValueError("choose() needs at least one legal command")
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        candidates = self.candidates(view, legal, seat)
        if len(candidates) == 1:
            self.last_iterations = 0
            return candidates[0]
        table = self._search(view, seat, candidates)
        return candidates[self.pick(table)]  # the table's columns are the first candidates

    def candidates(self, view: Any, legal: Sequence[Command], seat: int) -> list[Command]:
        """The own policy's first ``width`` choices among ``legal``, best first (asked again without its earlier answers)."""
        left = list(legal)
        out: list[Command] = []
        while left and len(out) < self.width:
            cmd = self._prior.choose(view, left, seat) if len(left) > 1 else left[0]
            index = next((i for i, c in enumerate(left) if c is cmd), None)
            if index is None:
                index = next((i for i, c in enumerate(left) if c == cmd), None)
            if index is None:  # a policy that answers outside what it was offered: stop asking
                break
            out.append(left.pop(index))
        return out or [legal[0]]

    def stats(self, view: Any, legal: Sequence[Command], seat: int) -> list[tuple[Command, int, float]]:
        """Search as :meth:`choose` does; ``(candidate, playouts, mean worth)`` of each searched, the policy's first."""
        candidates = self.candidates(view, legal, seat)
        table = self._search(view, seat, candidates)
        out = []
        for i, c in enumerate(candidates[:max(len(row) for row in table)]):
            worths = [row[i] for row in table if len(row) > i]
            out.append((c, len(worths), sum(worths) / len(worths)))
        return out

    def rounds(self, view: Any, legal: Sequence[Command], seat: int) -> tuple[list[Command], list[list[float]]]:
        """Search as :meth:`choose` does; the candidates and each round's worths of the first of them.

        The raw table that :meth:`pick` reads: one row per round, holding
        the worths of the candidates that round played, in their order.
        """
        candidates = self.candidates(view, legal, seat)
        return candidates, self._search(view, seat, candidates)

    # -- search ----------------------------------------------------------------------------
    def pick(self, table: Sequence[Sequence[float]]) -> int:
        """The index of the candidate to play: 0 (the policy's) unless another beat it with confidence.

        A row holds the worths of the first candidates, as many as that round
        played. A candidate replaces the policy's choice if its mean paired
        gain over the rounds that played both is above ``confidence``
        standard errors; among those, the largest gain.
        """
        best, best_gain = 0, 0.0
        for i in range(1, max(len(row) for row in table)):
            diffs = [row[i] - row[0] for row in table if len(row) > i]
            n = len(diffs)
            mean = sum(diffs) / n
            if mean <= best_gain:
                continue
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else math.inf
            if mean > self.confidence * math.sqrt(var / n):
                best, best_gain = i, mean
        return best

    def _search(self, view: Any, seat: int, candidates: Sequence[Command]) -> list[list[float]]:
        """Play rounds until the budget ends; one row per round, the worths of the first candidates.

        With an iteration budget every round plays the same candidates, as
        many as get ``MIN_ROUNDS`` rounds. With a time budget the first
        round plays two, and the rounds after it as many as the time left
        would give ``MIN_ROUNDS`` rounds at the playouts' pace so far.
        """
        game, rng = self.game, self._rng
        wide = len(candidates)
        if self.iterations is not None:
            wide = max(2, min(wide, self.iterations // MIN_ROUNDS))
        if self.seconds is not None:
            wide = 2
        fixed = None if game.info.hidden_information else game.world(view, seat, rng)
        now = CLOCKS[self.clock]
        start = now()
        table: list[list[float]] = []
        done = 0
        while True:
            world = fixed if fixed is not None else game.world(view, seat, rng)
            chance = rng.next64()
            table.append([self._playout(world, seat, cmd, chance) for cmd in candidates[:wide]])
            done += wide
            if self.seconds is not None:
                spent = now() - start
                pace = spent / done
                if len(table) == 1:
                    wide = max(2, min(len(candidates), int(self.seconds / pace / MIN_ROUNDS)))
                if spent + pace * wide > self.seconds:
                    break  # another round, of playouts as long as the mean one so far, would end past the budget
            if self.iterations is not None and done + wide > self.iterations:
                break
        self.last_iterations = done
        return table

    def _playout(self, world: Any, seat: int, command: Command, chance: int) -> float:
        """The worth to ``seat`` of ``command`` in ``world`` and the policy's play after it, chance from ``chance``.

        With :attr:`depth` the playout stops when ``seat`` comes to move again
        after others have, for the ``depth``-th time (a round of turns), worth the
        policy's :attr:`estimate` of ``seat``'s chance there. With
        :attr:`turn_chance` every change of the seat to move starts a chance
        stream of its own, drawn from ``chance`` and the count of changes
        so far: the dice of the k-th turn of a playout are then the same
        whatever the candidates before them drew, so that the candidates'
        playouts differ by their deeds, not by dice shifted along one stream.
        """
        game = self.game
        rng = Rng(chance)
        seeds = Rng(chance ^ _GOLDEN).next64()
        state = self._step(world, seat, command, rng)
        bots: dict[int, Bot] = {}
        horizon, depth, turn_chance = self.horizon, self.depth, self.turn_chance
        last, turns, returns = seat, 0, 0
        for _ in range(self.max_rollout):
            out = game.outcome(state)
            if out is None and horizon:
                out = game.interim(state)
                if out is not None and self.break_worth is not None:
                    return float(self.break_worth(out, game.view(state, seat), seat))
            if out is not None:
                return self._worth(state, out, seat)
            mover = next((s for s in game.to_act(state) if s != ENGINE), None)
            if mover is None:
                return 0.0
            if mover != last:
                last = mover
                turns += 1
                if depth is not None and mover == seat:
                    returns += 1
                    if returns >= depth:
                        return float(self.estimate(game.view(state, seat), seat))
                if turn_chance:
                    rng = Rng(Rng(chance, turns).next64())  # a hashed seed: the turns' streams do not overlap
            legal = game.legal_commands(state, mover)
            if not legal:
                return 0.0
            if len(legal) == 1:
                cmd = legal[0]
            else:
                bot = bots.get(mover)
                if bot is None:
                    factory = self.own if mover == seat else self.policy
                    bot = bots[mover] = factory((seeds + mover * _GOLDEN) & MASK64)
                cmd = bot.choose(game.view(state, mover), legal, mover)
            state = self._step(state, mover, cmd, rng)
        out = game.outcome(state)
        return 0.0 if out is None else self._worth(state, out, seat)

    def _worth(self, state: Any, out: Outcome, seat: int) -> float:
        """What a playout that ended in ``out`` at ``state`` is worth to ``seat``: its win share and margin term."""
        if not self.margin_weight:
            return win_share(out, seat)
        if self.final_margin is not None:
            edge = max(-1.0, min(1.0, float(self.final_margin(self.game.view(state, seat), seat))))
        else:
            edge = margin(out, seat)
        return win_share(out, seat) + self.margin_weight * edge

    def _step(self, state: Any, seat: int, command: Command, rng: Rng) -> Any:
        """``state`` after ``command`` of ``seat`` and the engine steps it brings, drawing from ``rng``.

        With ``horizon`` the engine's steps stop at a break in play
        (:meth:`Game.interim <meeple.engine.Game.interim>`), which ends the playout.
        """
        if not self.horizon:
            return advance(self.game, state, seat, command, rng)
        game = self.game
        _, state = game.decide_and_fold(state, seat, command, rng)
        guard = 0
        while ENGINE in game.to_act(state) and game.interim(state) is None:
            _, state = game.decide_and_fold(state, ENGINE, game.auto_command(state), rng)
            guard += 1
            if guard > MAX_ENGINE_STEPS:
                raise MeepleError(f"{game.info.id}: the engine seat acted {MAX_ENGINE_STEPS} times in a row")
        return state
