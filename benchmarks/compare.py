"""Compare the suite's figures before and after a change, as after/before ratios (a Markdown table).

Two ways:

    python benchmarks/compare.py --base COMMIT [--rounds 3] [run.py options...]
    python benchmarks/compare.py before.txt after.txt [--match replay,verify]

With ``--base``, the commit is checked out into a temporary git worktree
(its compiled reader built there too, when this checkout has one) and the
*same* benchmark code, this checkout's ``benchmarks/``, measures both
libraries: ``run.py --src WORKTREE/src`` for the base and ``run.py`` for this
checkout, one after the other, ``--rounds`` times, the order alternating, so
both sides see the same machine load. Options after ``--base COMMIT`` that
this script does not know go to ``run.py`` (``--quick``, ``--games kings``,
``--no-long``...). Each figure's ratio is the median over the rounds of
after/before within a round; the figures of code neither side changes
(OpenSpiel, the floor) show the noise. The worktree is removed at the end.
``--save DIR`` keeps every run's output.

With two files, it reads the JSON lines of two outputs of ``run.py`` (other
lines are ignored) and prints, for every figure present in both, the two
values and after/before.

Rates are "higher is better"; for latencies, sizes and memory lower is
better, so the last column says which way is better.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from harness import fmt

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LOWER_IS_BETTER = ("ms", "bytes")

Key = tuple[str, str, Any]


def parse(lines: Iterable[str]) -> dict[Key, dict[str, Any]]:
    """The figures of one run's output by (subject, name, seats)."""
    out = {}
    for line in lines:
        if line.startswith("{"):
            f = json.loads(line)
            out[(f["subject"], f["name"], f.get("seats"))] = f
    return out


def figures(path: str) -> dict[Key, dict[str, Any]]:
    """The figures of one saved run by (subject, name, seats)."""
    return parse(Path(path).read_text().splitlines())


def _row(key: Key, unit: str, before: float, after: float, ratio: float) -> str:
    better = "lower is better" if unit in LOWER_IS_BETTER else ""
    seats = "" if key[2] is None else str(key[2])
    return f"| {key[0]} | {seats} | {key[1]} | {fmt(before)} {unit} | {fmt(after)} | {ratio:.2f}× {better} |"


def _wanted(key: Key, words: Sequence[str] | None) -> bool:
    return key[0] != "goal" and (not words or any(w in key[1] for w in words))


def table(rounds: Sequence[tuple[dict[Key, dict[str, Any]], dict[Key, dict[str, Any]]]],
          words: Sequence[str] | None = None) -> list[str]:
    """The Markdown table of ``(before, after)`` runs: medians of the values, median of the per-round ratios."""
    lines = ["| subject | seats | figure | before | after | after / before |", "|---|---|---|---:|---:|---:|"]
    for key, first in rounds[0][0].items():
        if not _wanted(key, words):
            continue
        pairs = [(b[key]["value"], a[key]["value"]) for b, a in rounds
                 if key in b and key in a and b[key]["value"] and a[key]["value"] is not None]
        if not pairs:
            continue
        ratio = statistics.median(after / before for before, after in pairs)
        lines.append(_row(key, first["unit"], statistics.median(p[0] for p in pairs),
                          statistics.median(p[1] for p in pairs), ratio))
    return lines


#: Subjects whose figures neither library changes: their ratios show how evenly loaded the two sides were.
UNCHANGED = ("floor", "eventsourcing", "openspiel")


def noise(rounds: Sequence[tuple[dict[Key, dict[str, Any]], dict[Key, dict[str, Any]]]]) -> str | None:
    """A line on the ratios of the figures of code neither side changes (1.00 when both ran alike), or None."""
    ratios = sorted(
        a[key]["value"] / b[key]["value"]
        for b, a in rounds for key in b
        if key[0].startswith(UNCHANGED) and key in a and b[key]["value"] and a[key]["value"] is not None
    )
    if not ratios:
        return None
    return (f"figures of unchanged code (the floor, eventsourcing, OpenSpiel), after / before: median "
            f"{statistics.median(ratios):.2f}, from {ratios[0]:.2f} to {ratios[-1]:.2f} over {len(ratios)} "
            f"(a median far from 1.00 means one side ran on a busier machine)")


def _git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def _build_reader(tree: Path) -> bool:
    """Build the compiled log reader in ``tree``'s ``src`` (as ``pip install`` would); False if it cannot be."""
    sources = sorted(p.relative_to(tree).as_posix() for p in (tree / "src" / "meeple").glob("_speedups*.c"))
    if not sources:  # one file (older trees) or one per concept
        return False
    code = ("from setuptools import Extension, setup\n"
            "setup(name='meeple-bench-base', script_args=['-q', 'build_ext', '--inplace'], package_dir={'': 'src'},\n"
            f"      ext_modules=[Extension('meeple._speedups', {sources!r})], py_modules=[])\n")
    with tempfile.TemporaryDirectory() as empty:  # run outside the tree, so its pyproject.toml is not read
        shutil.copytree(tree / "src", Path(empty) / "src")
        done = subprocess.run([sys.executable, "-c", code], cwd=empty, capture_output=True, text=True)
        built = list((Path(empty) / "src" / "meeple").glob("_speedups*.so")) + \
            list((Path(empty) / "src" / "meeple").glob("_speedups*.pyd"))
        if done.returncode != 0 or not built:
            return False
        for so in built:
            shutil.copy2(so, tree / "src" / "meeple" / so.name)
    return True


def _compiled_here() -> bool:
    return any((ROOT / "src" / "meeple").glob("_speedups*.so")) or any((ROOT / "src" / "meeple").glob("_speedups*.pyd"))


def _run(src: Path | None, args: Sequence[str], env: dict[str, str]) -> str:
    cmd = [sys.executable, str(HERE / "run.py"), *args, *(["--src", str(src)] if src is not None else [])]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"compare: {' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
    return done.stdout


@contextlib.contextmanager
def checked_out(commit: str) -> Iterator[tuple[str, Path]]:
    """``commit`` checked out into a temporary git worktree, removed afterwards: its full hash and the tree."""
    sha = _git("rev-parse", "--verify", f"{commit}^{{commit}}")
    where = Path(tempfile.mkdtemp(prefix="meeple-base-"))
    tree = where / "tree"
    _git("worktree", "add", "--detach", "--quiet", str(tree), sha)
    try:
        yield sha, tree
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
        shutil.rmtree(where, ignore_errors=True)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, capture_output=True)


def against_base(commit: str, rounds: int, run_args: Sequence[str], words: Sequence[str] | None,
                 save: Path | None) -> int:
    """Measure ``commit`` and this checkout side by side, ``rounds`` times; print the ratios."""
    env = dict(os.environ)
    with checked_out(commit) as (sha, tree):
        compiled = _compiled_here()
        if compiled and not _build_reader(tree):
            print("# the base's compiled reader could not be built: both sides read logs in pure Python",
                  file=sys.stderr)
            env["MEEPLE_PURE_PYTHON"] = "1"
        here = _git("rev-parse", "--short", "HEAD")
        dirty = " (with uncommitted changes)" if _git("status", "--porcelain", "--untracked-files=no") else ""
        print(f"# before: {sha[:9]} (a worktree at {tree}); after: this checkout, {here}{dirty}; "
              f"{rounds} rounds of: run.py {' '.join(run_args)}", flush=True)
        results = []
        for r in range(rounds):
            order = ("before", "after") if r % 2 == 0 else ("after", "before")
            outs = {}
            for side in order:
                print(f"# round {r + 1}: {side}", file=sys.stderr, flush=True)
                outs[side] = _run(tree / "src" if side == "before" else None, run_args, env)
                if save is not None:
                    save.mkdir(parents=True, exist_ok=True)
                    (save / f"round{r + 1}-{side}.txt").write_text(outs[side])
            results.append((parse(outs["before"].splitlines()), parse(outs["after"].splitlines())))
        print("\n".join(table(results, words)))
        line = noise(results)
        if line is not None:
            print(f"\n{line}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Print the comparison table."""
    argv = list(sys.argv[1:] if argv is None else argv)
    based = any(a == "--base" or a.startswith("--base=") for a in argv)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    if not based:
        ap.add_argument("files", nargs=2, metavar="FILE", help="before.txt after.txt: two saved outputs of run.py")
    ap.add_argument("--base", metavar="COMMIT", help="measure COMMIT and this checkout side by side")
    ap.add_argument("--rounds", type=int, default=3, help="with --base: runs of each side, alternating (default 3)")
    ap.add_argument("--save", type=Path, help="with --base: keep every run's output in this directory")
    ap.add_argument("--match", help="comma-separated words; keep figures whose name contains one")
    if not based:
        args = ap.parse_args(argv)
        words = args.match.split(",") if args.match else None
        print("\n".join(table([(figures(args.files[0]), figures(args.files[1]))], words)))
        return 0
    args, rest = ap.parse_known_args(argv)  # the rest goes to run.py
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    words = args.match.split(",") if args.match else None
    return against_base(args.base, args.rounds, rest, words, args.save)


if __name__ == "__main__":
    sys.exit(main())
