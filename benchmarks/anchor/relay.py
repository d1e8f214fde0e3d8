"""The floor of a Python WebSocket server: a bare Starlette/uvicorn relay that speaks just enough of meeple's protocol.

No rules, no store, no views: each ``play`` is answered with an ``update``
to both seats of its match, carrying the next bid as the only legal command,
until the last bid is called. What it costs is what any server in Python on
uvicorn pays to receive, parse, build and send the same messages; a real
server cannot go faster. ``python relay.py PORT DICE SIDES``.
"""

from __future__ import annotations

import json
import sys
import uuid
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

DICE, SIDES = int(sys.argv[2]), int(sys.argv[3])
MATCHES: dict[str, dict[str, Any]] = {}


def _legal(bids: int) -> list[dict[str, Any]]:
    if bids >= 2 * DICE * SIDES:
        return [{"type": "call_liar"}]
    return [{"type": "bid", "quantity": bids // SIDES + 1, "face": bids % SIDES + 1}]


async def create(request: Request) -> JSONResponse:
    mid = uuid.uuid4().hex
    MATCHES[mid] = {"cursor": 1, "sockets": {}, "over": False}
    return JSONResponse({"id": mid})


async def join(request: Request) -> JSONResponse:
    body = await request.json()
    return JSONResponse({"match": request.path_params["mid"], "seat": body["seat"], "token": str(body["seat"])})


async def play(ws: WebSocket) -> None:
    await ws.accept()
    m = MATCHES[ws.path_params["mid"]]
    hello = json.loads(await ws.receive_text())
    seat = int(hello["token"])
    m["sockets"][seat] = ws
    turn = (m["cursor"] - 1) % 2
    await ws.send_text(json.dumps({"type": "sync", "cursor": m["cursor"], "legal": _legal(0) if seat == turn else [],
                                   "outcome": None, "records": [], "view": {}}))
    try:
        while True:
            msg = json.loads(await ws.receive_text())
            m["cursor"] += 1
            bids = m["cursor"] - 1
            over = msg["command"]["type"] == "call_liar"
            nxt = (m["cursor"] - 1) % 2
            for s, sock in list(m["sockets"].items()):
                body = {"type": "update", "cause": "play", "by": seat, "cursor": m["cursor"], "from": m["cursor"] - 1,
                        "records": [{"seq": m["cursor"] - 1, "actor": seat, "command": msg["command"], "events": []}],
                        "legal": [] if over or s != nxt else _legal(bids), "view": {},
                        "outcome": {"loser": 0} if over else None}
                if s == seat:
                    body["ref"] = msg.get("id")
                await sock.send_text(json.dumps(body, separators=(",", ":")))
    except WebSocketDisconnect:
        pass


app = Starlette(routes=[Route("/api/matches", create, methods=["POST"]),
                        Route("/api/matches/{mid}/join", join, methods=["POST"]),
                        WebSocketRoute("/api/matches/{mid}/ws", play)])

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
