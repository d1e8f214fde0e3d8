"""A server that can face the internet: what it publishes, what it parses, what one client may cost it.

Every test runs the real server (uvicorn on loopback) and speaks to it over
real sockets; docs/reliability.md lists which promise each test pins.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
from typing import Any

import httpx
import pytest
import websockets
from serverkit import ProcessServer, ThreadServer, referee

import meeple
from meeple.server.client import Seat


def error(r: httpx.Response) -> str:
    return str(r.json()["error"]["code"])


async def _play_out(server: ThreadServer, game: str, seats: int, seed: int) -> tuple[str, list[Seat]]:
    """A match of ``game`` with every seat a person's, played to its end by random choices; its id and sockets."""
    made = server.lobby.create(game=game, seats=seats)
    players = []
    for _ in range(seats):
        joined = server.lobby.join(made["id"])
        players.append(await Seat.connect(server.lobby.ws_url(joined), joined["token"]))
    rnd = random.Random(seed)
    while players[0].outcome is None:
        mover = next((p for p in players if p.legal), None)
        if mover is None:
            await players[0].next()
            continue
        await mover.play(rnd.choice(mover.legal))
        cursor = mover.cursor
        for p in players:
            await p.until(lambda s, cursor=cursor: s.cursor == cursor)
    return made["id"], players


def _open(server: ThreadServer, match_id: str) -> httpx.Response:
    return httpx.post(f"{server.base}/api/debug/logs", json={"match": match_id})


def test_a_finished_match_opens_in_the_debugger_only_once_it_can_never_change(server: ThreadServer) -> None:
    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {"refused": [], "undone": 0}
        for seed in range(8):  # gophers: the last command of a finished match is often its player's to undo
            match_id, players = await _play_out(server, "gophers", 2, seed)
            undoer = next((p for p in players if p.undo_check["ok"]), None)
            if undoer is None:
                assert _open(server, match_id).status_code == 201  # settled: it opens
                for p in players:
                    await p.close()
                continue
            assert server.lobby.match(match_id)["status"] == "over"
            r = _open(server, match_id)  # over, but a seat may undo: the referee log would be a crib sheet
            seen["refused"].append((r.status_code, error(r) if r.status_code != 201 else None))
            await undoer.undo()
            seen["undone"] += 1
            r = _open(server, match_id)
            seen["refused"].append((r.status_code, error(r) if r.status_code != 201 else None))
            await undoer.redo()
            assert server.lobby.match(match_id)["status"] == "over"
            r = _open(server, match_id)  # finished, undone and finished again: still not settled
            seen["refused"].append((r.status_code, error(r) if r.status_code != 201 else None))
            for p in players:
                await p.close()
            break
        return seen

    seen = asyncio.run(scenario())
    assert seen["undone"] == 1, "no finished match left its last command undoable: pick other seeds"
    assert seen["refused"] == [(409, "match_in_progress")] * 3


def test_a_hosted_fork_of_an_uploaded_log_continues_on_a_fresh_server_seed(server: ThreadServer) -> None:
    chosen = 8
    m = meeple.Match.start("kings", seats=2, seed=chosen)
    rnd = random.Random(1)
    while m.cursor < 40:
        m.play(m.to_act[0], rnd.choice(list(m.legal(m.to_act[0]))))
    r = httpx.post(f"{server.base}/api/debug/logs", content=m.to_bytes(),
                   headers={"Content-Type": "application/octet-stream"})
    log = r.json()["id"]
    r = httpx.post(f"{server.base}/api/debug/logs/{log}/fork", json={"at": 21, "bots": {"1": "random"}})
    assert r.status_code == 201, r.text
    hosted = referee(server.store, r.json()["id"])
    seeds = hosted.header().seeds
    assert seeds is not None and seeds[0] == (0, chosen)
    assert seeds[-1][0] == 21 and seeds[-1][1] != chosen  # from the fork point on, a seed the uploader never saw
    assert [rec.command for rec in hosted.records[:21]] == [rec.command for rec in m.records[:21]]
    r = httpx.post(f"{server.base}/api/debug/logs/{log}/fork", json={"at": 21, "new_seed": False})
    assert r.status_code == 400 and error(r) == "bad_config"


# -- input hygiene --------------------------------------------------------------------------------

AS_JSON = {"Content-Type": "application/json"}


def _store_matches(store: str) -> int:
    with contextlib.closing(sqlite3.connect(store)) as db:
        return int(db.execute("SELECT count(*) FROM matches").fetchone()[0])


@pytest.mark.parametrize("query", ["limit=\u00b2", "offset=\u00b2", "offset=99999999999999999999", "limit=\u0661",
                                   "limit=-1", "limit=1e3"])
def test_every_number_in_a_listing_is_ascii_digits_and_bounded(server: ThreadServer, query: str) -> None:
    r = httpx.get(f"{server.base}/api/matches?{query}")
    assert r.status_code == 400 and error(r) == "bad_message"


def test_the_debuggers_numbers_are_ascii_digits_and_bounded(server: ThreadServer) -> None:
    m = meeple.Match.start("kings", seats=2, seed=3)
    log = httpx.post(f"{server.base}/api/debug/logs", content=m.to_bytes(),
                     headers={"Content-Type": "application/octet-stream"}).json()["id"]
    for path, params, code in ((f"/api/debug/logs/{log}/at/0", {"as": "\u00b2"}, "unknown_seat"),
                               (f"/api/debug/logs/{log}/records", {"as": "\u00b9"}, "unknown_seat"),
                               (f"/api/debug/logs/{log}/log", {"at": "\u00b2"}, "bad_message"),
                               (f"/api/debug/logs/{log}/log", {"at": "9" * 30}, "bad_message")):
        r = httpx.get(server.base + path, params=params)
        assert r.status_code == 400 and error(r) == code, (path, params, r.text)


def test_a_lone_surrogate_is_refused_at_parse_time_and_nothing_is_half_created(server: ThreadServer) -> None:
    body = '{"game": "kings", "seats": 2, "name": "x\\ud800"}'
    r = httpx.post(f"{server.base}/api/matches", content=body, headers=AS_JSON)
    assert r.status_code == 400 and error(r) == "bad_json"
    assert _store_matches(server.store) == 0 and server.lobby.matches() == []
    made = server.lobby.create(game="kings", seats=2)
    r = httpx.post(f"{server.base}/api/matches/{made['id']}/join", content='{"name": "\\udfff"}', headers=AS_JSON)
    assert r.status_code == 400 and error(r) == "bad_json"
    assert server.lobby.match(made["id"])["open_seats"] == [0, 1]

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with await Seat.connect(server.lobby.ws_url(made["id"])) as watcher:
            await watcher.socket.send('{"type": "ping", "id": "\\ud800"}')
            refused = await watcher.next_of("error")
            await watcher.send({"type": "ping", "id": "after"})  # the socket's sender still works
            return refused, await watcher.next_of("pong")

    refused, pong = asyncio.run(scenario())
    assert refused["code"] == "bad_json" and pong["ref"] == "after"


@pytest.mark.parametrize("name", ["evil\u202egnp.exe", "zero\u200bwidth", "bom\ufeff", "tab\there", "line\u2028sep",
                                  "private\ue000", "unassigned\U000e0fff", "x" * 41, "   ", ""])
def test_names_are_visible_text_of_bounded_length(server: ThreadServer, name: str) -> None:
    made = server.lobby.create(game="kings", seats=2)
    r = httpx.post(f"{server.base}/api/matches/{made['id']}/join", json={"name": name})
    assert r.status_code == 400 and error(r) == "bad_message", r.text
    assert server.lobby.match(made["id"])["open_seats"] == [0, 1]
    if name:  # a match may have no name
        r = httpx.post(f"{server.base}/api/matches", json={"game": "kings", "seats": 2, "name": name * 3})
        assert r.status_code == 400 and error(r) == "bad_config", r.text


def test_names_are_normalised_to_nfc(server: ThreadServer) -> None:
    made = server.lobby.create(game="kings", seats=2, name="Ame\u0301lie's table")
    server.lobby.join(made["id"], seat=0, name="Ame\u0301lie")
    described = server.lobby.match(made["id"])
    assert described["name"] == "Am\u00e9lie's table"
    assert described["players"][0]["name"] == "Am\u00e9lie"


def test_a_foreign_page_can_change_nothing(server: ThreadServer) -> None:
    base = server.base
    spec = json.dumps({"game": "kings", "seats": 2})
    # a form or a no-cors fetch of another site: text/plain, urlencoded, multipart
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        r = httpx.post(f"{base}/api/matches", content=spec, headers={"Content-Type": kind})
        assert r.status_code == 415 and error(r) == "bad_content_type"
    r = httpx.post(f"{base}/api/matches", content=spec, headers={**AS_JSON, "Origin": "https://evil.example"})
    assert r.status_code == 403 and error(r) == "bad_origin"
    r = httpx.post(f"{base}/api/debug/logs", content=b"MEEPLE", headers={"Content-Type": "text/plain"})
    assert r.status_code == 415 and error(r) == "bad_content_type"
    assert _store_matches(server.store) == 0
    made = server.lobby.create(game="kings", seats=2)
    r = httpx.post(f"{base}/api/matches/{made['id']}/join", json={}, headers={"Origin": "null"})
    assert r.status_code == 403 and error(r) == "bad_origin"
    assert server.lobby.match(made["id"])["open_seats"] == [0, 1]
    # this server's own pages may
    r = httpx.post(f"{base}/api/matches/{made['id']}/join", json={}, headers={"Origin": base})
    assert r.status_code == 201

    async def socket_from(origin: str) -> int | None:
        try:
            async with websockets.connect(server.lobby.ws_url(made["id"]), origin=origin):  # type: ignore[arg-type]
                return None
        except websockets.InvalidStatus as e:
            return int(e.response.status_code)

    assert asyncio.run(socket_from("https://evil.example")) == 403
    assert asyncio.run(socket_from(base)) is None


def _get(port: int, host_header: str) -> httpx.Response:
    return httpx.get(f"http://127.0.0.1:{port}/api", headers={"Host": host_header})


def test_meeple_serve_answers_only_its_own_host_names(store_path: str) -> None:
    served = ProcessServer(store_path)
    try:
        port = served.port
        for name in ("evil.example", f"evil.example:{port}", "127.0.0.1.nip.io"):  # DNS rebinding
            r = _get(port, name)
            assert r.status_code == 400 and error(r) == "bad_host"
        for name in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost"):
            assert _get(port, name).status_code == 200
    finally:
        served.stop()
    served = ProcessServer(store_path, None, "--allowed-hosts", "games.example.org,127.0.0.1")
    try:
        assert _get(served.port, "games.example.org").status_code == 200
        assert _get(served.port, "localhost").status_code == 400
    finally:
        served.stop()
