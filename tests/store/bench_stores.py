"""Store throughput, change-notification latency and load times (a script, not a test).

    PYTHONPATH=src:examples python tests/store/bench_stores.py [--quick]

Plays one long liars-dice match (6 seats, 5 dice, 12 sides, lowest bids:
361 records) into each store, side by side in one run, and prints commands
per second with the ratio to playing in memory: the file store and the
SQLite store with ``flush`` and ``fsync`` durability, and the PostgreSQL
store with ``synchronous_commit`` off (``flush``) and on (``fsync``) on a
throw-away local server (started as the tests start it; skipped where
PostgreSQL is not installed, or set ``MEEPLE_BENCH_POSTGRES`` to a DSN).
Then the latency from a commit to a ``listen`` callback in another store
object (SQLite polls every 50 ms; PostgreSQL uses LISTEN/NOTIFY), and the
time to open a random-bot match of every game from the SQLite store with
and without snapshots.
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _play(match: Any, limit: int | None = None) -> int:
    n = 0
    while not match.is_over and (limit is None or n < limit):
        seat = match.to_act[0]
        match.play(seat, match.legal(seat)[0])
        n += 1
    return n


def _postgres() -> tuple[str | None, Any, str]:
    """A DSN to benchmark on, the server to remove afterwards (or None), and why there is none."""
    if os.environ.get("MEEPLE_BENCH_POSTGRES"):
        return os.environ["MEEPLE_BENCH_POSTGRES"], None, ""
    spec = importlib.util.spec_from_file_location("meeple_test_conftest", ROOT / "tests" / "conftest.py")
    assert spec is not None and spec.loader is not None
    conftest = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(conftest)
        server = conftest._started_server()
    except BaseException as e:  # pytest.skip raises an exception that is not an Exception
        return None, None, str(e)
    return server.dsn, server, ""


def _latency(store: Any, writer: Any, commits: int) -> list[float]:
    """Seconds from each ``play`` call (which commits) to the callback of a listener on another store object."""
    heard: dict[int, float] = {}
    done = threading.Event()

    def callback(match_id: str, records: range) -> None:
        heard[records.stop] = time.perf_counter()
        if len(heard) >= commits + 1:
            done.set()

    sent: dict[int, float] = {}
    with store.listen(callback):
        m = writer.create("liars-dice", 6, seed=3, options={"dice": 5, "sides": 12}, match_id="latency")
        for _ in range(commits):
            time.sleep(0.005)  # commits apart, as players make them
            seat = m.to_act[0]
            command = m.legal(seat)[0]
            t = time.perf_counter()
            m.play(seat, command)
            sent[len(m)] = t
        done.wait(10)
    return [heard[n] - t for n, t in sent.items() if n in heard]


def main(quick: bool = False) -> None:
    sys.path[:0] = [str(ROOT / "src"), str(ROOT / "examples")]
    import liars_dice  # noqa: F401
    from meeple import Match, RandomBot, available, get_game
    from meeple.store import FileStore, SqliteStore

    options = {"dice": 5, "sides": 12}
    limit = 120 if quick else None
    dsn, server, why = _postgres()
    with tempfile.TemporaryDirectory() as d:
        stores: list[tuple[str, Any]] = [
            ("file, flush", FileStore(Path(d), "flush")),
            ("file, fsync", FileStore(Path(d), "fsync")),
            ("sqlite, flush", SqliteStore(Path(d) / "a.db", "flush")),
            ("sqlite, fsync", SqliteStore(Path(d) / "b.db", "fsync")),
        ]
        if dsn is not None:
            from meeple.store import PostgresStore

            stores += [("postgresql, flush", PostgresStore(dsn, "flush", schema="bench_flush")),
                       ("postgresql, fsync", PostgresStore(dsn, "fsync", schema="bench_fsync"))]
        t = time.perf_counter()
        n = _play(Match.start("liars-dice", 6, seed=1, options=options), limit)
        memory = n / (time.perf_counter() - t)
        rows = [("in memory (no store)", n, memory)]
        for name, store in stores:
            m = store.create("liars-dice", 6, seed=1, options=options, match_id=name.replace(", ", "-"))
            t = time.perf_counter()
            n = _play(m, limit)
            rows.append((name, n, n / (time.perf_counter() - t)))
        print("write throughput (one match, one writer; ratio = store / in memory)")
        for name, n, rate in rows:
            print(f"  {name:22} {n:4} commands: {rate:8.0f} commands/s  ratio {rate / memory:6.3f}")
        if dsn is None:
            print(f"  postgresql: not measured ({why})")

        print("play() (it commits) to the listen() callback in another store object (p50 / p99 / max, ms)")
        commits = 40 if quick else 150
        pairs: list[tuple[str, Any, Any]] = [("sqlite (50 ms poll)", SqliteStore(Path(d) / "l.db", "flush"),
                                              SqliteStore(Path(d) / "l.db", "flush"))]
        if dsn is not None:
            from meeple.store import PostgresStore

            pairs.append(("postgresql (NOTIFY)", PostgresStore(dsn, "flush", schema="bench_listen"),
                          PostgresStore(dsn, "flush", schema="bench_listen")))
        for name, listener, writer in pairs:
            lat = sorted(x * 1000 for x in _latency(listener, writer, commits))
            p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
            print(f"  {name:22} {len(lat)}/{commits} heard: {statistics.median(lat):6.1f} / {p99:6.1f} / "
                  f"{lat[-1]:6.1f}")
            listener.close()
            writer.close()

        for name, store in stores:
            if name.startswith("postgresql"):
                store.drop()
            store.close()
        if server is not None:
            server.remove()
        elif dsn is not None:
            from meeple.store import PostgresStore

            PostgresStore(dsn, schema="bench_listen").drop()

        store = SqliteStore(Path(d) / "a.db", "flush")
        for gid in available():
            game = get_game(gid)
            seats = max(game.info.min_seats, min(4, game.info.max_seats))
            if gid == "liars-dice":
                mid = "sqlite-flush"
            else:
                mid = gid
                m = store.create(gid, seats, seed=2, match_id=mid)
                bots = [RandomBot(s) for s in range(seats)]
                while not m.is_over and len(m) < (300 if quick else 3000):
                    seat = next(s for s in m.to_act if s >= 0)
                    m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
            n = store.info(mid).records
            times = []
            for snaps in (True, False):
                t = time.perf_counter()
                for _ in range(5):
                    store.open(mid, use_snapshots=snaps)
                times.append((time.perf_counter() - t) / 5 * 1000)
            print(f"open {gid:10} ({n:4} records) from sqlite: {times[0]:6.1f} ms with snapshots, "
                  f"{times[1]:6.1f} ms folding every record")
        store.close()


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
