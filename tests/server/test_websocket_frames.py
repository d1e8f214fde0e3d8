"""The WebSocket frames of meeple serve's protocol (meeple.server.transport.FastWebSocketProtocol), byte by byte.

Text frames are read by the protocol's own short way; everything else goes
to the ``websockets`` parser. Whatever way a frame is read, and however the
bytes are cut, a client is answered the same, in order, and every bound holds.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
from collections.abc import Iterator

import pytest
from serverkit import ThreadServer


def _frame(opcode: int, payload: bytes, fin: bool = True, mask: bool = True, length: int | None = None) -> bytes:
    """A client's frame; ``length`` declares another payload size than the payload's (for the size bound)."""
    n = len(payload) if length is None else length
    head = bytes([(0x80 if fin else 0) | opcode])
    bit = 0x80 if mask else 0
    if n < 126:
        head += bytes([bit | n])
    elif n < 65536:
        head += bytes([bit | 126]) + struct.pack("!H", n)
    else:
        head += bytes([bit | 127]) + struct.pack("!Q", n)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def _text(message: dict[str, object]) -> bytes:
    return _frame(0x1, json.dumps(message).encode())


class RawSocket:
    """A WebSocket client on a bare socket: frames are written as given and read one by one."""

    def __init__(self, port: int, path: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                          f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                          .encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            self.buf += self._recv()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head

    def _recv(self) -> bytes:
        data = self.sock.recv(65536)
        if not data:
            raise EOFError
        return data

    def _need(self, n: int) -> bytes:
        while len(self.buf) < n:
            self.buf += self._recv()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def frame(self) -> tuple[int, bytes]:
        """The next frame from the server: (opcode, payload)."""
        first, second = self._need(2)
        n = second & 0x7F
        if n == 126:
            n = struct.unpack("!H", self._need(2))[0]
        elif n == 127:
            n = struct.unpack("!Q", self._need(8))[0]
        return first & 0x0F, self._need(n)

    def message(self) -> dict[str, object]:
        """The next text message (control frames before it are skipped)."""
        while True:
            opcode, payload = self.frame()
            if opcode == 0x1:
                return dict(json.loads(payload))
            assert opcode in (0x9, 0xA), opcode

    def close_code(self) -> int:
        """The code of the close frame that comes next (after any text and control frames)."""
        while True:
            opcode, payload = self.frame()
            if opcode == 0x8:
                return int(struct.unpack("!H", payload[:2])[0])


@pytest.fixture
def spectator(server: ThreadServer) -> Iterator[RawSocket]:
    """A raw socket on a new match, said hello as a spectator (its sync read)."""
    match = server.lobby.create(game="kings", seats=2)
    ws = RawSocket(server.port, f"/api/matches/{match['id']}/ws")
    ws.sock.sendall(_text({"type": "hello", "protocol": 2}))
    assert ws.message()["type"] == "sync"
    while ws.message()["type"] != "players":  # the players as this connection changed them
        pass
    yield ws
    ws.sock.close()


def test_frames_cut_anywhere_and_run_together_are_answered_in_order(spectator: RawSocket) -> None:
    pings = [_text({"type": "ping", "id": i}) for i in range(6)]
    spectator.sock.sendall(pings[0] + pings[1] + pings[2][:3])  # two whole frames and a frame's first bytes
    spectator.sock.sendall(pings[2][3:] + pings[3][:1])  # its rest, and a header cut after one byte
    for byte in pings[3][1:]:
        spectator.sock.sendall(bytes([byte]))
    spectator.sock.sendall(_frame(0x9, b"are you there") + pings[4] + _frame(0xA, b"unasked") + pings[5])
    got = [spectator.message() for _ in range(6)]
    assert [(m["type"], m["ref"]) for m in got] == [("pong", i) for i in range(6)]


def test_a_websocket_ping_is_answered_with_its_payload(spectator: RawSocket) -> None:
    spectator.sock.sendall(_frame(0x9, b"are you there") + _text({"type": "ping", "id": 1}))
    assert spectator.frame() == (0xA, b"are you there")
    assert spectator.message() == {"type": "pong", "ref": 1}


def test_a_message_in_fragments_or_a_binary_one_is_read_as_before(spectator: RawSocket) -> None:
    text = json.dumps({"type": "ping", "id": 7}).encode()
    spectator.sock.sendall(_frame(0x1, text[:5], fin=False) + _frame(0x0, text[5:]))
    assert spectator.message() == {"type": "pong", "ref": 7}
    spectator.sock.sendall(_frame(0x2, text))
    assert spectator.message()["code"] == "bad_json"  # text frames only, as the protocol says
    spectator.sock.sendall(_text({"type": "ping", "id": 8}))
    assert spectator.message() == {"type": "pong", "ref": 8}


def test_invalid_utf8_closes_with_1007(spectator: RawSocket) -> None:
    spectator.sock.sendall(_frame(0x1, b'{"type":"ping","id":"\xff"}'))
    assert spectator.close_code() == 1007


def test_a_frame_over_the_size_bound_closes_with_1009_before_its_payload(spectator: RawSocket) -> None:
    # the header declares 2 MiB (the bound is 1 MiB): refused on the header alone, nothing of it buffered
    spectator.sock.sendall(_frame(0x1, b"", length=2 << 20)[:10])
    assert spectator.close_code() == 1009


def test_an_unmasked_client_frame_closes_with_1002(spectator: RawSocket) -> None:
    spectator.sock.sendall(_frame(0x1, json.dumps({"type": "ping"}).encode(), mask=False))
    assert spectator.close_code() == 1002


def test_a_close_is_answered_with_a_close(spectator: RawSocket) -> None:
    spectator.sock.sendall(_frame(0x8, struct.pack("!H", 1000)) + _text({"type": "ping", "id": 1}))
    assert spectator.close_code() == 1000
