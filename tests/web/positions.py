"""What a play page was told, read back from the WebSocket frames it received (the ``Recorder`` of conftest.py)."""

from __future__ import annotations

import json
from typing import Any

from meeple.server.delta import patched
from meeple.server.messages import STATE_FIELDS

#: The position messages: each carries cursor, view, legal and the seats to act.
POSITION = ("sync", "update", "rewind")


def whole(frames: list[str]) -> list[dict[str, Any]]:
    """Every JSON message of ``frames``, in order, a position message that carries a ``delta`` (protocol 2) given
    the whole position instead: the one held, patched by it, as the page's delta.js does."""
    out: list[dict[str, Any]] = []
    held: Any = None
    for frame in frames:
        msg = json.loads(frame)
        if msg.get("type") in POSITION:
            if "delta" in msg:
                held = patched(held, msg.pop("delta"))
            else:
                held = {k: msg[k] for k in (*STATE_FIELDS, "picture") if k in msg}
            msg = {**msg, **held}
        out.append(msg)
    return out


def messages(page: Any) -> list[dict[str, Any]]:
    """Every JSON message the page received on its sockets, in order (positions whole: :func:`whole`)."""
    return whole(page.recorder.frames)


def records(page: Any) -> list[dict[str, Any]]:
    """The records the page holds, rebuilt from its messages as docs/protocol.md says a client applies them."""
    out: list[dict[str, Any]] = []
    for msg in messages(page):
        if msg["type"] in ("sync", "update"):
            out = out[: msg["from"]] + msg["records"]
        elif msg["type"] == "rewind":
            out = out[: msg["cursor"]]
    return out


def positions(page: Any) -> dict[int, dict[str, Any]]:
    """The last position message the page received for each cursor."""
    return {msg["cursor"]: msg for msg in messages(page) if msg["type"] in POSITION}


#: What the page shows of the turn, read at once (one drawing): the cursor it shows, the seats the players
#: panel marks (with their labels), the header's badge and the board's status line.
SHOWN = """() => ({
  cursor: Number(document.body.dataset.cursor),
  over: document.body.dataset.over === "true",
  marked: [...document.querySelectorAll("#players li[data-seat]")]
    .filter((li) => li.querySelector(".to-act")).map((li) => Number(li.dataset.seat)),
  labels: [...document.querySelectorAll("#players .to-act")].map((m) => m.getAttribute("aria-label") || ""),
  badge: document.getElementById("status").textContent,
  line: (document.querySelector("#board svg text.title") || { textContent: "" }).textContent,
})"""


def shown(page: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """What the page shows of the turn, and the position message it shows (the one of its cursor)."""
    seen = page.evaluate(SHOWN)
    told = positions(page)
    if seen["cursor"] not in told:  # the frame's event may reach this side just after the page drew it
        page.evaluate("0")
        told = positions(page)
    return seen, told[seen["cursor"]]
