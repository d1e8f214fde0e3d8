"""A Python client of the server's protocol: the lobby over HTTP, a seat over WebSocket.

It keeps what docs/protocol.md says a client keeps (the records it has seen,
the cursor and head, its view and legal commands) and applies ``sync``,
``update`` and ``rewind`` as they come, deltas included. Scripted players, remote bots, the
test suite and the load benchmark use it; other languages follow the same
page::

    lobby = Lobby("http://127.0.0.1:8000")
    match = lobby.create(game="kings", seats=2, bots={"1": "heuristic"})
    joined = lobby.join(match["id"])
    async with await Seat.connect(lobby.ws_url(joined), joined["token"]) as seat:
        while seat.outcome is None:
            if seat.legal:
                await seat.play(seat.legal[0])
            else:
                await seat.next()
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from types import TracebackType
from typing import Any

from ..engine.game import Command
from ..engine.wire import Json, to_wire
from .delta import PatchError, patched
from .protocol import PROTOCOL_VERSION


class ClientError(Exception):
    """The server refused a request: ``code`` (docs/protocol.md), ``message``, and the whole error ``body``."""

    def __init__(self, code: str, message: str, body: dict[str, Any] | None = None) -> None:
        super().__init__(f"{message} [{code}]")
        self.code = code
        self.message = message
        self.body = body or {}


class Lobby:
    """The HTTP lobby of a server at ``base`` (``http://host:port``, plus any mount prefix). Blocking calls."""

    def __init__(self, base: str, timeout: float = 30.0) -> None:
        self.base = base.rstrip("/")
        self.timeout = timeout

    def _call(self, method: str, path: str, body: Json = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"} if data else {})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as e:
            try:
                error = json.loads(e.read())["error"]
            except Exception:
                raise ClientError("http", f"HTTP {e.code} from {path}") from None
            raise ClientError(error["code"], error["message"], error) from None

    def index(self) -> Any:
        """``GET /api``."""
        return self._call("GET", "/api")

    def games(self) -> Any:
        """``GET /api/games``."""
        return self._call("GET", "/api/games")

    def create(self, **spec: Any) -> Any:
        """``POST /api/matches`` with ``spec`` (game, variant, seats, options, bots, fallback_bot, clock, name)."""
        return self._call("POST", "/api/matches", spec)

    def matches(self, **filters: Any) -> Any:
        """``GET /api/matches?...`` (game, status, open, limit, offset)."""
        query = urllib.parse.urlencode({k: str(v).lower() if isinstance(v, bool) else v for k, v in filters.items()})
        return self._call("GET", "/api/matches" + (f"?{query}" if query else ""))

    def match(self, match_id: str) -> Any:
        """``GET /api/matches/{id}``."""
        return self._call("GET", f"/api/matches/{urllib.parse.quote(match_id)}")

    def join(self, match_id: str, seat: int | None = None, name: str | None = None) -> Any:
        """``POST /api/matches/{id}/join``: ``{"match", "seat", "token", "ws"}``."""
        body: dict[str, Any] = {}
        if seat is not None:
            body["seat"] = seat
        if name is not None:
            body["name"] = name
        return self._call("POST", f"/api/matches/{urllib.parse.quote(match_id)}/join", body)

    def view(self, match_id: str) -> Any:
        """``GET /api/matches/{id}/view``: the spectator's view now."""
        return self._call("GET", f"/api/matches/{urllib.parse.quote(match_id)}/view")

    def ws_url(self, joined_or_match: dict[str, Any] | str) -> str:
        """The WebSocket address of a match (from its id, or from what :meth:`join` returned)."""
        if isinstance(joined_or_match, str):
            path = f"/api/matches/{urllib.parse.quote(joined_or_match)}/ws"
        else:
            path = joined_or_match["ws"]
        parts = urllib.parse.urlsplit(self.base)
        scheme = "wss" if parts.scheme == "https" else "ws"
        return urllib.parse.urlunsplit((scheme, parts.netloc, path, "", ""))


class Seat:
    """One WebSocket connection to a match: a seat (with its token) or a spectator (without).

    After :meth:`connect` it holds the position as this seat sees it; every
    message read (by :meth:`next`, :meth:`play` and the others) is applied.
    ``received`` lists every message, raw, in order (for tests that scan them).
    """

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.seat: int | None = None
        self.match: str | None = None
        self.cursor = 0
        self.head = ""
        self.records: list[dict[str, Any]] = []
        self.view: Any = None
        self.legal: list[dict[str, Any]] = []
        #: what a player reads for each of ``legal``, and the language of the texts
        self.legal_text: list[str] = []
        self.lang = "en"
        self.undo_check: dict[str, Any] = {"ok": False, "reason": ""}
        self.can_redo = False
        self.outcome: dict[str, Any] | None = None
        self.clock: dict[str, Any] | None = None
        #: the seats that may act now (the engine left out), as the last position message said
        self.to_act: list[int] = []
        self.players: list[dict[str, Any]] = []
        self.received: list[str] = []
        #: every position message (``sync``, ``update``, ``rewind``) as applied: a delta's with the position it
        #: gave (``view``, ``legal``, ``legal_text``, ``undo``, ``redo``, ``clock``, ``outcome``) in place of ``delta``
        self.positions: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self._ids = 0

    @classmethod
    async def connect(cls, url: str, token: str | None = None, *, records: list[dict[str, Any]] | None = None,
                      head: str | None = None, open_timeout: float = 10.0, lang: str | None = None,
                      protocol: int = PROTOCOL_VERSION) -> Seat:
        """Open a socket to ``url``, say hello (with ``token``: as that seat), and read the ``sync``.

        ``protocol`` is the version to speak (1: whole positions only, no deltas).
        ``lang`` (``en``, ``ru``) is the language of the records' and legal
        commands' texts (``text``, ``legal_text``) the server writes.

        ``records`` and ``head`` (what an earlier connection held) resume
        from there: the server sends only the records after them if they
        are still the match's, or everything again if they are not.
        """
        import websockets

        socket = await websockets.connect(url, open_timeout=open_timeout, max_size=None)
        seat = cls(socket)
        seat.lang = lang or "en"
        hello: dict[str, Any] = {"type": "hello", "protocol": protocol}
        if lang is not None:
            hello["lang"] = lang
        if token is not None:
            hello["token"] = token
        if records is not None and head is not None:
            hello["cursor"], hello["head"] = len(records), head
            seat.records = list(records)
        try:
            await seat.send(hello)
            msg = await seat.next()
            if msg["type"] == "error":
                raise ClientError(msg["code"], msg["message"], msg)
        except BaseException:
            await socket.close()
            raise
        return seat

    async def __aenter__(self) -> Seat:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the socket."""
        await self.socket.close()

    async def send(self, message: dict[str, Any]) -> None:
        """Send one protocol message as it is."""
        await self.socket.send(json.dumps(message))

    async def next(self, timeout: float | None = 30.0) -> dict[str, Any]:
        """Read and apply the next message (:class:`TimeoutError` after ``timeout`` seconds)."""
        text = await asyncio.wait_for(self.socket.recv(), timeout)
        if isinstance(text, bytes):
            text = text.decode()
        self.received.append(text)
        msg: dict[str, Any] = json.loads(text)
        self.apply(msg)
        return msg

    async def next_of(self, *types: str, timeout: float = 30.0) -> dict[str, Any]:
        """Read (and apply) messages until one of the given ``types`` comes; return it."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            msg = await self.next(max(0.0, end - loop.time()))
            if msg.get("type") in types:
                return msg

    def apply(self, msg: dict[str, Any]) -> None:
        """Bring this copy up to date with one server message."""
        kind = msg.get("type")
        if kind == "sync":
            self.seat, self.match = msg["seat"], msg["match"]
            self.records = self.records[: msg["from"]] + msg["records"]
        elif kind == "update":
            if msg["from"] != len(self.records):
                raise ClientError("client", f"update from {msg['from']} but this copy holds {len(self.records)} records")
            self.records.extend(msg["records"])
        elif kind == "rewind":
            del self.records[msg["cursor"]:]
        elif kind == "players":
            self.players = msg["players"]
            return
        elif kind == "error":
            self.errors.append(msg)
            return
        else:
            return
        if "delta" in msg:
            held = {"view": self.view, "legal": self.legal, "legal_text": self.legal_text, "undo": self.undo_check,
                    "redo": self.can_redo, "clock": self.clock, "outcome": self.outcome, "to_act": self.to_act}
            try:
                got = patched(held, msg["delta"])
            except PatchError as e:
                raise ClientError("client", f"the delta does not apply to the position held: {e}") from None
            assert isinstance(got, dict)
            msg = {k: v for k, v in msg.items() if k != "delta"} | got
        self.positions.append(msg)
        self.cursor, self.head = msg["cursor"], msg["head"]
        self.view, self.legal = msg["view"], msg["legal"]
        self.legal_text = msg.get("legal_text", [])
        self.undo_check, self.can_redo = msg["undo"], msg["redo"]
        self.outcome, self.clock = msg["outcome"], msg["clock"]
        self.to_act = msg.get("to_act", [])
        if "players" in msg:
            self.players = msg["players"]

    async def _request(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        self._ids += 1
        ref = message["id"] = self._ids
        await self.send(message)
        while True:
            msg = await self.next(timeout)
            if msg.get("ref") == ref:
                if msg["type"] == "error":
                    raise ClientError(msg["code"], msg["message"], msg)
                return msg

    async def play(self, command: dict[str, Any] | Command, *, cursor: int | None = None,
                   timeout: float = 30.0) -> dict[str, Any]:
        """Play ``command`` (wire form, or a Command) at ``cursor`` (default: this copy's); return its update."""
        wire = command if isinstance(command, dict) else to_wire(command)
        return await self._request({"type": "play", "cursor": self.cursor if cursor is None else cursor,
                                    "command": wire}, timeout)

    async def undo(self, *, timeout: float = 30.0) -> dict[str, Any]:
        """Undo this seat's last command; return the ``rewind``."""
        return await self._request({"type": "undo", "cursor": self.cursor}, timeout)

    async def redo(self, *, timeout: float = 30.0) -> dict[str, Any]:
        """Redo this seat's undone command; return the ``update``."""
        return await self._request({"type": "redo", "cursor": self.cursor}, timeout)

    async def sync(self, *, timeout: float = 30.0) -> dict[str, Any]:
        """Ask for the whole position again."""
        return await self._request({"type": "sync"}, timeout)

    async def until(self, done: Callable[[Seat], bool], timeout: float = 30.0) -> None:
        """Read messages until ``done(self)`` holds (:class:`TimeoutError` if it does not in ``timeout`` seconds)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not done(self):
            left = end - loop.time()
            if left <= 0:
                raise TimeoutError("the condition did not hold in time")
            await self.next(left)


#: The refusals a scripted player simply waits out: the position moved before its command arrived.
RETRY_CODES = frozenset({"stale_cursor", "not_your_turn", "conflict"})


async def autoplay(seat: Seat, choose: Callable[[Seat], dict[str, Any]], *, max_commands: int = 100_000,
                   timeout: float = 60.0) -> int:
    """Play for ``seat`` until the match is over: ``choose(seat)`` picks from ``seat.legal`` whenever it has any.

    A command refused because the match moved first (``stale_cursor``, or a
    seat that is no longer to act) is dropped and the seat chooses again at
    the new position; any other refusal is raised. Returns the commands
    played. ``timeout`` bounds each wait for the next message.
    """
    played = 0
    while seat.outcome is None and played < max_commands:
        if not seat.legal:
            await seat.next(timeout)
            continue
        try:
            await seat.play(choose(seat), timeout=timeout)
            played += 1
        except ClientError as e:
            if e.code not in RETRY_CODES:
                raise
    return played
