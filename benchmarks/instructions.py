"""Count the CPU instructions of a game's playouts or bot matches with callgrind: figures the load does not move.

    python benchmarks/instructions.py playout saboteur 3 --matches 6
    python benchmarks/instructions.py heuristic gophers 2 --matches 3 --variant simplified
    python benchmarks/instructions.py heuristic saboteur 10 --matches 2 --src /elsewhere/src

Wall-clock figures on a shared machine move by up to 2x between runs; the
number of instructions a program executes does not. This runs a fresh
Python under ``valgrind --tool=callgrind`` twice, once playing the matches
of seeds 0 to N-1 and once playing none, and prints the difference per
match and per record: the cost of the matches alone, without the start-up.

* ``playout``: random playouts as ``run.py`` plays them (``Match.start``,
  ``legal``, a random pick, ``Match.play``), after one ``Match.start`` that
  both runs make;
* ``heuristic``: whole matches with the game's heuristic bot in every seat,
  as ``game_figures.play_match`` plays them (each bot sees its view only).

Both runs get ``PYTHONHASHSEED=0`` and ``PYTHONDONTWRITEBYTECODE=1``, so that
they find the same bytecode cache and hash alike; to compare two trees, run
each from a clean copy (``git archive COMMIT src | tar -x -C DIR``), as a
tree whose cache is stale compiles some modules in every process. Needs
``valgrind`` (Debian: ``apt-get install valgrind``); a run takes a minute or
two.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def inner(kind: str, gid: str, seats: int, variant: str | None, matches: int) -> int:
    """Play the matches (in the process callgrind watches) and print how many records they made."""
    from game_figures import play_match, random_playout  # both runs import them: only the matches differ

    import meeple
    from meeple.engine import Match

    game = meeple.get_game(gid)
    options = game.variant_options(variant) if variant else {}
    records = 0
    if kind == "playout":
        Match.start(game, seats, seed=999, options=options)
        for seed in range(matches):
            records += len(random_playout(game, seats, options, seed))
    else:  # both runs build the bot factory too
        factory = game.bots()["heuristic"]
        for seed in range(matches):
            records += len(play_match(game, seats, options, seed, factory))
    print(f"records {records}")
    return 0


def _count(src: Path, args: Sequence[str]) -> tuple[int, int]:
    """Instructions and records of one run under callgrind."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1",
               PYTHONPATH=os.pathsep.join([str(src), str(HERE)]))
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         str(Path(__file__).resolve()), "--inner", *args],
        capture_output=True, text=True, env=env, cwd=ROOT,
    )
    found = _COLLECTED.search(done.stderr)
    records = re.search(r"^records (\d+)$", done.stdout, re.MULTILINE)
    if done.returncode != 0 or found is None or records is None:
        raise SystemExit(f"instructions: the run under callgrind failed:\n{done.stderr[-2000:]}")
    return int(found.group(1)), int(records.group(1))


def main(argv: Sequence[str] | None = None) -> int:
    """Print instructions per match and per record."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["playout", "heuristic"])
    ap.add_argument("game")
    ap.add_argument("seats", type=int)
    ap.add_argument("--matches", type=int, default=3, help="matches of seeds 0..N-1 (default 3)")
    ap.add_argument("--variant", help="the game's variant (default: its first)")
    ap.add_argument("--src", type=Path, default=ROOT / "src", help="the src directory of the meeple to count")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.inner:
        return inner(args.kind, args.game, args.seats, args.variant, args.matches)
    if args.matches < 1:
        ap.error("--matches must be at least 1")
    if shutil.which("valgrind") is None:
        print("instructions: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    src = args.src.resolve()
    rest = [args.kind, args.game, str(args.seats), *(["--variant", args.variant] if args.variant else [])]
    idle, _ = _count(src, [*rest, "--matches", "0"])
    busy, records = _count(src, [*rest, "--matches", str(args.matches)])
    spent = busy - idle
    variant = f" {args.variant}" if args.variant else ""
    print(f"{args.kind} {args.game}{variant}, {args.seats} seats, seeds 0-{args.matches - 1}, meeple from {src}: "
          f"{spent / args.matches:,.0f} instructions per match, {spent / max(records, 1):,.0f} per record "
          f"({records} records)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
