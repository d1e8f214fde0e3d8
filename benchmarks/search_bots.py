"""How strong the search bot is: its win rate against other bots at several budgets, with 95 % Wilson intervals.

For one game (any that samples worlds from a view), each budget of
``ismcts:N`` plays ``--games`` matches against each opponent (the game's
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
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "examples"))

import liars_dice  # noqa: E402, F401  (registers "liars-dice")
from meeple.batch import Plan, chunk_size_for, local_executor, run_plan, summarize  # noqa: E402
from meeple.engine import get_game  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Measure and print every figure."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--game", default="liars-dice")
    ap.add_argument("--seats", type=int, help="default: the game's fewest")
    ap.add_argument("--budgets", default="25,100,400", help="iterations per decision, comma-separated")
    ap.add_argument("--games", type=int, default=200, help="matches per figure")
    ap.add_argument("--opponents", help="comma-separated bot names (default: heuristic where there is one, random)")
    ap.add_argument("--rollout", help="a bot of the game to play the rollouts (default: random play)")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option (an integer)")
    ap.add_argument("--seed", type=int, default=1, help="the corpus seed")
    ap.add_argument("--workers", type=int, default=1, help="local processes")
    args = ap.parse_args(argv)
    game = get_game(args.game)
    seats = args.seats or game.info.min_seats
    options = {k: int(v) for k, v in (o.split("=", 1) for o in args.option)}
    opponents = args.opponents.split(",") if args.opponents else [
        *(["heuristic"] if "heuristic" in game.bots() else []), "random"]
    rows = []
    pool = local_executor(args.workers)
    try:
        for budget in (int(b) for b in args.budgets.split(",")):
            me = f"ismcts:{budget}" + (f":{args.rollout}" if args.rollout else "")
            for other in opponents:
                if other == me:
                    continue  # one name for both sides: their rates could not be told apart
                plan = Plan(game=game.info.id, seats=seats, bots=(me, *[other] * (seats - 1)), games=args.games,
                            seed=args.seed, options=options, rotate=True)
                t = time.perf_counter()
                results = list(run_plan(plan, pool, chunk_size=chunk_size_for(plan.games, args.workers) if pool else None,
                                        window=4 * args.workers))
                s = summarize(results, plan, time.perf_counter() - t)
                r, o = s.bot_rates[me], s.bot_rates[other]
                row = {"game": game.info.id, "seats": seats, "options": options, "bot": me, "opponent": other,
                       "matches": s.matches, "finished": s.finished, "wins": r.wins, "seats_held": r.n,
                       "rate": r.rate, "ci95": [r.low, r.high], "opponent_rate": o.rate,
                       "fair_share": sum(len(x.winners or ()) for x in results) / max(1, s.finished * seats),
                       "seconds": s.seconds}
                print(json.dumps(row), flush=True)
                rows.append(row)
    finally:
        if pool is not None:
            pool.shutdown()
    print()
    print("| bot | opponent | matches | search bot wins | 95 % interval | opponent wins (per seat) | fair share |")
    print("|---|---|---:|---:|---|---:|---:|")
    for r in rows:
        low, high = r["ci95"]
        print(f"| `{r['bot']}` | `{r['opponent']}` | {r['matches']} | {100 * r['rate']:.1f} % | "
              f"[{100 * low:.1f} %, {100 * high:.1f} %] | {100 * r['opponent_rate']:.1f} % | "
              f"{100 * r['fair_share']:.1f} % |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
