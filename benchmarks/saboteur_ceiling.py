"""How many rounds a Saboteur `pimc` seat wins per role when its worlds are the true state: a ceiling of that search.

**This benchmark reaches into the match's true state.** The bot it measures,
the *oracle*, is the rollout search of :mod:`meeple.bots.pimc` (built from a
spec such as ``pimc:250ms-cpu``, exactly as ``benchmarks/search_bots.py``
builds it), except that every world it searches is the live match's true
state instead of one sampled from its view (:meth:`Game.world
<meeple.engine.Game.world>` is replaced, on a copy of the game object
that bot alone holds, by a function that returns ``match.state``; states are
immutable, so the playouts cannot change the match). It therefore sees
every hidden card: the other players' roles and hands, the gold's goal
card and what the draw pile holds (not the order of the draws, which
are chance when they come: its playouts draw their own). No bot may do
this (DESIGN invariant 9); it is done here only to measure a bound: what this search, with
this policy and budget, could win were its worlds perfect. It is a bound
for this search, not for every bot.

One oracle seat and the heuristic bot in the other seats, the seats rotated
(match ``i`` shifts them by ``i``), each match dealt from its corpus seed
as ``benchmarks/search_bots.py`` deals it (:func:`meeple.batch.match_seed`,
:func:`meeple.batch.bot_seed`). Each match's rounds are split by the role
each seat held (``search_bots.by_role``: a round's win is its team's), and
one JSON line per budget is printed in the format of ``search_bots.py``, so
that its ``--sum`` adds them up (``--sum`` here calls it)::

    nice -n 10 python benchmarks/saboteur_ceiling.py --budgets 250ms-cpu --games 3 --seed 301 >> ceiling.log
    python benchmarks/saboteur_ceiling.py --sum ceiling.log

``--plain`` plays the same matches with the search's own sampled worlds
(no oracle), the control in the same code path. ``--told`` plays the
heuristic bot in the oracle's seat, told every role and where the gold
lies (its view shows every other seat's role as if inspected and every goal
card as if looked at with a map; not the hands nor the pile): what the
heuristic's own play makes of the secrets that matter most, in no time::

    python benchmarks/saboteur_ceiling.py --told --games 3 --seed 301 >> told.log

``--gold`` plays the search with its own sampled worlds, told only where
the gold lies (its view shows every goal card as if looked at with a map):
what that secret alone is worth to the search. ``--first-role saboteur``
(or ``miner``) plays only the matches whose first deal gives the search
seat that role, so that with ``--rounds 1`` a run measures that role alone::

    nice -n 10 python benchmarks/saboteur_ceiling.py --gold --rounds 1 --first-role saboteur --budgets 100 --games 12 --seed 4001 >> gold.log

``--budgets heuristic`` plays the heuristic bot itself in that seat: the
rates of three heuristic bots, each role's rate when no seat plays better.

``--team`` asks what the *digger team* could win with this search: every
seat plays the oracle while it is a digger (its view's role a miner) and
the heuristic bot while it is a saboteur (:class:`ByRole`), so that in each
round every digger sees every card and searches, against heuristic
saboteurs. A digger's rate there bounds what one such digger beside a
heuristic partner reaches. ``--rounds K`` ends each match after its K-th
round (the rounds' rates by role are what these runs measure)::

    nice -n 10 python benchmarks/saboteur_ceiling.py --team --rounds 1 --budgets 900ms-cpu --games 4 --seed 2001 >> team.log
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import search_bots  # noqa: E402

from meeple.batch import MatchResult, Plan, Rate, bot_seed, match_seed, summarize  # noqa: E402
from meeple.bots import PIMC  # noqa: E402
from meeple.catalog import bot_factory  # noqa: E402
from meeple.engine import ENGINE, Command, Match, Rng, get_game  # noqa: E402
from meeple.engine.bot import Bot  # noqa: E402
from meeple.games.saboteur.data import Role  # noqa: E402
from meeple.games.saboteur.state import replace  # noqa: E402

GAME = "saboteur"
#: Commands a match may last before it is cut (as :class:`meeple.batch.Plan` cuts it).
MAX_COMMANDS = Plan(game=GAME, seats=3, bots=(), games=1, seed=0).max_commands


def see_truth(bot: PIMC, match: Match) -> PIMC:
    """Make ``bot`` search the true state of ``match``: every world it asks for is ``match.state``.

    The bot's game object is replaced by a shallow copy of it whose
    ``world`` returns the match's current state (after checking, once per
    view, that the state shows the seat the view it searches from); the
    game shared by everything else is left alone.
    """
    game = copy.copy(bot.game)
    real = bot.game
    checked: list[Any] = [None]  # the last view checked: a decision asks for many worlds of one view

    def world(view: Any, seat: int | None, rng: Rng) -> Any:
        state = match.state
        if view is not checked[0]:
            if real.view(state, seat) != view:
                raise AssertionError("the oracle was asked for a world of a view that is not the match's")
            checked[0] = view
        return state

    game.world = world  # type: ignore[method-assign]
    bot.game = game
    return bot


class Told:
    """A bot at a seat of ``match``, its view showing every goal card's kind and (unless not ``roles``) every role.

    The view is the seat's own, with every goal card's kind added to
    ``known_goals`` (as if it had looked at each goal with a map) and every
    other seat's role to ``inspected`` (as if it had inspected each player).
    Reports the ``last_iterations`` of the bot (0 for a bot without them).
    """

    def __init__(self, bot: Bot, match: Match, roles: bool = True) -> None:
        self.bot, self.match, self.roles = bot, match, roles
        self.last_iterations = 0

    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        """The bot's choice from the told view."""
        deal = self.match.state.deal
        if deal.roles and deal.goal_kinds:
            told: dict[str, Any] = {"known_goals": tuple(enumerate(deal.goal_kinds))}
            if self.roles:
                told["inspected"] = tuple((t, r) for t, r in enumerate(deal.roles) if t != seat)
            view = replace(view, **told)
        command = self.bot.choose(view, legal, seat)
        self.last_iterations = int(getattr(self.bot, "last_iterations", 0))
        return command


class ByRole:
    """Plays ``digger`` while the seat's view shows a miner, ``saboteur`` otherwise.

    Reports the ``last_iterations`` of the bot that chose last (0 for a bot without them).
    """

    def __init__(self, digger: Bot, saboteur: Bot) -> None:
        self.digger, self.saboteur = digger, saboteur
        self.last_iterations = 0

    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        """The digger's choice while the seat is a miner, else the saboteur's."""
        bot = self.digger if getattr(view, "role", None) is Role.MINER else self.saboteur
        command = bot.choose(view, legal, seat)
        self.last_iterations = int(getattr(bot, "last_iterations", 0))
        return command


def play(plan: Plan, index: int, me: str, spec: str, oracle: bool = True, rounds: int | None = None,
         gold: bool = False, first_role: Role | None = None) -> tuple[MatchResult, list[float], list[int]] | None:
    """Play match ``index`` of ``plan``; the seats named ``me`` are ``spec``'s search, made an oracle unless not ``oracle``.

    ``spec`` ``"told"``: those seats are the heuristic bot, :class:`Told`.
    ``spec`` ``"team:<pimc spec>"``: each seat named ``me`` is a :class:`ByRole`
    of that search (an oracle unless not ``oracle``) and the heuristic bot.
    ``rounds``: the match ends after that many rounds (None: played out).
    ``gold``: the search (not an oracle) is told where the gold lies
    (:class:`Told`, roles left out). ``first_role``: None, and the match is
    not played, unless its first deal gives the first seat named ``me`` that role.

    Also the CPU seconds (the deciding thread's) and playouts of each of the
    search seat's decisions that searched.
    """
    game = get_game(plan.game)
    seed = match_seed(plan.seed, index)
    match = Match.start(game, plan.seats, seed=seed, options=plan.options)
    names = plan.bots_of(index)
    if first_role is not None and match.state.deal.roles[names.index(me)] is not first_role:
        return None
    bots: list[Any] = []
    for seat, name in enumerate(names):
        if name == me and spec.startswith("team:"):
            search = bot_factory(game, spec.removeprefix("team:"))(bot_seed(plan.seed, index, seat))
            bots.append(ByRole(see_truth(search, match) if oracle else search,
                               bot_factory(game, "heuristic")(bot_seed(plan.seed, index, seat) ^ 1)))
        elif name == me and spec == "told":
            bots.append(Told(bot_factory(game, "heuristic")(bot_seed(plan.seed, index, seat)), match))
        elif name == me and spec == "heuristic":
            bots.append(bot_factory(game, "heuristic")(bot_seed(plan.seed, index, seat)))
        elif name == me:
            bot = bot_factory(game, spec)(bot_seed(plan.seed, index, seat))
            bots.append(Told(bot, match, roles=False) if gold else see_truth(bot, match) if oracle else bot)
        else:
            bots.append(bot_factory(game, name)(bot_seed(plan.seed, index, seat)))
    cpu: list[float] = []
    playouts: list[int] = []
    commands = 0
    while commands < plan.max_commands and (rounds is None or len(match.state.results) < rounds):
        acting = [s for s in match.to_act if s != ENGINE]
        if not acting:
            break
        seat = acting[0]
        start = time.thread_time()
        command = bots[seat].choose(match.view(seat), match.legal(seat), seat)
        ran = int(getattr(bots[seat], "last_iterations", 0)) if names[seat] == me else 0
        if ran:
            cpu.append(time.thread_time() - start)
            playouts.append(ran)
        match.play(seat, command)
        commands += 1
    out = match.outcome
    result = MatchResult(
        index, seed, names,
        None if out is None else tuple(out.winners), None if out is None else tuple(out.scores),
        None if out is None else out.reason, commands, len(match), match.to_bytes(),
    )
    return result, cpu, playouts


def by_role(results: Sequence[MatchResult], me: str) -> dict[str, dict[str, Any]]:
    """``search_bots.by_role``, and the miners' rounds split by whether a saboteur card was dealt to anyone.

    At three seats one of the four role cards stays face down: in a third
    of a miner's rounds no one is a saboteur. The split keys are
    ``miner, a saboteur dealt`` and ``miner, no saboteur dealt``.

    A match in which every seat is ``me`` (a ``--team`` run) counts each
    round once more as the miners' team (``miners' team``, split the same
    way): its two or three diggers share one result, so a round, not a
    seat, is what such a run has drawn.
    """
    out = search_bots.by_role(results, me)
    tally: dict[str, list[int]] = {}

    def count(key: str, won: bool) -> None:
        done, n = tally.get(key, [0, 0])
        tally[key] = [done + won, n + 1]

    for r in results:
        if r.log is None:
            continue
        team = all(name == me for name in r.bots)
        for event in Match.from_bytes(r.log).events_for(None):
            if type(event).__name__ != "RoundEnded":
                continue
            roles = [role.value for role in event.roles]  # type: ignore[attr-defined]
            winners = event.winners  # type: ignore[attr-defined]
            dealt = "a saboteur dealt" if "saboteur" in roles else "no saboteur dealt"
            miners = [seat for seat, role in enumerate(roles) if role == "miner"]
            for seat in miners:
                count(f"{'bot' if r.bots[seat] == me else 'others'}:miner, {dealt}", seat in winners)
            if team and miners:
                count("bot:miners' team", miners[0] in winners)
                count(f"bot:miners' team, {dealt}", miners[0] in winners)
    for key, (won, n) in sorted(tally.items()):
        rate = Rate.of(won, n)
        out[key] = {"rounds": n, "won": won, "rate": rate.rate, "ci95": [rate.low, rate.high]}
    return out


def run(budget: str, seats: int, games: int, seed: int, oracle: bool = True, team: bool = False,
        rounds: int | None = None, gold: bool = False, first_role: Role | None = None) -> dict[str, Any]:
    """``games`` matches of one ``pimc:budget`` seat (an oracle unless not ``oracle``) against heuristic bots: one JSON row.

    ``team``: every seat plays that search while a digger and the heuristic
    bot while a saboteur (:class:`ByRole`); ``rounds``: each match ends after
    that many rounds; ``gold``: the search is told where the gold lies
    instead of seeing every card; ``first_role``: only the matches whose
    first deal gives the search seat that role are played (``matches``
    counts those).

    ``budget`` ``"told"``: the seat is the heuristic bot told every role and goal (:class:`Told`);
    ``"heuristic"``: the heuristic bot itself, under another name (``heuristic-seat``), so that
    its rates are those of three heuristic bots, reported as the others are.
    """
    spec = budget if budget in ("told", "heuristic") else f"pimc:{budget}"
    me = {"told": "heuristic-told", "heuristic": "heuristic-seat"}.get(budget) or (f"oracle-{spec}" if oracle else spec)
    if (team or gold) and budget in ("told", "heuristic"):
        raise SystemExit("saboteur_ceiling: --team and --gold need a pimc budget")
    if team:
        spec, me = f"team:{spec}", f"team-{me}"
    elif gold:
        me = f"gold-{spec}"
    other = "heuristic"
    names = (me,) * seats if team else (me, *[other] * (seats - 1))  # a team run: every seat is the same bot
    plan = Plan(game=GAME, seats=seats, bots=names, games=games, seed=seed, rotate=True)
    t = time.perf_counter()
    results: list[MatchResult] = []
    cpu: list[float] = []
    playouts: list[int] = []
    for index in range(games):
        played = play(plan, index, me, spec, oracle, rounds, gold, first_role)
        if played is None:
            continue
        result, c, p = played
        results.append(result)
        cpu += c
        playouts += p
    s = summarize(results, plan, time.perf_counter() - t)  # counts the matches played (``first_role``)
    r, o = s.bot_rates.get(me), s.bot_rates.get(other)  # None where no match was played out (``rounds``)
    fair = sum(len(x.winners or ()) for x in results) / max(1, s.finished * seats)
    return {"game": GAME, "seats": seats, "options": {}, "bot": me, "opponent": other,
            "matches": s.matches, "finished": s.finished, "wins": r.wins if r else 0, "seats_held": r.n if r else 0,
            "rate": r.rate if r else 0.0, "ci95": [r.low, r.high] if r else [0.0, 1.0], "opponent_rate": None if o is None else o.rate,
            "fair_share": fair, "share_multiple": r.rate / (fair or 1.0) if r else 0.0,
            "seconds": s.seconds, "decisions": len(cpu), "cpu_mean": sum(cpu) / max(1, len(cpu)),
            "cpu_max": max(cpu, default=0.0), "playouts_mean": sum(playouts) / max(1, len(playouts)),
            "rounds_by_role": by_role(results, me), "load": os.getloadavg()}


def main(argv: Sequence[str] | None = None) -> int:
    """Play the matches and print a JSON line per budget, or add up earlier lines (``--sum``)."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--budgets", default="250ms-cpu", help="pimc budgets, comma-separated (250ms-cpu, 900ms-cpu), or heuristic")
    ap.add_argument("--seats", type=int, default=3)
    ap.add_argument("--games", type=int, default=3, help="matches per budget (3: one seat rotation at 3 seats)")
    ap.add_argument("--seed", type=int, default=1, help="the corpus seed")
    ap.add_argument("--plain", action="store_true", help="the control: the search's own sampled worlds, no oracle")
    ap.add_argument("--told", action="store_true", help="the heuristic bot told every role and goal, not the search")
    ap.add_argument("--team", action="store_true",
                    help="every seat plays the search while a digger and the heuristic bot while a saboteur")
    ap.add_argument("--rounds", type=int, default=None, help="end each match after this many rounds")
    ap.add_argument("--gold", action="store_true",
                    help="the search (not an oracle) is told where the gold lies, and sees nothing else hidden")
    ap.add_argument("--first-role", choices=[r.value for r in (Role.MINER, Role.SABOTEUR)], default=None,
                    help="play only the matches whose first deal gives the search seat this role")
    ap.add_argument("--sum", nargs="+", metavar="LOG", help="add up the JSON lines of earlier runs and print the totals")
    ap.add_argument("--fair", nargs="+", metavar="LOG",
                    help="--sum: runs of --budgets heuristic, whose rates by role are each role's fair rate")
    args = ap.parse_args(argv)
    if args.sum:
        return search_bots.main(["--sum", *args.sum, *(["--fair", *args.fair] if args.fair else [])])
    for budget in ["told"] if args.told else args.budgets.split(","):
        first = None if args.first_role is None else Role(args.first_role)
        row = run(budget, args.seats, args.games, args.seed, not args.plain, args.team, args.rounds, args.gold, first)
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
