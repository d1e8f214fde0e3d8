"""Other server processes on the same database: their commits, and the lobby's change feed.

Two sources tell a process what its peers did. The store's notifications
(:meth:`listen`) report every commit to a match; they wait in the worker's
inbox and are read in one go, so a burst of commits to one match from a
busy peer costs one read of it, not one per commit. The lobby's change feed
(read every ``poll_interval`` seconds) reports the rest: seats taken, undos
and redos. A match a peer changed is read again and its clients brought to
it. Once a peer is seen, the lobby's undo position is read again before
every request (:attr:`seen`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from ..engine.errors import MeepleError
from ..store.errors import NotSupported
from .protocol import ServerError
from .table import Table
from .workers import Worker, current, worker_of

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("meeple.server")


class Peers:
    """What a hub hears of other processes that serve the same database."""

    def __init__(self, hub: Hub, poll_interval: float) -> None:
        self.hub = hub
        self.poll_interval = poll_interval
        #: True once another server process was seen writing to the same database
        self.seen = False
        self._subscription: Any = None

    def listen(self) -> None:
        """Subscribe to the store's notifications (first worker's thread, when the hub opens)."""
        try:
            self._subscription = current().store.store.listen(self._heard)
        except NotSupported as e:
            log.warning("this store cannot report other processes' commits (%s): serve it from one process", e)

    def close(self) -> None:
        """Stop listening."""
        stop = getattr(self._subscription, "close", None)
        if callable(stop):
            stop()

    def _heard(self, match_id: str, records: range) -> None:
        """The store's notification (its listening thread): a process committed ``records`` to ``match_id``."""
        if self.hub.closing:
            return
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
        try:
            match = current().store.store.open(table.id)
        except MeepleError as e:
            log.error("match %s could not be read again: %s", table.id, e)
            return
        table.match = match
        table.own.clear()
        table.stored = (match.cursor, match.head_hash)
        self.hub.moves.apply_marker(table)
        table.moved()
        self.hub.moves.after(table, by=None, reset_clocks=True)
        table.catch_up("remote")

    async def poll(self, worker: Worker) -> None:
        """Read the lobby's change feed for ``worker``'s matches now and then (event loop, until the hub closes)."""
        while not self.hub.closing:
            await asyncio.sleep(self.poll_interval)
            try:
                await self.hub.submit(None, self._poll, worker=worker)
            except ServerError:
                return
            except Exception:
                log.exception("reading the lobby's changes failed; trying again")

    def _poll(self) -> None:
        worker = current()
        lobby = worker.store.lobby
        worker.lobby_seq, changes = lobby.changes(worker.lobby_seq)
        if changes:
            self.seen = True
        for match_id, kind in changes:
            table = worker.tables.get(match_id)
            if table is None:
                continue
            if kind == "seats":
                found = lobby.get(match_id)
                if found is not None:
                    table.seats = found[1]
                    table.tell_players()
                    self.hub.clocks.set(table, by=None, reset=False)
            else:
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
