"""Helpers of the server tests: the leak scanner (what a seat was sent, against what it may know) and scripted play."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import uvicorn

from meeple import Match, verify
from meeple.engine import seen_by, to_wire, wire_for
from meeple.engine.match import derive_salt
from meeple.server import MeepleServer
from meeple.server.client import Lobby, Seat, autoplay
from meeple.server.table import text_of
from meeple.server.transport import FastWebSocketProtocol
from meeple.store import load_log, log_bytes

HERE = Path(__file__).resolve().parent
#: The languages scripted seats ask for, by turns (seat 0 English, seat 1 Russian, ...); spectators Russian.
LANGS = ("en", "ru")
ROOT = HERE.parents[1]

# -- servers on loopback ---------------------------------------------------------------


def free_port() -> int:
    """A TCP port on loopback that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ThreadServer:
    """A MeepleServer served by uvicorn in a thread of this process (stopped by :meth:`stop`)."""

    def __init__(self, store: str, *, app: Any = None, prefix: str = "", **kwargs: Any) -> None:
        self.port = free_port()
        self.store = store
        self.meeple = MeepleServer(store, **kwargs)
        config = uvicorn.Config(self.meeple.app if app is None else app(self.meeple), host="127.0.0.1",
                                port=self.port, lifespan="on", log_level="warning", ws_max_size=1 << 20,
                                # the WebSocket protocol meeple serve runs (meeple.server.run)
                                ws=FastWebSocketProtocol, ws_per_message_deflate=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="uvicorn", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        self.base = f"http://127.0.0.1:{self.port}{prefix}"
        self.lobby = Lobby(self.base)

    def stop(self) -> None:
        """Stop serving and wait for the thread (bounded)."""
        self.server.should_exit = True
        self.thread.join(timeout=20)
        assert not self.thread.is_alive(), "the server did not stop"


class ProcessServer:
    """``meeple.server`` in a process of its own (so it can be killed with SIGKILL)."""

    def __init__(self, store: str, port: int | None = None, *extra: str) -> None:
        self.port = port or free_port()
        self.store = store
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "examples"), os.environ.get("PYTHONPATH", "")]))
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "serve_child.py"), "--store", store, "--port", str(self.port),
             "--log-level", "warning", "--bot-pace", "0", *extra],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        self.base = f"http://127.0.0.1:{self.port}"
        self.lobby = Lobby(self.base)
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(self.base + "/", timeout=1):
                    break
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"the server exited: {self.proc.stderr.read().decode()}") from None  # type: ignore[union-attr]
                if time.monotonic() > deadline:
                    self.kill()
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, nothing."""
        self.proc.kill()
        self.proc.wait(timeout=20)

    def stop(self) -> None:
        """SIGTERM and wait."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


# -- the leak scanner ---------------------------------------------------------------------

#: Keys that name referee-side information; no message to a seat may hold one.
FORBIDDEN_KEYS = frozenset({"rng", "seed", "seeds", "salt", "commitment", "counter", "state"})
_RUNS = re.compile(r"[0-9a-fA-F]{8,}")


def _objects(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from _objects(v)
    elif isinstance(value, list):
        for v in value:
            yield from _objects(v)


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def secrets_of(match: Match, seat: int | None) -> dict[str, set[str]]:
    """What ``seat`` may not know of ``match`` (the referee's copy), in the forms a leak would take.

    ``strings``: the seeds, the salt, the commitment and every chain hash (hex
    and decimal), which commit to hidden information. ``events`` and
    ``commands``: the wire form of every event and command that ``seat`` is
    shown redacted (or not at all), unredacted: if one reaches the seat as it
    is, the secret went with it.
    """
    strings: set[str] = set()
    header = match.header()
    for _, seed in header.seeds or ():
        strings |= {str(seed), f"{seed:x}", f"{seed:016x}", derive_salt(seed).hex()}
    strings.add(header.commitment.hex())
    for i in range(-1, len(match.records)):
        strings.add(match.record_hash(i).hex())
    events: set[str] = set()
    commands: set[str] = set()
    game = match.game
    for r in match.records:
        seen = seen_by(game, r, seat)
        shown = {_canon(to_wire(e)) for e in seen.events}
        for e in r.events:
            raw = _canon(to_wire(e))
            if raw not in shown:
                events.add(raw)
        if seen.command != r.command:
            commands.add(_canon(to_wire(r.command)))
    return {"strings": strings, "events": events, "commands": commands}


def scan(messages: list[str], match: Match, seat: int | None) -> list[str]:
    """Every leak found in ``messages`` (JSON texts sent to ``seat``): a list of descriptions, empty if none."""
    found: list[str] = []
    secret = secrets_of(match, seat)
    strings = [s for s in secret["strings"] if len(s) >= 8]
    for n, text in enumerate(messages):
        # every run of hex digits (numbers are such runs too) long enough to hold a secret
        runs = [r.lower() for r in _RUNS.findall(text)]
        for s in strings:
            if any(s in r for r in runs):
                found.append(f"message {n}: a referee-side value {s[:12]}...")
        msg = json.loads(text)
        for obj in _objects(msg):
            bad = FORBIDDEN_KEYS & set(obj)
            if bad:
                found.append(f"message {n}: referee key(s) {sorted(bad)}")
        for record in msg.get("records", []):
            for e in record["events"]:
                if _canon(e) in secret["events"]:
                    found.append(f"message {n}: an unredacted event {e}")
            if record["actor"] != seat and _canon(record["command"]) in secret["commands"]:
                found.append(f"message {n}: an unredacted command {record['command']}")
    return found


def states_of(match: Match) -> list[Any]:
    """The state at every cursor of ``match`` (one fold)."""
    game = match.game
    end = match.cursor
    match.seek(0)
    state = match.state
    match.seek(end)
    states = [state]
    for r in match.records:
        for e in r.events:
            state = game.evolve(state, e)
        states.append(state)
    return states


def seen_records(match: Match, seat: int | None, lang: str = "en") -> list[dict[str, Any]]:
    """The records a seat is sent: ``records_for(seat)`` in wire form, each with its text in ``lang``."""
    wire = wire_for(match.game)
    return [wire.record(r) | {"text": text_of(match.game, r.command, r.events, lang)} for r in match.records_for(seat)]


def projection_errors(messages: list[str] | list[dict[str, Any]], match: Match, seat: int | None,
                      states: list[Any] | None = None, lang: str = "en") -> list[str]:
    """Where a position message to ``seat`` is not exactly its projection of ``match`` at that cursor.

    Every ``sync``/``update`` record must be ``records_for(seat)``'s, every
    view ``view(seat)`` and every legal list ``legal(seat)`` at the message's
    cursor: so nothing but what the engine shows that seat reached it. (For
    matches without undo, whose messages all lie on the final branch.)
    """
    game = match.game
    states = states_of(match) if states is None else states
    expected_records = seen_records(match, seat, lang)
    errors: list[str] = []
    for n, text in enumerate(messages):
        msg = json.loads(text) if isinstance(text, str) else text
        if msg.get("type") not in ("sync", "update"):
            continue
        cursor = msg["cursor"]
        if msg["records"] != expected_records[msg["from"]:cursor]:
            errors.append(f"message {n}: records {msg['from']}..{cursor} are not the seat's")
        state = states[cursor]
        if msg["view"] != to_wire(game.view(state, seat)):
            errors.append(f"message {n}: the view at {cursor} is not the seat's")
        acting = game.to_act(state)
        commands = [] if seat is None or seat not in acting else list(game.legal_commands(state, seat))
        if msg["legal"] != [to_wire(c) for c in commands]:
            errors.append(f"message {n}: the legal commands at {cursor} are not the seat's")
        if msg["legal_text"] != [text_of(game, c, None, lang) for c in commands]:
            errors.append(f"message {n}: the legal commands' texts at {cursor} are not the seat's")
    return errors


# -- scripted play -------------------------------------------------------------------------


@attrs.define
class Table:
    """A match being played through a server by scripted seats (and a spectator)."""

    id: str
    seats: list[Seat]
    spectator: Seat | None
    played: int = 0

    @property
    def everyone(self) -> list[Seat]:
        """Every connection, the spectator's last."""
        return self.seats + ([self.spectator] if self.spectator is not None else [])

    async def close(self) -> None:
        """Close every connection."""
        for s in self.everyone:
            await s.close()


async def open_table(lobby: Lobby, game: str, seats: int, options: dict[str, Any] | None = None,
                     bots: dict[str, str] | None = None, spectate: bool = True, **spec: Any) -> Table:
    """Create a match, join every seat that is not a bot's, and connect them (and a spectator)."""
    bots = bots or {}
    m = await asyncio.to_thread(lobby.create, game=game, seats=seats, options=options or {}, bots=bots, **spec)
    connected = []
    for s in range(seats):
        if str(s) in bots:
            continue
        joined = await asyncio.to_thread(lobby.join, m["id"], s, f"seat {s}")
        connected.append(await Seat.connect(lobby.ws_url(joined), joined["token"], lang=LANGS[s % 2]))
    spectator = await Seat.connect(lobby.ws_url(m["id"]), lang="ru") if spectate else None
    return Table(m["id"], connected, spectator)


async def play_out(table: Table, seed: int, timeout: float = 120.0) -> int:
    """Every scripted seat plays random legal commands until the match is over; the spectator watches."""
    rng = random.Random(seed)
    counts = await asyncio.wait_for(
        asyncio.gather(*(autoplay(s, lambda s: rng.choice(s.legal), timeout=timeout) for s in table.seats)),
        timeout,
    )
    for s in table.everyone:
        await s.until(lambda s: s.outcome is not None, timeout)
    table.played = sum(counts)
    return table.played


def source(store: str, match_id: str) -> str:
    """The source naming a match of a server's store (a SQLite path, or a PostgreSQL address)."""
    return f"{store}#{match_id}" if store.startswith("postgres") else f"sqlite:{store}#{match_id}"


def referee(store: str, match_id: str) -> Match:
    """The match as its store holds it (the referee's copy)."""
    return load_log(source(store, match_id)).to_match()


def check_table(table: Table, store_path: str) -> Match:
    """Every connection holds exactly its projection of the stored match, and no message leaked; the log verifies."""
    match = referee(store_path, table.id)
    states = states_of(match)
    for s in table.everyone:
        assert s.cursor == match.cursor
        assert s.records == seen_records(match, s.seat, s.lang)
        assert s.view == to_wire(match.view(s.seat))
        assert scan(s.received, match, s.seat) == []
        assert projection_errors(s.positions, match, s.seat, states, s.lang) == []
    report = verify(log_bytes(source(store_path, table.id)))
    assert report.ok, report.summary()
    return match
