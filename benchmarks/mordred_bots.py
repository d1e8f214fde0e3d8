"""Mordred bot figures: heuristic against random, and how often Mordred wins.

Run from the repository root::

    python benchmarks/mordred_bots.py            # 200 seeds per line
    python benchmarks/mordred_bots.py --seeds 50 --variant short

Each line plays ``--seeds`` matches. "heuristic vs random" seats one
heuristic bot among random bots (its seat rotates with the seed) and prints
its share of wins (a shared win counts as a fraction; the fair share is
1/players). "heuristic only" prints how often Mordred won (his warriors
outnumbered the buildings), how the games ended, the rows the bots chose,
and the average number of turns. The Money table's expected values per row
are printed first.
"""

from __future__ import annotations

import argparse
import collections
import time
from typing import Any

import meeple
from meeple.engine import RandomBot
from meeple.games.mordred import GAME, Roll
from meeple.games.mordred.bot import HeuristicBot
from meeple.games.mordred.data import MONEY, Row
from meeple.games.mordred.rules import buildings_on_map, warriors_on_map


def money_table() -> None:
    """Print each row's expected money and warriors for one roll of two dice."""
    for row in Row:
        cells = MONEY[row]
        money = sum(c.amount for c in cells if not c.black) / 3
        warriors = sum(c.amount for c in cells if c.black) / 3
        black = sum(c.black for c in cells)
        p_any = 1 - ((6 - black) / 6) ** 2
        print(f"row {row.value}: £{money:.2f} and {warriors:.2f} warriors per roll; P(some black) {p_any:.0%}")


def play(seats: int, seed: int, kinds: str, options: dict[str, Any]) -> tuple[meeple.Match, collections.Counter[str]]:
    """Play one match; ``kinds[s]`` is "h" (heuristic) or "r" (random) for seat ``s``."""
    m = meeple.Match.start(GAME, seats, seed=seed, options=options)
    bots = [HeuristicBot(seed * 10 + s) if k == "h" else RandomBot(seed * 10 + s) for s, k in enumerate(kinds)]
    rows: collections.Counter[str] = collections.Counter()
    while not m.is_over:
        (seat,) = m.to_act
        cmd = bots[seat].choose(m.view(seat), m.legal(seat), seat)
        if isinstance(cmd, Roll) and kinds[seat] == "h":
            rows[cmd.row.value] += 1
        m.play(seat, cmd)
    return m, rows


def versus_random(seats: int, seeds: int, options: dict[str, Any]) -> float:
    """Return the heuristic bot's share of wins against ``seats - 1`` random bots."""
    wins = 0.0
    for seed in range(seeds):
        hseat = seed % seats
        kinds = "".join("h" if s == hseat else "r" for s in range(seats))
        m, _ = play(seats, seed, kinds, options)
        out = m.outcome
        assert out is not None
        if hseat in out.winners:
            wins += 1 / len(out.winners)
    return wins / seeds


def heuristic_only(seats: int, seeds: int, options: dict[str, Any]) -> dict[str, Any]:
    """Return Mordred's win rate, the end conditions, the rows chosen and the mean turns."""
    mordred = 0
    ends: collections.Counter[str] = collections.Counter()
    rows: collections.Counter[str] = collections.Counter()
    turns = 0
    for seed in range(seeds):
        m, r = play(seats, seed, "h" * seats, options)
        st = m.state
        mordred += warriors_on_map(st) > buildings_on_map(st)
        ends[st.ended.value if st.ended else "?"] += 1
        rows.update(r)
        turns += st.turns
    total = sum(rows.values())
    return {
        "mordred": mordred / seeds,
        "ends": {k: f"{v / seeds:.0%}" for k, v in sorted(ends.items())},
        "rows": {k: f"{v / total:.0%}" for k, v in sorted(rows.items())},
        "turns": turns / seeds,
    }


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--variant", default="standard", choices=GAME.info.variants)
    args = parser.parse_args()
    options = GAME.variant_options(args.variant)
    print(f"Mordred bots, variant {args.variant}, {args.seeds} seeds per line")
    money_table()
    for seats in (3, 4):
        t = time.perf_counter()
        share = versus_random(seats, args.seeds, options)
        print(f"{seats} players, heuristic vs {seats - 1} random: heuristic wins {share:.1%} (fair share {1 / seats:.0%})")
        h = heuristic_only(seats, args.seeds, options)
        print(
            f"{seats} players, heuristic only: Mordred wins {h['mordred']:.1%}; ends {h['ends']}; "
            f"rows {h['rows']}; {h['turns']:.1f} turns per game ({time.perf_counter() - t:.1f}s)"
        )


if __name__ == "__main__":
    main()
