"""The server on PostgreSQL, and several server processes serving the same matches (on PostgreSQL and SQLite).

Clients of one match connect to different processes; every command, undo,
redo and join made through one process reaches the clients of the others
(the store's notifications for commands, the lobby's feed for the rest).
Against a real PostgreSQL from the ``postgres_server`` fixture.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from serverkit import ProcessServer, ThreadServer, check_table, open_table, play_out, referee, seen_records

from meeple.server.client import Lobby, Seat, autoplay
from meeple.server.peers import Peers
from meeple.server.workers import current
from meeple.store import open_store

pytestmark = pytest.mark.slow  # server processes on SQLite and PostgreSQL, killed and started again


@pytest.fixture
def pg_store(postgres_server: Any) -> str:
    """A PostgreSQL store address with a schema of this test's own."""
    return str(postgres_server.url(schema=f"server_{uuid.uuid4().hex[:12]}"))


def test_whole_matches_on_postgresql(pg_store: str) -> None:
    server = ThreadServer(pg_store)
    try:
        async def scenario() -> None:
            tables = [await open_table(server.lobby, "saboteur", 4, {}, {"1": "heuristic"}),
                      await open_table(server.lobby, "liars-dice", 3, {"dice": 2})]
            try:
                await asyncio.gather(*(play_out(t, seed=i) for i, t in enumerate(tables)))
            finally:
                for t in tables:
                    await t.close()
            for t in tables:
                assert check_table(t, pg_store).is_over

        asyncio.run(scenario())
    finally:
        server.stop()


def test_a_postgresql_server_rebuilds_its_matches_after_kill_9(pg_store: str) -> None:
    first = ProcessServer(pg_store)
    m = first.lobby.create(game="liars-dice", seats=2, options={"dice": 3})
    joined = [first.lobby.join(m["id"], seat=s) for s in (0, 1)]

    async def some(lobby: Lobby, n: int) -> list[dict[str, Any]]:
        seats = [await Seat.connect(lobby.ws_url(j), j["token"]) for j in joined]
        updates = []
        try:
            for _ in range(n):
                me = next(s for s in seats if s.legal)
                updates.append(await me.play(me.legal[0]))
                for s in seats:
                    await s.sync()
        finally:
            for s in seats:
                await s.close()
        return updates

    acknowledged = asyncio.run(some(first.lobby, 5))
    first.kill()
    second = ProcessServer(pg_store, first.port)
    try:
        assert second.lobby.match(m["id"])["cursor"] == acknowledged[-1]["cursor"]
        asyncio.run(some(second.lobby, 3))
        assert referee(pg_store, m["id"]).cursor == acknowledged[-1]["cursor"] + 3
    finally:
        second.stop()


def test_a_process_hands_its_engine_only_other_processes_commits_to_matches_it_holds(
        pg_store: str, monkeypatch: pytest.MonkeyPatch) -> None:
    handed: list[tuple[str, Any]] = []  # every notification an engine thread was given
    drain = Peers._drain

    def spied(self: Peers) -> None:
        worker = current()
        with worker.inbox_lock:
            handed.extend(worker.inbox)
        drain(self)

    monkeypatch.setattr(Peers, "_drain", spied)
    server = ThreadServer(pg_store)
    other = open_store(pg_store)  # another process's store: an origin of its own
    try:
        async def scenario() -> None:
            table = await open_table(server.lobby, "liars-dice", 2, {"dice": 2}, spectate=False)
            try:
                for _ in range(3):  # this process's own commits (and its joins' notes before them)
                    for s in table.seats:
                        await s.sync()
                    me = next(s for s in table.seats if s.legal)
                    await me.play(me.legal[0])
                stranger = other.create("liars-dice", 2, seed=1, match_id="not-hosted-here")
                first = stranger.to_act[0]
                stranger.play(first, stranger.legal(first)[0])
                theirs = other.open(table.id)  # another process moves the match this one holds
                seat = theirs.to_act[0]
                start = theirs.cursor
                theirs.play(seat, theirs.legal(seat)[0])
                for s in table.seats:  # heard, caught up and sent: every notification before it was heard too
                    await s.until(lambda s: s.cursor == theirs.cursor, 30)
                assert handed == [(table.id, range(start, theirs.cursor))]
            finally:
                await table.close()

        asyncio.run(scenario())
    finally:
        other.close()
        server.stop()


@pytest.fixture(params=["postgresql", "sqlite"])
def shared_store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """One database for two server processes: PostgreSQL, or a SQLite file."""
    if request.param == "sqlite":
        return str(tmp_path / "shared.db")
    return str(request.getfixturevalue("pg_store"))


@pytest.fixture
def two(shared_store: str) -> Iterator[tuple[ProcessServer, ProcessServer]]:
    """Two server processes on one store."""
    a = ProcessServer(shared_store)
    try:
        b = ProcessServer(shared_store)
    except BaseException:
        a.stop()
        raise
    yield a, b
    a.stop()
    b.stop()


def test_two_processes_serve_one_match_and_keep_every_client_in_sync(two: tuple[ProcessServer, ProcessServer],
                                                                   shared_store: str) -> None:
    a, b = two
    m = a.lobby.create(game="kings", seats=3, bots={"2": "random"})
    ja = a.lobby.join(m["id"], seat=0)
    jb = b.lobby.join(m["id"], seat=1)  # joined through the other process

    async def scenario() -> None:
        on_a = await Seat.connect(a.lobby.ws_url(ja), ja["token"])
        on_b = await Seat.connect(b.lobby.ws_url(jb), jb["token"])
        watch_a = await Seat.connect(a.lobby.ws_url(m["id"]))
        watch_b = await Seat.connect(b.lobby.ws_url(m["id"]))
        everyone = [on_a, on_b, watch_a, watch_b]
        try:
            await on_a.until(lambda s: [p["taken"] for p in s.players] == [True, True, True], timeout=10)
            rng = random.Random(1)
            await asyncio.wait_for(asyncio.gather(*(autoplay(s, lambda s: rng.choice(s.legal)) for s in (on_a, on_b))),
                                   180)
            for s in (watch_a, watch_b):
                await s.until(lambda s: s.outcome is not None, timeout=30)
            match = referee(shared_store, m["id"])
            assert match.is_over
            for s in everyone:
                assert s.cursor == match.cursor
                assert s.records == seen_records(match, s.seat)
        finally:
            for s in everyone:
                await s.close()

    asyncio.run(scenario())


def test_an_undo_through_one_process_rewinds_the_clients_of_the_other(two: tuple[ProcessServer, ProcessServer],
                                                                      shared_store: str) -> None:
    a, b = two
    m = a.lobby.create(game="liars-dice", seats=2, options={"dice": 2})
    ja, jb = a.lobby.join(m["id"], seat=0), a.lobby.join(m["id"], seat=1)

    async def scenario() -> None:
        me = await Seat.connect(a.lobby.ws_url(ja), ja["token"])
        them = await Seat.connect(b.lobby.ws_url(jb), jb["token"])
        watcher = await Seat.connect(b.lobby.ws_url(m["id"]))
        try:
            await me.play(me.legal[1])
            for s in (them, watcher):
                await s.until(lambda s: s.cursor == 2, timeout=10)
            await me.undo()
            for s in (them, watcher):
                msg = await s.next_of("rewind", timeout=10)
                assert msg["cursor"] == 1 and len(s.records) == 1
            assert not them.legal and me.legal
            await me.redo()
            for s in (them, watcher):
                msg = await s.next_of("update", timeout=10)
                assert msg["cursor"] == 2 and len(s.records) == 2
            assert them.legal
            await them.play(them.legal[0])  # through the other process
            await me.until(lambda s: s.cursor == 3, timeout=10)
            assert me.records == [r for r in (await _whole(a, ja)).records]
        finally:
            for s in (me, them, watcher):
                await s.close()

    asyncio.run(scenario())
    assert referee(shared_store, m["id"]).cursor == 3


async def _whole(server: ProcessServer, joined: dict[str, Any]) -> Seat:
    seat = await Seat.connect(server.lobby.ws_url(joined), joined["token"])
    await seat.close()
    return seat


def test_clients_of_a_killed_process_go_on_through_the_other(two: tuple[ProcessServer, ProcessServer],
                                                            shared_store: str) -> None:
    a, b = two
    m = a.lobby.create(game="liars-dice", seats=2, options={"dice": 4, "sides": 10})
    ja, jb = a.lobby.join(m["id"], seat=0), b.lobby.join(m["id"], seat=1)

    async def scenario() -> None:
        me = await Seat.connect(a.lobby.ws_url(ja), ja["token"])
        them = await Seat.connect(b.lobby.ws_url(jb), jb["token"])
        low: Callable[[Seat], dict[str, Any]] = lambda s: s.legal[0]  # noqa: E731
        for _ in range(3):
            await me.play(low(me))
            await them.until(lambda s: bool(s.legal), timeout=10)
            await them.play(low(them))
            await me.until(lambda s: bool(s.legal), timeout=10)
        records, head = me.records, me.head
        a.kill()
        me.socket.transport.abort()
        again = await Seat.connect(b.lobby.ws_url(ja), ja["token"], records=records, head=head)
        try:
            assert again.cursor == them.cursor == 7
            await again.play(low(again))
            await them.until(lambda s: s.cursor == 8, timeout=10)
        finally:
            await again.close()
            await them.close()

    asyncio.run(scenario())
    assert referee(shared_store, m["id"]).cursor == 8
