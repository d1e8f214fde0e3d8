"""The SQLite store: one database, many matches, conflicts instead of forks, search, snapshots."""

from __future__ import annotations

import datetime as dt
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
from meeple.store import MatchNotFound, SqliteStore, Status, StoreConflict, StoreError

Play = Callable[[Match, int], Match]


@pytest.fixture
def store(tmp_path: Path) -> SqliteStore:
    return SqliteStore(tmp_path / "m.db")


def test_the_stored_log_is_the_match_log_at_every_step(store: SqliteStore, minimal: Play) -> None:
    m = store.create("liars-dice", 3, seed=4, match_id="m")
    for _ in range(5):
        assert store.log_bytes("m") == m.to_bytes()
        minimal(m, 1)
    assert meeple.verify(store.log_bytes("m")).ok


def test_many_matches_share_one_database(store: SqliteStore, minimal: Play) -> None:
    a = minimal(store.create("liars-dice", 2, seed=1, match_id="a"), 3)
    b = minimal(store.create("liars-dice", 4, seed=2, match_id="b"), 5)
    assert store.open("a").records == a.records and store.open("b").records == b.records


def test_a_reopened_match_continues(store: SqliteStore, minimal: Play, finish: Callable[[Match], Match]) -> None:
    m = minimal(store.create("liars-dice", 2, seed=8, match_id="m"), 3)
    again = store.open("m")
    assert again.state == m.state
    finish(again)
    assert store.info("m").status is Status.OVER
    assert store.info("m").winners == again.outcome.winners  # type: ignore[union-attr]
    assert meeple.verify(store.log_bytes("m")).ok


def test_a_stale_copy_gets_a_conflict_and_changes_nothing(store: SqliteStore, tmp_path: Path) -> None:
    first = store.create("liars-dice", 2, seed=5, match_id="m")
    second = SqliteStore(tmp_path / "m.db").open("m")
    first.play(0, ld.Bid(1, 2))
    stored, state = store.log_bytes("m"), second.state
    with pytest.raises(StoreConflict, match="another writer played first"):
        second.play(0, ld.Bid(1, 3))
    assert second.state == state and len(second) == 1  # the losing copy did not move
    assert store.log_bytes("m") == stored  # the store kept the winner only
    fresh = SqliteStore(tmp_path / "m.db").open("m")
    fresh.play(1, ld.Bid(1, 3))  # reopening continues from the store
    assert meeple.verify(store.log_bytes("m")).ok


def test_a_conflict_after_an_undo_on_both_sides_is_still_caught(store: SqliteStore, tmp_path: Path) -> None:
    first = store.create("liars-dice", 2, seed=5, match_id="m")
    first.play(0, ld.Bid(1, 2))
    second = SqliteStore(tmp_path / "m.db").open("m")
    first.undo()
    first.play(0, ld.Bid(1, 4))  # same length, different head
    second.undo()
    with pytest.raises(StoreConflict):
        second.play(0, ld.Bid(1, 5))


def test_a_duplicate_sequence_number_is_refused_by_the_key(store: SqliteStore) -> None:
    store.create("liars-dice", 2, seed=5, match_id="m")
    db = sqlite3.connect(store.path)
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO records (match, seq, body, hash) VALUES ('m', 0, x'00', x'00')")
    db.close()


def test_a_taken_id_and_a_missing_match_are_reported(store: SqliteStore) -> None:
    store.create("liars-dice", 2, seed=5, match_id="m")
    with pytest.raises(StoreConflict, match="already in"):
        store.create("liars-dice", 2, seed=6, match_id="m")
    with pytest.raises(MatchNotFound):
        store.open("nope")
    with pytest.raises(StoreError, match="match id"):
        store.open("'; DROP TABLE matches; --")


def test_a_new_branch_after_undo_replaces_stored_records(store: SqliteStore) -> None:
    m = store.create("liars-dice", 2, seed=3, match_id="m")
    m.play(0, ld.Bid(1, 2))
    m.play(1, ld.Bid(1, 5))
    m.undo()
    m.play(1, ld.Bid(2, 2))
    assert store.log_bytes("m") == m.to_bytes()
    assert store.info("m").records == 3


def _populate(store: SqliteStore, finish: Callable[[Match], Match]) -> None:
    m = store.create("liars-dice", 2, seed=1, match_id="over2")
    m.play(0, ld.Bid(1, 1))
    finish(m)
    store.create("liars-dice", 2, seed=2, match_id="open2")
    store.create("liars-dice", 3, seed=3, match_id="open3")


def test_find_by_game_seats_and_status(store: SqliteStore, finish: Callable[[Match], Match]) -> None:
    _populate(store, finish)

    def ids(**kw: Any) -> list[str]:
        return [i.id for i in store.find(**kw)]

    assert ids() == ["over2", "open2", "open3"]
    assert ids(game="liars-dice", seats=2) == ["over2", "open2"]
    assert ids(status="over") == ["over2"] and ids(status=Status.IN_PROGRESS) == ["open2", "open3"]
    assert ids(game="kings") == [] and ids(limit=1) == ["over2"]
    with pytest.raises(StoreError, match="in_progress"):
        store.find(status="paused")
    with pytest.raises(StoreError, match="limit is an integer"):
        store.find(limit="all")  # once a ValueError from int()


def test_find_by_date(store: SqliteStore, finish: Callable[[Match], Match]) -> None:
    _populate(store, finish)
    created = [i.created for i in store.find()]
    assert all(c.tzinfo is not None for c in created)
    assert [i.id for i in store.find(since=created[1])] == ["open2", "open3"]
    assert [i.id for i in store.find(until=created[1])] == ["over2"]
    today = dt.datetime.now(dt.UTC).date()
    assert len(store.find(since=today)) == 3 and store.find(until=today) == []
    assert len(store.find(since=created[0].isoformat())) == 3
    with pytest.raises(StoreError, match="ISO 8601"):
        store.find(since="yesterday")


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


def test_delete_removes_everything(store: SqliteStore, minimal: Play) -> None:
    minimal(store.create("liars-dice", 2, seed=3, match_id="m"), 3)
    store.delete("m")
    with pytest.raises(MatchNotFound):
        store.open("m")
    assert sqlite3.connect(store.path).execute("SELECT count(*) FROM records").fetchone() == (0,)


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
    assert "sqlite://PATH#MATCH_ID" in capsys.readouterr().err
    assert main(["verify", f"sqlite://{store.path}#missing"]) == 2  # unreadable input, not a forged log


def test_meeple_repair_cuts_a_torn_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.meeple"
    Match.start("liars-dice", 2, seed=1).save(path)
    with open(path, "ab") as f:
        f.write(b"\x00\x00")
    assert main(["repair", str(path)]) == 0
    assert "cut a torn tail of 2 bytes; kept 1 intact records" in capsys.readouterr().out
    assert meeple.verify(path).ok


def test_a_closed_store_refuses_writes_and_the_match_stays_unchanged(store: SqliteStore) -> None:
    m = store.create("liars-dice", 2, seed=3, match_id="m")
    store.close()
    with pytest.raises(StoreError, match="cannot write"):
        m.play(0, ld.Bid(1, 2))
    assert len(m) == 1 and m.to_act == (0,)
    with pytest.raises(StoreError, match="cannot read"):
        store.find()


def test_add_stores_a_copy_of_a_match_up_to_its_cursor(store: SqliteStore, minimal: Play,
                                                         long_options: dict[str, Any]) -> None:
    m = minimal(Match.start("liars-dice", 6, seed=4, options=long_options), 70)
    m.undo()
    mid = store.add(m)
    assert store.log_bytes(mid) == m.to_bytes() and store.info(mid).records == 70
    again = store.open(mid)  # from the stored snapshot at record 64
    assert again.state == m.state
    with pytest.raises(StoreConflict):
        store.add(m, mid)


def test_the_cli_writes_sqlite_outputs(store: SqliteStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = f"sqlite://{store.path}#sim"
    assert main(["simulate", "liars-dice", "--seed", "3", "--bots", "random", "--quiet", "--out", src]) == 0
    assert main(["verify", src]) == 0
    assert main(["fork", src, "--at", "1", "--out", f"sqlite://{store.path}#forked"]) == 0
    assert store.info("forked").records == 1 and store.info("sim").status is Status.OVER
    capsys.readouterr()
