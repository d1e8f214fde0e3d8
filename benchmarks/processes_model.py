"""The model for N server processes on one PostgreSQL database, from the CPU per command of a load run.

Reads the JSON lines that ``server_load.py --anchor`` prints (a file, or
standard input), for instance::

    python benchmarks/server_load.py --anchor --clients 100 --servers postgresql,postgresql2 \\
        --games liars-dice,kings --repeat 4 | tee run.jsonl
    python benchmarks/processes_model.py run.jsonl

``C1`` is the server CPU per command of one process, ``C2`` that of two
processes together with each match's seats spread across them (every
command written in one process and caught up in the other). With a core for
each process and a database that keeps up, N processes serve ``N * C1 /
CN`` times one process's commands. Two placements of a match's two seats:

* *spread* (each seat on another process, as in the run): every command is
  caught up by one other process, ``CN = C2``;
* *random* (a load balancer that places each connection at random): the
  two seats share a process one time in N, ``CN = C1 + (1 - 1/N) (C2 - C1)``.

Samples are paired by their order (the k-th one-process sample of a game
with its k-th two-process sample, run one after the other in the same
round; a pair is left out if either had a command unanswered or refused),
so a change of the machine's load falls on both alike. Each figure is the
median over the pairs with its range (lowest-highest).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from typing import Any, TextIO


def samples(lines: TextIO, out: TextIO | None = None) -> list[dict[str, Any]]:
    """The samples of a run: every JSON object line with a server CPU figure and every command answered.

    A sample with a command unanswered or refused is left out (and named on ``out``): its CPU was spent
    on a run that did not finish as the others did.
    """
    kept = []
    seen: dict[tuple[str, str], int] = {}
    for line in lines:
        line = line.strip()
        if not line.startswith("{"):
            continue
        row = json.loads(line)
        if row.get("server_cpu_ms_per_command") is None:
            continue
        key = (row["config"], row.get("game", "liars-dice"))
        row["round"] = seen[key] = seen.get(key, -1) + 1  # the k-th sample of its configuration
        if row.get("unanswered") or row.get("refused"):
            if out is not None:
                print(f"left out: {row['config']} {row.get('game')} (unanswered {row.get('unanswered')}, "
                      f"refused {row.get('refused')})", file=out)
            continue
        kept.append(row)
    return kept


def spread(values: list[float], digits: int = 3) -> str:
    """``median (lowest-highest)``."""
    return (f"{round(statistics.median(values), digits)} "
            f"({round(min(values), digits)}-{round(max(values), digits)})")


def model(c1: float, c2: float, n: int, placement: str = "spread") -> float:
    """How many times one process's commands N processes serve (see the module docstring)."""
    cn = c2 if placement == "spread" else c1 + (1 - 1 / n) * (c2 - c1)
    return n * c1 / cn


def report(rows: list[dict[str, Any]], one: str, two: str, out: TextIO) -> int:
    """Print C1, C2 and the model for N = 2, 3, 4 for every game of ``rows``; the number of games."""
    games = list(dict.fromkeys(r.get("game", "liars-dice") for r in rows))
    done = 0
    for game in games:
        of = {config: {r["round"]: r["server_cpu_ms_per_command"] for r in rows
                       if r["config"] == config and r.get("game", "liars-dice") == game} for config in (one, two)}
        c1s, c2s = list(of[one].values()), list(of[two].values())
        loads = [r["load_average"][0] for r in rows if r["config"] in (one, two) and r.get("game", "liars-dice") == game]
        pairs = [(of[one][k], of[two][k]) for k in sorted(of[one]) if k in of[two]]
        if not pairs:
            continue
        done += 1
        print(f"{game}: {len(pairs)} pairs ({one} / {two}), load {min(loads):.1f}-{max(loads):.1f}", file=out)
        print(f"  C1 ms/command      {spread(c1s)}", file=out)
        print(f"  C2 ms/command      {spread(c2s)}", file=out)
        print(f"  C2 / C1            {spread([b / a for a, b in pairs])}", file=out)
        for placement in ("spread", "random"):
            figures = "   ".join(f"N={n}: {spread([model(a, b, n, placement) for a, b in pairs], 2)}"
                                 for n in (2, 3, 4))
            print(f"  {placement:<7} {figures}", file=out)
    return done


def main(argv: list[str] | None = None) -> int:
    """Command line: the model from one or more files of ``server_load.py --anchor`` lines."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="files of JSON lines (default: standard input)")
    parser.add_argument("--one", default="postgresql", help="the one-process configuration")
    parser.add_argument("--two", default="postgresql2", help="the two-process configuration")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    if args.files:
        for name in args.files:
            with open(name, encoding="utf-8") as f:
                rows += samples(f, sys.stdout)
    else:
        rows = samples(sys.stdin, sys.stdout)
    if not report(rows, args.one, args.two, sys.stdout):
        print(f"no samples of both {args.one} and {args.two}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
