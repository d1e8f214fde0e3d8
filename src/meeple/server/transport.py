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
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from .connection import SEND_TEXT

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - websockets built without its C speedups
    from websockets.utils import apply_mask


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


# -- WebSocket ------------------------------------------------------------------------------------

_FIN_TEXT = 0x81
_CONTROL = frozenset({0x88, 0x89, 0x8A})  # close, ping, pong (FIN set, no reserved bits)


class FastWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol with a short way for the frames play consists of.

    Once the handshake is done (and no extension was agreed), each whole,
    final, masked text frame from the client is unmasked and handed to the
    application here, without the ``websockets`` parser; every other frame
    (ping, pong, close) goes to that parser whole, so its state stays at a
    frame boundary, and anything else (a binary or fragmented message, a
    frame over ``ws_max_size``, a broken header) hands the rest of the
    connection to it for good: it answers as it always did (close codes
    1002, 1003, 1009...). A frame is buffered only once its header has
    declared a size within ``ws_max_size``.

    The application may send a text message without the ASGI round trip
    through :data:`SEND_TEXT` in the scope's extensions: a function of the
    text that writes the frame at once and returns True, or returns False
    (and writes nothing) when the message must go the ASGI way: the socket
    is closing, or its write buffer is full (the ASGI ``send`` waits for it
    to drain).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: whether the short way reads (decided when the handshake is read; False for good once it stops)
        self._fast = False
        self._pending = b""  # the start of a frame not all in yet

    def handle_connect(self, event: Any) -> None:
        """Accept as uvicorn does; the short way reads from here if nothing but the request was received."""
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is None or self.handshake_complete:  # refused
            return
        self._fast = not self.conn.reader.buffer and not self.conn.extensions
        scope["extensions"][SEND_TEXT] = self.send_text_now

    def data_received(self, data: bytes) -> None:
        """Read whole text frames here, the rest with uvicorn and ``websockets`` (see the class docstring)."""
        if not self._fast:
            super().data_received(data)
            return
        if not self.handshake_complete or self.close_sent or self.conn.extensions:  # data before the accept
            self._slow(self._pending + data)
            return
        buf = self._pending + data if self._pending else data
        pos, size, limit = 0, len(buf), self.config.ws_max_size
        while size - pos >= 2:
            first, second = buf[pos], buf[pos + 1]
            length, head = second & 0x7F, pos + 2
            if length == 126:
                head += 2
                if size < head:
                    break
                length = int.from_bytes(buf[pos + 2:head], "big")
            elif length == 127:
                head += 8
                if size < head:
                    break
                length = int.from_bytes(buf[pos + 2:head], "big")
            if not second & 0x80 or length > limit or (first != _FIN_TEXT and first not in _CONTROL):
                self._slow(buf[pos:])  # unmasked, too large, binary, fragmented or malformed: websockets decides
                return
            end = head + 4 + length
            if size < end:
                break
            if first != _FIN_TEXT:  # a control frame, whole: websockets answers it
                super().data_received(buf[pos:end])
                pos = end
                if first == 0x88 or self.close_sent or self.conn.state is not State.OPEN:
                    self._slow(buf[pos:])
                    return
                continue
            try:
                text = apply_mask(buf[head + 4:end], buf[head:head + 4]).decode()
            except UnicodeDecodeError:
                self._fast = False
                self.logger.info("Invalid UTF-8 sequence received from client.")
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
            pos = end
            self.queue.put_nowait({"type": "websocket.receive", "text": text})
            if not self.read_paused:
                self.read_paused = True
                self.transport.pause_reading()
        self._pending = buf[pos:] if pos < size else b""

    def _slow(self, data: bytes) -> None:
        """Hand ``data`` (from a frame boundary) and the rest of the connection to uvicorn and ``websockets``."""
        self._fast = False
        self._pending = b""
        if data:
            super().data_received(data)

    def send_text_now(self, text: str) -> bool:
        """Write ``text`` as one text frame now; False (nothing written) if it must wait or cannot be sent."""
        if (self.close_sent or self.disconnected or not self.writable.is_set() or self.conn.state is not State.OPEN
                or self.conn.extensions or self.transport.is_closing()):
            return False
        data = text.encode()
        n = len(data)
        if n < 126:
            head = bytes((_FIN_TEXT, n))
        elif n < 65536:
            head = bytes((_FIN_TEXT, 126)) + n.to_bytes(2, "big")
        else:
            head = bytes((_FIN_TEXT, 127)) + n.to_bytes(8, "big")
        self.transport.write(head + data)
        return True
