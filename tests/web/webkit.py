"""Helpers of the browser tests: play a match through clicks, read what the server holds, forge logs."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack

import meeple
from meeple.engine.codec import pack
from meeple.engine.log import MAGIC, frame, iter_frames
from meeple.store import log_bytes

#: The page is ready for this seat's next click, or the match is over.
READY = "body[data-busy=false][data-acting=true], body[data-over=true]"


def fill_lobby(page: Any, base: str, game: str, *, variant: str | None = None, seats: int | None = None,
               bot: str | None = None) -> None:
    """Open the lobby page and fill its form: the game, the variant, the seat count, ``bot`` in every seat but 0."""
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#game", game)
    if variant is not None:
        page.select_option("#variant", variant)
    if seats is not None:
        page.fill("#seats", str(seats))
        page.dispatch_event("#seats", "change")
    if bot is not None:
        for select in page.query_selector_all("#seat-list select")[1:]:
            select.select_option(f"bot:{bot}")


def create_from_lobby(page: Any, base: str, game: str, *, variant: str | None = None, seats: int | None = None,
                      bot: str | None = None, shot: Path | None = None) -> str:
    """Create a match on the lobby page (seat 0 for this browser, bots elsewhere); the match id.

    With ``shot``, a screenshot of the lobby is saved there first.
    """
    fill_lobby(page, base, game, variant=variant, seats=seats, bot=bot)
    if shot is not None:
        page.screenshot(path=str(shot))
    page.click("#create-button")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("body[data-cursor]")
    return page.url.rsplit("/play/", 1)[1]


#: Counts every change of the page (a MutationObserver over the whole document), once per page load.
_WATCH = """() => {
  if (window.__changes === undefined) {
    window.__changes = { n: 0, seen: null, still: 0 };
    new MutationObserver((records) => { window.__changes.n += records.length; })
      .observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
  }
}"""

#: True once the page matches ``ready`` and neither its content nor its layout changed for three animation frames.
_STILL = """(ready) => {
  const w = window.__changes;
  const root = document.documentElement;
  const now = [w.n, scrollX, scrollY, root.scrollWidth, root.scrollHeight].join();
  if (now === w.seen) w.still += 1; else { w.seen = now; w.still = 0; }
  return w.still >= 3 && document.querySelector(ready) !== null;
}"""


def settle(page: Any, ready: str = READY) -> None:
    """Wait until the page matches ``ready`` and is stable: nothing in it changed for three animation frames.

    A page that is ready for a click may still be drawing: a message that
    arrived with the last one, the players' list, a chooser opening. A
    click waits for its target alone to stand still, so the page around
    it could still move under the pointer (another element would take the
    click); after this, nothing does until the page is clicked.
    """
    page.evaluate(_WATCH)
    page.wait_for_function(_STILL, arg=ready, polling="raf", timeout=30_000)


def targets(page: Any) -> list[Any]:
    """What the board offers to click now and shows: the targets of a move under way first, else everything it offers.

    An offered element that is not shown (a folded panel, a drawing off the
    board's box) is left out: a click on it would wait for it to appear.
    """
    return page.query_selector_all(".act.target:visible") or page.query_selector_all(".act:visible")


#: Where to click ``el``: its centre once its box and the page stood still for two animation frames (else null),
#: and what is topmost there (null when it is ``el`` or inside it).
_STEADY = """(el) => {
  if (!el.isConnected) return { gone: true };
  const r = el.getBoundingClientRect();
  const now = [r.left, r.top, r.width, r.height, window.__changes ? window.__changes.n : 0, scrollX, scrollY].join();
  if (el.__steady !== now) { el.__steady = now; return null; }
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  const say = (e) => `<${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.getAttribute('class') ? '.' + e.getAttribute('class').trim().split(/\\s+/).join('.') : ''}>`;
  const box = `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`;
  return { x, y, target: `${say(el)} ${JSON.stringify({ ...el.dataset })} at ${box}`,
           cover: hit === el || (hit && el.contains(hit)) ? null : hit ? say(hit) : `nothing (${x},${y} is outside the window ${innerWidth}x${innerHeight})` };
}"""


def click(page: Any, target: Any) -> None:
    """Click ``target`` at its centre once it stands still, having checked that it is the topmost element there.

    The target is scrolled into view and its box (and the page) must not
    change between two animation frames; then, if another element covers
    its centre, this fails at once, naming both, where a plain click would
    wait for the cover to go away until it timed out.
    """
    page.evaluate(_WATCH)
    target.scroll_into_view_if_needed()
    at = page.wait_for_function(_STEADY, arg=target, polling="raf", timeout=30_000).json_value()
    assert not at.get("gone"), "the element to click left the page before it stood still"
    assert at["cover"] is None, f"{at['cover']} covers the centre of {at['target']}: a click would not reach it"
    page.mouse.click(at["x"], at["y"])


def click_through(page: Any, *, seed: int = 1, max_clicks: int = 800, until: Callable[[int], bool] | None = None,
                  on_click: Callable[[int], None] | None = None) -> int:
    """Click what the board offers (a choice that completes a command first) until the match is over.

    Only elements the board made clickable (``.act``) are clicked, chosen at
    random (seeded), each on a settled page (:func:`settle`). Returns the
    number of clicks.
    """
    rnd = random.Random(seed)
    clicks = 0
    while True:
        settle(page)
        if page.get_attribute("body", "data-over") == "true" or (until is not None and until(clicks)):
            return clicks
        if clicks >= max_clicks:
            raise AssertionError(f"the match did not end in {max_clicks} clicks")
        offered = targets(page)
        assert offered, (f"the seat may act, but the board offers nothing to click: {page.inner_text('#status')!r}, "
                         f"errors {page.recorder.errors[-3:]}")
        click(page, rnd.choice(offered))
        clicks += 1
        if on_click is not None:
            on_click(clicks)


def http_json(base: str, path: str, body: Any = None, raw: bytes | None = None) -> Any:
    """A JSON request to the server (POST when a body is given)."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/octet-stream" if raw is not None else "application/json"}
    req = urllib.request.Request(base + path, data=data, method="GET" if data is None else "POST", headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def referee_copy(base: str, match_id: str, store: str | None = None) -> tuple[meeple.Match, dict[str, Any]]:
    """The referee's copy of a finished match, through the debugger's API, and its summary.

    The debugger opens a match only once no seat can undo (docs/web.md); a
    finished match whose last command its person may still undo is read from
    ``store`` instead, with a summary of the same form.
    """
    try:
        opened = http_json(base, "/api/debug/logs", {"match": match_id})
    except urllib.error.HTTPError as e:
        if e.code != 409 or store is None:
            raise
        data = log_bytes(f"sqlite:{store}#{match_id}")
        return meeple.Match.from_bytes(data), {"verify": {"ok": meeple.verify(data).ok}}
    with urllib.request.urlopen(f"{base}/api/debug/logs/{opened['id']}/log", timeout=30) as r:
        data = r.read()
    return meeple.Match.from_bytes(data), opened


def forge(data: bytes, edit: Callable[[list[Any]], list[Any]]) -> bytes:
    """``data`` with its record bodies changed by ``edit`` and the whole hash chain computed again."""
    frames = list(iter_frames(data))
    out = [MAGIC]
    fr, prev = frame(frames[0].body, MAGIC)
    out.append(fr)
    for body in edit([msgpack.unpackb(f.body) for f in frames[1:]]):
        fr, prev = frame(pack(body), prev)
        out.append(fr)
    return b"".join(out)


def played(game: str, seats: int, seed: int, *, options: dict[str, Any] | None = None, limit: int | None = None) -> meeple.Match:
    """A match played by random choices (seeded), to its end or ``limit`` records."""
    m = meeple.Match.start(game, seats=seats, seed=seed, options=options)
    rnd = random.Random(seed)
    while not m.is_over and (limit is None or m.cursor < limit):
        seat = m.to_act[0]
        m.play(seat, rnd.choice(list(m.legal(seat))))
    return m


def save(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path``; the path."""
    path.write_bytes(data)
    return path
