"""What the SQLite and PostgreSQL stores share: the tables, the sink, and every query but the dialect's own.

Both keep three tables (``matches``, ``records`` keyed by ``(match, seq)``,
``snapshots``) and write each command in one transaction that updates
the match's row only if it still has the record count and head hash the
writing copy last saw (that update locks the row until the commit). A subclass gives the connection,
its transactions, the placeholder, how times travel and how a commit is
announced to listeners.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import json
import threading
import weakref
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Self

import msgpack

from ..engine.codec import pack, unstructure
from ..engine.errors import CorruptLog
from ..engine.game import Game
from ..engine.log import HASH_SIZE, MAX_FRAME, chain_hash, framed, header_frame
from ..engine.match import Match, codec_for
from ..engine.reader import LoadedLog, read_log, setup_table
from ._common import (
    build_match,
    check_body_size,
    check_id,
    check_limit,
    check_status,
    extend_match,
    finish_interrupted_command,
    guarded,
    new_id,
    utc,
)
from .base import ChangeCallback, MatchInfo, NoteCallback, Status, Subscription
from .errors import MatchExists, MatchNotFound, ReadOnlyStore, StoreClosed, StoreConflict, StoreError

#: A record row as stored: (match id, seq, body, chain hash).
Row = tuple[str, int, bytes, bytes]

_OVER, _IN_PROGRESS = Status.OVER.value, Status.IN_PROGRESS.value


def state_blob(state: Any) -> bytes:
    """The stored bytes of a snapshot: the canonical msgpack of the state."""
    return pack(unstructure(state))


def log_of(header: bytes, records: Sequence[tuple[int, bytes, bytes]]) -> bytes:
    """The log file bytes of a stored header frame and ``(seq, body, hash)`` record rows."""
    return header + b"".join(framed(body, h) for _, body, h in records)


def _decoding(match: Match) -> tuple[Any, Any]:
    """A match's log header and the type table that decodes its records (kept by its sink for catch_up)."""
    header = match.header()
    return header, setup_table(match.game, header)


class SqlSink:
    """Writes one match's records to a database store (the :class:`~meeple.engine.match.Sink` of SQL stores)."""

    def __init__(self, store: SqlStore, match_id: str, known: int, head: bytes) -> None:
        self.store = store
        self.match_id = match_id
        self.known = known  # records this copy believes the store holds
        self.head = head  # and the chain hash of the last of them
        self.header: Any = None  # the match's log header, once catch_up needed it
        self.table: Any = None  # and the type table that decodes its records

    def write(
        self, match: Match, start: int, bodies: Sequence[bytes], *, snapshots: Mapping[int, Any], state: Any
    ) -> None:
        """Store ``bodies`` as records ``start...`` in one transaction, or raise :class:`StoreConflict`."""
        if start > self.known:
            raise StoreError(f"record {start} would leave a gap after {self.known} stored records")
        prev = match.record_hash(start - 1)
        rows: list[Row] = []
        for i, body in enumerate(bodies, start):
            check_body_size(body)
            h = chain_hash(body, prev)
            rows.append((self.match_id, i, body, h))
            prev = h
        snaps = [(self.match_id, i, state_blob(s)) for i, s in sorted(snapshots.items())]
        outcome = match.game.outcome(state)
        self.store._append(self, start, rows, snaps, prev, outcome.winners if outcome is not None else None)
        self.known = start + len(rows)
        self.head = prev


class _Savepoint:
    """One write inside a :meth:`SqlStore.batch`: a savepoint, released when the block ends and rolled back to
    if it raises (a driver's error then raised as the store's :class:`StoreError`).

    Named by its depth, not by a running count: ROLLBACK TO and RELEASE name the
    innermost savepoint of that name on SQLite and PostgreSQL alike, and the
    same few statements stay prepared in the connection's cache (a new name for
    every write had each one compiled anew, about 8% of the engine thread's
    time under a server's load). A class rather than a generator: it frames
    every command of a group commit.
    """

    __slots__ = ("cur", "name", "store")

    def __init__(self, store: SqlStore, cur: Any) -> None:
        self.store = store
        self.cur = cur
        self.name = ""

    def __enter__(self) -> Any:
        store = self.store
        store._savepoints += 1
        self.name = f"meeple_w{store._savepoints}"
        try:
            self.cur.execute(f"SAVEPOINT {self.name}")
        except BaseException:
            store._savepoints -= 1
            raise
        return self.cur

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: Any) -> None:
        store, cur, name = self.store, self.cur, self.name
        try:
            if error is None:
                cur.execute(f"RELEASE SAVEPOINT {name}")
                return
            try:
                cur.execute(f"ROLLBACK TO SAVEPOINT {name}")
                cur.execute(f"RELEASE SAVEPOINT {name}")
            except Exception as undo:
                raise StoreError(f"cannot undo a failed write to {store.where}: {undo}") from None
            translated = store._translate(error)
            if translated is not None:
                raise translated from None
        finally:
            store._savepoints -= 1


class SqlCursor:
    """A cursor in a database store's transaction that takes ``?`` placeholders, whatever the database's driver wants.

    What :meth:`SqlStore.transaction` yields, for tables kept beside the
    store's own (the server's lobby): one SQL text for every database store.
    """

    def __init__(self, store: SqlStore, cur: Any) -> None:
        self._store = store
        self._cur = cur

    def execute(self, sql: str, args: Sequence[Any] = ()) -> None:
        """Run one statement."""
        self._cur.execute(self._store._q(sql), list(args))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement for each row of arguments."""
        self._cur.executemany(self._store._q(sql), rows)

    def fetchone(self) -> Any:
        """The next row of the last statement, or None."""
        return self._cur.fetchone()

    def fetchall(self) -> list[Any]:
        """The remaining rows of the last statement."""
        return list(self._cur.fetchall())

    @property
    def rowcount(self) -> int:
        """The rows the last statement changed."""
        return int(self._cur.rowcount)


class SqlStore:
    """The store logic shared by :class:`~meeple.store.SqliteStore` and :class:`~meeple.store.PostgresStore`."""

    #: The driver's parameter placeholder.
    P: ClassVar[str] = "?"
    #: How this database names the column types of tables kept beside the store's (see :meth:`transaction`):
    #: ``blob`` (bytes), ``real`` (a float), ``bigint`` (a 64-bit integer).
    COLUMN_TYPES: ClassVar[Mapping[str, str]] = {"blob": "BLOB", "real": "REAL", "bigint": "INTEGER"}
    #: The name of the store in messages.
    where: str
    readonly: bool

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._closed = False
        self._subscriptions: list[Subscription] = []
        #: The cursor of the transaction :meth:`batch` holds open, if any.
        self._batch: Any = None
        #: The time its writes note as the matches' ``updated`` (the batch's start, as the database takes it).
        self._batch_time: Any = None
        #: How many savepoints are open inside the batch (each is named by its depth, see :class:`_Savepoint`).
        self._savepoints = 0
        #: The sink of each match this store attached (for :meth:`catch_up`).
        self._attached: weakref.WeakKeyDictionary[Match, SqlSink] = weakref.WeakKeyDictionary()

    # -- what a dialect provides --------------------------------------------------------
    def _transaction(self, write: bool) -> contextlib.AbstractContextManager[Any]:
        """A transaction on the store's connection, yielding a cursor (``execute``, ``fetchone``, ``fetchall``)."""
        raise NotImplementedError

    def _is_duplicate(self, error: BaseException) -> bool:
        """Whether ``error`` is the database refusing a duplicate key."""
        raise NotImplementedError

    def _time_param(self, when: dt.datetime) -> Any:
        """A UTC datetime as the database takes it."""
        raise NotImplementedError

    def _time_out(self, value: Any) -> dt.datetime:
        """A stored time as an aware UTC datetime."""
        raise NotImplementedError

    def _announce(self, cur: Any, match_id: str, start: int, stop: int, rows: Sequence[Row] = ()) -> None:
        """Tell listeners, inside the writing transaction, that records ``start..stop`` of a match were committed.

        ``rows`` are those records, where the writer has them: a feed that can
        carry them hands them to listeners (:meth:`Subscription.recent`).
        """
        raise NotImplementedError

    def _change(self, cur: Any, match_id: str, start: int, stop: int) -> int | None:
        """Announce a command's records ``start..stop`` before they are written, where the feed is a table.

        Called inside the writing transaction before anything else of the
        write: the value of the match row's ``changed`` column (the feed's
        entry), which the row's one update then sets too. None where the
        dialect announces after the write instead (:meth:`_announce`, which
        may carry the records).
        """
        return None

    def _subscribe(self, callback: ChangeCallback, notes: NoteCallback | None) -> Subscription:
        raise NotImplementedError

    def _note(self, cur: Any, match_id: str, kind: str, origin: str) -> None:
        """Tell listeners, inside the writing transaction, of a note (see :meth:`note`)."""
        raise NotImplementedError

    def _lock_schema(self, cur: Any, name: str) -> None:
        """Hold off, until the transaction ends, anyone else creating the tables ``name`` names (SQLite: a write
        transaction holds every other writer off already)."""

    def _once(self, sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
        """The rows of one read statement on the store's connection, outside any transaction (one snapshot)."""
        raise NotImplementedError

    # -- transactions ------------------------------------------------------------------
    def _translate(self, error: BaseException) -> StoreError | None:
        """The :class:`StoreError` a driver's own error inside a write stands for (None: not the driver's)."""
        raise NotImplementedError

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Write everything done in the block in one transaction, committed (once) when the block ends.

        Each write inside (a command's records, a new match) runs in a
        savepoint of its own: a write that fails (:class:`StoreConflict`, a
        duplicate) is undone alone and raises as it would outside a batch,
        while the others stay. Nothing written inside is durable before the
        block ends: whoever acknowledges a command written in a batch does so
        after it. If the commit fails, the block raises :class:`StoreError` and
        nothing of it is stored. Other threads wait for the store until then;
        a batch inside a batch is the outer one. The matches it writes to note
        the time the batch began as their last update.
        """
        if self.readonly:
            raise ReadOnlyStore(f"{self.where} was opened read-only")
        with self._lock:
            self._check_open()
            if self._batch is not None:
                yield
                return
            with self._transaction(True) as cur:
                self._batch, self._batch_time = cur, self._time_param(dt.datetime.now(dt.UTC))
                try:
                    yield
                finally:
                    self._batch = self._batch_time = None

    @property
    def in_batch(self) -> bool:
        """Whether a :meth:`batch` is open (its writes are not durable yet)."""
        return self._batch is not None

    @contextlib.contextmanager
    def _write(self) -> Iterator[Any]:
        if self.readonly:
            raise ReadOnlyStore(f"{self.where} was opened read-only")
        with self._lock:
            self._check_open()
            if self._batch is not None:
                with _Savepoint(self, self._batch) as cur:
                    yield cur
                return
            with self._transaction(True) as cur:
                yield cur

    @contextlib.contextmanager
    def _read(self) -> Iterator[Any]:
        with self._lock:
            self._check_open()
            if self._batch is not None:  # reads see the batch's own writes
                yield self._batch
                return
            with self._transaction(False) as cur:
                yield cur

    def _query(self, sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
        """The rows of one read statement (``?`` placeholders): what one snapshot of the database holds.

        Inside a :meth:`batch` it runs in the batch's transaction (it sees the
        batch's own writes); outside, as a statement of its own, with no
        transaction around it (one round trip on a database server).
        """
        with self._lock:
            self._check_open()
            if self._batch is not None:
                self._batch.execute(self._q(sql), list(args))
                return [tuple(r) for r in self._batch.fetchall()]
            return self._once(self._q(sql), list(args))

    # -- tables beside the store's (the server's lobby) ------------------------------------
    @contextlib.contextmanager
    def transaction(self, schema: str | None = None) -> Iterator[SqlCursor]:
        """A write transaction on the store's connection, for tables of one's own kept beside the store's.

        Statements take ``?`` placeholders (:class:`SqlCursor`); column types
        are named as :attr:`COLUMN_TYPES` gives them. The block commits when
        it ends (inside a :meth:`batch`, it is a savepoint of the batch) and a
        database error becomes :class:`StoreError` (refusals as the store's
        own writes: a lock held too long is :class:`StoreConflict`). With
        ``schema`` (a name for the tables), anyone else creating those
        tables waits until the block ends: create them there.
        """
        with self._write() as cur:
            if schema is not None:
                self._lock_schema(cur, schema)
            yield SqlCursor(self, cur)

    def query(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read statement (``?`` placeholders), as of one moment (see :meth:`transaction`)."""
        return self._query(sql, args)

    def is_duplicate(self, error: BaseException) -> bool:
        """Whether ``error``, raised inside :meth:`transaction`, is the database refusing a duplicate key."""
        return self._is_duplicate(error)

    def note(self, cur: SqlCursor, match_id: str, kind: str, origin: str) -> None:
        """Tell every listener of the store, once ``cur``'s transaction commits, ``kind`` about ``match_id``.

        Notes travel in the store's change feed with its record commits, in
        commit order (:meth:`listen`'s ``notes``); ``origin`` names the
        writer, so that a process can tell its own notes from others'.
        """
        self._note(cur._cur, match_id, kind, origin)

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed(f"{self.where} was closed; open the store again to continue")

    def _q(self, sql: str) -> str:
        return sql if self.P == "?" else sql.replace("?", self.P)

    # the statements of every command, in the dialect's placeholders once
    @functools.cached_property
    def _sql_update(self) -> str:
        return self._q("UPDATE matches SET records = ?, head = ?, status = ?, winners = ?, updated = ? "
                       "WHERE id = ? AND records = ? AND head = ?")

    @functools.cached_property
    def _sql_update_changed(self) -> str:
        return self._q("UPDATE matches SET records = ?, head = ?, status = ?, winners = ?, updated = ?, changed = ? "
                       "WHERE id = ? AND records = ? AND head = ?")

    @functools.cached_property
    def _sql_record(self) -> str:
        return self._q("INSERT INTO records (match, seq, body, hash) VALUES (?, ?, ?, ?)")

    # -- matches ------------------------------------------------------------------------
    def create(
        self,
        game: str | Game[Any, Any],
        seats: int,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        match_id: str | None = None,
    ) -> Match:
        """Start a match, store it, and return it attached (:class:`MatchExists` if the id is taken)."""
        mid = check_id(new_id() if match_id is None else match_id)
        match = Match.start(game, seats, seed=seed, options=options, meta=meta)
        n, head = self._insert(match, mid)
        self._attach(match, SqlSink(self, mid, n, head))
        return match

    def _attach(self, match: Match, sink: SqlSink) -> None:
        match.attach(sink)
        self._attached[match] = sink

    def add(self, match: Match, match_id: str | None = None, *, replace: bool = False) -> str:
        """Store a copy of ``match`` (its records up to the cursor) under a new id; return the id.

        The match itself is not attached; :meth:`open` the id to play on in
        the store. A taken id is :class:`MatchExists` unless ``replace``,
        which swaps the stored match for the copy in one transaction (a copy
        of the old one still open elsewhere then gets :class:`StoreConflict`).
        """
        mid = check_id(new_id() if match_id is None else match_id)
        self._insert(match, mid, replace)
        return mid

    def _insert(self, match: Match, mid: str, replace: bool = False) -> tuple[int, bytes]:
        """Insert the match row, the records up to the cursor and their snapshots; return (count, head hash)."""
        header = match.header()
        head, h = header_frame(header)
        n = match.cursor
        rows = []
        for i in range(n):
            body = match.body(i)
            check_body_size(body)
            h = match.record_hash(i)
            rows.append((mid, i, body, h))
        k = match.checkpoint_every
        snaps = [(mid, at, state_blob(match.snapshot(at))) for at in range(k, n + 1, k)]
        out = match.outcome
        now = self._time_param(dt.datetime.now(dt.UTC))
        info = match.game.info
        with self._write() as cur:
            if replace:
                cur.execute(self._q("DELETE FROM matches WHERE id = ?"), (mid,))
            try:
                cur.execute(
                    self._q("INSERT INTO matches (id, game, rules, seats, options, status, winners, created, updated,"
                            " records, head, header) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                    (mid, info.id, header.rules, match.seats,
                     json.dumps(header.options, sort_keys=True, default=repr),
                     (Status.OVER if out else Status.IN_PROGRESS).value,
                     json.dumps(list(out.winners)) if out else None, now, now, n, h, head),
                )
            except Exception as e:
                if self._is_duplicate(e):
                    raise MatchExists(f"a match with id {mid!r} is already in {self.where}") from None
                raise
            cur.executemany(self._q("INSERT INTO records (match, seq, body, hash) VALUES (?, ?, ?, ?)"), rows)
            cur.executemany(self._q("INSERT INTO snapshots (match, seq, state) VALUES (?, ?, ?)"), snaps)
            self._announce(cur, mid, 0, n)
        return n, h

    def _append(
        self, sink: SqlSink, start: int, rows: list[Row], snaps: list[tuple[str, int, bytes]], head: bytes,
        winners: tuple[int, ...] | None,
    ) -> None:
        """One command's records, in one transaction that first checks nobody else wrote (see the module docstring)."""
        # what _write does, without its generator: this runs for every command
        if self.readonly:
            raise ReadOnlyStore(f"{self.where} was opened read-only")
        with self._lock:
            self._check_open()
            batch = self._batch
            if batch is None:
                with self._transaction(True) as cur:
                    self._command(cur, sink, start, rows, snaps, head, winners,
                                  self._time_param(dt.datetime.now(dt.UTC)))
            else:
                with _Savepoint(self, batch):
                    self._command(batch, sink, start, rows, snaps, head, winners, self._batch_time)

    def _command(
        self, cur: Any, sink: SqlSink, start: int, rows: list[Row], snaps: list[tuple[str, int, bytes]], head: bytes,
        winners: tuple[int, ...] | None, now: Any,
    ) -> None:
        """The statements of :meth:`_append`, in its transaction or savepoint."""
        mid = sink.match_id
        end = start + len(rows)
        status = _OVER if winners is not None else _IN_PROGRESS
        # the check and the row's update are one statement: it locks the row, and a writer that waited
        # for another one's commit finds the row changed and updates nothing (a change entry written
        # before it goes with the write's undo)
        changed = self._change(cur, mid, start, end)
        won = json.dumps(list(winners)) if winners is not None else None
        if changed is None:
            cur.execute(self._sql_update, (end, head, status, won, now, mid, sink.known, sink.head))
        else:
            cur.execute(self._sql_update_changed, (end, head, status, won, now, changed, mid, sink.known, sink.head))
        if cur.rowcount != 1:
            cur.execute(self._q("SELECT records FROM matches WHERE id = ?"), (mid,))
            row = cur.fetchone()
            if row is None:
                raise MatchNotFound(f"match {mid!r} is no longer in {self.where}")
            raise StoreConflict(
                f"match {mid!r} has {row[0]} records in the store; this copy expected {sink.known}: "
                "another writer played first. Reopen the match to continue."
            )
        if start < sink.known:  # a new branch after an undo
            cur.execute(self._q("DELETE FROM records WHERE match = ? AND seq >= ?"), (mid, start))
            cur.execute(self._q("DELETE FROM snapshots WHERE match = ? AND seq > ?"), (mid, start))
        try:
            if len(rows) == 1:  # the common case: one statement, without executemany's own overhead
                cur.execute(self._sql_record, rows[0])
            else:
                cur.executemany(self._sql_record, rows)
            if snaps:
                cur.executemany(self._q("INSERT INTO snapshots (match, seq, state) VALUES (?, ?, ?)"), snaps)
        except Exception as e:
            if self._is_duplicate(e):
                raise StoreConflict(f"match {mid!r}: record {start} is already stored") from None
            raise
        if changed is None:
            self._announce(cur, mid, start, end, rows)

    def _fetch(self, match_id: str) -> tuple[bytes, list[tuple[int, bytes, bytes]], list[tuple[int, bytes]]]:
        check_id(match_id)
        # one statement: the match row, its records and its snapshots as of one moment, even inside a
        # batch's transaction, where each statement sees every commit made before it began
        rows = self._query(
            "SELECT 0, records, header, NULL FROM matches WHERE id = ? "
            "UNION ALL SELECT 1, seq, body, hash FROM records WHERE match = ? "
            "UNION ALL SELECT 2, seq, state, NULL FROM snapshots WHERE match = ? ORDER BY 1, 2",
            (match_id, match_id, match_id),
        )
        if not rows or rows[0][0] != 0:
            raise MatchNotFound(f"no match {match_id!r} in {self.where}")
        _, n, header, _ = rows[0]
        header = _bytes(header)
        records = [(r[1], _bytes(r[2]), _bytes(r[3])) for r in rows if r[0] == 1]
        snaps = [(r[1], _bytes(r[2])) for r in rows if r[0] == 2]
        # SQLite columns take any type: check every value read before using it
        if type(header) is not bytes or type(n) is not int:
            raise CorruptLog(f"match {match_id!r}: the matches row is malformed")
        if any(type(s) is not int or type(b) is not bytes or type(h) is not bytes for s, b, h in records):
            raise CorruptLog(f"match {match_id!r}: a stored record is not bytes")
        snaps = [(s, b) for s, b in snaps if type(s) is int and type(b) is bytes]
        if [r[0] for r in records] != list(range(n)):
            raise CorruptLog(f"match {match_id!r}: the store lists {n} records but holds sequence numbers "
                             f"{[r[0] for r in records][:10]}...")
        for seq, body, h in records:
            if len(body) + HASH_SIZE > MAX_FRAME or len(h) != HASH_SIZE:
                raise CorruptLog(f"match {match_id!r}: a stored record has an impossible size", record=seq)
        return header, records, snaps

    def log_bytes(self, match_id: str) -> bytes:
        """The match as a log file's bytes (what :meth:`Match.save` would write)."""
        header, records, _ = self._fetch(match_id)
        return log_of(header, records)

    def load_log(self, match_id: str) -> LoadedLog:
        """Decode the match's log, checking its hash chain (see :func:`meeple.engine.read_log`)."""
        return read_log(self.log_bytes(match_id))

    def open(self, match_id: str, *, use_snapshots: bool = True) -> Match:
        """Load a match and return it attached, positioned at its last record.

        With ``use_snapshots`` (the default) only the records after the last
        snapshot are folded; a snapshot that does not match the log's
        checkpoint raises :class:`CorruptLog` (open with
        ``use_snapshots=False`` to fold every record instead). A store opened
        read-only refuses (:class:`ReadOnlyStore`); read it with
        :meth:`load_log`.
        """
        if self.readonly:
            raise ReadOnlyStore(f"{self.where} was opened read-only; read the match with load_log or log_bytes")
        header, records, snap_rows = self._fetch(match_id)
        log = read_log(log_of(header, records))
        snapshots: dict[int, Any] = {}
        if use_snapshots and snap_rows:
            codec = codec_for(log.game)
            k = log.header.checkpoint_every
            for seq, blob in snap_rows:
                if seq % k or not 0 < seq <= len(records):
                    continue
                try:
                    prim = msgpack.unpackb(blob, raw=False, use_list=True, strict_map_key=False)
                except Exception:
                    raise CorruptLog(f"match {match_id!r}: the snapshot after record {seq} is undecodable",
                                     record=seq - 1) from None
                snapshots[seq] = guarded(f"match {match_id!r}: the snapshot after record {seq}",
                                         codec.structure, prim, log.game.state_type)
        match: Match = guarded(f"match {match_id!r}", build_match, log, [b for _, b, _ in records], snapshots)
        head = records[-1][2] if records else header_frame(log.header)[1]
        self._attach(match, SqlSink(self, match_id, len(records), head))
        finish_interrupted_command(match)
        return match

    def catch_up(self, match: Match, recent: Sequence[tuple[int, bytes, bytes]] | None = None) -> Match:
        """Bring a match this store attached to what the store holds now, reading only what it lacks.

        For a process that heard (through :meth:`listen`) that another one
        wrote to a match it holds. When the store's records continue the
        match's (the match's last record is still stored, by its chain hash,
        with more after it), only the records after it are read, in one
        statement, checked as a log reader checks them and folded onto
        ``match``, whose cursor goes to the new end; ``match`` is returned.
        Otherwise (a new branch after an undo, the match stored anew, a match
        this store did not attach) the match is opened again and the new
        object returned. With nothing new, ``match`` comes back as it was
        (its cursor at the store's end). ``recent`` are rows ``(seq, body,
        hash)`` the caller already holds from the change feed
        (:meth:`Subscription.recent`): when they start right after the
        match's last record and continue its chain, they are folded without
        reading the store (a later notification brings any records after them).
        """
        sink = self._attached.get(match)
        if sink is None:
            raise StoreError("catch_up takes a match this store attached (one it created or opened)")
        if sink.known == 0:
            return self.open(sink.match_id)
        known = sink.known
        if recent and recent[0][0] == known:
            try:
                if sink.table is None:
                    sink.header, sink.table = _decoding(match)
                extend_match(match, recent, sink.header, sink.table)
            except CorruptLog:
                pass  # not this copy's chain (the feed ran ahead of it, or a new branch): read the store
            else:
                sink.known, sink.head = known + len(recent), recent[-1][2]
                finish_interrupted_command(match)
                return match
        rows = self._query("SELECT seq, body, hash FROM records WHERE match = ? AND seq >= ? ORDER BY seq",
                           (sink.match_id, known - 1))
        rows = [(r[0], _bytes(r[1]), _bytes(r[2])) for r in rows]
        if not rows or rows[0][0] != known - 1 or rows[0][2] != sink.head or match.record_hash(known - 1) != sink.head:
            return self.open(sink.match_id)  # the stored chain no longer holds this copy's last record
        new = rows[1:]
        if [r[0] for r in new] != list(range(known, known + len(new))) or any(
                len(b) + HASH_SIZE > MAX_FRAME or len(h) != HASH_SIZE for _, b, h in new):
            return self.open(sink.match_id)  # _fetch names what is wrong, if anything is
        if new:
            if sink.table is None:
                sink.header, sink.table = guarded(f"match {sink.match_id!r}", _decoding, match)
            guarded(f"match {sink.match_id!r}", extend_match, match, new, sink.header, sink.table)
            sink.known, sink.head = known + len(new), new[-1][2]
        elif match.cursor != known:
            match.seek(known)
        finish_interrupted_command(match)
        return match

    def info(self, match_id: str) -> MatchInfo:
        """The ``matches`` row of one match (:class:`MatchNotFound` if none)."""
        check_id(match_id)
        found = self._select("WHERE id = ?", [match_id])
        if not found:
            raise MatchNotFound(f"no match {match_id!r} in {self.where}")
        return found[0]

    def find(
        self,
        *,
        game: str | None = None,
        seats: int | None = None,
        status: Status | str | None = None,
        since: dt.datetime | dt.date | str | None = None,
        until: dt.datetime | dt.date | str | None = None,
        limit: int | None = None,
    ) -> list[MatchInfo]:
        """Matches by game id, seat count, status and creation date (``since <= created < until``), oldest first."""
        where: list[str] = []
        args: list[Any] = []
        if game is not None:
            where.append("game = ?")
            args.append(game)
        if seats is not None:
            where.append("seats = ?")
            args.append(seats)
        if status is not None:
            where.append("status = ?")
            args.append(check_status(status).value)
        if since is not None:
            where.append("created >= ?")
            args.append(self._time_param(utc(since)))
        if until is not None:
            where.append("created < ?")
            args.append(self._time_param(utc(until)))
        sql = ("WHERE " + " AND ".join(where)) if where else ""
        sql += " ORDER BY created, id"
        if limit is not None:
            sql += f" LIMIT {check_limit(limit)}"
        return self._select(sql, args)

    def _select(self, tail: str, args: Sequence[Any]) -> list[MatchInfo]:
        with self._read() as cur:
            cur.execute(
                self._q("SELECT id, game, rules, seats, options, status, winners, created, updated, records "
                        "FROM matches " + tail), list(args),
            )
            rows = cur.fetchall()
        out = []
        for mid, game, rules, seats, options, status, winners, created, updated, records in rows:
            try:
                out.append(MatchInfo(mid, game, rules, seats, _json(options), Status(status),
                                     tuple(_json(winners)) if winners else None,
                                     self._time_out(created), self._time_out(updated), records))
            except (ValueError, TypeError) as e:
                raise StoreError(f"{self.where}: the row of match {mid!r} is malformed ({e})") from None
        return out

    def ids(self) -> list[str]:
        """Every match id in the store, sorted."""
        with self._read() as cur:
            cur.execute("SELECT id FROM matches ORDER BY id")
            return [r[0] for r in cur.fetchall()]

    def delete(self, match_id: str) -> None:
        """Remove a match with its records and snapshots (:class:`MatchNotFound` if none).

        Listeners hear of it as ``records == range(0, 0)``.
        """
        check_id(match_id)
        with self._write() as cur:
            cur.execute(self._q("DELETE FROM matches WHERE id = ?"), (match_id,))
            if cur.rowcount == 0:
                raise MatchNotFound(f"no match {match_id!r} in {self.where}")
            self._announce(cur, match_id, 0, 0)

    def listen(self, callback: ChangeCallback, *, notes: NoteCallback | None = None) -> Subscription:
        """Call ``callback(match_id, records)`` from a background thread after any process commits to this store.

        ``records`` is the ``range`` of sequence numbers the commit wrote
        (see :data:`~meeple.store.base.ChangeCallback`). Commits made before
        ``listen`` returns are not reported; every commit after it is, in
        commit order. ``notes(match_id, kind, origin)`` hears the
        :meth:`note` s of the same feed, in that order too. Close the
        returned :class:`Subscription` to stop (closing the store closes it
        too).
        """
        self._check_open()
        sub = self._subscribe(callback, notes)
        self._subscriptions.append(sub)
        return sub

    def close(self) -> None:
        """Close the connection and every subscription; attached matches then refuse to play (:class:`StoreClosed`)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            subs, self._subscriptions = self._subscriptions, []
        for sub in subs:
            sub.close()
        self._disconnect()

    def _disconnect(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _bytes(value: Any) -> bytes:
    """A binary column's value as bytes (PostgreSQL's driver may give a memoryview); anything else as it is."""
    return bytes(value) if isinstance(value, memoryview) else value


def _json(value: Any) -> Any:
    """A JSON column's value: text (SQLite) is decoded, what the driver decoded already (PostgreSQL) is kept."""
    return json.loads(value) if isinstance(value, str | bytes) else value
