"""The contract every store keeps, run against the file, SQLite and PostgreSQL stores.

:class:`StoreContract` holds the tests; each ``Test...Store`` class at the
bottom says where its store lives (``address``) and what differs (a file has
one writer, so a second one is refused when it opens; files cannot notify
other processes). The PostgreSQL tests run on a real server that the
``postgres_server`` fixture starts (``tests/conftest.py``); each test gets a
schema of its own.

Concurrency and crash tests run where they make sense: several processes
writing one match of a database store, and a writer killed with SIGKILL at
random moments (the file store's own crash tests, with torn tails and
repair, are in ``test_crash.py``).
"""

from __future__ import annotations

import datetime as dt
import multiprocessing as mp
import queue
import random
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any, ClassVar

import pytest

import liars_dice as ld
import meeple
from meeple import Match
from meeple.engine.errors import CorruptLog
from meeple.store import (
    MatchExists,
    MatchNotFound,
    NotSupported,
    Status,
    Store,
    StoreClosed,
    StoreConflict,
    StoreError,
    list_matches,
    load_log,
    log_bytes,
    open_match,
    open_store,
    save_match,
)

Play = Callable[[Match, int], Match]
WORKERS = 4
KILLS = 5


def _wait_for(q: queue.Queue[Any], n: int, timeout: float = 10.0) -> list[Any]:
    got = []
    deadline = time.monotonic() + timeout
    while len(got) < n:
        try:
            got.append(q.get(timeout=max(0.01, deadline - time.monotonic())))
        except queue.Empty:
            break
    return got


class StoreContract:
    """The tests every store passes. A subclass sets ``address`` in its ``_place`` fixture."""

    kind: ClassVar[str]
    #: A second writer is refused when it opens the match (files), not when it plays (databases).
    conflict_at_open: ClassVar[bool] = False
    #: Whether ``listen`` is offered.
    can_listen: ClassVar[bool] = True

    address: str
    _stores: list[Store]

    @pytest.fixture(autouse=True)
    def _track(self, _place: None) -> Iterator[None]:
        self._stores = []
        yield
        for s in self._stores:
            s.close()

    def new_store(self, **kw: Any) -> Store:
        """Another store object on the same place (in a real deployment: another process)."""
        s = open_store(self.address, **kw)
        self._stores.append(s)
        return s

    def tamper_last_record(self, match_id: str) -> None:
        """Change the stored chain hash of the match's last record behind the store's back (database stores)."""
        s: Any = self.new_store()
        with s._write() as cur:
            cur.execute(s._q("UPDATE records SET hash = ? WHERE match = ? AND seq = "
                             "(SELECT max(seq) FROM records WHERE match = ?)"), (bytes(16), match_id, match_id))

    def source(self, match_id: str) -> str:
        """The source string naming one match of this store."""
        return f"{self.address}#{match_id}"

    # -- writing and reading back ---------------------------------------------------------
    def test_the_stored_log_is_the_match_log_at_every_step(self, minimal: Play) -> None:
        store = self.new_store()
        m = store.create("liars-dice", 3, seed=4, match_id="m")
        for _ in range(5):
            assert store.log_bytes("m") == m.to_bytes()
            minimal(m, 1)
        assert store.log_bytes("m") == m.to_bytes()
        assert meeple.verify(store.log_bytes("m")).ok
        assert store.load_log("m").records == list(m.records)

    def test_many_matches_share_one_store(self, minimal: Play) -> None:
        store = self.new_store()
        a = minimal(store.create("liars-dice", 2, seed=1, match_id="a"), 3)
        b = minimal(store.create("liars-dice", 4, seed=2, match_id="b"), 5)
        store.close()
        other = self.new_store()
        assert other.open("a").records == a.records and other.open("b").records == b.records
        assert other.ids() == ["a", "b"]

    def test_a_reopened_match_continues(self, minimal: Play, finish: Callable[[Match], Match]) -> None:
        store = self.new_store()
        m = minimal(store.create("liars-dice", 2, seed=8, match_id="m"), 3)
        store.close()
        store = self.new_store()
        again = store.open("m")
        assert again.state == m.state and again.records == m.records
        finish(again)
        info = store.info("m")
        assert info.status is Status.OVER and info.winners == again.outcome.winners  # type: ignore[union-attr]
        assert info.records == len(again)
        assert meeple.verify(store.log_bytes("m")).ok

    def test_a_new_branch_after_undo_replaces_the_stored_records(self) -> None:
        store = self.new_store()
        m = store.create("liars-dice", 2, seed=3, match_id="m")
        m.play(0, ld.Bid(1, 2))
        m.play(1, ld.Bid(1, 5))
        m.undo()
        assert store.log_bytes("m") != m.to_bytes()  # undo moves the cursor only
        m.play(1, ld.Bid(2, 2))
        assert store.log_bytes("m") == m.to_bytes()
        assert [r.command for r in store.load_log("m").records][1:] == [ld.Bid(1, 2), ld.Bid(2, 2)]
        assert store.info("m").records == 3

    def test_add_stores_a_copy_up_to_the_cursor(self, minimal: Play, long_options: dict[str, Any]) -> None:
        store = self.new_store()
        m = minimal(Match.start("liars-dice", 6, seed=4, options=long_options), 70)
        m.undo()
        mid = store.add(m, "copy")
        assert mid == "copy" and store.log_bytes(mid) == m.to_bytes() and store.info(mid).records == 70
        again = store.open(mid)
        assert again.state == m.state
        again.play(again.to_act[0], again.legal(again.to_act[0])[0])  # the copy plays on in the store
        assert store.log_bytes(mid) == again.to_bytes()
        generated = store.add(m)
        assert generated != mid and store.log_bytes(generated) == m.to_bytes()

    def test_add_refuses_a_taken_id_unless_asked_to_replace(self, minimal: Play) -> None:
        store = self.new_store()
        store.create("liars-dice", 2, seed=1, match_id="m")
        other = minimal(Match.start("liars-dice", 3, seed=2), 2)
        with pytest.raises(MatchExists):
            store.add(other, "m")
        assert store.info("m").seats == 2
        store.close()
        store = self.new_store()
        store.add(other, "m", replace=True)
        assert store.log_bytes("m") == other.to_bytes() and store.info("m").seats == 3

    # -- refusals -------------------------------------------------------------------------
    def test_a_second_writer_gets_a_conflict_and_nothing_changes(self) -> None:
        first = self.new_store().create("liars-dice", 2, seed=5, match_id="m")
        if self.conflict_at_open:
            with pytest.raises(StoreConflict):
                self.new_store().open("m")
            return
        second = self.new_store().open("m")
        first.play(0, ld.Bid(1, 2))
        reader = self.new_store()
        stored, state = reader.log_bytes("m"), second.state
        with pytest.raises(StoreConflict, match="another writer played first"):
            second.play(0, ld.Bid(1, 3))
        assert second.state == state and len(second) == 1  # the losing copy did not move
        assert reader.log_bytes("m") == stored  # the store kept the winner only
        fresh = self.new_store().open("m")
        fresh.play(1, ld.Bid(1, 3))  # reopening continues from the store
        assert meeple.verify(reader.log_bytes("m")).ok

    def test_a_conflict_after_an_undo_on_both_sides_is_still_caught(self) -> None:
        if self.conflict_at_open:
            pytest.skip("a file has one writer: a second copy cannot be opened")
        first = self.new_store().create("liars-dice", 2, seed=5, match_id="m")
        first.play(0, ld.Bid(1, 2))
        second = self.new_store().open("m")
        first.undo()
        first.play(0, ld.Bid(1, 4))  # same length, different head
        second.undo()
        with pytest.raises(StoreConflict):
            second.play(0, ld.Bid(1, 5))

    # -- catching up with another writer (database stores) --------------------------------
    def test_catch_up_folds_only_the_records_another_writer_added(self, minimal: Play,
                                                                  long_options: dict[str, Any]) -> None:
        if self.kind == "file":
            pytest.skip("a file has one writer")
        writer = self.new_store().create("liars-dice", 3, seed=6, options=long_options, match_id="m")
        reader = self.new_store()
        copy = reader.open("m")
        for steps in (1, 2, 70):  # 70 crosses checkpoint positions: their snapshots come along
            minimal(writer, steps)
            caught = reader.catch_up(copy)  # type: ignore[attr-defined]
            assert caught is copy  # the same object, extended
            assert copy.records == writer.records and copy.state == writer.state
            assert copy.to_bytes() == writer.to_bytes() == reader.log_bytes("m")
        assert reader.catch_up(copy) is copy and copy.cursor == len(writer.records)  # type: ignore[attr-defined]
        minimal(copy, 1)  # the copy writes on from where it caught up: no conflict
        assert reader.log_bytes("m") == copy.to_bytes() and meeple.verify(reader.log_bytes("m")).ok
        end = copy.cursor
        copy.undo()
        assert copy.cursor < end
        assert reader.catch_up(copy).cursor == end  # type: ignore[attr-defined]  # back at the store's end

    def test_catch_up_takes_the_records_a_notification_carried_without_reading_them(self) -> None:
        if self.kind != "postgresql":
            pytest.skip("only PostgreSQL's notifications carry the records")
        reader: Any = self.new_store()
        got: queue.Queue[Any] = queue.Queue()
        sub = reader.listen(lambda mid, records: got.put(records))
        writer = self.new_store().create("liars-dice", 2, seed=3, match_id="m")
        copy = reader.open("m")
        writer.play(0, ld.Bid(1, 2))
        writer.play(1, ld.Bid(1, 5))
        assert _wait_for(got, 3)[-1] == range(2, 3)
        recent = sub.recent("m", len(copy.records))
        assert [seq for seq, _, _ in recent] == [1, 2]
        other: Any = self.new_store()
        behind = other.open("m")
        behind.undo()
        self.tamper_last_record("m")  # a read of the store would now fail: the rows come from the feed
        assert reader.catch_up(copy, recent) is copy and copy.records == writer.records
        assert copy.to_bytes() == writer.to_bytes()
        with pytest.raises(CorruptLog):  # rows that do not continue the copy's chain: the store is read
            other.catch_up(behind, [(len(writer.records), b"forged", bytes(16))])
        sub.close()

    def test_catch_up_reads_the_match_again_after_a_new_branch(self) -> None:
        if self.kind == "file":
            pytest.skip("a file has one writer")
        writer = self.new_store().create("liars-dice", 2, seed=3, match_id="m")
        writer.play(0, ld.Bid(1, 2))
        writer.play(1, ld.Bid(1, 5))
        reader = self.new_store()
        copy = reader.open("m")
        writer.undo()
        writer.play(1, ld.Bid(2, 2))  # as many records, another head: the copy's last record is gone
        caught = reader.catch_up(copy)  # type: ignore[attr-defined]
        assert caught is not copy and caught.records == writer.records
        caught.play(0, ld.Bid(2, 3))  # attached: it writes on
        assert reader.log_bytes("m") == caught.to_bytes()

    def test_catch_up_refuses_a_tampered_tail(self) -> None:
        if self.kind == "file":
            pytest.skip("a file has one writer")
        writer = self.new_store().create("liars-dice", 2, seed=3, match_id="m")
        reader = self.new_store()
        copy = reader.open("m")
        writer.play(0, ld.Bid(1, 2))
        self.tamper_last_record("m")
        with pytest.raises(CorruptLog):
            reader.catch_up(copy)  # type: ignore[attr-defined]
        assert len(copy.records) == 1  # unchanged

    # -- group commit (database stores) --------------------------------------------------
    def test_a_batch_commits_every_match_at_once_and_a_conflict_undoes_only_its_own_write(self) -> None:
        if self.kind == "file":
            pytest.skip("a file store writes one match per file: there is nothing to group")
        store = self.new_store()
        m1 = store.create("liars-dice", 2, seed=5, match_id="m1")
        m2 = store.create("liars-dice", 2, seed=6, match_id="m2")
        self.new_store().open("m2").play(0, ld.Bid(1, 2))  # another writer: this copy of m2 is behind
        reader = self.new_store()
        n1, n2 = reader.info("m1").records, reader.info("m2").records
        with store.batch():  # type: ignore[attr-defined]
            m1.play(0, ld.Bid(1, 2))
            assert reader.info("m1").records == n1  # not committed yet, so not visible
            with pytest.raises(StoreConflict, match="another writer played first"):
                m2.play(0, ld.Bid(1, 3))
            m1.play(1, ld.Bid(1, 3))  # the failed write undid itself only
        assert reader.info("m1").records == n1 + 2 and reader.info("m2").records == n2
        assert reader.log_bytes("m1") == m1.to_bytes() and meeple.verify(reader.log_bytes("m2")).ok

    def test_a_batch_that_fails_stores_nothing_of_it(self) -> None:
        if self.kind == "file":
            pytest.skip("a file store has no batch")
        store = self.new_store()
        m = store.create("liars-dice", 2, seed=5, match_id="m")
        n = store.info("m").records
        with pytest.raises(RuntimeError), store.batch():  # type: ignore[attr-defined]
            m.play(0, ld.Bid(1, 2))
            raise RuntimeError("the batch's owner failed before the commit")
        assert self.new_store().info("m").records == n
        fresh = store.open("m")  # the copy in memory moved; the store's is the truth
        fresh.play(0, ld.Bid(1, 4))
        assert self.new_store().info("m").records == n + 1

    def test_a_taken_id_a_missing_match_and_a_bad_id_are_reported(self) -> None:
        store = self.new_store()
        store.create("liars-dice", 2, seed=5, match_id="m")
        with pytest.raises(MatchExists, match="already"):
            store.create("liars-dice", 2, seed=6, match_id="m")
        for missing in (store.open, store.log_bytes, store.load_log, store.info, store.delete):
            with pytest.raises(MatchNotFound):
                missing("nope")
        for bad in ("'; DROP TABLE matches; --", "../m", "a/b", ".hidden", "", "x" * 200):
            with pytest.raises(StoreError, match="match id"):
                store.open(bad)
            with pytest.raises(StoreError, match="match id"):
                store.create("liars-dice", 2, seed=1, match_id=bad)

    def test_a_closed_store_refuses_commands_and_the_match_stays_unchanged(self) -> None:
        store = self.new_store()
        m = store.create("liars-dice", 2, seed=3, match_id="m")
        before = store.log_bytes("m")
        store.close()
        with pytest.raises(StoreClosed):
            m.play(0, ld.Bid(1, 2))
        assert len(m) == 1 and m.to_act == (0,), "a refused command changed the match"
        assert self.new_store().log_bytes("m") == before
        self.new_store().open("m").play(0, ld.Bid(1, 2))  # reopened, it plays on

    def test_delete_removes_everything(self, minimal: Play) -> None:
        store = self.new_store()
        m = minimal(store.create("liars-dice", 2, seed=3, match_id="m"), 3)
        store.close()
        store = self.new_store()
        store.create("liars-dice", 2, seed=3, match_id="kept")
        store.delete("m")
        with pytest.raises(MatchNotFound):
            store.open("m")
        assert store.ids() == ["kept"]
        store.add(m, "m")  # the id is free again
        assert store.log_bytes("m") == m.to_bytes()

    # -- search ---------------------------------------------------------------------------
    def _populate(self, store: Store, finish: Callable[[Match], Match]) -> None:
        m = store.create("liars-dice", 2, seed=1, match_id="over2")
        m.play(0, ld.Bid(1, 1))
        finish(m)
        for mid, seats in (("open2", 2), ("open3", 3)):
            time.sleep(0.01)  # distinct creation times, even from a coarse file system clock
            store.create("liars-dice", seats, seed=seats, match_id=mid)

    def test_find_by_game_seats_status_and_limit(self, finish: Callable[[Match], Match]) -> None:
        store = self.new_store()
        self._populate(store, finish)
        store.close()
        store = self.new_store()

        def ids(**kw: Any) -> list[str]:
            return [i.id for i in store.find(**kw)]

        assert ids() == ["over2", "open2", "open3"]
        assert ids(game="liars-dice", seats=2) == ["over2", "open2"]
        assert ids(status="over") == ["over2"] and ids(status=Status.IN_PROGRESS) == ["open2", "open3"]
        assert ids(game="kings") == [] and ids(limit=1) == ["over2"] and ids(limit=0) == []
        with pytest.raises(StoreError, match="in_progress"):
            store.find(status="paused")
        with pytest.raises(StoreError, match="limit is an integer"):
            store.find(limit="all")  # type: ignore[arg-type]
        with pytest.raises(StoreError, match="non-negative"):
            store.find(limit=-1)

    def test_find_by_date(self, finish: Callable[[Match], Match]) -> None:
        store = self.new_store()
        self._populate(store, finish)
        created = [i.created for i in store.find()]
        assert all(c.tzinfo is not None for c in created) and created == sorted(created)
        assert [i.id for i in store.find(since=created[1])] == ["open2", "open3"]
        assert [i.id for i in store.find(until=created[1])] == ["over2"]
        today = dt.datetime.now(dt.UTC).date()
        assert len(store.find(since=today)) == 3 and store.find(until=today) == []
        assert len(store.find(since=created[0].isoformat())) == 3
        with pytest.raises(StoreError, match="ISO 8601"):
            store.find(since="yesterday")

    def test_info_describes_a_match(self, minimal: Play) -> None:
        store = self.new_store()
        m = minimal(store.create("liars-dice", 3, seed=2, options={"dice": 2}, match_id="m"), 2)
        info = store.info("m")
        assert (info.id, info.game, info.seats, info.status, info.winners, info.records) == (
            "m", "liars-dice", 3, Status.IN_PROGRESS, None, len(m))
        assert info.options["dice"] == 2 and info.rules == m.game.info.rules_version
        assert info.created <= info.updated and info.updated.tzinfo is not None

    def test_list_matches_reads_any_store_by_its_address(self, finish: Callable[[Match], Match]) -> None:
        self._populate(self.new_store(), finish)
        assert [i.id for i in list_matches(self.address)] == ["over2", "open2", "open3"]
        assert [i.id for i in list_matches(self.address, status="over")] == ["over2"]

    # -- sources ----------------------------------------------------------------------------
    def test_a_source_names_a_match_for_reading_playing_and_writing(self, minimal: Play) -> None:
        store = self.new_store()
        m = minimal(store.create("liars-dice", 2, seed=3, match_id="m"), 2)
        store.close()
        src = self.source("m")
        assert log_bytes(src) == m.to_bytes() and load_log(src).records == list(m.records)
        again = open_match(src)
        minimal(again, 1)
        assert log_bytes(src) == again.to_bytes()
        del again
        import gc

        gc.collect()  # the file store's lock goes with the match
        save_match(m, self.source("copy"))
        assert log_bytes(self.source("copy")) == m.to_bytes()
        with pytest.raises(MatchExists):
            save_match(m, self.source("copy"))
        longer = minimal(Match.start("liars-dice", 2, seed=3), 4)
        save_match(longer, self.source("copy"), overwrite=True)
        assert log_bytes(self.source("copy")) == longer.to_bytes()

    def test_reading_a_store_that_is_not_there_creates_nothing(self) -> None:
        missing = self.missing_address()
        with pytest.raises(MatchNotFound):
            list_matches(missing)
        with pytest.raises(MatchNotFound):
            log_bytes(f"{missing}#m" if self.kind != "file" else str(Path(missing) / "m.meeple"))
        self.assert_absent(missing)

    def missing_address(self) -> str:
        raise NotImplementedError

    def assert_absent(self, address: str) -> None:
        raise NotImplementedError

    # -- listening --------------------------------------------------------------------------
    def test_listen_reports_every_commit_in_order(self) -> None:
        writer, listener = self.new_store(), self.new_store()
        got: queue.Queue[tuple[str, range]] = queue.Queue()
        if not self.can_listen:
            with pytest.raises(NotSupported):
                listener.listen(lambda mid, records: got.put((mid, records)))
            return
        sub = listener.listen(lambda mid, records: got.put((mid, records)))
        m = writer.create("liars-dice", 2, seed=3, match_id="a")
        assert _wait_for(got, 1) == [("a", range(0, 1))]
        m.play(0, ld.Bid(1, 2))
        m.play(1, ld.Bid(1, 5))
        m.undo()
        m.play(1, ld.Bid(2, 2))  # a new branch from record 2
        writer.add(Match.start("liars-dice", 3, seed=1), "b")
        writer.delete("a")
        assert _wait_for(got, 5) == [("a", range(1, 2)), ("a", range(2, 3)), ("a", range(2, 3)),
                                     ("b", range(0, 1)), ("a", range(0, 0))]
        sub.close()
        assert sub.closed
        writer.create("liars-dice", 2, seed=3, match_id="c")
        time.sleep(0.3)
        assert got.empty(), "a closed subscription called back"

    def test_notes_travel_with_the_commits_in_commit_order(self) -> None:
        if not self.can_listen:
            pytest.skip("this store has no change feed")
        store: Any = self.new_store()
        got: queue.Queue[Any] = queue.Queue()
        sub = store.listen(lambda mid, records: got.put(("commit", mid, records)),
                           notes=lambda mid, kind, origin: got.put(("note", mid, kind, origin)))
        writer: Any = self.new_store()
        m = writer.create("liars-dice", 2, seed=1, match_id="m")
        with writer.transaction() as cur:
            writer.note(cur, "m", "cursor", "process-a")
        m.play(0, ld.Bid(1, 2))
        with pytest.raises(RuntimeError), writer.transaction() as cur:  # a note rolled back is never heard
            writer.note(cur, "m", "lost", "process-a")
            raise RuntimeError
        with writer.transaction() as cur:
            writer.note(cur, "m", "seats", "process-b")
        heard = _wait_for(got, 4)
        assert heard == [("commit", "m", range(0, 1)), ("note", "m", "cursor", "process-a"),
                         ("commit", "m", range(1, 2)), ("note", "m", "seats", "process-b")]
        assert _wait_for(got, 1, timeout=0.3) == []
        sub.close()

    def test_tables_beside_the_store_take_one_sql_on_every_database(self) -> None:
        if self.kind == "file":
            pytest.skip("a file store has no database")
        store: Any = self.new_store()
        with store.transaction(schema="extra") as cur:
            cur.execute(f"CREATE TABLE IF NOT EXISTS extra (id TEXT PRIMARY KEY, data {store.COLUMN_TYPES['blob']}, "
                        f"x {store.COLUMN_TYPES['real']}, n {store.COLUMN_TYPES['bigint']})")
            cur.executemany("INSERT INTO extra (id, data, x, n) VALUES (?, ?, ?, ?)",
                            [("a", b"\x00\x01", 0.5, 2**62), ("b", b"", None, -1)])
        with pytest.raises(StoreError), store.transaction() as cur:
            try:
                cur.execute("INSERT INTO extra (id, data) VALUES (?, ?)", ("a", b""))
            except Exception as e:
                assert store.is_duplicate(e)
                raise StoreError("duplicate") from None
        rows = store.query("SELECT id, data, x, n FROM extra ORDER BY id")
        assert [(i, bytes(d), x, n) for i, d, x, n in rows] == [("a", b"\x00\x01", 0.5, 2**62), ("b", b"", None, -1)]

    def test_a_failing_callback_does_not_stop_the_subscription(self, caplog: pytest.LogCaptureFixture) -> None:
        if not self.can_listen:
            pytest.skip("this store does not listen")
        got: queue.Queue[str] = queue.Queue()

        def callback(mid: str, records: range) -> None:
            got.put(mid)
            if mid == "bad":
                raise RuntimeError("the callback broke")

        listener = self.new_store()
        with listener.listen(callback):
            writer = self.new_store()
            writer.create("liars-dice", 2, seed=1, match_id="bad")
            writer.create("liars-dice", 2, seed=1, match_id="good")
            assert _wait_for(got, 2) == ["bad", "good"]
        assert "the callback broke" in caplog.text

    def test_closing_the_store_closes_its_subscriptions(self) -> None:
        if not self.can_listen:
            pytest.skip("this store does not listen")
        listener = self.new_store()
        sub = listener.listen(lambda mid, records: None)
        listener.close()
        assert sub.closed
        with pytest.raises(StoreClosed):
            listener.listen(lambda mid, records: None)

    def test_listen_hears_commits_of_another_process(self) -> None:
        if not self.can_listen:
            pytest.skip("this store does not listen")
        ctx = mp.get_context("fork")
        go = ctx.Event()
        proc = ctx.Process(target=_write_when_told, args=(self.address, go))
        proc.start()  # before any listener thread exists: fork copies no running thread
        got: queue.Queue[tuple[str, range]] = queue.Queue()
        try:
            with self.new_store().listen(lambda mid, records: got.put((mid, records))):
                go.set()
                heard = _wait_for(got, 4)
        finally:
            proc.join(30)
        assert proc.exitcode == 0
        assert heard == [("far", range(0, 1)), ("far", range(1, 2)), ("far", range(2, 3)), ("far", range(3, 4))]

    # -- several processes at once ------------------------------------------------------------
    def test_concurrent_writers_in_lockstep_take_each_sequence_number_once(self) -> None:
        if self.conflict_at_open:
            pytest.skip("a file has one writer (test_file_store checks that a second is refused)")
        self.new_store().create("liars-dice", 3, seed=77, options={"dice": 2}, match_id="race")
        ctx = mp.get_context("fork")
        barrier = ctx.Barrier(WORKERS)
        results = ctx.Queue()
        procs = [ctx.Process(target=_lockstep_worker, args=(self.address, i, barrier, results)) for i in range(WORKERS)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(60)
            assert p.exitcode == 0
        outcomes: list[tuple[int, int, str]] = []
        while True:
            try:
                outcomes.append(results.get(timeout=0.5))
            except queue.Empty:
                break
        store = self.new_store()
        n = store.info("race").records
        rounds = n - 1  # every record after the set-up roll came from one round
        wins = [o for o in outcomes if o[2] == "ok"]
        assert len(wins) == rounds, "exactly one writer wins each round"
        assert sorted(w[0] for w in wins) == list(range(2, n + 1)), "each sequence number was taken once"
        assert sum(o[2] == "conflict" for o in outcomes) == rounds * (WORKERS - 1), "every loser got the conflict"
        report = meeple.verify(store.log_bytes("race"))
        assert report.ok and report.outcome is not None

    def test_concurrent_writers_free_for_all_lose_nothing_and_fork_nothing(self) -> None:
        if self.conflict_at_open:
            pytest.skip("a file has one writer (test_file_store checks that a second is refused)")
        self.new_store().create("liars-dice", 6, seed=5, options={"dice": 5, "sides": 12}, match_id="free")
        ctx = mp.get_context("fork")
        results = ctx.Queue()
        procs = [ctx.Process(target=_free_worker, args=(self.address, i, results)) for i in range(WORKERS)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(120)
            assert p.exitcode == 0
        stats = [results.get(timeout=5) for _ in procs]
        store = self.new_store()
        n = store.info("free").records
        report = meeple.verify(store.log_bytes("free"))
        assert len(store.open("free")) == n
        assert sum(won for _, won, _ in stats) == n - 1, "every acknowledged command is stored, and only those"
        assert report.ok and report.outcome is not None

    def test_sigkill_never_loses_an_acknowledged_record(self, kill_writer: Any) -> None:
        if self.kind == "file":
            pytest.skip("test_crash.py kills file writers, with torn tails and repair")
        rnd = random.Random(7)
        previous = 0
        for _ in range(KILLS):
            acked, _, over = kill_writer("db", self.address, rnd.uniform(0.0, 0.3), "fsync")
            store = self.new_store()
            info = store.info("crash")
            assert info.records >= acked >= previous, f"{acked} records were acknowledged, {info.records} stored"
            assert meeple.verify(store.log_bytes("crash")).ok
            m = store.open("crash")
            assert len(m) == info.records
            previous = info.records
            store.close()
            if over:
                break


def _write_when_told(address: str, go: Any) -> None:
    go.wait(30)
    store = open_store(address)
    m = store.create("liars-dice", 2, seed=9, match_id="far")
    for _ in range(3):
        m.play(m.to_act[0], m.legal(m.to_act[0])[0])
    store.close()


def _lockstep_worker(address: str, index: int, barrier: Barrier, results: Any) -> None:
    """Each round: open the match, wait for everybody, then all play at once."""
    store = open_store(address)
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


def _free_worker(address: str, index: int, results: Any) -> None:
    """Play whenever possible, reopening after each conflict, until the match ends."""
    rnd = random.Random(index)
    store = open_store(address)
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


# -- the stores ---------------------------------------------------------------------------------


class TestFileStore(StoreContract):
    kind = "file"
    conflict_at_open = True
    can_listen = False

    @pytest.fixture
    def _place(self, tmp_path: Path) -> None:
        self.tmp = tmp_path
        self.address = str(tmp_path / "matches")

    def source(self, match_id: str) -> str:
        return str(Path(self.address) / f"{match_id}.meeple")

    def new_store(self, **kw: Any) -> Store:
        import gc

        gc.collect()  # a match dropped by a test releases its file's lock
        return super().new_store(**kw)

    def missing_address(self) -> str:
        return str(self.tmp / "nowhere")

    def assert_absent(self, address: str) -> None:
        assert not Path(address).exists()


class TestSqliteStore(StoreContract):
    kind = "sqlite"

    @pytest.fixture
    def _place(self, tmp_path: Path) -> None:
        self.tmp = tmp_path
        self.address = f"sqlite:{tmp_path}/matches.db"

    def new_store(self, **kw: Any) -> Store:
        return super().new_store(**({"durability": "flush"} | kw))

    def missing_address(self) -> str:
        return f"sqlite:{self.tmp}/nowhere.db"

    def assert_absent(self, address: str) -> None:
        assert list(self.tmp.iterdir()) == [], "reading created a file"


class TestPostgresStore(StoreContract):
    kind = "postgresql"

    @pytest.fixture
    def _place(self, postgres_server: Any) -> Iterator[None]:
        self.server = postgres_server
        self.schema = f"t_{uuid.uuid4().hex[:12]}"
        self.address = postgres_server.url(schema=self.schema)
        yield
        import psycopg

        with psycopg.connect(postgres_server.dsn, autocommit=True) as db:
            db.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')

    def missing_address(self) -> str:
        return self.server.url(schema=f"{self.schema}_missing")

    def assert_absent(self, address: str) -> None:
        import psycopg

        with psycopg.connect(self.server.dsn) as db:
            found = db.execute("SELECT count(*) FROM pg_namespace WHERE nspname = %s",
                               (f"{self.schema}_missing",)).fetchone()
        assert found == (0,), "reading created the schema"


def test_the_threads_of_a_listener_end_when_closed(tmp_path: Path) -> None:
    """No thread is left behind by a closed subscription (a server opens and closes many)."""
    before = threading.active_count()
    store = open_store(f"sqlite:{tmp_path}/m.db")
    for _ in range(5):
        store.listen(lambda mid, records: None).close()
    store.close()
    assert threading.active_count() == before
