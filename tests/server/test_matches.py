"""Whole matches of every bundled game (and the example game) through a real server on loopback.

Scripted seats play random legal commands over WebSockets, bots sit at some
tables, a spectator watches each; at the end every connection must hold
exactly its seat's projection of the stored match, no message may have
leaked, and the stored log must verify from its seed.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from serverkit import ThreadServer, check_table, open_table, play_out

pytestmark = pytest.mark.slow  # whole matches through real sockets

#: (game, seats, options, bots): every game, both kinds of seat, several variants.
TABLES: list[tuple[str, int, dict[str, Any], dict[str, str]]] = [
    ("saboteur", 4, {}, {"2": "heuristic"}),
    ("saboteur", 3, {"edition": "deluxe"}, {}),
    ("kings", 3, {}, {"1": "heuristic"}),
    ("gophers", 2, {"variant": "advanced"}, {}),
    ("gophers", 3, {}, {"0": "heuristic", "2": "random"}),
    ("mordred", 4, {}, {"3": "heuristic"}),
    ("liars-dice", 4, {"dice": 2}, {"1": "random"}),
]


@pytest.mark.parametrize(("game", "seats", "options", "bots"), TABLES,
                         ids=[f"{g}-{s}-{len(b)}bots" for g, s, _, b in TABLES])
def test_a_whole_match_through_real_sockets(server: ThreadServer, game: str, seats: int, options: dict[str, Any],
                                            bots: dict[str, str]) -> None:
    async def scenario() -> None:
        table = await open_table(server.lobby, game, seats, options, bots)
        try:
            played = await play_out(table, seed=seats * 31 + len(bots))
            assert played > 0
        finally:
            await table.close()
        match = check_table(table, server.store)
        assert match.is_over
        assert table.spectator is not None and table.spectator.outcome is not None
        assert server.lobby.match(table.id)["status"] == "over"

    asyncio.run(scenario())


@pytest.mark.parametrize("engines", [1, 3])
def test_several_matches_at_once_do_not_cross(store_path: str, engines: int) -> None:
    server = ThreadServer(store_path, engines=engines)  # with three, the matches are hosted by three threads

    async def scenario() -> None:
        tables = [await open_table(server.lobby, "liars-dice", 3, {"dice": 2}) for _ in range(4)]
        tables.append(await open_table(server.lobby, "kings", 2, {}, {"1": "random"}))
        tables.append(await open_table(server.lobby, "mordred", 3, {}, {"0": "random"}))
        try:
            await asyncio.gather(*(play_out(t, seed=i) for i, t in enumerate(tables)))
        finally:
            for t in tables:
                await t.close()
        for t in tables:
            check_table(t, server.store)

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


def test_bots_alone_play_a_match_to_its_end(server: ThreadServer) -> None:
    m = server.lobby.create(game="mordred", seats=3, bots={"0": "heuristic", "1": "random", "2": "heuristic"})

    async def scenario() -> None:
        from meeple.server.client import Seat

        async with await Seat.connect(server.lobby.ws_url(m["id"])) as watcher:
            await watcher.until(lambda s: s.outcome is not None, timeout=120)
            assert watcher.seat is None and watcher.legal == []

    asyncio.run(scenario())
    assert server.lobby.match(m["id"])["status"] == "over"
