"""Every message of scripted matches, byte for byte: what a change that only makes the server faster must keep.

The hub is driven in process (no sockets) through the operations the
WebSocket handler awaits, with the seeds drawn from a fixed sequence, so the
matches, their chain hashes and every text sent are the same from run to run.
Six matches of five games; seats of protocol 1 and 2, in English and Russian,
one with pictures, a second connection of a seat, a spectator, a connection
that resumes from a cursor it held, syncs on request, undos and redos. The
digest of every connection's messages is pinned: a message that changes by a
byte changes it (then find out why before pinning the new one).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import secrets
from pathlib import Path
from typing import Any

import pytest

from needs import missing

pytestmark = pytest.mark.skipif(bool(missing("server")), reason="the server extra is not installed")

#: (game, variant, seats, options) of the recorded matches
GAMES: list[tuple[str, str | None, int, dict[str, Any]]] = [
    ("liars-dice", None, 2, {"dice": 5, "sides": 12}),
    ("liars-dice", None, 3, {"dice": 2, "sides": 6}),
    ("kings", None, 2, {}),
    ("saboteur", "deluxe", 3, {}),
    ("gophers", None, 2, {}),
    ("mordred", None, 3, {}),
]
#: Commands played in each match at most (with its undos and redos).
STEPS = 60
#: What the recording was at the code it pins: how many messages, and the SHA-256 of them all in order.
MESSAGES = 1765
DIGEST = "58d2709b01176796bdd7d9787cfd7be4ea581b45b5a5fd3608ac409a4d31d0d2"


def _drain(clients: dict[str, Any], into: dict[str, list[str]]) -> None:
    for label, client in clients.items():
        items = client.queue._items
        into.setdefault(label, []).extend(t if isinstance(t, str) else f"close {t!r}" for t in items)
        items.clear()


async def _record(db: str) -> dict[str, list[str]]:
    import meeple.examples.liars_dice  # noqa: F401  (registers the game)
    from meeple.engine import to_wire
    from meeple.server.hub import Hub
    from meeple.server.messages import NewMatch

    rng = random.Random(29)
    hub = Hub(db)
    await hub.start()
    sent: dict[str, list[str]] = {}
    try:
        for i, (gid, variant, seats, options) in enumerate(GAMES):
            mid = f"match{i:02d}"
            await hub.create(NewMatch(gid, variant=variant, seats=seats, options=dict(options), id=mid))
            clients: dict[str, Any] = {}
            seated: dict[int, Any] = {}

            async def connect(label: str, token: str | None, protocol: int, lang: str, picture: bool = False,
                              cursor: int | None = None, head: str | None = None, mid: str = mid,
                              clients: dict[str, Any] = clients) -> Any:
                client = hub.client(mid, lambda c: None)
                client.protocol = protocol
                await hub.hello(client, token, cursor, head, f"hello {label}", lang, picture)
                clients[label] = client
                return client

            for seat in range(seats):
                token = (await hub.join(mid, seat, f"player {seat}"))["token"]
                seated[seat] = await connect(f"{mid} seat {seat}", token, 2 if seat % 2 == 0 else 1,
                                             ("en", "ru")[seat % 2], picture=seat == 1)
                if seat == 0:
                    await connect(f"{mid} seat 0 again", token, 2, "en")
            await connect(f"{mid} spectator", None, 2, "ru")
            held: tuple[int, str] | None = None
            for step in range(STEPS):
                await asyncio.sleep(0)
                _drain(clients, sent)

                def look(m: Any) -> tuple[int, list[int], dict[int, list[Any]], list[int]]:
                    acting = [s for s in m.to_act if s >= 0]
                    return (m.cursor, acting, {s: [to_wire(c) for c in m.legal(s)] for s in acting},
                            [s for s in range(m.seats) if m.can_undo(s).ok])

                cursor, acting, legal, undoable = await hub.inspect(mid, look)
                if not acting:
                    break
                if step == 10:  # a connection holds this position, to come back to it later
                    last = json.loads(sent[f"{mid} seat 0"][-1])
                    held = (last["cursor"], last["head"])
                if step % 6 == 5 and undoable:
                    seat = undoable[0]
                    await hub.request(seated[seat], "undo", cursor, None, f"undo {step}")
                    if step % 12 == 11:
                        await hub.request(seated[seat], "redo", cursor - 1, None, f"redo {step}")
                    continue
                if step % 9 == 4:
                    await hub.request(seated[acting[0]], "sync", None, None, f"sync {step}")
                seat = rng.choice(acting)
                choices = legal[seat][:2] if gid == "liars-dice" else legal[seat]  # low bids: a longer match
                await hub.request(seated[seat], "play", cursor, rng.choice(choices), step)
            if held is not None:
                await connect(f"{mid} resumed", None, 2, "en", cursor=held[0], head=held[1])
            await asyncio.sleep(0)
            _drain(clients, sent)
    finally:
        await hub.close()
    return sent


def test_the_messages_of_scripted_matches_are_the_recorded_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = random.Random(1029)
    monkeypatch.setattr(secrets, "randbits", seeds.getrandbits)  # the matches' seeds and the bots' (none here)
    sent = asyncio.run(_record(str(tmp_path / "server.db")))
    digest = hashlib.sha256()
    count = 0
    for label in sorted(sent):
        for text in sent[label]:
            digest.update(f"{label}\n{text}\n".encode())
            count += 1
    assert {label.split()[0] for label in sent} == {f"match{i:02d}" for i in range(len(GAMES))}
    assert any('"delta"' in t for texts in sent.values() for t in texts)  # protocol 2 was sent deltas
    assert any('"type":"rewind"' in t for texts in sent.values() for t in texts)  # undos were recorded
    assert (count, digest.hexdigest()) == (MESSAGES, DIGEST)
