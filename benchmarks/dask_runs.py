"""Batch runs on a Dask cluster: matches per second on 1 and 2 Dask workers and on a local pool, side by side.

For each game, one plan of heuristic-bot matches (Saboteur at 4 seats, the
others at their smallest), and one of Liar's Dice (3 seats, two dice each)
where the search bot ``ismcts:100`` plays two random bots: a corpus whose
matches cost far more than their logs, as self-play corpora do. Each is
run, back to back in one process:

* ``here``: :func:`meeple.batch.run_plan` in this process;
* ``pool 2``: on a local process pool of two;
* ``dask 1`` and ``dask 2``: on a ``distributed.LocalCluster`` of one and of
  two worker processes (one thread each) on loopback, each started before
  the figures of the run and connected to through
  :func:`meeple.batch.dask_executor`, as ``--scheduler`` does.

Wall-clock time of the plan, pools and clusters already started (their
start-up is printed apart); each figure is run ``--repeats`` times,
interleaved with the others (each repeat starting with another), and the
best is kept, since a shared machine only ever slows a run down. The logs
of every run are compared, and must be byte-identical. The figures to read
are the ratios. One JSON line per game, then a Markdown table::

    python benchmarks/dask_runs.py                      # 60 matches a figure, 3 repeats: about ten minutes
    python benchmarks/dask_runs.py --games 20 --repeats 1 --only kings,mordred
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

import liars_dice  # noqa: E402, F401  (registers "liars-dice" here; the Dask workers preload it)
from meeple.batch import Plan, chunk_size_for, dask_executor, local_executor, run_plan  # noqa: E402

#: game -> (seats, bots, options)
GAMES: dict[str, tuple[int, tuple[str, ...], dict[str, int]]] = {
    "saboteur": (4, ("heuristic",), {}),
    "kings": (2, ("heuristic",), {}),
    "gophers": (2, ("heuristic",), {}),
    "mordred": (3, ("heuristic",), {}),
    "liars-dice": (3, ("ismcts:100", "random", "random"), {"dice": 2}),
}


def timed(plan: Plan, executor: object, workers: int) -> tuple[float, dict[int, bytes | None]]:
    """Matches per second of ``plan`` on ``executor`` (None: this process), and the logs by index."""
    t = time.perf_counter()
    logs = {r.index: r.log for r in run_plan(plan, executor, keep_logs=True,  # type: ignore[arg-type]
                                             chunk_size=chunk_size_for(plan.games, workers) if executor else None,
                                             window=4 * workers)}
    return plan.games / (time.perf_counter() - t), logs


def main(argv: list[str] | None = None) -> int:
    """Measure and print every figure."""
    import logging

    import distributed

    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=60, help="matches per figure")
    ap.add_argument("--repeats", type=int, default=3, help="runs of each figure, interleaved; the best is kept")
    ap.add_argument("--only", help="comma-separated game ids (default: the four bundled games and liars-dice)")
    args = ap.parse_args(argv)
    games = {g: GAMES[g] for g in args.only.split(",")} if args.only else GAMES
    t = time.perf_counter()
    pool = local_executor(2)
    kw = {"threads_per_worker": 1, "processes": True, "host": "127.0.0.1", "dashboard_address": "127.0.0.1:0",
          "preload": ["liars_dice"], "silence_logs": logging.ERROR}
    c1 = distributed.LocalCluster(n_workers=1, **kw)
    c2 = distributed.LocalCluster(n_workers=2, **kw)
    d1, d2 = dask_executor(c1.scheduler_address), dask_executor(c2.scheduler_address)
    print(json.dumps({"start_up_seconds": time.perf_counter() - t}), flush=True)
    rows = []
    try:
        # warm every worker up (imports, the games' tables) before any figure
        for ex, n in ((pool, 2), (d1, 1), (d2, 2)):
            for game, (seats, bots, options) in games.items():
                timed(Plan(game=game, seats=seats, bots=bots, options=options, games=2 * n, seed=0), ex, n)
        runs = (("here", None, 1), ("pool_2", pool, 2), ("dask_1", d1, 1), ("dask_2", d2, 2))
        for game, (seats, bots, options) in games.items():
            plan = Plan(game=game, seats=seats, bots=bots, options=options, games=args.games, seed=1)
            figures: dict[str, float] = {}
            logs = None
            for r in range(args.repeats):
                for name, ex, n in runs[r % len(runs):] + runs[: r % len(runs)]:  # each repeat starts elsewhere
                    rate, got = timed(plan, ex, n)
                    figures[name] = max(figures.get(name, 0.0), rate)
                    logs = got if logs is None else logs
                    assert got == logs, f"{game}: the logs on {name} differ from the others"
            row = {"game": game, "seats": seats, "matches": args.games, "repeats": args.repeats, **figures,
                   "identical": True}
            print(json.dumps(row), flush=True)
            rows.append(row)
    finally:
        for ex in (d1, d2):
            ex.shutdown()
        c1.close()
        c2.close()
        assert pool is not None
        pool.shutdown()
    print()
    print("| game (seats) | here | pool of 2 | Dask, 1 worker | Dask, 2 workers | Dask 2 / Dask 1 | Dask 2 / pool of 2 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['game']} ({r['seats']}) | {r['here']:.1f}/s | {r['pool_2']:.1f}/s | {r['dask_1']:.1f}/s | "
              f"{r['dask_2']:.1f}/s | {r['dask_2'] / r['dask_1']:.2f}x | {r['dask_2'] / r['pool_2']:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
