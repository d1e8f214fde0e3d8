"""The pages in English and Russian: one string table, every visible string in it, the language chosen and kept.

The pages write English message ids through ``t()`` (``static/js/i18n.js``) and
mark their static text with ``data-i18n``; ``static/js/strings.js`` gives each
id its Russian text. Statically: every id the scripts and pages use has a
Russian text with the same placeholders. In Chromium: a browser whose
language is Russian gets every page (the lobby with every variant's rule
options, each bundled game's play page through a whole match played by
clicks, its end screen, the lobby's rows, the debugger) with ``<html lang="ru">`` and no English word left in
its visible text (the raw data the debugger shows, marked ``.raw``, aside),
and the language switch changes and keeps the choice.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from serverkit import ThreadServer
from webkit import click_through, create_from_lobby, played, save, settle

from meeple.engine import available, get_game, seen_by
from meeple.server.bots import bot_factories

STATIC = Path(__file__).resolve().parents[2] / "src" / "meeple" / "web" / "static"
#: A call of the table, t("id", ...) or ctx.t("id", ...), with a literal id.
CALL = re.compile(r'\bt\(\s*"((?:[^"\\]|\\.)*)"')
MARK = re.compile(r'data-i18n(?:-title|-placeholder|-aria)?="([^"]*)"')
ENTRY = re.compile(r'^\s*"((?:[^"\\]|\\.)*)":\s*(?:\n\s*)?"((?:[^"\\]|\\.)*)"', re.M)
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _russian() -> dict[str, str]:
    text = (STATIC / "js" / "strings.js").read_text(encoding="utf-8")
    entries = [(json.loads(f'"{k}"'), json.loads(f'"{v}"')) for k, v in ENTRY.findall(text)]
    assert len(entries) == len(dict(entries)), "an id is in the table twice"
    return dict(entries)


def _used() -> set[str]:
    ids = set()
    for path in STATIC.rglob("*.js"):
        ids |= {json.loads(f'"{m}"') for m in CALL.findall(path.read_text(encoding="utf-8"))}
    for path in STATIC.glob("*.html"):
        ids |= set(MARK.findall(path.read_text(encoding="utf-8")))
    return ids


def test_every_reason_the_engine_gives_for_refusing_undo_has_a_russian_text() -> None:
    source = (STATIC.parents[1] / "engine" / "match.py").read_text(encoding="utf-8")
    reasons = re.findall(r'UndoCheck\(False, "([^"]+)"\)', source)
    assert len(reasons) >= 4
    russian = _russian()
    assert [r for r in reasons if r not in russian] == []
    assert 'f"the last command was played by seat {rec.actor}, not {seat}"' in source  # play.js reads this one
    assert "the last command was played by seat {a}, not {b}" in russian


def test_every_id_the_pages_use_has_a_russian_text_with_the_same_placeholders() -> None:
    russian = _russian()
    used = _used()
    assert len(used) > 200 and len(russian) >= len(used)
    assert sorted(used - set(russian)) == []
    for msgid, text in russian.items():
        assert set(PLACEHOLDER.findall(text)) <= set(PLACEHOLDER.findall(msgid)), msgid
        assert text or msgid in {"st", "nd", "rd", "th"}, msgid  # English ordinal endings: none in Russian


def test_every_bot_a_match_may_seat_has_a_russian_name() -> None:
    # the lobby names the bots of the game chosen (t(name)): they come from the games, not from the scripts
    russian = _russian()
    names = {name for game in available() for name in bot_factories(get_game(game))}
    assert "fitted" in names and sorted(names - set(russian)) == []


#: Every visible text node of the page, with what it sits in: skips the debugger's raw data (.raw), the
#: language switch (it names each language in itself), drop-down lists, tooltips and what is hidden.
_TEXTS = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    const text = n.textContent.trim();
    if (!text || !el || el.closest(".raw, #lang, select, title, script, style")) continue;
    if (el.checkVisibility && !el.checkVisibility()) continue;
    out.push(text);
  }
  return out;
}"""
#: An English word: three Latin letters or more (card letters like A3, area codes drawn in Cyrillic, pass).
WORD = re.compile(r"[A-Za-z]{3,}")
#: Words that are the same in both languages: the program's name.
SAME = {"meeple"}


class Seen:
    """What :func:`webkit.click_through` reads of a page: the page's errors."""

    def __init__(self, errors: list[str]) -> None:
        self.errors = errors


def _english_left(page: Any) -> list[str]:
    return [t for t in page.evaluate(_TEXTS) if any(w not in SAME for w in WORD.findall(t))]


def _context(browser: Any, locale: str) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    context.set_default_timeout(30_000)
    return context


@pytest.mark.parametrize("game", ["saboteur", "kings", "mordred", "gophers"])
def test_a_russian_browser_plays_a_whole_match_in_russian(browser: Any, web_server: ThreadServer,
                                                                     game: str) -> None:
    context = _context(browser, "ru-RU")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(web_server.base + "/")
        page.wait_for_selector("body[data-ready=true]")
        assert page.get_attribute("html", "lang") == "ru"
        assert page.inner_text("h1") == "Лобби"
        assert _english_left(page) == []
        page.select_option("#game", game)
        page.click("#options summary")  # the rule options of every variant, by name, with what each does
        for variant in page.eval_on_selector_all("#variant option", "(os) => os.map((o) => o.value)"):
            page.select_option("#variant", variant)
            left = _english_left(page)
            assert left == [], (variant, left)
        create_from_lobby(page, web_server.base, game, bot="random")
        settle(page)
        assert page.get_attribute("html", "lang") == "ru"
        assert not WORD.search(page.get_attribute("#undo", "title") or ""), page.get_attribute("#undo", "title")
        left = _english_left(page)
        assert left == [], left
        # a whole match by clicks: what the board shows on the way (every 15 clicks) and the end screen
        page.recorder = Seen(errors)
        seen: list[str] = []

        def look(clicks: int) -> None:
            if clicks % 15 == 0:
                settle(page, "body[data-busy=false]")
                seen.extend(_english_left(page))

        click_through(page, seed=3, on_click=look)
        assert page.is_visible("#outcome")
        seen.extend(_english_left(page))
        assert seen == [], seen
        page.goto(web_server.base + "/")  # the match's row: who won, when it started, its last move
        settle(page, "#finished .match-row .winner")
        left = _english_left(page)
        assert left == [], left
    finally:
        context.close()
    assert errors == []


def test_the_debugger_speaks_russian_and_the_switch_keeps_english(browser: Any, web_server: ThreadServer,
                                                                   tmp_path: Path) -> None:
    m = played("saboteur", 3, seed=2, limit=30)
    path = save(tmp_path / "s.meeple", m.to_bytes())
    context = _context(browser, "ru")
    page = context.new_page()
    try:
        page.goto(web_server.base + "/debug")
        page.wait_for_selector("body[data-ready=true]")
        page.set_input_files("#file", str(path))
        page.wait_for_selector("body[data-log][data-loading=false]")
        page.select_option("#as", "0")
        page.wait_for_selector("#board svg.saboteur")
        settle(page, "body[data-loading=false]")
        assert page.get_attribute("html", "lang") == "ru"
        left = _english_left(page)
        assert left == [], left
        seen = seen_by(m.game, m.records[-1], 0)
        said = m.game.text(seen.command, seen.events, "ru")
        assert said in page.inner_text("#record")  # the game's own sentence, in Russian
        # the switch: English, kept for the next page of this browser
        page.select_option("#lang", "en")
        page.wait_for_selector("html[lang=en]")
        page.wait_for_selector("body[data-ready=true]")
        assert page.inner_text("h1") == "Replay debugger"
        page.goto(web_server.base + "/")
        page.wait_for_selector("body[data-ready=true]")
        assert page.get_attribute("html", "lang") == "en"
        assert page.inner_text("h1") == "Lobby"
    finally:
        context.close()


def test_an_english_browser_gets_english_pages(browser: Any, web_server: ThreadServer) -> None:
    context = _context(browser, "en-GB")
    page = context.new_page()
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
    try:
        create_from_lobby(page, web_server.base, "kings", bot="random")
        settle(page)
        # the hello speaks the protocol version the server's GET /api gives, and asks for English texts
        hello = next(json.loads(m) for m in sent if '"hello"' in m)
        assert hello["protocol"] == httpx.get(web_server.base + "/api").json()["protocol"] and hello["lang"] == "en"
        assert page.get_attribute("html", "lang") == "en"
        cyrillic = [t for t in page.evaluate(_TEXTS) if re.search("[А-Яа-яЁё]", t)]
        assert cyrillic == []
        assert "Your hand" in _english_left(page)  # what finds English left in a Russian page finds it here
        assert page.get_attribute("#lang", "aria-label") == "Language"
    finally:
        context.close()
