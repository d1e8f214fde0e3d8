"""Every refusal over WebSocket: a specific code and message to that client only; the match and the others go on."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets
from serverkit import ThreadServer, referee

from meeple.server import ErrorCode
from meeple.server.client import ClientError, Seat


async def _raw(url: str) -> Any:
    return await websockets.connect(url, max_size=None)


async def _error_of(ws: Any, message: str | bytes) -> dict[str, Any]:
    await ws.send(message)
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if msg["type"] == "error":
            return msg


def test_refusals_name_their_code_and_leave_the_match_and_the_other_clients_alone(small_server: ThreadServer) -> None:
    server = small_server
    lobby = server.lobby
    m = lobby.create(game="liars-dice", seats=2, options={"dice": 2})
    me, other = lobby.join(m["id"], seat=0), lobby.join(m["id"], seat=1)

    async def scenario() -> None:
        a = await Seat.connect(lobby.ws_url(me), me["token"])
        b = await Seat.connect(lobby.ws_url(other), other["token"])
        watcher = await Seat.connect(lobby.ws_url(m["id"]))
        try:
            with pytest.raises(ClientError) as e:
                await b.play({"type": "bid", "quantity": 1, "face": 1}, cursor=b.cursor)
            assert e.value.code == "not_your_turn"
            await b.sync()
            seen_by_b = len(b.received)
            codes = {}
            for name, message in [
                ("bad_json", "{not json"),
                ("not_object", "[1, 2]"),
                ("binary", b"\x00\x01"),
                ("too_large", json.dumps({"type": "sync", "id": "x" * 100, "pad": "y" * 3000})),
                ("deep", "[" * 1020 + "]" * 1020),
                ("unknown_type", json.dumps({"type": "teleport"})),
                ("extra_field", json.dumps({"type": "sync", "cheat": True})),
                ("missing_field", json.dumps({"type": "play", "command": {"type": "liar"}})),
                ("bad_cursor", json.dumps({"type": "undo", "cursor": "one"})),
                ("second_hello", json.dumps({"type": "hello"})),
            ]:
                codes[name] = (await _error_of(a.socket, message))["code"]
            assert codes == {
                "bad_json": "bad_json", "not_object": "bad_json", "binary": "bad_json", "too_large": "too_large",
                "deep": "bad_json", "unknown_type": "bad_message", "extra_field": "bad_message",
                "missing_field": "bad_message", "bad_cursor": "bad_message", "second_hello": "hello_first",
            }
            # refusals of the rules and of the protocol, at the right cursor
            with pytest.raises(ClientError) as e:
                await a.play({"type": "liar"})
            assert e.value.code == "illegal_command" and e.value.body["reason"] == "rule" and "bid" in e.value.message
            with pytest.raises(ClientError) as e:
                await a.play({"type": "bid", "quantity": 99, "face": 1})
            assert e.value.code == "illegal_command" and e.value.body["reason"] == "bad_argument"
            with pytest.raises(ClientError) as e:
                await a.play({"type": "bid", "quantity": "two", "face": 1})
            assert e.value.code == "bad_command" and e.value.body["path"] == "command.quantity"
            with pytest.raises(ClientError) as e:
                await a.play({"type": "bid", "quantity": 2})
            assert e.value.code == "bad_command" and e.value.body["path"] == "command.face"
            with pytest.raises(ClientError) as e:
                await a.play({"type": "roll"})  # the engine's own command: decodes, and the rules refuse it
            assert e.value.code == "illegal_command"
            with pytest.raises(ClientError) as e:
                await watcher.play({"type": "liar"})
            assert e.value.code == "spectator"
            with pytest.raises(ClientError) as e:
                await watcher.undo()
            assert e.value.code == "spectator"
            with pytest.raises(ClientError) as e:
                await a.undo()
            assert e.value.code == "undo_refused" and e.value.body["reason"] == "nothing_to_undo"
            # the socket still works, the match did not move, and seat 1 heard nothing of it
            assert referee(server.store, m["id"]).cursor == 1
            await a.play(a.legal[0])
            await b.sync()
            heard = [json.loads(t)["type"] for t in b.received[seen_by_b:]]
            assert heard == ["update", "sync"]
        finally:
            for s in (a, b, watcher):
                await s.close()

    asyncio.run(scenario())


def test_hello_refusals_close_the_socket_with_their_code(small_server: ThreadServer) -> None:
    server = small_server
    lobby = server.lobby
    m = lobby.create(game="kings", seats=2)

    async def refused(url: str, first: str | None) -> tuple[dict[str, Any] | None, int | None]:
        ws = await _raw(url)
        if first is not None:
            await ws.send(first)
        error = None
        try:
            async for text in ws:
                msg = json.loads(text)
                if msg["type"] == "error":
                    error = msg
        except websockets.ConnectionClosed:
            pass
        return error, ws.close_code

    async def scenario() -> None:
        url = lobby.ws_url(m["id"])
        error, code = await refused(url, json.dumps({"type": "hello", "token": "guessed"}))
        assert error is not None and error["code"] == ErrorCode.BAD_TOKEN and code == 4401
        error, code = await refused(lobby.ws_url("no-such-match"), json.dumps({"type": "hello"}))
        assert error is not None and error["code"] == ErrorCode.UNKNOWN_MATCH and code == 4404
        error, code = await refused(url, json.dumps({"type": "sync"}))
        assert error is not None and error["code"] == ErrorCode.HELLO_FIRST and code == 4408
        error, code = await refused(url, json.dumps({"type": "hello", "protocol": 99}))
        assert error is not None and error["code"] == ErrorCode.BAD_VERSION and code == 4426
        error, code = await refused(url, None)  # says nothing: the hello timeout (1 s here)
        assert error is not None and error["code"] == ErrorCode.HELLO_FIRST and code == 4408
        error, code = await refused(url, "{")
        assert error is not None and error["code"] == ErrorCode.BAD_JSON and code == 4408

    asyncio.run(scenario())
    assert lobby.match(m["id"])["cursor"] == 1  # nothing reached the match


def test_a_token_of_another_match_is_a_bad_token(server: ThreadServer) -> None:
    lobby = server.lobby
    one, two = lobby.create(game="kings", seats=2), lobby.create(game="kings", seats=2)
    joined = lobby.join(one["id"])

    async def scenario() -> None:
        with pytest.raises(ClientError) as e:
            await Seat.connect(lobby.ws_url(two["id"]), joined["token"])
        assert e.value.code == "bad_token"

    asyncio.run(scenario())
