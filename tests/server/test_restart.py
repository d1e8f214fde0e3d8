"""The store is the truth: kill -9 the server mid-match, restart it, and nothing acknowledged is gone."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest
from serverkit import ProcessServer, ThreadServer, referee

from meeple.engine import wire_for
from meeple.server.client import ClientError, Seat, autoplay

pytestmark = pytest.mark.slow  # server processes killed and started again


def test_kill_9_mid_match_loses_no_acknowledged_command_and_clients_resume(store_path: str) -> None:
    first = ProcessServer(store_path)
    lobby = first.lobby
    # low bids only: a long match (180 possible bids), so the kill comes mid-match
    m = lobby.create(game="liars-dice", seats=2, options={"dice": 5, "sides": 12})
    joined = [lobby.join(m["id"], seat=s) for s in (0, 1)]
    acknowledged: list[dict[str, Any]] = []  # every update a client got in answer to its own command

    async def until_killed() -> list[tuple[int, str, list[dict[str, Any]]]]:
        seats = [await Seat.connect(lobby.ws_url(j), j["token"]) for j in joined]
        rng = random.Random(3)
        killed = False

        async def player(seat: Seat) -> None:
            while not killed:
                if not seat.legal:
                    try:
                        await seat.next(timeout=10)
                    except Exception:
                        return
                    continue
                try:
                    update = await seat.play(rng.choice(seat.legal[:3]), timeout=10)
                    acknowledged.append(update)
                except ClientError:
                    continue
                except Exception:  # the server is gone
                    return

        tasks = [asyncio.ensure_future(player(s)) for s in seats]
        deadline = time.monotonic() + 60
        while len(acknowledged) < 12:
            assert time.monotonic() < deadline and not all(t.done() for t in tasks), "the match stalled"
            await asyncio.sleep(0.01)
        first.kill()  # SIGKILL while commands are in flight
        killed = True
        await asyncio.gather(*tasks)
        kept = [(s.cursor, s.head, s.records) for s in seats]
        for s in seats:
            s.socket.transport.abort()
        return kept

    kept = asyncio.run(until_killed())
    stored = referee(store_path, m["id"])
    wire = wire_for(stored.game)
    for update in acknowledged:  # each acknowledged command is in the store, exactly as the client was told
        for rec in update["records"]:
            assert rec["seq"] < stored.cursor
            told = {k: v for k, v in rec.items() if k != "text"}  # the text is what a player reads of it
            assert wire.record(stored.records_for(rec["actor"], rec["seq"])[0]) == told

    second = ProcessServer(store_path, first.port)
    try:
        assert second.lobby.match(m["id"])["status"] == "in_progress"

        async def resume() -> None:
            seats = []
            for j, (cursor, head, records) in zip(joined, kept):
                s = await Seat.connect(second.lobby.ws_url(j), j["token"], records=records, head=head)
                sync = json.loads(s.received[0])
                assert sync["from"] == cursor  # the store holds the branch the client saw: a delta
                seats.append(s)
            rng = random.Random(4)
            try:
                await asyncio.wait_for(asyncio.gather(*(autoplay(s, lambda s: rng.choice(s.legal)) for s in seats)), 120)
            finally:
                for s in seats:
                    await s.close()

        asyncio.run(resume())
        final = referee(store_path, m["id"])
        assert final.is_over
        assert [r.command for r in final.records[: stored.cursor]] == [r.command for r in stored.records]
    finally:
        second.stop()


def test_a_restarted_server_rebuilds_its_matches_tokens_and_undo_position(store_path: str) -> None:
    first = ThreadServer(store_path)
    lobby = first.lobby
    m = lobby.create(game="liars-dice", seats=2, options={"dice": 2})
    joined = [lobby.join(m["id"], seat=s) for s in (0, 1)]

    async def before() -> tuple[int, list[dict[str, Any]]]:
        a = await Seat.connect(lobby.ws_url(joined[0]), joined[0]["token"])
        b = await Seat.connect(lobby.ws_url(joined[1]), joined[1]["token"])
        try:
            await a.play(a.legal[0])
            await b.next_of("update")
            await b.play(b.legal[0])
            await a.next_of("update")
            bid = a.legal[2]
            await a.play(bid)
            await a.undo()  # the undone bid stays in the store, for redo
            return a.cursor, a.records
        finally:
            await a.close()
            await b.close()

    cursor, records = asyncio.run(before())
    first.stop()
    second = ThreadServer(store_path)
    try:
        async def after() -> None:
            a = await Seat.connect(second.lobby.ws_url(joined[0]), joined[0]["token"])
            try:
                assert a.cursor == cursor and a.records == records and a.can_redo
                redone = await a.redo()
                assert redone["cause"] == "redo" and a.cursor == cursor + 1
            finally:
                await a.close()

        asyncio.run(after())
    finally:
        second.stop()
    third = ThreadServer(store_path)  # after the redo the position is the store's end again
    try:
        assert third.lobby.match(m["id"])["cursor"] == cursor + 1
    finally:
        third.stop()


def test_an_undo_then_a_new_command_then_a_crash_keeps_the_new_command(store_path: str) -> None:
    first = ProcessServer(store_path)
    lobby = first.lobby
    m = lobby.create(game="liars-dice", seats=2, options={"dice": 2})
    joined = [lobby.join(m["id"], seat=s) for s in (0, 1)]

    async def play() -> dict[str, Any]:
        a = await Seat.connect(lobby.ws_url(joined[0]), joined[0]["token"])
        try:
            await a.play(a.legal[0])
            await a.undo()
            return await a.play(a.legal[1])
        finally:
            await a.close()

    update = asyncio.run(play())
    first.kill()
    second = ProcessServer(store_path, first.port)
    try:
        described = second.lobby.match(m["id"])
        assert described["cursor"] == update["cursor"]
        stored = referee(store_path, m["id"])
        told = {k: v for k, v in update["records"][0].items() if k != "text"}
        assert wire_for(stored.game).record(stored.records_for(0, 1)[0]) == told
    finally:
        second.stop()


def test_bots_pick_up_where_they_were_after_a_restart(store_path: str) -> None:
    first = ThreadServer(store_path, bot_delay=0.05)
    m = first.lobby.create(game="kings", seats=2, bots={"0": "random", "1": "random"})
    deadline = time.monotonic() + 30
    while first.lobby.match(m["id"])["cursor"] < 5:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    first.stop()
    assert not referee(store_path, m["id"]).is_over
    second = ThreadServer(store_path)
    try:
        deadline = time.monotonic() + 60
        while second.lobby.match(m["id"])["status"] != "over":
            assert time.monotonic() < deadline, "the bots did not finish the match after the restart"
            time.sleep(0.05)
    finally:
        second.stop()
