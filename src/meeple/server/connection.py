"""Connections: one WebSocket as the server sees it, its send queue and its back-pressure.

A :class:`Client` is made on the event loop when a socket opens and read by
the engine worker of its match (which seat it is, what it was last shown).
Whatever thread sends to it, its messages reach the socket in the order
they were sent: from an engine worker through the worker's :class:`Outbox`
(one wake-up of the loop per operation), from the loop directly. A client
that lets more than ``Limits.outbox`` messages pile up is closed as too
slow (``CloseCode.TOO_SLOW``) instead of holding memory for ever.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .delta import Shown
    from .table import Table

log = logging.getLogger("meeple.server")

#: The ASGI scope extension under which a server offers a direct sender of text messages (see
#: :class:`meeple.server.transport.FastWebSocketProtocol`): a function of the text that writes it at once and
#: returns True, or returns False, having written nothing, when the message must wait its turn.
SEND_TEXT = "meeple.send_text"

#: What waits in a client's queue: a message's text, or a close (code, reason) after which nothing is sent.
Item = str | tuple[int, str]


class Outbox:
    """What an engine worker sends during one operation, handed to the event loop in one go.

    One wake-up of the loop per operation instead of one per message: an
    update to a table of six connections is one hand-over, not six. And at
    most one wake-up on its way at a time: what the worker hands over before
    the loop took the last hand-over joins it, in order (a busy worker's
    operations, say a catch-up and the group commit after it, wake a busy
    loop once).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.thread: int | None = None  # the worker's thread ident, once it has run an operation
        self._items: list[tuple[Client, Item]] = []
        #: handed over, not yet taken by the loop (a wake-up is on its way), in order; None: nothing is
        self._handed: list[tuple[list[tuple[Client, Item]], Callable[[], None] | None]] | None = None
        self._lock = threading.Lock()

    def put(self, client: Client, item: Item) -> None:
        """Queue ``item`` for ``client`` until :meth:`flush`."""
        self._items.append((client, item))

    def discard(self) -> None:
        """Forget everything queued (what a failed group commit would have sent)."""
        self._items = []

    def flush(self, then: Callable[[], None] | None = None) -> None:
        """Hand everything queued to the event loop, in order, and ``then()`` after it there (one wake-up)."""
        if self._items or then is not None:
            items, self._items = self._items, []
            with self._lock:
                if self._handed is not None:  # the loop has not woken for the last one yet: this joins it
                    self._handed.append((items, then))
                    return
                self._handed = [(items, then)]
            with contextlib.suppress(RuntimeError):  # the loop is closed: the server is going down
                self.loop.call_soon_threadsafe(self._deliver)

    def _deliver(self) -> None:
        with self._lock:
            handed, self._handed = self._handed or [], None
        for items, then in handed:
            for client, item in items:
                client._push(item)
            if then is not None:
                try:
                    then()
                except Exception:  # as the loop would for a callback of its own; the next hand-over goes on
                    log.exception("a callback after an engine worker's messages failed")


class Mailbox:
    """What waits to be sent on one socket, in order: :class:`asyncio.Queue`'s ``put_nowait``, ``get`` and
    ``qsize`` for one reader, at a fraction of their cost (every message of every client passes here)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._items: collections.deque[Item] = collections.deque()
        self._waiter: asyncio.Future[None] | None = None

    def qsize(self) -> int:
        """How many items wait."""
        return len(self._items)

    def idle(self) -> bool:
        """Whether nothing waits and the reader waits for the next item (so it has nothing in hand either)."""
        return self._waiter is not None and not self._items

    def put_nowait(self, item: Item) -> None:
        """Add ``item`` at the end (on the loop), waking the reader."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def get(self) -> Item:
        """The first item, once there is one."""
        while not self._items:
            waiter = self._waiter = self._loop.create_future()
            try:
                await waiter
            finally:
                if self._waiter is waiter:
                    self._waiter = None
        return self._items.popleft()


class Client:
    """One WebSocket connection.

    ``seat``, ``table``, ``cursor``, ``head``, ``lang`` and ``shown`` belong to the
    engine worker of ``match_id`` (what this client has been shown); ``send``
    and ``close`` may be called from any thread and queue the work on the
    event loop, in order. The socket's writer reads :attr:`queue`.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, limit: int, on_overflow: Callable[[Client], None],
                 outbox: Outbox | None = None) -> None:
        self.loop = loop
        self.outbox = outbox
        self.limit = limit
        self.queue = Mailbox(loop)
        self._on_overflow = on_overflow
        self.closed = False
        #: the match this connection is for (from its address)
        self.match_id = ""
        # the engine worker's state
        self.table: Table | None = None
        self.seat: int | None = None
        self.cursor = 0
        self.head = b""  # the raw chain hash at ``cursor``, as this client was last brought to it
        #: the language its texts are written in (``hello``'s ``lang``; meeple.engine.text.LANGUAGES)
        self.lang = "en"
        #: whether its position messages carry the seat's text picture (``hello``'s ``picture``)
        self.picture = False
        #: the protocol version it speaks (``hello``'s ``protocol``; set on the loop before the worker reads it)
        self.protocol = 1
        #: the position it was last sent, the base of the next delta (protocol 2 and later; None before the
        #: first position, and always for older clients): one per connection, shared with the connections
        #: of the same seat and language that were sent the same message, dropped with the connection
        self.shown: Shown | None = None
        #: writes a text to the socket at once, or returns False when it must be queued (set on the loop by the
        #: socket's owner when the server offers it: :data:`SEND_TEXT`)
        self.direct: Callable[[str], bool] | None = None

    def send(self, text: str) -> None:
        """Queue ``text`` for this client (thread-safe; order is kept)."""
        self._post(text)

    def close(self, code: int, reason: str) -> None:
        """Queue a close after what is queued already (thread-safe)."""
        self._post((code, reason))

    def _post(self, item: Item) -> None:
        outbox = self.outbox
        if outbox is not None and outbox.thread == threading.get_ident():
            outbox.put(self, item)
        else:
            self.loop.call_soon_threadsafe(self._push, item)

    def _push(self, item: Item) -> None:
        if self.closed:
            return
        if isinstance(item, tuple):
            self.closed = True
        else:
            direct = self.direct
            if direct is not None and self.queue.idle() and direct(item):
                return  # written: nothing was queued before it, nor is any being written
            if self.queue.qsize() >= self.limit:
                self.closed = True
                self._on_overflow(self)
                return
        self.queue.put_nowait(item)
