"""Crash safety: a writer killed with SIGKILL at random moments loses no acknowledged record.

A child process (``crash_child.py``) appends a long match to a store, printing
``ack N`` after each ``play`` returns; its writes are split into 5-byte pieces
so a kill often lands inside a frame. After each kill the parent checks that
every acknowledged record is intact, that a torn tail is detected (with the
right number of intact records), repairs it, and lets the next child continue
the same match. At the end the whole log verifies from its seed.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import meeple
from meeple.engine import TruncatedLog, read_log
from meeple.store import FileStore, SqliteStore, StoreConflict, repair

CHILD = Path(__file__).with_name("crash_child.py")
ROOT = Path(__file__).resolve().parents[2]
KILLS_FILE = 20
KILLS_SQLITE = 6


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "examples"), str(ROOT / "src"), env.get("PYTHONPATH", "")])
    return env


def run_and_kill(kind: str, path: Path, delay: float, durability: str = "flush",
                 meanwhile: Callable[[], None] | None = None) -> tuple[int, bool]:
    """Start a writer, SIGKILL it ``delay`` seconds after it is ready; return (last ack, reached the end).

    ``meanwhile`` runs while the writer is alive (after it is ready).
    """
    proc = subprocess.Popen([sys.executable, str(CHILD), kind, str(path), durability],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(), text=True)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    if not first.startswith("ready"):
        proc.kill()
        raise AssertionError(f"the writer did not start: {first!r} {proc.stderr.read() if proc.stderr else ''}")
    if meanwhile is not None:
        meanwhile()
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    out, _ = proc.communicate(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    acks = [int(line.split()[1]) for line in [first, *out.splitlines()] if line.split()[:1] in (["ack"], ["ready"])]
    return max(acks), "over" in out


def test_sigkill_never_loses_an_acknowledged_file_record(tmp_path: Path) -> None:
    rnd = random.Random(20261129)
    path = tmp_path / "crash.meeple"
    torn = 0
    acked_total = 0
    finished = 0
    for kill in range(KILLS_FILE):
        before = path.read_bytes() if path.exists() else b""
        durability = "fsync" if kill % 4 == 3 else "flush"
        acked, over = run_and_kill("file", path, rnd.uniform(0.0, 0.12), durability)
        data = path.read_bytes()
        assert data[: len(before)] == before, "a crash changed bytes that were there before it"
        try:
            log = read_log(data)
            intact, intact_bytes = len(log.records), len(data)
        except TruncatedLog as e:
            torn += 1
            intact, intact_bytes = e.intact, e.intact_bytes
            with pytest.raises(TruncatedLog) as opened:  # the store reports it too, with the same count
                FileStore(tmp_path).open(path)
            assert opened.value.intact == intact and "meeple repair" in str(opened.value)
        assert intact >= acked, f"{acked} records were acknowledged but only {intact} survived"
        report = repair(path)
        assert (report.records, report.kept_bytes) == (intact, intact_bytes)
        assert path.read_bytes() == data[:intact_bytes], "repair changed an intact byte"
        assert meeple.verify(path).ok
        acked_total += acked
        if over:  # the match ended: the next writer starts a new one
            finished += 1
            path.unlink()
    print(f"{KILLS_FILE} kills: {torn} torn tails, {finished} matches finished, {acked_total} acks")
    assert torn >= 3, f"only {torn} of {KILLS_FILE} kills tore a frame; the test did not exercise torn tails"
    # the last match continues after repair and verifies to the end
    if path.exists():
        store = FileStore(tmp_path)
        m = store.open(path)
        while not m.is_over:
            seat = m.to_act[0]
            m.play(seat, m.legal(seat)[-1])  # call the liar
        store.close()
        assert meeple.verify(path).ok


def test_sigkill_never_loses_an_acknowledged_sqlite_record(tmp_path: Path) -> None:
    rnd = random.Random(7)
    db = tmp_path / "crash.db"
    previous = 0
    for _ in range(KILLS_SQLITE):
        acked, over = run_and_kill("sqlite", db, rnd.uniform(0.0, 0.15), "fsync")
        with SqliteStore(db) as store:
            info = store.info("crash")
            assert info.records >= acked >= previous
            assert meeple.verify(store.log_bytes("crash")).ok
            m = store.open("crash")
            assert len(m) == info.records
            previous = info.records
            if over:
                break


def test_a_match_being_written_by_another_process_cannot_be_opened(tmp_path: Path) -> None:
    path = tmp_path / "busy.meeple"

    def try_to_open() -> None:
        with pytest.raises(StoreConflict, match="open for writing elsewhere"):
            FileStore(tmp_path).open(path)
        with pytest.raises(StoreConflict):
            repair(path)

    run_and_kill("file", path, 0.0, meanwhile=try_to_open)
