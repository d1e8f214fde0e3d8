"""Bot win rates and balance figures for Underground Kings.

Run from the repository root::

    python benchmarks/kings_bots.py            # 200 seeds per table
    python benchmarks/kings_bots.py --seeds 50 # quicker

It prints (1) the heuristic bot against the random bot in 2-player matches,
with the heuristic bot in each seat half of the time; (2) heuristic against
heuristic for 2, 3 and 4 players: how often each seat and each people wins
(a shared win counts as a fraction), and the average winning score.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from typing import Any

import meeple
from meeple.engine import ENGINE, RandomBot
from meeple.games.kings import GAME
from meeple.games.kings.bot import HeuristicBot


def play(seats: int, seed: int, bots: Sequence[Any], options: dict[str, Any] | None = None) -> meeple.Match:
    """Play one match to the end with one bot per seat."""
    m = meeple.Match.start(GAME, seats, seed=seed, options=options)
    while not m.is_over:
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    return m


def heuristic_vs_random(seeds: int, options: dict[str, Any] | None = None) -> float:
    """Return the heuristic bot's share of wins over ``seeds`` 2-player matches."""
    won = 0.0
    for seed in range(seeds):
        h = seed % 2  # the heuristic bot's seat alternates
        bots: list[Any] = [RandomBot(seed * 10 + 1), RandomBot(seed * 10 + 2)]
        bots[h] = HeuristicBot(seed * 10 + 3)
        outcome = play(2, seed, bots, options).outcome
        assert outcome is not None
        if h in outcome.winners:
            won += 1 / len(outcome.winners)
    return won / seeds


def balance(seats: int, seeds: int, options: dict[str, Any] | None = None) -> tuple[Counter[int], Counter[str], float, float]:
    """Heuristic self-play: wins by seat, wins by people, mean winning score, mean length."""
    by_seat: Counter[int] = Counter()
    by_people: Counter[str] = Counter()
    top = 0.0
    length = 0.0
    for seed in range(seeds):
        m = play(seats, 10_000 + seed, [HeuristicBot(seed * 10 + s) for s in range(seats)], options)
        outcome = m.outcome
        assert outcome is not None
        for w in outcome.winners:
            by_seat[w] += 1 / len(outcome.winners)  # type: ignore[assignment]
            by_people[m.state.peoples[w].value] += 1 / len(outcome.winners)  # type: ignore[assignment]
        top += max(outcome.scores)
        length += len(m)
    return by_seat, by_people, top / seeds, length / seeds


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--variant", default="standard")
    args = parser.parse_args()
    options = GAME.variant_options(args.variant)
    n = args.seeds
    print(f"variant {args.variant}, {n} seeds per table")
    print(f"heuristic vs random, 2 players: heuristic wins {heuristic_vs_random(n, options):.1%}")
    for seats in (2, 3, 4):
        by_seat, by_people, top, length = balance(seats, n, options)
        seat_txt = "  ".join(f"seat {s}: {by_seat[s] / n:.1%}" for s in range(seats))
        people_txt = "  ".join(f"{p}: {by_people[p] / n:.1%}" for p in ("orcs", "goblins", "dwarves", "giants"))
        print(f"{seats}p heuristic self-play (fair share {1 / seats:.1%}): {seat_txt}")
        print(f"    by people (each plays in {seats / 4:.0%} of matches; fair share {1 / 4:.1%}): {people_txt}")
        print(f"    mean winning score {top:.1f}, mean records {length:.0f}")


if __name__ == "__main__":
    main()
