"""Seat balance: how often each seat wins heuristic self-play, under each end option, with 95 % intervals.

Run from the repository root (or ``nox -s seat_balance -- ARGS``)::

    python benchmarks/seat_balance.py                    # 1,000 matches per row, every configuration
    python benchmarks/seat_balance.py --matches 200 --game kings
    python benchmarks/seat_balance.py --only gophers:standard:4 kings:3

For every configuration (a game, its rule set and a seat count) it plays the
same seeds ``0..N-1`` with the game's heuristic bot in every seat, once with
each value of the game's ``end`` option, and prints a Markdown table: per
seat the share of wins with its Wilson 95 % interval. A shared win (several
winners) counts as ``1/k`` of a win for each of the ``k`` winners, so the
shares of a row add up to 100 %; the column "shared" gives how many matches
ended in a shared win. The fair share is ``1/seats``.

Gophers' ``end``: ``turn`` (the seed read literally: the game ends at the end
of the turn in which its end condition holds) or ``round`` (the end is
checked only after the last seat's turn). Kings' ``end``: ``card`` (the game
ends as soon as the last card leaves the deck) or ``round`` (the players
after the one who took it play one more squad each).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import meeple
from meeple.batch import wilson
from meeple.engine import ENGINE, Game

#: (game id, rule set, seat counts, the end option's values: the literal reading first)
CONFIGS: tuple[tuple[str, str, tuple[int, ...], tuple[str, ...]], ...] = (
    ("gophers", "standard", (2, 3, 4), ("turn", "round")),
    ("gophers", "simplified", (2, 3, 4), ("turn", "round")),
    ("gophers", "advanced", (2, 3, 4), ("turn", "round")),
    ("gophers", "beginner", (2, 3, 4), ("turn", "round")),
    ("kings", "standard", (2, 3, 4), ("card", "round")),
)


def play(game: Game[Any, Any], seats: int, options: dict[str, Any], seed: int) -> meeple.Outcome:
    """One heuristic self-play match (bot seeds ``seed * 16 + seat``, as ``game_figures.play_match``)."""
    factory = game.bots()["heuristic"]
    bots = [factory(seed * 16 + s) for s in range(seats)]
    m = meeple.Match.start(game, seats, seed=seed, options=options)
    while not m.is_over:
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    assert m.outcome is not None
    return m.outcome


def row(game: Game[Any, Any], variant: str, seats: int, end: str, matches: int) -> str:
    """One Markdown row: each seat's share of wins [95 % interval], the shared wins, the seconds taken."""
    options = {**game.variant_options(variant), "end": end}
    wins = [0.0] * seats
    shared = 0
    start = time.perf_counter()
    for seed in range(matches):
        out = play(game, seats, options, seed)
        if len(out.winners) > 1:
            shared += 1
        for w in out.winners:
            wins[w] += 1 / len(out.winners)
    cells = []
    for w in wins:
        low, high = wilson(w, matches)  # type: ignore[arg-type]  # a shared win is a fraction
        cells.append(f"{w / matches:.1%} [{low:.1%}, {high:.1%}]")
    cells += ["-"] * (4 - seats)
    return (f"| {game.info.id} | {variant} | {seats} | {end} | " + " | ".join(cells)
            + f" | {shared} | {1 / seats:.1%} |   <!-- {time.perf_counter() - start:.0f}s -->")


def main(argv: Sequence[str] | None = None) -> None:
    """Print the table for the chosen configurations."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=1000, help="matches per row (default 1000)")
    ap.add_argument("--game", choices=sorted({c[0] for c in CONFIGS}), help="only this game")
    ap.add_argument("--only", nargs="*", default=(), metavar="GAME:VARIANT:SEATS",
                    help="only these rows, e.g. gophers:standard:4 (variant and seats may be left out)")
    args = ap.parse_args(argv)
    print(f"heuristic self-play, {args.matches} matches per row (seeds 0..{args.matches - 1}); "
          "a shared win counts 1/k for each of its k winners")
    print()
    print("| game | rules | seats | end | seat 0 | seat 1 | seat 2 | seat 3 | shared | fair |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for gid, variant, seat_counts, ends in CONFIGS:
        if args.game and gid != args.game:
            continue
        game = meeple.get_game(gid)
        for seats in seat_counts:
            if args.only and not any(_matches(o, gid, variant, seats) for o in args.only):
                continue
            for end in ends:
                print(row(game, variant, seats, end, args.matches), flush=True)


def _matches(spec: str, gid: str, variant: str, seats: int) -> bool:
    parts = spec.split(":")
    if parts[0] != gid:
        return False
    rest = parts[1:]
    if rest and rest[-1].isdigit() and int(rest.pop()) != seats:
        return False
    return not rest or rest[0] in (variant, "")


if __name__ == "__main__":
    main()
