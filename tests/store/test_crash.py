"""Crash safety of the file store: a writer killed with SIGKILL at random moments loses no acknowledged record.

A child process (``crash_child.py``) appends a long match to a log file,
printing ``ack N`` after each ``play`` returns; its writes are split into
5-byte pieces so a kill often lands inside a frame. After each kill the
parent checks that every acknowledged record is intact, that a torn tail is
detected (with the right number of intact records), repairs it, and lets the
next child continue the same match. At the end the whole log verifies from
its seed. A second child creates matches one after the other and is killed
inside ``create``: a new file is always whole or absent.

The database stores' crash tests are in ``test_contract.py``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.engine import TruncatedLog, read_log
from meeple.store import FileStore, MatchExists, StoreConflict, repair
from meeple.store.files import TEMP_SUFFIX

pytestmark = pytest.mark.slow  # writer processes killed and their stores read again

KILLS_FILE = 20
KILLS_CREATE = 12


def test_sigkill_never_loses_an_acknowledged_file_record(tmp_path: Path, kill_writer: Any) -> None:
    rnd = random.Random(20261129)
    path = tmp_path / "crash.meeple"
    torn = 0
    acked_total = 0
    finished = 0
    for kill in range(KILLS_FILE):
        before = path.read_bytes() if path.exists() else b""
        durability = "fsync" if kill % 4 == 3 else "flush"
        acked, _, over = kill_writer("file", path, rnd.uniform(0.0, 0.12), durability)
        data = path.read_bytes()
        assert data[: len(before)] == before, "a crash changed bytes that were there before it"
        try:
            log = read_log(data)
            intact, intact_bytes = len(log.records), len(data)
        except TruncatedLog as e:
            torn += 1
            intact, intact_bytes = e.intact, e.intact_bytes
            with pytest.raises(TruncatedLog) as opened:  # the store reports it too, with the same count
                FileStore(tmp_path).open("crash")
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
        m = store.open("crash")
        while not m.is_over:
            seat = m.to_act[0]
            m.play(seat, m.legal(seat)[-1])  # call the liar
        store.close()
        assert meeple.verify(path).ok


def test_sigkill_inside_create_leaves_nothing_or_a_whole_new_match(tmp_path: Path, kill_writer: Any) -> None:
    rnd = random.Random(13)
    cut_short = 0  # kills that left a partly written new file (only ever under a temporary name)
    for kill in range(KILLS_CREATE):
        d = tmp_path / f"run{kill}"
        # every third kill waits until the writer stands inside a write (at a random byte of it), so that
        # some kills land inside a create however busy the machine is; the others come at a random moment
        stop = rnd.randrange(1, 400) if kill % 3 == 0 else None
        _, lines, _ = kill_writer("create", d, rnd.uniform(0.0, 0.08), stop=stop)
        created = [line.split()[1] for line in lines if line.startswith("created")]
        store = FileStore(d)
        for mid in store.ids():  # every file there is a whole, valid log of a new match
            m = store.open(mid)
            assert len(m) == 1 and meeple.verify(d / f"{mid}.meeple").ok
            store.close(m)
        assert set(created) <= set(store.ids()), "an acknowledged create is missing"
        pending = f"c{len(created)}"  # the create the kill interrupted
        temps = sorted(p.name for p in d.iterdir() if p.name.endswith(TEMP_SUFFIX)) if d.exists() else []
        if stop is not None:
            assert temps, f"a kill inside a create's write (at byte {stop}) left no temporary file"
        cut_short += bool(temps)
        try:
            store.create("liars-dice", 6, seed=len(created), options={"dice": 5, "sides": 12}, match_id=pending)
        except MatchExists:  # the kill came after the new file was in place: it is whole (checked above)
            assert pending in store.ids()
        store.close()
        assert meeple.verify(d / f"{pending}.meeple").ok
        left = [p.name for p in d.iterdir() if p.name.endswith(TEMP_SUFFIX)]
        assert left == [], f"the next create did not clear what the crash left: {left} (kill {kill}, stop {stop}, lines {lines[-3:]}, temps before {temps})"
    assert cut_short >= 3, f"only {cut_short} of {KILLS_CREATE} kills landed inside a create's write"


def test_a_match_being_written_by_another_process_cannot_be_opened(tmp_path: Path, kill_writer: Any) -> None:
    path = tmp_path / "busy.meeple"

    def try_to_open() -> None:
        with pytest.raises(StoreConflict, match="open for writing elsewhere"):
            FileStore(tmp_path).open("busy")
        with pytest.raises(StoreConflict):
            repair(path)

    kill_writer("file", path, 0.0, meanwhile=try_to_open)
