"""The HTTP transport of ``meeple serve``: uvicorn's h11 protocol with a header deadline and connection caps.

uvicorn bounds an idle keep-alive connection (``timeout_keep_alive``) but
not a connection that has sent nothing yet, nor one that sends its headers
a byte at a time: each byte resets the keep-alive timer, so such
connections stay open for good and, a few hundred of them, take every file
descriptor the process has. :func:`protocol_class` makes an h11 protocol
(h11 bounds the size of the request line and headers,
``h11_max_incomplete_event_size``; the httptools parser does not) that:

* closes a connection whose request line and headers are not all in within
  ``header_timeout`` seconds of its opening or of the previous response;
* closes at once a connection beyond ``max_connections`` open at once, or
  beyond ``max_per_peer`` from one peer address, so the descriptors held
  back for the store and the logs stay free and one address cannot take
  them all.

A WebSocket leaves this protocol once upgraded: its sockets are counted by
:class:`~meeple.server.limits.Gate`, and its idle peers are found by
uvicorn's pings.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header deadline and connection caps (see the module docstring)."""

    header_timeout: float = 10.0
    max_connections: int | None = None
    max_per_peer: int = 0
    #: Open connections by peer address (of all instances of the class made by :func:`protocol_class`).
    peers: dict[str, int] = {}

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection, or close it at once if it is one too many."""
        self._header_timer: asyncio.TimerHandle | None = None
        self._peer: str | None = None
        super().connection_made(transport)
        if self.max_connections is not None and len(self.connections) > self.max_connections:
            transport.close()
            return
        peer = self.client[0] if self.client else None
        if peer is not None and self.max_per_peer:
            held = self.peers.get(peer, 0)
            if held >= self.max_per_peer:
                transport.close()
                return
            self.peers[peer] = held + 1
            self._peer = peer
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        if self.header_timeout > 0:
            self._header_timer = self.loop.call_later(self.header_timeout, self._headers_late)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _release(self) -> None:
        peer, self._peer = self._peer, None
        if peer is not None:
            held = self.peers.get(peer, 0) - 1
            if held > 0:
                self.peers[peer] = held
            else:
                self.peers.pop(peer, None)

    def _headers_late(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        """Read as uvicorn does; once a request's headers are in, its deadline is met."""
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        """Hand the connection to the WebSocket protocol, which counts it from here on."""
        self._disarm()
        self._release()
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        """After each response the next request's headers have ``header_timeout`` seconds again."""
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """Uncount the connection."""
        self._disarm()
        self._release()
        super().connection_lost(exc)


def protocol_class(*, header_timeout: float, max_connections: int | None, max_per_peer: int) -> type[Any]:
    """A :class:`GuardedH11Protocol` subclass with these bounds (uvicorn's ``http=`` setting)."""
    return type("MeepleH11Protocol", (GuardedH11Protocol,), {
        "header_timeout": header_timeout, "max_connections": max_connections, "max_per_peer": max_per_peer,
        "peers": {},
    })
