"""The SQLite store: many matches in one database file (standard library ``sqlite3``, WAL).

>>> import tempfile, os
>>> from meeple.store import SqliteStore
>>> store = SqliteStore(os.path.join(tempfile.mkdtemp(), "matches.db"))
>>> m = store.create("liars-dice", seats=2, seed=7, match_id="m1")
>>> events = m.play(0, m.legal(0)[0])          # committed before play returns
>>> [i.id for i in store.find(game="liars-dice", status="in_progress")]
['m1']
>>> store.open("m1").records == m.records
True
>>> store.close()

Tables (``PRAGMA user_version`` 3):

* ``matches``: one row per match: id, game, rules version, seat count,
  options (JSON), status (``in_progress`` or ``over``), winners (JSON),
  created and updated (ISO 8601, UTC), record count, the head hash, the
  log header frame, and ``changed`` (the ``changes`` entry of its last write).
* ``records``: ``(match, seq)`` primary key, the record body and its chain
  hash. Concatenating the header and the record frames gives the exact log
  file of the match, so ``meeple verify sqlite:matches.db#id`` re-decides it.
* ``snapshots``: ``(match, seq)`` primary key, the msgpack state after every
  ``checkpoint_every``-th record. Opening a match folds only the records
  after the last snapshot; each snapshot is checked against the checkpoint
  hash in the log before it is used.
* ``changes``: one row per committed write (match, first record, record
  count after it) or note (match, kind, origin; :meth:`SqliteStore.note`),
  at least the last :data:`CHANGES_KEPT` kept, for :meth:`SqliteStore.listen`.

A database of version 1 or 2 is upgraded when it is opened for writing.

**Concurrency.** A write is one ``BEGIN IMMEDIATE`` transaction that first
checks that the match still has the record count and head hash this copy
last saw. If another process appended (or branched) first, the write is
refused with :class:`StoreConflict` and nothing changes: no fork, no lost
record. The ``(match, seq)`` key refuses a duplicate sequence number even
if that check were bypassed. Reopen the match to continue from the store.

**Durability.** ``"fsync"`` (the default) runs with ``synchronous=FULL``:
a commit is on disk before ``play`` returns. ``"flush"`` runs with
``synchronous=NORMAL``: commits survive a crash of the process, but a power
loss may roll back the last few (never corrupting the database).

**Reading only.** ``SqliteStore(path, readonly=True)`` opens the file with
SQLite's ``mode=ro``: it never creates the file, the tables or anything in
them (a missing file is :class:`MatchNotFound`, an empty or foreign database
a :class:`StoreError`). The ``meeple`` command reads sources this way.

**Listening.** :meth:`SqliteStore.listen` polls ``PRAGMA data_version`` on a
connection of its own every ``poll_interval`` seconds (0.05 by default): a
commit by any process is reported within about one interval.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ._sql import SqlSink, SqlStore
from .base import ChangeCallback, Durability, MatchInfo, NoteCallback, Status, Subscription, log
from .errors import MatchNotFound, NotSupported, StoreConflict, StoreError

SCHEMA_VERSION = 3
#: How many entries of the ``changes`` table are kept (at least) for listeners that fall behind.
CHANGES_KEPT = 10_000

_TABLES = """
CREATE TABLE IF NOT EXISTS matches (
    id       TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    rules    INTEGER NOT NULL,
    seats    INTEGER NOT NULL,
    options  TEXT NOT NULL,
    status   TEXT NOT NULL,
    winners  TEXT,
    created  TEXT NOT NULL,
    updated  TEXT NOT NULL,
    records  INTEGER NOT NULL,
    head     BLOB NOT NULL,
    header   BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS matches_by_game ON matches (game, seats, status, created);
CREATE INDEX IF NOT EXISTS matches_by_created ON matches (created);
CREATE TABLE IF NOT EXISTS records (
    match TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq   INTEGER NOT NULL,
    body  BLOB NOT NULL,
    hash  BLOB NOT NULL,
    PRIMARY KEY (match, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (
    match TEXT NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq   INTEGER NOT NULL,
    state BLOB NOT NULL,
    PRIMARY KEY (match, seq)
) WITHOUT ROWID
"""

# version 1 -> 2: the change feed of listen()
_UPGRADE_2 = """
ALTER TABLE matches ADD COLUMN changed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS matches_by_changed ON matches (changed);
CREATE TABLE IF NOT EXISTS changes (
    seq   INTEGER PRIMARY KEY AUTOINCREMENT,
    match TEXT NOT NULL,
    start INTEGER NOT NULL,
    stop  INTEGER NOT NULL
)
"""

# version 2 -> 3: notes in the change feed (kind and origin; NULL for a record commit)
_UPGRADE_3 = """
ALTER TABLE changes ADD COLUMN kind TEXT;
ALTER TABLE changes ADD COLUMN origin TEXT
"""

__all__ = ["SCHEMA_VERSION", "MatchInfo", "SqliteSink", "SqliteStore", "Status"]

#: The sink of a SQLite store (the same as every database store's).
SqliteSink = SqlSink


@contextlib.contextmanager
def transaction(db: sqlite3.Connection, place: str, write: bool) -> Iterator[sqlite3.Cursor]:
    """One transaction on ``db`` (opened with ``isolation_level=None``), committed if the block ends normally.

    SQLite's own errors become :class:`StoreError` naming ``place`` (a lock
    still held by another writer when a write begins: :class:`StoreConflict`);
    on any error the transaction is rolled back. The store and the server's
    lobby, which keeps its tables in the store's file, share it.
    """
    what = "write to" if write else "read"
    try:
        cur = db.cursor()
        cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    except sqlite3.OperationalError as e:
        if write and ("locked" in str(e) or "busy" in str(e)):
            raise StoreConflict(f"{place} stayed locked by another writer: {e}") from None
        raise StoreError(f"cannot {what} {place}: {e}") from None
    except sqlite3.Error as e:
        raise StoreError(f"cannot {what} {place}: {e}") from None
    try:
        yield cur
    except BaseException as e:
        with contextlib.suppress(sqlite3.Error):
            cur.execute("ROLLBACK")
        if isinstance(e, sqlite3.Error):
            raise StoreError(f"cannot {what} {place}: {e}") from None
        raise
    else:
        try:
            cur.execute("COMMIT")
        except sqlite3.Error as e:
            with contextlib.suppress(sqlite3.Error):
                cur.execute("ROLLBACK")
            raise StoreError(f"cannot commit to {place}: {e}") from None
    finally:
        with contextlib.suppress(sqlite3.Error):
            cur.close()


def _trim(cur: sqlite3.Cursor, seq: int) -> None:
    """Drop the feed's entries older than the last :data:`CHANGES_KEPT` after entry ``seq`` was written.

    Once the feed is full, every 128th part of it at a time (not one entry per
    write: a statement more for every command), so it holds up to that many
    more entries between two trims.
    """
    if seq > CHANGES_KEPT and not seq % max(1, CHANGES_KEPT // 128):
        cur.execute("DELETE FROM changes WHERE seq <= ?", (seq - CHANGES_KEPT,))


def _ro_uri(path: Path) -> str:
    return path.absolute().as_uri() + "?mode=ro"


class SqliteStore(SqlStore):
    """Many matches in one SQLite database (see the module docstring).

    The store serialises its own use, so threads may share one object; each
    process needs its own (open a new store after ``fork``).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        durability: Durability = "fsync",
        timeout: float = 30.0,
        *,
        readonly: bool = False,
        poll_interval: float = 0.05,
    ) -> None:
        super().__init__()
        if durability not in ("flush", "fsync"):
            raise StoreError(f"durability is 'flush' or 'fsync', not {durability!r}")
        self.path = Path(path)
        self.where = str(self.path)
        self.durability: Durability = durability
        self.readonly = readonly
        self.poll_interval = poll_interval
        self._timeout = timeout
        if readonly and not self.path.exists():
            raise MatchNotFound(f"no SQLite store at {self.path}")
        try:
            self._db = self._connect()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"cannot open the SQLite store {self.path}: {e}") from None
        try:
            self.version = self._prepare()
        except sqlite3.DatabaseError as e:
            self._db.close()
            raise StoreError(f"cannot open the SQLite store {self.path}: {e}") from None
        except BaseException:
            self._db.close()
            raise

    def _connect(self) -> sqlite3.Connection:
        if self.readonly:
            return sqlite3.connect(_ro_uri(self.path), uri=True, timeout=self._timeout, isolation_level=None,
                                   check_same_thread=False)
        return sqlite3.connect(self.path, timeout=self._timeout, isolation_level=None, check_same_thread=False)

    def _prepare(self) -> int:
        """Check (and, when writable, create or upgrade) the tables; return the schema version."""
        db = self._db
        version: int = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} has store schema {version}, newer than this library's {SCHEMA_VERSION}")
        if self.readonly:
            if version == 0:
                raise StoreError(f"{self.path} is not a meeple store (an empty or foreign SQLite database)")
            return version
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(f"PRAGMA synchronous = {'FULL' if self.durability == 'fsync' else 'NORMAL'}")
        db.execute("PRAGMA foreign_keys = ON")
        if version < SCHEMA_VERSION:
            with self._transaction(True) as cur:
                found = cur.execute("PRAGMA user_version").fetchone()[0]  # another process may have upgraded
                if found < 1:
                    for stmt in _TABLES.split(";"):
                        cur.execute(stmt)
                if found < 2:
                    for stmt in _UPGRADE_2.split(";"):
                        cur.execute(stmt)
                if found < 3:
                    for stmt in _UPGRADE_3.split(";"):
                        cur.execute(stmt)
                cur.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return SCHEMA_VERSION

    # -- the dialect -------------------------------------------------------------------
    def _transaction(self, write: bool) -> contextlib.AbstractContextManager[sqlite3.Cursor]:
        """One transaction; SQLite's own errors become :class:`StoreError` (a busy lock: :class:`StoreConflict`)."""
        return transaction(self._db, str(self.path), write)

    def _translate(self, error: BaseException) -> StoreError | None:
        if not isinstance(error, sqlite3.Error):
            return None
        if isinstance(error, sqlite3.OperationalError) and ("locked" in str(error) or "busy" in str(error)):
            return StoreConflict(f"{self.path} stayed locked by another writer: {error}")
        return StoreError(f"cannot write to {self.path}: {error}")

    def _is_duplicate(self, error: BaseException) -> bool:
        return isinstance(error, sqlite3.IntegrityError)

    def _time_param(self, when: dt.datetime) -> str:
        return when.isoformat(timespec="microseconds")

    def _time_out(self, value: Any) -> dt.datetime:
        return dt.datetime.fromisoformat(value)

    def _announce(self, cur: Any, match_id: str, start: int, stop: int, rows: Sequence[Any] = ()) -> None:
        seq = self._change(cur, match_id, start, stop)
        cur.execute("UPDATE matches SET changed = ? WHERE id = ?", (seq, match_id))

    def _change(self, cur: Any, match_id: str, start: int, stop: int) -> int:
        cur.execute("INSERT INTO changes (match, start, stop) VALUES (?, ?, ?)", (match_id, start, stop))
        seq: int = cur.lastrowid
        _trim(cur, seq)
        return seq

    def _note(self, cur: Any, match_id: str, kind: str, origin: str) -> None:
        cur.execute("INSERT INTO changes (match, start, stop, kind, origin) VALUES (?, 0, 0, ?, ?)",
                    (match_id, kind, origin))
        _trim(cur, cur.lastrowid)

    def _subscribe(self, callback: ChangeCallback, notes: NoteCallback | None) -> Subscription:
        if self.version < 2:
            raise NotSupported(f"{self.path} has store schema {self.version}, which has no change feed; "
                               "open it once for writing to upgrade it")
        try:
            return _Poll(self, callback, notes)
        except sqlite3.Error as e:
            raise StoreError(f"cannot listen to {self.path}: {e}") from None

    def _once(self, sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
        try:
            return self._db.execute(sql, list(args)).fetchall()
        except sqlite3.Error as e:
            raise StoreError(f"cannot read {self.path}: {e}") from None

    def _disconnect(self) -> None:
        with self._lock:
            self._db.close()


class _Poll(Subscription):
    """Reports the ``changes`` table's new rows whenever ``PRAGMA data_version`` moves."""

    def __init__(self, store: SqliteStore, callback: ChangeCallback, notes: NoteCallback | None) -> None:
        super().__init__(callback, f"meeple-listen-{store.path.name}", notes)
        self._path = store.path
        self._columns = "kind, origin" if store.version >= 3 else "NULL, NULL"  # a read-only store of version 2
        self._interval = store.poll_interval
        self._db = store._connect()
        try:
            self._version = self._db.execute("PRAGMA data_version").fetchone()[0]
            self._last: int = self._db.execute("SELECT coalesce(max(seq), 0) FROM changes").fetchone()[0]
        except BaseException:
            self._db.close()
            raise
        self._start()

    def _run(self) -> None:
        failing = ""
        while not self._stop.wait(self._interval):
            try:
                self._poll()
                failing = ""
            except sqlite3.Error as e:  # say it once, keep trying (the file may come back)
                if str(e) != failing:
                    log.warning("listening to %s: %s", self._path, e)
                    failing = str(e)

    def _poll(self) -> None:
        db = self._db
        version = db.execute("PRAGMA data_version").fetchone()[0]
        if version == self._version:
            return
        self._version = version
        rows = db.execute(f"SELECT seq, match, start, stop, {self._columns} FROM changes WHERE seq > ? ORDER BY seq",
                          (self._last,)).fetchall()
        if not rows:
            return
        if rows[0][0] != self._last + 1:  # fell behind the kept changes: every match changed since, from 0
            resync = db.execute("SELECT id, records FROM matches WHERE changed > ? ORDER BY changed",
                                (self._last,)).fetchall()
            self._last = rows[-1][0]
            for mid, records in resync:
                self._deliver(mid, range(0, records))
            return
        for seq, mid, start, stop, kind, origin in rows:
            self._last = seq
            if kind is None:
                self._deliver(mid, range(start, stop))
            else:
                self._deliver_note(mid, kind, origin or "")

    def _release(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
