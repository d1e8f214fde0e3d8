"""The replay debugger's API: open a log, walk its records as the referee or any seat, verify, fork, diff.

Routes (JSON unless said; docs/web.md shows them in use)::

    POST /api/debug/logs                     open a log: its bytes (an upload), or {"match": ID} of this server
    GET  /api/debug/logs/{log}               what was opened: game, seats, records, the verify report
    GET  /api/debug/logs/{log}/records?as=&lang=  the timeline: every record as ``as`` sees it
    GET  /api/debug/logs/{log}/at/{n}?as=&lang=  the position after ``n`` records as ``as`` sees it
    GET  /api/debug/logs/{log}/log?at=       the log's first ``n`` records as a log file (bytes)
    POST /api/debug/logs/{log}/fork          host a fork at record ``at`` on a fresh seed, bots in chosen seats
    GET  /api/debug/diff?a=&b=               where two opened logs part

``as`` is ``referee`` (the raw log: every field of every record, the full
state), ``spectator``, or a seat number. What a seat or a spectator is shown
is built only from :meth:`Match.view <meeple.engine.match.Match.view>`,
:func:`~meeple.engine.records.seen_by` (redacted commands and events) and
``legal``/``can_undo``: the same projection the play protocol sends.

Who may open what: an uploaded log's bytes are the uploader's already, so
its referee view shows them nothing new. A match hosted by this server is
the referee's secret while it is played, so it opens only once it can
never change again (:func:`unsettled`: over at its head, nothing undone
waiting for a redo, no seat able to undo).
An opened log is known by a random id (a capability: whoever has the id
may read it). What the debugger keeps is bounded per client and in all
(:class:`~meeple.server.limits.Quotas`): each client (its address) has a
namespace of its own, holding at most ``debug_client_logs`` logs and
``debug_client_bytes`` bytes of them, its own least recently used closed
first to make room, so one client's uploads never close another's; all
namespaces together hold at most ``debug_total_bytes`` (beyond it a new log
is refused with ``server_busy`` until logs idle for ``debug_idle`` seconds
are closed). A log counts at least :data:`MIN_CHARGE` bytes. Each budget is
checked on the bytes received, before anything of them is decoded; decoded,
a log holds at most about 48 bytes of memory per byte (docs/reliability.md).
Decoding, folding, verifying and encoding answers as JSON run in the
debugger's worker thread, never on the event loop.

A log that does not verify still opens: its records are shown up to where
they can be read, and the verify report names the first bad record and
why. A log whose bytes break off or are corrupt part-way is read up to the
last sound record before the damage.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import json
import secrets
import threading
import time
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..engine.codec import options_to_map, readable
from ..engine.errors import BadPosition, LogError, MeepleError, UnknownGame
from ..engine.game import ENGINE
from ..engine.match import Match
from ..engine.reader import LoadedLog, VerifyReport, read_log, verify_loaded
from ..engine.records import Record, seen_by
from ..engine.text import language
from ..engine.wire import Json, to_wire
from .hygiene import clean_name, json_object, parse_count
from .limits import Quotas, client_of
from .messages import NewMatch
from .protocol import ErrorCode, ServerError
from .table import outcome_json, text_of

if TYPE_CHECKING:
    from .app import MeepleServer

T = TypeVar("T")

#: The largest log the debugger accepts, in bytes, whatever the quotas say.
MAX_LOG_BYTES = 16 * 1024 * 1024
#: How many opened logs one client keeps, whatever the quotas say (its least recently used is closed first).
MAX_LOGS = 32
#: The least a log counts against the byte budgets (what an opened log costs besides its bytes).
MIN_CHARGE = 64 * 1024


@attrs.define
class OpenedLog:
    """One log open in the debugger: its bytes, what could be read of them, the match folded from it, its report."""

    id: str
    name: str
    source: str
    data: bytes
    log: LoadedLog
    match: Match
    report: VerifyReport
    #: Records that could be read (all of them, unless the bytes are damaged part-way).
    readable: int
    #: Why reading stopped early, or None.
    damage: str | None

    @property
    def bad(self) -> int | None:
        """The first record that failed verification, or None."""
        d = self.report.first_divergence
        return None if d is None else d.record

    def summary(self) -> Json:
        """What the debugger says of the log when it opens: game, seats, records, the report."""
        h = self.log.header
        report = self.report
        d = report.first_divergence
        return {
            "id": self.id,
            "name": self.name,
            "source": self.source,
            "game": h.game,
            "title": self.log.game.info.title,
            "rules": h.rules,
            "seats": h.seats,
            "options": readable(h.options),
            "engine": h.engine,
            "records": len(self.log.records),
            "readable": self.readable,
            "damage": self.damage,
            "seed_hidden": self.log.seeds is None,
            "verify": {
                "ok": report.ok,
                "summary": report.summary(),
                "checked": report.checked,
                "records": report.records,
                "first_bad": None if d is None else {"record": d.record, "offset": d.offset, "reason": d.reason},
                "outcome": None if report.outcome is None else to_wire(report.outcome),
            },
        }


def _readable_prefix(data: bytes) -> tuple[LoadedLog, str | None]:
    """The log in ``data``, or as much of it as can be read before the first damaged frame; BAD_LOG if nothing can."""
    try:
        return read_log(data), None
    except LogError as e:
        if e.offset is None or e.record is None or e.offset >= len(data):
            raise ServerError(ErrorCode.BAD_LOG, f"this is not a log the debugger can read: {e.message}",
                              reason=e.message) from None
        damage = str(e)
        try:
            return read_log(data[: e.offset]), damage
        except MeepleError:
            raise ServerError(ErrorCode.BAD_LOG, f"this is not a log the debugger can read: {damage}",
                              reason=damage) from None
    except UnknownGame as e:
        raise ServerError(ErrorCode.BAD_LOG, f"this log is of a game this server does not have: {e}",
                          reason=str(e)) from None


def _damage_at(data: bytes) -> tuple[int | None, str]:
    """The byte offset and reason of the damage that stops ``data`` from reading."""
    try:
        read_log(data)
    except LogError as e:
        return e.offset, e.message
    return None, "unreadable"


def _fold(log: LoadedLog) -> tuple[LoadedLog, Match, str | None]:
    """The match of ``log`` (checkpoints not enforced: verify reports them); cut before records the rules cannot fold."""
    try:
        return log, log.to_match(check_checkpoints=False), None
    except LogError as e:
        cut = e.record if e.record is not None else 0
        short = attrs.evolve(log, records=log.records[:cut], checkpoints=log.checkpoints[:cut],
                             hashes=log.hashes[:cut], offsets=log.offsets[:cut])
        return short, short.to_match(check_checkpoints=False), str(e)


def open_log(data: bytes, name: str, source: str, limit: int | None = None) -> OpenedLog:
    """Read, fold and verify a log's bytes of at most ``limit`` (default :data:`MAX_LOG_BYTES`; see the module docstring)."""
    limit = MAX_LOG_BYTES if limit is None else limit
    if len(data) > limit:
        raise ServerError(ErrorCode.TOO_LARGE, f"the debugger opens logs of at most {limit} bytes")
    full, damage = _readable_prefix(data)
    report = verify_loaded(full)
    if damage is not None and report.ok:  # the sound records re-decide; the damage is the first bad record
        from ..engine.reader import Divergence

        n = len(full.records)
        where = _damage_at(data)
        report = VerifyReport(False, full.header.game, n, n, Divergence(n, where[0], where[1]), report.seed_revealed)
    log, match, cut = _fold(full)
    return OpenedLog(secrets.token_urlsafe(16), name, source, data, log, match, report, len(log.records),
                     damage or cut)


def unsettled(match: Match, bots: Collection[int] = ()) -> str | None:
    """Why the referee's view of ``match`` may not be published yet, or None once it can never change.

    A log that reveals the seeds (the debugger's referee view, a log
    download) may be shown only when no position it reveals can be played
    from again: the match is over at its head, no undone records wait past
    the cursor for a redo, and no seat a person holds or may yet take (all
    but the ``bots``, which never undo) may undo, which would reopen the
    match with every future card and die known. This holds by itself,
    whatever the engine's own undo rules are.
    """
    if match.outcome is None:
        return "the match is not over"
    if match.can_redo():
        return "undone records wait to be redone"
    if any(match.can_undo(seat).ok for seat in range(match.seats) if seat not in bots):
        return "a seat may still undo its last command"
    return None


def settled_copy(match: Match, bots: Collection[int] = ()) -> Match:
    """A detached copy of ``match`` if it can never change again (see :func:`unsettled`), else MATCH_IN_PROGRESS."""
    why = unsettled(match, bots)
    if why is not None:
        raise ServerError(ErrorCode.MATCH_IN_PROGRESS,
                          f"this match can still change ({why}); it opens in the debugger once it cannot")
    return match.fork()


def parse_as(text: str | None, seats: int) -> int | str | None:
    """The ``as`` parameter: ``"referee"``, None for a spectator, or a seat number."""
    if text is None or text == "referee":
        return "referee"
    if text == "spectator":
        return None
    try:
        return parse_count(text, "as", seats - 1)
    except ServerError:
        raise ServerError(ErrorCode.UNKNOWN_SEAT, f"as is referee, spectator or a seat 0..{seats - 1}, not {text[:20]!r}") from None


def describe(game: Any, command: Any) -> str:
    """The game's description of a command; a plain one if the game's own fails (a redacted command it did not expect)."""
    try:
        return str(game.describe(command))
    except Exception:
        wire = to_wire(command)
        fields = ", ".join(f"{k} {'hidden' if v is None else v}" for k, v in wire.items() if k != "type")
        return f"{wire.get('type', type(command).__name__)}{' ' + fields if fields else ''}"


def record_json(opened: OpenedLog, record: Record, who: int | str | None, lang: str = "en") -> Json:
    """A record as ``who`` sees it: the raw record for the referee, else :func:`seen_by`'s projection.

    ``text`` is the game's description of the command (its fields, for the
    developer); ``said`` the sentence a player at the table reads of it, in ``lang``.
    """
    game = opened.match.game
    if who == "referee":
        command, events = record.command, record.events
        extra: dict[str, Json] = {"rng": record.rng}
    else:
        seen = seen_by(game, record, who if isinstance(who, int) else None)
        command, events = seen.command, seen.events
        extra = {}
    barrier = bool(command.barrier or any(e.barrier for e in events))
    return {
        "seq": record.seq,
        "actor": record.actor,
        "engine": record.actor == ENGINE,
        "command": to_wire(command),
        "text": describe(game, command),
        "said": text_of(game, command, events, lang),
        "events": [to_wire(e) for e in events],
        "barrier": barrier,
        **extra,
    }


def position_json(opened: OpenedLog, n: int, who: int | str | None, lang: str = "en") -> Json:
    """The position after ``n`` records as ``who`` sees it, with where undo and redo lead from it.

    A seat's legal commands come with ``legal_text``: what a player reads for
    each, in ``lang``, as the play protocol sends it.
    """
    m = opened.match
    try:
        m.seek(n)
    except BadPosition as e:
        raise ServerError(ErrorCode.BAD_MESSAGE, str(e)) from None
    seat = who if isinstance(who, int) else None
    out: dict[str, Json] = {"at": n, "as": who, "to_act": [s for s in m.to_act if s != ENGINE]}
    if who == "referee":
        out["view"] = to_wire(m.state)
        out["legal"] = {str(s): [to_wire(c) for c in m.legal(s)] for s in m.to_act if s != ENGINE}
    else:
        out["view"] = to_wire(m.view(seat))
        legal = [] if seat is None else list(m.legal(seat))
        out["legal"] = [to_wire(c) for c in legal]
        out["legal_text"] = [text_of(m.game, c, None, lang) for c in legal]
        check = m.can_undo(seat) if seat is not None else None
        out["player_undo"] = None if check is None else {"ok": check.ok, "reason": check.reason}
    out["outcome"] = outcome_json(m.game, m.outcome, lang)
    out["record"] = record_json(opened, m.records[n - 1], who, lang) if n else None
    # tooling undo and redo over the timeline: by whole commands, as Match.undo and Match.redo go
    undo_to = redo_to = None
    if m.can_undo():
        m.undo()
        undo_to = m.cursor
        m.seek(n)
    if m.can_redo():
        m.redo()
        redo_to = m.cursor
        m.seek(n)
    out["undo_to"], out["redo_to"] = undo_to, redo_to
    return out


def diff_json(a: OpenedLog, b: OpenedLog) -> Json:
    """Where two logs part (:func:`meeple.diff.diff_logs`), with the two records at the first difference."""
    from ..diff import SAME_MATCH, diff_logs

    d = diff_logs(a.log, b.log)
    out: dict[str, Json] = {"a": a.id, "b": b.id, **d.to_json()}
    first = d.first_difference
    na, nb = len(a.log.records), len(b.log.records)
    same_match = not any(h.field in SAME_MATCH for h in d.header)
    out["at"] = None if first is None or not same_match else {
        "a": record_json(a, a.log.records[first], "referee") if first < na else None,
        "b": record_json(b, b.log.records[first], "referee") if first < nb else None,
    }
    return out


class Debugger:
    """The opened logs and the routes over them; every operation on them runs in one thread of its own."""

    def __init__(self, server: MeepleServer) -> None:
        self.server = server
        self._logs: dict[str, tuple[str, OpenedLog]] = {}  # id -> (its client, the log)
        self._spaces: dict[str, collections.OrderedDict[str, float]] = {}  # client -> id -> last used, oldest first
        self._charged: dict[str, int] = {}  # client -> bytes charged
        self._total = 0  # bytes charged, with the reservations of logs being opened
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="meeple-debugger")
        self._lock = threading.Lock()

    def routes(self) -> list[BaseRoute]:
        """The routes of the debugger's API."""
        return [
            Route("/api/debug/logs", self.open, methods=["POST"]),
            Route("/api/debug/logs/{log_id}", self.summary),
            Route("/api/debug/logs/{log_id}/records", self.records),
            Route("/api/debug/logs/{log_id}/at/{n:int}", self.position),
            Route("/api/debug/logs/{log_id}/log", self.download),
            Route("/api/debug/logs/{log_id}/fork", self.fork, methods=["POST"]),
            Route("/api/debug/diff", self.diff),
        ]

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def _answer(self, fn: Callable[..., Json], *args: Any, status: int = 200,
                      headers: dict[str, str] | None = None) -> Response:
        """``fn(*args)`` encoded as a JSON response, both in the worker thread, not on the event loop."""
        def work() -> bytes:
            return _encode(fn(*args))

        return Response(await self._run(work), status_code=status, media_type="application/json", headers=headers)

    # -- the opened logs ---------------------------------------------------------
    @property
    def quotas(self) -> Quotas:
        """The server's quotas (the debugger's budgets among them)."""
        return self.server.quotas

    def _max_log(self) -> int:
        return min(MAX_LOG_BYTES, self.quotas.debug_log_bytes)

    def _drop(self, log_id: str) -> None:
        owner, opened = self._logs.pop(log_id)
        self._spaces[owner].pop(log_id, None)
        if not self._spaces[owner]:
            del self._spaces[owner]
        charge = max(len(opened.data), MIN_CHARGE)
        self._charged[owner] -= charge
        if self._charged[owner] <= 0:
            del self._charged[owner]
        self._total -= charge

    def _expire(self, now: float) -> None:
        idle = self.quotas.debug_idle
        old = [i for space in self._spaces.values() for i, used in space.items() if now - used > idle]
        for log_id in old:
            self._drop(log_id)

    def reserve(self, owner: str, size: int) -> int:
        """Room for a log of ``size`` bytes of ``owner`` before it is decoded: its charge, to :meth:`keep` or :meth:`release`.

        Closes ``owner``'s own least recently used logs as its budget needs
        (never another client's); SERVER_BUSY if all clients together hold
        as much as they may.
        """
        q = self.quotas
        charge = max(size, MIN_CHARGE)
        if charge > q.debug_client_bytes:
            raise ServerError(ErrorCode.OVER_QUOTA, f"a client keeps at most {q.debug_client_bytes} bytes of logs open")
        with self._lock:
            self._expire(time.monotonic())
            space = self._spaces.get(owner, collections.OrderedDict())
            most = min(MAX_LOGS, q.debug_client_logs)
            freed, closing = 0, []  # type: tuple[int, list[str]]
            for log_id in space:
                if (len(space) - len(closing) < most
                        and self._charged.get(owner, 0) - freed + charge <= q.debug_client_bytes):
                    break
                closing.append(log_id)
                freed += max(len(self._logs[log_id][1].data), MIN_CHARGE)
            if self._total - freed + charge > q.debug_total_bytes:
                raise ServerError(ErrorCode.SERVER_BUSY, "the debugger holds as many logs as it may for everyone; "
                                                         "try again in a few minutes")
            for log_id in closing:
                self._drop(log_id)
            self._total += charge
            return charge

    def release(self, charge: int) -> None:
        """Give back a reservation whose log was not kept."""
        with self._lock:
            self._total -= charge

    def keep(self, owner: str, opened: OpenedLog, charge: int) -> None:
        """Keep ``opened`` in ``owner``'s namespace, on the room :meth:`reserve` made for it."""
        with self._lock:
            self._total -= charge
            space = self._spaces.setdefault(owner, collections.OrderedDict())
            most = min(MAX_LOGS, self.quotas.debug_client_logs)
            while len(space) >= most:  # another upload of the owner's took the room meanwhile
                self._drop(next(iter(space)))
                space = self._spaces.setdefault(owner, collections.OrderedDict())
            self._logs[opened.id] = (owner, opened)
            space[opened.id] = time.monotonic()
            charge = max(len(opened.data), MIN_CHARGE)
            self._charged[owner] = self._charged.get(owner, 0) + charge
            self._total += charge

    def get(self, log_id: str) -> OpenedLog:
        """An opened log by id (UNKNOWN_LOG if none), now its client's most recently used."""
        with self._lock:
            self._expire(time.monotonic())
            found = self._logs.get(log_id)
            if found is None:
                raise ServerError(ErrorCode.UNKNOWN_LOG, "no log open under this id; open it again")
            owner, opened = found
            space = self._spaces[owner]
            space[log_id] = time.monotonic()
            space.move_to_end(log_id)
            return opened

    # -- routes ---------------------------------------------------------------------
    async def open(self, request: Request) -> Response:
        """``POST /api/debug/logs``: a log's bytes (any other content type), or JSON ``{"match": ID}``."""
        owner = client_of(request)
        self.server.gate.take("upload", owner)
        kind = request.headers.get("content-type", "").split(";")[0].strip()
        if kind == "application/json":
            body = await _json_body(request, self.server.limits.max_message_bytes)
            extra = sorted(set(body) - {"match"})
            if extra or not isinstance(body.get("match"), str):
                raise ServerError(ErrorCode.BAD_MESSAGE, 'open a match of this server with {"match": ID}, or upload a log\'s bytes')
            mid = body["match"]
            hub = self.server.hub
            described = await hub.describe_match(mid)
            if described["status"] != "over":
                raise ServerError(ErrorCode.MATCH_IN_PROGRESS,
                                  "this match is still being played; it opens in the debugger once it is over")
            bots = frozenset(p["seat"] for p in described.get("players", ()) if p.get("kind") == "bot")
            match = await hub.inspect(mid, lambda m: settled_copy(m, bots))
            data = await self._run(match.to_bytes)
            if len(data) > self._max_log():
                raise ServerError(ErrorCode.TOO_LARGE, f"the debugger opens logs of at most {self._max_log()} bytes")
            name, source = described.get("name") or f"match {mid}", f"match:{mid}"
        else:
            data = await _raw_body(request, self._max_log())
            if not data:
                raise ServerError(ErrorCode.BAD_LOG, "the upload is empty; send a log's bytes", reason="empty")
            name, source = clean_name(request.query_params.get("name", "uploaded log"), "name", 80), "upload"
        charge = self.reserve(owner, len(data))
        try:
            opened = await self._run(open_log, data, name, source, self._max_log())
        except BaseException:
            self.release(charge)
            raise
        self.keep(owner, opened, charge)
        return await self._answer(opened.summary, status=201, headers={"Cache-Control": "no-store"})

    async def summary(self, request: Request) -> Response:
        """``GET /api/debug/logs/{log}``."""
        return await self._answer(self.get(request.path_params["log_id"]).summary)

    async def records(self, request: Request) -> Response:
        """``GET /api/debug/logs/{log}/records?as=&lang=``: every record as ``as`` sees it."""
        opened = self.get(request.path_params["log_id"])
        who = parse_as(request.query_params.get("as"), opened.log.header.seats)
        lang = language(request.query_params.get("lang"))

        def timeline() -> bytes:  # record by record: no one long call holds the interpreter (and play) up
            records = b",".join(_encode(record_json(opened, r, who, lang)) for r in opened.log.records)
            return b'{"as":%s,"records":[%s],"bad":%s}' % (_encode(who), records, _encode(opened.bad))

        return Response(await self._run(timeline), media_type="application/json")

    async def position(self, request: Request) -> Response:
        """``GET /api/debug/logs/{log}/at/{n}?as=&lang=``: the position after ``n`` records."""
        opened = self.get(request.path_params["log_id"])
        who = parse_as(request.query_params.get("as"), opened.log.header.seats)
        lang = language(request.query_params.get("lang"))
        return await self._answer(position_json, opened, request.path_params["n"], who, lang)

    async def download(self, request: Request) -> Response:
        """``GET /api/debug/logs/{log}/log?at=``: the first ``at`` records (all: the whole log) as a log file."""
        opened = self.get(request.path_params["log_id"])
        at = _position(request.query_params.get("at"), opened.readable)

        def make() -> bytes:
            if at == len(opened.log.records) and opened.damage is None:
                return opened.data
            if opened.match.seed_hidden:
                raise ServerError(ErrorCode.SEED_HIDDEN, "this log hides its seed: it cannot be cut into a new log")
            return opened.match.fork(at).to_bytes()

        data = await self._run(make)
        stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in opened.name)[:60] or "log"
        return Response(data, media_type="application/octet-stream",
                        headers={"Content-Disposition": f'attachment; filename="{stem}-{at}.meeple"'})

    async def fork(self, request: Request) -> Response:
        """``POST /api/debug/logs/{log}/fork`` ``{"at", "bots", "name"}``: host the fork; its match description.

        The fork continues on a fresh seed of the server from record ``at``
        on: the log's seed may have been chosen by whoever made it, who
        would otherwise know every card and die still to come. (``new_seed``
        is accepted as ``true`` only.)
        """
        opened = self.get(request.path_params["log_id"])
        self.server.gate.take("create", client_of(request))
        body = await _json_body(request, self.server.limits.max_message_bytes)
        extra = sorted(set(body) - {"at", "new_seed", "bots", "name", "fallback_bot", "clock"})
        if extra:
            raise ServerError(ErrorCode.BAD_MESSAGE, f"unknown field {extra[0]!r}; a fork takes at, new_seed, bots, name")
        at = body.get("at", opened.readable)
        if type(at) is not int or not 0 <= at <= opened.readable:
            raise ServerError(ErrorCode.BAD_MESSAGE, f"at: a record count 0..{opened.readable}")
        bad = opened.bad
        if bad is not None and at > bad:
            raise ServerError(ErrorCode.BAD_CONFIG, f"record {bad} failed verification; fork at {bad} or before")
        new_seed = body.get("new_seed", True)
        if not isinstance(new_seed, bool):
            raise ServerError(ErrorCode.BAD_MESSAGE, "new_seed: true or false")
        if not new_seed:  # whoever made the log chose its seed: they would know every card still to come
            raise ServerError(ErrorCode.BAD_CONFIG, "a fork hosted here always continues on a fresh seed of the "
                                                    "server; fork on the same random stream offline (meeple fork)")
        if opened.match.seed_hidden:
            raise ServerError(ErrorCode.SEED_HIDDEN, "this log hides its seed: it can be replayed, not forked")

        def make() -> Match:
            return opened.match.fork(at, seed=secrets.randbits(64))

        base = await self._run(make)
        game = base.game
        options = options_to_map(base.options)
        variant = _variant_of(game, options)
        name = clean_name(body["name"], "name", 80, code=ErrorCode.BAD_CONFIG) if body.get("name") else None
        spec = {"game": game.info.id, "variant": variant, "seats": base.seats, "options": options,
                "bots": body.get("bots", {}), "name": name or f"fork of {opened.name} at {at}"[:80]}
        for key in ("fallback_bot", "clock"):
            if key in body:
                spec[key] = body[key]
        created = await self.server.hub.create(NewMatch.parse(spec, self.server.limits), base=base)
        return Response(_encode(created), status_code=201, media_type="application/json")

    async def diff(self, request: Request) -> Response:
        """``GET /api/debug/diff?a=&b=``: where two opened logs part."""
        q = request.query_params
        a, b = self.get(q.get("a", "")), self.get(q.get("b", ""))
        return await self._answer(diff_json, a, b)

    def close(self) -> None:
        """Forget every opened log and stop the debugger's thread."""
        with self._lock:
            self._logs.clear()
            self._spaces.clear()
            self._charged.clear()
            self._total = 0
        self._pool.shutdown(wait=False, cancel_futures=True)


def _variant_of(game: Any, options: dict[str, Any]) -> str:
    """The variant whose options ``options`` carry (the first, plain one if none names itself)."""
    for v in reversed(game.info.variants):
        try:
            wanted = game.variant_options(v)
        except MeepleError:
            continue
        if wanted and all(options.get(k) == readable(val) or options.get(k) == val for k, val in wanted.items()):
            return str(v)
    return str(game.info.variants[0])


def _position(text: str | None, limit: int) -> int:
    if text is None:
        return limit
    return parse_count(text, "at", limit)


async def _raw_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ServerError(ErrorCode.TOO_LARGE, f"the debugger opens logs of at most {limit} bytes")
    chunks = bytearray()
    async for chunk in request.stream():
        chunks += chunk
        if len(chunks) > limit:
            raise ServerError(ErrorCode.TOO_LARGE, f"the debugger opens logs of at most {limit} bytes")
    return bytes(chunks)


def _encode(value: Json) -> bytes:
    """JSON as Starlette's ``JSONResponse`` encodes it."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode("utf-8")


async def _json_body(request: Request, limit: int) -> dict[str, Any]:
    data = await _raw_body(request, limit)
    return json_object(data) if data else {}
