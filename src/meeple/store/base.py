"""What every store offers: the :class:`Store` protocol, :class:`MatchInfo` rows and change subscriptions.

The file, SQLite and PostgreSQL stores all follow :class:`Store`, so code
written against it (a server, a listing command) works on each. A store
*attaches* the matches it returns: every command played on them is in the
store before ``play`` returns, and a write the store refuses raises and
leaves the match unchanged.
"""

from __future__ import annotations

import datetime as dt
import enum
import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any, Literal, Protocol

import attrs

from ..engine.game import Game
from ..engine.match import Match
from ..engine.reader import LoadedLog

log = logging.getLogger("meeple.store")

#: How a store makes each command durable before ``play`` returns, the same two levels for every kind
#: of store: ``"flush"``, handed to the operating system (it survives the process being killed, not a
#: power loss); ``"fsync"``, on disk (it survives a power loss too, on storage that honours flushes).
#: Each store's module says what it does for each, and which is its default.
Durability = Literal["flush", "fsync"]

#: What :meth:`Store.listen` calls: ``callback(match_id, records)`` after a commit.
#: ``records`` is the range of sequence numbers that commit wrote: ``records.start``
#: is the first record that changed (below the previous length after a new branch,
#: 0 for a new match or a resync) and ``records.stop`` the number of records the
#: match now holds.
ChangeCallback = Callable[[str, range], None]

#: What :meth:`~meeple.store.SqliteStore.listen` calls for a *note* (``notes=``): ``notes(match_id, kind, origin)``
#: after a commit that wrote one (:meth:`~meeple.store.SqliteStore.note`). Notes are what code keeping tables
#: of its own beside a database store's (the server's lobby) tells other processes; they travel in the store's
#: one change feed, in commit order with the record commits.
NoteCallback = Callable[[str, str, str], None]


class Status(enum.StrEnum):
    """Where a stored match stands."""

    IN_PROGRESS = "in_progress"
    OVER = "over"


@attrs.frozen
class MatchInfo:
    """One stored match as listed by :meth:`Store.find` and :meth:`Store.info`.

    ``created`` and ``updated`` are aware UTC datetimes. The database stores
    record them when the match is stored and at its last write; the file store
    has only the file's modification time, which it gives for both.
    """

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


class Subscription:
    """A running :meth:`Store.listen`: a background thread that calls back after each commit.

    ``close()`` stops it (waiting for the thread, unless called from the
    callback itself); it is also a context manager. An exception raised by
    the callback is logged (logger ``meeple.store``) and the subscription
    goes on.
    """

    #: False where the feed leaves out what the listening store's own origin wrote (a
    #: :class:`~meeple.store.PostgresStore` given an ``origin``): then its commits and notes are not reported.
    hears_own = True

    def __init__(self, callback: ChangeCallback, name: str, notes: NoteCallback | None = None) -> None:
        self._callback = callback
        self._notes = notes
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._main, name=name, daemon=True)

    def _start(self) -> None:
        self._thread.start()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._stop.is_set()

    def close(self) -> None:
        """Stop calling back; release the subscription's connection."""
        self._stop.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join()

    def _deliver(self, match_id: str, records: range) -> None:
        if self._stop.is_set():
            return
        try:
            self._callback(match_id, records)
        except Exception:
            log.exception("a store change callback raised (match %r, records %s)", match_id, records)

    def _deliver_note(self, match_id: str, kind: str, origin: str) -> None:
        if self._stop.is_set() or self._notes is None:
            return
        try:
            self._notes(match_id, kind, origin)
        except Exception:
            log.exception("a store note callback raised (match %r, note %r)", match_id, kind)

    def _main(self) -> None:
        try:
            self._run()
        except Exception:  # the loop gave up: say so instead of going silent
            log.exception("a store subscription stopped on an error")
        finally:
            self._release()

    def _run(self) -> None:
        raise NotImplementedError

    def _release(self) -> None:
        """Free what the loop used (its connection)."""

    def recent(self, match_id: str, start: int) -> list[tuple[int, bytes, bytes]] | None:
        """The records ``start...`` of a match as the feed carried them lately, ``(seq, body, hash)``, or None.

        A feed that carries the records it announces (PostgreSQL's, for
        records that fit in a notification) keeps the last ones of each match
        it heard of, as of its last notification, so that a listener can
        catch a match up without reading the store
        (:meth:`~meeple.store.SqliteStore.catch_up`'s ``recent``). None when it
        does not hold record ``start``.
        """
        return None

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Store(Protocol):
    """The API every store offers (:class:`~meeple.store.FileStore`, :class:`~meeple.store.SqliteStore`,
    :class:`~meeple.store.PostgresStore`)."""

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
        ...

    def add(self, match: Match, match_id: str | None = None, *, replace: bool = False) -> str:
        """Store a copy of ``match`` (its records up to the cursor) under a new id; return the id.

        A taken id is :class:`MatchExists` unless ``replace``.
        """
        ...

    def open(self, match_id: str) -> Match:
        """Load a match and return it attached, positioned at its last record."""
        ...

    def log_bytes(self, match_id: str) -> bytes:
        """The match as a log file's bytes (what :meth:`Match.save` would write)."""
        ...

    def load_log(self, match_id: str) -> LoadedLog:
        """Decode the match's log, checking its hash chain."""
        ...

    def info(self, match_id: str) -> MatchInfo:
        """What the store knows of one match (:class:`MatchNotFound` if none)."""
        ...

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
        """Matches by game id, seat count, status and creation time (``since <= created < until``), oldest first."""
        ...

    def ids(self) -> list[str]:
        """Every match id in the store, sorted."""
        ...

    def delete(self, match_id: str) -> None:
        """Remove a match and everything stored with it."""
        ...

    def listen(self, callback: ChangeCallback) -> Subscription:
        """Call ``callback(match_id, records)`` after any process commits records to a match of this store."""
        ...

    def close(self) -> None:
        """Release the store; matches it attached refuse further commands (:class:`StoreClosed`)."""
        ...
