"""What is SQLite's own in the SQLite store: snapshots, schema versions, read-only access, the command line.

The contract every store keeps (conflicts, search, listening, concurrency,
crashes) is tested in ``test_contract.py``.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import liars_dice as ld
import meeple
from meeple import Match
from meeple.cli import main
from meeple.engine import CorruptLog
from meeple.store import (
    MatchNotFound,
    NotSupported,
    ReadOnlyStore,
    SqliteStore,
    Status,
    StoreError,
    list_matches,
    load_log,
    log_bytes,
)

Play = Callable[[Match, int], Match]


@pytest.fixture
def store(tmp_path: Path) -> SqliteStore:
    return SqliteStore(tmp_path / "m.db")


def test_a_duplicate_sequence_number_is_refused_by_the_key(store: SqliteStore) -> None:
    store.create("liars-dice", 2, seed=5, match_id="m")
    db = sqlite3.connect(store.path)
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO records (match, seq, body, hash) VALUES ('m', 0, x'00', x'00')")
    db.close()


def _long(store: SqliteStore, minimal: Play, long_options: dict[str, Any], n: int = 150) -> Match:
    return minimal(store.create("liars-dice", 6, seed=9, options=long_options, match_id="long"), n)


def test_snapshots_are_stored_at_every_checkpoint(store: SqliteStore, minimal: Play, long_options: dict[str, Any]) -> None:
    m = _long(store, minimal, long_options)
    rows = sqlite3.connect(store.path).execute("SELECT seq FROM snapshots WHERE match = 'long'").fetchall()
    assert [r[0] for r in rows] == list(range(m.checkpoint_every, len(m) + 1, m.checkpoint_every))


def test_opening_a_long_match_folds_only_the_records_after_the_last_snapshot(
    store: SqliteStore, minimal: Play, long_options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    m = _long(store, minimal, long_options)
    folded: list[Any] = []
    real = ld.GAME.evolve

    def counting(state: Any, event: Any) -> Any:
        folded.append(event)
        return real(state, event)

    monkeypatch.setattr(ld.GAME, "evolve", counting)
    again = store.open("long")
    assert again.state == m.state
    tail = len(m) % m.checkpoint_every
    assert len(folded) == sum(len(r.events) for r in m.records[len(m) - tail:])
    folded.clear()
    store.open("long", use_snapshots=False)
    assert len(folded) == sum(len(r.events) for r in m.records)
    again.seek(5)  # seeking and undo still work on a match opened from snapshots
    assert again.state == Match.from_bytes(m.to_bytes()).fork(at=5).state


def test_a_tampered_snapshot_is_refused(store: SqliteStore, minimal: Play, long_options: dict[str, Any]) -> None:
    m = _long(store, minimal, long_options)
    other = Match.start("liars-dice", 6, seed=10, options=long_options).state
    from meeple.engine.codec import pack, unstructure

    db = sqlite3.connect(store.path)
    db.execute("UPDATE snapshots SET state = ? WHERE match = 'long' AND seq = 64", (pack(unstructure(other)),))
    db.commit()
    with pytest.raises(CorruptLog, match="snapshot does not match"):
        store.open("long")
    assert store.open("long", use_snapshots=False).state == m.state
    db.execute("UPDATE snapshots SET state = x'c1' WHERE match = 'long' AND seq = 64")
    db.commit()
    with pytest.raises(CorruptLog, match="undecodable"):
        store.open("long")


def test_a_record_missing_from_the_store_is_reported(store: SqliteStore, minimal: Play) -> None:
    minimal(store.create("liars-dice", 2, seed=3, match_id="m"), 3)
    db = sqlite3.connect(store.path)
    db.execute("DELETE FROM records WHERE match = 'm' AND seq = 1")
    db.commit()
    with pytest.raises(CorruptLog, match="sequence numbers"):
        store.open("m")


def test_a_database_of_a_newer_schema_is_refused(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "new.db")
    db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(StoreError, match="newer"):
        SqliteStore(tmp_path / "new.db")


def test_a_file_that_is_not_a_database_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / "x.db").write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="cannot open"):
        SqliteStore(tmp_path / "x.db")


# -- the command line over a SQLite source ----------------------------------------------


def test_the_cli_reads_sqlite_sources(store: SqliteStore, tmp_path: Path, minimal: Play,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    minimal(store.create("liars-dice", 2, seed=3, match_id="m"), 3)
    src = f"sqlite://{store.path}#m"
    assert main(["verify", src]) == 0
    assert "ok: liars-dice, 4 records" in capsys.readouterr().out
    assert main(["inspect", src]) == 0
    assert "records:    4" in capsys.readouterr().out
    assert main(["replay", src, "--seat", "0"]) == 0
    assert "bid 1 x 1" in capsys.readouterr().out
    assert main(["fork", src, "--at", "2", "--out", str(tmp_path / "f.meeple")]) == 0
    assert len(Match.load(tmp_path / "f.meeple")) == 2
    assert main(["repair", src]) == 0
    assert "never has a torn tail" in capsys.readouterr().out


def test_the_cli_reports_a_bad_sqlite_source_in_one_line(store: SqliteStore, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", f"sqlite://{store.path}#missing"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no match 'missing'" in err
    assert main(["inspect", "sqlite://nowhere.db"]) == 2
    assert "sqlite:PATH#MATCH_ID" in capsys.readouterr().err
    assert main(["verify", f"sqlite://{store.path}#missing"]) == 2  # unreadable input, not a forged log


def test_meeple_repair_cuts_a_torn_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.meeple"
    Match.start("liars-dice", 2, seed=1).save(path)
    with open(path, "ab") as f:
        f.write(b"\x00\x00")
    assert main(["repair", str(path)]) == 0
    assert "cut a torn tail of 2 bytes; kept 1 intact records" in capsys.readouterr().out
    assert meeple.verify(path).ok


def test_the_cli_writes_sqlite_outputs(store: SqliteStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = f"sqlite://{store.path}#sim"
    assert main(["simulate", "liars-dice", "--seed", "3", "--bots", "random", "--quiet", "--out", src]) == 0
    assert main(["verify", src]) == 0
    assert main(["fork", src, "--at", "1", "--out", f"sqlite://{store.path}#forked"]) == 0
    assert store.info("forked").records == 1 and store.info("sim").status is Status.OVER
    capsys.readouterr()


def test_the_cli_reads_the_relative_and_absolute_forms(store: SqliteStore, minimal: Play, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    minimal(store.create("liars-dice", 2, seed=3, match_id="m"), 2)
    monkeypatch.chdir(store.path.parent)
    for src in ("sqlite:m.db#m", "sqlite://m.db#m", f"sqlite:{store.path}#m", f"sqlite://{store.path}#m"):
        assert main(["verify", src]) == 0, src
        assert "ok: liars-dice, 3 records" in capsys.readouterr().out


# -- reading never creates or changes anything ------------------------------------------------------


def _files(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


def test_reading_an_empty_file_leaves_it_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    for read in (lambda: log_bytes(f"sqlite:{empty}#x"), lambda: load_log(f"sqlite:{empty}#x"),
                 lambda: list_matches(f"sqlite:{empty}"), lambda: SqliteStore(empty, readonly=True)):
        with pytest.raises(StoreError, match="not a meeple store"):
            read()
    assert main(["verify", f"sqlite:{empty}#x"]) != 0
    capsys.readouterr()
    assert _files(tmp_path) == {"empty.db": b""}, "reading turned the file into a database"


def test_reading_a_missing_database_creates_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(MatchNotFound, match="no SQLite store"):
        log_bytes(f"sqlite:{tmp_path}/none.db#x")
    assert main(["inspect", f"sqlite:{tmp_path}/none.db#x"]) == 2
    capsys.readouterr()
    assert list(tmp_path.iterdir()) == []


def test_an_absolute_path_that_is_not_there_hints_at_the_relative_form(tmp_path: Path) -> None:
    with pytest.raises(MatchNotFound, match=r"sqlite:///PATH is absolute; write sqlite:matches-nowhere\.db"):
        log_bytes("sqlite:///matches-nowhere.db#x")


def test_reading_a_store_changes_no_byte_of_it(store: SqliteStore, minimal: Play) -> None:
    minimal(store.create("liars-dice", 2, seed=3, match_id="m"), 3)
    store.close()
    with sqlite3.connect(store.path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = store.path.read_bytes()
    reader = SqliteStore(store.path, readonly=True)
    assert [i.id for i in reader.find()] == ["m"] and meeple.verify(reader.log_bytes("m")).ok
    with pytest.raises(ReadOnlyStore):
        reader.create("liars-dice", 2, seed=1)
    with pytest.raises(ReadOnlyStore):
        reader.open("m")
    with pytest.raises(ReadOnlyStore):
        reader.delete("m")
    reader.close()
    assert store.path.read_bytes() == before


def test_a_version_1_database_is_upgraded_when_opened_for_writing(tmp_path: Path, minimal: Play) -> None:
    path = tmp_path / "old.db"
    m = minimal(Match.start("liars-dice", 2, seed=3), 2)
    SqliteStore(path).add(m, "m")
    with sqlite3.connect(path) as db:  # back to the tables of version 1
        db.execute("DROP TABLE changes")
        db.execute("DROP INDEX matches_by_changed")
        db.execute("ALTER TABLE matches DROP COLUMN changed")
        db.execute("PRAGMA user_version = 1")
    old = SqliteStore(path, readonly=True)
    assert old.version == 1 and old.log_bytes("m") == m.to_bytes()
    with pytest.raises(NotSupported, match="schema 1"):
        old.listen(lambda mid, records: None)
    old.close()
    upgraded = SqliteStore(path)
    assert upgraded.version == 3 and upgraded.open("m").records == m.records
    upgraded.listen(lambda mid, records: None).close()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone() == (3,)


def test_a_version_2_database_is_listened_to_read_only_and_upgraded_for_notes(tmp_path: Path, minimal: Play) -> None:
    import queue

    path = tmp_path / "old.db"
    store = SqliteStore(path, "flush")
    m = minimal(store.create("liars-dice", 2, seed=3, match_id="m"), 1)
    store.close()
    with sqlite3.connect(path) as db:  # back to the change feed of version 2: no notes
        db.execute("ALTER TABLE changes DROP COLUMN kind")
        db.execute("ALTER TABLE changes DROP COLUMN origin")
        db.execute("PRAGMA user_version = 2")
    old = SqliteStore(path, readonly=True, poll_interval=3600)
    got: queue.Queue[Any] = queue.Queue()
    sub = old.listen(lambda mid, records: got.put((mid, records)))
    writer = SqliteStore(path, "flush")  # opened for writing: upgraded
    assert writer.version == 3
    minimal(writer.open("m"), 1)
    sub._poll()  # type: ignore[attr-defined]
    assert got.get_nowait()[0] == "m"
    sub.close()
    old.close()
    with writer.transaction() as cur:
        writer.note(cur, "m", "seats", "me")
    assert sqlite3.connect(path).execute("SELECT match, kind, origin FROM changes ORDER BY seq DESC").fetchone() == (
        "m", "seats", "me")
    writer.close()
    assert len(m.records) >= 1


def test_the_change_feed_keeps_a_bounded_tail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, minimal: Play) -> None:
    from meeple.store import sqlite as sqlite_module

    monkeypatch.setattr(sqlite_module, "CHANGES_KEPT", 5)
    store = SqliteStore(tmp_path / "m.db", "flush")
    minimal(store.create("liars-dice", 2, seed=3, match_id="m"), 12)
    rows = sqlite3.connect(store.path).execute("SELECT count(*), max(seq) FROM changes").fetchone()
    assert rows == (5, 13)


def test_a_listener_that_falls_behind_the_feed_resyncs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       minimal: Play) -> None:
    import queue

    from meeple.store import sqlite as sqlite_module

    monkeypatch.setattr(sqlite_module, "CHANGES_KEPT", 2)
    listener = SqliteStore(tmp_path / "m.db", "flush", poll_interval=3600)  # it will not poll by itself
    got: queue.Queue[tuple[str, range]] = queue.Queue()
    sub = listener.listen(lambda mid, records: got.put((mid, records)))
    writer = SqliteStore(tmp_path / "m.db", "flush")
    minimal(writer.create("liars-dice", 2, seed=3, match_id="a"), 6)
    writer.create("liars-dice", 2, seed=3, match_id="b")
    sub._poll()  # type: ignore[attr-defined]  # one poll, long after the feed moved on
    assert [got.get_nowait() for _ in range(2)] == [("a", range(0, 7)), ("b", range(0, 1))]
    assert got.empty()
    sub.close()
    listener.close()
    writer.close()


def test_the_store_may_be_shared_by_threads(tmp_path: Path) -> None:
    import threading

    store = SqliteStore(tmp_path / "m.db", "flush")
    errors: list[BaseException] = []

    def play(i: int) -> None:
        try:
            m = store.create("liars-dice", 2, seed=i, match_id=f"t{i}")
            for _ in range(10):
                m.play(m.to_act[0], m.legal(m.to_act[0])[0])
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=play, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and [i.records for i in store.find()] == [11] * 4
    assert os.path.exists(store.path)


def test_writes_in_a_batch_name_their_savepoints_by_depth(store: SqliteStore) -> None:
    # every write of a batch is a savepoint; one name per depth keeps the same few statements prepared
    # (a new name for every write was a new statement to compile each time)
    m = store.create("liars-dice", 2, seed=5, match_id="m")
    said: list[str] = []
    store._db.set_trace_callback(said.append)  # the store's own connection, where its writes run
    with store.batch():
        for seat, bid in enumerate([ld.Bid(1, 2), ld.Bid(1, 3), ld.Bid(1, 4), ld.Bid(1, 5)]):
            m.play(seat % 2, bid)
    named = {s.split()[-1] for s in said if s.startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))}
    assert len([s for s in said if s.startswith("SAVEPOINT")]) == 4
    assert named == {"meeple_w1"}
    assert meeple.verify(store.log_bytes("m")).ok and store.info("m").records == m.cursor


def test_a_command_in_a_batch_is_one_row_update_between_its_feed_entry_and_its_record(store: SqliteStore) -> None:
    # the feed's entry comes first, so the match row's one update notes it too (a second update of the row
    # for its ``changed`` column was a statement more for every command); every write of the batch notes the
    # batch's time
    m1 = store.create("liars-dice", 2, seed=5, match_id="m1")
    m2 = store.create("liars-dice", 2, seed=6, match_id="m2")
    said: list[str] = []
    store._db.set_trace_callback(said.append)
    with store.batch():
        m1.play(0, ld.Bid(1, 2))
        m2.play(0, ld.Bid(1, 2))
    store._db.set_trace_callback(None)
    kinds = [" ".join(s.split()[:3]) for s in said]
    one = ["SAVEPOINT meeple_w1", "INSERT INTO changes", "UPDATE matches SET", "INSERT INTO records",
           "RELEASE SAVEPOINT meeple_w1"]
    assert kinds == ["BEGIN IMMEDIATE", *one, *one, "COMMIT"]
    db = sqlite3.connect(store.path)
    feed = db.execute("SELECT seq, match, start, stop FROM changes ORDER BY seq DESC LIMIT 2").fetchall()
    assert [r[1:] for r in feed] == [("m2", 1, 2), ("m1", 1, 2)]
    rows = dict(db.execute("SELECT id, changed FROM matches").fetchall())
    assert rows == {"m2": feed[0][0], "m1": feed[1][0]}
    assert store.info("m1").updated == store.info("m2").updated  # the batch's time
    db.close()
    assert store.open("m1").records == m1.records and meeple.verify(store.log_bytes("m2")).ok


def test_a_full_change_feed_is_trimmed_now_and_then_not_on_every_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, minimal: Play
) -> None:
    from meeple.store import sqlite as sqlite_module

    monkeypatch.setattr(sqlite_module, "CHANGES_KEPT", 1280)  # trimmed every 10th entry once full
    store = SqliteStore(tmp_path / "m.db", "flush")
    db = sqlite3.connect(store.path)
    db.executemany("INSERT INTO changes (match, start, stop) VALUES ('x', 0, 0)", [()] * 1300)
    db.commit()
    said: list[str] = []
    store._db.set_trace_callback(said.append)
    minimal(store.create("liars-dice", 2, seed=3, match_id="m"), 20)
    store._db.set_trace_callback(None)
    count, last = db.execute("SELECT count(*), max(seq) FROM changes").fetchone()
    assert last > 1310  # the match's writes: entries 1301...
    trims = [s for s in said if s.startswith("DELETE FROM changes")]
    assert trims == [f"DELETE FROM changes WHERE seq <= {seq - 1280}" for seq in range(1310, last + 1, 10)]
    assert 1280 <= count < 1290
    db.close()
