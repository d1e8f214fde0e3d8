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
    python benchmarks/hotspots.py heuristic --game saboteur --split --src /elsewhere/src

``--split`` prints, instead of a profile, where a heuristic match's CPU time
goes: the seat's view, the legal commands, the bot's ``choose``, ``play``.
``--src`` measures another source tree's meeple (another commit's, say).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = Path(sys.argv[sys.argv.index("--src") + 1]).resolve() if "--src" in sys.argv[1:-1] else HERE.parent / "src"
for p in (HERE, HERE.parent / "examples", SRC):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import game_figures  # noqa: E402

import meeple  # noqa: E402
from meeple.engine import ENGINE, Match, RandomBot, Rng  # noqa: E402

PHASES = ("view", "legal", "choose", "play")


def split(gid: str, matches: int, seats: int | None, variant: str | None) -> dict[str, float]:
    """CPU seconds per phase of whole heuristic-bot matches: the view, the legal commands, the bot's choice, the play."""
    game = meeple.get_game(gid)
    options = game.variant_options(variant or game.info.variants[0])
    if seats is None:
        from run import playable_seats

        seats = playable_seats(game, options)[0]
    factory = game.bots()["heuristic"]
    clock = time.process_time
    spent = dict.fromkeys(PHASES, 0.0)
    for seed in range(matches):  # as game_figures.play_match, with a clock between the steps
        m = Match.start(game, seats, seed=seed, options=options)
        bots = [factory(seed * 16 + s) for s in range(seats)]
        while acting := [s for s in m.to_act if s != ENGINE]:
            seat = acting[0]
            t0 = clock()
            view = m.view(seat)
            t1 = clock()
            legal = m.legal(seat)
            t2 = clock()
            cmd = bots[seat].choose(view, legal, seat)
            t3 = clock()
            m.play(seat, cmd)
            t4 = clock()
            for phase, t in zip(PHASES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
                spent[phase] += t
    return spent


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
        factory = game_figures.bot_factories(game).get("heuristic")
        if factory is None:
            raise SystemExit(f"{gid} has no heuristic bot")
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
    ap.add_argument("--split", action="store_true", help="heuristic: where the time goes, instead of a profile")
    ap.add_argument("--src", help="the src directory of the meeple to measure (default: this checkout's)")
    ap.add_argument("--sort", default="tottime", help="a pstats sort key (tottime, cumulative, ncalls)")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args(argv)
    if args.split:
        if args.op != "heuristic":
            ap.error("--split goes with the heuristic operation")
        spent = split(args.game, args.matches, args.seats, args.variant)
        total = sum(spent.values())
        print(f"{total / args.matches * 1000:.1f} ms CPU per match: "
              + ", ".join(f"{phase} {t / total:.0%}" for phase, t in spent.items()))
        return 0
    fn = workload(args.op, args.game, args.matches, args.repeat, args.seats, args.variant)
    prof = cProfile.Profile()
    prof.runcall(fn)
    pstats.Stats(prof).sort_stats(args.sort).print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
