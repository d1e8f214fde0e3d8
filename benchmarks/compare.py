"""Compare two runs of the suite figure by figure (a Markdown table).

    python benchmarks/run.py > before.txt      # on the old engine
    python benchmarks/run.py > after.txt       # on the new one
    python benchmarks/compare.py before.txt after.txt [--match replay,verify]

Reads the JSON lines of each output (other lines are ignored) and prints, for
every figure present in both, the two values and after/before. Rates are
"higher is better"; for latencies, sizes and memory, lower is better, so the
last column says which way is better.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness import fmt

LOWER_IS_BETTER = ("ms", "bytes")


def figures(path: str) -> dict[tuple[str, str, Any], dict[str, Any]]:
    """The figures of one run by (subject, name, seats)."""
    out = {}
    for line in Path(path).read_text().splitlines():
        if line.startswith("{"):
            f = json.loads(line)
            out[(f["subject"], f["name"], f.get("seats"))] = f
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Print the comparison table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--match", help="comma-separated words; keep figures whose name contains one")
    args = ap.parse_args(argv)
    a, b = figures(args.before), figures(args.after)
    words = args.match.split(",") if args.match else None
    print("| subject | seats | figure | before | after | after / before |")
    print("|---|---|---|---:|---:|---:|")
    for key, fa in a.items():
        fb = b.get(key)
        if fb is None or fa["value"] is None or fb["value"] is None or key[0] == "goal":
            continue
        if words and not any(w in key[1] for w in words):
            continue
        ratio = fb["value"] / fa["value"] if fa["value"] else float("nan")
        better = "lower is better" if fa["unit"] in LOWER_IS_BETTER else ""
        seats = "" if key[2] is None else str(key[2])
        print(f"| {key[0]} | {seats} | {key[1]} | {fmt(fa['value'])} {fa['unit']} | {fmt(fb['value'])} | "
              f"{ratio:.2f}× {better} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
