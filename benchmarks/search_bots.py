"""How strong the search bots are: their win rates against other bots at several budgets, with 95 % Wilson intervals.

For one game (any that samples worlds from a view), each budget of the
search bot (``--bot``: ``ismcts:N``, or ``pimc:N``, the rollout search) plays ``--games`` matches against each opponent (the game's
``heuristic`` bot where it has one, and ``random``), one search bot and the
opponent in every other seat, the seats rotated so that the search bot sits
in each seat equally often. A shared win counts for every winner, so the
"fair share", what every seat would win if all bots were equal, is the
mean number of winners of a match over the seat count. The same
corpus seed gives the same matches: the figures are reproducible, byte for
byte, on any machine (an iteration budget, not a time budget). One JSON line
per figure, then a Markdown table::

    python benchmarks/search_bots.py --game liars-dice --seats 2 --budgets 25,100,400 --games 200
    python benchmarks/search_bots.py --game saboteur --seats 4 --budgets 50,200 --games 100 --workers 2
    python benchmarks/search_bots.py --game kings --bot pimc --budgets 96 --games 100 --workers 2 --time-decisions 40
    python benchmarks/search_bots.py --game gophers --bot pimc --budgets 1s-cpu --games 40 --opponents heuristic

A budget ``1s-cpu`` is a second of the searching thread's CPU time per
decision, the same work however busy the machine is (``1s`` is a second of
wall-clock time, which other processes eat into).

``--sum LOG ...`` adds up the JSON lines of earlier runs (one per figure,
as this script prints them) by game, bot and opponent, and prints the
totals with their Wilson intervals: a corpus run in short chunks of
different seeds, so that a busy machine still leaves finished figures::

    for seed in $(seq 1 20); do python benchmarks/search_bots.py --game kings --bot pimc --budgets 250ms-cpu \
        --opponents heuristic --games 2 --seed $seed >> kings.log; done
    python benchmarks/search_bots.py --sum kings.log

For Saboteur, ``--sum`` also prints the rounds won by role, beside the
opponents' rate in the same role in the same matches. That rate is moved
by the search bot itself (its partners share its wins as a digger, and the
opponents' saboteurs meet it as a digger), so ``--fair LOG ...`` adds the
fair rate of each role: the rate of every seat of matches where no seat
plays better (logs of ``saboteur_ceiling.py --budgets heuristic``, all of
whose seats are the heuristic bot), and the search bot's multiple of it,
with a 95 % Katz interval of the ratio of the two rates::

    python benchmarks/search_bots.py --sum saboteur.log --fair heuristic.log

``--gains N`` asks where the rollout search could beat its policy at all:
at N positions of the opponent's matches against itself it plays
``--rounds`` paired rounds of all of ``pimc``'s candidates, then replays
its decision on the first K rounds of each (K of ``--decide``) and scores
the move it would play on the rounds it did not see (held out, so that the
noise that chose a move does not also grade it). It prints, per kind of
command, how often another candidate beat the policy's by more than two
standard errors over all the rounds, and for each K how often the search
overrode the policy and what the overrides gained on the held-out rounds::

    python benchmarks/search_bots.py --game gophers --gains 40 --rounds 60 --decide 10,20,30

``--widths 2,4`` replays each decision among the policy's first two, then
first four candidates, on the same playouts (a narrower search sees more
rounds of fewer candidates)::

    python benchmarks/search_bots.py --game gophers --gains 120 --rounds 60 --decide 8,12 --widths 2,4

``--time-decisions N`` first times the bot's decisions (CPU and wall-clock
seconds, mean and largest, with the load average, and the playouts a
decision ran) at N positions taken from
matches of the opponent against itself, so that a budget in playouts can be
set against a budget in seconds. For Saboteur, each round's result is also
split by the role the search bot held (a round's team win), beside the
opponents' rate in the same role.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "examples"))

import liars_dice  # noqa: E402, F401  (registers "liars-dice")
from meeple.batch import MatchResult, Plan, Rate, chunk_size_for, local_executor, run_plan, summarize  # noqa: E402
from meeple.bots import PIMC  # noqa: E402
from meeple.catalog import bot_factory  # noqa: E402
from meeple.engine import Match, get_game  # noqa: E402


def time_decisions(game_id: str, seats: int, options: dict[str, int], spec: str, opponent: str, n: int,
                   seed: int) -> dict[str, Any]:
    """CPU (the deciding thread's) and wall-clock seconds of ``spec``'s decisions at ``n`` positions of ``opponent`` playing itself.

    Also the playouts (or iterations) each decision ran, where the bot says.
    """
    game = get_game(game_id)
    bot = bot_factory(game, spec)(seed)
    cpu: list[float] = []
    wall: list[float] = []
    runs: list[int] = []
    k = 0
    while len(cpu) < n:
        m = Match.start(game_id, seats, seed=seed + k, options=options)
        others = [bot_factory(game, opponent)(seed + k + s) for s in range(seats)]
        ply = 0
        while not m.is_over and len(cpu) < n:
            seat = m.to_act[0]
            legal, view = m.legal(seat), m.view(seat)
            if len(legal) > 1 and ply % 7 == k % 7:
                c0, w0 = time.thread_time(), time.perf_counter()
                bot.choose(view, legal, seat)
                cpu.append(time.thread_time() - c0)
                wall.append(time.perf_counter() - w0)
                runs.append(getattr(bot, "last_iterations", 0))
            m.play(seat, others[seat].choose(view, legal, seat))
            ply += 1
        k += 1
    return {"game": game_id, "bot": spec, "decisions": n, "cpu_mean": sum(cpu) / n, "cpu_max": max(cpu),
            "wall_mean": sum(wall) / n, "wall_max": max(wall), "playouts_mean": sum(runs) / n,
            "playouts_min": min(runs), "load": os.getloadavg()}


def by_role(results: Sequence[MatchResult], me: str) -> dict[str, dict[str, Any]]:
    """Saboteur: rounds won by the search bot and by the other seats, by the role each held in the round."""
    tally: dict[str, list[int]] = {}
    for r in results:
        if r.log is None:
            continue
        m = Match.from_bytes(r.log)
        for event in m.events_for(None):
            if type(event).__name__ != "RoundEnded":
                continue
            for seat, role in enumerate(event.roles):
                key = f"{'bot' if r.bots[seat] == me else 'others'}:{role.value}"
                won, n = tally.get(key, [0, 0])
                tally[key] = [won + (seat in event.winners), n + 1]
    out = {}
    for key, (won, n) in sorted(tally.items()):
        rate = Rate.of(won, n)
        out[key] = {"rounds": n, "won": won, "rate": rate.rate, "ci95": [rate.low, rate.high]}
    return out


def gains(game_id: str, seats: int, options: dict[str, int], opponent: str, n: int, rounds: int,
          decide: Sequence[int], seed: int, widths: Sequence[int] = (4,), horizon: bool = True) -> dict[str, Any]:
    """Where ``pimc``'s candidates beat its policy's choice, and what its overrides gain, at ``n`` positions.

    Each width ``w`` of ``widths`` replays the decision among the policy's
    first ``w`` candidates on as many playouts as ``K`` rounds of four
    (``4 K / w`` rounds, K of ``decide``), so that widths are compared at
    one budget. ``horizon`` False plays every playout to the match's end
    (``PIMC(horizon=False)``). Also: how often a round's candidates did not
    all score the same (``rounds_that_differ``), and the mean standard
    error of the paired differences to the policy's choice.
    """
    game = get_game(game_id)
    tables: list[tuple[str, list[list[float]]]] = []
    k = 0
    while len(tables) < n:
        m = Match.start(game_id, seats, seed=seed + k, options=options)
        others = [bot_factory(game, opponent)(seed + k + s) for s in range(seats)]
        ply = 0
        while not m.is_over and len(tables) < n:
            seat = m.to_act[0]
            legal, view = m.legal(seat), m.view(seat)
            if len(legal) > 1 and ply % 11 == k % 11:
                bot = PIMC(game, seed=seed * 100_003 + len(tables), iterations=4 * rounds, horizon=horizon)
                candidates, table = bot.rounds(view, legal, seat)
                if len(table[0]) > 1:
                    tables.append((type(candidates[0]).__name__, table))
            m.play(seat, others[seat].choose(view, legal, seat))
            ply += 1
        k += 1
    judge = PIMC(game, iterations=1, confidence=2.0)
    kinds: dict[str, list[int]] = {}
    for kind, table in tables:
        better, total = kinds.get(kind, [0, 0])
        kinds[kind] = [better + (judge.pick(table) != 0), total + 1]
    rows = []
    bot = PIMC(game, iterations=1)
    for width in widths:
        for playouts in decide:
            first = max(2, playouts * 4 // width)
            over, gain = 0, 0.0
            for _, table in tables:
                held = table[first:]
                choice = bot.pick([r[:width] for r in table[:first]]) if held else 0
                if choice:
                    over += 1
                    gain += sum(r[choice] - r[0] for r in held) / len(held)
            rows.append({**({"width": width} if widths != (4,) else {}), "rounds_seen": first, "overrides": over,
                         "held_out_gain": gain, "gain_per_override": gain / over if over else 0.0})
    differ = sum(len(set(r)) > 1 for _, t in tables for r in t) / sum(len(t) for _, t in tables)
    errors = [_paired_error(t, i) for _, t in tables for i in range(1, len(t[0]))]
    return {"game": game_id, "positions": n, "rounds": rounds, "horizon": horizon,
            "rounds_that_differ": differ, "paired_se_mean": sum(errors) / len(errors),
            "better_by_2se_over_all_rounds": kinds,
            "decisions": rows, "load": os.getloadavg()}


def _paired_error(table: Sequence[Sequence[float]], i: int) -> float:
    """The standard error of the mean paired difference of candidate ``i`` to the first, over ``table``'s rounds."""
    diffs = [r[i] - r[0] for r in table if len(r) > i]
    n = len(diffs)
    if n < 2:
        return 0.0
    mean = sum(diffs) / n
    return (sum((d - mean) ** 2 for d in diffs) / (n - 1) / n) ** 0.5


def fair_rates(paths: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Each role's rounds won and played over every seat of the runs in ``paths`` (matches where all seats are one bot).

    In such matches no seat plays better than another, so a role's rate over
    all its seats is what a seat wins in that role when it plays no better
    than the rest: the role's fair rate.
    """
    out: dict[str, tuple[int, int]] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if not line.startswith("{"):
                continue
            for key, r in json.loads(line).get("rounds_by_role", {}).items():
                role = key.partition(":")[2]
                won, n = out.get(role, (0, 0))
                out[role] = (won + r["won"], n + r["rounds"])
    return out


def _ratio_interval(won: int, n: int, base_won: int, base_n: int) -> tuple[float, float, float]:
    """``won/n`` over ``base_won/base_n``, and its 95 % Katz (log) interval: both rates are counted, neither is exact.

    A count of all wins or none has no spread on the log scale (the Katz
    interval would shrink to the other rate's alone), so there the interval
    is the quotient of the two rates' Wilson intervals: wider than 95 %,
    never narrower.
    """
    if not (n and base_won):
        return 0.0, 0.0, 0.0
    ratio = (won / n) / (base_won / base_n)
    if won in (0, n) or base_won == base_n:
        mine, base = Rate.of(won, n), Rate.of(base_won, base_n)
        return ratio, mine.low / base.high, mine.high / base.low
    half = 1.96 * math.sqrt(1 / won - 1 / n + 1 / base_won - 1 / base_n)
    return ratio, ratio * math.exp(-half), ratio * math.exp(half)


def add_up(paths: Sequence[str], fair_roles: dict[str, tuple[int, int]] | None = None) -> list[dict[str, Any]]:
    """The figures of several runs' JSON lines added up by (game, seats, bot, opponent), with Wilson intervals.

    ``fair_roles`` (from :func:`fair_rates`) adds, to each of the search bot's
    roles, the role's fair rate and the bot's multiple of it.
    """
    totals: dict[tuple[str, int, str, str], dict[str, Any]] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if not line.startswith("{"):
                continue
            row = json.loads(line)
            if "wins" not in row:  # a timing line
                continue
            key = (row["game"], row["seats"], row["bot"], row["opponent"])
            t = totals.setdefault(key, {"wins": 0, "n": 0, "other_wins": 0.0, "other_n": 0, "winners": 0.0,
                                        "finished": 0, "matches": 0, "runs": 0, "loads": [], "roles": {}})
            t["wins"] += row["wins"]
            t["n"] += row["seats_held"]
            other_n = row["finished"] * (row["seats"] - 1)
            t["other_wins"] += (row["opponent_rate"] or 0.0) * other_n  # None: no opponent (a team run)
            t["other_n"] += other_n
            t["winners"] += row["fair_share"] * row["finished"] * row["seats"]
            t["finished"] += row["finished"]
            t["matches"] += row["matches"]
            t["runs"] += 1
            t["loads"].append(row["load"][0])
            for role, r in row.get("rounds_by_role", {}).items():
                won, n = t["roles"].get(role, (0, 0))
                t["roles"][role] = (won + r["won"], n + r["rounds"])
    out = []
    for (game, seats, bot, other), t in sorted(totals.items()):
        rate = Rate.of(t["wins"], t["n"])
        fair = t["winners"] / max(1, t["finished"] * seats)
        roles = {}
        for role, (won, n) in sorted(t["roles"].items()):
            r = Rate.of(won, n)
            roles[role] = {"rounds": n, "won": won, "rate": r.rate, "ci95": [r.low, r.high]}
        for role, r in roles.items():
            side, _, name = role.partition(":")
            theirs = roles.get(f"others:{name}", {}).get("rate", 0.0)
            if side == "bot" and theirs:  # what the opponents won in the role, in the same matches
                r["fair_share"] = theirs
                r["share_multiple"] = r["rate"] / theirs
                r["share_multiple_ci95"] = [r["ci95"][0] / theirs, r["ci95"][1] / theirs]
            if side == "bot" and fair_roles and fair_roles.get(name, (0, 0))[0]:
                base_won, base_n = fair_roles[name]
                ratio, low, high = _ratio_interval(r["won"], r["rounds"], base_won, base_n)
                r["fair_rate"] = base_won / base_n
                r["fair_rounds"] = [base_won, base_n]
                r["fair_multiple"] = ratio
                r["fair_multiple_ci95"] = [low, high]
        out.append({"game": game, "seats": seats, "bot": bot, "opponent": other, "matches": t["matches"],
                    "finished": t["finished"], "runs": t["runs"], "wins": t["wins"], "seats_held": t["n"],
                    "rate": rate.rate, "ci95": [rate.low, rate.high],
                    "opponent_rate": t["other_wins"] / max(1, t["other_n"]), "fair_share": fair,
                    "share_multiple": rate.rate / fair if fair else 0.0,
                    "share_multiple_ci95": [rate.low / fair, rate.high / fair] if fair else [0.0, 0.0],
                    "load": [min(t["loads"]), max(t["loads"])], **({"rounds_by_role": roles} if roles else {})})
    return out


def role_table(rows: Sequence[dict[str, Any]]) -> None:
    """Print the rounds won by role (Saboteur), the search bot's beside the opponents' in the same role, as a Markdown table.

    The opponents' rate in the same matches is moved by the search bot's
    own play: at three seats its partners as a digger win when it does (so
    that multiple cannot pass about 1.4 however well it digs), and the
    opponents' saboteurs meet it as a digger. Where the rows have them
    (``--fair``), the role's fair rate and the bot's multiple of it follow:
    what every seat wins in that role when no seat plays better.
    """
    fair = any("fair_multiple" in r for row in rows for r in row.get("rounds_by_role", {}).values())
    print("| game | bot | role | search bot rounds won | 95 % interval | opponents' rounds won | x their rate "
          "| 95 % interval of the multiple |" + (" fair rate | x the fair rate (95 % interval) |" if fair else ""))
    print("|---|---|---|---:|---|---:|---:|---|" + ("---:|---|" if fair else ""))
    for row in rows:
        roles = row.get("rounds_by_role", {})
        for key, r in roles.items():
            side, _, name = key.partition(":")
            other = roles.get(f"others:{name}")
            if side != "bot" or (other is not None and "share_multiple" not in r and "fair_multiple" not in r):
                continue  # a role the others held but never won, with no fair rate to set it against
            low, high = r["ci95"]
            line = (f"| {row['game']}, {row['seats']} seats | `{row['bot']}` | {name} | {r['won']}/{r['rounds']} = "
                    f"{100 * r['rate']:.1f} % | [{100 * low:.1f} %, {100 * high:.1f} %] | ")
            if other is not None and "share_multiple" in r:
                m_low, m_high = r["share_multiple_ci95"]
                line += (f"{other['won']}/{other['rounds']} = {100 * other['rate']:.1f} % | {r['share_multiple']:.2f}x | "
                         f"[{m_low:.2f}x, {m_high:.2f}x] |")
            else:  # no other bot held the role (every seat played the bot, in a team run)
                line += "– | – | – |"
            if fair:
                if "fair_multiple" in r:
                    f_won, f_n = r["fair_rounds"]
                    f_low, f_high = r["fair_multiple_ci95"]
                    line += (f" {f_won}/{f_n} = {100 * r['fair_rate']:.1f} % | {r['fair_multiple']:.2f}x "
                             f"[{f_low:.2f}x, {f_high:.2f}x] |")
                else:
                    line += " | |"
            print(line)


def table(rows: Sequence[dict[str, Any]]) -> None:
    """Print the figures as a Markdown table."""
    print("| game | bot | opponent | matches | search bot wins | 95 % interval | opponent wins (per seat) | fair share "
          "| x fair share | load |")
    print("|---|---|---|---:|---:|---|---:|---:|---:|---:|")
    for r in rows:
        if not r["finished"]:
            continue  # runs that stop after some rounds (``saboteur_ceiling.py --rounds``) finish no match
        low, high = r["ci95"]
        load = r["load"]
        loads = f"{load[0]:.1f}" if len(load) == 3 else f"{load[0]:.1f}-{load[1]:.1f}"
        print(f"| {r['game']}, {r['seats']} seats | `{r['bot']}` | `{r['opponent']}` | {r['matches']} | "
              f"{r['wins']}/{r['seats_held']} = "
              f"{100 * r['rate']:.1f} % | [{100 * low:.1f} %, {100 * high:.1f} %] | {100 * r['opponent_rate']:.1f} % | "
              f"{100 * r['fair_share']:.1f} % | {r['share_multiple']:.2f}x | {loads} |")


def main(argv: list[str] | None = None) -> int:
    """Measure and print every figure."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--game", default="liars-dice")
    ap.add_argument("--seats", type=int, help="default: the game's fewest")
    ap.add_argument("--bot", default="ismcts", choices=("ismcts", "pimc"), help="the search bot")
    ap.add_argument("--budgets", default="25,100,400",
                    help="iterations (or playouts) per decision, or times (1s, 500ms), comma-separated")
    ap.add_argument("--time-decisions", type=int, default=0, metavar="N",
                    help="first time the bot's decisions at N positions of the opponent's own matches")
    ap.add_argument("--games", type=int, default=200, help="matches per figure (0: only time the decisions)")
    ap.add_argument("--opponents", help="comma-separated bot names (default: heuristic where there is one, random)")
    ap.add_argument("--rollout", help="a bot of the game to play the rollouts (default: random play for ismcts, "
                                      "the heuristic for pimc)")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option (an integer)")
    ap.add_argument("--seed", type=int, default=1, help="the corpus seed")
    ap.add_argument("--workers", type=int, default=1, help="local processes")
    ap.add_argument("--gains", type=int, default=0, metavar="N",
                    help="at N positions, where pimc's candidates beat its policy, and what its overrides gain")
    ap.add_argument("--rounds", type=int, default=60, help="--gains: paired rounds per position")
    ap.add_argument("--decide", default="10,20,30", help="--gains: the rounds the decision sees, comma-separated")
    ap.add_argument("--widths", default="4", help="--gains: the candidates a decision searches, comma-separated "
                    "(a narrower one sees more rounds: as many playouts as --decide rounds of four)")
    ap.add_argument("--whole-match", action="store_true",
                    help="--gains: play every playout to the match's end (no horizon at the game's breaks in play)")
    ap.add_argument("--sum", nargs="+", metavar="LOG", help="add up the JSON lines of earlier runs and print the totals")
    ap.add_argument("--fair", nargs="+", metavar="LOG",
                    help="--sum: runs where every seat is one bot (saboteur_ceiling.py --budgets heuristic), "
                         "whose rates by role are each role's fair rate")
    args = ap.parse_args(argv)
    if args.fair and not args.sum:
        ap.error("--fair goes with --sum")
    if args.sum:
        totals = add_up(args.sum, fair_rates(args.fair) if args.fair else None)
        for row in totals:
            print(json.dumps(row))
        print()
        table(totals)
        if any("rounds_by_role" in row for row in totals):
            print()
            role_table(totals)
        return 0
    if args.gains:
        game = get_game(args.game)
        options = {k: int(v) for k, v in (o.split("=", 1) for o in args.option)}
        print(json.dumps(gains(game.info.id, args.seats or game.info.min_seats, options,
                               args.opponents or "heuristic", args.gains, args.rounds,
                               [int(x) for x in args.decide.split(",")], args.seed,
                               tuple(int(x) for x in args.widths.split(",")), not args.whole_match)))
        return 0
    game = get_game(args.game)
    seats = args.seats or game.info.min_seats
    options = {k: int(v) for k, v in (o.split("=", 1) for o in args.option)}
    opponents = args.opponents.split(",") if args.opponents else [
        *(["heuristic"] if "heuristic" in game.bots() else []), "random"]
    rows = []
    pool = local_executor(args.workers)
    try:
        for budget in args.budgets.split(","):
            me = f"{args.bot}:{budget}" + (f":{args.rollout}" if args.rollout else "")
            for other in opponents:
                if other == me:
                    continue  # one name for both sides: their rates could not be told apart
                if args.time_decisions:
                    print(json.dumps(time_decisions(game.info.id, seats, options, me, other, args.time_decisions,
                                                    args.seed)), flush=True)
                if args.games < 1:
                    continue  # --games 0: the decisions' times alone
                plan = Plan(game=game.info.id, seats=seats, bots=(me, *[other] * (seats - 1)), games=args.games,
                            seed=args.seed, options=options, rotate=True)
                t = time.perf_counter()
                results = list(run_plan(plan, pool, chunk_size=chunk_size_for(plan.games, args.workers) if pool else None,
                                        window=4 * args.workers, keep_logs=game.info.id == "saboteur"))
                s = summarize(results, plan, time.perf_counter() - t)
                r, o = s.bot_rates[me], s.bot_rates[other]
                row = {"game": game.info.id, "seats": seats, "options": options, "bot": me, "opponent": other,
                       "matches": s.matches, "finished": s.finished, "wins": r.wins, "seats_held": r.n,
                       "rate": r.rate, "ci95": [r.low, r.high], "opponent_rate": o.rate,
                       "fair_share": sum(len(x.winners or ()) for x in results) / max(1, s.finished * seats),
                       "share_multiple": r.rate / (sum(len(x.winners or ()) for x in results)
                                                   / max(1, s.finished * seats) or 1.0),
                       "seconds": s.seconds, "load": os.getloadavg()}
                if game.info.id == "saboteur":
                    row["rounds_by_role"] = by_role(results, me)
                print(json.dumps(row), flush=True)
                rows.append(row)
    finally:
        if pool is not None:
            pool.shutdown()
    if rows:
        print()
        table(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
