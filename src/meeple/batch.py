"""Many matches at once: reproducible corpora of bot matches, whole corpora verified, and their statistics.

A :class:`Plan` names a corpus: a game, seats, options, the bots by seat, how
many matches and one corpus seed. Match ``i`` draws its seed from
:func:`match_seed` and its bots' seeds from :func:`bot_seed`, so the same
plan gives the same logs, byte for byte, however it is run: in this process,
on a local process pool, or on any executor with the
:class:`concurrent.futures.Executor` interface (``submit``), such as a Dask
distributed cluster (:func:`dask_executor`). Results come back as matches
finish, in any order, each with its index.

>>> plan = Plan(game="kings", seats=2, bots=("random",), games=3, seed=7)
>>> results = sorted(run_plan(plan), key=lambda r: r.index)
>>> [r.index for r in results], results[0].seed == match_seed(7, 0)
([0, 1, 2], True)
>>> summary = summarize(results, plan, seconds=1.0)
>>> summary.matches, sum(s.wins for s in summary.seat_rates) >= summary.finished
(3, True)

Statistics (:func:`summarize`): win rates with 95 % Wilson score intervals
(:func:`wilson`), per seat over finished matches and per bot over the seats
it held in finished matches; match length in player commands and in records
(mean, sample standard deviation, min, median, max); end reasons, counted by
the outcome's reason up to its first ``;`` with every number written ``N``.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import math
import re
import signal
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import attrs

from ._version import __version__
from .catalog import bot_factory
from .engine import ENGINE, Match, get_game, read_log
from .engine.errors import CorruptLog, LogError, MeepleError, TruncatedLog
from .engine.reader import verify_loaded

T = TypeVar("T")
R = TypeVar("R")

#: The z value of a two-sided 95 % interval.
Z95 = 1.959963984540054
#: Commands a batch match may last before it is stopped as unfinished.
MAX_COMMANDS = 100_000
#: The fewest matches a chunk for a Dask cluster holds (when there are enough): a Dask task costs about 15 ms
#: of CPU (worker, scheduler and client together; ``benchmarks/dask_runs.py``), so 24 matches keep it near
#: 0.6 ms a match.
DASK_CHUNK = 24
#: Dask settings that cut what a cluster burns beside the work, for the processes of a cluster running
#: batches (``dask.config.set(QUIET_DASK)`` before starting them, or the same keys in a worker's Dask
#: configuration): no statistical profiler sampling each worker's thread every 10 ms, event-loop health
#: checks every second instead of every 20 ms, the memory and system monitors polled every 2 s instead of
#: every 0.1 and 0.5 s, and the client asking the scheduler about its workers every 10 s instead of 2 s.
#: None of them changes what a task computes.
QUIET_DASK: dict[str, Any] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "2s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.client.scheduler-info-interval": "10s",
}
#: Seconds between two checks that a Dask cluster running a batch still has a worker.
WATCH_SECONDS = 1.0


def _derive(label: bytes, *numbers: int) -> int:
    data = label + b"".join(n.to_bytes(8, "big") for n in numbers)
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


def match_seed(corpus_seed: int, index: int) -> int:
    """The seed of match ``index`` of a corpus: the first 8 bytes, big-endian, of
    BLAKE2b-64(``b"meeple-batch-match"`` || corpus seed || index), each number as 8 big-endian bytes.

    >>> match_seed(7, 0) == match_seed(7, 0) != match_seed(7, 1)
    True
    """
    return _derive(b"meeple-batch-match", corpus_seed, index)


def bot_seed(corpus_seed: int, index: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in match ``index``: as :func:`match_seed`, labelled ``b"meeple-batch-bot"``."""
    return _derive(b"meeple-batch-bot", corpus_seed, index, seat)


@attrs.frozen
class Plan:
    """A corpus of bot matches: ``games`` matches of ``game`` at ``seats``, from corpus seed ``seed``.

    ``bots`` are bot names by seat, repeated when shorter than the seats; with
    ``rotate``, match ``i`` shifts them by ``i`` seats so every bot sits in
    every seat equally often. ``start`` is a log to continue instead of a new
    match: each match of the corpus is then a fork of it at its end with its
    own seed (:meth:`Match.fork`), played on by the bots.
    """

    game: str
    seats: int
    bots: tuple[str, ...]
    games: int
    seed: int
    options: Mapping[str, Any] = attrs.field(factory=dict)
    rotate: bool = False
    hide_seed: bool = False
    start: bytes | None = None
    max_commands: int = MAX_COMMANDS

    def bots_of(self, index: int) -> tuple[str, ...]:
        """The bot names by seat of match ``index``."""
        names = self.bots or ("random",)
        base = [names[seat % len(names)] for seat in range(self.seats)]
        shift = index % self.seats if self.rotate else 0
        return tuple(base[(seat - shift) % self.seats] for seat in range(self.seats))


@attrs.frozen
class MatchResult:
    """One match of a corpus: its index, seed, bots and result (``winners`` None if it did not finish).

    ``log`` holds the log's bytes when the run was asked to keep them.
    """

    index: int
    seed: int
    bots: tuple[str, ...]
    winners: tuple[int, ...] | None
    scores: tuple[int, ...] | None
    reason: str | None
    commands: int
    records: int
    log: bytes | None = None

    @property
    def finished(self) -> bool:
        """True if the match reached an outcome."""
        return self.winners is not None


def play_match(plan: Plan, index: int, keep_log: bool = False) -> MatchResult:
    """Play match ``index`` of ``plan`` with its bots, in this process."""
    game = get_game(plan.game)
    seed = match_seed(plan.seed, index)
    if plan.start is not None:
        match = Match.from_bytes(plan.start).fork(seed=seed)
    else:
        match = Match.start(game, plan.seats, seed=seed, options=plan.options)
    names = plan.bots_of(index)
    bots = [bot_factory(game, name)(bot_seed(plan.seed, index, seat)) for seat, name in enumerate(names)]
    commands = 0
    while commands < plan.max_commands:
        acting = [s for s in match.to_act if s != ENGINE]
        if not acting:
            break
        seat = acting[0]
        match.play(seat, bots[seat].choose(match.view(seat), match.legal(seat), seat))
        commands += 1
    out = match.outcome
    return MatchResult(
        index, seed, names,
        None if out is None else tuple(out.winners), None if out is None else tuple(out.scores),
        None if out is None else out.reason, commands, len(match),
        match.to_bytes(hide_seed=plan.hide_seed) if keep_log else None,
    )


def _play_chunk(plan: Plan, indices: Sequence[int], keep_logs: bool) -> list[MatchResult]:
    return [play_match(plan, i, keep_logs) for i in indices]


def run_plan(
    plan: Plan,
    executor: cf.Executor | None = None,
    *,
    keep_logs: bool = False,
    chunk_size: int | None = None,
    window: int | None = None,
) -> Iterator[MatchResult]:
    """Play every match of ``plan``; yield each result as its chunk finishes (in any order).

    Without ``executor`` the matches run one after another in this process.
    With one, chunks of ``chunk_size`` matches (default: :func:`chunk_size_for`
    two workers) are submitted to it, at most ``window`` chunks at a time (so
    results, logs included, never pile up).
    """
    return run_plans([plan], executor, keep_logs=keep_logs, chunk_size=chunk_size, window=window)


def run_plans(
    plans: Sequence[Plan],
    executor: cf.Executor | None = None,
    *,
    keep_logs: bool = False,
    chunk_size: int | None = None,
    window: int | None = None,
) -> Iterator[MatchResult]:
    """Play every match of every plan, as :func:`run_plan` does one; a chunk holds matches of one plan.

    The default chunk size is :func:`chunk_size_for` all the matches on two workers, or on a
    :class:`DaskExecutor` its threads with chunks of at least :data:`DASK_CHUNK`.
    """
    total = sum(p.games for p in plans)
    if executor is None:
        size = chunk_size or 1
    elif isinstance(executor, DaskExecutor):
        size = chunk_size or chunk_size_for(total, executor.threads, DASK_CHUNK)
        executor.warm(sorted({p.game for p in plans}))
    else:
        size = chunk_size or chunk_size_for(total, 2)
    calls = ((plan, c, keep_logs) for plan in plans for c in _chunks(range(plan.games), size))
    for batch in run_chunks(_play_chunk, calls, executor, window):
        yield from batch


def run_chunks(
    fn: Callable[..., R], args: Iterable[tuple[Any, ...]], executor: cf.Executor | None, window: int | None = None,
) -> Iterator[R]:
    """``fn(*a)`` for each ``a`` of ``args``, in this process or on ``executor``, yielding results as they finish.

    On an executor at most ``window`` calls are in flight (default 8; four
    per worker keeps every worker busy). When the consumer stops early (or is
    interrupted), calls not yet started are cancelled. On a
    :class:`DaskExecutor` the cluster is watched while calls are pending
    (:meth:`DaskExecutor.watch`): a cluster left without workers raises
    :class:`ClusterError` instead of waiting for ever.
    """
    if executor is None:
        for a in args:
            yield fn(*a)
        return
    limit = window or 8
    pending: set[cf.Future[R]] = set()
    asked: dict[cf.Future[R], tuple[Any, ...]] = {}
    it = iter(args)
    dask = executor if isinstance(executor, DaskExecutor) else None

    def submit(a: tuple[Any, ...]) -> None:
        f = executor.submit(fn, *a)
        asked[f] = a
        pending.add(f)

    try:
        for a in it:
            submit(a)
            if len(pending) >= limit:
                break
        while pending:
            done, pending = cf.wait(pending, timeout=WATCH_SECONDS if dask else None,
                                    return_when=cf.FIRST_COMPLETED)
            if dask is not None:
                dask.watch(len(pending))
            for f in done:
                a = asked.pop(f)
                try:
                    result = f.result()
                except Exception:
                    # a call whose worker left may fail inside Dask's own bookkeeping, not in fn: while the
                    # cluster has no worker it is work left unfinished (asked again, and watched), not an error
                    if dask is None or dask.has_workers():
                        raise
                    submit(a)
                    continue
                nxt = next(it, None)
                if nxt is not None:
                    submit(nxt)
                yield result
    finally:
        for f in pending:
            f.cancel()


def local_executor(workers: int) -> cf.Executor | None:
    """None for one worker (run in this process), else a process pool of ``workers`` that ignores Ctrl-C.

    Only the parent handles an interrupt: the workers go on with their
    current chunk and are shut down with the pool. The pool starts its
    workers the platform's default way; a game registered at run time (not
    bundled, nor found by entry point) reaches them only where that is
    ``fork``.
    """
    if workers <= 1:
        return None
    return cf.ProcessPoolExecutor(workers, initializer=_ignore_interrupts)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ClusterError(MeepleError):
    """A Dask cluster that cannot run a batch: the extra is missing, the scheduler is unreachable,
    it has no workers, or its workers run another version of meeple (their logs could differ)."""


class DaskExecutor(cf.Executor):
    """A Dask distributed cluster as a :class:`concurrent.futures.Executor`, made by :func:`dask_executor`.

    ``submit`` goes to the cluster through the client's executor;
    ``shutdown`` (with ``cancel_futures`` as a process pool takes it) cancels
    what has not run and closes the client. ``threads`` is the number of
    worker threads the scheduler reported when it connected. A run with
    work pending fails (:meth:`watch`) once the cluster has had no worker
    for ``lost_timeout`` seconds.
    """

    def __init__(self, client: Any, threads: int, *, address: str = "", lost_timeout: float = 30.0) -> None:
        self.client = client
        self.threads = threads
        self.address = address or str(client.scheduler.address)
        self.lost_timeout = lost_timeout
        self._inner = client.get_executor()
        self._lost_since: float | None = None
        self._checked = time.monotonic()
        self._warmed: set[str] = set()

    def watch(self, pending: int) -> None:
        """Check the cluster while ``pending`` calls wait: :class:`ClusterError` when it has lost every worker.

        Asks the scheduler how many workers it has (a round trip) at most
        every :data:`WATCH_SECONDS`; with none for ``lost_timeout`` seconds,
        the run fails naming the scheduler and the calls left unfinished.
        """
        now = time.monotonic()
        if now - self._checked < WATCH_SECONDS:
            return
        self._checked = now
        workers = len(self.client.nthreads())
        if workers:
            self._lost_since = None
            return
        if self._lost_since is None:
            self._lost_since = now
        elif now - self._lost_since >= self.lost_timeout:
            raise ClusterError(f"the Dask cluster at {self.address} has had no worker for "
                               f"{now - self._lost_since:.0f} s; {pending} chunk{'s' if pending != 1 else ''} "
                               "of work left unfinished (start a worker, or run again)")

    def has_workers(self) -> bool:
        """Whether the cluster has a worker now (a round trip to the scheduler)."""
        return bool(self.client.nthreads())

    def warm(self, games: Sequence[str]) -> None:
        """Have every worker load ``games`` and their bots once, before the first chunk (not inside its time).

        A worker asked again does nothing: what it loaded stays loaded.
        """
        todo = [g for g in games if g not in self._warmed]
        if todo:
            self.client.run(_warm_games, todo)
            self._warmed.update(todo)

    def submit(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> cf.Future[R]:
        """Run ``fn(*args, **kwargs)`` on the cluster."""
        future: cf.Future[R] = self._inner.submit(fn, *args, **kwargs)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Wait for (or, with ``cancel_futures``, cancel) what was submitted, then close the client."""
        try:
            self._inner.shutdown(wait=wait and not cancel_futures)
        finally:
            self.client.close()


def dask_executor(address: str, timeout: float = 10.0, lost_timeout: float = 30.0) -> DaskExecutor:
    """Connect to the Dask scheduler at ``address`` (``tcp://host:8786``) and return it as an executor.

    Waits up to ``timeout`` seconds for the scheduler and for at least one
    worker; a run on it fails once it has had no worker for ``lost_timeout``
    seconds (:meth:`DaskExecutor.watch`). Raises :class:`ClusterError` if the ``dask`` extra is missing,
    the scheduler cannot be reached or has no worker, or a worker runs
    another version of meeple than this process. The workers find games the
    way this process does (bundled, or by entry point); a game registered at
    run time reaches them only if each worker imports its module (``dask
    worker --preload MODULE``).
    """
    try:
        import distributed
    except ModuleNotFoundError:
        raise ClusterError("running on a Dask cluster needs the dask extra: pip install 'meeple[dask]'") from None
    connect: Any = distributed.Client  # distributed's Client carries no type annotations
    try:
        client: Any = connect(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as e:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError) as e:
            raise ClusterError(f"the Dask scheduler at {address} has no workers ({e})") from None
        versions = client.run(_meeple_version)
        other = {w: v for w, v in versions.items() if v != __version__}
        if other:
            worker, version = sorted(other.items())[0]
            raise ClusterError(f"the Dask worker {worker} runs meeple {version}, this is meeple {__version__}: "
                               "a corpus must be made by one version")
        threads = sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values())
        return DaskExecutor(client, max(1, threads), address=address, lost_timeout=lost_timeout)
    except BaseException:
        client.close()
        raise


def _meeple_version() -> str:
    return __version__


def _warm_games(games: Sequence[str]) -> None:
    """Load each game, its tables and its bots' factories in this (worker) process."""
    for gid in games:
        game = get_game(gid)
        for name in game.bots():
            bot_factory(game, name)


def chunk_size_for(games: int, workers: int, least: int = 1) -> int:
    """Matches per chunk for ``workers``: about eight chunks per worker, 1 to 32 matches each, and at least
    ``least`` unless that is more than a worker's even share.

    A Dask task costs its worker, the scheduler and the client about 15 ms
    of CPU whatever it runs, so chunks for a cluster take ``least=``
    :data:`DASK_CHUNK`.

    >>> chunk_size_for(1000, 2), chunk_size_for(24, 2), chunk_size_for(24, 2, DASK_CHUNK), chunk_size_for(6, 2, 16)
    (32, 1, 12, 3)
    """
    workers = max(workers, 1)
    size = max(1, min(32, games // (workers * 8)))
    return max(size, min(least, -(-games // workers)))


def _chunks(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


# -- statistics ---------------------------------------------------------------------


@attrs.frozen
class Rate:
    """``wins`` out of ``n``, the rate and its 95 % Wilson score interval ``[low, high]`` (all 0 when n is 0)."""

    wins: int
    n: int
    rate: float
    low: float
    high: float

    @classmethod
    def of(cls, wins: int, n: int) -> Rate:
        """The rate of ``wins`` in ``n`` trials with its Wilson interval."""
        low, high = wilson(wins, n)
        return cls(wins, n, wins / n if n else 0.0, low, high)

    def to_json(self) -> dict[str, Any]:
        """``{"wins", "n", "rate", "ci95": [low, high]}``."""
        return {"wins": self.wins, "n": self.n, "rate": self.rate, "ci95": [self.low, self.high]}


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95 % by default).

    ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``; ``(0, 0)`` for no trials.

    >>> low, high = wilson(5, 10)
    >>> round(low, 4), round(high, 4)
    (0.2366, 0.7634)
    """
    if n <= 0:
        return 0.0, 0.0
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


@attrs.frozen
class Spread:
    """Mean, sample standard deviation (0 for fewer than two values), min, median and max of some numbers."""

    mean: float
    stdev: float
    min: float
    median: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        """The spread of ``values`` (all 0 for none)."""
        if not values:
            return cls(0.0, 0.0, 0.0, 0.0, 0.0)
        sd = statistics.stdev(values) if len(values) > 1 else 0.0
        return cls(statistics.fmean(values), sd, min(values), statistics.median(values), max(values))

    def to_json(self) -> dict[str, float]:
        """``{"mean", "stdev", "min", "median", "max"}``."""
        return attrs.asdict(self)


def end_reason(reason: str) -> str:
    """An outcome's reason reduced to its kind: the text before the first ``;``, numbers written ``N``.

    >>> end_reason("the deck ran out; seat 0 has the most points (15)")
    'the deck ran out'
    """
    return re.sub(r"\d+", "N", reason.split(";", 1)[0]).strip()


@attrs.frozen
class Summary:
    """The statistics of a corpus of matches (see the module docstring)."""

    game: str
    seats: int
    seed: int
    matches: int
    finished: int
    seconds: float
    seat_rates: tuple[Rate, ...]
    bot_rates: Mapping[str, Rate]
    commands: Spread
    records: Spread
    end_reasons: Mapping[str, int]

    @property
    def unfinished(self) -> int:
        """Matches stopped before an outcome."""
        return self.matches - self.finished

    @property
    def matches_per_second(self) -> float:
        """Matches per second of wall-clock time."""
        return self.matches / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready data (the field names of ``meeple simulate --games N --json``)."""
        return {
            "game": self.game, "seats": self.seats, "seed": self.seed, "matches": self.matches,
            "finished": self.finished, "unfinished": self.unfinished, "seconds": self.seconds,
            "matches_per_second": self.matches_per_second,
            "win_rate": {
                "interval": "wilson-95",
                "by_seat": [{"seat": s, **r.to_json()} for s, r in enumerate(self.seat_rates)],
                "by_bot": {name: r.to_json() for name, r in sorted(self.bot_rates.items())},
            },
            "length": {"commands": self.commands.to_json(), "records": self.records.to_json()},
            "end_reasons": dict(sorted(self.end_reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        }


def summarize(results: Iterable[MatchResult], plan: Plan, seconds: float) -> Summary:
    """The statistics of ``results`` (matches of ``plan``), which took ``seconds`` of wall-clock time."""
    done = sorted(results, key=lambda r: r.index)
    finished = [r for r in done if r.winners is not None]
    seat_wins = [0] * plan.seats
    bot_wins: Counter[str] = Counter()
    bot_seats: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for r in finished:
        assert r.winners is not None and r.reason is not None
        for seat, name in enumerate(r.bots):
            bot_seats[name] += 1
            if seat in r.winners:
                bot_wins[name] += 1
                seat_wins[seat] += 1
        reasons[end_reason(r.reason)] += 1
    if len(finished) < len(done):
        reasons["unfinished"] = len(done) - len(finished)
    return Summary(
        game=plan.game, seats=plan.seats, seed=plan.seed, matches=len(done), finished=len(finished),
        seconds=seconds,
        seat_rates=tuple(Rate.of(w, len(finished)) for w in seat_wins),
        bot_rates={name: Rate.of(bot_wins[name], n) for name, n in bot_seats.items()},
        commands=Spread.of([r.commands for r in done]),
        records=Spread.of([r.records for r in done]),
        end_reasons=dict(reasons),
    )


# -- verifying a corpus -------------------------------------------------------------------


@attrs.frozen
class Checked:
    """The verdict on one log of a corpus.

    ``ok`` if it verified; otherwise ``unreadable`` tells a log that could not
    be read at all (not a meeple log, an unknown game or rules version) from
    one that is invalid or forged, and ``record``, ``offset`` and ``reason``
    name the first problem.
    """

    source: str
    ok: bool
    game: str | None
    records: int
    reason: str | None = None
    record: int | None = None
    offset: int | None = None
    unreadable: bool = False

    def to_json(self) -> dict[str, Any]:
        """The verdict as JSON-ready data (a ``"log"`` line of ``meeple verify --json``)."""
        return {"kind": "log", "source": self.source, "ok": self.ok, "unreadable": self.unreadable,
                "game": self.game, "records": self.records, "record": self.record, "offset": self.offset,
                "reason": self.reason}


def check_log(source: str, data: bytes) -> Checked:
    """Read and verify one log's bytes (:func:`meeple.verify`), never raising for bad content."""
    try:
        log = read_log(data)
    except (CorruptLog, TruncatedLog) as e:
        return Checked(source, False, None, 0, e.message, e.record, e.offset)
    except MeepleError as e:  # not a meeple log, an unknown game, an unsupported version
        reason = e.message if isinstance(e, LogError) else str(e)
        return Checked(source, False, None, 0, reason, getattr(e, "record", None), getattr(e, "offset", None),
                       unreadable=True)
    report = verify_loaded(log)
    d = report.first_divergence
    if d is None:
        return Checked(source, True, report.game, report.records)
    return Checked(source, False, report.game, report.records, d.reason, d.record, d.offset)


#: A log to check: its name and its bytes, or why they could not be read.
_Item = tuple[str, "bytes | None", "str | None"]


def _check_chunk(items: Sequence[_Item]) -> list[Checked]:
    return [check_log(name, data) if data is not None else Checked(name, False, None, 0, error, unreadable=True)
            for name, data, error in items]


def check_logs(
    items: Iterable[tuple[str, Callable[[], bytes]]],
    executor: cf.Executor | None = None,
    *,
    chunk_size: int = 8,
    window: int | None = None,
) -> Iterator[Checked]:
    """Verify logs given as ``(name, read)`` pairs, ``read()`` giving the bytes; yield verdicts as they come.

    The bytes are read here, a chunk at a time as the executor frees up, and
    verified on the executor (or in this process). A ``read`` that raises
    :class:`MeepleError` or :class:`OSError` gives an unreadable verdict.
    """

    def chunks() -> Iterator[tuple[list[_Item]]]:
        chunk: list[_Item] = []
        for name, read in items:
            try:
                chunk.append((name, read(), None))
            except MeepleError as e:
                chunk.append((name, None, e.message if isinstance(e, LogError) else str(e)))
            except OSError as e:
                chunk.append((name, None, f"cannot read {name}: {e.strerror or e}"))
            if len(chunk) >= chunk_size:
                yield (chunk,)
                chunk = []
        if chunk:
            yield (chunk,)

    for batch in run_chunks(_check_chunk, chunks(), executor, window):
        yield from batch


@attrs.frozen
class CheckSummary:
    """Counts of a verified corpus, and the first problem of every log that failed."""

    logs: int
    ok: int
    invalid: int
    unreadable: int
    seconds: float
    failures: tuple[Checked, ...]

    @property
    def logs_per_second(self) -> float:
        """Logs verified per second of wall-clock time."""
        return self.logs / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready data (the ``"summary"`` line of ``meeple verify --json``)."""
        return {"kind": "summary", "logs": self.logs, "ok": self.ok, "failed": self.invalid + self.unreadable,
                "invalid": self.invalid, "unreadable": self.unreadable, "seconds": self.seconds,
                "logs_per_second": self.logs_per_second,
                "failures": [{"source": f.source, "record": f.record, "offset": f.offset, "reason": f.reason,
                              "unreadable": f.unreadable} for f in self.failures]}


def summarize_checks(checked: Iterable[Checked], seconds: float) -> CheckSummary:
    """Count ``checked`` verdicts; failures in source order."""
    all_ = sorted(checked, key=lambda c: c.source)
    failures = tuple(c for c in all_ if not c.ok)
    unreadable = sum(c.unreadable for c in failures)
    return CheckSummary(len(all_), len(all_) - len(failures), len(failures) - unreadable, unreadable, seconds,
                        failures)
