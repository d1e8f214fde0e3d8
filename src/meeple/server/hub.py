"""The hub: hosted matches and the operations on them, routed to the engine worker of each match.

Every operation that touches a match or the databases runs in the engine
worker that hosts the match (:mod:`meeple.server.workers`): one operation at
a time per worker, in the order clients are told about them. An operation
is one method, declared with :func:`~meeple.server.workers.operation`: its
body runs in the worker's thread, and the event loop awaits it. The event
loop only carries bytes: it parses a client's message, hands it over, and
sends what comes back.

Every command is in the store before any client hears of it: ``Match.play``
on a stored match writes first, and messages are built after it returns.
Commands share commits (:mod:`meeple.server.group`); bots, clocks and other
server processes have modules of their own (:mod:`~meeple.server.bots`,
:mod:`~meeple.server.clocks`, :mod:`~meeple.server.peers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import uuid
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import attrs

from ..engine.errors import ConfigError, DecodeError, MeepleError, UnknownGame
from ..engine.match import Match
from ..engine.registry import available, get_game
from ..engine.text import language
from ..engine.wire import Json, to_wire
from ..store import Durability
from ..store.errors import StoreError
from . import group, messages
from .bots import Bots, bot_factories, default_fallback
from .clocks import Clocks
from .connection import Client, Outbox
from .descriptions import game_info, match_info, progress
from .hosting import Tables
from .lobby import MatchRow, SeatRow, new_token, now, token_hash
from .messages import NewMatch
from .moves import Moves
from .peers import Peers
from .protocol import CloseCode, ErrorCode, Limits, ServerError
from .stores import open_store, server_store
from .table import Table
from .workers import Worker, current, operation, worker_of

log = logging.getLogger("meeple.server")

T = TypeVar("T")


def _first(*args: Any, **kwargs: Any) -> None:
    return None  # the first worker: an operation that belongs to no match


def _match(match_id: str, *args: Any, **kwargs: Any) -> str:
    return match_id


def _client(client: Client, *args: Any, **kwargs: Any) -> str:
    return client.match_id


class Hub:
    """Hosted matches and everything around them; see the module docstring.

    Create it, ``await start()`` inside the event loop that serves clients,
    ``await close()`` at the end. The operations are what the HTTP and
    WebSocket handlers await.
    """

    def __init__(self, store: str | None, *, limits: Limits | None = None, bot_delay: float = 0.0,
                 durability: Durability = "fsync", engines: int | None = None) -> None:
        self.store_url = store
        self.durability: Durability = durability
        self.limits = limits or Limits()
        if engines is None:  # SQLite takes one writer at a time; PostgreSQL commits several at once
            engines = 4 if server_store(store).kind == "postgresql" else 1
        if type(engines) is not int or not 1 <= engines <= 64:
            raise ValueError(f"engines is a number of threads, 1..64, not {engines!r}")
        self.workers = [Worker(i) for i in range(engines)]
        self.bots = Bots(self, bot_delay)
        self.clocks = Clocks(self)
        self.peers = Peers(self)
        self.moves = Moves(self)
        self.tables = Tables(self)
        self.closing = False
        self.origin = uuid.uuid4().hex  # this process's entries in the lobby's change feed
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self._started: asyncio.Future[None] | None = None

    # -- life ------------------------------------------------------------------------
    async def start(self) -> None:
        """Open the store and the lobby, and bring back every match in progress (its bots and clocks)."""
        if self._started is None:
            self._loop = loop = asyncio.get_running_loop()
            self._started = loop.create_future()
            try:
                for worker in self.workers:
                    worker.outbox = Outbox(loop)
                    await worker.call(self._open)
            except BaseException as e:
                self._started.set_exception(e)
                self._started.exception()  # the caller sees it; later callers too
                for worker in self.workers:
                    if worker.opened is not None:
                        await worker.call(self._close)
                raise
            self._started.set_result(None)
        await asyncio.shield(self._started)

    async def close(self) -> None:
        """Close every client, stop bots and clocks, close the store."""
        if self.closing:
            return
        self.closing = True
        self.clocks.close()
        for task in list(self._tasks):
            task.cancel()
        if self._started is not None and self._started.done() and self._started.exception() is None:
            for worker in self.workers:
                await worker.call(self._close)
        for worker in self.workers:
            worker.executor.shutdown(wait=True)
        self.bots.close()

    def _open(self) -> None:
        worker = current()
        worker.opened = open_store(self.store_url, self.durability, origin=self.origin)
        if worker.index == 0:
            self.tables.count_unjoined()
            self.peers.listen()  # other processes' commits to the same matches (several servers on one database)
        for mid in worker.store.lobby.in_progress():
            if worker_of(self.workers, mid) is worker:
                try:
                    self.tables.get(mid)
                except MeepleError as e:  # one broken match must not keep the server down
                    log.error("match %s could not be restored: %s", mid, e)

    def _close(self) -> None:
        worker = current()
        for table in worker.tables.values():
            table.close_all()
        if worker.index == 0:
            self.peers.close()
        if worker.opened is not None:
            worker.opened.close()
            worker.opened = None

    def engine_of(self, match_id: str) -> Worker:
        """The engine worker that hosts ``match_id``."""
        return worker_of(self.workers, match_id)

    # -- running operations -------------------------------------------------------------
    async def submit(self, match_id: str | None, fn: Callable[[], T], *, grouped: bool = False,
                     worker: Worker | None = None) -> T:
        """Run ``fn()`` in the worker of ``match_id`` (None: the first, or ``worker``); its result.

        With ``grouped`` (a command), it runs in the worker's next group commit and returns once that is committed.
        """
        await self.start()
        if self.closing:
            raise ServerError(ErrorCode.INTERNAL_ERROR, "the server is shutting down")
        if worker is None:
            worker = self.workers[0] if match_id is None else worker_of(self.workers, match_id)
        if grouped:
            result: T = await group.enqueue(worker, fn, self.peers.refresh)
            return result
        return await worker.call(fn)

    def soon(self, fn: Callable[[], Any]) -> None:
        """Run ``fn()`` on the event loop (from a worker's thread)."""
        if self._loop is not None and not self.closing:
            with contextlib.suppress(RuntimeError):  # the loop is closed: the server is going down
                self._loop.call_soon_threadsafe(fn)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` as a task of the hub's (event loop), cancelled when the hub closes."""
        if self.closing:
            coro.close()
            return
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- lobby (HTTP) -------------------------------------------------------------------
    @operation(_first)
    def games(self) -> list[Json]:
        """Every game the server can host."""
        out = []
        for gid in available():
            try:
                out.append(game_info(get_game(gid)))
            except ConfigError as e:
                log.warning("game %s is unavailable: %s", gid, e)
        return out

    @operation(_first)
    def game(self, game_id: str) -> Json:
        """One game's description."""
        try:
            return game_info(get_game(game_id))
        except UnknownGame as e:
            raise ServerError(ErrorCode.UNKNOWN_GAME, str(e)) from None

    @operation(lambda new, *args, **kwargs: new.id)
    def create(self, new: NewMatch, base: Match | None = None) -> Json:
        """Create a match from a checked request (:meth:`NewMatch.parse`); its description.

        With ``base`` (a fork, e.g. from the replay debugger), the match hosted is a copy of ``base`` instead of
        a new one; ``new`` names its game, seats and options as a request for a new match would.
        """
        try:
            game = get_game(new.game)
        except UnknownGame as e:
            raise ServerError(ErrorCode.UNKNOWN_GAME, str(e)) from None
        factories = bot_factories(game)
        gid, (variant, seats, options, fallback) = new.game, new.settle(game, factories, default_fallback(game))
        mid, opened = new.id, current().store
        if len(new.bots) < seats:
            self.tables.unjoined(mid)
        self.tables.watched.add(mid)  # before it is in the store, where another process may play in it at once
        try:
            try:
                if base is None:
                    match = opened.store.create(game, seats, options=options, match_id=mid)
                elif base.game is not game or base.seats != seats:
                    raise ServerError(ErrorCode.BAD_CONFIG, f"the match to host is {base.game.info.id} for "
                                      f"{base.seats}, not {gid} for {seats}")
                else:
                    match = opened.store.open(opened.store.add(base, mid))
            except ConfigError as e:
                raise ServerError(ErrorCode.BAD_CONFIG, str(e)) from None
            except StoreError as e:
                raise ServerError(ErrorCode.STORE_ERROR, f"the store could not create the match: {e}") from None
            rows = [SeatRow(s, "bot", bot=new.bots[s], bot_seed=secrets.randbits(63), taken=True)
                    if s in new.bots else SeatRow(s, "human") for s in range(seats)]
            row = MatchRow(mid, gid, variant, seats, options, new.clock, fallback, "in_progress", now(), new.name)
            opened.lobby.create(row, rows)
        except BaseException:
            self.tables.joined(mid)
            self.tables.watched.discard(mid)
            raise
        table = Table(row, rows, match, factories)
        self.peers.wrote(table, 0, match.cursor)  # the store announces the new match too
        self.tables.host(table)
        return match_info(row, table.seats, table)

    @operation(_first)
    def matches(self, *, game: str | None, status: str | None, open_only: bool, limit: int, offset: int) -> list[Json]:
        """Matches by game and status, newest first."""
        rows = current().store.lobby.find(game=game, status=status, open_only=open_only, limit=limit, offset=offset)
        return [match_info(row, seats, None) | progress(row.id) for row, seats in rows]

    @operation(_match)
    def describe_match(self, match_id: str) -> Json:
        """One match's description (loading it if need be)."""
        table = self.tables.get(match_id)
        return match_info(table.row, table.seats, table)

    @operation(_match)
    def spectate(self, match_id: str) -> Json:
        """The match as a spectator sees it now: position, view, outcome, players."""
        table = self.tables.get(match_id)
        m = table.match
        outcome = m.outcome
        return {"match": table.id, "game": table.game.info.id, **table.position(), "view": to_wire(m.view(None)),
                "outcome": None if outcome is None else to_wire(outcome), "players": table.players()}

    @operation(_match)
    def join(self, match_id: str, seat: Any, name: str | None) -> Json:
        """Take a free seat (``seat`` None: the first); ``{"match", "seat", "token"}`` (the token is shown this once).

        ``name`` is checked already (:func:`meeple.server.hygiene.clean_name`).
        """
        table = self.tables.get(match_id)
        free = [s.seat for s in table.seats if s.kind == "human" and not s.taken]
        if seat is None:
            if not free:
                raise ServerError(ErrorCode.NO_FREE_SEAT, "every seat of this match is taken")
            seat = free[0]
        elif type(seat) is not int or not 0 <= seat < table.match.seats:
            raise ServerError(ErrorCode.UNKNOWN_SEAT, f"there is no seat {seat!r}; seats are 0..{table.match.seats - 1}")
        token = new_token()
        if seat not in free or not current().store.lobby.take_seat(match_id, seat, token_hash(token), name):
            what = "a bot's" if table.seats[seat].kind == "bot" else "taken"
            raise ServerError(ErrorCode.SEAT_TAKEN, f"seat {seat} is {what}; free seats: {free or 'none'}")
        table.seats[seat] = attrs.evolve(table.seats[seat], taken=True, name=name)
        self.tables.joined(match_id)
        table.tell_players()
        self.clocks.set(table, by=None, reset=False)
        return {"match": match_id, "seat": seat, "token": token}

    # -- play (WebSocket) --------------------------------------------------------------
    def client(self, match_id: str, on_overflow: Callable[[Client], None]) -> Client:
        """A new client, for a socket accepted on the running loop, of match ``match_id``."""
        client = Client(asyncio.get_running_loop(), self.limits.outbox, on_overflow, self.engine_of(match_id).outbox)
        client.match_id = match_id
        return client

    @operation(_client)
    def hello(self, client: Client, token: str | None, cursor: int | None, head: str | None, ref: Json,
              lang: str | None = None, picture: bool = False) -> None:
        """Seat (or, without a token, make a spectator of) ``client`` at its match and send it a ``sync``.

        ``lang`` (a language tag) chooses the language of the texts it is sent (English by default); with
        ``picture`` its position messages carry the seat's text picture too. A refusal is an error message and
        a close.
        """
        client.lang = language(lang)
        client.picture = picture
        try:
            table = self.tables.get(client.match_id)
            seat = None if token is None else current().store.lobby.seat_of(client.match_id, token_hash(token))
            if token is not None and seat is None:
                raise ServerError(ErrorCode.BAD_TOKEN, "this token is not one of this match's seats; join to get one")
        except ServerError as e:
            client.send(messages.error(e))
            unknown = e.code is ErrorCode.UNKNOWN_MATCH
            client.close(CloseCode.UNKNOWN_MATCH if unknown else CloseCode.BAD_TOKEN, e.code.value.replace("_", " "))
            return
        client.table, client.seat = table, seat
        m, start = table.match, 0
        if cursor is not None and head is not None and 0 <= cursor <= m.cursor and \
                secrets.compare_digest(table.masked(table.raw_head(cursor)), head):
            start = cursor  # the client holds records 0..cursor of this branch already
        table.clients.add(client)
        table.sync(client, start, ref)
        table.tell_players()

    @operation(_client)
    def leave(self, client: Client) -> None:
        """Forget a client whose socket closed."""
        table = client.table
        if table is None or client not in table.clients:
            return
        table.clients.discard(client)
        table.tell_players()
        tables = current().tables
        if not table.clients and table.match.is_over:
            tables.pop(table.id, None)  # a finished match nobody watches: loaded again on demand
            self.tables.watched.discard(table.id)
        elif not table.clients and table.id in tables:
            tables.move_to_end(table.id)
            self.tables.evict()

    @operation(_client, grouped=lambda client, kind, *args, **kwargs: kind == "play")  # undo, redo, sync: no command to group
    def request(self, client: Client, kind: str, cursor: int | None, command: Json, ref: Json) -> None:
        """Handle one ``play``, ``undo``, ``redo`` or ``sync`` request of a seated client; a refusal is an error to it."""
        table = client.table
        if table is None:
            return
        group.requested(client, ref)
        try:
            if kind == "sync":
                return table.sync(client, 0, ref)
            seat = client.seat
            if seat is None:
                raise ServerError(ErrorCode.SPECTATOR, f"spectators cannot {kind}; join a seat to play")
            if self.peers.seen and kind != "play":
                # another process may have undone or redone just now; a play relies on the notes, which
                # come in commit order with the commands (a read per play cost a round trip per command)
                self.peers.reposition(table)
            if cursor != table.match.cursor:
                raise ServerError(ErrorCode.STALE_CURSOR, f"the match is at cursor {table.match.cursor}, not {cursor}; "
                                  f"your {kind} was not applied", cursor=table.match.cursor,
                                  head=table.masked(table.raw_head()))
            if kind != "play":
                return self.moves.rewind(table, seat, client, ref, kind)
            try:
                decoded = table.command(command)
            except DecodeError as e:
                path = f"command.{e.path}" if e.path and not e.path.startswith("[") else f"command{e.path}"
                raise ServerError(ErrorCode.BAD_COMMAND, f"the command does not decode: {e}", path=path) from None
            self.moves.play(table, seat, decoded, "play", client, ref)
        except ServerError as e:
            client.send(messages.error(e, ref))
            if e.code in (ErrorCode.STALE_CURSOR, ErrorCode.CONFLICT) and \
                    (client.cursor, client.head) != (table.match.cursor, table.raw_head()):
                table.sync(client)  # the client is not where the server last left it: bring it there
        except Exception:
            log.exception("match %s: %s by seat %s failed", table.id, kind, client.seat)
            client.send(messages.error(ServerError(ErrorCode.INTERNAL_ERROR,
                                                   "the server failed to handle this request; the match is unchanged"),
                                       ref))

    # -- for tests and tooling ------------------------------------------------------------
    @operation(_match)
    def match_copy(self, match_id: str) -> Match:
        """A detached copy of a hosted match (the referee's: for tests and tools, never for clients)."""
        return self.tables.get(match_id).match.fork()

    @operation(_match)
    def inspect(self, match_id: str, fn: Callable[[Match], T]) -> T:
        """``fn`` of a hosted match, in its worker (nothing changes the match while ``fn`` looks)."""
        return fn(self.tables.get(match_id).match)
