"""A small tournament: the heuristic bot against the random bot, on a process pool, with confidence intervals.

The same corpus, byte for byte, whatever runs it: here, then on two local
processes (any ``concurrent.futures.Executor`` works, a Dask client's
``get_executor()`` too). Run it:

    python examples/tournament.py
"""

from __future__ import annotations

import concurrent.futures as cf
import time

from meeple.batch import Plan, run_plan, summarize


def main() -> None:
    """Play 24 Kings matches each way and print the win rates."""
    plan = Plan(game="kings", seats=2, bots=("heuristic", "random"), games=24, seed=2026, rotate=True)
    t = time.perf_counter()
    here = sorted(run_plan(plan, keep_logs=True), key=lambda r: r.index)
    seconds = time.perf_counter() - t
    with cf.ProcessPoolExecutor(2) as pool:
        pooled = sorted(run_plan(plan, pool, keep_logs=True), key=lambda r: r.index)
    print(f"same logs on a pool: {[r.log for r in here] == [r.log for r in pooled]}")
    summary = summarize(here, plan, seconds)
    for name, rate in sorted(summary.bot_rates.items()):
        print(f"{name:10} won {rate.wins}/{rate.n} seats, {rate.rate:.0%} "
              f"(95% Wilson interval {rate.low:.0%}-{rate.high:.0%})")
    print(f"mean length: {summary.commands.mean:.0f} commands; ends: {dict(summary.end_reasons)}")


if __name__ == "__main__":
    main()
