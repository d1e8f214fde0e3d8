"""The hub: hosted matches, their store and lobby, bots and clocks, behind one engine thread.

Every operation that touches a match or the databases runs in the hub's
*engine thread*, one at a time: the store's and the lobby's connections
belong to that thread, a match needs no lock, and the order in which
operations run is the order in which clients are told about them. The event
loop only carries bytes: it parses a client's message, hands it to the
engine thread, and sends what comes back. Bots think in a thread of their
own, so a slow bot never holds up the other matches; their moves then go
through the engine thread like anyone's.

Every command is in the store before any client hears of it: ``Match.play``
on a stored match writes first, and messages are built after it returns.

**Group commit.** Commands (``play`` requests and bot moves) do not each wait
for a commit of their own: they queue for their engine thread, which takes
every command waiting, plays them one after the other inside one store
transaction (:meth:`meeple.store.SqliteStore.batch`), commits once, and only
then hands what they send (acknowledgements and updates) to the event loop.
While a commit is on its way to the disk the next commands gather, so the
busier the server, the more commands share a commit. If the commit fails,
nothing of the batch was acknowledged: its matches are read again from the
store, their clients brought back to it, and each requester told.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import itertools
import logging
import re
import secrets
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from ..catalog import variant_hides_information
from ..engine.bot import RandomBot
from ..engine.errors import ConfigError, DecodeError, IllegalCommand, MeepleError, UnknownGame
from ..engine.game import Game
from ..engine.match import Match
from ..engine.registry import available, get_game
from ..engine.text import language
from ..engine.wire import Json, describe, to_wire
from ..store import Durability
from ..store.errors import MatchNotFound, NotSupported, StoreConflict, StoreError
from .lobby import CURSOR, SEATS, MatchRow, SeatRow, new_token, now, token_hash
from .protocol import CloseCode, ErrorCode, Limits, ServerError, engine_code
from .stores import Opened, open_store, server_store
from .table import Client, Outbox, Table, dumps

log = logging.getLogger("meeple.server")

T = TypeVar("T")

#: The most commands one group commit takes. Larger groups share an fsync among more commands, but every
#: command of a group waits for the last one before it is acknowledged, and the event loop waits for the
#: group to end before it sends anything: past a few commands, matches then move in lock-step with the
#: engine instead of beside it (measured in benchmarks/server_load.py --anchor, docs/server.md).
GROUP_MAX = 8

#: What a player name may hold: printable characters, no control codes.
_NAME = re.compile(r"[^\x00-\x1f\x7f-\x9f]+")


def _settle(items: list[tuple[asyncio.Future[Any], BaseException | None]]) -> None:
    for done, error in items:
        if done.done():
            continue
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)


def bot_factories(game: Game[Any, Any]) -> dict[str, Callable[[int], Any]]:
    """The bots a match of ``game`` may seat: the game's own, and ``random`` for every game."""
    bots: dict[str, Callable[[int], Any]] = {"random": lambda seed: RandomBot(seed)}
    bots.update(game.bots())
    return bots


def default_fallback(game: Game[Any, Any]) -> str:
    """The bot that moves for a player out of time, unless the match names one: ``heuristic`` where the game has it."""
    return "heuristic" if "heuristic" in bot_factories(game) else "random"


def game_info(game: Game[Any, Any]) -> dict[str, Json]:
    """What the lobby says of a game: seats, variants, options, bots, and the wire schema of its commands."""
    import attrs

    info = game.info
    options_type = game.options_type
    attrs.resolve_types(options_type)
    defaults = options_type()
    options = [
        {"name": f.name, "schema": describe(f.type), "default": to_wire(getattr(defaults, f.name)),
         "help": str(f.metadata.get("help", ""))}
        for f in attrs.fields(options_type)
    ]
    variants = []
    for v in info.variants:
        low, high = info.seat_range(v)
        variants.append({"name": v, "min_seats": low, "max_seats": high, "options": to_wire(game.variant_options(v)),
                         "hidden_information": variant_hides_information(game, v)})
    return {
        "id": info.id,
        "title": info.title,
        "summary": info.summary,
        "rules_version": info.rules_version,
        "min_seats": info.min_seats,
        "max_seats": info.max_seats,
        "hidden_information": info.hidden_information,
        "has_chance": info.has_chance,
        "variants": variants,
        "options": options,
        "bots": sorted(bot_factories(game)),
        "default_fallback_bot": default_fallback(game),
        "commands": [describe(c) | {"secret": list(c.secret)} for c in game.commands],
        "view": describe(game.view_type) if game.view_type is not None else {},
    }


class Engine:
    """One engine thread: its own connections to the store and the lobby, and the matches it hosts.

    A match belongs to one engine (:meth:`Hub.engine_of`), so it is only ever
    touched by one thread; several engines let the database commit for
    several matches at once.
    """

    def __init__(self, index: int) -> None:
        self.index = index
        self.executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=f"meeple-engine-{index}")
        self.opened: Opened | None = None
        #: least recently used first (for the memory budget)
        self.tables: OrderedDict[str, Table] = OrderedDict()
        self.outbox: Outbox | None = None
        #: the store's notifications for this engine's matches (commits, and other processes' lobby notes),
        #: waiting to be read in one go, in order
        self.inbox: list[tuple[str, range | str]] = []
        self.inbox_lock = threading.Lock()
        self.draining = False
        #: commands waiting for the next group commit: (future, operation, arguments); the loop appends
        self.queue: list[tuple[asyncio.Future[Any], Callable[..., Any], tuple[Any, ...]]] = []
        self.queue_lock = threading.Lock()
        self.scheduled = False
        #: inside a group commit: the lobby writes to make after it, the tables it moved
        self.batching = False
        self.deferred: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        self.touched: dict[str, Table] = {}
        #: how many group commits and commands this engine made (for tests and tools)
        self.commits = 0
        self.commands = 0


class Hub:
    """Hosted matches and everything around them; see the module docstring.

    Create it, ``await start()`` inside the event loop that serves clients,
    ``await close()`` at the end. The coroutine methods are what the
    HTTP and WebSocket handlers call.
    """

    def __init__(self, store: str | None, *, limits: Limits | None = None, bot_delay: float = 0.0,
                 durability: Durability = "fsync", engines: int | None = None) -> None:
        self.store_url = store
        self.durability: Durability = durability
        self.limits = limits or Limits()
        self.bot_delay = bot_delay
        if engines is None:  # SQLite takes one writer at a time; PostgreSQL commits several at once
            engines = 4 if server_store(store).kind == "postgresql" else 1
        if type(engines) is not int or not 1 <= engines <= 64:
            raise ValueError(f"engines is a number of threads, 1..64, not {engines!r}")
        #: True once another server process was seen writing to the same database: from then on the
        #: lobby's undo position is read again before every request
        self._peers = False
        self._engines = [Engine(i) for i in range(engines)]
        self._local = threading.local()
        self._origin = uuid.uuid4().hex  # this process's entries in the lobby's change feed
        self._bot_pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="meeple-bots")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self._timers: set[asyncio.TimerHandle] = set()
        self._keys = itertools.count(1)
        self._started: asyncio.Future[None] | None = None
        self._closing = False
        self._subscription: Any = None
        #: matches with seats for people, none of them taken yet (``Limits.max_unjoined``); any engine thread
        self._unjoined: set[str] = set()
        self._unjoined_lock = threading.Lock()

    # -- life ------------------------------------------------------------------------
    async def start(self) -> None:
        """Open the store and the lobby, and bring back every match in progress (its bots and clocks)."""
        if self._started is None:
            self._loop = loop = asyncio.get_running_loop()
            self._started = loop.create_future()
            try:
                for engine in self._engines:
                    engine.outbox = Outbox(loop)
                    await loop.run_in_executor(engine.executor, self._run, engine, self._e_open)
            except BaseException as e:
                self._started.set_exception(e)
                self._started.exception()  # the caller sees it; later callers too
                for engine in self._engines:
                    if engine.opened is not None:
                        await loop.run_in_executor(engine.executor, self._run, engine, self._e_close)
                raise
            self._started.set_result(None)
        await asyncio.shield(self._started)

    async def close(self) -> None:
        """Close every client, stop bots and clocks, close the store."""
        if self._closing:
            return
        self._closing = True
        for timer in self._timers:
            timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        loop = asyncio.get_running_loop()
        if self._started is not None and self._started.done() and self._started.exception() is None:
            for engine in self._engines:
                await loop.run_in_executor(engine.executor, self._run, engine, self._e_close)
        for engine in self._engines:
            engine.executor.shutdown(wait=True)
        self._bot_pool.shutdown(wait=False, cancel_futures=True)

    def engine_of(self, match_id: str) -> Engine:
        """The engine thread that hosts ``match_id`` (by a hash of the id: the same in every process)."""
        engines = self._engines
        if len(engines) == 1:
            return engines[0]
        h = hashlib.blake2b(match_id.encode("utf-8", "surrogatepass"), digest_size=4).digest()
        return engines[int.from_bytes(h, "big") % len(engines)]

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in the first engine thread (operations that belong to no match)."""
        return await self._call_on(self._engines[0], fn, *args)

    async def _call_at(self, match_id: str, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in the engine thread of ``match_id``."""
        return await self._call_on(self.engine_of(match_id), fn, *args)

    async def _call_on(self, engine: Engine, fn: Callable[..., T], *args: Any) -> T:
        await self.start()
        if self._closing:
            raise ServerError(ErrorCode.INTERNAL_ERROR, "the server is shutting down")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(engine.executor, self._run, engine, fn, *args)

    async def _call_grouped(self, match_id: str, fn: Callable[..., Any], *args: Any) -> None:
        """Queue ``fn(*args)`` for the next group commit of ``match_id``'s engine; return once it is committed."""
        await self.start()
        if self._closing:
            raise ServerError(ErrorCode.INTERNAL_ERROR, "the server is shutting down")
        engine = self.engine_of(match_id)
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        with engine.queue_lock:
            engine.queue.append((done, fn, args))
            start = not engine.scheduled
            engine.scheduled = True
        if start:
            engine.executor.submit(self._run, engine, self._e_group)
        await done

    def _e_group(self) -> None:
        """Run every queued command in one store transaction; send what they say once it is committed."""
        engine = self._engine
        with engine.queue_lock:
            items, engine.queue = engine.queue[:GROUP_MAX], engine.queue[GROUP_MAX:]
            if engine.queue:  # the rest in the next group, after what else waits for this thread
                engine.executor.submit(self._run, engine, self._e_group)
            else:
                engine.scheduled = False
        store = self.opened.store
        outcomes: list[BaseException | None] = []

        def run_all() -> None:
            for _, fn, args in items:
                try:
                    fn(*args)
                    outcomes.append(None)
                except Exception as e:
                    outcomes.append(e)

        engine.batching, engine.deferred, engine.touched = True, [], {}
        try:
            with store.batch():
                run_all()
            engine.commits += 1
            engine.commands += len(items)
        except StoreError as e:
            if not outcomes:  # the transaction did not begin: each command on its own, as without grouping
                engine.batching = False
                run_all()
            else:  # the commit failed: nothing of the batch is stored, nothing was sent
                log.error("a group commit of %d commands failed: %s", len(items), e)
                self._e_undo_group(engine, e, items)
        finally:
            engine.batching = False
            deferred, engine.deferred = engine.deferred, []
            engine.touched = {}
        for fn, args in deferred:  # the lobby's side of the commands, now that they are stored
            try:
                fn(*args)
            except StoreError as e:
                log.error("the lobby could not note a committed command (%s); it is corrected on reload", e)
        outbox = engine.outbox
        assert outbox is not None
        outbox.flush()
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            outbox.loop.call_soon_threadsafe(
                _settle, [(done, outcome) for (done, _, _), outcome in zip(items, outcomes, strict=True)])

    def _e_undo_group(self, engine: Engine, error: StoreError,
                      items: list[tuple[asyncio.Future[Any], Callable[..., Any], tuple[Any, ...]]]) -> None:
        """A group's commit failed: nothing it sent goes out; its matches and every requester are brought back.

        Every request of the group is answered ``store_error``, the refused
        ones too (their refusals were among what is not sent), and every
        client of the matches it touched gets the stored position anew.
        """
        outbox = engine.outbox
        assert outbox is not None
        outbox.discard()
        engine.deferred = []
        engine.batching = False
        requests = [args for _, fn, args in items if fn == self._e_request]  # (client, kind, cursor, command, ref)
        tables = dict(engine.touched)
        tables.update((c.table.id, c.table) for c, *_ in requests if c.table is not None)
        for table in tables.values():
            self._e_refresh(table)
            for client in list(table.clients):  # what the group told them was never sent
                table.sync(client)
        for client, *_, ref in requests:
            body: dict[str, Json] = {"type": "error", "code": ErrorCode.STORE_ERROR.value,
                                     "message": f"the store could not commit the command: {error}"}
            if ref is not None:
                body["ref"] = ref
            client.send(dumps(body))

    def _lobby_write(self, fn: Callable[..., Any], *args: Any) -> None:
        """Write to the lobby now, or after the group commit under way (its transaction holds the database)."""
        engine = self._engine
        if engine.batching:
            engine.deferred.append((fn, args))
        else:
            fn(*args)

    def _run(self, engine: Engine, fn: Callable[..., T], *args: Any) -> T:
        """Run one operation in ``engine``'s thread; hand what it sends to the loop when it is done."""
        outbox = engine.outbox
        assert outbox is not None
        outbox.thread = threading.get_ident()
        self._local.engine = engine
        try:
            return fn(*args)
        finally:
            outbox.flush()

    @property
    def _engine(self) -> Engine:
        """The engine whose thread this is."""
        engine: Engine = self._local.engine
        return engine

    @property
    def opened(self) -> Opened:
        """The store and lobby of this engine thread."""
        opened = self._engine.opened
        assert opened is not None, "the hub is not started"
        return opened

    @property
    def _tables(self) -> OrderedDict[str, Table]:
        """The matches this engine thread hosts."""
        return self._engine.tables

    def _e_open(self) -> None:
        engine = self._engine
        engine.opened = open_store(self.store_url, self.durability, origin=self._origin)
        if engine.index == 0:
            self._e_count_unjoined()
            try:  # other processes' commits and lobby notes (several servers on one database), in commit order
                self._subscription = self.opened.store.listen(self._remote_commit, notes=self._remote_note)
            except NotSupported as e:
                log.warning("this store cannot report other processes' commits (%s): serve it from one process", e)
        for mid in self.opened.lobby.in_progress():
            if self.engine_of(mid) is not engine:
                continue
            try:
                self._e_table(mid)
            except MeepleError as e:  # one broken match must not keep the server down
                log.error("match %s could not be restored: %s", mid, e)

    def _e_close(self) -> None:
        engine = self._engine
        for table in engine.tables.values():
            table.close_all()
        if engine.index == 0 and self._subscription is not None:
            stop = getattr(self._subscription, "close", None)
            if callable(stop):
                stop()
        if engine.opened is not None:
            engine.opened.close()
            engine.opened = None

    # -- tables ------------------------------------------------------------------------
    def _e_table(self, match_id: str) -> Table:
        """The hosted match ``match_id``, loaded from the store (and the lobby) if need be."""
        table = self._tables.get(match_id)
        if table is not None:
            self._tables.move_to_end(match_id)
            return table
        if not isinstance(match_id, str) or not 0 < len(match_id) <= 128:
            raise ServerError(ErrorCode.UNKNOWN_MATCH, "no such match")
        found = self.opened.lobby.get(match_id)
        if found is None:
            raise ServerError(ErrorCode.UNKNOWN_MATCH, f"no match {match_id!r} on this server")
        row, seats = found
        try:
            match = self.opened.store.open(match_id)
        except MatchNotFound:
            raise ServerError(ErrorCode.UNKNOWN_MATCH, f"match {match_id!r} is no longer in the store") from None
        table = Table(row, seats, match, bot_factories(match.game))
        self._e_apply_marker(table)
        self._tables[match_id] = table
        self._e_after(table, by=None, reset_clocks=True)
        self._e_evict(keep=table)
        return table

    def _e_evict(self, keep: Table | None = None) -> None:
        """Drop idle matches from memory, least recently used first, until the tables fit the budget.

        Each engine thread has its share of ``Limits.max_hosted_bytes``. A
        dropped match is only in the store (and the lobby): :meth:`_e_table`
        reads it again when a client, a request or a peer's change asks for it.
        """
        budget = self.limits.max_hosted_bytes // len(self._engines)
        tables = self._tables
        total = sum(t.footprint() for t in tables.values())
        if total <= budget:
            return
        for mid in list(tables):
            table = tables[mid]
            if table is keep or not table.idle():
                continue
            del tables[mid]
            total -= table.footprint()
            if total <= budget:
                return

    def _e_count_unjoined(self) -> None:
        """Note the lobby's matches in progress that have seats for people and nobody in them yet."""
        rows = self.opened.lobby.find(game=None, status="in_progress", open_only=True,
                                      limit=self.limits.max_unjoined + 1, offset=0)
        with self._unjoined_lock:
            self._unjoined = {row.id for row, seats in rows
                              if any(s.kind == "human" for s in seats) and not any(s.kind == "human" and s.taken
                                                                                   for s in seats)}

    def _e_apply_marker(self, table: Table) -> None:
        """Put the cursor where players left it by undo, if the store still holds what the marker expects."""
        lobby = self.opened.lobby
        marker = lobby.marker(table.id)
        table.marked = marker is not None
        if marker is None:
            return
        if (marker.records, marker.head) == table.stored and 0 <= marker.cursor <= marker.records:
            table.match.seek(marker.cursor)
            table.moved()
        else:  # a command was played after the undo: the store's end is the position
            self._lobby_write(lobby.set_marker, table.id, None)
            table.marked = False

    def _e_after(self, table: Table, by: int | None, reset_clocks: bool = False) -> None:
        """After any change: note the status, start the clocks, set the bots to work."""
        m = table.match
        status = "over" if m.is_over else "in_progress"
        if status != table.row.status:
            import attrs

            self._lobby_write(self.opened.lobby.set_status, table.id, status)
            table.row = attrs.evolve(table.row, status=status)
        self._e_clocks(table, by, reset_clocks)
        if m.is_over:
            return
        for seat in table.bots_to_act():
            name = table.bot_name(seat)
            assert name is not None
            self._e_think(table, seat, name, "bot")

    def _e_clocks(self, table: Table, by: int | None, reset: bool) -> None:
        clock = table.row.clock
        if clock is None:
            return
        acting = set(table.humans_to_act()) if not table.match.is_over else set()
        for seat in [s for s in table.deadlines if s not in acting]:
            del table.deadlines[seat]
        for seat in acting:
            if reset or seat == by or seat not in table.deadlines:
                key = next(self._keys)
                table.deadlines[seat] = (time.monotonic() + clock, key)
                self._soon(self._arm, table.id, seat, key, clock)

    def _e_think(self, table: Table, seat: int, bot_name: str, cause: str) -> None:
        """Set a bot to choose ``seat``'s move at the current position (once per position)."""
        if table.pending.get(seat) == table.version:
            return
        table.pending[seat] = table.version
        m = table.match
        bot = table.bot(seat, bot_name)
        view, legal = m.view(seat), tuple(m.legal(seat))
        if not legal:
            return
        self._soon(self._start_bot, table.id, seat, table.version, bot, view, legal, cause)

    def _soon(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` on the event loop (from the engine thread)."""
        loop = self._loop
        if loop is not None and not self._closing:
            with contextlib.suppress(RuntimeError):  # the loop is closed: the server is going down
                loop.call_soon_threadsafe(fn, *args)

    def _start_bot(self, *args: Any) -> None:
        if not self._closing:
            self._spawn(self._bot_move(*args))

    def _spawn(self, coro: Any) -> None:
        if self._closing:
            coro.close()
            return
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _arm(self, match_id: str, seat: int, key: int, delay: float) -> None:
        if self._closing:
            return
        loop = asyncio.get_running_loop()
        timer: asyncio.TimerHandle

        def fire() -> None:
            self._timers.discard(timer)
            self._spawn(self._call_at(match_id, self._e_expire, match_id, seat, key))

        timer = loop.call_later(delay, fire)
        self._timers.add(timer)

    async def _bot_move(self, match_id: str, seat: int, version: int, bot: Any, view: Any,
                        legal: tuple[Any, ...], cause: str) -> None:
        if self.bot_delay > 0:
            await asyncio.sleep(self.bot_delay)
        loop = asyncio.get_running_loop()
        try:
            command = await loop.run_in_executor(self._bot_pool, bot.choose, view, legal, seat)
        except Exception:
            log.exception("the %s bot of match %s seat %d failed; it plays its first legal command", cause,
                          match_id, seat)
            command = legal[0]
        if command not in legal:
            log.error("the bot of match %s seat %d chose a command that is not legal: %r", match_id, seat, command)
            command = legal[0]
        await self._call_grouped(match_id, self._e_bot_play, match_id, seat, version, command, cause)

    def _e_bot_play(self, match_id: str, seat: int, version: int, command: Any, cause: str) -> None:
        table = self._tables.get(match_id)
        if table is None or table.version != version or seat not in table.match.to_act:
            return  # the match moved on while the bot thought; the move is chosen again if still due
        try:
            self._e_play(table, seat, command, cause)
        except ServerError as e:
            level = logging.INFO if e.code is ErrorCode.CONFLICT else logging.ERROR  # another process moved first
            log.log(level, "match %s: the %s move for seat %d was refused: %s", match_id, cause, seat, e.message)

    def _e_expire(self, match_id: str, seat: int, key: int) -> None:
        table = self._tables.get(match_id)
        if table is None:
            return
        deadline = table.deadlines.get(seat)
        if deadline is None or deadline[1] != key or seat not in table.match.to_act:
            return
        self._e_think(table, seat, table.row.fallback, "clock")

    # -- changes -----------------------------------------------------------------------
    def _e_play(self, table: Table, seat: int, command: Any, cause: str, requester: Client | None = None,
                ref: Json = None) -> None:
        """Play ``command`` for ``seat``, persist, and tell every client."""
        m = table.match
        before = (m.cursor, table.raw_head())
        undone = table.next_undone()
        if undone is not None and undone == (seat, command):
            m.redo()  # the same command at the same position: the same records, already stored
        else:
            try:
                m.play(seat, command)
            except IllegalCommand as e:
                raise ServerError(engine_code(e.code), e.message, reason=e.code.value) from None
            except StoreConflict as e:
                self._e_refresh(table)
                raise ServerError(ErrorCode.CONFLICT, f"another server changed the match first: {e}",
                                  cursor=table.match.cursor) from None
            except StoreError as e:
                raise ServerError(ErrorCode.STORE_ERROR, f"the store refused the command: {e}") from None
            table.own.append((before[0], m.cursor))
            table.stored = (m.cursor, m.head_hash)
            engine = self._engine
            if engine.batching:
                engine.touched[table.id] = table
        self._e_marker(table)
        table.moved()
        self._e_after(table, by=seat)  # clocks first: the messages show the new deadlines
        table.broadcast("update", cause, seat, before, requester, ref)

    def _e_marker(self, table: Table) -> None:
        marker = table.marker()
        if marker is not None or table.marked:
            self._lobby_write(self.opened.lobby.set_marker, table.id, marker)
            table.marked = marker is not None

    # -- other processes ---------------------------------------------------------------
    def _remote_commit(self, match_id: str, records: range | str) -> None:
        """The store's notification (its listening thread): a process committed to ``match_id``.

        Notifications wait in an inbox that the engine thread empties in one
        go, so a burst of commits to one match (from a busy peer) costs one
        read of it, not one per commit.
        """
        if self._closing:
            return
        engine = self.engine_of(match_id)
        with engine.inbox_lock:
            engine.inbox.append((match_id, records))
            if engine.draining:
                return
            engine.draining = True
        with contextlib.suppress(RuntimeError):  # shut down
            engine.executor.submit(self._run, engine, self._e_drain)

    def _remote_note(self, match_id: str, kind: str, origin: str) -> None:
        """The store's note of another process's lobby (its listening thread): a seat taken, an undo or a redo."""
        if origin != self._origin:
            self._remote_commit(match_id, kind)

    def _e_drain(self) -> None:
        engine = self._engine
        with engine.inbox_lock:
            pending, engine.inbox = engine.inbox, []
            engine.draining = False
        stale: dict[str, Table] = {}
        for match_id, records in pending:
            table = self._tables.get(match_id)
            if table is None:
                continue
            if isinstance(records, str):  # a note, after the commits before it: those are read first
                self._peers = True
                if match_id in stale:
                    self._e_refresh(stale.pop(match_id))
                self._e_noted(table, records)
                continue
            span = (records.start, records.stop)
            if span in table.own:  # this process's own commit, heard back
                table.own.remove(span)
                continue
            if span == (0, 0):  # deleted
                log.warning("match %s was deleted from the store", match_id)
                continue
            self._peers = True
            stale[match_id] = table
        for table in stale.values():
            self._e_refresh(table)

    def _e_refresh(self, table: Table) -> None:
        """Bring the table to what the store holds (another process wrote), and its clients with it."""
        try:  # only the records after the table's, where the store's continue them (else the whole match),
            # and without a read when the notification carried them
            recent = getattr(self._subscription, "recent", None)
            match = self.opened.store.catch_up(table.match, recent(table.id, table.stored[0]) if recent else None)
        except MeepleError as e:
            log.error("match %s could not be read again: %s", table.id, e)
            return
        table.match = match
        table.own.clear()
        table.stored = (match.cursor, match.head_hash)
        if table.marked:  # else no undo position: another process's would have come as a note before this
            self._e_apply_marker(table)
        table.moved()
        self._e_after(table, by=None, reset_clocks=True)
        table.catch_up("remote")

    def _e_noted(self, table: Table, kind: str) -> None:
        """Another process's lobby note about ``table``: a person took a seat, or an undo or a redo moved it."""
        if kind == SEATS:
            found = self.opened.lobby.get(table.id)
            if found is not None:
                table.seats = found[1]
                table.tell_players()
                self._e_clocks(table, by=None, reset=False)
        elif kind == CURSOR:
            self._e_reposition(table)

    def _e_reposition(self, table: Table) -> None:
        """Move the cursor where the lobby says players left it (another process's undo or redo)."""
        marker = self.opened.lobby.marker(table.id)
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
        self._e_after(table, by=None, reset_clocks=True)
        if target < before[0]:
            table.broadcast("rewind", "undo", None, before)
        else:
            table.broadcast("update", "redo", None, before)

    # -- lobby (HTTP) -------------------------------------------------------------------
    async def games(self) -> list[Json]:
        """Every game the server can host."""
        return await self._call(self._e_games)

    def _e_games(self) -> list[Json]:
        out = []
        for gid in available():
            try:
                out.append(game_info(get_game(gid)))
            except ConfigError as e:
                log.warning("game %s is unavailable: %s", gid, e)
        return out

    async def game(self, game_id: str) -> Json:
        """One game's description."""
        return await self._call(self._e_game, game_id)

    def _e_game(self, game_id: str) -> Json:
        try:
            return game_info(get_game(game_id))
        except UnknownGame as e:
            raise ServerError(ErrorCode.UNKNOWN_GAME, str(e)) from None

    async def create(self, spec: Mapping[str, Any], base: Match | None = None) -> Json:
        """Create a match from a lobby request; its description.

        With ``base`` (a fork, e.g. from the replay debugger), the match hosted
        is a copy of ``base`` instead of a new one; ``spec`` names its game,
        seats and options as a request for a new match would.
        """
        mid = uuid.uuid4().hex
        return await self._call_at(mid, self._e_create, spec, mid, base)

    def _e_create(self, spec: Mapping[str, Any], mid: str, base: Match | None = None) -> Json:
        fields = {"game", "variant", "seats", "options", "bots", "fallback_bot", "clock", "name"}
        extra = sorted(set(spec) - fields)
        if extra:
            raise ServerError(ErrorCode.BAD_MESSAGE, f"unknown field {extra[0]!r}; a match takes {', '.join(sorted(fields))}")
        gid = spec.get("game")
        if not isinstance(gid, str):
            raise ServerError(ErrorCode.BAD_MESSAGE, "game: the id of a game is required (see GET /api/games)")
        try:
            game = get_game(gid)
        except UnknownGame as e:
            raise ServerError(ErrorCode.UNKNOWN_GAME, str(e)) from None
        info = game.info
        variant = spec.get("variant", info.variants[0])
        if not isinstance(variant, str) or variant not in info.variants:
            raise ServerError(ErrorCode.BAD_CONFIG, f"{gid} has no variant {variant!r}; variants: {', '.join(info.variants)}")
        low, high = info.seat_range(variant)
        seats = spec.get("seats", low)
        if type(seats) is not int or not low <= seats <= high:
            raise ServerError(ErrorCode.BAD_CONFIG, f"{gid} {variant} is for {low}-{high} seats, not {seats!r}")
        options = spec.get("options", {})
        if not isinstance(options, dict):
            raise ServerError(ErrorCode.BAD_CONFIG, "options: an object of option names and values")
        try:
            options = {**game.variant_options(variant), **options}
        except ConfigError as e:
            raise ServerError(ErrorCode.BAD_CONFIG, str(e)) from None
        factories = bot_factories(game)
        bots = spec.get("bots", {})
        if not isinstance(bots, dict):
            raise ServerError(ErrorCode.BAD_CONFIG, 'bots: an object of seat numbers and bot names, e.g. {"1": "random"}')
        bot_seats: dict[int, str] = {}
        for key, name in bots.items():
            if not re.fullmatch(r"0|[1-9][0-9]*", str(key)) or int(key) >= seats:
                raise ServerError(ErrorCode.UNKNOWN_SEAT, f"bots: there is no seat {key!r}; seats are 0..{seats - 1}")
            if not isinstance(name, str) or name not in factories:
                raise ServerError(ErrorCode.UNKNOWN_BOT, f"bots: {gid} has no bot {name!r}; bots: {', '.join(sorted(factories))}")
            bot_seats[int(key)] = name
        fallback = spec.get("fallback_bot", default_fallback(game))
        if not isinstance(fallback, str) or fallback not in factories:
            raise ServerError(ErrorCode.UNKNOWN_BOT, f"fallback_bot: {gid} has no bot {fallback!r}; bots: {', '.join(sorted(factories))}")
        clock = spec.get("clock")
        if clock is not None:
            limits = self.limits
            if isinstance(clock, bool) or not isinstance(clock, (int, float)) or not limits.min_clock <= clock <= limits.max_clock:
                raise ServerError(ErrorCode.BAD_CONFIG, f"clock: seconds per move, {limits.min_clock}..{limits.max_clock:g}, or null; not {clock!r}")
            clock = float(clock)
        name = spec.get("name", "")
        if not isinstance(name, str) or len(name) > 80 or (name and not _NAME.fullmatch(name)):
            raise ServerError(ErrorCode.BAD_CONFIG, "name: up to 80 printable characters")
        if len(bot_seats) < seats:
            with self._unjoined_lock:
                if len(self._unjoined) >= self.limits.max_unjoined:
                    raise ServerError(ErrorCode.TOO_MANY_OPEN_MATCHES,
                                      f"this server holds {self.limits.max_unjoined} matches that nobody has joined "
                                      "yet; join one of them (GET /api/matches?open=true) or try again later")
                self._unjoined.add(mid)
        try:
            try:
                if base is None:
                    match = self.opened.store.create(game, seats, options=options, match_id=mid)
                elif base.game is not game or base.seats != seats:
                    raise ServerError(ErrorCode.BAD_CONFIG, f"the match to host is {base.game.info.id} for "
                                      f"{base.seats}, not {gid} for {seats}")
                else:
                    match = self.opened.store.open(self.opened.store.add(base, mid))
            except ConfigError as e:
                raise ServerError(ErrorCode.BAD_CONFIG, str(e)) from None
            except StoreError as e:
                raise ServerError(ErrorCode.STORE_ERROR, f"the store could not create the match: {e}") from None
            rows = [SeatRow(s, "bot", bot=bot_seats[s], bot_seed=secrets.randbits(63), taken=True)
                    if s in bot_seats else SeatRow(s, "human") for s in range(seats)]
            row = MatchRow(mid, gid, variant, seats, options, clock, fallback, "in_progress", now(), name)
            self.opened.lobby.create(row, rows)
        except BaseException:
            with self._unjoined_lock:
                self._unjoined.discard(mid)
            raise
        table = Table(row, rows, match, factories)
        table.own.append((0, match.cursor))  # the store announces the new match too
        self._tables[mid] = table
        self._e_after(table, by=None, reset_clocks=True)
        self._e_evict(keep=table)
        return self._e_describe(row, table.seats, table)

    def _e_describe(self, row: MatchRow, seats: list[SeatRow], table: Table | None) -> Json:
        out: dict[str, Json] = {
            "id": row.id,
            "name": row.name,
            "game": row.game,
            "variant": row.variant,
            "seats": row.seats,
            "options": row.options,
            "clock": row.clock,
            "fallback_bot": row.fallback,
            "status": row.status,
            "created": row.created,
            "open_seats": [s.seat for s in seats if s.kind == "human" and not s.taken],
        }
        if table is not None:
            out["players"] = table.players()
            out["cursor"] = table.match.cursor
            outcome = table.match.outcome
            out["outcome"] = None if outcome is None else to_wire(outcome)
        else:  # a listing: what the lobby knows
            out["players"] = [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name, "taken": s.taken}
                              for s in seats]
        return out

    async def matches(self, *, game: str | None, status: str | None, open_only: bool, limit: int,
                      offset: int) -> list[Json]:
        """Matches by game and status, newest first."""
        return await self._call(self._e_matches, game, status, open_only, limit, offset)

    def _e_matches(self, game: str | None, status: str | None, open_only: bool, limit: int,
                   offset: int) -> list[Json]:
        rows = self.opened.lobby.find(game=game, status=status, open_only=open_only, limit=limit, offset=offset)
        return [self._e_describe(row, seats, None) for row, seats in rows]

    async def describe_match(self, match_id: str) -> Json:
        """One match's description (loading it if need be)."""
        return await self._call_at(match_id, self._e_describe_match, match_id)

    def _e_describe_match(self, match_id: str) -> Json:
        table = self._e_table(match_id)
        return self._e_describe(table.row, table.seats, table)

    async def spectate(self, match_id: str) -> Json:
        """The match as a spectator sees it now: position, view, outcome, players."""
        return await self._call_at(match_id, self._e_spectate, match_id)

    def _e_spectate(self, match_id: str) -> Json:
        table = self._e_table(match_id)
        m = table.match
        outcome = m.outcome
        return {"match": table.id, "game": table.game.info.id, **table.position(), "view": to_wire(m.view(None)),
                "outcome": None if outcome is None else to_wire(outcome), "players": table.players()}

    async def join(self, match_id: str, seat: Any, name: Any) -> Json:
        """Take a free seat: ``{"seat", "token"}`` (the token is shown this once)."""
        return await self._call_at(match_id, self._e_join, match_id, seat, name)

    def _e_join(self, match_id: str, seat: Any, name: Any) -> Json:
        import attrs

        table = self._e_table(match_id)
        if name is not None and (not isinstance(name, str) or not 0 < len(name) <= self.limits.max_name
                                 or not _NAME.fullmatch(name)):
            raise ServerError(ErrorCode.BAD_MESSAGE, f"name: 1-{self.limits.max_name} printable characters")
        free = [s.seat for s in table.seats if s.kind == "human" and not s.taken]
        if seat is None:
            if not free:
                raise ServerError(ErrorCode.NO_FREE_SEAT, "every seat of this match is taken")
            seat = free[0]
        elif type(seat) is not int or not 0 <= seat < table.match.seats:
            raise ServerError(ErrorCode.UNKNOWN_SEAT, f"there is no seat {seat!r}; seats are 0..{table.match.seats - 1}")
        token = new_token()
        if seat not in free or not self.opened.lobby.take_seat(match_id, seat, token_hash(token), name):
            what = "a bot's" if table.seats[seat].kind == "bot" else "taken"
            raise ServerError(ErrorCode.SEAT_TAKEN, f"seat {seat} is {what}; free seats: {free or 'none'}")
        table.seats[seat] = attrs.evolve(table.seats[seat], taken=True, name=name)
        with self._unjoined_lock:
            self._unjoined.discard(match_id)
        table.tell_players()
        self._e_clocks(table, by=None, reset=False)
        return {"match": match_id, "seat": seat, "token": token}

    # -- play (WebSocket) --------------------------------------------------------------
    def client(self, match_id: str, on_overflow: Callable[[Client], None]) -> Client:
        """A new client, for a socket accepted on the running loop, of match ``match_id``."""
        client = Client(asyncio.get_running_loop(), self.limits.outbox, on_overflow, self.engine_of(match_id).outbox)
        client.match_id = match_id
        return client

    async def hello(self, client: Client, match_id: str, token: str | None, cursor: int | None,
                    head: str | None, ref: Json, lang: str | None = None) -> None:
        """Seat (or, without a token, make a spectator of) ``client`` at a match and send it a ``sync``.

        ``lang`` (a language tag) chooses the language of the texts it is sent (English by default).
        """
        client.lang = language(lang)
        await self._call_at(match_id, self._e_hello, client, match_id, token, cursor, head, ref)

    def _e_hello(self, client: Client, match_id: str, token: str | None, cursor: int | None, head: str | None,
                 ref: Json) -> None:
        try:
            table = self._e_table(match_id)
        except ServerError as e:
            client.send(dumps({"type": "error", **e.body()}))
            client.close(CloseCode.UNKNOWN_MATCH, "unknown match")
            return
        seat: int | None = None
        if token is not None:
            seat = self.opened.lobby.seat_of(match_id, token_hash(token))
            if seat is None:
                client.send(dumps({"type": "error", "code": ErrorCode.BAD_TOKEN.value,
                                   "message": "this token is not one of this match's seats; join to get one"}))
                client.close(CloseCode.BAD_TOKEN, "bad token")
                return
        client.table, client.seat = table, seat
        start = 0
        m = table.match
        if cursor is not None and head is not None and 0 <= cursor <= m.cursor and \
                secrets.compare_digest(table.masked(table.raw_head(cursor)), head):
            start = cursor  # the client holds records 0..cursor of this branch already
        table.clients.add(client)
        table.sync(client, start, ref)
        table.tell_players()

    async def leave(self, client: Client) -> None:
        """Forget a client whose socket closed."""
        with contextlib.suppress(ServerError):
            await self._call_at(client.match_id, self._e_leave, client)

    def _e_leave(self, client: Client) -> None:
        table = client.table
        if table is None or client not in table.clients:
            return
        table.clients.discard(client)
        table.tell_players()
        if not table.clients and table.match.is_over:
            self._tables.pop(table.id, None)  # a finished match nobody watches: loaded again on demand
        elif not table.clients and table.id in self._tables:
            self._tables.move_to_end(table.id)
            self._e_evict()

    async def request(self, client: Client, kind: str, cursor: int | None, command: Json, ref: Json) -> None:
        """Handle one ``play``, ``undo``, ``redo`` or ``sync`` request of a seated client."""
        if kind == "play":  # commands share commits; undo, redo and sync move the lobby's marker or nothing
            await self._call_grouped(client.match_id, self._e_request, client, kind, cursor, command, ref)
        else:
            await self._call_at(client.match_id, self._e_request, client, kind, cursor, command, ref)

    def _e_request(self, client: Client, kind: str, cursor: int | None, command: Json, ref: Json) -> None:
        table = client.table
        if table is None:
            return
        try:
            if kind == "sync":
                table.sync(client, 0, ref)
                return
            seat = client.seat
            if seat is None:
                raise ServerError(ErrorCode.SPECTATOR, f"spectators cannot {kind}; join a seat to play")
            if self._peers and kind != "play":
                # another process may have undone or redone just now; a play relies on the notes, which
                # come in commit order with the commands (a read per play cost a round trip per command)
                self._e_reposition(table)
            m = table.match
            if cursor != m.cursor:
                raise ServerError(ErrorCode.STALE_CURSOR,
                                  f"the match is at cursor {m.cursor}, not {cursor}; your {kind} was not applied",
                                  cursor=m.cursor, head=table.masked(table.raw_head()))
            if kind == "play":
                try:
                    decoded = table.wire.command(command)
                except DecodeError as e:
                    raise ServerError(ErrorCode.BAD_COMMAND, f"the command does not decode: {e}",
                                      path=f"command.{e.path}" if e.path and not e.path.startswith("[") else
                                      f"command{e.path}") from None
                self._e_play(table, seat, decoded, "play", client, ref)
            elif kind == "undo":
                self._e_undo(table, seat, client, ref)
            elif kind == "redo":
                self._e_redo(table, seat, client, ref)
        except ServerError as e:
            body: dict[str, Json] = {"type": "error", **e.body()}
            if ref is not None:
                body["ref"] = ref
            client.send(dumps(body))
            if e.code in (ErrorCode.STALE_CURSOR, ErrorCode.CONFLICT) and \
                    (client.cursor, client.head) != (table.match.cursor, table.raw_head()):
                table.sync(client)  # the client is not where the server last left it: bring it there
        except Exception:
            log.exception("match %s: %s by seat %s failed", table.id, kind, client.seat)
            body = {"type": "error", "code": ErrorCode.INTERNAL_ERROR.value,
                    "message": "the server failed to handle this request; the match is unchanged"}
            if ref is not None:
                body["ref"] = ref
            client.send(dumps(body))

    def _e_undo(self, table: Table, seat: int, client: Client, ref: Json) -> None:
        m = table.match
        before = (m.cursor, table.raw_head())
        try:
            m.undo(seat)
        except IllegalCommand as e:
            raise ServerError(ErrorCode.UNDO_REFUSED, e.message, reason=e.code.value) from None
        try:
            self._e_marker(table)
        except StoreError as e:
            m.seek(before[0])
            raise ServerError(ErrorCode.STORE_ERROR, f"the undo could not be stored: {e}") from None
        table.moved()
        self._e_after(table, by=seat, reset_clocks=True)
        table.broadcast("rewind", "undo", seat, before, client, ref)

    def _e_redo(self, table: Table, seat: int, client: Client, ref: Json) -> None:
        m = table.match
        undone = table.next_undone()
        if undone is None:
            raise ServerError(ErrorCode.REDO_REFUSED, "nothing was undone", reason="nothing_to_redo")
        if undone[0] != seat:
            raise ServerError(ErrorCode.REDO_REFUSED, f"the next undone command is seat {undone[0]}'s, not yours",
                              reason="not_yours")
        before = (m.cursor, table.raw_head())
        m.redo()
        try:
            self._e_marker(table)
        except StoreError as e:
            m.seek(before[0])
            raise ServerError(ErrorCode.STORE_ERROR, f"the redo could not be stored: {e}") from None
        table.moved()
        self._e_after(table, by=seat, reset_clocks=True)
        table.broadcast("update", "redo", seat, before, client, ref)

    # -- for tests and tooling ------------------------------------------------------------
    async def match_copy(self, match_id: str) -> Match:
        """A detached copy of a hosted match (the referee's: for tests and tools, never for clients)."""
        return await self._call_at(match_id, self._e_copy, match_id)

    def _e_copy(self, match_id: str) -> Match:
        return self._e_table(match_id).match.fork()

    async def inspect(self, match_id: str, fn: Callable[[Match], T]) -> T:
        """``fn`` of a hosted match, on its engine thread (nothing changes the match while ``fn`` looks)."""
        return await self._call_at(match_id, lambda: fn(self._e_table(match_id).match))
