"""Gophers figures: how games end, heuristic vs random win rates, seat balance, the legal-move lists.

Run from the repository root::

    python benchmarks/gophers_bots.py [games per configuration, default 200]
    python benchmarks/gophers_bots.py --speed [repeats, default 9]
    python benchmarks/gophers_bots.py --play N [seats, default 2] [rule set, default standard]

Every match plays today's rules version (3) with each rule set's default
options: in the beginner rules the full bank of all 60 supply cards, and
the end checked after the last seat's turn (``end="round"``), not version
2's 48-card bank and end after any turn.

1. **Ends**: for every rule set and seat count, heuristic bots in every seat,
   then random bots in every seat: the share of games that end by the seed's
   rule (deck and hand, or a kind gone from the beginner bank) rather than
   the stall guard, the mean length, the largest hand, and in the beginner
   rules the longest chain of gift moves in one turn.
2. **Win rates**: one heuristic bot against random bots (its seat rotates
   game by game; a shared win counts as a fraction); the fair share is
   1/players. Then heuristic bots everywhere: how often seat 0 wins.
``--speed`` instead times the random playout of ``run.py`` (2 players, the
same seeds and picks) against OpenSpiel's ``python_tic_tac_toe`` random
playout, the two run back to back in turns (``harness.paired_ratio``), so
that a loaded machine slows both alike; it prints the median ratio.

``--play`` plays ``N`` heuristic matches (seeds ``0..N-1``, as ``run.py``
plays them) and prints their records: run under ``valgrind
--tool=callgrind`` with ``N`` and with 0, the difference over ``N`` is the
instructions a match costs, a figure the machine's load does not move.

3. **Legal lists**: big hands at a store: how many whole collections they
   hold (counted, not listed) against the commands ``legal_commands`` lists
   (the next cards), and the time of one ``legal_commands`` call (the
   quickest of five batches).
"""

from __future__ import annotations

import sys
import time
from collections import Counter

import attrs

from meeple import Match
from meeple.engine import ENGINE, RandomBot
from meeple.games.gophers import GAME, GophersOptions, Phase, State
from meeple.games.gophers.bot import HeuristicBot
from meeple.games.gophers.data import SPREADS, SUPPLY_KINDS, VALUES, Card, LabelKind, sort_cards
from meeple.games.gophers.events import ExtraMove, TurnEnded
from meeple.games.gophers.state import Cards, Table

VARIANTS = ("standard", "simplified", "advanced", "beginner")


def play_one(variant: str, seats: int, seed: int, heroes: set[int]) -> tuple[Match, int, int]:
    """Play one match, heuristic bots in ``heroes``, random ones elsewhere.

    Returns the match, the longest chain of gift moves in a turn and the largest hand seen.
    """
    m = Match.start(GAME, seats, seed=seed, options=GAME.variant_options(variant))
    bots = [HeuristicBot(seed * 10 + s) if s in heroes else RandomBot(seed * 10 + s) for s in range(seats)]
    chain = longest = biggest = 0
    while m.to_act:
        seat = next(s for s in m.to_act if s != ENGINE)
        for e in m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat)):
            if isinstance(e, ExtraMove):
                chain += 1
                longest = max(longest, chain)
            elif isinstance(e, TurnEnded):
                chain = 0
        biggest = max(biggest, max(map(len, m.state.hands), default=0))
    return m, longest, biggest


def ends(games: int) -> None:
    print(f"gophers rules version {GAME.info.rules_version}, each rule set's default options")
    print(f"how games end, {games} games per row (seed: by the rule text's end; guard: by the stall guard)")
    print(f"{'variant':<11} {'bots':<10} {'players':>7} {'seed end':>9} {'guard':>6} {'avg cmds':>9} "
          f"{'max hand':>9} {'max gift chain':>15}")
    for variant in VARIANTS:
        for kind in ("heuristic", "random"):
            for seats in (2, 3, 4):
                t = time.perf_counter()
                reasons: Counter[str] = Counter()
                length = chain = hand = 0
                for seed in range(games):
                    m, longest, biggest = play_one(variant, seats, seed, set(range(seats)) if kind == "heuristic" else set())
                    assert m.outcome is not None
                    reasons["guard" if "rounds passed" in m.outcome.reason else "seed"] += 1
                    length += len(m)
                    chain, hand = max(chain, longest), max(hand, biggest)
                dt = time.perf_counter() - t
                print(f"{variant:<11} {kind:<10} {seats:>7} {reasons['seed'] / games:>8.1%} {reasons['guard']:>6} "
                      f"{length / games:>9.0f} {hand:>9} {chain if variant == 'beginner' else '-':>15}   ({dt:.1f}s)",
                      flush=True)


def win_rates(games: int) -> None:
    print(f"\nheuristic (1 seat) vs random bots, {games} games per row; then heuristic bots in every seat")
    print(f"{'variant':<11} {'players':>7} {'heuristic wins':>15} {'fair share':>10} {'seat 0 wins, all heuristic':>27}")
    for variant in VARIANTS:
        for seats in (2, 3, 4):
            share = 0.0
            first = 0.0
            for seed in range(games):
                hero = seed % seats
                out = play_one(variant, seats, seed, {hero})[0].outcome
                assert out is not None
                share += 1.0 / len(out.winners) if hero in out.winners else 0.0
                out = play_one(variant, seats, seed, set(range(seats)))[0].outcome
                assert out is not None
                first += 1.0 / len(out.winners) if 0 in out.winners else 0.0
            print(f"{variant:<11} {seats:>7} {share / games:>14.1%} {1 / seats:>10.1%} {first / games:>27.1%}",
                  flush=True)


def count_collections(hand: tuple[Card, ...], target: int) -> int:
    """How many whole collections (added and subtracted multisets) make ``target`` at a store."""
    ways: Counter[int] = Counter({0: 1})
    for face, copies in Counter(hand).items():
        nxt: Counter[int] = Counter()
        for total, n in ways.items():
            for added in range(copies + 1):
                for subtracted in range(copies - added + 1):
                    nxt[total + (added - subtracted) * face.value] += n
        ways = nxt
    return ways[target]


def legal_lists(reps: int = 50) -> None:
    print("\nbig hands at a store: whole collections (counted) against the commands listed")
    stores = [(sp, h, lab.count) for sp in SPREADS for h, lab in enumerate(sp.labels) if lab.kind is LabelKind.STORE]
    every = tuple(Card(k, v) for k in SUPPLY_KINDS for v in VALUES)
    hands = {
        "10 cards, ten values": tuple(Card(SUPPLY_KINDS[i % 3], v) for i, v in enumerate(VALUES)),
        "14 cards": every[:7] + every[10:17],
        "30 cards, one of each": every,
        "60 cards, the whole box": every + every,
    }
    for name, hand in hands.items():
        sp, hole, target = max(stores, key=lambda s: count_collections(hand, s[2]))
        state = State(seats=2, options=GophersOptions(), phase=Phase.COLLECT, spread=sp.number,
                      positions=(hole, (hole + 1) % 20), collectors=(0,),
                      cards=Cards((sort_cards(list(hand)), ()), ((0,) * len(hand), ()), (), ()),
                      table=Table(((), ()), ((), ()), (), (0, 0), (0, 1), (0, 0)))
        dt = float("inf")
        for _ in range(5):  # the quickest of five batches (the machine is shared)
            copies = [attrs.evolve(state) for _ in range(reps)]  # distinct states: nothing is remembered
            t = time.perf_counter()
            for one in copies:
                legal = GAME.legal_commands(one, 0)
            dt = min(dt, (time.perf_counter() - t) / reps)
        print(f"  {name:<24} store {target:>2}: {count_collections(hand, target):>16,} collections, "
              f"{len(legal):>3} commands listed in {dt * 1e6:,.0f} us")


def speed(repeats: int) -> None:
    """Gophers random playouts against OpenSpiel tic-tac-toe playouts, paired, in one process."""
    import random
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import baselines
    import open_spiel.python.games  # noqa: F401  (registers the pure-Python games)
    import pyspiel
    from harness import Budget, paired_ratio, rate

    from meeple.engine import Rng

    def gophers(matches: int = 12) -> int:  # the workload of run.py's "random playout commands/s"
        n = 0
        for seed in range(matches):
            m = Match.start(GAME, 2, seed=seed)
            pick = Rng(seed + 7919)
            while m.to_act:
                acting = m.to_act
                seat = acting[0] if acting[0] != ENGINE else acting[1]
                legal = m.legal(seat)
                m.play(seat, legal[pick.below(len(legal))])
            n += len(m)
        return n

    ttt = pyspiel.load_game("python_tic_tac_toe")
    rnd = random.Random(3)

    def tic_tac_toe() -> int:
        return len(baselines._random_actions(ttt, rnd))

    budget = Budget(repeats=repeats, min_time=0.3, matches=12, long_records=0)
    print(f"gophers random playout: {rate(gophers, budget):,.0f} commands/s; "
          f"tic-tac-toe: {rate(tic_tac_toe, budget):,.0f} actions/s")
    print(f"gophers / python_tic_tac_toe, paired over {repeats} repeats: {paired_ratio(gophers, tic_tac_toe, budget):.2f}x")


def play(n: int, seats: int, variant: str) -> None:
    """Play ``n`` heuristic-bot matches (seeds ``0..n-1``) and print how many records they made."""
    from game_figures import play_match

    factory = GAME.bots()["heuristic"]
    records = sum(len(play_match(GAME, seats, {"variant": variant}, seed, factory)) for seed in range(n))
    print(f"{n} heuristic matches, {seats} seats, {variant}: {records} records")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--play"]:
        play(int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 2, sys.argv[4] if len(sys.argv) > 4 else "standard")
        sys.exit(0)
    if sys.argv[1:2] == ["--speed"]:
        speed(int(sys.argv[2]) if len(sys.argv) > 2 else 9)
        sys.exit(0)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    legal_lists()
    ends(n)
    win_rates(n)
