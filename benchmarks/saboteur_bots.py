"""How often the miners reach the gold, by bot line-up (Saboteur base game, and Deluxe).

Three line-ups, each over the same seeds and player counts (3-10 base, cycled):

* ``random``: every seat plays uniformly random legal commands;
* ``heuristic miners``: seats holding a digger role play the heuristic bot,
  saboteurs play randomly;
* ``heuristic``: every seat plays the heuristic bot (saboteurs block).

A round counts as "gold" when a digger team won it. Run::

    python benchmarks/saboteur_bots.py --rounds 500 [--edition deluxe]
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


def main() -> None:
    """Print the gold-reaching rate of each line-up."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=500)
    ap.add_argument("--edition", default="base", choices=("base", "deluxe"))
    args = ap.parse_args()
    counts = tuple(range(3, 11)) if args.edition == "base" else tuple(range(2, 13))
    print(f"saboteur {args.edition}: rounds in which a digger team reached the gold, "
          f"{args.rounds} rounds per line-up, players {counts[0]}-{counts[-1]} cycled")
    for name in ("random", "heuristic miners", "heuristic"):
        t = time.perf_counter()
        gold, done = run(name, args.rounds, args.edition, counts)
        print(f"  {name:17} {gold:4}/{done} = {100 * gold / done:5.1f}%   ({time.perf_counter() - t:.1f}s)")


if __name__ == "__main__":
    main()
