"""The protocol's messages as declared in meeple.server.messages: what the server sends, and match requests."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from serverkit import ThreadServer

from meeple.server.client import ClientError, Seat
from meeple.server.messages import (
    CLIENT_MESSAGES,
    ERROR_FIELDS,
    NEW_MATCH_FIELDS,
    SERVER_MESSAGES,
    STATE_FIELDS,
    NewMatch,
)
from meeple.server.protocol import ErrorCode, Limits, ServerError

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _check_declared(text: str) -> str:
    """The message's type, after checking that it carries exactly the fields its type declares."""
    msg = json.loads(text)
    kind = msg.pop("type")
    declared = SERVER_MESSAGES[kind]
    msg.pop("ref", None)
    if kind in ("update", "rewind") and "delta" in msg:  # a delta stands for the state fields
        assert isinstance(msg.pop("delta"), list)
        declared = declared - STATE_FIELDS
    missing = declared - set(msg)
    extra = set(msg) - declared - (ERROR_FIELDS if kind == "error" else frozenset())
    assert not missing and not extra, f"{kind}: missing {sorted(missing)}, undeclared {sorted(extra)}: {text[:200]}"
    return kind


def test_every_message_a_game_sends_carries_exactly_its_declared_fields(server: ThreadServer) -> None:
    async def scenario() -> set[str]:
        lobby = server.lobby
        m = lobby.create(game="liars-dice", seats=2, options={"dice": 3})
        joined = [lobby.join(m["id"], seat=s) for s in range(2)]
        a, b = [await Seat.connect(lobby.ws_url(j), j["token"]) for j in joined]
        watcher = await Seat.connect(lobby.ws_url(m["id"]))
        try:
            await a.play(a.legal[2])
            await a.undo()
            await a.redo()
            with pytest.raises(ClientError):
                await b.play({"type": "bid"})  # does not decode: an error with a path
            with pytest.raises(ClientError):
                await b.play(b.legal[0], cursor=0)  # stale: an error with cursor and head
            await a.send({"type": "ping", "id": "p"})
            await a.next_of("pong")
            await a.send({"type": "hello", "id": 9})
            await a.next_of("error")
            for s in (a, b, watcher):
                await s.sync()
            return {_check_declared(text) for s in (a, b, watcher) for text in s.received}
        finally:
            for s in (a, b, watcher):
                await s.close()

    assert asyncio.run(scenario()) == set(SERVER_MESSAGES)


def test_every_message_type_either_way_is_in_the_protocol_page() -> None:
    page = PROTOCOL.read_text(encoding="utf-8")
    for kind in (*SERVER_MESSAGES, *CLIENT_MESSAGES):
        assert re.search(rf'`{kind}`|"type": "{kind}"', page), kind
    for name in NEW_MATCH_FIELDS:
        assert f"`{name}`" in page or f'"{name}"' in page, name


def test_each_message_type_is_built_in_the_messages_module_only() -> None:
    server = Path(__file__).resolve().parents[2] / "src" / "meeple" / "server"
    for path in server.glob("*.py"):
        if path.name not in ("messages.py", "client.py"):  # client.py is the other side: it sends a sync request
            text = path.read_text(encoding="utf-8")
            for kind in SERVER_MESSAGES:
                assert not re.search(rf'"type": ?"{kind}"', text), f"{path.name} builds a {kind} message"


def test_an_operation_runs_in_the_worker_thread_of_its_match(store_path: str) -> None:
    server = ThreadServer(store_path, engines=3)
    try:
        hub: Any = server.meeple.hub
        for _ in range(6):
            mid = server.lobby.create(game="liars-dice", seats=2)["id"]
            ran = asyncio.run_coroutine_threadsafe(hub.inspect(mid, lambda m: threading.current_thread().name),
                                                   hub._loop).result(60)
            assert ran.startswith(f"meeple-engine-{hub.engine_of(mid).index}_")
    finally:
        server.stop()


@pytest.mark.parametrize("field", sorted(NEW_MATCH_FIELDS))
def test_a_match_request_with_a_field_of_the_wrong_kind_is_refused_with_that_fields_code(field: str) -> None:
    body: dict[str, Any] = {"game": "kings", field: ["not", "this"]}
    with pytest.raises(ServerError) as e:
        NewMatch.parse(body, Limits())
    assert e.value.code is NEW_MATCH_FIELDS[field].code and e.value.message.startswith(f"{field}: ")


def test_a_match_request_holds_what_was_asked_and_a_fresh_id() -> None:
    body = {"game": "kings", "seats": 3, "bots": {"2": "random"}, "clock": 30, "name": "Ame\u0301lie"}
    first, second = NewMatch.parse(body, Limits()), NewMatch.parse(body, Limits())
    assert (first.game, first.seats, first.bots, first.clock, first.name) == ("kings", 3, {2: "random"}, 30.0, "Amélie")
    assert first.variant is None and first.fallback_bot is None and first.id != second.id
    assert NewMatch.parse({"game": "kings", "clock": None}, Limits()).clock is None
    for bad, code in (({"game": "kings", "bots": {"01": "random"}}, ErrorCode.UNKNOWN_SEAT),
                      ({"game": "kings", "bots": {"1": 7}}, ErrorCode.UNKNOWN_BOT),
                      ({"game": "kings", "clock": 10 ** 9}, ErrorCode.BAD_CONFIG),
                      ({"game": "kings", "seed": 7}, ErrorCode.BAD_MESSAGE),
                      ({"game": "kings", "variant": None}, ErrorCode.BAD_CONFIG),  # only a clock may be null
                      ({"seats": 2}, ErrorCode.BAD_MESSAGE)):
        with pytest.raises(ServerError) as e:
            NewMatch.parse(bad, Limits())
        assert e.value.code is code, bad


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                     max_leaves=10)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from([*NEW_MATCH_FIELDS, "seed"]), _json, max_size=6))
def test_any_json_object_is_a_match_request_or_a_refusal_with_a_protocol_code(body: dict[str, Any]) -> None:
    try:
        new = NewMatch.parse(body, Limits())
    except ServerError as e:
        assert isinstance(e.code, ErrorCode)
        return
    assert isinstance(new.game, str) and all(type(k) is int and isinstance(v, str) for k, v in new.bots.items())
    assert new.clock is None or Limits().min_clock <= new.clock <= Limits().max_clock


def test_a_refused_match_request_is_an_http_error_with_the_same_code(server: ThreadServer) -> None:
    r = httpx.post(server.base + "/api/matches", json={"game": "kings", "bots": {"1": ["random"]}})
    assert r.status_code == 400 and r.json()["error"]["code"] == "unknown_bot"
    assert server.lobby.matches() == []  # nothing was made


def test_every_position_message_names_the_seats_to_act_the_same_for_everyone(server: ThreadServer) -> None:
    async def scenario() -> None:
        lobby = server.lobby
        m = lobby.create(game="liars-dice", seats=2, options={"dice": 3})
        joined = [lobby.join(m["id"], seat=s) for s in range(2)]
        a, b = [await Seat.connect(lobby.ws_url(j), j["token"]) for j in joined]
        watcher = await Seat.connect(lobby.ws_url(m["id"]))
        try:
            for _ in range(3):
                mover = a if a.legal else b
                await mover.play(mover.legal[0])
                for s in (a, b, watcher):
                    while s.cursor != mover.cursor:
                        await s.next()
                # the seat with legal commands, and only it, is named, to the seats and the spectator alike
                acting = [seat for seat, s in enumerate((a, b)) if s.legal]
                assert acting and a.to_act == b.to_act == watcher.to_act == acting
        finally:
            for s in (a, b, watcher):
                await s.close()

    asyncio.run(scenario())


JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=5),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                       max_leaves=12)


@given(st.sampled_from(["update", "rewind"]), st.sampled_from(["play", "bot", "undo", "redo"]), st.none() | st.integers(0, 9),
       st.integers(0, 999), st.lists(JSONISH, max_size=3), st.integers(0, 999), st.text(max_size=8),
       st.none() | st.just('[["r",["turn"],1]]'), st.none() | st.integers() | st.text(max_size=4))
@settings(max_examples=200)
def test_a_change_put_together_from_texts_is_the_message_encoded_whole(kind: str, cause: str, by: int | None, start: int,
                                                                       records: list[Any], cursor: int, head: str,
                                                                       delta: str | None, ref: Any) -> None:
    from meeple.server.messages import answer, change, change_opening, dumps, where_members

    state = '"view":{"turn":1},"undo":{"ok":false,"reason":""},"legal":[],"legal_text":[]'
    body: dict[str, Any] = {"type": kind, "cause": cause, "by": by}
    if kind == "update":
        body |= {"from": start, "records": records}
    body |= {"cursor": cursor, "head": head}
    whole = dumps(body)  # the message as it was encoded whole, then the state or the delta spliced in
    expected = f'{whole[:-1]},"delta":{delta}}}' if delta is not None else f"{whole[:-1]},{state}}}"
    update = kind == "update"
    built = change(change_opening(kind, cause, by), where_members(cursor, head), start=start if update else None,
                   records=dumps(records) if update else None, state=state, delta=delta)
    assert built == expected
    assert change(change_opening(kind, cause, by), where_members(cursor, head), start=start if update else None,
                  records=dumps(records) if update else None, state=state, delta=delta,
                  ref=None if ref is None else dumps(ref)) == answer(expected, ref)
