"""What changes a hosted match's position (play, undo, redo) and what follows every change.

Each runs in the match's worker. A change is stored first (the command by
``Match.play``, the undo position as the lobby's marker), then the status,
clocks and bots are brought up to date, and only then is every client told,
each with the message its seat may see (:meth:`Table.broadcast
<meeple.server.table.Table.broadcast>`). A refusal is a
:class:`~meeple.server.protocol.ServerError` and changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from ..engine.errors import IllegalCommand
from ..engine.wire import Json
from ..store.errors import StoreConflict, StoreError
from . import group
from .connection import Client
from .protocol import ErrorCode, ServerError, engine_code
from .table import Table
from .workers import current

if TYPE_CHECKING:
    from .hub import Hub


class Moves:
    """The changes of a hub's matches."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def apply_marker(self, table: Table) -> None:
        """Put the cursor where players left it by undo, if the store still holds what the lobby's marker expects."""
        lobby = current().store.lobby
        marker = lobby.marker(table.id)
        table.marked = marker is not None
        if marker is None:
            return
        if (marker.records, marker.head) == table.stored and 0 <= marker.cursor <= marker.records:
            table.match.seek(marker.cursor)
            table.moved()
        else:  # a command was played after the undo: the store's end is the position
            group.lobby_write(lobby.set_marker, table.id, None)
            table.marked = False

    def mark(self, table: Table) -> None:
        marker = table.marker()
        if marker is not None or table.marked:
            group.lobby_write(current().store.lobby.set_marker, table.id, marker)
            table.marked = marker is not None

    def after(self, table: Table, by: int | None, reset_clocks: bool = False) -> None:
        """After any change: note the status, start the clocks, set the bots to work."""
        status = "over" if table.match.is_over else "in_progress"
        if status != table.row.status:
            group.lobby_write(current().store.lobby.set_status, table.id, status)
            table.row = attrs.evolve(table.row, status=status)
        self.hub.clocks.set(table, by, reset_clocks)
        if not table.match.is_over:
            self.hub.bots.act(table)

    def play(self, table: Table, seat: int, command: Any, cause: str, requester: Client | None = None,
             ref: Json = None) -> None:
        """Play ``command`` for ``seat``, persist, and tell every client."""
        m = table.match
        before = (m.cursor, table.raw_head())
        if table.next_undone() == (seat, command):
            m.redo()  # the same command at the same position: the same records, already stored
        else:
            try:
                m.play(seat, command)
            except IllegalCommand as e:
                raise ServerError(engine_code(e.code), e.message, reason=e.code.value) from None
            except StoreConflict as e:
                self.hub.peers.refresh(table)
                raise ServerError(ErrorCode.CONFLICT, f"another server changed the match first: {e}",
                                  cursor=table.match.cursor) from None
            except StoreError as e:
                raise ServerError(ErrorCode.STORE_ERROR, f"the store refused the command: {e}") from None
            self.hub.peers.wrote(table, before[0], m.cursor)
            table.stored = (m.cursor, m.head_hash)
            group.committed(table)
        if cause == "clock":  # the record says it was played for the seat (Table.records)
            table.by_clock.add(before[0])
        self.mark(table)
        table.moved()
        self.after(table, by=seat)  # clocks first: the messages show the new deadlines
        table.broadcast("update", cause, seat, before, requester, ref)

    def rewind(self, table: Table, seat: int, client: Client, ref: Json, kind: str) -> None:
        """Undo ``seat``'s last command or redo its undone one, store the lobby's marker, tell every client."""
        m = table.match
        before = (m.cursor, table.raw_head())
        if kind == "undo":
            try:
                m.undo(seat)
            except IllegalCommand as e:
                raise ServerError(ErrorCode.UNDO_REFUSED, e.message, reason=e.code.value) from None
        else:
            undone = table.next_undone()
            if undone is None:
                raise ServerError(ErrorCode.REDO_REFUSED, "nothing was undone", reason="nothing_to_redo")
            if undone[0] != seat:
                raise ServerError(ErrorCode.REDO_REFUSED, f"the next undone command is seat {undone[0]}'s, not yours",
                                  reason="not_yours")
            m.redo()
        try:
            self.mark(table)
        except StoreError as e:
            m.seek(before[0])
            raise ServerError(ErrorCode.STORE_ERROR, f"the {kind} could not be stored: {e}") from None
        table.moved()
        self.after(table, by=seat, reset_clocks=True)
        table.broadcast("rewind" if kind == "undo" else "update", kind, seat, before, client, ref)
