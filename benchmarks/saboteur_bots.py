"""How often the miners reach the gold, by bot line-up (Saboteur base game, and Deluxe).

Three line-ups, each over the same seeds and player counts (3-10 base, cycled):

* ``random``: every seat plays uniformly random legal commands;
* ``heuristic miners``: seats holding a digger role play the heuristic bot,
  saboteurs play randomly;
* ``heuristic``: every seat plays the heuristic bot (saboteurs block).

A round counts as "gold" when a digger team won it. Then a mixed table
(heuristic bots at even seats, random bots at odd seats) measures how many
matches a heuristic seat wins (a tie counts for every winner). Run::

    python benchmarks/saboteur_bots.py --rounds 500 --games 200 [--edition deluxe]
    python benchmarks/saboteur_bots.py --pay-by-role 300     # Deluxe: nuggets per round by role
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import meeple
from meeple.engine import ENGINE, Command, RandomBot
from meeple.games.saboteur.bot import HeuristicBot
from meeple.games.saboteur.data import Role


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


def lineup(name: str, seat: int, seed: int) -> Any:
    """One seat's bot for a line-up."""
    s = seed * 100 + seat
    if name == "random":
        return RandomBot(s)
    if name == "heuristic miners":
        return RoleBot(HeuristicBot(s), RandomBot(s))
    return HeuristicBot(s)


def run(name: str, rounds: int, edition: str, counts: Sequence[int]) -> tuple[int, int]:
    """Play whole games until ``rounds`` rounds are done; return (gold rounds, rounds)."""
    gold = done = 0
    game = 0
    while done < rounds:
        seats = counts[game % len(counts)]
        m = meeple.Match.start("saboteur", seats, seed=10_000 + game, options={"edition": edition})
        bots = [lineup(name, s, game) for s in range(seats)]
        while not m.is_over:
            seat = next(s for s in m.to_act if s != ENGINE)
            m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
        for r in m.state.results:
            if done < rounds:
                done += 1
                gold += r.team != "saboteurs"
        game += 1
    return gold, done


def mixed(games: int, edition: str, counts: Sequence[int]) -> tuple[float, float]:
    """Heuristic bots at even seats, random at odd: (share of wins by heuristic seats, their seat share)."""
    wins = seat_share = 0.0
    for game in range(games):
        seats = counts[game % len(counts)]
        m = meeple.Match.start("saboteur", seats, seed=50_000 + game, options={"edition": edition})
        bots = [HeuristicBot(game * 100 + s) if s % 2 == 0 else RandomBot(game * 100 + s) for s in range(seats)]
        while not m.is_over:
            seat = next(s for s in m.to_act if s != ENGINE)
            m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
        out = m.outcome
        assert out is not None
        wins += sum(1 for s in out.winners if s % 2 == 0) / len(out.winners)
        seat_share += ((seats + 1) // 2) / seats
    return wins / games, seat_share / games


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
    """Print the gold-reaching rate of each line-up."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=500)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--edition", default="base", choices=("base", "deluxe"))
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
    counts = tuple(range(3, 11)) if args.edition == "base" else tuple(range(2, 13))
    print(f"saboteur {args.edition}: rounds in which a digger team reached the gold, "
          f"{args.rounds} rounds per line-up, players {counts[0]}-{counts[-1]} cycled")
    for name in ("random", "heuristic miners", "heuristic"):
        t = time.perf_counter()
        gold, done = run(name, args.rounds, args.edition, counts)
        print(f"  {name:17} {gold:4}/{done} = {100 * gold / done:5.1f}%   ({time.perf_counter() - t:.1f}s)")
    t = time.perf_counter()
    won, share = mixed(args.games, args.edition, counts)
    print(f"mixed table, {args.games} matches: heuristic seats win {100 * won:.1f}% of matches "
          f"while holding {100 * share:.1f}% of the seats   ({time.perf_counter() - t:.1f}s)")


if __name__ == "__main__":
    main()
