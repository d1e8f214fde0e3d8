"""A server that can face the internet: what it publishes, what it parses, what one client may cost it.

Every test runs the real server (uvicorn on loopback) and speaks to it over
real sockets; docs/reliability.md lists which promise each test pins.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
from serverkit import ThreadServer, referee

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
