"""The ASGI application: the lobby over HTTP, play over WebSocket (docs/protocol.md).

>>> import os, tempfile
>>> server = MeepleServer(os.path.join(tempfile.mkdtemp(), "matches.db"))
>>> server.app.routes[0].path                     # any ASGI server runs server.app
'/api'

Mounted inside another application, the server starts on its first request;
hand its ``lifespan`` to the outer application to start it with the process
and close it cleanly::

    outer = Starlette(routes=[Mount("/games", app=server.app)], lifespan=server.lifespan)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from .._version import __version__
from ..engine.wire import Json
from ..store import Durability
from ..store.errors import StoreError
from .connection import SEND_TEXT, Client
from .guard import Guard
from .hub import Hub
from .hygiene import MAX_OFFSET, clean_name, json_object, parse_count
from .limits import UNLIMITED, Gate, Quotas, client_of
from .lobby import token_hash
from .messages import NewMatch, dumps, error, parse_message, pong
from .protocol import PROTOCOL_VERSION, PROTOCOLS, CloseCode, ErrorCode, Limits, ServerError
from .web import routes as web_routes

log = logging.getLogger("meeple.server")

def _error(e: ServerError, status: int | None = None) -> JSONResponse:
    """An HTTP error answer: ``{"error": ...}`` with the fields of :meth:`ServerError.body`, the code's status."""
    wait = e.extra.get("retry_after")
    headers = {"Retry-After": str(wait)} if isinstance(wait, int) else None
    return JSONResponse({"error": e.body()}, status_code=status or e.status, headers=headers)


class MeepleServer:
    """The server: a :class:`Hub` and the Starlette application in front of it.

    ``store`` is an address (see :mod:`meeple.server.stores`; None: ``meeple.db``
    here). ``bot_delay`` holds each bot move back that many seconds (so people
    can follow); ``limits`` bound what clients may send; ``durability`` is
    the store's (``"fsync"``: on disk before any client is told; ``"flush"``:
    safe from a killed process, not from a power cut, and faster). ``engines``
    is how many engine threads host matches, each with its own database
    connections (default: 1 on SQLite, which takes one writer at a time; 4 on
    PostgreSQL, which commits for several matches at once).
    ``allowed_hosts`` are the ``Host`` names served (None: any, for an
    application mounted in another) and ``allowed_origins`` the web origins
    besides this server's own whose pages may change anything
    (:mod:`meeple.server.guard`). ``quotas`` are the rates and quotas each
    client is held to (:mod:`meeple.server.limits`; None: none, as suits
    tests and a trusted network; ``meeple serve`` passes its defaults);
    ``max_headers`` bounds the header fields of a request (None: no bound).
    """

    def __init__(self, store: str | None = None, *, limits: Limits | None = None, bot_delay: float = 0.0,
                 durability: Durability = "fsync", engines: int | None = None,
                 allowed_hosts: Sequence[str] | None = None, allowed_origins: Sequence[str] = (),
                 quotas: Quotas | None = None, max_headers: int | None = None) -> None:
        self.limits = limits or Limits()
        self.quotas = quotas or UNLIMITED
        self.gate = Gate(self.quotas)
        self.hub = Hub(store, limits=self.limits, bot_delay=bot_delay, durability=durability, engines=engines)
        routes: list[BaseRoute] = [
            Route("/api", self.index),
            Route("/api/games", self.games),
            Route("/api/games/{game_id}", self.game),
            Route("/api/matches", self.matches, methods=["GET", "POST"]),
            Route("/api/matches/{match_id}", self.match),
            Route("/api/matches/{match_id}/join", self.join, methods=["POST"]),
            Route("/api/matches/{match_id}/view", self.view),
            WebSocketRoute("/api/matches/{match_id}/ws", self.play),
            *web_routes(self),  # the browser client at /, and the replay debugger's API
        ]
        handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
            HTTPException: self._http_error,
            ServerError: self._server_error,
            StoreError: self._store_error,
        }
        guard = Middleware(Guard, allowed_hosts=allowed_hosts, allowed_origins=allowed_origins, max_headers=max_headers)
        self.app = Starlette(routes=routes, exception_handlers=handlers, lifespan=self.lifespan, middleware=[guard])

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Any = None) -> AsyncIterator[None]:
        """Start the hub with the application and close it at the end (an ASGI lifespan)."""
        await self.hub.start()
        try:
            yield
        finally:
            await self.hub.close()

    # -- HTTP ------------------------------------------------------------------------
    async def _http_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        code = {404: ErrorCode.NOT_FOUND, 405: ErrorCode.METHOD_NOT_ALLOWED}.get(exc.status_code, ErrorCode.BAD_MESSAGE)
        return _error(ServerError(code, str(exc.detail)), exc.status_code)

    async def _server_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ServerError)
        return _error(exc)

    async def _store_error(self, request: Request, exc: Exception) -> Response:
        log.error("store error on %s: %s", request.url.path, exc)
        return _error(ServerError(ErrorCode.STORE_ERROR, f"the store failed: {exc}"))

    async def _body(self, request: Request) -> dict[str, Any]:
        limit = self.limits.max_message_bytes
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            raise ServerError(ErrorCode.TOO_LARGE, f"a request body is at most {limit} bytes")
        data = b""
        async for chunk in request.stream():
            data += chunk
            if len(data) > limit:
                raise ServerError(ErrorCode.TOO_LARGE, f"a request body is at most {limit} bytes")
        if not data:
            return {}
        return json_object(data)

    def _base(self, request: Request) -> str:
        return str(request.scope.get("root_path", "")).rstrip("/")

    async def index(self, request: Request) -> Response:
        """``GET /api``: what this server is and where its API lives (``GET /`` is the lobby page)."""
        await self.hub.start()
        base = self._base(request)
        return JSONResponse({
            "name": "meeple",
            "version": __version__,
            "protocol": PROTOCOL_VERSION,
            "protocols": sorted(PROTOCOLS),
            "games": f"{base}/api/games",
            "matches": f"{base}/api/matches",
            "docs": "docs/protocol.md",
        })

    async def games(self, request: Request) -> Response:
        """``GET /api/games``: every game with its variants, seat ranges, options and bots."""
        return JSONResponse(await self.hub.games())

    async def game(self, request: Request) -> Response:
        """``GET /api/games/{id}``: one game."""
        return JSONResponse(await self.hub.game(request.path_params["game_id"]))

    async def matches(self, request: Request) -> Response:
        """``GET /api/matches`` lists and filters; ``POST /api/matches`` creates a match."""
        if request.method == "POST":
            self.gate.take("create", client_of(request))
            created = await self.hub.create(NewMatch.parse(await self._body(request), self.limits))
            return JSONResponse(created, status_code=201)
        q = request.query_params
        unknown = sorted(set(q) - {"game", "status", "open", "limit", "offset"})
        if unknown:
            raise ServerError(ErrorCode.BAD_MESSAGE, f"unknown filter {unknown[0]!r}; filters: game, status, open, limit, offset")
        status = q.get("status")
        if status not in (None, "in_progress", "over"):
            raise ServerError(ErrorCode.BAD_MESSAGE, "status is in_progress or over")
        open_only = q.get("open", "false")
        if open_only not in ("true", "false"):
            raise ServerError(ErrorCode.BAD_MESSAGE, "open is true or false")
        numbers = {"limit": parse_count(q.get("limit", "100"), "limit", self.limits.max_list, low=1),
                   "offset": parse_count(q.get("offset", "0"), "offset", MAX_OFFSET)}
        found = await self.hub.matches(game=q.get("game"), status=status, open_only=open_only == "true",
                                       limit=numbers["limit"], offset=numbers["offset"])
        return JSONResponse(found)

    async def match(self, request: Request) -> Response:
        """``GET /api/matches/{id}``: one match, its seats and where it stands."""
        return JSONResponse(await self.hub.describe_match(request.path_params["match_id"]))

    async def join(self, request: Request) -> Response:
        """``POST /api/matches/{id}/join``: take a free seat and receive its secret token."""
        self.gate.take("join", client_of(request))
        body = await self._body(request)
        extra = sorted(set(body) - {"seat", "name"})
        if extra:
            raise ServerError(ErrorCode.BAD_MESSAGE, f"unknown field {extra[0]!r}; join takes seat and name")
        name = body.get("name")
        if name is not None:
            name = clean_name(name, "name", self.limits.max_name)
        joined = await self.hub.join(request.path_params["match_id"], body.get("seat"), name)
        joined["ws"] = f"{self._base(request)}/api/matches/{joined['match']}/ws"
        return JSONResponse(joined, status_code=201, headers={"Cache-Control": "no-store"})

    async def view(self, request: Request) -> Response:
        """``GET /api/matches/{id}/view``: the match as a spectator sees it now."""
        return JSONResponse(await self.hub.spectate(request.path_params["match_id"]))

    # -- WebSocket -------------------------------------------------------------------
    async def play(self, websocket: WebSocket) -> None:
        """``/api/matches/{id}/ws``: a seat (or a spectator) plays the match (docs/protocol.md)."""
        await websocket.accept()
        who = client_of(websocket)
        try:
            self.gate.take("connect", who)
            self.gate.open_socket(who)
        except ServerError as e:
            with contextlib.suppress(Exception):
                await websocket.send_text(error(e))
            await _close(websocket, CloseCode.RATE_LIMITED, e.code.value)
            return
        try:
            await self._play(websocket)
        finally:
            self.gate.close_socket(who)

    async def _play(self, websocket: WebSocket) -> None:
        match_id = websocket.path_params["match_id"]
        writer: asyncio.Task[None] | None = None
        closing: set[asyncio.Task[None]] = set()

        def overflow(client: Client) -> None:
            if writer is not None:
                writer.cancel()
            task = asyncio.ensure_future(_close(websocket, CloseCode.TOO_SLOW, "too slow: reconnect to resync"))
            closing.add(task)
            task.add_done_callback(closing.discard)

        try:
            await self.hub.start()
        except Exception:
            await _close(websocket, 1011, "the server could not start")
            return
        client = self.hub.client(match_id, overflow)
        client.direct = websocket.scope.get("extensions", {}).get(SEND_TEXT)
        writer = asyncio.ensure_future(_write(websocket, client))
        try:
            await self._session(websocket, client)
        except (WebSocketDisconnect, ServerError):  # the peer left, or the server is shutting down
            pass
        finally:
            with contextlib.suppress(ServerError):  # the server is shutting down
                await self.hub.leave(client)
            if not client.closed:
                client.close(CloseCode.NORMAL, "")
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(writer, timeout=5)

    async def _session(self, websocket: WebSocket, client: Client) -> None:
        limit = self.limits.max_message_bytes
        try:
            first = await asyncio.wait_for(websocket.receive(), timeout=self.limits.hello_timeout)
        except TimeoutError:
            client.send(error(ServerError(ErrorCode.HELLO_FIRST,
                                          f"send hello within {self.limits.hello_timeout:g} seconds")))
            client.close(CloseCode.HELLO_FIRST, "no hello")
            return
        if first["type"] == "websocket.disconnect":
            return
        try:
            hello = parse_message(first.get("text"), first.get("bytes"), limit)
            if hello["type"] != "hello":
                raise ServerError(ErrorCode.HELLO_FIRST, "the first message on a socket is hello")
            version = hello.get("protocol", 1)  # a client that names no version speaks the first
            if version not in PROTOCOLS:
                spoken = ", ".join(str(v) for v in sorted(PROTOCOLS))
                client.send(error(ServerError(ErrorCode.BAD_VERSION,
                                              f"this server speaks protocol {spoken}, not {version}")))
                client.close(CloseCode.BAD_VERSION, "protocol version")
                return
            client.protocol = version
        except ServerError as e:
            client.send(error(e))
            client.close(CloseCode.HELLO_FIRST, "hello first")
            return
        await self.hub.hello(client, hello.get("token"), hello.get("cursor"), hello.get("head"), hello.get("id"),
                             hello.get("lang"), hello.get("picture") is True)
        if client.table is None:
            return  # refused (the error and the close are queued)
        while not client.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            try:
                msg = parse_message(message.get("text"), message.get("bytes"), limit)
            except ServerError as e:
                client.send(error(e))
                continue
            kind, ref = msg["type"], msg.get("id")
            if kind == "sync":
                token = hello.get("token")
                try:
                    self.gate.take("sync", f"token:{token_hash(token)}" if token else client_of(websocket))
                except ServerError as e:
                    client.send(error(e, ref))
                    continue
            if kind == "ping":
                client.send(pong(ref))
            elif kind == "hello":
                client.send(error(ServerError(ErrorCode.HELLO_FIRST,
                                              "this socket has said hello already; open another to change seats"), ref))
            else:
                await self.hub.request(client, kind, msg.get("cursor"), msg.get("command"), ref)


async def _write(websocket: WebSocket, client: Client) -> None:
    """Send a client's queued messages in order; close the socket when a close is queued."""
    while True:
        item = await client.queue.get()
        if isinstance(item, tuple):
            await _close(websocket, *item)
            return
        try:
            await websocket.send_text(item)
        except Exception:  # the peer went away; the reader notices
            return


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.close(code, reason)


def create_app(store: str | None = None, *, limits: Limits | None = None, bot_delay: float = 0.0,
               durability: Durability = "fsync") -> Starlette:
    """The server's ASGI application on ``store`` (see :class:`MeepleServer`)."""
    return MeepleServer(store, limits=limits, bot_delay=bot_delay, durability=durability).app


def _json(value: Json) -> str:
    return dumps(value)
