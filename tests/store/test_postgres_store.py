"""What is PostgreSQL's own in the PostgreSQL store: schemas, lost connections, a crashed server.

The contract every store keeps is tested in ``test_contract.py``; these run
on the real server of the ``postgres_server`` fixture, and the crash test on
a server of its own that it kills (``pg_ctl stop -m immediate``: every
server process quits at once, without a checkpoint, as in a power cut of
the server alone) and restarts.
"""

from __future__ import annotations

import queue
import random
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

import liars_dice as ld
import meeple
from meeple import Match
from meeple.store import MatchNotFound, PostgresStore, ReadOnlyStore, StoreError, open_store


@pytest.fixture
def schema(postgres_server: Any) -> Iterator[str]:
    name = f"t_{uuid.uuid4().hex[:12]}"
    yield name
    with psycopg.connect(postgres_server.dsn, autocommit=True) as db:
        db.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def _backends(dsn: str, application: str) -> list[int]:
    """The server processes of the connections whose application_name is ``application``."""
    with psycopg.connect(dsn, autocommit=True) as db:
        rows = db.execute("SELECT pid FROM pg_stat_activity WHERE application_name = %s", (application,)).fetchall()
    return [pid for (pid,) in rows]


def _terminate(dsn: str, pids: list[int]) -> None:
    with psycopg.connect(dsn, autocommit=True) as db:
        for pid in pids:
            db.execute("SELECT pg_terminate_backend(%s)", (pid,))


def test_tables_live_in_the_schema_asked_for(postgres_dsn: str, schema: str) -> None:
    with PostgresStore(postgres_dsn, schema=schema) as store:
        store.create("liars-dice", 2, seed=1, match_id="m")
    with psycopg.connect(postgres_dsn) as db:
        tables = db.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = %s "
                            "ORDER BY table_name", (schema,)).fetchall()
        public = db.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'").fetchone()
    assert [t for (t,) in tables] == ["matches", "records", "snapshots", "store_info"]
    assert public == (0,)


@pytest.mark.parametrize("bad", ["Meeple", "a-b", "x; DROP TABLE y", "", "a" * 49, "1abc"])
def test_a_bad_schema_name_is_refused(postgres_dsn: str, bad: str) -> None:
    with pytest.raises(StoreError, match="schema name"):
        PostgresStore(postgres_dsn, schema=bad)


def test_a_store_of_a_newer_schema_is_refused(postgres_dsn: str, schema: str) -> None:
    PostgresStore(postgres_dsn, schema=schema).close()
    with psycopg.connect(postgres_dsn, autocommit=True) as db:
        db.execute(f'UPDATE "{schema}".store_info SET value = 99')
    with pytest.raises(StoreError, match="newer"):
        PostgresStore(postgres_dsn, schema=schema)


def test_a_read_only_store_creates_and_changes_nothing(postgres_dsn: str, schema: str) -> None:
    with pytest.raises(MatchNotFound, match="no meeple store"):
        PostgresStore(postgres_dsn, schema=schema, readonly=True)
    with psycopg.connect(postgres_dsn) as db:
        assert db.execute("SELECT count(*) FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone() == (0,)
    with PostgresStore(postgres_dsn, schema=schema) as store:
        store.create("liars-dice", 2, seed=1, match_id="m")
    reader = PostgresStore(postgres_dsn, schema=schema, readonly=True)
    assert reader.ids() == ["m"] and meeple.verify(reader.log_bytes("m")).ok
    for write in (lambda: reader.create("liars-dice", 2, seed=1), lambda: reader.open("m"),
                  lambda: reader.delete("m")):
        with pytest.raises(ReadOnlyStore):
            write()
    reader.close()


def test_stores_made_at_once_on_a_new_schema_do_not_trip_on_each_other(postgres_dsn: str, schema: str) -> None:
    errors: list[BaseException] = []
    start = threading.Barrier(6)

    def make() -> None:
        try:
            start.wait()
            PostgresStore(postgres_dsn, schema=schema).close()
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=make) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_messages_never_show_the_password(postgres_server: Any) -> None:
    with pytest.raises(StoreError, match="cannot connect") as err:
        PostgresStore(f"postgresql://nobody:hunter2-secret@/nonexistent_db?host={postgres_server.root}")
    assert "hunter2-secret" not in str(err.value) and "user=nobody" in str(err.value)


def test_the_store_reconnects_after_its_connection_is_killed(postgres_dsn: str, schema: str) -> None:
    store = PostgresStore(postgres_dsn, schema=schema)
    m = store.create("liars-dice", 2, seed=3, match_id="m")
    _terminate(postgres_dsn, _backends(postgres_dsn, "meeple store"))
    with pytest.raises(StoreError):  # the command in flight on the dead connection is refused
        m.play(0, ld.Bid(1, 2))
    assert len(m) == 1
    m.play(0, ld.Bid(1, 2))  # the next one reconnects
    assert store.log_bytes("m") == m.to_bytes()
    store.close()


def test_a_listener_whose_connection_drops_reconnects_and_resyncs(postgres_dsn: str, schema: str) -> None:
    writer = PostgresStore(postgres_dsn, schema=schema)
    listener = PostgresStore(postgres_dsn, schema=schema)
    got: queue.Queue[tuple[str, range]] = queue.Queue()
    sub = listener.listen(lambda mid, records: got.put((mid, records)))
    m = writer.create("liars-dice", 2, seed=3, match_id="m")
    assert got.get(timeout=5) == ("m", range(0, 1))
    _terminate(postgres_dsn, _backends(postgres_dsn, "meeple listen"))
    m.play(0, ld.Bid(1, 2))  # committed while the listener is down, or just after it is back
    heard = [got.get(timeout=10)]
    while heard[-1][1].stop < 2:
        heard.append(got.get(timeout=10))
    # either the notification itself (it came back in time) or a resync from record 0
    assert heard[-1] in (("m", range(1, 2)), ("m", range(0, 2)))
    m.play(1, ld.Bid(1, 5))
    deadline = time.monotonic() + 10
    while (last := got.get(timeout=10)) != ("m", range(2, 3)):
        assert time.monotonic() < deadline, f"no notification after the reconnect (last {last})"
    sub.close()
    listener.close()
    writer.close()


def test_a_server_crash_loses_no_acknowledged_command(new_postgres_server: Any, kill_writer: Any) -> None:
    """Kill every server process at a random moment while a client writes; restart; nothing acknowledged is gone."""
    server = new_postgres_server()
    rnd = random.Random(3)
    recovered: dict[str, int] = {}
    for round_ in range(2):
        # A fresh schema each round: a match plays out in about a second, too soon for a second crash.
        address = server.url(schema=f"crash{round_}")
        # once the writer plays, the server crashes; the writer's next play raises, then it is killed.
        # The crash completes before the kill clock starts, so a slow pg_ctl cannot outlast the writer.
        pause = rnd.uniform(0.05, 0.3)

        def crash(pause: float = pause) -> None:
            time.sleep(pause)
            server.stop("immediate")

        acked, lines, _ = kill_writer("db", address, 2.0, "fsync", meanwhile=crash)
        assert any(line.startswith("error") for line in lines), f"the server crash did not reach the writer: {lines[-5:]}"
        server.start()  # crash recovery replays the write-ahead log
        recovered[address] = acked
        for where, least in recovered.items():  # this round's match, and every earlier one, survived
            with open_store(where) as store:
                info = store.info("crash")
                assert info.records >= least, f"{least} commands acknowledged, {info.records} records recovered"
                assert meeple.verify(store.log_bytes("crash")).ok


def test_a_match_listed_from_another_store_object_sees_the_same_rows(postgres_dsn: str, schema: str) -> None:
    with PostgresStore(postgres_dsn, schema=schema) as a, PostgresStore(postgres_dsn, schema=schema) as b:
        m = a.create("liars-dice", 3, seed=2, match_id="m", options={"dice": 2})
        assert b.info("m") == a.info("m") and b.info("m").options["dice"] == 2
        assert Match.from_bytes(b.log_bytes("m")).records == m.records


def test_a_listener_leaves_out_what_its_own_origin_wrote_and_hears_every_other_writer(
        postgres_dsn: str, schema: str) -> None:
    here = [PostgresStore(postgres_dsn, schema=schema, origin="here") for _ in range(2)]  # one process, two threads
    there = PostgresStore(postgres_dsn, schema=schema, origin="there")
    unsigned = PostgresStore(postgres_dsn, schema=schema)
    heard: dict[str, queue.Queue[tuple[str, Any]]] = {name: queue.Queue() for name in ("here", "all")}

    def listen(store: PostgresStore, into: str) -> Any:
        return store.listen(lambda mid, records: heard[into].put((mid, records)),
                            notes=lambda mid, kind, origin: heard[into].put((mid, (kind, origin))))

    subs = [listen(here[0], "here"), listen(unsigned, "all")]
    assert [s.hears_own for s in subs] == [False, True]
    mine = here[0].create("liars-dice", 2, seed=3, match_id="mine")
    mine.play(0, ld.Bid(1, 2))
    copy = here[1].open("mine")  # another store object of the same origin
    copy.play(1, ld.Bid(1, 5))
    with here[1].transaction() as cur:
        here[1].note(cur, "mine", "seats", "here")
    theirs = there.open("mine")
    theirs.play(0, ld.Bid(2, 2))
    with there.transaction() as cur:
        there.note(cur, "mine", "cursor", "there")
    last = unsigned.open("mine")
    last.play(1, ld.Bid(2, 5))
    # what the others wrote, in commit order, with the records it carried; nothing of "here"'s
    assert [heard["here"].get(timeout=10) for _ in range(3)] == [
        ("mine", range(3, 4)), ("mine", ("cursor", "there")), ("mine", range(4, 5))]
    assert subs[0].recent("mine", 3) == [(3, last.body(3), last.record_hash(3)), (4, last.body(4), last.record_hash(4))]
    # a listener of no origin hears every commit and note, its signed ones too
    assert [heard["all"].get(timeout=10) for _ in range(6)] == [
        ("mine", range(0, 1)), ("mine", range(1, 2)), ("mine", range(2, 3)), ("mine", ("seats", "here")),
        ("mine", range(3, 4)), ("mine", ("cursor", "there"))]
    assert heard["all"].get(timeout=10) == ("mine", range(4, 5))
    assert heard["here"].empty()
    for s in subs:
        s.close()
    for store in (*here, there, unsigned):
        store.close()


@pytest.mark.parametrize("bad", ["", "a b", 'a"', "x" * 65, 7])
def test_an_origin_that_would_not_end_a_notification_plainly_is_refused(postgres_dsn: str, schema: str,
                                                                         bad: Any) -> None:
    with pytest.raises(StoreError, match="origin"):
        PostgresStore(postgres_dsn, schema=schema, origin=bad)


def test_the_records_kept_from_notifications_are_the_latest_consecutive_ones() -> None:
    from base64 import b64encode

    from meeple.store import postgres

    listener: Any = postgres._Listen.__new__(postgres._Listen)  # the feed's bookkeeping alone, no connection
    listener._tails, listener._tails_lock, listener._stop = postgres.OrderedDict(), threading.Lock(), threading.Event()
    listener._callback, listener._notes, listener._own = (lambda *a: None), None, ""

    def row(seq: int, branch: str = "a") -> list[str]:
        return [b64encode(f"{branch}{seq}".encode()).decode(), b64encode(bytes([seq % 256]) * 16).decode()]

    def heard(start: int, stop: int, branch: str = "a", carried: bool = True) -> None:
        tail = [[row(s, branch) for s in range(start, stop)]] if carried else []
        listener._handle(postgres.json.dumps(["m", start, stop, *tail]))

    def bodies(start: int) -> list[bytes] | None:
        got = listener.recent("m", start)
        return None if got is None else [body for _, body, _ in got]

    heard(0, 2)
    heard(2, 5)
    assert bodies(1) == [b"a1", b"a2", b"a3", b"a4"] and bodies(5) is None
    heard(3, 4, "b")  # a new branch from record 3: what was kept after it is gone
    assert bodies(2) == [b"a2", b"b3"] and bodies(4) is None
    heard(4, 6, carried=False)  # announced, too long to carry: kept up to record 3 only
    assert bodies(3) == [b"b3"] and bodies(4) is None
    heard(9, 10)  # after a gap: only what follows the gap
    assert bodies(3) is None and bodies(9) == [b"a9"]
    heard(10, 10 + postgres.TAIL_RECORDS + 3)
    assert bodies(10) is None and len(bodies(13) or []) == postgres.TAIL_RECORDS
    listener._handle(postgres.json.dumps(["m", 0, 0]))  # deleted
    assert bodies(13) is None
    listener._handle(postgres.json.dumps(["m", 0, 1, [[1, 2]]]))  # malformed records: read the store instead
    assert listener.recent("m", 0) is None
