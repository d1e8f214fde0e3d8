"""The PostgreSQL store: the SQLite store's contract on a database server (psycopg 3, extra ``postgres``).

A store on a server, and a listener that hears every commit (from any
process)::

    from meeple.store import PostgresStore

    store = PostgresStore("postgresql://game@db.internal/meeple")
    m = store.create("kings", seats=3)
    sub = store.listen(lambda match_id, records: print(match_id, records))

Tables live in a schema of their own (``meeple`` unless ``schema=`` says
otherwise), created on first use: ``matches`` (one row per match, as in the
SQLite store, with ``options`` and ``winners`` as ``jsonb`` and times as
``timestamptz``), ``records`` keyed by ``(match, seq)`` and ``snapshots``;
``store_info`` holds the schema version.

**Concurrency.** A write is one transaction whose first statement updates
the match's row only where it still has the record count and head hash
this copy last saw (``UPDATE ... WHERE records = ... AND head = ...``, which
locks the row; a writer that waited for another's commit then finds it
changed): a second writer, in any process on
any host, gets :class:`StoreConflict` and nothing of its command is stored.
The ``(match, seq)`` primary key refuses a duplicate sequence number even if
that check were bypassed. A lock held longer than ``lock_timeout`` seconds
is a :class:`StoreConflict` too.

**Durability.** ``"fsync"`` (the default) commits with
``synchronous_commit = on``: ``play`` returns once the commit is in the
server's write-ahead log on disk. ``"flush"`` uses ``synchronous_commit =
off``: a commit survives the client being killed, but a crash of the
database server may lose the last fraction of a second of commits (never
corrupting anything).

**Listening.** Every write (and every :meth:`~PostgresStore.note`) sends ``NOTIFY`` on the channel
``meeple.<schema>`` in its transaction, so the notification is delivered
exactly when the commit is visible, in commit order, to every process that
:meth:`listens <PostgresStore.listen>`; latency is one round trip. If the
listening connection drops, it reconnects (with back-off) and reports every
match written since shortly before the drop as ``range(0, records)`` (a
resync), assuming the writers' clocks agree within a minute. A store given
an ``origin`` (a name shared by every store object of one process) signs
its notifications with it, and its listeners leave out what that origin
wrote, its commits and its notes alike, before decoding anything
(:attr:`Subscription.hears_own <meeple.store.base.Subscription.hears_own>`
is False): a process need not hear its own commits back.

**Connections.** A store holds one connection, shared by threads under a
lock, and reconnects on the next call after the connection broke; a
command whose commit was in flight when it broke raises
:class:`StoreError` (it may or may not be stored: reopen the match to see).
Each subscription has a connection of its own.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import re
import threading
import time
from base64 import b64decode, b64encode
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import Any

import psycopg
from psycopg import errors as pgerrors
from psycopg import sql

from ._sql import SqlSink, SqlStore
from .base import ChangeCallback, Durability, NoteCallback, Subscription, log
from .errors import MatchNotFound, StoreConflict, StoreError

SCHEMA_VERSION = 1
#: What a schema name may look like (it also names the notification channel).
SCHEMA_PATTERN = re.compile(r"[a-z_][a-z0-9_]{0,47}")
#: How far before a lost connection a listener looks back when it resyncs.
RESYNC_MARGIN = dt.timedelta(seconds=60)
#: The longest notification that carries its records (PostgreSQL refuses payloads of 8000 bytes and more).
NOTIFY_BYTES = 7000
#: Matches, and records of each, whose records a listener keeps from the notifications (see _Listen.recent).
TAILS_KEPT, TAIL_RECORDS = 4096, 32
#: What an origin may look like (it ends every notification its store sends, as a JSON string).
ORIGIN_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")

_TABLES = """
CREATE TABLE IF NOT EXISTS store_info (
    key   text PRIMARY KEY,
    value integer NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id       text PRIMARY KEY,
    game     text NOT NULL,
    rules    integer NOT NULL,
    seats    integer NOT NULL,
    options  jsonb NOT NULL,
    status   text NOT NULL,
    winners  jsonb,
    created  timestamptz NOT NULL,
    updated  timestamptz NOT NULL,
    records  integer NOT NULL,
    head     bytea NOT NULL,
    header   bytea NOT NULL
);
CREATE INDEX IF NOT EXISTS matches_by_game ON matches (game, seats, status, created);
CREATE INDEX IF NOT EXISTS matches_by_created ON matches (created);
CREATE INDEX IF NOT EXISTS matches_by_updated ON matches (updated);
CREATE TABLE IF NOT EXISTS records (
    match text NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq   integer NOT NULL,
    body  bytea NOT NULL,
    hash  bytea NOT NULL,
    PRIMARY KEY (match, seq)
);
CREATE TABLE IF NOT EXISTS snapshots (
    match text NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq   integer NOT NULL,
    state bytea NOT NULL,
    PRIMARY KEY (match, seq)
)
"""


def redact_dsn(dsn: str) -> str:
    """The connection string without its password, for messages.

    >>> redact_dsn("postgresql://game:secret@db.internal:5433/meeple")
    'host=db.internal port=5433 user=game dbname=meeple'
    """
    try:
        parts = psycopg.conninfo.conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        return "(an unreadable connection string)"
    keep = ("host", "port", "user", "dbname")
    return " ".join(f"{k}={parts[k]}" for k in keep if parts.get(k)) or "(the default server)"


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


class PostgresStore(SqlStore):
    """Many matches in a PostgreSQL database, for servers that outgrow one process (see the module docstring).

    ``dsn`` is a libpq connection string or ``postgresql://`` URL.
    ``readonly=True`` creates nothing and runs every transaction read-only.
    ``origin`` (1-64 letters, digits, ``_`` or ``-``; settable as
    :attr:`origin` until the first write or :meth:`listen`) names the process:
    every notification the store sends ends with it, and its listeners do not
    report what stores of the same origin wrote (the module docstring).
    """

    P = "%s"
    COLUMN_TYPES = {"blob": "BYTEA", "real": "DOUBLE PRECISION", "bigint": "BIGINT"}

    def __init__(
        self,
        dsn: str,
        durability: Durability = "fsync",
        *,
        schema: str = "meeple",
        readonly: bool = False,
        connect_timeout: float = 10.0,
        lock_timeout: float = 30.0,
        origin: str | None = None,
    ) -> None:
        super().__init__()
        if durability not in ("flush", "fsync"):
            raise StoreError(f"durability is 'flush' or 'fsync', not {durability!r}")
        if not isinstance(schema, str) or not SCHEMA_PATTERN.fullmatch(schema):
            raise StoreError(f"a schema name is 1-48 lowercase letters, digits or '_', not {schema!r}")
        self.dsn = dsn
        self.schema = schema
        self.durability: Durability = durability
        self.readonly = readonly
        self.origin = origin
        self.channel = f"meeple.{schema}"
        self.where = f"PostgreSQL {redact_dsn(dsn)} (schema {schema})"
        self._connect_timeout = connect_timeout
        self._lock_timeout = lock_timeout
        self._conn: psycopg.Connection[Any] | None = None
        self._conn = self._connect()
        try:
            self._prepare()
        except BaseException:
            self._conn.close()
            raise

    @property
    def origin(self) -> str | None:
        """The name of the process this store writes for, which ends its notifications (None: unsigned)."""
        return self._origin

    @origin.setter
    def origin(self, origin: str | None) -> None:
        if origin is not None and (not isinstance(origin, str) or not ORIGIN_PATTERN.fullmatch(origin)):
            raise StoreError(f"an origin is 1-64 letters, digits, '_' or '-', not {origin!r}")
        self._origin = origin
        #: the end of every notification this origin sends (json.dumps's form): its JSON string, closing the list
        self._signed = "" if origin is None else f', "{origin}"]'

    def _connect(self, purpose: str = "store") -> psycopg.Connection[Any]:
        """A new connection, set up for the store; ``application_name`` says ``meeple store`` or ``meeple listen``."""
        extra: dict[str, Any] = {}
        with contextlib.suppress(psycopg.ProgrammingError):
            if "application_name" not in psycopg.conninfo.conninfo_to_dict(self.dsn):
                extra["application_name"] = f"meeple {purpose}"
        try:
            conn = psycopg.connect(self.dsn, autocommit=True, connect_timeout=max(1, round(self._connect_timeout)),
                                   **extra)
        except psycopg.Error as e:
            raise StoreError(f"cannot connect to {self.where}: {_first_line(e)}") from None
        try:
            conn.execute("SET TimeZone = 'UTC'")
            conn.execute(sql.SQL("SET search_path = {}").format(sql.Identifier(self.schema)))
            conn.execute(sql.SQL("SET lock_timeout = {}").format(sql.Literal(f"{int(self._lock_timeout * 1000)}ms")))
            conn.execute(f"SET synchronous_commit = {'on' if self.durability == 'fsync' else 'off'}")
            if self.readonly:
                conn.execute("SET default_transaction_read_only = on")
        except psycopg.Error as e:
            conn.close()
            raise StoreError(f"cannot set up the connection to {self.where}: {_first_line(e)}") from None
        return conn

    def _connection(self) -> psycopg.Connection[Any]:
        conn = self._conn
        if conn is None or conn.closed or conn.broken:
            if conn is not None:
                with contextlib.suppress(psycopg.Error):
                    conn.close()
            self._conn = conn = self._connect()
        return conn

    def _prepare(self) -> None:
        with self._lock:
            if self.readonly:
                with self._transaction(False) as cur:
                    cur.execute("SELECT to_regclass('store_info') IS NOT NULL")
                    found = cur.fetchone()
                    if not found or not found[0]:
                        raise MatchNotFound(f"no meeple store in {self.where}")
                    cur.execute("SELECT value FROM store_info WHERE key = 'version'")
                    row = cur.fetchone()
                self._check_version(row[0] if row else 0)
                return
            with self._transaction(True) as cur:
                # one creator at a time: CREATE ... IF NOT EXISTS races with itself
                cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"meeple.store.{self.schema}",))
                cur.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.schema)))
                for stmt in _TABLES.split(";"):
                    cur.execute(stmt)
                cur.execute("SELECT value FROM store_info WHERE key = 'version'")
                row = cur.fetchone()
                if row is None:
                    cur.execute("INSERT INTO store_info (key, value) VALUES ('version', %s)", (SCHEMA_VERSION,))
                else:
                    self._check_version(row[0])

    def _check_version(self, version: int) -> None:
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.where} has store schema {version}, newer than this library's {SCHEMA_VERSION}")

    # -- the dialect -------------------------------------------------------------------
    @contextlib.contextmanager
    def _transaction(self, write: bool) -> Iterator[psycopg.Cursor[Any]]:
        what = "write to" if write else "read"
        try:
            conn = self._connection()
            with conn.transaction(), conn.cursor() as cur:
                if not write:  # one snapshot for every statement (the match row and its records agree)
                    cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                yield cur
        except (pgerrors.LockNotAvailable, pgerrors.SerializationFailure, pgerrors.DeadlockDetected) as e:
            raise StoreConflict(f"{self.where}: another writer held the match too long ({_first_line(e)})") from None
        except pgerrors.ReadOnlySqlTransaction:
            raise StoreError(f"{self.where} is read-only here") from None
        except psycopg.Error as e:
            raise StoreError(f"cannot {what} {self.where}: {_first_line(e)}") from None

    def _translate(self, error: BaseException) -> StoreError | None:
        if isinstance(error, (pgerrors.LockNotAvailable, pgerrors.SerializationFailure, pgerrors.DeadlockDetected)):
            return StoreConflict(f"{self.where}: another writer held the match too long ({_first_line(error)})")
        if isinstance(error, psycopg.Error):
            return StoreError(f"cannot write to {self.where}: {_first_line(error)}")
        return None

    def _is_duplicate(self, error: BaseException) -> bool:
        return isinstance(error, pgerrors.UniqueViolation)

    def _time_param(self, when: dt.datetime) -> dt.datetime:
        return when

    def _time_out(self, value: Any) -> dt.datetime:
        if not isinstance(value, dt.datetime):
            raise TypeError(f"a time is a timestamptz, not {value!r}")
        return value.astimezone(dt.UTC)

    def _announce(self, cur: Any, match_id: str, start: int, stop: int, rows: Sequence[Any] = ()) -> None:
        # [match, start, stop] or [match, start, stop, records or null, origin]: the records themselves, when
        # they fit (a listener then need not read them, see _Listen); the origin last, where listeners of the
        # same origin look for it before decoding anything (and readers of the shorter form find what they knew)
        head, end = json.dumps([match_id, start, stop])[:-1], self._signed or "]"
        payload = f"{head}, null{end}" if self._signed else f"{head}]"
        if rows:
            records = json.dumps([[b64encode(body).decode(), b64encode(h).decode()] for _, _, body, h in rows])
            carried = f"{head}, {records}{end}"
            if len(carried) <= NOTIFY_BYTES:
                payload = carried
        cur.execute("SELECT pg_notify(%s, %s)", (self.channel, payload))

    def _note(self, cur: Any, match_id: str, kind: str, origin: str) -> None:
        cur.execute("SELECT pg_notify(%s, %s)", (self.channel, json.dumps([match_id, kind, origin])))

    def _lock_schema(self, cur: Any, name: str) -> None:
        cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"meeple.{name}.{self.schema}",))

    def _subscribe(self, callback: ChangeCallback, notes: NoteCallback | None) -> Subscription:
        return _Listen(self, callback, notes)

    def _once(self, sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
        try:
            return self._connection().execute(sql, list(args)).fetchall()
        except psycopg.Error as e:
            raise StoreError(f"cannot read {self.where}: {_first_line(e)}") from None

    def _disconnect(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()

    def drop(self) -> None:
        """Remove the store's schema with every match in it (for tests and tear-down; there is no undo)."""
        with self._write() as cur:
            cur.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(self.schema)))


#: The sink of a PostgreSQL store (the same as every database store's).
PostgresSink = SqlSink


class _Listen(Subscription):
    """LISTEN on the store's channel on a connection of its own; reconnect and resync if it drops."""

    PING = 5.0  # seconds between checks that an idle connection is alive
    WAIT = 0.2  # how long one wait for notifications lasts (and so how fast close() is)

    def __init__(self, store: PostgresStore, callback: ChangeCallback, notes: NoteCallback | None) -> None:
        super().__init__(callback, f"meeple-listen-{store.schema}", notes)
        self._store = store
        #: match -> (seq, [[body, hash], ...]) in base64 (decoded when asked for: most are a process's own
        #: records): the last records the notifications carried, consecutive from seq, as of the last one heard
        self._tails: OrderedDict[str, tuple[int, list[Any]]] = OrderedDict()
        self._tails_lock = threading.Lock()
        #: how the notifications of the store's own origin end ("": the store has none, every one is heard)
        self._own = store._signed
        self.hears_own = not self._own
        self._conn: psycopg.Connection[Any] | None = None
        self._conn = self._listen()
        self._start()

    def recent(self, match_id: str, start: int) -> list[tuple[int, bytes, bytes]] | None:
        """The records ``start...`` of a match as the notifications carried them (see :meth:`Subscription.recent`)."""
        with self._tails_lock:
            found = self._tails.get(match_id)
        if found is None or not found[0] <= start < found[0] + len(found[1]):
            return None
        first, kept = found
        try:
            return [(seq, b64decode(body, validate=True), b64decode(h, validate=True))
                    for seq, (body, h) in enumerate(kept[start - first:], start)]
        except (ValueError, TypeError):  # a malformed notification: read the store instead
            return None

    def _note_tail(self, match_id: str, records: range, carried: Any) -> None:
        """Keep what a notification carried: records ``records`` replace every kept record from ``records.start`` on."""
        start = records.start
        with self._tails_lock:
            first, kept = self._tails.pop(match_id, (start, []))
            if not first <= start <= first + len(kept):  # not joined to what is kept: start again from these
                first, kept = start, []
            kept = kept[:start - first]
            if isinstance(carried, list) and len(carried) == len(records) and all(
                    isinstance(c, list) and len(c) == 2 for c in carried):
                kept += carried  # (records announced but not carried: what is kept ends before them)
            if len(kept) > TAIL_RECORDS:
                first, kept = first + len(kept) - TAIL_RECORDS, kept[-TAIL_RECORDS:]
            if records.stop != 0 and kept:
                self._tails[match_id] = (first, kept)
                while len(self._tails) > TAILS_KEPT:
                    self._tails.popitem(last=False)

    def _listen(self) -> psycopg.Connection[Any]:
        conn = self._store._connect("listen")
        try:
            conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self._store.channel)))
        except psycopg.Error as e:
            conn.close()
            raise StoreError(f"cannot listen to {self._store.where}: {_first_line(e)}") from None
        return conn

    def _run(self) -> None:
        alive = time.time()  # when the connection was last known to work (wall clock, as the stored times)
        pinged = time.monotonic()
        while not self._stop.is_set():
            conn = self._conn
            assert conn is not None
            try:
                for n in conn.notifies(timeout=self.WAIT):
                    self._handle(n.payload)
                    if self._stop.is_set():
                        return
                if time.monotonic() - pinged > self.PING:
                    conn.execute("SELECT 1")
                    pinged = time.monotonic()
                alive = time.time()
            except psycopg.Error as e:
                if self._stop.is_set():
                    return
                log.warning("listening to %s: connection lost (%s); reconnecting", self._store.where, _first_line(e))
                self._reconnect(dt.datetime.fromtimestamp(alive, dt.UTC) - RESYNC_MARGIN)
                alive = time.time()
                pinged = time.monotonic()

    def _handle(self, payload: str) -> None:
        if self._own and payload.endswith(self._own):
            return  # this origin's own commit or note: it knew before it was sent
        try:
            match_id, start, stop, *carried = json.loads(payload)
            if isinstance(start, str):  # a note: [match, kind, origin]
                self._deliver_note(str(match_id), start, str(stop))
                return
            records = range(int(start), int(stop))  # a commit: [match, start, stop(, records or null, origin)]
            self._note_tail(str(match_id), records, carried[0] if carried else None)
        except (ValueError, TypeError):
            log.warning("ignoring a malformed notification on %s: %r", self._store.channel, payload[:100])
            return
        self._deliver(str(match_id), records)

    def _reconnect(self, since: dt.datetime) -> None:
        """Connect again, LISTEN, then report every match written since ``since`` as a resync from record 0."""
        with contextlib.suppress(psycopg.Error):
            if self._conn is not None:
                self._conn.close()
        with self._tails_lock:  # notifications were missed: what is kept may be behind a new branch
            self._tails.clear()
        delay = 0.1
        while not self._stop.wait(delay):
            try:
                self._conn = self._listen()
                rows = self._conn.execute("SELECT id, records FROM matches WHERE updated >= %s ORDER BY updated",
                                          (since,)).fetchall()
            except (StoreError, psycopg.Error) as e:
                log.debug("listening to %s: still down (%s)", self._store.where, e)
                delay = min(delay * 2, 5.0)
                continue
            for match_id, records in rows:
                self._deliver(match_id, range(0, records))
            return

    def _release(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
