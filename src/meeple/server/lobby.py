"""What the server keeps beside the store's records: seats, token hashes, bots, clocks, undo positions.

The store holds each match's log; the *lobby* holds what only a server needs:
which seats are people's and which bots', who joined under which name, the
hash of each seat's token (never the token), the per-move clock, and where a
match's cursor stands when players have undone commands (the store keeps
the undone records for redo until a new command replaces them).

The tables live in the same database as the store (``server_matches``,
``server_seats``, ``server_cursors``), written through the store's own
connection and SQL dialect (:meth:`~meeple.store.SqliteStore.transaction`),
so one file holds everything a SQLite-backed server knows, and one lobby
serves every database store. What other server processes must hear of (a
seat taken, an undo position moved) goes into the store's change feed as a
note (:meth:`~meeple.store.SqliteStore.note`), in commit order with the
commands.

>>> import os, tempfile
>>> from meeple.store import SqliteStore
>>> lobby = SqlLobby(SqliteStore(os.path.join(tempfile.mkdtemp(), "m.db")))
>>> lobby.create(MatchRow("m1", "kings", "standard", 2, {}, None, "random", "in_progress", "2026-01-01T00:00:00+00:00"),
...              [SeatRow(0, "human"), SeatRow(1, "bot", bot="random", bot_seed=7)])
>>> lobby.take_seat("m1", 0, token_hash("secret"), "Ann")
True
>>> lobby.seat_of("m1", token_hash("secret")), lobby.seat_of("m1", token_hash("guess"))
(0, None)
>>> lobby.store.close()
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
import uuid
from collections.abc import Sequence
from typing import Any, Protocol

import attrs

from ..store import SqlStore
from ..store.errors import StoreConflict

#: Bytes of randomness in a seat token (from :mod:`secrets`): 256 bits.
TOKEN_BYTES = 32


def new_token() -> str:
    """A fresh seat token: 256 random bits, URL-safe base64."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """The hash the lobby keeps of a token (SHA-256, hex): a stolen database holds no usable token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def now() -> str:
    """The current time, ISO 8601 in UTC (how the lobby writes times)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")


@attrs.frozen
class MatchRow:
    """A hosted match as the lobby knows it."""

    id: str
    game: str
    variant: str
    seats: int
    options: dict[str, Any]
    #: Seconds per move, or None for no clock.
    clock: float | None
    #: The bot that moves for a seat whose clock runs out.
    fallback: str
    status: str
    created: str
    name: str = ""


@attrs.frozen
class SeatRow:
    """One seat of a hosted match: a person's (``human``) or a bot's."""

    seat: int
    kind: str
    bot: str | None = None
    bot_seed: int | None = None
    name: str | None = None
    #: True once a person joined (a token was issued); always true for bots.
    taken: bool = False


@attrs.frozen
class Marker:
    """Where a match's cursor stands after undo: ``cursor``, while the store holds ``records`` ending at ``head``.

    The store keeps undone records (they can be redone) until a new command
    replaces them; when the store no longer holds exactly ``records`` records
    ending at ``head``, a command was played since and the marker is void.
    """

    cursor: int
    records: int
    head: bytes


class Lobby(Protocol):
    """The lobby's storage (:class:`SqlLobby`: the same tables on every database store).

    Besides these rows it tells other server processes, through the store's
    change feed, of the notes :data:`SEATS` (a person joined) and
    :data:`CURSOR` (an undo or a redo moved the match's position).
    """

    def create(self, row: MatchRow, seats: Sequence[SeatRow]) -> None:
        """Record a new match and its seats."""
        ...

    def get(self, match_id: str) -> tuple[MatchRow, list[SeatRow]] | None:
        """The match and its seats, or None."""
        ...

    def find(self, *, game: str | None, status: str | None, open_only: bool, limit: int,
             offset: int) -> list[tuple[MatchRow, list[SeatRow]]]:
        """Matches, newest first."""
        ...

    def in_progress(self) -> list[str]:
        """Ids of every match not yet over."""
        ...

    def take_seat(self, match_id: str, seat: int, token_hash: str, name: str | None) -> bool:
        """Give a free human seat to a person; False if it is not free."""
        ...

    def seat_of(self, match_id: str, token_hash: str) -> int | None:
        """The seat whose token has this hash, or None."""
        ...

    def set_status(self, match_id: str, status: str) -> None:
        """Record that a match is over (or in progress again)."""
        ...

    def marker(self, match_id: str) -> Marker | None:
        """The undo position of a match, if any."""
        ...

    def set_marker(self, match_id: str, marker: Marker | None) -> None:
        """Record (or with None, clear) the undo position of a match."""
        ...

    def close(self) -> None:
        """Let go of the store (which its opener closes)."""
        ...


#: The notes the lobby writes to the store's change feed: a person took a seat; an undo or a redo moved the cursor.
SEATS, CURSOR = "seats", "cursor"

# in the types of the store's database (SqlStore.COLUMN_TYPES); server_changes, the lobby's own change feed
# before the store's carried its notes, is no longer written
_SCHEMA = """
CREATE TABLE IF NOT EXISTS server_matches (
    id       TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    variant  TEXT NOT NULL,
    seats    INTEGER NOT NULL,
    options  TEXT NOT NULL,
    clock    {real},
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
    bot_seed {bigint},
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
    head     {blob} NOT NULL
)
"""

_MATCH_COLUMNS = "id, game, variant, seats, options, clock, fallback, status, created, name"
_SEAT_COLUMNS = "seat, kind, bot, bot_seed, name, token IS NOT NULL"


def _match(row: Sequence[Any]) -> MatchRow:
    mid, game, variant, seats, options, clock, fallback, status, created, name = row
    return MatchRow(mid, game, variant, seats, json.loads(options), clock, fallback, status, created, name)


def _seat(row: Sequence[Any]) -> SeatRow:
    seat, kind, bot, bot_seed, name, has_token = row
    return SeatRow(seat, kind, bot, bot_seed, name, bool(has_token) or kind == "bot")


class SqlLobby:
    """The lobby's tables in a database store's database, through the store's connection and dialect.

    It lives as long as ``store`` and is used from the thread that uses the
    store. ``origin`` names this server process in the notes it writes
    (the lobbies of one process share it), so that the process can tell
    its own notes from other processes'.
    """

    def __init__(self, store: SqlStore, *, origin: str | None = None) -> None:
        self.store = store
        self.origin = origin or uuid.uuid4().hex
        with store.transaction(schema="server") as cur:  # two servers creating the tables at once wait in turn
            for stmt in _SCHEMA.format_map(store.COLUMN_TYPES).split(";"):
                if stmt.strip():
                    cur.execute(stmt)

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        return self.store.query(sql, args)

    def create(self, row: MatchRow, seats: Sequence[SeatRow]) -> None:
        """Record a new match and its seats (:class:`StoreConflict` if the id is taken)."""
        with self.store.transaction() as cur:
            try:
                cur.execute(
                    f"INSERT INTO server_matches ({_MATCH_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (row.id, row.game, row.variant, row.seats, json.dumps(row.options, sort_keys=True), row.clock,
                     row.fallback, row.status, row.created, row.name),
                )
            except Exception as e:
                if self.store.is_duplicate(e):
                    raise StoreConflict(f"the server already hosts a match {row.id!r}") from None
                raise
            cur.executemany(
                "INSERT INTO server_seats (match, seat, kind, bot, bot_seed, name) VALUES (?, ?, ?, ?, ?, ?)",
                [(row.id, s.seat, s.kind, s.bot, s.bot_seed, s.name) for s in seats],
            )

    def _seats(self, match_id: str) -> list[SeatRow]:
        rows = self._read(f"SELECT {_SEAT_COLUMNS} FROM server_seats WHERE match = ? ORDER BY seat", [match_id])
        return [_seat(r) for r in rows]

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
        """Give a free human seat to a person; False if it is a bot's or taken (one transaction)."""
        with self.store.transaction() as cur:
            cur.execute(
                "UPDATE server_seats SET token = ?, name = ?, joined = ?"
                " WHERE match = ? AND seat = ? AND kind = 'human' AND token IS NULL",
                (token_hash, name, now(), match_id, seat),
            )
            if cur.rowcount != 1:
                return False
            self.store.note(cur, match_id, SEATS, self.origin)
            return True

    def seat_of(self, match_id: str, token_hash: str) -> int | None:
        """The seat whose token has this hash, or None."""
        rows = self._read("SELECT seat FROM server_seats WHERE match = ? AND token = ?", [match_id, token_hash])
        return rows[0][0] if rows else None

    def set_status(self, match_id: str, status: str) -> None:
        """Record where a match stands (``in_progress`` or ``over``)."""
        with self.store.transaction() as cur:
            cur.execute("UPDATE server_matches SET status = ? WHERE id = ?", (status, match_id))

    def marker(self, match_id: str) -> Marker | None:
        """The undo position of a match, if any."""
        rows = self._read("SELECT cursor, records, head FROM server_cursors WHERE match = ?", [match_id])
        if not rows:
            return None
        cursor, records, head = rows[0]
        return Marker(cursor, records, bytes(head))

    def set_marker(self, match_id: str, marker: Marker | None) -> None:
        """Record (or with None, clear) the undo position of a match."""
        with self.store.transaction() as cur:
            if marker is None:
                cur.execute("DELETE FROM server_cursors WHERE match = ?", (match_id,))
            else:
                cur.execute(
                    "INSERT INTO server_cursors (match, cursor, records, head) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (match) DO UPDATE SET cursor = excluded.cursor, records = excluded.records,"
                    " head = excluded.head",
                    (match_id, marker.cursor, marker.records, marker.head),
                )
            self.store.note(cur, match_id, CURSOR, self.origin)

    def close(self) -> None:
        """Nothing to release: the lobby uses the store's connection, which the store's opener closes."""
