"""The memory budget of hosted matches: idle ones are dropped and read again on demand; unjoined ones are capped."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from serverkit import ThreadServer, referee

from meeple.server import Limits
from meeple.server.client import ClientError, Seat
from meeple.server.table import RECORD_BYTES, TABLE_BYTES

MATCHES = 12
#: room for about three small Liar's Dice tables
BUDGET = 3 * (TABLE_BYTES + 4 * RECORD_BYTES)


@pytest.fixture
def tight(store_path: str) -> Iterator[ThreadServer]:
    """A server whose memory budget holds a few matches, and which takes three unjoined matches at most."""
    s = ThreadServer(store_path, limits=Limits(max_hosted_bytes=BUDGET, max_unjoined=3))
    yield s
    s.stop()


async def _until(check: Callable[[], bool], timeout: float = 60.0) -> None:
    """Wait until ``check()`` holds (a state: the deadline only stops a hung test)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the state never came"
        await asyncio.sleep(0.005)


def _hosted(server: ThreadServer) -> int:
    hub: Any = server.meeple.hub
    return len(hub.engine_of("any").tables)


def test_idle_matches_beyond_the_budget_leave_memory_and_play_on_after_a_reload(tight: ThreadServer) -> None:
    lobby = tight.lobby

    async def scenario() -> None:
        played: list[tuple[str, dict[str, Any], dict[str, Any], int]] = []
        for _ in range(MATCHES):
            m = await asyncio.to_thread(lobby.create, game="liars-dice", seats=2, options={"dice": 3})
            a, b = [await asyncio.to_thread(lobby.join, m["id"], s) for s in range(2)]
            seat = await Seat.connect(lobby.ws_url(a), a["token"])
            update = await seat.play(seat.legal[0])
            await seat.close()
            played.append((m["id"], a, b, update["cursor"]))
            await _until(lambda: _hosted(tight) <= 4)  # the budget's three, and the one just used
        # the first match left memory long ago; its players come back and go on
        mid, a, b, cursor = played[0]
        first = await Seat.connect(lobby.ws_url(a), a["token"])
        second = await Seat.connect(lobby.ws_url(b), b["token"])
        try:
            assert first.cursor == second.cursor == cursor and second.legal
            update = await second.play(second.legal[0])
            assert update["cursor"] == cursor + 1 == referee(tight.store, mid).cursor
            await first.until(lambda s: s.cursor == cursor + 1 and bool(s.legal), 60)
        finally:
            await first.close()
            await second.close()

    asyncio.run(scenario())


def test_matches_nobody_joined_are_capped_until_one_is_joined(tight: ThreadServer) -> None:
    lobby = tight.lobby
    made = [lobby.create(game="liars-dice", seats=2) for _ in range(3)]
    with pytest.raises(ClientError) as refused:
        lobby.create(game="liars-dice", seats=2)
    assert refused.value.code == "too_many_open_matches" and "join one" in refused.value.message
    lobby.create(game="liars-dice", seats=2, bots={"0": "random", "1": "random"})  # nobody to wait for
    lobby.join(made[0]["id"], 0)
    lobby.create(game="liars-dice", seats=2)  # a place was freed
