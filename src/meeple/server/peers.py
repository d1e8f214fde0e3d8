"""Other server processes on the same database: their commits, and their lobby notes.

The store's feed (:meth:`listen`) tells a process what its peers did, in
commit order: every commit to a match, and the lobby's notes (a seat taken,
an undo or a redo; :meth:`meeple.store.SqliteStore.note`). They wait in the
worker's inbox and are read in one go, so a burst of commits to one match
from a busy peer costs one catch-up, not one per commit. A match a peer
changed is caught up by the records it lacks only
(:meth:`meeple.store.SqliteStore.catch_up`; on PostgreSQL the notification
usually carries them) and its clients brought to it. Once a peer is seen,
the lobby's undo position is read again before every undo and redo
(:attr:`seen`); a play relies on the notes.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

from ..engine.errors import MeepleError
from ..store.errors import NotSupported
from .lobby import CURSOR, SEATS
from .table import Table
from .workers import current, worker_of

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("meeple.server")


class Peers:
    """What a hub hears of other processes that serve the same database."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        #: True once another server process was seen writing to the same database
        self.seen = False
        self._subscription: Any = None

    def listen(self) -> None:
        """Subscribe to the store's notifications (first worker's thread, when the hub opens)."""
        try:
            self._subscription = current().store.store.listen(self._heard, notes=self._noted)
        except NotSupported as e:
            log.warning("this store cannot report other processes' commits (%s): serve it from one process", e)

    def close(self) -> None:
        """Stop listening."""
        stop = getattr(self._subscription, "close", None)
        if callable(stop):
            stop()

    @property
    def hears_own(self) -> bool:
        """Whether the store's feed reports this process's own commits too (PostgreSQL leaves them out)."""
        return bool(getattr(self._subscription, "hears_own", True))

    def wrote(self, table: Table, start: int, stop: int) -> None:
        """Note that this process committed records ``start..stop`` of ``table``: not a peer's, when heard back."""
        if self._subscription is not None and self.hears_own:
            table.own.append((start, stop))

    def _noted(self, match_id: str, kind: str, origin: str) -> None:
        """The store's note of another process's lobby (its listening thread): a seat taken, an undo or a redo."""
        if origin != self.hub.origin:
            self._heard(match_id, kind)

    def _heard(self, match_id: str, records: range | str) -> None:
        """The store's notification (its listening thread): a process committed ``records`` to ``match_id``.

        ``records`` is a lobby note's kind instead where :meth:`_noted` heard one.
        """
        if self.hub.closing or match_id not in self.hub.tables.watched:
            return  # a match no worker holds: it is read afresh when one does
        worker = worker_of(self.hub.workers, match_id)
        with worker.inbox_lock:
            worker.inbox.append((match_id, records))
            if worker.draining:
                return
            worker.draining = True
        with contextlib.suppress(RuntimeError):  # shut down
            worker.submit(self._drain)

    def _drain(self) -> None:
        worker = current()
        with worker.inbox_lock:
            pending, worker.inbox = worker.inbox, []
            worker.draining = False
        stale: dict[str, Table] = {}
        for match_id, records in pending:
            table = worker.tables.get(match_id)
            if table is None:
                continue
            if isinstance(records, str):  # a note, after the commits before it: those are read first
                self.seen = True
                if match_id in stale:
                    self.refresh(stale.pop(match_id))
                self.noted(table, records)
                continue
            span = (records.start, records.stop)
            if span in table.own:  # this process's own commit, heard back
                table.own.remove(span)
                continue
            if span == (0, 0):  # deleted
                log.warning("match %s was deleted from the store", match_id)
                continue
            self.seen = True
            stale[match_id] = table
        for table in stale.values():
            self.refresh(table)

    def refresh(self, table: Table) -> None:
        """Bring the table to what the store holds, and its clients with it (worker thread)."""
        try:  # only the records after the table's, where the store's continue them (else the whole match),
            # and without a read when the notification carried them
            recent = getattr(self._subscription, "recent", None)
            match = current().store.store.catch_up(table.match, recent(table.id, table.stored[0]) if recent else None)
        except MeepleError as e:
            log.error("match %s could not be read again: %s", table.id, e)
            return
        table.match = match
        table.own.clear()
        table.stored = (match.cursor, match.head_hash)
        if table.marked:  # else no undo position: another process's would have come as a note before this
            self.hub.moves.apply_marker(table)
        table.moved()
        self.hub.moves.after(table, by=None, reset_clocks=True)
        table.catch_up("remote")

    def noted(self, table: Table, kind: str) -> None:
        """Another process's lobby note about ``table``: a person took a seat, or an undo or a redo moved it."""
        if kind == SEATS:
            found = current().store.lobby.get(table.id)
            if found is not None:
                table.seats = found[1]
                table.tell_players()
                self.hub.clocks.set(table, by=None, reset=False)
        elif kind == CURSOR:
            self.reposition(table)

    def reposition(self, table: Table) -> None:
        """Move the cursor where the lobby says players left it: another process's undo or redo (worker thread)."""
        marker = current().store.lobby.marker(table.id)
        table.marked = marker is not None
        m = table.match
        target = table.stored[0]
        if marker is not None and (marker.records, marker.head) == table.stored:
            target = marker.cursor
        if target == m.cursor or not 0 <= target <= table.stored[0]:
            return
        before = (m.cursor, table.raw_head())
        m.seek(target)
        table.moved()
        self.hub.moves.after(table, by=None, reset_clocks=True)
        table.broadcast("rewind" if target < before[0] else "update", "undo" if target < before[0] else "redo", None,
                        before)
