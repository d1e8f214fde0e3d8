"""Bot win rates, balance and per-mine figures for Underground Kings.

Run from the repository root::

    python benchmarks/kings_bots.py              # 200 seeds per table
    python benchmarks/kings_bots.py --seeds 1000 # the figures of docs/rules/kings.md
    python benchmarks/kings_bots.py --seeds 50 --variant discard

It prints, as Markdown tables: (1) the heuristic bot against the random bot
in 2-player matches, with the heuristic bot in each seat half of the time;
(2) heuristic self-play for 2, 3 and 4 players: how often each seat and each
people wins (a shared win counts as a fraction), the mean winning score, and
how long a match lasts (records, turns), and the wins by seat split by which
seats had a turn more than the last seat; (3) for every mine side of the card
list, in the same self-play matches: how often it was captured, how often
its owner developed it, and the mean points it brought its owner (its value
if developed, minus its value if still owned at the end), over all captures,
over those the owner took itself (the last squad was of its own people, or of
a people nobody plays, and the owner played it) and over those a rival handed
it (the seed: "рудник можно не только забрать себе, но и уступить сопернику").
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import meeple
from meeple.engine import ENGINE, RandomBot
from meeple.games.kings import GAME
from meeple.games.kings.bot import HeuristicBot
from meeple.games.kings.commands import Play, Retreat
from meeple.games.kings.data import CARDS, MINE_SIDES, PEOPLES, ROTATION
from meeple.games.kings.events import MineCaptured


def side_index(card: int) -> int:
    """The index in ``MINE_SIDES`` of the mine side printed on ``card``."""
    people, j = divmod(card, 20)
    return (j + ROTATION * people) % len(MINE_SIDES)


def play(seats: int, seed: int, bots: Sequence[Any], options: dict[str, Any] | None = None,
         taken: dict[int, bool] | None = None) -> meeple.Match:
    """Play one match to the end with one bot per seat.

    ``taken``, if given, gets for every captured mine card whether the player
    who played the last squad took it itself (True) or handed it to a rival.
    """
    m = meeple.Match.start(GAME, seats, seed=seed, options=options)
    while not m.is_over:
        seat = next(s for s in m.to_act if s != ENGINE)
        events = m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
        if taken is not None:
            for e in events:
                if isinstance(e, MineCaptured):
                    slot = m.state.mine(e.mine)
                    assert slot is not None
                    taken[slot.card] = e.owner == seat
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


@dataclass
class MineFigures:
    """Captures of one mine side and the points they brought their owners."""

    captured: int = 0
    developed: int = 0
    points: float = 0.0
    taken: int = 0
    taken_points: float = 0.0

    def add(self, value: int, developed: bool, taken: bool) -> None:
        """Count one capture, worth ``value`` to its owner if ``developed``, else minus that."""
        points = value if developed else -value
        self.captured += 1
        self.developed += developed
        self.points += points
        if taken:
            self.taken += 1
            self.taken_points += points

    def handed(self) -> tuple[int, float]:
        """Captures handed to a rival, and the points they brought."""
        return self.captured - self.taken, self.points - self.taken_points


@dataclass
class SelfPlay:
    """Heuristic self-play figures for one seat count."""

    seats: int
    matches: int = 0
    by_seat: Counter[int] = field(default_factory=Counter)
    by_people: Counter[str] = field(default_factory=Counter)
    top: float = 0.0
    records: int = 0
    turns: int = 0
    mines: list[MineFigures] = field(default_factory=lambda: [MineFigures() for _ in MINE_SIDES])
    #: matches and wins by seat, by how many turns more than the last seat each seat had
    by_turns: Counter[tuple[int, ...]] = field(default_factory=Counter)
    wins_by_turns: Counter[tuple[tuple[int, ...], int]] = field(default_factory=Counter)


def self_play(seats: int, seeds: int, options: dict[str, Any] | None = None) -> SelfPlay:
    """Heuristic self-play over ``seeds`` matches: wins, scores, lengths and every mine's figures."""
    out = SelfPlay(seats)
    for seed in range(seeds):
        taken: dict[int, bool] = {}
        m = play(seats, 10_000 + seed, [HeuristicBot(seed * 10 + s) for s in range(seats)], options, taken)
        outcome = m.outcome
        assert outcome is not None
        out.matches += 1
        for w in outcome.winners:
            out.by_seat[w] += 1 / len(outcome.winners)  # type: ignore[assignment]
            out.by_people[m.state.peoples[w].value] += 1 / len(outcome.winners)  # type: ignore[assignment]
        out.top += max(outcome.scores)
        out.records += len(m)
        turns = Counter(r.actor for r in m.records if isinstance(r.command, (Play, Retreat)))
        out.turns += sum(turns.values())
        extra = tuple(turns[s] - turns[seats - 1] for s in range(seats))
        out.by_turns[extra] += 1
        for w in outcome.winners:
            out.wins_by_turns[extra, w] += 1 / len(outcome.winners)  # type: ignore[assignment]
        st = m.state
        for dev in st.developed:
            for c in dev:
                out.mines[side_index(c)].add(CARDS[c].mine.value, True, taken[c])
        for slot in st.mines:
            if slot.owner is not None:
                out.mines[side_index(slot.card)].add(CARDS[slot.card].mine.value, False, taken[slot.card])
    return out


def _mean(total: float, n: int) -> str:
    return f"{total / n:+.2f}" if n else "-"


def print_balance(runs: Sequence[SelfPlay]) -> None:
    """The wins by seat and by people, scores and lengths, one row per seat count."""
    print("| players | wins by seat (fair share) | wins by people (fair 25%) | mean winning score | "
          "mean records | mean turns |")
    print("|---|---|---|---:|---:|---:|")
    for r in runs:
        n = r.matches
        seats = ", ".join(f"{r.by_seat[s] / n:.1%}" for s in range(r.seats))
        peoples = ", ".join(f"{p.value} {r.by_people[p.value] / n:.1%}" for p in PEOPLES)
        print(f"| {r.seats} | {seats} ({1 / r.seats:.1%}) | {peoples} | {r.top / n:.1f} | {r.records / n:.0f} | "
              f"{r.turns / n:.1f} |")


def print_last_turns(runs: Sequence[SelfPlay]) -> None:
    """Wins by seat, by which seats had one turn more than the last seat (the round is not finished)."""
    print("| players | seats with one turn more than the last seat | share of matches | wins by seat |")
    print("|---|---|---:|---|")
    for r in runs:
        for extra in sorted(r.by_turns):
            n = r.by_turns[extra]
            more = ", ".join(str(s) for s, e in enumerate(extra) if e) or "none"
            wins = ", ".join(f"{r.wins_by_turns[extra, s] / n:.1%}" for s in range(r.seats))
            print(f"| {r.seats} | {more} | {n / r.matches:.1%} | {wins} |")


def print_mines(runs: Sequence[SelfPlay]) -> None:
    """Per mine side: captures, share developed, mean points for the owner (all, taken, handed)."""
    head = " | ".join(f"{r.seats}p captured, developed, points (taken / handed)" for r in runs)
    print(f"| # | mine side | {head} |")
    print("|---|---|" + "---|" * len(runs))
    worst = float("inf")
    for i, mine in enumerate(MINE_SIDES):
        cells = []
        for r in runs:
            f = r.mines[i]
            handed, handed_points = f.handed()
            if f.captured:
                worst = min(worst, f.points / f.captured)
            cells.append(f"{f.captured}, {f.developed / max(f.captured, 1):.0%}, **{_mean(f.points, f.captured)}** "
                         f"({_mean(f.taken_points, f.taken)} / {_mean(handed_points, handed)})")
        print(f"| {i} | {mine.label()} | " + " | ".join(cells) + " |")
    print(f"\nlowest mean points for an owner: {worst:+.2f}")


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--variant", default="standard")
    args = parser.parse_args()
    options = GAME.variant_options(args.variant)
    n = args.seeds
    print(f"variant {args.variant}, {n} seeds per table\n")
    print(f"heuristic vs random, 2 players: heuristic wins {heuristic_vs_random(n, options):.1%}\n")
    runs = [self_play(seats, n, options) for seats in (2, 3, 4)]
    print_balance(runs)
    print()
    print_last_turns(runs)
    print()
    print_mines(runs)


if __name__ == "__main__":
    main()
