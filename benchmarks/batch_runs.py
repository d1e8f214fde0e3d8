"""Batch runs: matches per second of ``meeple simulate GAME --games N`` on 1 and 2 workers, per game.

Measured side by side in one run, for each game, with heuristic bots at the
game's smallest seat count (Saboteur at 4):

* ``process per match``: what a script did before batch runs, one
  ``python -m meeple simulate GAME --seed I --quiet`` process per match;
* ``1 worker``: ``meeple.batch.run_plan`` in this process;
* ``2 workers``: the same plan on a local process pool of two (its start-up
  included).

Wall-clock time, since that is what a person waits for; the ratios are the
figures to read (the machine is shared). One JSON line per figure, then a
table::

    python benchmarks/batch_runs.py                 # 100 matches per game and worker count
    python benchmarks/batch_runs.py --games 20 --per-process 3
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from meeple.batch import Plan, local_executor, run_plan  # noqa: E402

GAMES = {"saboteur": 4, "kings": 2, "gophers": 2, "mordred": 3}


def per_process(game: str, seats: int, n: int) -> float:
    """Matches per second, one ``meeple simulate`` process per match."""
    t = time.perf_counter()
    for i in range(n):
        subprocess.run([sys.executable, "-m", "meeple", "simulate", game, "--players", str(seats), "--seed", str(i),
                        "--quiet"], check=True, capture_output=True, cwd=ROOT)
    return n / (time.perf_counter() - t)


def batch(game: str, seats: int, n: int, workers: int) -> float:
    """Matches per second of a plan of ``n`` matches on ``workers`` (the pool's start-up included)."""
    plan = Plan(game=game, seats=seats, bots=("heuristic",), games=n, seed=1)
    t = time.perf_counter()
    executor = local_executor(workers)
    try:
        done = sum(1 for _ in run_plan(plan, executor))
    finally:
        if executor is not None:
            executor.shutdown()
    assert done == n
    return n / (time.perf_counter() - t)


def main(argv: list[str] | None = None) -> int:
    """Measure and print every figure."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100, help="matches per game and worker count")
    ap.add_argument("--per-process", type=int, default=5, help="matches run one process each, per game")
    ap.add_argument("--only", help="comma-separated game ids (default: the four bundled games)")
    args = ap.parse_args(argv)
    games = {g: GAMES[g] for g in args.only.split(",")} if args.only else GAMES
    rows = []
    for game, seats in games.items():
        row = {"game": game, "seats": seats, "matches": args.games,
               "process_per_match": per_process(game, seats, args.per_process),
               "workers_1": batch(game, seats, args.games, 1),
               "workers_2": batch(game, seats, args.games, 2)}
        print(json.dumps(row), flush=True)
        rows.append(row)
    print()
    print("| game (seats) | process per match | 1 worker | 2 workers | 1 worker / process per match | 2 workers / 1 worker |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['game']} ({r['seats']}) | {r['process_per_match']:.1f}/s | {r['workers_1']:.1f}/s | "
              f"{r['workers_2']:.1f}/s | {r['workers_1'] / r['process_per_match']:.0f}x | "
              f"{r['workers_2'] / r['workers_1']:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
