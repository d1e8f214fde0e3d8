"""Batch runs on a Dask cluster: wall-clock rate and CPU time per match, here, on a local pool and on Dask.

For each game, one plan of heuristic-bot matches (Saboteur at 4 seats, the
others at their smallest), and one of Liar's Dice (3 seats, two dice each)
where the search bot ``ismcts:100`` plays two random bots. Each plan is run
on four sides, back to back in one process:

* ``here``: :func:`meeple.batch.run_plan` in this process;
* ``pool_2``: on a local process pool of two;
* ``dask_1`` and ``dask_2``: on a ``distributed.LocalCluster`` of one and of
  two worker processes (one thread each) on loopback, connected to through
  :func:`meeple.batch.dask_executor`, as ``--scheduler`` does.

Every side ships the same chunks (``--chunk`` matches each, by default
:data:`meeple.batch.DASK_CHUNK`, what ``--scheduler`` sends; ``here`` plays
them one after another), so the sides differ only in where the matches run.
Pools and clusters are started, and every worker warmed up (imports, the
games' tables), before any sample. Each sample records the wall-clock time,
the CPU time of every process of its side (this process, which holds a
``LocalCluster``'s scheduler and nannies, and the pool's or the cluster's
worker processes, read before and after), and the
load average before and after. Samples of the four sides are interleaved,
each repeat starting with another side, and every sample is printed (one
JSON line each) and kept; the summary gives, per side, the spread (mean ±
standard deviation, [min, max]) of matches per second and of CPU
milliseconds per match, and the CPU overhead per match against ``here``
(mean CPU per match on the side minus mean CPU per match here). Every run's
logs must be byte-identical. Last, the CPU the idle clusters burn: their
CPU time over ``--idle`` seconds of doing nothing. The clusters start with
:data:`meeple.batch.QUIET_DASK` (no statistical profiler, slower health
checks and monitors); ``--stock`` starts them with Dask's own settings, and
``--stock --no-profile`` with only the profiler off, to see what each costs::

    python benchmarks/dask_runs.py --games 48 --repeats 5 --only kings,mordred,liars-dice --idle 10
    python benchmarks/dask_runs.py --games 48 --repeats 5 --only kings,mordred,liars-dice --idle 10 --stock
    python benchmarks/dask_runs.py --games 16 --repeats 2 --only kings         # a quick look
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "examples"))

import liars_dice  # noqa: E402, F401  (registers "liars-dice" here; the Dask workers preload it)
from meeple.batch import DASK_CHUNK, QUIET_DASK, Plan, Spread, dask_executor, local_executor, run_plan  # noqa: E402

#: game -> (seats, bots, options)
GAMES: dict[str, tuple[int, tuple[str, ...], dict[str, int]]] = {
    "saboteur": (4, ("heuristic",), {}),
    "kings": (2, ("heuristic",), {}),
    "gophers": (2, ("heuristic",), {}),
    "mordred": (3, ("heuristic",), {}),
    "liars-dice": (3, ("ismcts:100", "random", "random"), {"dice": 2}),
}


def _cpu_of(pids: list[int]) -> float:
    import psutil

    total = 0.0
    for pid in pids:
        t = psutil.Process(pid).cpu_times()
        total += t.user + t.system
    return total


class Side:
    """Where a plan runs, and how to read the CPU time of every process it uses."""

    def __init__(self, name: str, executor: Any, cluster: Any = None) -> None:
        self.name = name
        self.executor = executor
        self.cluster = cluster

    def cpu(self) -> float:
        """CPU seconds so far of this process and of every process of the side."""
        me = time.process_time()
        if self.executor is None:
            return me
        if self.cluster is None:  # a process pool
            return me + _cpu_of(list(self.executor._processes))
        client = self.executor.client
        # a LocalCluster's scheduler and nannies run in this process: each process counted once
        pids = {*client.run(os.getpid).values(), client.run_on_scheduler(os.getpid)} - {os.getpid()}
        return me + _cpu_of(sorted(pids))


def sample(side: Side, plan: Plan, chunk: int, workers: int) -> tuple[dict[str, Any], dict[int, bytes | None]]:
    """One run of ``plan`` on ``side``: the sample's figures, and the logs by index."""
    load0 = os.getloadavg()[0]
    cpu0 = side.cpu()
    t = time.perf_counter()
    logs = {r.index: r.log for r in run_plan(plan, side.executor, keep_logs=True, chunk_size=chunk,
                                             window=4 * workers)}
    wall = time.perf_counter() - t
    cpu = side.cpu() - cpu0
    return {"side": side.name, "game": plan.game, "matches": plan.games, "chunk": chunk, "wall_s": wall,
            "matches_per_s": plan.games / wall, "cpu_s": cpu, "cpu_ms_per_match": 1000 * cpu / plan.games,
            "load_before": load0, "load_after": os.getloadavg()[0]}, logs


def main(argv: list[str] | None = None) -> int:
    """Measure, print every sample, then the summary."""
    import logging

    import distributed

    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=64, help="matches per sample")
    ap.add_argument("--repeats", type=int, default=5, help="samples of each side, interleaved")
    ap.add_argument("--chunk", type=int, default=DASK_CHUNK, help="matches per chunk, the same on every side")
    ap.add_argument("--idle", type=float, default=10.0, help="seconds of idle clusters to measure")
    ap.add_argument("--stock", action="store_true",
                    help="start the clusters with Dask's own settings, not meeple.batch.QUIET_DASK")
    ap.add_argument("--no-profile", action="store_true",
                    help="with --stock: the Dask workers' statistical profiler off "
                         "(distributed.worker.profile.enabled: False)")
    ap.add_argument("--only", help="comma-separated game ids (default: the four bundled games and liars-dice)")
    args = ap.parse_args(argv)
    games = {g: GAMES[g] for g in args.only.split(",")} if args.only else GAMES
    import dask

    if not args.stock:
        dask.config.set(QUIET_DASK)  # the nannies pass it to their workers
    elif args.no_profile:
        dask.config.set({"distributed.worker.profile.enabled": False})
    t = time.perf_counter()
    pool = local_executor(2)
    kw = {"threads_per_worker": 1, "processes": True, "host": "127.0.0.1", "dashboard_address": "127.0.0.1:0",
          "preload": ["liars_dice"], "silence_logs": logging.ERROR}
    c1 = distributed.LocalCluster(n_workers=1, **kw)
    c2 = distributed.LocalCluster(n_workers=2, **kw)
    d1, d2 = dask_executor(c1.scheduler_address), dask_executor(c2.scheduler_address)
    sides = [(Side("here", None), 1), (Side("pool_2", pool), 2), (Side("dask_1", d1, c1), 1),
             (Side("dask_2", d2, c2), 2)]
    print(json.dumps({"start_up_seconds": time.perf_counter() - t, "cpus": os.cpu_count(),
                      "dask_config": "stock" if args.stock else "meeple.batch.QUIET_DASK",
                      "profile": args.stock and not args.no_profile, "load": os.getloadavg()}), flush=True)
    samples: list[dict[str, Any]] = []
    try:
        for side, n in sides[1:]:  # warm every worker up before any sample
            for game, (seats, bots, options) in games.items():
                sample(side, Plan(game=game, seats=seats, bots=bots, options=options, games=4 * n, seed=0), 1, n)
        for game, (seats, bots, options) in games.items():
            plan = Plan(game=game, seats=seats, bots=bots, options=options, games=args.games, seed=1)
            logs = None
            for r in range(args.repeats):
                for side, n in sides[r % len(sides):] + sides[: r % len(sides)]:
                    figures, got = sample(side, plan, args.chunk, n)
                    logs = got if logs is None else logs
                    assert got == logs, f"{game}: the logs on {side.name} differ from the others"
                    figures["repeat"] = r
                    print(json.dumps(figures), flush=True)
                    samples.append(figures)
        idle = []
        for side, _ in sides[2:]:
            before, t0 = side.cpu() - time.process_time(), time.perf_counter()
            time.sleep(args.idle)
            after, t1 = side.cpu() - time.process_time(), time.perf_counter()
            idle.append({"idle": side.name, "cpu_s_per_s": (after - before) / (t1 - t0), "seconds": t1 - t0})
            print(json.dumps(idle[-1]), flush=True)
    finally:
        for ex in (d1, d2):
            ex.shutdown()
        c1.close()
        c2.close()
        assert pool is not None
        pool.shutdown()
    print()
    print("| game | side | samples | matches/s: mean ± sd [min, max] | CPU ms/match: mean ± sd [min, max] "
          "| CPU overhead ms/match vs here | load (min-max) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for game in games:
        base = statistics.fmean(s["cpu_ms_per_match"] for s in samples if s["game"] == game and s["side"] == "here")
        for side, _ in sides:
            mine = [s for s in samples if s["game"] == game and s["side"] == side.name]
            rate = Spread.of([s["matches_per_s"] for s in mine])
            cpu = Spread.of([s["cpu_ms_per_match"] for s in mine])
            loads = [x for s in mine for x in (s["load_before"], s["load_after"])]
            print(f"| {game} | {side.name} | {len(mine)} | {rate.mean:.1f} ± {rate.stdev:.1f} "
                  f"[{rate.min:.1f}, {rate.max:.1f}] | {cpu.mean:.1f} ± {cpu.stdev:.1f} [{cpu.min:.1f}, {cpu.max:.1f}] "
                  f"| {cpu.mean - base:+.1f} | {min(loads):.1f}-{max(loads):.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
