"""Play over WebSocket: sync, deltas, stale cursors, undo and redo seen by all, races, reconnects, clocks."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import pytest
from serverkit import ThreadServer, referee

from meeple.engine import wire_for
from meeple.server.client import ClientError, Seat


async def _dice(server: ThreadServer, seats: int = 2, **spec: Any) -> tuple[str, list[Seat], Seat]:
    """A Liar's Dice match (bids draw nothing, so they can be undone), every seat joined and connected."""
    lobby = server.lobby
    m = lobby.create(game="liars-dice", seats=seats, options={"dice": 3}, **spec)
    joined = [lobby.join(m["id"], seat=s) for s in range(seats)]
    players = [await Seat.connect(lobby.ws_url(j), j["token"]) for j in joined]
    watcher = await Seat.connect(lobby.ws_url(m["id"]))
    return m["id"], players, watcher


async def _drain(seat: Seat) -> None:
    """Read until the server has answered a sync request: everything sent before it has arrived."""
    await seat.sync()


def test_hello_gives_the_view_legal_commands_cursor_and_head(server: ThreadServer) -> None:
    async def scenario() -> None:
        mid, (a, b), watcher = await _dice(server)
        try:
            first = json.loads(a.received[0])
            assert first["type"] == "sync" and first["seat"] == 0 and first["match"] == mid
            assert first["cursor"] == 1 and first["from"] == 0 and len(first["records"]) == 1  # the roll
            assert len(first["head"]) == 32 and first["legal"] and first["view"]["my_dice"]
            assert b.legal == [] and b.seat == 1  # not seat 1's turn
            assert watcher.seat is None and watcher.view["my_dice"] == [] and watcher.legal == []
            assert {a.head, b.head, watcher.head} == {a.head}
        finally:
            for s in (a, b, watcher):
                await s.close()

    asyncio.run(scenario())


def test_every_client_gets_the_new_records_as_its_seat_sees_them(server: ThreadServer) -> None:
    async def scenario() -> None:
        _, (a, b), watcher = await _dice(server)
        try:
            update = await a.play(a.legal[3])
            assert update["type"] == "update" and update["cause"] == "play" and update["by"] == 0
            assert update["from"] == 1 and [r["seq"] for r in update["records"]] == [1]
            for other in (b, watcher):
                msg = await other.next_of("update")
                assert msg["from"] == 1 and "ref" not in msg
                assert msg["records"] == update["records"]  # a bid is public
            assert b.legal and a.legal == []
            # the roll, as each seat sees it: its own dice, nobody else's
            rolls = [a.records[0]["events"], b.records[0]["events"], watcher.records[0]["events"]]
            assert rolls[0][0]["dice"] and rolls[0][1]["dice"] is None
            assert rolls[1][0]["dice"] is None and rolls[1][1]["dice"]
            assert rolls[2][0]["dice"] is None and rolls[2][1]["dice"] is None
        finally:
            for s in (a, b, watcher):
                await s.close()

    asyncio.run(scenario())


def test_a_stale_cursor_is_refused_and_changes_nothing(server: ThreadServer) -> None:
    async def scenario() -> None:
        mid, (a, b), watcher = await _dice(server)
        try:
            await a.play(a.legal[0])
            await b.next_of("update")
            old = b.cursor
            await b.play(b.legal[0])
            await a.next_of("update")
            with pytest.raises(ClientError) as e:
                await a.play(a.legal[0], cursor=old)  # decided on a position that is gone
            assert e.value.code == "stale_cursor"
            assert e.value.body["cursor"] == old + 1 and e.value.body["head"] == a.head
            await _drain(watcher)
            assert referee(server.store, mid).cursor == old + 1
            assert [json.loads(t)["type"] for t in watcher.received].count("update") == 2
        finally:
            for s in (a, b, watcher):
                await s.close()

    asyncio.run(scenario())


def test_undo_and_redo_are_seen_by_everyone(server: ThreadServer) -> None:
    async def scenario() -> None:
        mid, (a, b), watcher = await _dice(server)
        try:
            bid = a.legal[2]
            await a.play(bid)
            for s in (b, watcher):
                await s.next_of("update")
            assert a.undo_check["ok"] and not b.undo_check["ok"]
            assert "seat 0" in b.undo_check["reason"]
            rewind = await a.undo()
            assert rewind["type"] == "rewind" and rewind["cause"] == "undo" and rewind["by"] == 0
            assert rewind["cursor"] == 1 and a.records and len(a.records) == 1
            for s in (b, watcher):
                msg = await s.next_of("rewind")
                assert msg["cursor"] == 1 and len(s.records) == 1
            assert a.legal and a.can_redo and not b.can_redo
            with pytest.raises(ClientError) as e:
                await b.redo()
            assert e.value.code == "redo_refused"
            redo = await a.redo()
            assert redo["type"] == "update" and redo["cause"] == "redo" and redo["records"][0]["command"] == bid
            for s in (b, watcher):
                msg = await s.next_of("update")
                assert msg["cause"] == "redo" and len(s.records) == 2
            with pytest.raises(ClientError) as e:
                await b.undo()  # seat 0 played last
            assert e.value.code == "undo_refused" and e.value.body["reason"] == "undo_barrier"
            assert referee(server.store, mid).records[-1].command == wire_for(referee(server.store, mid).game).command(bid)
        finally:
            for s in (a, b, watcher):
                await s.close()

    asyncio.run(scenario())


def test_a_new_command_after_undo_replaces_the_undone_branch_for_everyone(server: ThreadServer) -> None:
    async def scenario() -> None:
        mid, (a, b), watcher = await _dice(server)
        try:
            first, second = a.legal[0], a.legal[5]
            await a.play(first)
            await a.undo()
            update = await a.play(second)
            assert update["from"] == 1 and update["records"][0]["command"] == second
            for s in (b, watcher):
                await _drain(s)
                assert [r["command"] for r in s.records[1:]] == [second] and not s.can_redo
            stored = referee(server.store, mid)
            assert len(stored.records) == 2 and not stored.can_redo()
        finally:
            for s in (a, b, watcher):
                await s.close()

    asyncio.run(scenario())


def test_player_undo_stops_at_an_information_barrier(server: ThreadServer) -> None:
    lobby = server.lobby
    m = lobby.create(game="saboteur", seats=3)
    joined = [lobby.join(m["id"], seat=s) for s in range(3)]

    async def scenario() -> None:
        seats = [await Seat.connect(lobby.ws_url(j), j["token"]) for j in joined]
        try:
            (me,) = [s for s in seats if s.legal]
            path = next(c for c in me.legal if c["type"] == "path")
            await me.play(path)  # the seat draws a card: randomness, and a card it now knows
            assert not me.undo_check["ok"] and "barrier" in me.undo_check["reason"]
            with pytest.raises(ClientError) as e:
                await me.undo()
            assert e.value.code == "undo_refused" and e.value.body["reason"] == "undo_barrier"
        finally:
            for s in seats:
                await s.close()

    asyncio.run(scenario())


def test_no_seat_undoes_the_command_that_ended_the_match(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    import liars_dice as ld

    monkeypatch.setattr(ld.LiarCalled, "barrier", False)  # only the outcome stops an undo of the call now

    async def scenario() -> None:
        mid, (a, b), watcher = await _dice(server)
        try:
            await a.play(a.legal[0])
            await b.next_of("update")
            (call,) = [c for c in b.legal if c["type"] == "liar"]
            await b.play(call)
            assert b.view["revealed"] is not None  # every die is shown
            assert not b.undo_check["ok"] and "over" in b.undo_check["reason"]
            with pytest.raises(ClientError) as e:
                await b.undo()
            assert e.value.code == "undo_refused" and e.value.body["reason"] == "undo_barrier"
            assert referee(server.store, mid).is_over
        finally:
            for s in (a, b, watcher):
                await s.close()

    asyncio.run(scenario())


def test_two_connections_of_one_seat_race_and_exactly_one_command_wins(server: ThreadServer) -> None:
    lobby = server.lobby
    m = lobby.create(game="liars-dice", seats=2, options={"dice": 2})
    joined = lobby.join(m["id"], seat=0)
    lobby.join(m["id"], seat=1)

    async def scenario() -> None:
        one = await Seat.connect(lobby.ws_url(joined), joined["token"])
        two = await Seat.connect(lobby.ws_url(joined), joined["token"])
        try:
            cursor = one.cursor
            await asyncio.gather(
                one.send({"type": "play", "id": "one", "cursor": cursor, "command": one.legal[0]}),
                two.send({"type": "play", "id": "two", "cursor": cursor, "command": two.legal[4]}),
            )
            outcomes: dict[str, str] = {}
            for conn, ref in ((one, "one"), (two, "two")):
                while ref not in outcomes:
                    msg = await conn.next()
                    if msg.get("ref") == ref:
                        outcomes[ref] = msg["type"] if msg["type"] != "error" else msg["code"]
            assert sorted(outcomes.values()) == ["stale_cursor", "update"]
            await _drain(one)
            await _drain(two)
            assert one.records == two.records and one.cursor == two.cursor == cursor + 1
            assert referee(server.store, m["id"]).cursor == cursor + 1
        finally:
            await one.close()
            await two.close()

    asyncio.run(scenario())


def test_reconnecting_with_the_token_resumes_the_seat_from_its_cursor(server: ThreadServer) -> None:
    async def scenario() -> None:
        lobby = server.lobby
        m = lobby.create(game="liars-dice", seats=3, options={"dice": 2})
        joined = [lobby.join(m["id"], seat=s) for s in range(3)]
        seats = [await Seat.connect(lobby.ws_url(j), j["token"]) for j in joined]
        try:
            await seats[0].play(seats[0].legal[0])
            await seats[2].until(lambda s: s.cursor == 2)
            cursor, head, records = seats[2].cursor, seats[2].head, list(seats[2].records)
            seats[2].socket.transport.abort()  # the network drops: no close handshake
            await seats[1].until(lambda s: bool(s.legal))
            await seats[1].play(seats[1].legal[0])
            back = await Seat.connect(lobby.ws_url(joined[2]), joined[2]["token"], records=records, head=head)
            hello = json.loads(back.received[0])
            assert back.seat == 2 and hello["from"] == cursor and len(hello["records"]) == 1  # the delta only
            whole = await Seat.connect(lobby.ws_url(joined[2]), joined[2]["token"])
            assert json.loads(whole.received[0])["from"] == 0
            assert back.records == whole.records and back.view == whole.view and back.legal == whole.legal
            await back.play(back.legal[0])
            await whole.close()
            seats[2] = back
        finally:
            for s in seats:
                await s.close()

    asyncio.run(scenario())


def test_a_head_from_another_branch_gets_the_whole_history(server: ThreadServer) -> None:
    async def scenario() -> None:
        mid, (a, b), watcher = await _dice(server)
        try:
            await a.play(a.legal[0])
            await b.next_of("update")
            await watcher.next_of("update")
            cursor, head, held = watcher.cursor, watcher.head, list(watcher.records)
            await a.undo()
            await a.play(a.legal[1])  # same cursor as before, another branch
            again = await Seat.connect(server.lobby.ws_url(mid), records=held, head=head)
            assert json.loads(again.received[0])["from"] == 0 and again.cursor == cursor
            await watcher.sync()
            assert again.records == watcher.records != held
            await again.close()
        finally:
            for s in (a, b, watcher):
                await s.close()

    asyncio.run(scenario())


def test_the_clock_moves_for_a_seat_out_of_time_visibly(small_server: ThreadServer) -> None:
    server = small_server
    lobby = server.lobby
    m = lobby.create(game="liars-dice", seats=2, clock=0.3, fallback_bot="random")
    assert m["clock"] == 0.3 and m["fallback_bot"] == "random"

    async def scenario() -> None:
        watcher = await Seat.connect(lobby.ws_url(m["id"]))
        try:
            with pytest.raises(TimeoutError):  # nobody joined seat 0: its clock does not run
                await watcher.until(lambda s: s.cursor > 1, timeout=0.8)
            joined = lobby.join(m["id"], seat=0)
            async with await Seat.connect(lobby.ws_url(joined), joined["token"]) as idle:
                assert idle.clock is not None and idle.clock["limit"] == 0.3
                assert idle.clock["remaining"] is not None and 0 < idle.clock["remaining"] <= 0.3
                started = time.monotonic()
                msg = await idle.next_of("update", timeout=5)
                assert time.monotonic() - started >= 0.2
                assert msg["cause"] == "clock" and msg["by"] == 0
                assert msg["records"][0]["actor"] == 0  # an ordinary command of seat 0
                assert idle.clock["remaining"] is None  # no longer its turn
            await watcher.until(lambda s: s.cursor == 2, timeout=5)
            assert watcher.records[-1]["actor"] == 0
        finally:
            await watcher.close()

    asyncio.run(scenario())


def test_a_client_that_never_reads_does_not_hold_up_the_match(store_path: str) -> None:
    from meeple.server import Limits

    server = ThreadServer(store_path, limits=Limits(outbox=4))
    try:
        lobby = server.lobby
        m = lobby.create(game="kings", seats=3, bots={"1": "random", "2": "random"})
        joined = lobby.join(m["id"], seat=0)

        async def scenario() -> None:
            import websockets

            sleeper = await websockets.connect(lobby.ws_url(m["id"]), max_queue=1, max_size=None)
            await sleeper.send(json.dumps({"type": "hello"}))
            try:
                async with await Seat.connect(lobby.ws_url(joined), joined["token"]) as me:
                    while me.outcome is None:
                        if me.legal:
                            await me.play(me.legal[0])
                        else:
                            await me.next(timeout=30)
            finally:
                sleeper.transport.abort()

        asyncio.run(scenario())
    finally:
        server.stop()


def test_a_client_whose_queue_overflows_is_dropped_and_told_why() -> None:
    from meeple.server.connection import Client

    async def scenario() -> list[Any]:
        dropped: list[Client] = []
        client = Client(asyncio.get_running_loop(), 3, dropped.append)
        for n in range(5):
            client.send(f"message {n}")
        await asyncio.sleep(0)  # the sends are queued on the loop, in order
        return [client.queue.qsize(), client.closed, dropped == [client]]

    assert asyncio.run(scenario()) == [3, True, True]


def _paced(server: ThreadServer) -> tuple[list[float], threading.Event]:
    """Put the bots' pace on a stopped clock and a gate: the waits asked for, and the event that ends them."""
    waits: list[float] = []
    release = threading.Event()

    async def gate(seconds: float) -> None:
        waits.append(seconds)
        while not release.is_set():  # the gate opens when the test says so, not after a time
            await asyncio.sleep(0.005)

    bots = server.meeple.hub.bots
    bots.clock, bots.wait = (lambda: 1000.0), gate
    return waits, release


@pytest.mark.parametrize("pace", [30.0, 0.0])
def test_a_bot_moves_after_the_persons_command_is_acknowledged_and_the_pace(store_path: str, pace: float) -> None:
    server = ThreadServer(store_path, bot_delay=pace)
    waits, release = _paced(server)
    try:
        m = server.lobby.create(game="liars-dice", seats=2, options={"dice": 3}, bots={"1": "random"})
        joined = server.lobby.join(m["id"], seat=0)

        async def scenario() -> None:
            async with await Seat.connect(server.lobby.ws_url(joined), joined["token"]) as me:
                mine = await me.play(me.legal[0])
                assert mine["cause"] == "play" and mine["by"] == 0 and me.cursor == 2
                if pace:
                    for _ in range(2000):  # the bot has chosen, and waits for its turn to come
                        if waits:
                            break
                        await asyncio.sleep(0.005)
                    assert waits == [pace]  # the whole pace after the position arose, on the stopped clock
                    await me.sync()
                    assert me.cursor == 2 and me.records[-1]["actor"] == 0  # nothing of the bot's yet
                    release.set()
                bot = await me.next_of("update", timeout=30)
                assert bot["cause"] == "bot" and bot["by"] == 1 and bot["from"] == 2
                assert waits == ([pace] if pace else [])  # no pace: no wait at all

        asyncio.run(scenario())
    finally:
        release.set()
        server.stop()

