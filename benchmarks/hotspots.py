"""Profile one engine operation on one game with cProfile, to find the hot spots.

    python benchmarks/hotspots.py replay --game liars-dice
    python benchmarks/hotspots.py verify --game kings --matches 20
    python benchmarks/hotspots.py undo              # the long benchmark match
    python benchmarks/hotspots.py play --sort cumulative --top 40

Operations: ``replay`` (``meeple.replay`` of saved logs), ``load``
(``Match.from_bytes``), ``verify``, ``play`` (the recorded commands again
through ``Match.play``), ``playout`` (random playouts: legal, pick, play),
``heuristic`` (whole matches with the game's ``heuristic`` bot in every seat,
as ``run.py`` times them; ``--variant`` picks the options) and ``undo``
(undo/redo/seek on a long match, without the cache of recent states). The
corpus is random-bot matches, as in ``run.py``.

    python benchmarks/hotspots.py heuristic --game saboteur --seats 10 --matches 20 --repeat 1
    python benchmarks/hotspots.py heuristic --game saboteur --seats 2 --variant deluxe
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
for p in (HERE, HERE.parent / "examples", HERE.parent / "src"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import game_figures  # noqa: E402

import meeple  # noqa: E402
from meeple.engine import ENGINE, Match, RandomBot, Rng  # noqa: E402


def workload(op: str, gid: str, matches: int, repeat: int, seats: int | None = None,
             variant: str | None = None) -> Callable[[], None]:
    """The function to profile."""
    if op == "undo":
        import marathon

        m = game_figures.play_match(marathon.GAME, 2, {"length": 10_000}, 0, lambda s: RandomBot(s))

        def undo() -> None:
            for i in range(repeat * 100):
                getattr(m, "_recent", {}).clear()
                m.undo()
                m.redo()
                m.seek(len(m) - 1 - i % 64)
                m.seek(len(m._records))

        return undo
    import liars_dice  # noqa: F401  (registers the example game)

    game = meeple.get_game(gid)
    options = game.variant_options(variant or game.info.variants[0])
    if seats is None:  # the seat count run.py measures: the fewest the variant accepts
        from run import playable_seats

        seats = playable_seats(game, options)[0]
    if op == "heuristic":
        factory = game.bots()["heuristic"]
        n = seats

        def heuristic() -> None:
            for seed in range(matches * repeat):
                game_figures.play_match(game, n, options, seed, factory)

        return heuristic
    corpus = game_figures.Corpus(game, seats, options, matches)
    logs = corpus.logs
    readers: dict[str, Callable[[bytes], object]] = {
        "replay": lambda d: sum(1 for _ in meeple.replay(d)),
        "load": Match.from_bytes,
        "verify": meeple.verify,
    }
    if op in readers:
        read = readers[op]
        for d in logs[:1]:
            read(d)  # build the codec's hooks before profiling

        def reading() -> None:
            for _ in range(repeat):
                for d in logs:
                    read(d)

        return reading
    if op == "play":
        moves = [[(r.actor, r.command) for r in m.records if r.actor != ENGINE] for m in corpus.matches]

        def play() -> None:
            for _ in range(repeat):
                for seed, mv in enumerate(moves):
                    again = Match.start(game, seats, seed=seed)
                    for seat, cmd in mv:
                        again.play(seat, cmd)

        return play
    if op == "playout":

        def playout() -> None:
            for seed in range(matches * repeat):
                m = Match.start(game, seats, seed=seed)
                pick = Rng(seed + 1)
                while m.to_act:
                    seat = next(s for s in m.to_act if s != ENGINE)
                    legal = m.legal(seat)
                    m.play(seat, legal[pick.below(len(legal))])

        return playout
    raise SystemExit(f"unknown operation {op!r}")


def main(argv: Sequence[str] | None = None) -> int:
    """Profile the chosen operation and print the top functions."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("op", choices=["replay", "load", "verify", "play", "playout", "heuristic", "undo"])
    ap.add_argument("--game", default="liars-dice")
    ap.add_argument("--matches", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seats", type=int, default=None, help="default: the fewest seats the game's first variant accepts")
    ap.add_argument("--variant", default=None, help="default: the game's first variant")
    ap.add_argument("--sort", default="tottime", help="a pstats sort key (tottime, cumulative, ncalls)")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args(argv)
    fn = workload(args.op, args.game, args.matches, args.repeat, args.seats, args.variant)
    prof = cProfile.Profile()
    prof.runcall(fn)
    pstats.Stats(prof).sort_stats(args.sort).print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
