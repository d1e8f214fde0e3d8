"""Concurrency: several processes append to one match in the SQLite store at once.

Every sequence number is taken exactly once, the losers get StoreConflict (and
nothing of theirs is stored), and the final log verifies from its seed.
"""

from __future__ import annotations

import multiprocessing as mp
import queue
import random
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any

import meeple
from meeple.store import SqliteStore, StoreConflict

WORKERS = 4


def _lockstep_worker(db: str, index: int, barrier: Barrier, results: Any) -> None:
    """Each round: open the match, wait for everybody, then all play at once."""
    store = SqliteStore(db)
    while True:
        m = store.open("race")
        barrier.wait()  # everybody holds the same position
        if m.is_over:
            break
        seat = m.to_act[0]
        legal = m.legal(seat)
        cmd = legal[index % len(legal)]  # different workers try different commands
        try:
            m.play(seat, cmd)
            results.put((len(m), index, "ok"))
        except StoreConflict:
            results.put((len(m), index, "conflict"))
        barrier.wait()  # the round is over
    store.close()


def test_concurrent_writers_in_lockstep_take_each_sequence_number_once(tmp_path: Path) -> None:
    db = str(tmp_path / "race.db")
    with SqliteStore(db) as store:
        store.create("liars-dice", 3, seed=77, options={"dice": 2}, match_id="race")
    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(WORKERS)
    results = ctx.Queue()
    procs = [ctx.Process(target=_lockstep_worker, args=(db, i, barrier, results)) for i in range(WORKERS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
        assert p.exitcode == 0
    outcomes: list[tuple[int, int, str]] = []
    while True:
        try:
            outcomes.append(results.get(timeout=0.5))
        except queue.Empty:
            break
    with SqliteStore(db) as store:
        n = store.info("race").records
        data = store.log_bytes("race")
    rounds = n - 1  # every record after the set-up roll came from one round
    wins = [o for o in outcomes if o[2] == "ok"]
    assert len(wins) == rounds, "exactly one writer wins each round"
    assert sorted(w[0] for w in wins) == list(range(2, n + 1)), "each sequence number was taken once"
    assert sum(o[2] == "conflict" for o in outcomes) == rounds * (WORKERS - 1), "every loser got the conflict error"
    report = meeple.verify(data)
    assert report.ok and report.outcome is not None


def _free_worker(db: str, index: int, results: Any) -> None:
    """Play whenever possible, reopening after each conflict, until the match ends."""
    rnd = random.Random(index)
    store = SqliteStore(db)
    m = store.open("free")
    won = conflicts = 0
    while not m.is_over:
        seat = m.to_act[0]
        legal = m.legal(seat)
        try:
            m.play(seat, legal[rnd.randrange(min(4, len(legal)))])
            won += 1
        except StoreConflict:
            conflicts += 1
            m = store.open("free")
    results.put((index, won, conflicts))
    store.close()


def test_concurrent_writers_free_for_all_lose_nothing_and_fork_nothing(tmp_path: Path) -> None:
    db = str(tmp_path / "free.db")
    with SqliteStore(db) as store:
        store.create("liars-dice", 6, seed=5, options={"dice": 5, "sides": 12}, match_id="free")
    ctx = mp.get_context("fork")
    results = ctx.Queue()
    procs = [ctx.Process(target=_free_worker, args=(db, i, results)) for i in range(WORKERS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    stats = [results.get() for _ in procs]
    with SqliteStore(db) as store:
        n = store.info("free").records
        report = meeple.verify(store.log_bytes("free"))
        assert len(store.open("free")) == n
    assert sum(won for _, won, _ in stats) == n - 1, "every acknowledged command is stored, and only those"
    assert report.ok and report.outcome is not None
