"""Mordred: the fit behind ``bot.FITTED``, and how each set of weights plays among the bundled bots.

One bot on the weights measured sits among heuristic bots on ``DEFAULT``
(the bundled bot) at three seats, its seat rotating with the match (match
``k`` seats it at ``k % 3``; corpus seeds ``--seed``, ``--seed`` + 1, ...).
Its share of the wins (a draw of k players counts 1/k) is set against the
fair share, 1/3, with a 95 % Wilson interval. Every bot's seed follows from
the corpus seed, so a run gives the same figures on any machine.

``--tune N`` first searches the weights for play strength, from ``LEAF``:
each weight in turn scaled by 0.7, then by 1.4, the first step that wins
more than 0.008 above the best so far over N matches (corpus seeds from
``--tune-seed``) kept, for ``--sweeps`` passes. ``FITTED`` is its result::

    python benchmarks/mordred_fitted.py --games 2400 --seed 930000
    python benchmarks/mordred_fitted.py --tune 1200 --tune-seed 910000 --sweeps 1 --games 0
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from meeple.batch import wilson  # noqa: E402
from meeple.bots.ismcts import win_share  # noqa: E402
from meeple.engine import Match  # noqa: E402
from meeple.games.mordred.bot import DEFAULT, FITTED, LEAF, HeuristicBot, Weights  # noqa: E402

SEATS = 3
#: Each step of the search scales one weight by these, in turn.
STEPS = (0.7, 1.4)
#: How much more of the wins a step must bring to be kept.
THRESHOLD = 0.008


def share(weights: Weights, games: int, seed: int) -> float:
    """The mean share of the wins of one bot on ``weights`` among heuristic bots, over ``games`` matches."""
    total = 0.0
    for k in range(games):
        match = Match.start("mordred", SEATS, seed=seed + k)
        me = k % SEATS
        bots = {s: HeuristicBot(seed=seed * 7 + k * SEATS + s, weights=weights if s == me else DEFAULT)
                for s in range(SEATS)}
        while not match.is_over:
            s = match.to_act[0]
            match.play(s, bots[s].choose(match.view(s), match.legal(s), s))
        assert match.outcome is not None
        total += win_share(match.outcome, me)
    return total / games if games else 0.0


def tune(games: int, seed: int, sweeps: int, start: Weights = LEAF) -> Weights:
    """Coordinate search for play strength from ``start``, printing every step as a JSON line."""
    w, best = start, share(start, games, seed)
    print(json.dumps({"tune": "start", "share": best}), flush=True)
    for sweep in range(sweeps):
        for field in attrs.fields(Weights):
            for factor in STEPS:
                candidate = attrs.evolve(w, **{field.name: getattr(w, field.name) * factor})
                s = share(candidate, games, seed)
                kept = s > best + THRESHOLD
                print(json.dumps({"tune": sweep, "weight": field.name, "factor": factor, "share": s, "kept": kept}),
                      flush=True)
                if kept:
                    w, best = candidate, s
                    break
    print(json.dumps({"tune": "end", "share": best, "weights": attrs.asdict(w)}), flush=True)
    return w


def main(argv: Sequence[str] | None = None) -> int:
    """Search the weights where asked, then print the table of each set's share of the wins."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2400, help="matches per set of weights measured (0: none)")
    ap.add_argument("--seed", type=int, default=930_000, help="the first corpus seed measured on")
    ap.add_argument("--tune", type=int, default=0, metavar="N", help="search the weights on N other matches first")
    ap.add_argument("--tune-seed", type=int, default=910_000, help="the first corpus seed searched on")
    ap.add_argument("--sweeps", type=int, default=1, help="passes over the weights")
    args = ap.parse_args(argv)
    sets = {"DEFAULT": DEFAULT, "LEAF": LEAF, "FITTED": FITTED}
    if args.tune:
        sets["tuned"] = tune(args.tune, args.tune_seed, args.sweeps)
    if not args.games:
        return 0
    print("| weights | matches | share of the wins | 95 % interval | x fair share | CPU s |")
    print("|---|---:|---:|---|---:|---:|")
    for name, weights in sets.items():
        t = time.process_time()
        s = share(weights, args.games, args.seed)
        low, high = wilson(s * args.games, args.games)
        print(f"| `{name}` | {args.games} | {100 * s:.1f} % | [{100 * low:.1f} %, {100 * high:.1f} %] "
              f"| {s * SEATS:.2f}x | {time.process_time() - t:.0f} |", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
