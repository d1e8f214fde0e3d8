"""The lobby's tables in PostgreSQL (psycopg 3), beside a PostgreSQL store: the same rows as :class:`SqliteLobby`."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import sql

from ..store.errors import StoreConflict, StoreError
from .lobby import _MATCH_COLUMNS, CHANGES_KEPT, MatchRow, SeatRow, SqlLobby

#: How many sequence numbers below the last one read are read again (see PostgresLobby.changes).
REREAD = 256

_SCHEMA = """
CREATE TABLE IF NOT EXISTS server_matches (
    id       TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    variant  TEXT NOT NULL,
    seats    INTEGER NOT NULL,
    options  TEXT NOT NULL,
    clock    DOUBLE PRECISION,
    fallback TEXT NOT NULL,
    status   TEXT NOT NULL,
    created  TEXT NOT NULL,
    name     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS server_matches_by_created ON server_matches (created);
CREATE INDEX IF NOT EXISTS server_matches_by_status ON server_matches (status, created);
CREATE TABLE IF NOT EXISTS server_seats (
    match    TEXT NOT NULL,
    seat     INTEGER NOT NULL,
    kind     TEXT NOT NULL,
    bot      TEXT,
    bot_seed BIGINT,
    name     TEXT,
    token    TEXT,
    joined   TEXT,
    PRIMARY KEY (match, seat)
);
CREATE INDEX IF NOT EXISTS server_seats_by_token ON server_seats (match, token);
CREATE TABLE IF NOT EXISTS server_cursors (
    match    TEXT PRIMARY KEY,
    cursor   INTEGER NOT NULL,
    records  INTEGER NOT NULL,
    head     BYTEA NOT NULL
);
CREATE TABLE IF NOT EXISTS server_changes (
    seq      BIGSERIAL PRIMARY KEY,
    match    TEXT NOT NULL,
    kind     TEXT NOT NULL,
    origin   TEXT NOT NULL
);
"""


class PostgresLobby(SqlLobby):
    """The lobby's tables in a PostgreSQL database, in the store's schema.

    One object holds one connection: use it from one thread.
    """

    def __init__(self, dsn: str, schema: str = "meeple", *, origin: str | None = None) -> None:
        self.origin = origin or uuid.uuid4().hex
        self._seen: dict[int, None] = {}  # the feed's entries read lately (in order), see changes()
        try:
            self._db = psycopg.connect(dsn, autocommit=True, application_name="meeple server")
            self._db.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
            self._db.execute(sql.SQL("SET search_path = {}").format(sql.Identifier(schema)))
            with self._write() as cur:
                # two servers creating the tables at once
                cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"meeple.server.{schema}",))
                for stmt in _SCHEMA.split(";"):
                    if stmt.strip():
                        cur.execute(stmt)
        except psycopg.Error as e:
            raise StoreError(f"cannot open the server tables in PostgreSQL: {e}") from None

    @contextmanager
    def _write(self) -> Iterator[psycopg.Cursor[Any]]:
        try:
            with self._db.transaction(), self._db.cursor() as cur:
                yield cur
        except psycopg.errors.UniqueViolation:
            raise
        except psycopg.Error as e:
            raise StoreError(f"cannot write the server tables: {e}") from None

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        try:
            with self._db.cursor() as cur:
                cur.execute(sql.replace("?", "%s"), list(args))
                return cur.fetchall()
        except psycopg.Error as e:
            raise StoreError(f"cannot read the server tables: {e}") from None

    def create(self, row: MatchRow, seats: Sequence[SeatRow]) -> None:
        """Record a new match and its seats (:class:`StoreConflict` if the id is taken)."""
        try:
            with self._write() as cur:
                cur.execute(
                    f"INSERT INTO server_matches ({_MATCH_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    (row.id, row.game, row.variant, row.seats, json.dumps(row.options, sort_keys=True), row.clock,
                     row.fallback, row.status, row.created, row.name),
                )
                cur.executemany(
                    "INSERT INTO server_seats (match, seat, kind, bot, bot_seed, name) VALUES (%s, %s, %s, %s, %s, %s)",
                    [(row.id, s.seat, s.kind, s.bot, s.bot_seed, s.name) for s in seats],
                )
        except psycopg.errors.UniqueViolation:
            raise StoreConflict(f"the server already hosts a match {row.id!r}") from None

    def _execute(self, cur: Any, sql: str, args: Sequence[Any]) -> None:
        cur.execute(sql.replace("?", "%s"), args)

    def _announce(self, cur: psycopg.Cursor[Any], match_id: str, kind: str) -> None:
        cur.execute("INSERT INTO server_changes (match, kind, origin) VALUES (%s, %s, %s) RETURNING seq",
                    (match_id, kind, self.origin))
        row = cur.fetchone()
        seq = row[0] if row else 0
        if seq > CHANGES_KEPT and seq % 100 == 0:
            cur.execute("DELETE FROM server_changes WHERE seq <= %s", (seq - CHANGES_KEPT,))

    def changes(self, since: int) -> tuple[int, list[tuple[str, str]]]:
        """Changes other server processes made after change ``since`` (see :class:`~meeple.server.lobby.Lobby`).

        A sequence number is drawn before its transaction commits, so a
        change may become visible after one with a higher number: the last
        ``REREAD`` numbers before ``since`` are read again, and what was seen
        already is skipped.
        """
        if since < 0:  # where the feed stands now: what is in it already is not news
            last = self._read("SELECT coalesce(max(seq), 0) FROM server_changes")[0][0]
            for (seq,) in self._read("SELECT seq FROM server_changes WHERE seq > ?", [last - REREAD]):
                self._seen[seq] = None
            return last, []
        rows = self._read("SELECT seq, match, kind, origin FROM server_changes WHERE seq > ? ORDER BY seq",
                          [since - REREAD])
        fresh = [r for r in rows if r[0] not in self._seen]
        for r in fresh:
            self._seen[r[0]] = None
        while len(self._seen) > 4 * REREAD:
            del self._seen[next(iter(self._seen))]
        last = max([since, *(r[0] for r in rows)])
        return last, [(m, k) for _, m, k, origin in fresh if origin != self.origin]

    def close(self) -> None:
        """Close the connection."""
        self._db.close()
