"""Group commit: commands of many matches that arrive together share one store transaction.

The engine thread is held busy while commands arrive, so that they are
certain to be waiting together; then each must be acknowledged only after
the one commit that stores them all.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from serverkit import ThreadServer, referee

from meeple.server.client import ClientError, Seat

MATCHES = 8


async def _until(check: Callable[[], bool], timeout: float = 60.0) -> None:
    """Wait until ``check()`` holds (a state, not a time: the deadline only stops a hung test)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the state never came"
        await asyncio.sleep(0.005)


async def _dice_tables(server: ThreadServer, n: int) -> list[tuple[str, Seat, Seat]]:
    lobby = server.lobby
    out = []
    for _ in range(n):
        m = await asyncio.to_thread(lobby.create, game="liars-dice", seats=2, options={"dice": 3})
        a, b = [await asyncio.to_thread(lobby.join, m["id"], s) for s in range(2)]
        out.append((m["id"], await Seat.connect(lobby.ws_url(a), a["token"]),
                    await Seat.connect(lobby.ws_url(b), b["token"])))
    return out


def test_commands_of_many_matches_arriving_together_are_one_commit_and_acknowledged_after_it(
        server: ThreadServer) -> None:
    hub: Any = server.meeple.hub
    engine = hub.engine_of("any")
    gate = threading.Event()

    async def scenario() -> None:
        tables = await _dice_tables(server, MATCHES)
        try:
            commits = engine.commits
            before = [referee(server.store, mid).cursor for mid, _, _ in tables]
            engine.executor.submit(gate.wait)  # the engine thread is busy: the commands wait together
            sent = [asyncio.ensure_future(a.play(a.legal[0])) for _, a, _ in tables]
            await _until(lambda: len(engine.queue) == MATCHES)
            assert not any(s.done() for s in sent)  # nothing is acknowledged before its commit
            assert [referee(server.store, mid).cursor for mid, _, _ in tables] == before
            gate.set()
            updates = await asyncio.gather(*sent)
            assert engine.commits == commits + 1  # one transaction for every match's command
            for (mid, _, b), update, cursor in zip(tables, updates, before, strict=True):
                assert update["cursor"] == cursor + 1 == referee(server.store, mid).cursor
                await b.until(lambda s, c=cursor: s.cursor == c + 1 and bool(s.legal), 60)
            # the matches go on: each second seat answers, again all at once
            answers = await asyncio.gather(*(b.play(b.legal[0]) for _, _, b in tables))
            assert [u["cursor"] for u in answers] == [c + 2 for c in before]
        finally:
            gate.set()
            for _, a, b in tables:
                await a.close()
                await b.close()

    asyncio.run(scenario())


def test_a_group_whose_commit_fails_acknowledges_nothing_and_brings_its_clients_back(postgres_server: Any) -> None:
    import psycopg

    schema = f"group_{uuid.uuid4().hex[:12]}"
    server = ThreadServer(postgres_server.url(schema=schema), engines=1)
    hub: Any = server.meeple.hub
    engine = hub.engine_of("any")
    gate = threading.Event()

    async def scenario() -> None:
        tables = await _dice_tables(server, 3)
        with psycopg.connect(postgres_server.dsn, autocommit=True) as db:
            # the database refuses the next commit that adds records (a deferred check, run at COMMIT)
            db.execute(f'SET search_path TO "{schema}"')
            db.execute("CREATE TABLE refuse_commits (id int)")
            db.execute("CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                       "IF EXISTS (SELECT 1 FROM refuse_commits) THEN RAISE EXCEPTION 'refused for the test'; "
                       "END IF; RETURN NULL; END $$")
            db.execute("CREATE CONSTRAINT TRIGGER refuse AFTER INSERT ON records DEFERRABLE INITIALLY DEFERRED "
                       "FOR EACH ROW EXECUTE FUNCTION refuse()")
            db.execute("INSERT INTO refuse_commits VALUES (1)")
            try:
                before = [referee(server.store, mid).cursor for mid, _, _ in tables]
                engine.executor.submit(gate.wait)
                sent = [asyncio.ensure_future(a.play(a.legal[0])) for _, a, _ in tables]
                await _until(lambda: len(engine.queue) == len(tables))
                gate.set()
                refused = await asyncio.gather(*sent, return_exceptions=True)
                assert all(isinstance(r, ClientError) and r.code == "store_error" for r in refused), refused
                assert [referee(server.store, mid).cursor for mid, _, _ in tables] == before
                for (_, a, b), cursor in zip(tables, before, strict=True):  # nobody was told of the command
                    await a.sync()
                    await b.sync()
                    assert a.cursor == b.cursor == cursor and a.legal and not b.legal
                # a command refused inside a group whose commit fails is answered too (its refusal was
                # among what the failed group did not send)
                before = [referee(server.store, mid).cursor for mid, _, _ in tables]
                gate.clear()
                engine.executor.submit(gate.wait)
                sent = [asyncio.ensure_future(a.play(a.legal[0])) for _, a, _ in tables[:2]]
                _, a, b = tables[2]
                sent.append(asyncio.ensure_future(b.play(a.legal[0])))  # not b's turn: refused in the group
                await _until(lambda: len(engine.queue) == len(tables))
                gate.set()
                answers = await asyncio.wait_for(asyncio.gather(*sent, return_exceptions=True), 60)
                assert all(isinstance(r, ClientError) for r in answers), answers
                assert [referee(server.store, mid).cursor for mid, _, _ in tables] == before
                db.execute("DELETE FROM refuse_commits")
                for _, a, b in tables:
                    await a.sync()
                    await b.sync()
                played = await asyncio.gather(*(a.play(a.legal[0]) for _, a, _ in tables))
                assert [u["cursor"] for u in played] == [c + 1 for c in before]
                assert [referee(server.store, mid).cursor for mid, _, _ in tables] == [c + 1 for c in before]
            finally:
                gate.set()
                for _, a, b in tables:
                    await a.close()
                    await b.close()

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="thread names for the system: Linux's prctl")
def test_engine_threads_carry_their_name_for_the_system_too(server: ThreadServer) -> None:
    # what tools outside the process see (top -H, /proc): benchmarks/server_load.py splits the CPU time by it
    engine = server.meeple.hub.engine_of("any")
    tid = engine.executor.submit(threading.get_native_id).result(timeout=60)
    assert Path(f"/proc/self/task/{tid}/comm").read_text().strip() == f"meeple-engine-{engine.index}"
    assert Path(f"/proc/self/task/{threading.get_native_id()}/comm").read_text().strip() != "meeple-engine-0"
