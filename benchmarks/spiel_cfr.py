"""CFR through the OpenSpiel adapter (meeple.rl.spiel) and on OpenSpiel's C++ ``liars_dice``, side by side.

Both run vanilla CFR (``open_spiel.python.algorithms.cfr``) on the same
Liar's Dice (two players, one die each, ``--sides`` faces, the top face
wild) and print the exploitability of the average policy after each
iteration, with the CPU time spent so far and the load average:

    python benchmarks/spiel_cfr.py --sides 3 --iterations 20
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from meeple.examples import liars_dice  # noqa: E402, F401  (registers "liars-dice")
from meeple.rl import spiel  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Run CFR on both games and print one row per iteration."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--sides", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=20)
    args = ap.parse_args(argv)
    games = {
        "meeple (adapter)": pyspiel.load_game(spiel.register("liars-dice"), {"sides": args.sides}),
        "OpenSpiel C++": pyspiel.load_game("liars_dice", {"players": 2, "numdice": 1, "dice_sides": args.sides}),
    }
    load = os.getloadavg()
    rows: dict[str, list[tuple[float, float]]] = {}
    for label, game in games.items():
        solver = cfr.CFRSolver(game)
        start = time.process_time()
        rows[label] = []
        for _ in range(args.iterations):
            solver.evaluate_and_update_policy()
            spent = time.process_time() - start  # CFR's own time, exploitability left out
            rows[label].append((exploitability.exploitability(game, solver.average_policy()), spent))
            start = time.process_time() - spent
    after = os.getloadavg()
    print(f"load average before {load[0]:.2f}, after {after[0]:.2f}; Liar's Dice, 2 players, 1 die of {args.sides} sides")
    print("| iteration | " + " | ".join(f"{k}: exploitability | CFR CPU s" for k in rows) + " |")
    print("|---:|" + "---:|---:|" * len(rows))
    for i in range(args.iterations):
        cells = " | ".join(f"{rows[k][i][0]:.6f} | {rows[k][i][1]:.2f}" for k in rows)
        print(f"| {i + 1} | {cells} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
