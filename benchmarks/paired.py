"""Time the games' playouts and bot matches before and after a change, in interleaved pairs.

    python benchmarks/paired.py --base COMMIT
    python benchmarks/paired.py --base COMMIT --work playout:saboteur:3 --work heuristic:gophers:2:simplified
    python benchmarks/paired.py --base-src /elsewhere/src --pairs 41 --chunk 0.5

:mod:`compare` runs the whole suite on one side, then on the other: a figure
of the two sides is measured minutes apart, and on a shared machine the load
can change by half in that time. Here two worker processes stay up, one
importing the base's meeple and one this checkout's, and time the same
workload in turn, a fraction of a second each: one pair is a chunk on each
side, in alternating order (ABBA), and a pair's ratio is after/before of its
two rates. The figure is the median of the pairs' ratios, printed with their
quartiles, so a burst of load moves a few pairs, not the figure.

A workload is ``KIND:GAME:SEATS[:VARIANT]``:

* ``playout``: random playouts, as ``run.py`` times them (``Match.start``,
  ``legal``, a random pick, ``Match.play``): records per second;
* ``heuristic``: whole matches with the game's heuristic bot in every seat,
  each seeing its view only: matches per second.

Both sides play the same seeds in the same order. Without ``--work`` the
workloads are those the performance goals name (see ``docs/performance.md``).
Every worker is warmed up with one unmeasured chunk first.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from compare import _git, checked_out

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: The workloads the performance goals name: the random playout of every game, and
#: Saboteur's and Gophers' heuristic matches at every seat count and rule set.
DEFAULT_WORK = (
    "playout:saboteur:3", "playout:gophers:2", "playout:kings:2", "playout:mordred:3",
    *(f"heuristic:saboteur:{n}" for n in range(3, 11)), "heuristic:saboteur:2:deluxe",
    *(f"heuristic:gophers:{n}" for n in range(2, 5)),
    "heuristic:gophers:2:simplified", "heuristic:gophers:2:advanced", "heuristic:gophers:2:beginner",
)


# -- the worker: one meeple, timing chunks on request ---------------------------------------------


def _workload(spec: str) -> tuple[str, Any, int, dict[str, Any]]:
    """The kind, game, seats and options of ``KIND:GAME:SEATS[:VARIANT]`` (in the worker's meeple)."""
    import meeple

    kind, gid, seats, *variant = spec.split(":")
    if kind not in ("playout", "heuristic"):
        raise SystemExit(f"paired: unknown workload kind {kind!r} in {spec!r} (playout or heuristic)")
    game = meeple.get_game(gid)
    options = game.variant_options(variant[0]) if variant else {}
    return kind, game, int(seats), options


def _playouts(game: Any, seats: int, options: dict[str, Any], seeds: range) -> int:
    """Random playouts of ``seeds``; the records they made."""
    from game_figures import random_playout

    return sum(len(random_playout(game, seats, options, seed)) for seed in seeds)


def _heuristic(game: Any, seats: int, options: dict[str, Any], seeds: range) -> int:
    """Heuristic-bot matches of ``seeds``; how many."""
    from game_figures import bot_factories, play_match

    factory = bot_factories(game)["heuristic"]
    for seed in seeds:
        play_match(game, seats, options, seed, factory)
    return len(seeds)


def worker(src: str) -> int:
    """Serve timing requests on stdin (JSON lines), measuring the meeple in ``src``."""
    sys.path[:0] = [src, str(HERE)]
    import meeple

    if Path(meeple.__file__).resolve().parents[1] != Path(src).resolve():
        raise SystemExit(f"paired: meeple was imported from {meeple.__file__}, not from {src}")
    loaded: dict[str, tuple[str, Any, int, dict[str, Any]]] = {}
    for line in sys.stdin:
        ask = json.loads(line)
        spec = ask["work"]
        if spec not in loaded:
            loaded[spec] = _workload(spec)
        kind, game, seats, options = loaded[spec]
        seeds = range(ask["first"], ask["first"] + ask["count"])
        run = _playouts if kind == "playout" else _heuristic
        start = time.perf_counter()
        done = run(game, seats, options, seeds)
        seconds = time.perf_counter() - start
        print(json.dumps({"done": done, "seconds": seconds}), flush=True)
    return 0


# -- the parent: two workers, pairs of chunks ---------------------------------------------------


class Side:
    """A worker process measuring one source tree."""

    def __init__(self, src: Path) -> None:
        env = dict(os.environ, PYTHONHASHSEED="0")
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", str(src)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT,
        )

    def time(self, work: str, first: int, count: int) -> tuple[float, int]:
        """Seconds and units (records or matches) for ``count`` seeds of ``work`` from ``first``."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"work": work, "first": first, "count": count}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"paired: a worker stopped while timing {work}")
        reply = json.loads(line)
        return reply["seconds"], reply["done"]

    def close(self) -> None:
        """Stop the worker."""
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    q = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else [values[0]] * 3
    return q[0], q[1], q[2]


def measure(before: Side, after: Side, work: str, pairs: int, chunk: float) -> dict[str, Any]:
    """The pairs of one workload: rates of each side and the median after/before ratio."""
    # the chunk's size in seeds: enough for about ``chunk`` seconds on the slower (before) side
    seconds, _ = before.time(work, 10_000, 1)
    after.time(work, 10_000, 1)  # both warm: tables filled, code specialised
    count = max(1, round(chunk / max(seconds, 1e-6)))
    ratios, rates_b, rates_a = [], [], []
    first = 0
    for p in range(pairs):
        order = (before, after) if p % 2 == 0 else (after, before)
        got = {}
        for side in order:
            got[id(side)] = side.time(work, first, count)
        first += count
        (tb, nb), (ta, na) = got[id(before)], got[id(after)]
        rb, ra = nb / tb, na / ta
        rates_b.append(rb)
        rates_a.append(ra)
        ratios.append(ra / rb)
    q1, median, q3 = _quartiles(ratios)
    return {"work": work, "pairs": pairs, "seeds_per_chunk": count, "before": statistics.median(rates_b),
            "after": statistics.median(rates_a), "ratio": median, "q1": q1, "q3": q3,
            "unit": "records/s" if work.startswith("playout") else "matches/s"}


def _rows(results: Sequence[dict[str, Any]]) -> Iterator[str]:
    yield "| workload | before | after | after / before (median of pairs) | quartiles | pairs x seeds |"
    yield "|---|---:|---:|---:|---|---:|"
    for r in results:
        yield (f"| {r['work']} | {r['before']:,.1f} {r['unit']} | {r['after']:,.1f} | {r['ratio']:.2f}× | "
               f"{r['q1']:.2f}-{r['q3']:.2f} | {r['pairs']} x {r['seeds_per_chunk']} |")


def main(argv: Sequence[str] | None = None) -> int:
    """Print the table of paired ratios (and each row as a JSON line)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", metavar="SRC", help=argparse.SUPPRESS)
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--base", metavar="COMMIT", help="the commit to compare with (checked out in a temporary worktree)")
    where.add_argument("--base-src", type=Path, metavar="DIR", help="the src directory of the meeple to compare with")
    ap.add_argument("--work", action="append", metavar="KIND:GAME:SEATS[:VARIANT]",
                    help="a workload (repeatable; default: every workload the performance goals name)")
    ap.add_argument("--pairs", type=int, default=21, help="pairs of chunks per workload (default 21)")
    ap.add_argument("--chunk", type=float, default=0.25, help="seconds of work per chunk on the base side (default 0.25)")
    args = ap.parse_args(argv)
    if args.worker is not None:
        return worker(args.worker)
    if args.base is None and args.base_src is None:
        ap.error("give --base COMMIT or --base-src DIR")
    if args.pairs < 1 or args.chunk <= 0:
        ap.error("--pairs must be at least 1 and --chunk positive")
    with contextlib.ExitStack() as stack:
        if args.base is not None:
            _sha, tree = stack.enter_context(checked_out(args.base))
            base_src = tree / "src"
        else:
            base_src = args.base_src.resolve()
        print(f"# before: {args.base or base_src}; after: this checkout, {_git('rev-parse', '--short', 'HEAD')}; "
              f"{args.pairs} pairs of ~{args.chunk} s chunks per workload, alternating order", flush=True)
        before, after = Side(base_src), Side(ROOT / "src")
        results = []
        try:
            for work in args.work or DEFAULT_WORK:
                r = measure(before, after, work, args.pairs, args.chunk)
                print(json.dumps(r), flush=True)
                results.append(r)
        finally:
            before.close()
            after.close()
    print("\n".join(_rows(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
