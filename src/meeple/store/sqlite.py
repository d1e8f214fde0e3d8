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

Tables (``PRAGMA user_version`` 1):

* ``matches``: one row per match: id, game, rules version, seat count,
  options (JSON), status (``in_progress`` or ``over``), winners (JSON),
  created and updated (ISO 8601, UTC), record count, the head hash, and the
  log header frame.
* ``records``: ``(match, seq)`` primary key, the record body and its chain
  hash. Concatenating the header and the record frames gives the exact log
  file of the match, so ``meeple verify sqlite:///path#id`` re-decides it.
* ``snapshots``: ``(match, seq)`` primary key, the msgpack state after every
  ``checkpoint_every``-th record. Opening a match folds only the records
  after the last snapshot; each snapshot is checked against the checkpoint
  hash in the log before it is used.

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
"""

from __future__ import annotations

import contextlib
import datetime as dt
import enum
import json
import os
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import msgpack

from ..engine.codec import digest, pack, unstructure
from ..engine.errors import CorruptLog
from ..engine.game import Game
from ..engine.log import HASH_SIZE, MAX_FRAME, framed, header_frame
from ..engine.match import Match, codec_for
from ..engine.reader import LoadedLog, read_log
from ._common import (
    build_match,
    check_body_size,
    check_id,
    finish_interrupted_command,
    guarded,
    new_id,
)
from .errors import MatchNotFound, StoreConflict, StoreError
from .files import Durability

SCHEMA_VERSION = 1

_SCHEMA = """
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
) WITHOUT ROWID;
"""


class Status(enum.StrEnum):
    """Where a stored match stands."""

    IN_PROGRESS = "in_progress"
    OVER = "over"


@attrs.frozen
class MatchInfo:
    """A row of the ``matches`` table: what :meth:`SqliteStore.find` returns."""

    id: str
    game: str
    rules: int
    seats: int
    options: dict[str, Any]
    status: Status
    winners: tuple[int, ...] | None
    created: dt.datetime
    updated: dt.datetime
    records: int


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")


def _when(value: dt.datetime | dt.date | str) -> str:
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value)
        except ValueError:
            raise StoreError(f"a date is ISO 8601 (e.g. 2026-01-31T12:00:00+00:00), not {value!r}") from None
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        value = dt.datetime(value.year, value.month, value.day, tzinfo=dt.UTC)
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    return value.astimezone(dt.UTC).isoformat(timespec="microseconds")


def _state_blob(state: Any) -> bytes:
    return pack(unstructure(state))


def _log(header: bytes, records: Sequence[tuple[int, bytes, bytes]]) -> bytes:
    """The log file bytes of a stored header frame and ``(seq, body, hash)`` record rows."""
    return header + b"".join(framed(body, h) for _, body, h in records)


class SqliteSink:
    """Writes one match's records to the database (the :class:`~meeple.engine.match.Sink` of a SQLite store)."""

    def __init__(self, store: SqliteStore, match: Match, match_id: str, known: int, head: bytes) -> None:
        self.store = store
        self.match_id = match_id
        self.known = known  # records this copy believes the store holds
        self.head = head  # and the chain hash of the last of them

    def write(
        self, match: Match, start: int, bodies: Sequence[bytes], *, snapshots: Mapping[int, Any], state: Any
    ) -> None:
        """Store ``bodies`` as records ``start...`` in one transaction, or raise :class:`StoreConflict`."""
        if start > self.known:
            raise StoreError(f"record {start} would leave a gap after {self.known} stored records")
        prev = match.record_hash(start - 1)
        rows = []
        for i, body in enumerate(bodies, start):
            check_body_size(body)
            h = digest(body, prev)
            rows.append((self.match_id, i, body, h))
            prev = h
        snaps = [(self.match_id, i, _state_blob(s)) for i, s in sorted(snapshots.items())]
        outcome = match.game.outcome(state)
        status = Status.OVER if outcome is not None else Status.IN_PROGRESS
        winners = json.dumps(list(outcome.winners)) if outcome is not None else None
        end = start + len(rows)
        with self.store._write() as cur:
            row = cur.execute("SELECT records, head FROM matches WHERE id = ?", (self.match_id,)).fetchone()
            if row is None:
                raise MatchNotFound(f"match {self.match_id!r} is no longer in the store")
            if row[0] != self.known or bytes(row[1]) != self.head:
                raise StoreConflict(
                    f"match {self.match_id!r} has {row[0]} records in the store; this copy expected {self.known}: "
                    "another writer played first. Reopen the match to continue."
                )
            if start < self.known:  # a new branch after an undo
                cur.execute("DELETE FROM records WHERE match = ? AND seq >= ?", (self.match_id, start))
                cur.execute("DELETE FROM snapshots WHERE match = ? AND seq > ?", (self.match_id, start))
            try:
                cur.executemany("INSERT INTO records (match, seq, body, hash) VALUES (?, ?, ?, ?)", rows)
                cur.executemany("INSERT INTO snapshots (match, seq, state) VALUES (?, ?, ?)", snaps)
            except sqlite3.IntegrityError:
                raise StoreConflict(f"match {self.match_id!r}: record {start} is already stored") from None
            cur.execute(
                "UPDATE matches SET records = ?, head = ?, status = ?, winners = ?, updated = ? WHERE id = ?",
                (end, prev, status.value, winners, _now(), self.match_id),
            )
        self.known = end
        self.head = prev


class SqliteStore:
    """Many matches in one SQLite database (see the module docstring).

    One store object holds one connection; use one per thread (and one per
    process: open a new store after ``fork``).
    """

    def __init__(self, path: str | os.PathLike[str], durability: Durability = "fsync", timeout: float = 30.0) -> None:
        if durability not in ("flush", "fsync"):
            raise StoreError(f"durability is 'flush' or 'fsync', not {durability!r}")
        self.path = Path(path)
        self.durability: Durability = durability
        try:
            self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute(f"PRAGMA synchronous = {'FULL' if durability == 'fsync' else 'NORMAL'}")
            self._db.execute("PRAGMA foreign_keys = ON")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path} has store schema {version}, newer than this library's {SCHEMA_VERSION}")
            with self._write() as cur:
                for stmt in _SCHEMA.split(";"):
                    if stmt.strip():
                        cur.execute(stmt)
                cur.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as e:
            raise StoreError(f"cannot open the SQLite store {self.path}: {e}") from None

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Cursor]:
        """One write transaction; SQLite's own errors become :class:`StoreError`."""
        try:
            cur = self._db.cursor()
            cur.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                raise StoreConflict(f"{self.path} stayed locked by another writer: {e}") from None
            raise StoreError(f"cannot write to {self.path}: {e}") from None
        except sqlite3.Error as e:
            raise StoreError(f"cannot write to {self.path}: {e}") from None
        try:
            yield cur
        except BaseException as e:
            with contextlib.suppress(sqlite3.Error):
                cur.execute("ROLLBACK")
            if isinstance(e, sqlite3.Error):
                raise StoreError(f"cannot write to {self.path}: {e}") from None
            raise
        else:
            try:
                cur.execute("COMMIT")
            except sqlite3.Error as e:
                with contextlib.suppress(sqlite3.Error):
                    cur.execute("ROLLBACK")
                raise StoreError(f"cannot commit to {self.path}: {e}") from None
        finally:
            with contextlib.suppress(sqlite3.Error):
                cur.close()

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Cursor]:
        """One read transaction (a consistent snapshot); SQLite's own errors become :class:`StoreError`."""
        try:
            cur = self._db.cursor()
            cur.execute("BEGIN")
        except sqlite3.Error as e:
            raise StoreError(f"cannot read {self.path}: {e}") from None
        try:
            yield cur
        except sqlite3.Error as e:
            raise StoreError(f"cannot read {self.path}: {e}") from None
        finally:
            with contextlib.suppress(sqlite3.Error):
                cur.execute("COMMIT")
                cur.close()

    # -- matches ------------------------------------------------------------------
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
        """Start a match, store it, and return it attached (:class:`StoreConflict` if the id is taken)."""
        mid = check_id(new_id() if match_id is None else match_id)
        match = Match.start(game, seats, seed=seed, options=options, meta=meta)
        n, head = self._insert(match, mid)
        match.attach(SqliteSink(self, match, mid, n, head))
        return match

    def add(self, match: Match, match_id: str | None = None) -> str:
        """Store a copy of ``match`` (its records up to the cursor) under a new id; return the id.

        The match itself is not attached; :meth:`open` the id to play on in
        the store.
        """
        mid = check_id(new_id() if match_id is None else match_id)
        self._insert(match, mid)
        return mid

    def _insert(self, match: Match, mid: str) -> tuple[int, bytes]:
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
        snaps = [(mid, at, _state_blob(match._snapshots[at])) for at in range(k, n + 1, k)]
        out = match.outcome
        now = _now()
        info = match.game.info
        with self._write() as cur:
            try:
                cur.execute(
                    "INSERT INTO matches (id, game, rules, seats, options, status, winners, created, updated, records,"
                    " head, header) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (mid, info.id, info.rules_version, match.seats,
                     json.dumps(header.options, sort_keys=True, default=repr),
                     (Status.OVER if out else Status.IN_PROGRESS).value,
                     json.dumps(list(out.winners)) if out else None, now, now, n, h, head),
                )
            except sqlite3.IntegrityError:
                raise StoreConflict(f"a match with id {mid!r} is already in {self.path}") from None
            cur.executemany("INSERT INTO records (match, seq, body, hash) VALUES (?, ?, ?, ?)", rows)
            cur.executemany("INSERT INTO snapshots (match, seq, state) VALUES (?, ?, ?)", snaps)
        return n, h

    def _fetch(self, match_id: str) -> tuple[bytes, list[Any], list[tuple[int, bytes]]]:
        check_id(match_id)
        with self._read() as cur:
            row = cur.execute("SELECT header, records FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                raise MatchNotFound(f"no match {match_id!r} in {self.path}")
            header, n = row
            records = cur.execute("SELECT seq, body, hash FROM records WHERE match = ? ORDER BY seq",
                                  (match_id,)).fetchall()
            snaps = cur.execute("SELECT seq, state FROM snapshots WHERE match = ? ORDER BY seq",
                                (match_id,)).fetchall()
        # SQLite columns take any type: check every value read before using it
        if type(header) is not bytes or type(n) is not int:
            raise CorruptLog(f"match {match_id!r}: the matches row is malformed")
        if any(type(b) is not bytes or type(h) is not bytes for _, b, h in records):
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
        return _log(header, records)

    def load_log(self, match_id: str) -> LoadedLog:
        """Decode the match's log, checking its hash chain (see :func:`meeple.engine.read_log`)."""
        return read_log(self.log_bytes(match_id))

    def open(self, match_id: str, *, use_snapshots: bool = True) -> Match:
        """Load a match and return it attached, positioned at its last record.

        With ``use_snapshots`` (the default) only the records after the last
        snapshot are folded; a snapshot that does not match the log's
        checkpoint raises :class:`CorruptLog` (open with
        ``use_snapshots=False`` to fold every record instead).
        """
        header, records, snap_rows = self._fetch(match_id)
        log = read_log(_log(header, records))
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
        match.attach(SqliteSink(self, match, match_id, len(records), head))
        finish_interrupted_command(match)
        return match

    def info(self, match_id: str) -> MatchInfo:
        """The ``matches`` row of one match (:class:`MatchNotFound` if none)."""
        check_id(match_id)
        found = self._select("WHERE id = ?", [match_id])
        if not found:
            raise MatchNotFound(f"no match {match_id!r} in {self.path}")
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
            try:
                where.append("status = ?")
                args.append(Status(status).value)
            except ValueError:
                raise StoreError(f"status is 'in_progress' or 'over', not {status!r}") from None
        if since is not None:
            where.append("created >= ?")
            args.append(_when(since))
        if until is not None:
            where.append("created < ?")
            args.append(_when(until))
        sql = ("WHERE " + " AND ".join(where)) if where else ""
        sql += " ORDER BY created, id"
        if limit is not None:
            try:
                sql += f" LIMIT {int(limit)}"
            except (TypeError, ValueError):
                raise StoreError(f"limit is an integer, not {limit!r}") from None
        return self._select(sql, args)

    def _select(self, tail: str, args: Sequence[Any]) -> list[MatchInfo]:
        with self._read() as cur:
            rows = cur.execute(
                "SELECT id, game, rules, seats, options, status, winners, created, updated, records FROM matches "
                + tail, list(args),
            ).fetchall()
        out = []
        for mid, game, rules, seats, options, status, winners, created, updated, records in rows:
            try:
                out.append(MatchInfo(mid, game, rules, seats, json.loads(options), Status(status),
                                     tuple(json.loads(winners)) if winners else None,
                                     dt.datetime.fromisoformat(created), dt.datetime.fromisoformat(updated), records))
            except (ValueError, TypeError) as e:
                raise StoreError(f"{self.path}: the row of match {mid!r} is malformed ({e})") from None
        return out

    def delete(self, match_id: str) -> None:
        """Remove a match with its records and snapshots."""
        check_id(match_id)
        with self._write() as cur:
            cur.execute("DELETE FROM matches WHERE id = ?", (match_id,))

    def close(self) -> None:
        """Close the connection; attached matches can no longer be written."""
        self._db.close()

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

