"""The matches a worker holds in memory: loaded on demand, dropped when idle, within a memory budget.

A hosted match (a :class:`~meeple.server.table.Table`) lives in the worker
that hosts it. One asked for that is not in memory is read from the store
and the lobby, with the undo position its players left; beyond the worker's
share of ``Limits.max_hosted_bytes``, matches nobody is connected to and
nothing waits for are dropped, least recently used first. Matches with
seats for people that nobody has joined yet are counted across workers
(``Limits.max_unjoined``).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from ..store.errors import MatchNotFound
from .bots import bot_factories
from .protocol import ErrorCode, ServerError
from .table import Table
from .workers import current

if TYPE_CHECKING:
    from .hub import Hub


class Tables:
    """The hosted matches of a hub's workers."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        #: matches with seats for people, none of them taken yet (``Limits.max_unjoined``); any worker
        self._open: set[str] = set()
        self._lock = threading.Lock()
        #: every match hosted or being read or created, in any worker: the store's notifications about any
        #: other are dropped on the listening thread (meeple.server.peers). A worker adds a match before it
        #: reads it, so that no commit after the read is missed; the listening thread only looks.
        self.watched: set[str] = set()

    def get(self, match_id: str) -> Table:
        """The hosted match ``match_id``, loaded from the store (and the lobby) if need be."""
        worker = current()
        table = worker.tables.get(match_id)
        if table is not None:
            worker.tables.move_to_end(match_id)
            return table
        if not isinstance(match_id, str) or not 0 < len(match_id) <= 128:
            raise ServerError(ErrorCode.UNKNOWN_MATCH, "no such match")
        found = worker.store.lobby.get(match_id)
        if found is None:
            raise ServerError(ErrorCode.UNKNOWN_MATCH, f"no match {match_id!r} on this server")
        self.watched.add(match_id)
        try:
            try:
                match = worker.store.store.open(match_id)
            except MatchNotFound:
                raise ServerError(ErrorCode.UNKNOWN_MATCH, f"match {match_id!r} is no longer in the store") from None
            table = Table(*found, match, bot_factories(match.game))
            self.hub.moves.apply_marker(table)
        except BaseException:
            self.watched.discard(match_id)
            raise
        return self.host(table)

    def host(self, table: Table) -> Table:
        """Keep ``table`` in memory, set its clocks and bots going, and make room for it.

        A table read or created from the store was :attr:`watched` before the read (or the creation) began.
        """
        self.watched.add(table.id)
        current().tables[table.id] = table
        self.hub.moves.after(table, by=None, reset_clocks=True)
        self.evict(keep=table)
        return table

    def evict(self, keep: Table | None = None) -> None:
        """Drop idle matches, least recently used first, until the worker's share of ``max_hosted_bytes`` holds them.

        A dropped match is only in the store (and the lobby): :meth:`get` reads it again when asked for.
        """
        tables = current().tables
        budget = self.hub.limits.max_hosted_bytes // len(self.hub.workers)
        total = sum(t.footprint() for t in tables.values())
        for mid in list(tables):
            if total <= budget:
                return
            if tables[mid] is not keep and tables[mid].idle():
                total -= tables.pop(mid).footprint()
                self.watched.discard(mid)

    def count_unjoined(self) -> None:
        """Count the lobby's matches in progress that have seats for people and nobody in them yet."""
        rows = current().store.lobby.find(game=None, status="in_progress", open_only=True,
                                          limit=self.hub.limits.max_unjoined + 1, offset=0)
        with self._lock:
            self._open = {row.id for row, seats in rows if any(s.kind == "human" for s in seats)
                          and not any(s.kind == "human" and s.taken for s in seats)}

    def unjoined(self, match_id: str) -> None:
        """Count a new match that has seats for people (any worker), or refuse it: too many nobody joined yet."""
        limit = self.hub.limits.max_unjoined
        with self._lock:
            if len(self._open) >= limit:
                raise ServerError(ErrorCode.TOO_MANY_OPEN_MATCHES,
                                  f"this server holds {limit} matches that nobody has joined yet; join one of them "
                                  "(GET /api/matches?open=true) or try again later")
            self._open.add(match_id)

    def joined(self, match_id: str) -> None:
        """Stop counting ``match_id`` among the matches nobody joined (someone did, or it was not made)."""
        with self._lock:
            self._open.discard(match_id)
