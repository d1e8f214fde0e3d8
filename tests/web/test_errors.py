"""The server's refusals in the page's language: a sentence chosen by the error's code (``static/js/errors.js``).

Statically: every code of the protocol (``ErrorCode``) and every reason an
error carries has a sentence, and each sentence a Russian text with the same
placeholders. In Chromium: a Russian browser meets real refusals (a command
the server cannot read, an undo with nothing to undo, a seat token that is
not the match's, a match that does not exist, an upload that is not a log)
and every message it shows is Russian, with the error's own fields in it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from serverkit import ThreadServer
from test_i18n import WORD, _russian
from webkit import click_through, create_from_lobby, settle

from meeple.engine.errors import Code
from meeple.server.protocol import ErrorCode

STATIC = Path(__file__).resolve().parents[2] / "src" / "meeple" / "web" / "static"
SOURCE = (STATIC / "js" / "errors.js").read_text(encoding="utf-8")


def _table(name: str) -> dict[str, str]:
    body = re.search(rf"export const {name} = \{{(.*?)\n\}};", SOURCE, re.S)
    assert body is not None, name
    return {k: json.loads(f'"{v}"') for k, v in re.findall(r'^\s*(\w+): "((?:[^"\\]|\\.)*)",$', body.group(1), re.M)}


def test_every_error_code_and_reason_has_a_sentence_in_russian() -> None:
    messages, reasons = _table("MESSAGES"), _table("REASONS")
    assert sorted(messages) == sorted(c.value for c in ErrorCode)
    # the engine's refusal codes, and the server's own reasons for a refused redo
    assert {c.value for c in Code} | {"not_yours"} <= set(reasons)
    russian = _russian()
    for english in [*messages.values(), *reasons.values()]:
        assert english in russian, english
        assert set(re.findall(r"\{(\w+)\}", russian[english])) == set(re.findall(r"\{(\w+)\}", english)), english
        assert not WORD.search(re.sub(r"\{\w+\}|meeple", "", russian[english])), russian[english]


def _toasts(page: Any) -> list[str]:
    return [str(t).strip() for t in page.eval_on_selector_all("#toasts .toast", "(ts) => ts.map((t) => t.textContent)")]


def _context(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ru-RU")
    context.set_default_timeout(30_000)
    return context


def test_a_russian_browser_shows_the_servers_refusals_in_russian(browser: Any, web_server: ThreadServer,
                                                                 tmp_path: Path) -> None:
    context = _context(browser)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    received: list[dict[str, Any]] = []
    rewritten: list[str] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "play" and len(rewritten) < 2:
                # the first command the page sends arrives as one the server cannot read, the second as an undo
                if not rewritten:
                    msg["command"] = {"type": "no-such-command"}
                else:
                    msg = {"type": "undo", "cursor": msg["cursor"], "id": msg["id"]}
                rewritten.append(msg["type"])
            server.send(json.dumps(msg))

        def to_page(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "error":
                received.append(msg)
            ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    try:
        page.route_web_socket(re.compile(r".*/ws$"), route)
        create_from_lobby(page, web_server.base, "kings", bot="random")
        settle(page)
        click_through(page, seed=4, until=lambda _: len(rewritten) >= 2 and len(received) >= 2)
        page.wait_for_function("() => document.querySelectorAll('#toasts .toast').length >= 2")
        codes = [m["code"] for m in received]
        assert codes[:2] == ["bad_command", "undo_refused"], received
        shown = _toasts(page)
        assert shown[0].startswith("Сервер не смог прочитать ход (в ") and received[0]["path"] in shown[0], shown
        assert shown[1].startswith("Сейчас отменить нельзя: "), shown

        # a seat token that is not the match's: the page falls back to watching, and says so
        match = page.url.rsplit("/play/", 1)[1]
        page.evaluate("(m) => localStorage.setItem('meeple.seats', JSON.stringify({[m]: {seat: 0, token: 'x'}}))", match)
        page.reload()
        page.wait_for_selector("#toasts .toast")
        assert _toasts(page) == ["Ключ места этого браузера здесь больше не действует; вы зритель."]

        page.goto(web_server.base + "/play/no-such-match")
        page.wait_for_selector("#board p.error")
        assert page.inner_text("#board p.error") == "На этом сервере нет такой партии."

        page.goto(web_server.base + "/debug")
        page.wait_for_selector("body[data-ready=true]")
        junk = tmp_path / "junk.meeple"
        junk.write_bytes(b"not a log at all")
        page.set_input_files("#file", str(junk))
        page.wait_for_selector("#toasts .toast")
        assert _toasts(page) == ["Это не журнал партии meeple, который можно прочитать."]
        seen = shown + _toasts(page)
        assert [s for s in seen if WORD.search(s.replace("meeple", "").replace(received[0]["path"], ""))] == []
    finally:
        context.close()
    assert errors == []
