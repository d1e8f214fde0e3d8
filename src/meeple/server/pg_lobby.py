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
from .lobby import _MATCH_COLUMNS, _SEAT_COLUMNS, CHANGES_KEPT, Marker, MatchRow, SeatRow, _match, _seat, now

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


class PostgresLobby:
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

    def _seats(self, match_id: str) -> list[SeatRow]:
        return [_seat(r) for r in self._read(f"SELECT {_SEAT_COLUMNS} FROM server_seats WHERE match = ? ORDER BY seat",
                                             [match_id])]

    def get(self, match_id: str) -> tuple[MatchRow, list[SeatRow]] | None:
        """The match and its seats, or None."""
        rows = self._read(f"SELECT {_MATCH_COLUMNS} FROM server_matches WHERE id = ?", [match_id])
        if not rows:
            return None
        return _match(rows[0]), self._seats(match_id)

    def find(self, *, game: str | None = None, status: str | None = None, open_only: bool = False,
             limit: int = 100, offset: int = 0) -> list[tuple[MatchRow, list[SeatRow]]]:
        """Matches by game and status (``open_only``: with a free human seat), newest first."""
        where, args = [], []
        if game is not None:
            where.append("game = ?")
            args.append(game)
        if status is not None:
            where.append("status = ?")
            args.append(status)
        if open_only:
            where.append("EXISTS (SELECT 1 FROM server_seats s WHERE s.match = server_matches.id"
                         " AND s.kind = 'human' AND s.token IS NULL)")
        sql = f"SELECT {_MATCH_COLUMNS} FROM server_matches"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY created DESC, id LIMIT ? OFFSET ?"
        rows = self._read(sql, [*args, int(limit), int(offset)])
        return [(m, self._seats(m.id)) for m in map(_match, rows)]

    def in_progress(self) -> list[str]:
        """Ids of every match not yet over, oldest first."""
        return [r[0] for r in self._read("SELECT id FROM server_matches WHERE status = 'in_progress' ORDER BY created")]

    def take_seat(self, match_id: str, seat: int, token_hash: str, name: str | None) -> bool:
        """Give a free human seat to a person; False if it is a bot's or taken (one statement)."""
        with self._write() as cur:
            cur.execute(
                "UPDATE server_seats SET token = %s, name = %s, joined = %s"
                " WHERE match = %s AND seat = %s AND kind = 'human' AND token IS NULL",
                (token_hash, name, now(), match_id, seat),
            )
            if cur.rowcount != 1:
                return False
            self._announce(cur, match_id, "seats")
            return True

    def seat_of(self, match_id: str, token_hash: str) -> int | None:
        """The seat whose token has this hash, or None."""
        rows = self._read("SELECT seat FROM server_seats WHERE match = ? AND token = ?", [match_id, token_hash])
        return rows[0][0] if rows else None

    def set_status(self, match_id: str, status: str) -> None:
        """Record where a match stands (``in_progress`` or ``over``)."""
        with self._write() as cur:
            cur.execute("UPDATE server_matches SET status = %s WHERE id = %s", (status, match_id))

    def marker(self, match_id: str) -> Marker | None:
        """The undo position of a match, if any."""
        rows = self._read("SELECT cursor, records, head FROM server_cursors WHERE match = ?", [match_id])
        if not rows:
            return None
        cursor, records, head = rows[0]
        return Marker(cursor, records, bytes(head))

    def set_marker(self, match_id: str, marker: Marker | None) -> None:
        """Record (or with None, clear) the undo position of a match."""
        with self._write() as cur:
            if marker is None:
                cur.execute("DELETE FROM server_cursors WHERE match = %s", (match_id,))
            else:
                cur.execute(
                    "INSERT INTO server_cursors (match, cursor, records, head) VALUES (%s, %s, %s, %s)"
                    " ON CONFLICT (match) DO UPDATE SET cursor = excluded.cursor, records = excluded.records,"
                    " head = excluded.head",
                    (match_id, marker.cursor, marker.records, marker.head),
                )
            self._announce(cur, match_id, "cursor")

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
