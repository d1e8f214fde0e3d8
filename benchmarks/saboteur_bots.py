"""How well Saboteur's bots play: who reaches the gold, who wins, with 95% confidence intervals.

    python benchmarks/saboteur_bots.py --rounds 500 --games 200 [--edition deluxe]
    python benchmarks/saboteur_bots.py --pay-by-role 300     # Deluxe: nuggets per round by role

Line-ups, each over the same seeds and player counts (3-10 base, 2-12
Deluxe, cycled), counting the rounds in which a digger team reached the gold:

* ``random``: every seat plays uniformly random legal commands;
* ``heuristic miners``: seats holding a digger role play the heuristic bot,
  saboteurs play randomly;
* ``heuristic``: every seat plays the heuristic bot (saboteurs block);
* ``diggers X, saboteurs Y``: diggers play the heuristic bot with its memory
  of who did what (``memory``) or without it (``no memory``, the bot before
  it had one), saboteurs likewise: where the memory helps.

Then two mixed tables, alternating seats (A at even seats, B at odd): the
heuristic bot against random bots, and the heuristic bot with its memory
against the one without. "Share of wins": A's part of each match's win (a
shared win split evenly), averaged over the matches, next to A's share of
the seats. Intervals: Wilson's for a proportion of rounds; the mean over
matches plus or minus 1.96 standard errors for shares.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import meeple
from meeple.engine import ENGINE, Command, RandomBot
from meeple.games.saboteur.bot import HeuristicBot
from meeple.games.saboteur.data import Role

Factory = Callable[[int], Any]


class RoleBot:
    """Plays ``saboteur`` when its view's role is a saboteur, else ``digger``."""

    def __init__(self, digger: Any, saboteur: Any) -> None:
        self.digger = digger
        self.saboteur = saboteur

    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        """Delegate by role."""
        bot = self.saboteur if getattr(view, "role", None) is Role.SABOTEUR else self.digger
        choice: Command = bot.choose(view, legal, seat)
        return choice


def memory(seed: int) -> HeuristicBot:
    """The heuristic bot with its memory of who did what."""
    return HeuristicBot(seed)


def no_memory(seed: int) -> HeuristicBot:
    """The heuristic bot without it."""
    return HeuristicBot(seed, suspicion=False)


LINEUPS: dict[str, Factory] = {
    "random": lambda s: RandomBot(s),
    "heuristic miners": lambda s: RoleBot(HeuristicBot(s), RandomBot(s)),
    "heuristic": memory,
    "diggers no memory, saboteurs no memory": no_memory,
    "diggers memory, saboteurs no memory": lambda s: RoleBot(memory(s), no_memory(s)),
    "diggers no memory, saboteurs memory": lambda s: RoleBot(no_memory(s), memory(s)),
}


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95% interval for a proportion ``hits / n``."""
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(seats: int, edition: str, seed: int, bots: Sequence[Any]) -> meeple.Match:
    """A whole match, each seat played by its bot from its view."""
    m = meeple.Match.start("saboteur", seats, seed=seed, options={"edition": edition})
    while not m.is_over:
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    return m


def gold_rounds(factory: Factory, rounds: int, edition: str, counts: Sequence[int]) -> tuple[int, int]:
    """Play whole games until ``rounds`` rounds are done; return (rounds a digger team won, rounds)."""
    gold = done = game = 0
    while done < rounds:
        seats = counts[game % len(counts)]
        m = play(seats, edition, 10_000 + game, [factory(game * 100 + s) for s in range(seats)])
        for r in m.state.results:
            if done < rounds:
                done += 1
                gold += r.team != "saboteurs"
        game += 1
    return gold, done


def mixed(a: Factory, b: Factory, games: int, edition: str, counts: Sequence[int]) -> tuple[list[float], list[float]]:
    """A at even seats, B at odd: per match, A's share of the win and A's share of the seats."""
    wins, seats_share = [], []
    for game in range(games):
        seats = counts[game % len(counts)]
        bots = [(a if s % 2 == 0 else b)(game * 100 + s) for s in range(seats)]
        out = play(seats, edition, 50_000 + game, bots).outcome
        assert out is not None
        wins.append(sum(1 for s in out.winners if s % 2 == 0) / len(out.winners))
        seats_share.append(((seats + 1) // 2) / seats)
    return wins, seats_share


def mean_interval(xs: Sequence[float]) -> tuple[float, float]:
    """The mean of ``xs`` and half its 95% interval (1.96 standard errors)."""
    return statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def pay_by_role(games: int, geologists: str) -> dict[str, float]:
    """Deluxe, heuristic bots: mean nuggets a player of each role gets in a round (shares, crystals, thefts)."""
    from meeple.games.saboteur.events import GoldPaid, RoundEnded, Stolen

    total: dict[str, float] = {}
    count: dict[str, int] = {}
    for game in range(games):
        seats = 2 + game % 11
        m = meeple.Match.start("saboteur", seats, seed=70_000 + game,
                               options={"edition": "deluxe", "geologists": geologists})
        bots = [HeuristicBot(game * 100 + s) for s in range(seats)]
        while not m.is_over:
            seat = next(s for s in m.to_act if s != ENGINE)
            m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
        rounds: list[tuple[tuple[Role, ...], list[int]]] = []
        for rec in m.records:
            for e in rec.events:
                if isinstance(e, RoundEnded):
                    rounds.append((e.roles, [0] * seats))
                elif isinstance(e, GoldPaid) and e.amount is not None:
                    rounds[-1][1][e.seat] += e.amount
                elif isinstance(e, Stolen):
                    rounds[-1][1][e.seat] += 1
                    rounds[-1][1][e.target] -= 1
        for roles, paid in rounds:
            for s, r in enumerate(roles):
                total[r.value] = total.get(r.value, 0) + paid[s]
                count[r.value] = count.get(r.value, 0) + 1
    return {r: total[r] / count[r] for r in sorted(count)}


def main() -> None:
    """Print the line-ups' gold rates and the mixed tables' shares of wins, with intervals."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=500, help="rounds per line-up")
    ap.add_argument("--games", type=int, default=200, help="matches per mixed table")
    ap.add_argument("--edition", default="base", choices=("base", "deluxe"))
    ap.add_argument("--only", help="comma-separated parts: lineups, mixed")
    ap.add_argument("--pay-by-role", type=int, metavar="N",
                    help="Deluxe only: mean nuggets per round by role over N matches, for both geologist readings")
    args = ap.parse_args()
    if args.pay_by_role:
        print(f"saboteur deluxe, heuristic bots, {args.pay_by_role} matches (2-12 players cycled): "
              "mean nuggets a player of each role gets in a round")
        for geologists in ("split", "each"):
            figures = pay_by_role(args.pay_by_role, geologists)
            print(f"  geologists={geologists:5} " + "  ".join(f"{r} {v:.2f}" for r, v in figures.items()))
        return
    parts = set(args.only.split(",")) if args.only else {"lineups", "mixed"}
    counts = tuple(range(3, 11)) if args.edition == "base" else tuple(range(2, 13))
    if "lineups" in parts:
        print(f"saboteur {args.edition}: rounds in which a digger team reached the gold, "
              f"{args.rounds} rounds per line-up, players {counts[0]}-{counts[-1]} cycled")
        for name, factory in LINEUPS.items():
            t = time.perf_counter()
            gold, done = gold_rounds(factory, args.rounds, args.edition, counts)
            lo, hi = wilson(gold, done)
            print(f"  {name:40} {gold:4}/{done} = {100 * gold / done:5.1f}%  "
                  f"[{100 * lo:4.1f}, {100 * hi:4.1f}]   ({time.perf_counter() - t:.1f}s)")
    if "mixed" in parts:
        for title, a, b in (("heuristic vs random", memory, lambda s: RandomBot(s)),
                            ("heuristic with memory vs without", memory, no_memory)):
            t = time.perf_counter()
            wins, share = mixed(a, b, args.games, args.edition, counts)
            m, half = mean_interval(wins)
            print(f"mixed table, {title}, {args.games} matches: the first bot's share of wins "
                  f"{100 * m:.1f}% +- {100 * half:.1f} while holding {100 * statistics.fmean(share):.1f}% "
                  f"of the seats   ({time.perf_counter() - t:.1f}s)")


if __name__ == "__main__":
    main()
