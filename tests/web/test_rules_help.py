"""What the client tells a player about a game: its rules page, the legend of its board, the details panel.

Without a browser: ``GET /rules/GAME`` serves the rules page of each bundled game (its texts, one per
language, are package data with the same sections), and the board info carries each game's sentences of
what its cards and squares do, from the game's text catalog, in both languages.

In Chromium, for each bundled game, at desktop size (1280x800) and phone size (390x844), in English and in
Russian: the rules link of the lobby and of the play page opens the game's rules page in the page's
language; every abbreviation the board shows (read from its drawn text as the match goes on) is in its
legend; hovering a card or square (desktop), or tapping it with the details button pressed (phone), shows
its picture and the game's sentence for it, and plays nothing.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from serverkit import ThreadServer
from webkit import click_through, create_from_lobby, settle

from meeple.server.web import RULES, has_rules
from meeple.web import BUNDLED, catalogs

#: Each game's name at the top of its rules page.
TITLES = {
    "saboteur": {"en": "Saboteur", "ru": "Саботёр (Гномы-вредители)"},
    "kings": {"en": "Underground Kings", "ru": "Подземные короли"},
    "gophers": {"en": "Gophers", "ru": "Проныры"},
    "mordred": {"en": "Mordred", "ru": "Мордред"},
}
#: The parts every rules page has, by their ids (the same in both languages).
SECTIONS = ("goal", "turn", "scoring", "end")
#: What each game's details test points at on the board.
ITEMS = {"saboteur": "#board g.card[data-slot]", "kings": "#board g.mine", "gophers": "#board g.hole",
         "mordred": "#board g.area"}
CYRILLIC = re.compile("[А-Яа-яЁё]")
ENGLISH = re.compile(r"[A-Za-z]{3,}")
#: Ordinal numbers ("1st", "3-я"): words, not abbreviations.
ORDINALS = {"0st", "0nd", "0rd", "0th", "0-я", "0-й", "0-е"}


def words(text: str) -> list[str]:
    """A drawn string's words, as the legend test compares them: numbers as 0, outer punctuation off."""
    text = re.sub(r"(\d)\s*\+\s*(?=\d)", r"\1 ", text)  # a sum of dice, "3 + 5"
    out = []
    for raw in text.split():
        for part in re.split(r"(?<=[\w.])\+(?=\w)", raw):  # tools joined, "pick+lamp"
            w = re.sub(r"\d+", "0", part.strip("()[],;:·«»"))
            if w and w not in "·—–/":
                out.append(w)
    return out


def abbreviations(text: str) -> set[str]:
    """The words of a drawn string that a player needs a legend for: numbers with a unit or letter, marks."""
    if re.fullmatch(r"(\S )+\S", text.strip()):  # a word written with its letters spaced out
        return set()
    found = set()
    for w in words(text):
        short = ("0" in w and w.lstrip("-−").replace("0", "") != "" and w not in ORDINALS) or w.endswith("?") \
            or (w.endswith(".") and len(w) <= 7) or w.startswith("+") or w == "−" \
            or re.fullmatch("[A-ZА-ЯЁ]{1,2}", w) is not None
        if short:
            found.add(w)
    return found


def test_the_legend_test_finds_abbreviations_and_leaves_words() -> None:
    assert abbreviations("3pt d2 ↓2 +O") == {"0pt", "d0", "↓0", "+O"}
    assert abbreviations("seat 0 · you: £4 · road 2 · V1 T0 C0") == {"£0", "V0", "T0", "C0"}
    assert abbreviations("pile + A3 + A5") == {"+", "A0"}
    assert abbreviations("Last roll: seat 1, row B, dice 3 + 5: £7") == {"B", "£0"}
    assert abbreviations("кир.+фон.") == {"кир.", "фон."}
    assert abbreviations("−3 points") == abbreviations("-12") == set()  # a negative number is a number
    assert abbreviations("E N G L A N D") == set() and abbreviations("Round 1 of 3 · play · pile 40") == set()


@pytest.mark.parametrize("game", sorted(BUNDLED))
def test_each_bundled_game_has_a_rules_page_and_its_sentences_in_both_languages(game: str) -> None:
    assert has_rules(game)
    for lang in ("en", "ru"):
        text = (RULES / f"{game}.{lang}.html").read_text(encoding="utf-8")
        assert f'<article class="rules-text" lang="{lang}">' in text
        assert f"<h1>{TITLES[game][lang]}</h1>" in text
        assert [s for s in SECTIONS if f'<section id="{s}">' not in text] == []
        body = re.sub(r"<[^>]+>", " ", text)
        if lang == "ru":
            assert [w for w in ENGLISH.findall(body) if w != "rules"] == []
        else:
            assert not CYRILLIC.search(body)
    en, ru = catalogs.about(game, "en"), catalogs.about(game, "ru")
    assert en.keys() == ru.keys() and len(en) >= 5
    assert [k for k in en if CYRILLIC.search(en[k]) or not CYRILLIC.search(ru[k])] == []
    # the sentences are not among the game's words the boards look names up in
    assert not set(ru.values()) & set(catalogs.words(game, "ru").values())


def test_the_rules_route_and_the_board_info(web_server: ThreadServer) -> None:
    r = httpx.get(web_server.base + "/rules/kings")
    assert r.status_code == 200 and 'src="static/js/rules.js"' in r.text
    assert r.headers["content-security-policy"].startswith("default-src 'self'")
    assert httpx.get(web_server.base + "/static/rules/kings.ru.html").text.count("<section") >= 4
    missing = httpx.get(web_server.base + "/rules/no-such-game")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    info = httpx.get(web_server.base + "/api/web/boards/saboteur", params={"lang": "ru"}).json()
    assert info["rules"] == "rules/saboteur"
    assert info["about"]["broken-pickaxe"].startswith("Сломанная кирка: сыграйте на игрока")
    english = httpx.get(web_server.base + "/api/web/boards/saboteur").json()["about"]
    assert english["broken-pickaxe"] == ("Broken pickaxe: play it on a player; they cannot lay path cards until the "
                                         "pickaxe is repaired.")


# ---------------------------------------------------------------------------------------------- in Chromium

#: (game, size, language): every game at both sizes and in both languages, four browser sessions in all each.
CASES = [(g, size, lang) for g, pairs in (("saboteur", (("desktop", "en"), ("phone", "ru"))),
                                          ("mordred", (("desktop", "en"), ("phone", "ru"))),
                                          ("kings", (("desktop", "ru"), ("phone", "en"))),
                                          ("gophers", (("desktop", "ru"), ("phone", "en"))))
         for size, lang in pairs]
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

_BOARD_TEXTS = "() => [...document.querySelectorAll('#board svg text')].map((t) => t.textContent)"
_LEGEND = "() => [...document.querySelectorAll('#legend .legend-token')].map((t) => t.textContent)"
_LEGEND_TEXT = "() => [...document.querySelectorAll('#legend li')].map((li) => [...li.children].map((c) => c.textContent).join(' '))"


def _context(browser: Any, size: str, lang: str) -> Any:
    phone = size == "phone"
    context = browser.new_context(viewport=SIZES[size], has_touch=phone, is_mobile=phone,
                                  locale="ru-RU" if lang == "ru" else "en-GB")
    context.set_default_timeout(30_000)
    return context


def _check_rules_page(page: Any, game: str, lang: str) -> None:
    page.wait_for_selector("body[data-ready=true]")
    assert page.get_attribute("html", "lang") == lang
    assert page.inner_text("#rules h1") == TITLES[game][lang]
    parts = page.eval_on_selector_all("#rules section", "(ss) => ss.map((s) => s.id)")
    assert parts[0] == "goal" and parts[-1] == "end" and set(SECTIONS) <= set(parts)
    text = page.inner_text("#rules")
    if lang == "ru":
        assert page.inner_text("header h1") == "Правила" and not ENGLISH.findall(text)
    else:
        assert page.inner_text("header h1") == "Rules" and not CYRILLIC.search(text)


def _legend_covers_the_board(page: Any, seen: set[str]) -> None:
    """Every abbreviation drawn now is among the legend's strings; what was found is added to ``seen``."""
    legend = {w for token in page.evaluate(_LEGEND) for w in words(token)}
    found = {a for text in page.evaluate(_BOARD_TEXTS) for a in abbreviations(text)}
    assert found - legend == set(), (sorted(found - legend), sorted(legend))
    seen |= found


@pytest.mark.parametrize(("game", "size", "lang"), CASES, ids=[f"{g}-{s}-{lang}" for g, s, lang in CASES])
def test_rules_legend_and_details_on_the_play_page(browser: Any, web_server: ThreadServer, game: str, size: str,
                                                  lang: str) -> None:
    context = _context(browser, size, lang)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        # the lobby's rules link follows the game picker
        page.goto(web_server.base + "/")
        page.wait_for_selector("body[data-ready=true]")
        page.select_option("#game", game)
        assert page.get_attribute("#rules-link", "href") == f"rules/{game}"
        create_from_lobby(page, web_server.base, game, bot="random")
        page.wait_for_selector("body[data-help=ready]")
        settle(page)
        # the rules page, from the play page's header: a tab of its own, in the page's language
        with context.expect_page() as opened:
            if size == "phone":
                page.locator("#rules-link").tap()
            else:
                page.click("#rules-link")
        _check_rules_page(opened.value, game, lang)
        opened.value.close()
        # the legend: every abbreviation the board draws, at the start and as the match goes on
        page.click("#legend summary")
        items = page.evaluate(_LEGEND_TEXT)
        assert len(items) >= 5
        # in the page's language only (card letters such as A2 and the rows A, B, C are the same in both)
        assert [i for i in items if (ENGLISH if lang == "ru" else CYRILLIC).search(i)] == []
        seen: set[str] = set()
        _legend_covers_the_board(page, seen)
        expected = catalogs.about(game, lang)
        # the details: a hover (desktop) or, with the details button pressed, a tap that plays nothing (phone)
        item = page.locator(ITEMS[game]).first
        if size == "phone":
            page.locator("#details").tap()
            assert page.get_attribute("#details", "aria-pressed") == "true"
            cursor = page.get_attribute("body", "data-cursor")
            item.tap()
        else:
            item.hover()
        page.wait_for_selector("#detail:not([hidden]) .detail-text")
        said = page.inner_text("#detail .detail-text")
        assert any(said.startswith(s) for s in expected.values()), said
        assert page.inner_text("#detail .detail-title").strip()
        assert page.locator("#detail svg.detail-picture").count() == 1
        assert page.locator("#detail .act, #detail [data-kind], #detail [data-hole]").count() == 0
        if game == "saboteur":
            kind = item.get_attribute("data-kind")
            assert said in (expected.get(kind or ""), expected["path"])
        if size == "phone":
            assert page.get_attribute("body", "data-busy") == "false"
            assert page.get_attribute("body", "data-cursor") == cursor  # the tap played nothing
            page.locator("#details").tap()
            page.wait_for_selector("#detail", state="hidden")
        assert (CYRILLIC.search(said) is not None) == (lang == "ru")

        # on through the match: the legend still covers what the board draws
        page.recorder = type("Seen", (), {"errors": errors})()

        def look(clicks: int) -> None:
            if clicks % 10 == 0:
                settle(page, "body[data-busy=false]")
                _legend_covers_the_board(page, seen)

        click_through(page, seed=4, max_clicks=400, until=lambda clicks: clicks >= 60, on_click=look)
        assert seen, "the board drew no abbreviation at all"
    finally:
        context.close()
    assert errors == []
