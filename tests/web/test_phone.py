"""The lobby and the play page at phone width (390x844 and 360x740), in Chromium with touch.

For each game a match is created on the lobby page and, on a settled
board, the page is measured: nothing is wider than the screen, every
control of the header and every legal-move target is at least 40x40 CSS
px, the smallest visible text of the board is at least 11 px, and a legal
move is played by taps alone. ``MEEPLE_SCREENSHOTS=DIR`` saves
``play-<game>-phone-en.png`` (and ``lobby-phone-en.png``) there at 390 px.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from serverkit import ThreadServer
from webkit import fill_lobby, settle, targets

import meeple
from meeple.store import log_bytes

PHONES = {"390": {"width": 390, "height": 844}, "360": {"width": 360, "height": 740}}
#: (game, seats): every seat but 0 a bot
GAMES = [("saboteur", 3), ("kings", 2), ("gophers", 2), ("mordred", 3)]
MIN_TAP = 40
MIN_TEXT = 11
#: How many of seat 0's commands each board test plays by taps
TAPPED = 4

#: Boxes of what can be pressed, in CSS px: [what, width, height] of each visible one under ``sel``; a checkbox
#: is pressed through its whole label (its hit area).
_BOXES = """(sel) => [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length > 0
    && getComputedStyle(e).visibility !== 'hidden').map((e) => {
  const r = (e.type === 'checkbox' && e.closest('label') || e).getBoundingClientRect();
  return [e.id || e.getAttribute('aria-label') || e.textContent.trim().slice(0, 30) || e.tagName, r.width, r.height];
})"""

#: The rendered size, in CSS px, of every visible non-empty text of the board's SVG: [text, px].
_TEXT_SIZES = """() => [...document.querySelectorAll('#board svg text')].filter((t) => t.textContent.trim()
    && t.getClientRects().length > 0).map((t) => {
  const m = t.getScreenCTM();
  return [t.textContent.trim().slice(0, 30), parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b)];
})"""

#: The page's width and the window's. A mobile browser widens its layout viewport to content that overflows
#: (window.innerWidth follows it), so both are compared with the screen's width itself.
OVERFLOW = "() => [document.documentElement.scrollWidth, window.innerWidth]"


def _phone(browser: Any, size: str) -> tuple[Any, Any]:
    context = browser.new_context(viewport=PHONES[size], has_touch=True, is_mobile=True, device_scale_factor=2,
                                  locale="en-GB")
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return context, page


def _small(boxes: list[list[Any]]) -> list[list[Any]]:
    return [b for b in boxes if b[1] < MIN_TAP - 0.5 or b[2] < MIN_TAP - 0.5]


def _readable(page: Any, screen: int, when: str) -> None:
    """The settled page fits the screen, its board's text is readable and its targets are large enough."""
    assert max(page.evaluate(OVERFLOW)) <= screen, when
    texts = page.evaluate(_TEXT_SIZES)
    assert texts, "the board draws no text"
    smallest = min(texts, key=lambda t: t[1])
    assert smallest[1] >= MIN_TEXT - 0.01, f"{when}: board text {smallest[0]!r} is {smallest[1]:.1f} px"
    if page.get_attribute("body", "data-acting") == "true":
        offered = page.evaluate(_BOXES, "#board .act")
        assert offered, f"{when}: the board offers nothing to tap"
        assert _small(offered) == [], when


def _seat_commands(store: str, match_id: str) -> int:
    match = meeple.Match.from_bytes(log_bytes(f"sqlite:{store}#{match_id}"))
    return sum(1 for r in match.records if r.actor == 0)


@pytest.mark.parametrize("size", list(PHONES))
def test_the_lobby_fits_a_phone(browser: Any, web_server: ThreadServer, size: str, screenshots: Path | None) -> None:
    context, page = _phone(browser, size)
    try:
        web_server.lobby.create(game="mordred", seats=3, bots={"1": "random", "2": "random"})  # a row with a join button
        fill_lobby(page, web_server.base, "saboteur", seats=4)
        page.wait_for_selector(".match-row")
        screen = PHONES[size]["width"]
        width, viewport = page.evaluate(OVERFLOW)
        assert max(width, viewport) <= screen, f"the lobby is {width} px wide on a {screen} px screen"
        boxes = page.evaluate(_BOXES, "header a, header button, main button, main select, main input, main summary, .match-row a")
        assert len(boxes) >= 8
        assert _small(boxes) == []
        if screenshots is not None and size == "390":
            page.screenshot(path=str(screenshots / "lobby-phone-en.png"), full_page=True)
        assert page.errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", list(PHONES))
@pytest.mark.parametrize(("game", "seats"), GAMES, ids=[g for g, _ in GAMES])
def test_a_board_at_phone_width_is_readable_and_played_by_taps(browser: Any, web_server: ThreadServer, game: str,
                                                               seats: int, size: str, screenshots: Path | None) -> None:
    context, page = _phone(browser, size)
    try:
        fill_lobby(page, web_server.base, game, seats=seats, bot="random")
        page.locator("#create-button").tap()
        page.wait_for_url("**/play/**")
        match_id = page.url.rsplit("/play/", 1)[1]
        page.wait_for_selector(f"#board svg.{game}")
        settle(page)
        assert page.get_attribute("body", "data-acting") == "true", "seat 0 may act at the start"

        screen = PHONES[size]["width"]
        width, viewport = page.evaluate(OVERFLOW)
        assert max(width, viewport) <= screen, f"the play page is {width} px wide on a {screen} px screen"
        header = page.evaluate(_BOXES, "header a, header button, header [role=button], .zoom button, .side h2.fold")
        assert {b[0] for b in header} >= {"undo", "redo", "Zoom in", "Zoom out"}  # Redo is on the screen too
        assert _small(header) == []
        right = page.evaluate("() => Math.max(...[...document.querySelectorAll('header > *')].map((e) => e.getBoundingClientRect().right))")
        assert right <= screen

        _readable(page, screen, "at the start")
        if screenshots is not None and size == "390":
            page.screenshot(path=str(screenshots / f"play-{game}-phone-en.png"), full_page=True)

        # legal moves by taps alone (a first step, a card, may select; a choice bar may open), each drawing
        # on the way as readable as the first
        rnd = random.Random(5)
        for taps in range(1, 80):
            if _seat_commands(web_server.store, match_id) >= TAPPED or page.get_attribute("body", "data-over") == "true":
                break
            choices = page.query_selector_all("#choices .choice")
            if choices:
                assert _small(page.evaluate(_BOXES, "#choices button")) == []
                rnd.choice(choices).tap()
            else:
                rnd.choice(targets(page)).tap()
            settle(page)
            if page.get_attribute("body", "data-over") != "true":
                _readable(page, screen, f"after {taps} taps")
        played = _seat_commands(web_server.store, match_id)
        assert played >= TAPPED or (played >= 1 and page.get_attribute("body", "data-over") == "true"), played

        # the zoom control makes the board larger; the page stays as wide as the screen
        before = page.evaluate("() => document.querySelector('#board svg').getBoundingClientRect().width")
        page.locator(".zoom button[aria-label='Zoom in']").tap()
        page.wait_for_function("(w) => document.querySelector('#board svg').getBoundingClientRect().width > w", arg=before)
        assert max(page.evaluate(OVERFLOW)) <= screen

        # the header has room for one more control (a language switch): the page still fits
        page.evaluate("""() => { const b = document.createElement('button'); b.className = 'tool'; b.textContent = 'EN';
            document.getElementById('undo').before(b); }""")
        assert max(page.evaluate(OVERFLOW)) <= screen
        assert _small(page.evaluate(_BOXES, "header a, header button")) == []
        assert page.errors == []
    finally:
        context.close()
