"""What a client is told of the clock: every running clock, and which records the fallback bot played.

A person out of time has a move played for them (docs/protocol.md,
"Clock"); the record of that move says so (``by_clock``) in the ``update``
and in every later ``sync``, and no other record does. Every connection
sees whose clocks run (``clock.running``), a seat its own time too.
"""

from __future__ import annotations

import asyncio
from typing import Any

from serverkit import ThreadServer

from meeple.server.client import Seat


def test_a_record_the_clock_played_is_marked_for_everyone_and_others_are_not(small_server: ThreadServer) -> None:
    lobby = small_server.lobby
    m = lobby.create(game="liars-dice", seats=2, bots={"1": "random"}, clock=0.3, fallback_bot="random")
    joined = lobby.join(m["id"], seat=0)

    async def scenario() -> None:
        async with await Seat.connect(lobby.ws_url(joined), joined["token"]) as me:
            if me.clock is not None and me.clock["remaining"] is not None:  # seat 0 is to act: its clock runs
                assert me.clock["running"] == [{"seat": 0, "remaining": me.clock["remaining"]}]
            timed: dict[str, Any] = await me.next_of("update")
            while timed["cause"] != "clock":
                assert all("by_clock" not in r for r in timed["records"]), timed  # a bot's move is its own
                timed = await me.next_of("update")
            assert timed["by"] == 0
            first, *rest = timed["records"]
            assert first["actor"] == 0 and first["by_clock"] is True
            assert all("by_clock" not in r for r in rest)  # the engine's steps after it are not the clock's
            async with await Seat.connect(lobby.ws_url(m["id"]), lang="ru") as watcher:
                marked = [r for r in watcher.records if r.get("by_clock")]
                assert first["seq"] in [r["seq"] for r in marked]
                assert all(r["actor"] == 0 and r["by_clock"] is True for r in marked)
                assert len(marked) < len(watcher.records)
                clock = watcher.clock
                assert clock is not None and clock["limit"] == 0.3 and clock["remaining"] is None  # a spectator
                assert all(c["seat"] == 0 and 0 <= c["remaining"] <= 0.3 for c in clock["running"])

    asyncio.run(scenario())


def test_a_match_without_a_clock_sends_none_and_marks_nothing(small_server: ThreadServer) -> None:
    lobby = small_server.lobby
    m = lobby.create(game="liars-dice", seats=2, bots={"0": "random", "1": "random"})

    async def scenario() -> None:
        async with await Seat.connect(lobby.ws_url(m["id"])) as watcher:
            await watcher.until(lambda s: s.cursor >= 3, timeout=30)
            assert watcher.clock is None
            assert all("by_clock" not in r for r in watcher.records)

    asyncio.run(scenario())
