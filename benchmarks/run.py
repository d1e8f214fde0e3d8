"""The benchmark suite: every game, the example game, and the alternatives, in one run.

    python benchmarks/run.py            # a few minutes
    python benchmarks/run.py --quick    # under a minute
    nox -s bench -- --quick
    python benchmarks/run.py --quick --src /elsewhere/src   # measure another source tree's meeple

Prints one JSON line per figure as it is measured (``{"name", "subject",
"seats", "value", "unit", "note"}``), then a readable table and the goals of
the performance issue, each as a ratio of two figures of this same run. Every
figure is the median of several repeats. Games are found with
``meeple.available()`` (plus the example game, ``examples/liars_dice.py``); a
game that fails to import or errors is skipped with the reason printed.
``docs/performance.md`` explains every figure.
"""

from __future__ import annotations

import argparse
import gc
import platform
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def source_tree(argv: Sequence[str]) -> Path:
    """The ``src`` directory whose meeple is measured: ``--src PATH``, else this checkout's.

    Read from the command line before meeple is imported, so that the same
    benchmark code can measure another version of the library
    (``compare.py --base COMMIT`` runs it on a checkout of that commit).
    """
    for i, arg in enumerate(argv):
        if arg == "--src" and i + 1 < len(argv):
            return Path(argv[i + 1]).resolve()
        if arg.startswith("--src="):
            return Path(arg.partition("=")[2]).resolve()
    return ROOT / "src"


SRC = source_tree(sys.argv[1:])
for p in (HERE, SRC.parent / "examples", SRC):
    if str(p) in sys.path:
        sys.path.remove(str(p))
    sys.path.insert(0, str(p))

import baselines  # noqa: E402
import game_figures  # noqa: E402
from harness import FULL, QUICK, Budget, Figure, Report, paired_ratio  # noqa: E402

import meeple  # noqa: E402


def game_ids(only: Sequence[str] | None) -> list[str]:
    """Every game to benchmark: ``meeple.available()`` plus the example game."""
    try:
        import liars_dice  # noqa: F401  (registers the example game)
    except Exception as e:  # pragma: no cover - a broken checkout
        print(f"# the example game does not import: {e}", file=sys.stderr)
    if only:
        return list(only)  # an unknown id is reported as skipped, with the known ones
    return [g for g in meeple.available() if not g.startswith("bench-")]


def bench_game(report: Report, gid: str, budget: Budget) -> dict[str, Any]:
    """Every figure of one game; raises if the game cannot be loaded or played."""
    game = meeple.get_game(gid)
    info = game.info
    base = game.variant_options(info.variants[0])
    seats_range = playable_seats(game, base)
    if not seats_range:
        raise meeple.ConfigError(f"no seat count in {info.min_seats}..{info.max_seats} accepts the {info.variants[0]} options")
    ref = seats_range[0]
    bots = game_figures.bot_factories(game)
    game_figures.play_match(game, ref, base, 0, bots["random"])  # smoke test: a game that cannot play is skipped
    for seats in seats_range:
        for name, factory in bots.items():
            game_figures.match_rate(report, game, seats, base, name, factory, budget)
    for variant in info.variants[1:]:
        opts = game.variant_options(variant)
        vseats = playable_seats(game, opts)
        if not vseats:
            report.note(f"variant {variant}", gid, "no seat count accepts its options")
            continue
        for name, factory in bots.items():
            game_figures.match_rate(report, game, vseats[0], opts, name, factory, budget, label=f", variant {variant}")
    corpus = game_figures.Corpus(game, ref, base, budget.matches)
    game_figures.rule_figures(report, corpus, budget)
    game_figures.search_figures(report, corpus, budget)
    replay_rate, replay_records, verify_rate = game_figures.log_figures(report, corpus, budget)
    cursor = game_figures.cursor_figures(report, corpus.longest, budget, " (the longest corpus match)")
    return {"replay": replay_rate, "replay_records": replay_records, "verify": verify_rate, **cursor}


def playable_seats(game: meeple.Game[Any, Any], options: dict[str, Any]) -> list[int]:
    """The seat counts whose options validate (a variant may narrow the game's range)."""
    out = []
    for seats in range(game.info.min_seats, game.info.max_seats + 1):
        try:
            meeple.Match.start(game, seats, seed=0, options=options)
        except meeple.ConfigError:
            continue
        out.append(seats)
    return out


def bench_marathon(report: Report, budget: Budget) -> dict[str, Any]:
    """The engine on one long match: undo, redo, seek at record 10,000; replay and verify of its log."""
    import marathon

    game = marathon.GAME
    m = game_figures.play_match(game, 2, {"length": budget.long_records}, 0, lambda s: meeple.RandomBot(s))
    cursor = game_figures.cursor_figures(report, m, budget, "")
    corpus = game_figures.Corpus.__new__(game_figures.Corpus)
    corpus.game, corpus.seats, corpus.options, corpus.matches = game, 2, {"length": budget.long_records}, [m]
    corpus.logs = [m.to_bytes()]
    corpus.records = len(m)
    corpus.events = sum(len(r.events) for r in m.records)
    replay_rate, replay_records, verify_rate = game_figures.log_figures(report, corpus, budget)
    return {"replay": replay_rate, "replay_records": replay_records, "verify": verify_rate, "records": len(m), **cursor}


def goal(report: Report, name: str, value: float | None, target: str, ok: bool | None, unit: str = "×") -> None:
    """Add one goal of the issue as a ratio (or a latency) with whether it is met."""
    if value is None:
        report.note(name, "goal", f"target {target}: not measured (a comparison is not installed)")
        return
    verdict = "met" if ok else ("MISSED" if ok is not None else "reported")
    report.add(Figure(name, "goal", value, unit, note=f"target {target}: {verdict}"))


def goals(report: Report, results: dict[str, Any], budget: Budget) -> None:
    """The goals of the performance issue, each a ratio of two workloads timed back to back in this run."""

    def ratio(a: tuple[str, str], b: tuple[str, str], scale: float = 1.0) -> float | None:
        wa, wb = report.works.get(a), report.works.get(b)
        return None if wa is None or wb is None else paired_ratio(wa, wb, budget, scale)

    def at_least(name: str, value: float | None, target: float) -> None:
        goal(report, name, value, f">= {target:.2g}", None if value is None else value >= target)

    for gid in ("liars-dice", "bench-marathon"):
        r = results.get(gid)
        if r is None:
            continue
        label = "liars-dice logs" if gid == "liars-dice" else f"a {r['records']:,}-record log"
        at_least(f"replay / eventsourcing rebuild, events/s ({label})", ratio((gid, "replay"), ("eventsourcing", "rebuild")), 5)
        at_least(f"replay / floor, events/s ({label})", ratio((gid, "replay"), ("floor", "floor")), 0.5)
        events_per_record = r["replay"] / r["replay_records"]
        at_least(f"verify / replay, records/s ({label})", ratio((gid, "verify"), (gid, "replay"), events_per_record), 1 / 3)
    pure = [n for n in baselines.PYTHON_GAMES if (n, "apply") in report.works]
    if ("liars-dice", "apply") in report.works:
        if not pure:
            goal(report, "liars-dice / openspiel pure-Python games", None, ">= 1", None)
        for name in pure:
            at_least(f"liars-dice decide+evolve / openspiel {name} apply_action", ratio(("liars-dice", "apply"), (name, "apply")), 1)
            at_least(f"liars-dice random playout / openspiel {name} random playout",
                     ratio(("liars-dice", "playout"), (name, "playout")), 1)
        goal(report, "liars-dice decide+evolve / openspiel liars_dice (C++) apply_action",
             ratio(("liars-dice", "apply"), ("liars_dice", "apply")), "reported (the gap to C++)", None)
        goal(report, "liars-dice random playout / openspiel liars_dice (C++) random playout",
             ratio(("liars-dice", "playout"), ("liars_dice", "playout")), "reported (the gap to C++)", None)
    mar = results.get("bench-marathon")
    if mar is not None:
        for op, name in (("undo", "undo"), ("redo", "redo"), ("undo_cold", "undo (cold)"), ("redo_cold", "redo (cold)"),
                         ("seek", "seek (worst case)")):
            goal(report, f"{name} latency at record {mar['records']:,}", mar[op] * 1e3, "< 1 ms", mar[op] < 1e-3, unit="ms")
        for gid in ("liars-dice", "bench-marathon"):
            f = report.find("log bytes/record", gid)
            if f is not None and f.value is not None:
                goal(report, f"log bytes/record ({gid})", f.value, "reported, small", None, unit="bytes")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the suite; return the exit status (0 even when a game was skipped)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a short run (under a minute)")
    ap.add_argument("--games", help="comma-separated game ids (default: every available game)")
    ap.add_argument("--no-baselines", action="store_true", help="skip the floor, eventsourcing and OpenSpiel")
    ap.add_argument("--no-long", action="store_true", help="skip the long match (undo, redo, seek at record 10,000)")
    ap.add_argument("--repeats", type=int, help="repeats per figure (the median is reported)")
    ap.add_argument("--min-time", type=float, help="seconds per repeat")
    ap.add_argument("--matches", type=int, help="matches per corpus")
    ap.add_argument("--long-records", type=int, help="records of the long match (default 10,000)")
    ap.add_argument("--bot-matches", type=int, help="matches (seeds) per timed batch of a bot's matches/s")
    ap.add_argument("--src", help="the src directory of the meeple to measure (default: this checkout's)")
    args = ap.parse_args(argv)
    if args.src is not None and Path(args.src).resolve() != Path(meeple.__file__).resolve().parents[1]:
        ap.error(f"--src must be given on the command line (meeple is already imported from {meeple.__file__})")
    budget = QUICK if args.quick else FULL
    budget = Budget(
        repeats=args.repeats or budget.repeats,
        min_time=args.min_time if args.min_time is not None else budget.min_time,
        matches=args.matches or budget.matches,
        long_records=args.long_records or budget.long_records,
        bot_matches=args.bot_matches or budget.bot_matches,
    )
    started = time.perf_counter()
    report = Report()
    print(f"# meeple {meeple.__version__} from {Path(meeple.__file__).parent} benchmarks on Python "
          f"{platform.python_version()} ({platform.machine()}), {'quick' if args.quick else 'full'} run: {budget}",
          flush=True)
    results: dict[str, Any] = {}
    if not args.no_baselines:
        results["floor"] = baselines.floor(report, budget)
        results["eventsourcing"] = baselines.eventsourcing_rebuild(report, budget)
        results["openspiel"] = baselines.openspiel(report, budget)
    only = args.games.split(",") if args.games else None
    for gid in game_ids(only):
        t0 = time.perf_counter()
        try:
            results[gid] = bench_game(report, gid, budget)
        except Exception as e:
            reason = f"skipped: {type(e).__name__}: {e}"
            print(f"# {gid} {reason}", file=sys.stderr)
            traceback.print_exc(limit=3, file=sys.stderr)
            report.note("skipped", gid, reason)
        else:
            print(f"# {gid}: {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
        if gid != "liars-dice":  # only the example game's workloads take part in the goals
            for key in [k for k in report.works if k[0] == gid]:
                del report.works[key]  # let the corpus go: a big heap slows every later figure
        gc.collect()
    if not args.no_long:
        results["bench-marathon"] = bench_marathon(report, budget)
    goals(report, results, budget)
    print()
    print(report.table())
    print(f"\n# {len(report.figures)} figures in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
