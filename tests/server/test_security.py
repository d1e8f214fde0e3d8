"""A server that can face the internet: what it publishes, what it parses, what one client may cost it.

Every test runs the real server (uvicorn on loopback) and speaks to it over
real sockets; docs/reliability.md lists which promise each test pins.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import sqlite3
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from serverkit import ProcessServer, ThreadServer, referee

import meeple
from meeple.server import debugger
from meeple.server.client import ClientError, Seat
from meeple.server.limits import ACTIONS, Quotas, Rate


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


def test_a_finished_match_of_people_opens_in_the_debugger_only_because_no_seat_may_undo(server: ThreadServer) -> None:
    async def scenario() -> list[tuple[bool, int]]:
        seen = []
        for seed in range(4):  # gophers: without the outcome barrier the last command was often its player's to undo
            match_id, players = await _play_out(server, "gophers", 2, seed)
            assert server.lobby.match(match_id)["status"] == "over"
            seen.append((any(p.undo_check["ok"] for p in players), _open(server, match_id).status_code))
            for p in players:
                await p.close()
        return seen

    assert asyncio.run(scenario()) == [(False, 201)] * 4


def test_a_finished_match_of_bots_opens_in_the_debugger(server: ThreadServer) -> None:
    made = server.lobby.create(game="mordred", seats=3, bots={"0": "random", "1": "random", "2": "random"})

    async def watch() -> None:
        async with await Seat.connect(server.lobby.ws_url(made["id"])) as watcher:
            await watcher.until(lambda s: s.outcome is not None, timeout=120)

    asyncio.run(watch())
    r = _open(server, made["id"])  # bots never undo: over at its head, it can never change
    assert r.status_code == 201 and r.json()["verify"]["ok"]


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


# -- what one client may cost ---------------------------------------------------------------------

#: A second client on loopback: connections from another source address of 127.0.0.0/8.
OTHER = "127.0.0.2"


async def _refusal(url: str) -> tuple[str, int | None]:
    """The error code a refused socket is sent at once, and the code it is closed with."""
    ws = await websockets.connect(url)
    refused = json.loads(await asyncio.wait_for(ws.recv(), 30))
    with contextlib.suppress(websockets.ConnectionClosed):
        await asyncio.wait_for(ws.recv(), 30)
    return str(refused["code"]), ws.close_code


async def _spectate_from(url: str, address: str) -> str:
    """Open a spectator's socket from ``address``: the match its ``sync`` names, or the error code it got."""
    async with websockets.connect(url, local_addr=(address, 0)) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
        return str(msg["match"] if msg["type"] == "sync" else msg["code"])


def _from(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=30)


@pytest.fixture
def limited(store_path: str) -> Iterator[ThreadServer]:
    """A server holding each client to two of everything an hour, and two open sockets."""
    two = Rate(2, 3600.0)
    s = ThreadServer(store_path, quotas=Quotas(create=two, join=two, upload=two, sync=two, connect=two, sockets=2))
    yield s
    s.stop()


def test_each_rate_refuses_that_client_only_with_rate_limited(limited: ThreadServer) -> None:
    base = limited.base
    spec = {"game": "kings", "seats": 2}
    log = meeple.Match.start("kings", seats=2, seed=1).to_bytes()
    raw = {"Content-Type": "application/octet-stream"}
    with _from("127.0.0.1") as me, _from(OTHER) as other:
        made = [me.post(f"{base}/api/matches", json=spec) for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 429]
        assert error(made[2]) == "rate_limited" and int(made[2].headers["Retry-After"]) >= 1
        assert made[2].json()["error"]["retry_after"] == int(made[2].headers["Retry-After"])
        assert other.post(f"{base}/api/matches", json=spec).status_code == 201  # another client is unaffected
        match_id = made[0].json()["id"]
        joins = [me.post(f"{base}/api/matches/{mid}/join", json={}) for mid in (match_id, match_id, made[1].json()["id"])]
        assert [r.status_code for r in joins] == [201, 201, 429] and error(joins[2]) == "rate_limited"
        assert limited.lobby.match(made[1].json()["id"])["open_seats"] == [0, 1]  # the refused join took nothing
        ups = [me.post(f"{base}/api/debug/logs", content=log, headers=raw) for _ in range(3)]
        assert [r.status_code for r in ups] == [201, 201, 429] and error(ups[2]) == "rate_limited"
        assert other.post(f"{base}/api/debug/logs", content=log, headers=raw).status_code == 201
        token = joins[0].json()["token"]

    async def sockets() -> tuple[list[str], tuple[str, int | None], str, str]:
        url = limited.lobby.ws_url(match_id)
        async with await Seat.connect(url, token) as seat:
            syncs = []
            for _ in range(3):
                try:
                    await seat.sync()
                    syncs.append("sync")
                except ClientError as e:
                    syncs.append(e.code)
            pong = await seat._request({"type": "ping"}, 30)  # the socket goes on
            async with await Seat.connect(url):
                pass
            refused = await _refusal(url)  # the third socket opened this hour
            other_seat = await _spectate_from(url, OTHER)  # another client's socket opens
        return syncs, refused, pong["type"], other_seat

    syncs, refused, pong, other_seat = asyncio.run(sockets())
    assert syncs == ["sync", "sync", "rate_limited"] and pong == "pong"
    assert refused == ("rate_limited", 4429)
    assert other_seat == match_id


def test_a_client_holds_a_bounded_number_of_open_sockets(store_path: str) -> None:
    limited = ThreadServer(store_path, quotas=Quotas(connect=None, sockets=2))
    made = limited.lobby.create(game="kings", seats=2)
    url = limited.lobby.ws_url(made["id"])

    async def scenario() -> tuple[tuple[str, int | None], str]:
        first, second = await Seat.connect(url), await Seat.connect(url)
        third = await _refusal(url)
        theirs_ok = await _spectate_from(url, OTHER)
        await first.close()
        await second.close()
        return third, theirs_ok

    try:
        third, theirs = asyncio.run(scenario())
    finally:
        limited.stop()
    assert third == ("over_quota", 4429) and theirs == made["id"]


def test_the_table_of_clients_is_bounded(store_path: str) -> None:
    s = ThreadServer(store_path, quotas=Quotas(create=Rate(5, 60.0), join=None, upload=None, sync=None,
                                                connect=None, clients=3))
    try:
        for i in range(2, 12):
            with _from(f"127.0.0.{i}") as c:
                assert c.post(f"{s.base}/api/matches", json={"game": "kings", "seats": 2}).status_code == 201
        assert s.meeple.gate.remembered <= 3 * len(ACTIONS)
    finally:
        s.stop()


def _upload(client: httpx.Client, base: str, data: bytes) -> httpx.Response:
    return client.post(f"{base}/api/debug/logs", content=data, headers={"Content-Type": "application/octet-stream"})


def test_one_clients_uploads_never_close_anothers_logs(server: ThreadServer) -> None:
    data = meeple.Match.start("kings", seats=2, seed=2).to_bytes()
    with _from(OTHER) as theirs, _from("127.0.0.1") as mine:
        kept = _upload(theirs, server.base, data).json()["id"]
        for _ in range(33):  # more logs than a client keeps: its own oldest are closed, never another's
            assert _upload(mine, server.base, data).status_code == 201
        assert theirs.get(f"{server.base}/api/debug/logs/{kept}").status_code == 200


def test_the_debuggers_budgets_are_checked_before_decoding(store_path: str) -> None:
    charge = debugger.MIN_CHARGE
    s = ThreadServer(store_path, quotas=Quotas(upload=None, debug_log_bytes=charge, debug_client_bytes=2 * charge,
                                                debug_total_bytes=3 * charge))
    small = meeple.Match.start("kings", seats=2, seed=2).to_bytes()
    try:
        with _from("127.0.0.2") as a, _from("127.0.0.3") as b, _from("127.0.0.4") as c:
            big = _upload(a, s.base, small + b"\x00" * charge)  # refused on its size, before it is read
            assert big.status_code == 413 and error(big) == "too_large"
            a_logs = [_upload(a, s.base, small).json()["id"] for _ in range(3)]
            # a's third log closed a's first (its own budget: two), nobody else's
            assert [a.get(f"{s.base}/api/debug/logs/{i}").status_code for i in a_logs] == [404, 200, 200]
            b_log = _upload(b, s.base, small).json()["id"]
            full = _upload(c, s.base, small)  # everyone together holds all they may
            assert full.status_code == 503 and error(full) == "server_busy"
            assert b.get(f"{s.base}/api/debug/logs/{b_log}").status_code == 200
            assert [a.get(f"{s.base}/api/debug/logs/{i}").status_code for i in a_logs[1:]] == [200, 200]
    finally:
        s.stop()


# -- the transport of meeple serve ----------------------------------------------------------------


def _closed_within(sock: socket.socket, bound: float) -> bool:
    """True once the server closes ``sock`` (reads to EOF), False if it is still open after ``bound`` seconds."""
    sock.settimeout(bound)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


def _connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))


def test_meeple_serve_closes_silent_and_slow_header_connections(store_path: str) -> None:
    served = ProcessServer(store_path)  # the default header deadline: 10 s
    try:
        silent = _connect(served.port)
        assert _closed_within(silent, 30)
        slow = _connect(served.port)
        slow.sendall(b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        closed = False
        for _ in range(300):  # a header byte every 0.1 s for up to 30 s: never the whole request, never idle
            try:
                slow.sendall(b"X")
            except OSError:
                closed = True
                break
            slow.settimeout(0.1)
            try:
                if slow.recv(65536) == b"":
                    closed = True
                    break
            except TimeoutError:
                continue
            except OSError:
                closed = True
                break
        assert closed
        assert served.lobby.index()["name"] == "meeple"  # and a client that speaks is served
    finally:
        served.stop()


def _big_header_answer(port: int, size: int) -> str:
    """The status a request with a ``size``-byte header gets, or ``reset`` if the server closed before reading it."""
    with _connect(port) as sock:
        try:
            sock.sendall(b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * size + b"\r\n\r\n")
            answer = sock.recv(65536)
        except (ConnectionResetError, BrokenPipeError):
            return "reset"
        return answer.split(b" ")[1].decode() if answer else "reset"


def test_meeple_serve_refuses_large_and_many_headers(store_path: str) -> None:
    served = ProcessServer(store_path)
    try:
        url = f"http://127.0.0.1:{served.port}/api"
        assert _big_header_answer(served.port, 1024 * 1024) in ("400", "reset")
        r = httpx.get(url, headers={f"X-{i}": "a" for i in range(100)})
        assert r.status_code == 431 and error(r) == "too_large"
        assert httpx.get(url, headers={"X-Small": "a" * 1000}).status_code == 200
    finally:
        served.stop()


def test_one_address_cannot_take_every_connection(store_path: str) -> None:
    served = ProcessServer(store_path)  # 64 connections per address by default
    held: list[socket.socket] = []
    try:
        for _ in range(64):
            held.append(_connect(served.port, OTHER))
        one_more = _connect(served.port, OTHER)
        assert _closed_within(one_more, 5)  # closed at once, not after the header deadline (10 s)
        with _from("127.0.0.1") as me:  # a real client from another address is served meanwhile
            assert me.get(f"http://127.0.0.1:{served.port}/api").status_code == 200
    finally:
        for s in held:
            s.close()
        served.stop()


def test_meeple_serve_holds_clients_to_its_rates(store_path: str) -> None:
    served = ProcessServer(store_path)  # 30 matches a minute by default
    try:
        url = f"http://127.0.0.1:{served.port}/api/matches"
        codes = []
        while 429 not in codes and len(codes) < 60:
            codes.append(httpx.post(url, json={"game": "kings", "seats": 2}).status_code)
        assert 30 <= codes.index(429) < 60
    finally:
        served.stop()
    served = ProcessServer(store_path, None, "--rate-create", "2/h")
    try:
        url = f"http://127.0.0.1:{served.port}/api/matches"
        assert [httpx.post(url, json={"game": "kings", "seats": 2}).status_code for _ in range(3)] == [201, 201, 429]
    finally:
        served.stop()
