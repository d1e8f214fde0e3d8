"""Time the codecs' walkers on a log's messages: encode, decode, the wire form; trees side by side; cattrs beside them.

    python benchmarks/codec_walk.py
    python benchmarks/codec_walk.py --src /elsewhere/src --src src --rounds 5
    python benchmarks/codec_walk.py --cattrs
    python benchmarks/codec_walk.py --src /elsewhere/src --src src --instructions 3 --matches 2

The messages are every command and event of random Saboteur (3 seats) and
Gophers (2 seats) playouts, seeds 0 to N-1. Figures, in nanoseconds per
message (the best of ``--repeat`` timings in each round, then the best
round):

* ``unstructure``: each message to its primitives (what ``cattrs_encode`` does);
* ``encode``: ``canonical`` (unstructure, then msgpack) of each message;
* ``decode``: the codec's strict builder of each message's class from its
  primitives (``Codec.hook``);
* ``load``: ``Match.from_bytes`` of each playout's log (the log reader, with its
  compiled loop where the package was built with it), per message;
* ``to_wire`` and ``from_wire``: the JSON wire form, both ways.

With ``--cattrs`` (cattrs installed), the same messages through a
``cattrs.Converter`` that unstructures attrs classes as tuples, the nearest
it has to the log's positional arrays (no tag, no sorted sets, and structuring
that converts rather than refuses: less work than the codec does): what the
codec would cost on cattrs's generated functions.

With ``--instructions N`` the figures are instructions instead, counted by
callgrind (``valgrind``) as ``benchmarks/instructions.py`` counts them: a run
doing each figure's work N times, less a run doing none, per message; the
load does not move them.

Times are the process's CPU time (``time.process_time``), not the wall clock,
so that waiting for a core on a busy machine is not counted; each tree is
timed in a fresh process, the trees taking turns round by round so that a
change of load falls on all of them; the load average is printed beside the
figures.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
import timeit
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FIGURES = ("unstructure", "encode", "decode", "load", "to_wire", "from_wire", "cattrs_encode", "cattrs_decode")


def inner(matches: int, repeat: int, with_cattrs: bool, only: str | None = None, times: int = 0) -> dict[str, float]:
    """Time the figures in this process (ns per message); with ``only``, run that figure's work ``times`` times instead.

    Every figure's work runs once first (building the walkers' generated code),
    so that a run with ``times=0`` costs what the others cost but the work.
    """
    from game_figures import random_playout

    import meeple
    from meeple.engine import Match
    from meeple.engine.codec import canonical, unstructure
    from meeple.engine.match import codec_for
    from meeple.engine.wire import to_wire, wire_for

    cases: list[tuple[Any, list[Any], list[bytes]]] = []
    for gid, seats in (("saboteur", 3), ("gophers", 2)):
        game = meeple.get_game(gid)
        messages: list[Any] = []
        logs = []
        for seed in range(matches):
            m = random_playout(game, seats, {}, seed)
            logs.append(m.to_bytes())
            for r in m.records:
                messages.append(r.command)
                messages.extend(r.events)
        cases.append((game, messages, logs))
    n = sum(len(messages) for _, messages, _ in cases)

    def best(work: Callable[[], None]) -> float:
        return min(timeit.repeat(work, number=1, repeat=repeat, timer=time.process_time)) / n * 1e9

    encoded = [(codec_for(game), [(codec_for(game).hook(type(x)), unstructure(x)) for x in messages])
               for game, messages, _ in cases]
    wired = [(wire_for(game), [(type(x), to_wire(x)) for x in messages]) for game, messages, _ in cases]
    everything = [x for _, messages, _ in cases for x in messages]
    all_logs = [data for _, _, logs in cases for data in logs]

    def unstructure_all() -> None:
        for x in everything:
            unstructure(x)

    def encode() -> None:
        for x in everything:
            canonical(x)

    def decode() -> None:
        for _, pairs in encoded:
            for build, prim in pairs:
                build(prim)

    def load() -> None:
        for data in all_logs:
            Match.from_bytes(data)

    def wire_out() -> None:
        for x in everything:
            to_wire(x)

    def wire_in() -> None:
        for wire, pairs in wired:
            for tp, data in pairs:
                wire.decode(data, tp)

    works = {"unstructure": unstructure_all, "encode": encode, "decode": decode, "load": load, "to_wire": wire_out,
             "from_wire": wire_in}
    if only is not None:
        for work in works.values():
            work()
        for _ in range(times):
            works[only]()
        return {"messages": n}
    out = {"unstructure": best(unstructure_all), "encode": best(encode), "decode": best(decode), "load": best(load), "to_wire": best(wire_out),
           "from_wire": best(wire_in)}
    if with_cattrs:
        import cattrs

        converter = cattrs.Converter(unstruct_strat=cattrs.UnstructureStrategy.AS_TUPLE)
        tuples = [(type(x), converter.unstructure(x)) for x in everything]
        if any(converter.structure(data, tp) != x for (tp, data), x in zip(tuples, everything)):
            raise SystemExit("codec_walk: cattrs does not round-trip these messages")

        def cattrs_encode() -> None:
            for x in everything:
                converter.unstructure(x)

        def cattrs_decode() -> None:
            for tp, data in tuples:
                converter.structure(data, tp)

        out["cattrs_encode"] = best(cattrs_encode)
        out["cattrs_decode"] = best(cattrs_decode)
    out["messages"] = n
    return out


_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def _instructions(src: Path, matches: int, only: str, times: int) -> tuple[int, int]:
    """Instructions (and messages) of one inner run under callgrind (as benchmarks/instructions.py counts them)."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1",
               PYTHONPATH=os.pathsep.join([str(src), str(HERE)]))
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, str(Path(__file__).resolve()),
         "--inner", "--matches", str(matches), "--only", only, "--times", str(times)],
        capture_output=True, text=True, env=env, cwd=ROOT)
    found = _COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"codec_walk: the run under callgrind failed:\n{done.stderr[-2000:]}")
    return int(found.group(1)), int(json.loads(done.stdout.strip().splitlines()[-1])["messages"])


def _count(trees: list[Path], matches: int, times: int) -> int:
    """Print the instructions per message of each figure of each tree (the run without the work subtracted)."""
    names = FIGURES[:6]
    rows = []
    for src in trees:
        idle, n = _instructions(src, matches, names[0], 0)
        rows.append([(_instructions(src, matches, name, times)[0] - idle) / (times * n) for name in names])
    print(f"instructions per message ({n} messages, each figure's work {times} times, less a run without it)")
    print(f"{'':16}" + "".join(f"{name:>14}" for name in names))
    for src, row in zip(trees, rows):
        print(f"{str(src)[-16:]:16}" + "".join(f"{v:14,.0f}" for v in row))
    if len(trees) == 2:
        print(f"{'second/first':16}" + "".join(f"{b / a:14.4f}" for a, b in zip(*rows)))
    return 0


def _run(src: Path, matches: int, repeat: int, with_cattrs: bool) -> dict[str, float]:
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=os.pathsep.join([str(src), str(HERE)]))
    args = [sys.executable, str(Path(__file__).resolve()), "--inner", "--matches", str(matches), "--repeat", str(repeat)]
    done = subprocess.run([*args, *(["--cattrs"] if with_cattrs else [])], capture_output=True, text=True, env=env,
                          cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"codec_walk: the run on {src} failed:\n{done.stderr[-2000:]}")
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures of each tree, side by side."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", type=Path, action="append", help="a src directory to time (repeatable; default: ./src)")
    ap.add_argument("--matches", type=int, default=4, help="playouts of each game (default 4)")
    ap.add_argument("--repeat", type=int, default=5, help="timings of each figure per round (default 5)")
    ap.add_argument("--rounds", type=int, default=3, help="fresh processes per tree, taking turns (default 3)")
    ap.add_argument("--cattrs", action="store_true", help="time a cattrs converter on the same messages too")
    ap.add_argument("--instructions", type=int, metavar="TIMES",
                    help="count instructions under callgrind instead (each figure's work TIMES times; cattrs left out)")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--only", choices=FIGURES[:6], help=argparse.SUPPRESS)
    ap.add_argument("--times", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.inner:
        print(json.dumps(inner(args.matches, args.repeat, args.cattrs, args.only, args.times)))
        return 0
    trees = [p.resolve() for p in (args.src or [ROOT / "src"])]
    if args.instructions is not None:
        if shutil.which("valgrind") is None or args.instructions < 1:
            print("codec_walk: --instructions needs valgrind and a count of at least 1", file=sys.stderr)
            return 2
        return _count(trees, args.matches, args.instructions)
    best: list[dict[str, float]] = [{} for _ in trees]
    for _ in range(args.rounds):
        for i, src in enumerate(trees):
            for name, value in _run(src, args.matches, args.repeat, args.cattrs).items():
                best[i][name] = min(best[i].get(name, value), value)
    names = [f for f in FIGURES if f in best[0]]
    print(f"ns per message ({int(best[0]['messages'])} messages), best of {args.rounds} rounds x {args.repeat}; "
          f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'':16}" + "".join(f"{n:>14}" for n in names))
    for src, figures in zip(trees, best):
        print(f"{str(src)[-16:]:16}" + "".join(f"{figures[n]:14,.0f}" for n in names))
    if len(trees) == 2:
        print(f"{'second/first':16}" + "".join(f"{best[1][n] / best[0][n]:14.3f}" for n in names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
