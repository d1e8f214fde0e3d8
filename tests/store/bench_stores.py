"""Store throughput and load times (a script, not a test).

    PYTHONPATH=src:examples python tests/store/bench_stores.py

Plays one long liars-dice match (6 seats, 5 dice, 12 sides, lowest bids:
361 records) into each store and prints commands per second, then the time
to open it, and a random-bot match of every other game, from the SQLite
store with and without snapshots.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any


def _play(match: Any) -> int:
    n = 0
    while not match.is_over:
        seat = match.to_act[0]
        match.play(seat, match.legal(seat)[0])
        n += 1
    return n


def main() -> None:
    import liars_dice  # noqa: F401
    from meeple import Match, RandomBot, available, get_game
    from meeple.store import FileStore, SqliteStore

    options = {"dice": 5, "sides": 12}
    with tempfile.TemporaryDirectory() as d:
        rows = []
        t = time.perf_counter()
        n = _play(Match.start("liars-dice", 6, seed=1, options=options))
        rows.append(("in memory (no store)", n, time.perf_counter() - t))
        stores: list[tuple[str, FileStore | SqliteStore]] = [
            ("file, flush", FileStore(Path(d), "flush")),
            ("file, fsync", FileStore(Path(d), "fsync")),
            ("sqlite, flush", SqliteStore(Path(d) / "a.db", "flush")),
            ("sqlite, fsync", SqliteStore(Path(d) / "b.db", "fsync")),
        ]
        for name, store in stores:
            m = store.create("liars-dice", 6, seed=1, options=options, match_id=name.replace(", ", "-"))
            t = time.perf_counter()
            n = _play(m)
            rows.append((name, n, time.perf_counter() - t))
            store.close()
        for name, n, dt in rows:
            print(f"{name:22} {n} commands in {dt:.3f}s: {n / dt:8.0f} commands/s")
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
                while not m.is_over and len(m) < 3000:
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
    main()
