"""How well the Mordred heuristic's estimate predicts the winner, and the fit behind ``bot.LEAF``.

Heuristic bots play ``--games`` matches at three seats (corpus seeds
``--seed``, ``--seed`` + 1, ...). At the start of every turn (the roll)
the estimate of the seat about to roll, its chance to win
(``Outlook.mine``; a search's playout is cut at such a position and worth
it), is set against the match's result (1 for a win, 1/k for a draw of k
players, else 0). Printed per set of weights (``DEFAULT``, the bot's
choices; ``LEAF``, its ``estimate``): the log-loss and the Brier score over
all positions and over each match's last six turns (two rounds), and a
calibration table (estimates by tenths: their mean and how often those
seats won). A constant 1/3 scores a log-loss of about 0.635.

``--fit N`` first fits the weights on N other matches (seeds from
``--fit-seed``) by coordinate search on the log-loss, starting from
``DEFAULT``, and reports the fitted weights beside the others::

    python benchmarks/mordred_estimate.py --games 1000 --seed 200000
    python benchmarks/mordred_estimate.py --games 1000 --seed 200000 --fit 1500 --fit-seed 100000
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from meeple.engine import Match  # noqa: E402
from meeple.games.mordred.bot import DEFAULT, LEAF, HeuristicBot, Outlook, Weights  # noqa: E402
from meeple.games.mordred.state import Phase  # noqa: E402
from meeple.games.mordred.view import View  # noqa: E402

#: The weights the fit changes, one at a time.
FITTED = ("threat_spread", "threat_drift", "points_spread", "road_spread", "horizon_floor", "money_worth",
          "money_rounds", "income", "warriors_per_turn", "steps_per_turn")

Position = tuple[View, float, bool]  # the view of the seat to roll, its result, and whether in the last two rounds


def positions(games: int, seed: int) -> list[Position]:
    """The turn starts of ``games`` heuristic matches at three seats, each with the roller's result."""
    out: list[Position] = []
    for g in range(seed, seed + games):
        m = Match.start("mordred", 3, seed=g)
        bots = [HeuristicBot(seed=g * 10 + s) for s in range(3)]
        views: list[View] = []
        while not m.is_over:
            seat = m.to_act[0]
            view = m.view(seat)
            if view.phase is Phase.ROLL:
                views.append(view)
            m.play(seat, bots[seat].choose(view, m.legal(seat), seat))
        outcome = m.outcome
        assert outcome is not None
        winners = outcome.winners
        for i, v in enumerate(views):
            result = 1 / len(winners) if v.turn in winners else 0.0
            out.append((v, result, i >= len(views) - 6))
    return out


def losses(rows: Sequence[Position], weights: Weights) -> tuple[float, float]:
    """The mean log-loss and Brier score of the roller's estimate on ``weights`` over ``rows``."""
    log = brier = 0.0
    for view, result, _ in rows:
        p = min(max(Outlook(view, view.turn, weights).mine(), 1e-4), 1 - 1e-4)
        log -= result * math.log(p) + (1 - result) * math.log(1 - p)
        brier += (p - result) ** 2
    return log / len(rows), brier / len(rows)


def calibration(rows: Sequence[Position], weights: Weights) -> list[dict[str, float]]:
    """Estimates by tenths: how many, their mean, and the mean result of those seats."""
    bins = [[0, 0.0, 0.0] for _ in range(10)]
    for view, result, _ in rows:
        p = Outlook(view, view.turn, weights).mine()
        b = bins[min(9, int(p * 10))]
        b[0] += 1
        b[1] += p
        b[2] += result
    return [{"from": i / 10, "positions": n, "estimate": s / n, "won": w / n} for i, (n, s, w) in enumerate(bins) if n]


def fit(rows: Sequence[Position], start: Weights, sweeps: int = 2) -> Weights:
    """Coordinate search on the log-loss: each weight scaled by 1.5 or 1.2 (up or down) while it helps."""
    w, best = start, losses(rows, start)[0]
    for _ in range(sweeps):
        for name in FITTED:
            for factor in (1.5, 1 / 1.5, 1.2, 1 / 1.2):
                while True:
                    candidate = attrs.evolve(w, **{name: getattr(w, name) * factor})
                    loss = losses(rows, candidate)[0]
                    if loss >= best - 1e-5:
                        break
                    w, best = candidate, loss
    return w


def main(argv: Sequence[str] | None = None) -> int:
    """Print one JSON line per set of weights, then each one's calibration table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000, help="matches to measure on")
    ap.add_argument("--seed", type=int, default=200_000, help="the first corpus seed measured on")
    ap.add_argument("--fit", type=int, default=0, metavar="N", help="fit the weights on N other matches first")
    ap.add_argument("--fit-seed", type=int, default=100_000, help="the first corpus seed fitted on")
    ap.add_argument("--fit-positions", type=int, default=12_000, help="positions the fit samples")
    args = ap.parse_args(argv)
    sets: dict[str, Weights] = {"DEFAULT": DEFAULT, "LEAF": LEAF}
    if args.fit:
        train = positions(args.fit, args.fit_seed)
        random.Random(1).shuffle(train)
        sets["fitted"] = fitted = fit(train[:args.fit_positions], DEFAULT)
        print(json.dumps({"fitted": attrs.asdict(fitted)}))
    rows = positions(args.games, args.seed)
    late = [r for r in rows if r[2]]
    for name, weights in sets.items():
        (log, brier), (late_log, late_brier) = losses(rows, weights), losses(late, weights)
        print(json.dumps({"weights": name, "games": args.games, "positions": len(rows), "log_loss": round(log, 4),
                          "brier": round(brier, 4), "last_two_rounds": {"positions": len(late),
                          "log_loss": round(late_log, 4), "brier": round(late_brier, 4)},
                          "load": os.getloadavg()}))
    for name, weights in sets.items():
        print(f"\n{name}: estimate from | positions | mean estimate | won")
        for b in calibration(rows, weights):
            print(f"{b['from']:.1f} | {b['positions']} | {b['estimate']:.3f} | {b['won']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
