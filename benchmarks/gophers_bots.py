"""Gophers bot figures: heuristic vs random win rates, game length, and the worst legal-move list.

Run from the repository root::

    python benchmarks/gophers_bots.py [games per configuration, default 200]

For every rule set and seat count, one heuristic bot plays against random
bots (its seat rotates game by game); a shared win counts as a fraction.
The fair share of a seat is 1/players. Then heuristic bots fill every seat,
to show the first player's advantage. Then the largest collection list the
rules allow (a 10-card hand at a store) is searched for and timed.
"""

from __future__ import annotations

import itertools
import sys
import time

from meeple import Match
from meeple.engine import ENGINE, RandomBot, Rng
from meeple.games.gophers import GAME, GophersOptions, Phase, State
from meeple.games.gophers.bot import HeuristicBot
from meeple.games.gophers.combos import hand_combinations
from meeple.games.gophers.data import SPREADS, SUPPLY_KINDS, VALUES, Card, LabelKind, sort_cards

VARIANTS = ("standard", "simplified", "advanced", "beginner")


def play_one(variant: str, seats: int, seed: int, hero: int | None) -> tuple[float, int, int]:
    """Play one match; return (hero's share of the win, commands played, hero's score).

    ``hero`` is the seat of the heuristic bot among random ones; None: heuristic
    bots in every seat, and the figures are seat 0's.
    """
    m = Match.start(GAME, seats, seed=seed, options=GAME.variant_options(variant))
    bots = [HeuristicBot(seed * 10 + s) if hero is None or s == hero else RandomBot(seed * 10 + s)
            for s in range(seats)]
    hero = 0 if hero is None else hero
    steps = 0
    while m.to_act:
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
        steps += 1
    out = m.outcome
    assert out is not None
    share = 1.0 / len(out.winners) if hero in out.winners else 0.0
    return share, steps, out.scores[hero]


def win_rates(games: int) -> None:
    print(f"heuristic (1 seat) vs random bots, {games} games per row")
    print(f"{'variant':<11} {'players':>7} {'heuristic wins':>15} {'fair share':>10} {'avg commands':>12}")
    for variant in VARIANTS:
        for seats in (2, 3, 4):
            t = time.perf_counter()
            results = [play_one(variant, seats, seed, seed % seats) for seed in range(games)]
            wins = sum(r[0] for r in results) / games
            length = sum(r[1] for r in results) / games
            dt = time.perf_counter() - t
            print(f"{variant:<11} {seats:>7} {wins:>14.1%} {1 / seats:>10.1%} {length:>12.0f}   ({dt:.1f}s)")


def seat_balance(games: int) -> None:
    """Heuristic bots in every seat: how often the first player (seat 0) wins."""
    print(f"\nheuristic bots in every seat, {games} games per row: the first player's wins")
    print(f"{'variant':<11} {'players':>7} {'seat 0 wins':>12} {'fair share':>10}")
    for variant in VARIANTS:
        for seats in (2, 3, 4):
            wins = sum(play_one(variant, seats, seed, None)[0] for seed in range(games)) / games
            print(f"{variant:<11} {seats:>7} {wins:>11.1%} {1 / seats:>10.1%}")


def worst_collection_list(samples: int = 200) -> None:
    """Search 10-card hands at every store count for the longest list of collections."""
    counts = sorted({lab.count for sp in SPREADS for lab in sp.labels if lab.kind is LabelKind.STORE})
    faces = [Card(k, v) for k in SUPPLY_KINDS for v in VALUES]
    rng = Rng(2026)
    kinds = frozenset(SUPPLY_KINDS)
    best: tuple[int, tuple[Card, ...], int] = (0, (), 0)
    a, b, w = SUPPLY_KINDS
    candidates = [
        tuple(Card(SUPPLY_KINDS[i % 3], v) for i, v in enumerate(VALUES)),  # ten distinct values
        tuple(Card(k, v) for k in (a, b) for v in range(1, 6)),
        (*(Card(k, v) for k in (a, b) for v in range(1, 5)), Card(a, 5), Card(a, 6)),
        (*(Card(k, v) for k in (a, b, w) for v in range(1, 4)), Card(a, 4)),
    ]
    candidates += [tuple(rng.shuffled(faces)[:10]) for _ in range(samples)]
    for hand, target in itertools.product(candidates, counts):
        n = sum(1 for _ in hand_combinations(hand, target, True, kinds))
        if n > best[0]:
            best = (n, hand, target)
    n, hand, target = best
    t = time.perf_counter()
    reps = 20
    for _ in range(reps):
        listed = sum(1 for _ in hand_combinations(hand, target, True, kinds))
    dt = (time.perf_counter() - t) / reps
    print(f"\nworst collection list found: {listed} combinations (+ pass) for store count {target}")
    print(f"  hand {' '.join(map(repr, hand))}")
    print(f"  combinations enumerated in {dt * 1000:.1f} ms")
    # the same hand on a store of that count, through the Game API
    sp, hole = next((sp, h) for sp in SPREADS for h, lab in enumerate(sp.labels)
                    if lab.kind is LabelKind.STORE and lab.count == target)
    other = next(h for h in range(len(sp.labels)) if h != hole)
    state = State(seats=2, options=GophersOptions(), phase=Phase.COLLECT, spread=sp.number, positions=(hole, other),
                  hands=(sort_cards(list(hand)), ()), plus=((), ()), minus=((), ()), baskets=(0, 1), own_digs=(0, 0),
                  collectors=(0,))
    t = time.perf_counter()
    for _ in range(reps):
        legal = GAME.legal_commands(state, 0)
    dt = (time.perf_counter() - t) / reps
    print(f"  GAME.legal_commands on spread {sp.number}, hole {hole}: {len(legal)} commands in {dt * 1000:.1f} ms")


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    win_rates(n)
    seat_balance(n)
    worst_collection_list()
