"""Group commit: commands of many matches that arrive together share one store transaction.

The engine thread is held busy while commands arrive, so that they are
certain to be waiting together; then each must be acknowledged only after
the one commit that stores them all.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

from serverkit import ThreadServer, referee

from meeple.server.client import Seat

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
