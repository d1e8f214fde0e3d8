"""Many matches: ``meeple simulate GAME --games N`` and ``meeple verify DIR_OR_STORE``, on local workers or a Dask cluster."""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import contextlib
import os
import secrets
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import attrs

from ..batch import (
    DASK_CHUNK,
    Checked,
    ClusterError,
    MatchResult,
    Plan,
    check_logs,
    chunk_size_for,
    dask_executor,
    local_executor,
    run_plan,
    summarize,
    summarize_checks,
)
from ..engine import Match, get_game, read_log
from ..store import log_bytes, open_store, parse_store
from ..tournament import Report, Tournament, rate, run_tournament
from ._base import (
    EXIT_INTERRUPTED,
    EXIT_INVALID,
    EXIT_USAGE,
    CliError,
    bot_names,
    check_config,
    default_seats,
    emit,
    is_corpus,
    is_database,
    note,
    parse_options,
    parse_seed,
    read_source,
    store_sources,
    write_bytes,
)

T = TypeVar("T")


def progress(items: Iterable[T], total: int | None, unit: str) -> Iterator[T]:
    """``items``, with a progress bar on stderr when it is a terminal (tqdm); quiet otherwise."""
    if not sys.stderr.isatty():
        yield from items
        return
    from tqdm import tqdm

    try:
        known = os.get_terminal_size(sys.stderr.fileno()).columns > 0
    except OSError:
        known = False
    # a terminal that reports no size (a bare pty) gets 80 x 24, not a hidden bar
    with tqdm(total=total, unit=unit, file=sys.stderr, leave=False, dynamic_ncols=known,
              ncols=None if known else 80, nrows=None if known else 24) as bar:
        for item in items:
            yield item
            bar.update()


@attrs.frozen
class _Corpus:
    """Where a batch's logs go: a directory (one file per match) or a database store (one match id each)."""

    text: str
    directory: Path | None

    def name(self, game: str, index: int, games: int) -> str:
        width = max(5, len(str(games - 1)))
        return f"{game}-{index:0{width}d}"

    def check(self, game: str, games: int, force: bool, hide_seed: bool) -> None:
        """Refuse, before any work, a place that cannot take the logs or already holds some of them."""
        names = [self.name(game, i, games) for i in range(games)]
        d = self.directory
        if d is None:
            src = parse_store(self.text)
            if hide_seed:
                raise CliError(f"a {src.kind} store keeps the seed; write the logs to a directory to hide it")
            if src.kind == "sqlite" and not Path(src.location).parent.is_dir():
                raise CliError(f"cannot write {self.text}: no directory {Path(src.location).parent}")
            if force or (src.kind == "sqlite" and not Path(src.location).is_file()):
                return
            with contextlib.closing(open_store(self.text, readonly=True)) as store:
                taken = set(store.ids())
            clash = [n for n in names if n in taken]
            if clash:
                raise CliError(f"{self.text} holds {clash[0]} already; pass --force to replace it")
            return
        if d.exists() and not d.is_dir():
            raise CliError(f"cannot write {self.text}: it is not a directory")
        if not d.exists():
            if not d.parent.is_dir():
                raise CliError(f"cannot write {self.text}: no directory {d.parent}")
            d.mkdir()
        if not force:
            for n in names:
                p = d / f"{n}.meeple"
                if p.exists():
                    raise CliError(f"{p} exists; pass --force to overwrite")

    @contextlib.contextmanager
    def writer(self, game: str, games: int, force: bool) -> Iterator[Any]:
        """A function writing one match's log (index, bytes) here."""
        d = self.directory
        if d is None:
            with contextlib.closing(open_store(self.text)) as store:
                def add(index: int, data: bytes) -> None:
                    store.add(Match.from_bytes(data), self.name(game, index, games), replace=force)

                yield add
            return

        def write(index: int, data: bytes) -> None:
            write_bytes(d / f"{self.name(game, index, games)}.meeple", data)

        yield write


def _corpus(text: str) -> _Corpus:
    if is_database(text):
        if "#" in text:
            raise CliError("--games N writes many matches: give a directory or a store (sqlite:PATH), not #MATCH_ID")
        return _Corpus(text, None)
    return _Corpus(text, Path(text))


def _workers(args: argparse.Namespace) -> int:
    """The local worker count of ``--workers`` (1 by default); refused beside ``--scheduler``."""
    if args.workers is not None and getattr(args, "scheduler", None):
        raise CliError("--workers runs local processes and --scheduler a Dask cluster: give one of them")
    workers = 1 if args.workers is None else args.workers
    if workers < 1:
        raise CliError("--workers takes a positive number")
    return workers


@contextlib.contextmanager
def _running(executor: cf.Executor | None) -> Iterator[None]:
    """Shut ``executor`` down when the work ends: at once and cancelling what waits if interrupted, else after it."""
    try:
        yield
    except KeyboardInterrupt:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


def _executor(args: argparse.Namespace, workers: int, local: bool = True) -> tuple[cf.Executor | None, int]:
    """The executor of ``--scheduler`` or ``--workers`` (None: this process) and how many run at once on it."""
    if args.scheduler:
        try:
            cluster = dask_executor(args.scheduler)
        except ClusterError as e:
            raise CliError(str(e)) from None
        return cluster, cluster.threads
    return (local_executor(workers) if local else None), workers


def _chunk(args: argparse.Namespace, games: int, workers: int) -> int:
    """Matches per chunk: larger on a Dask cluster, where a task costs far more than on a local pool."""
    return chunk_size_for(games, workers, DASK_CHUNK if args.scheduler else 1)


def _where(args: argparse.Namespace, workers: int) -> str:
    if args.scheduler:
        return f"on the Dask cluster at {args.scheduler} ({workers} thread{'s' if workers != 1 else ''})"
    return f"on {workers} worker{'s' if workers != 1 else ''}"


def simulate_many(args: argparse.Namespace) -> int:
    """``simulate --games N``: a reproducible corpus of bot matches, its logs and its statistics."""
    if args.games < 1:
        raise CliError("--games takes a positive number")
    workers = _workers(args)
    start: bytes | None = None
    if args.from_log:
        if args.game or args.players or args.variant or args.option:
            raise CliError("--from LOG continues that match: give no game, --players, --variant or --option")
        start = read_source(args.from_log)
        log = read_log(start)
        game, seats, options = log.game, log.header.seats, dict(log.header.options)
        if log.seeds is None:
            raise CliError(f"{args.from_log} hides its seed: it can be replayed, not continued")
    else:
        if not args.game:
            raise CliError("name a game (see meeple games), or --from LOG")
        game = check_config(get_game, args.game)
        seats = default_seats(game, args.players, args.variant)
        options = check_config(parse_options, game, args.variant, args.option)
        check_config(lambda: Match.start(game, seats, seed=0, options=options))  # refuse bad options before any work
    seed = parse_seed(args.seed)
    if seed is None:
        seed = secrets.randbits(64)
    names = check_config(bot_names, game, args.bots, seats)
    plan = Plan(game=game.info.id, seats=seats, bots=names, games=args.games, seed=seed, options=options,
                rotate=args.rotate_bots, hide_seed=args.hide_seed, start=start)
    corpus = _corpus(args.out) if args.out else None
    if corpus is not None:
        corpus.check(plan.game, plan.games, args.force, args.hide_seed)
    elif args.hide_seed:
        raise CliError("--hide-seed applies to logs written with --out")
    results: list[MatchResult] = []
    executor, workers = _executor(args, workers)
    t = time.perf_counter()
    try:
        with _running(executor), contextlib.ExitStack() as stack:
            write = stack.enter_context(corpus.writer(plan.game, plan.games, args.force)) if corpus else None
            found = run_plan(plan, executor, keep_logs=write is not None,
                             chunk_size=_chunk(args, plan.games, workers) if executor else None, window=4 * workers)
            for r in progress(found, plan.games, "match"):
                if write is not None and r.log is not None:
                    write(r.index, r.log)
                results.append(attrs.evolve(r, log=None))
    except KeyboardInterrupt:
        note(f"interrupted after {len(results)} of {plan.games} matches"
             + (f"; their logs are in {corpus.text}" if corpus else ""))
        return EXIT_INTERRUPTED
    seconds = time.perf_counter() - t
    summary = summarize(results, plan, seconds)
    if args.json:
        doc = summary.to_json()
        doc.update(workers=workers, scheduler=args.scheduler, bots=list(plan.bots), rotate_bots=plan.rotate,
                   out=corpus.text if corpus else None, options=dict(options), start=args.from_log)
        emit(doc)
        return 0
    _print_summary(summary, plan, _where(args, workers), corpus.text if corpus else None)
    return 0


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def _print_summary(summary: Any, plan: Plan, where: str, out: str | None) -> None:
    s = summary
    print(f"{s.game}: {s.matches} matches of {s.seats} players in {s.seconds:.2f}s "
          f"({s.matches_per_second:.1f} matches/s {where}), corpus seed {s.seed}")
    print(f"finished {s.finished}, unfinished {s.unfinished}")
    print("win rate by seat (95% Wilson interval):")
    fixed = not plan.rotate
    for seat, r in enumerate(s.seat_rates):
        bot = f"  {plan.bots_of(0)[seat]:<12}" if fixed else ""
        print(f"  seat {seat:<3}{bot}{_pct(r.rate)}  [{_pct(r.low)}, {_pct(r.high)}]  {r.wins}/{r.n}")
    print("win rate by bot (over the seats it held):")
    for name, r in sorted(s.bot_rates.items()):
        print(f"  {name:<16}{_pct(r.rate)}  [{_pct(r.low)}, {_pct(r.high)}]  {r.wins}/{r.n}")
    for label, sp in (("commands", s.commands), ("records", s.records)):
        print(f"length in {label}: mean {sp.mean:.1f}, sd {sp.stdev:.1f}, min {sp.min:g}, median {sp.median:g}, "
              f"max {sp.max:g}")
    print("end reasons:")
    for reason, n in sorted(s.end_reasons.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {n:6}  {reason}")
    if out:
        print(f"logs in {out}")


# -- verify ---------------------------------------------------------------------------------


def _items(sources: list[str]) -> list[tuple[str, Any]]:
    items: list[tuple[str, Any]] = []
    for src in sources:
        if is_corpus(src):
            found = list(store_sources(src))
            if not found:
                raise CliError(f"no logs in {src}")
            items.extend(found)
        else:
            items.append((src, lambda src=src: log_bytes(src)))
    return items


def cmd_verify(args: argparse.Namespace) -> int:
    """Re-decide every command of each log from its seed; directories and stores verify every log in them."""
    workers = _workers(args)
    items = _items(args.files)
    order = {name: i for i, (name, _) in enumerate(items)}
    executor, workers = _executor(args, workers, local=len(items) > 1)
    found: list[Checked] = []
    t = time.perf_counter()
    try:
        with _running(executor):
            for c in progress(check_logs(items, executor, window=4 * workers), len(items), "log"):
                found.append(c)
    except KeyboardInterrupt:
        note(f"interrupted after {len(found)} of {len(items)} logs")
        return EXIT_INTERRUPTED
    seconds = time.perf_counter() - t
    found.sort(key=lambda c: order.get(c.source, 0))
    summary = summarize_checks(found, seconds)
    if args.json:
        for c in found:
            emit(c.to_json())
        emit(summary.to_json())
    else:
        for c in found:
            if c.unreadable:
                print(f"meeple: {c.source}: {c.reason}", file=sys.stderr)
            elif c.ok:
                print(f"{c.source}: ok: {c.game}, {c.records} records re-decided from the seed")
            else:
                where = ", ".join(w for w in (f"record {c.record}" if c.record is not None else "",
                                              f"byte {c.offset}" if c.offset is not None else "") if w)
                print(f"{c.source}: FAILED: {c.reason}" + (f" ({where})" if where else ""))
        if len(found) != 1:
            print(f"verified {summary.logs} logs in {seconds:.2f}s ({summary.logs_per_second:.1f} logs/s): "
                  f"ok {summary.ok}, invalid {summary.invalid}, unreadable {summary.unreadable}")
    if summary.invalid:
        return EXIT_INVALID
    return EXIT_USAGE if summary.unreadable else 0


# -- tournament ------------------------------------------------------------------------------


def cmd_tournament(args: argparse.Namespace) -> int:
    """``tournament GAME --bots A,B,...``: every pair of bots in every seating, paired by seed, rated."""
    if args.rounds < 1:
        raise CliError("--rounds takes a positive number")
    if args.resamples < 0:
        raise CliError("--resamples takes a number of 0 or more")
    workers = _workers(args)
    game = check_config(get_game, args.game)
    seats = default_seats(game, args.players, args.variant)
    options = check_config(parse_options, game, args.variant, args.option)
    check_config(lambda: Match.start(game, seats, seed=0, options=options))  # refuse bad options before any work
    specs = [n.strip() for n in args.bots.split(",")]
    if not all(specs):
        raise CliError(f"--bots takes comma-separated bot specs, not {args.bots!r}")
    names = tuple(dict.fromkeys(check_config(bot_names, game, args.bots, len(specs))))
    if len(names) < 2:
        raise CliError("a tournament needs at least two different bots in --bots")
    seed = parse_seed(args.seed)
    if seed is None:
        seed = secrets.randbits(64)
    tour = Tournament(game=game.info.id, seats=seats, bots=names, rounds=args.rounds, seed=seed, options=options)
    results: list[MatchResult] = []
    executor, workers = _executor(args, workers)
    t = time.perf_counter()
    try:
        with _running(executor):
            found = run_tournament(tour, executor, window=4 * workers,
                                   chunk_size=_chunk(args, tour.matches, workers) if executor else None)
            for r in progress(found, tour.matches, "match"):
                results.append(r)
    except KeyboardInterrupt:
        note(f"interrupted after {len(results)} of {tour.matches} matches")
        return EXIT_INTERRUPTED
    report = rate(tour, results, time.perf_counter() - t, resamples=args.resamples)
    if args.json:
        doc = report.to_json()
        doc.update(workers=workers, scheduler=args.scheduler)
        emit(doc)
        return 0
    _print_report(report, _where(args, workers))
    return 0


def _print_report(report: Report, where: str) -> None:
    t = report.tournament
    print(f"{t.game}: {report.matches} matches of {t.seats} players in {report.seconds:.2f}s ({where}), "
          f"{t.rounds} rounds, seed {t.seed}; finished {report.finished}")
    print(f"ratings (Elo scale, mean 0; 95% interval: the wider of Laplace and {report.resamples} bootstrap resamples of rounds):")
    for r in report.ratings:
        print(f"  {r.bot:<20}{r.elo:+7.0f}  [{r.low:+.0f}, {r.high:+.0f}]  {r.matches} matches")
    print("pairs (match win rate, seat win rate as a multiple of a fair share; 95% Wilson intervals):")
    for p in report.pairs:
        print(f"  {p.bots[0]} vs {p.bots[1]}: {p.matches} matches, {p.draws} drawn or shared"
              + (f", {p.unfinished} unfinished" if p.unfinished else ""))
        for b in p.bots:
            w = p.wins[b]
            print(f"    {b:<18}{_pct(w.rate)}  [{_pct(w.low)}, {_pct(w.high)}]  {w.wins}/{w.n}   "
                  f"share {p.share(b):.2f}x")
