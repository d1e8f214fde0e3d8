"""A person plays each game in the browser against bots, by clicking what the board offers.

Each test creates the match on the lobby page, plays this browser's seat to
the end through clicks on the board (the only things clickable are built
from the seat's legal commands), and checks the result against the
referee's copy: the match is over, the seat's commands are in the log, the
log verifies. Every frame and JSON answer the page received is scanned for
what the seat may not know (other hands, roles, the deck, the seed, chain
hashes).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from serverkit import ThreadServer, scan
from webkit import click_through, create_from_lobby, fill_lobby, http_json, referee_copy, settle, targets

from meeple.server.delta import patched
from meeple.server.messages import STATE_FIELDS

#: (game, variant, seats, the board's SVG class or None for the generic page, click at which to take the picture)
GAMES = [
    ("saboteur", "standard", 3, "saboteur", 24),
    ("kings", "standard", 2, "kings", 30),
    ("gophers", "standard", 2, "gophers", 20),
    ("mordred", "standard", 3, "mordred", 12),
    ("liars-dice", "standard", 3, None, 1),
]


#: What a board must draw of a view, counted: selector (inside the board's SVG) -> the count the view gives.
DRAWN: dict[str, dict[str, Any]] = {
    "saboteur": {
        ".goal": lambda v: len(v["board"]["goals"]),
        ".laid": lambda v: len(v["board"]["cells"]),
        ".player-panel": lambda v: v["seats"],
        ".front": lambda v: sum(len(f) for f in v["front"]),
        "hand": lambda v: len(v["hand"]),
    },
    "kings": {
        ".mine": lambda v: len(v["mines"]),
        ".squad": lambda v: len(v["hand"]) + sum(len(m["stack"]) for m in v["mines"]) + sum(1 for p in v["camp"] if p),
        ".back": lambda v: sum(min(len(b), 10) for s, b in enumerate(v["hand_backs"]) if s != v["seat"]),
        ".camp-pile": lambda v: len(v["camp"]),
    },
    "gophers": {
        ".gcard": lambda v: len(v["hand"]),
        ".gift": lambda v: len(v["gift_offer"]),
        ".laid-card": lambda v: len(v["laid"][0]) + len(v["laid"][1]),
        ".seat-panel": lambda v: v["seats"],
        ".bank-card": lambda v: len(v["bank"]) if v["variant"] == "beginner" else 0,
        ".pile-card": lambda v: len(v["plus"][v["seat"]]) if v["variant"] == "beginner" and v["plus"] else 0,
    },
    "mordred": {
        ".area": lambda v: len(v["buildings"]),
        ".warrior": lambda v: sum(1 for w in v["warriors"] if w),
        ".money-row": lambda v: 3,
    },
}


#: The page shows position ``arg`` or a later one, and waits for no answer of the server.
CAUGHT_UP = "(c) => Number(document.body.dataset.cursor) >= c && document.body.dataset.busy === 'false'"
#: The page shows a later position than ``arg``, or the end.
MOVED_ON = "(c) => Number(document.body.dataset.cursor) > c || document.body.dataset.over === 'true'"


def last_view(frames: list[str]) -> Any:
    """The view of the last position the page received (its deltas applied, as delta.js does)."""
    held: Any = None
    for frame in frames:
        msg = json.loads(frame)
        if msg.get("type") in ("sync", "update", "rewind"):
            held = patched(held, msg["delta"]) if "delta" in msg else {k: msg[k] for k in STATE_FIELDS}
    return held["view"]


def _drawn(page: Any, game: str) -> tuple[dict[str, int], dict[str, int]]:
    """What the board draws and what the seat's last view says it should, counted (read on a settled page)."""
    settle(page)
    view = last_view(page.recorder.frames)
    counts = page.evaluate("""(sels) => Object.fromEntries(sels.map((s) => [s, s === "hand"
        ? [...document.querySelectorAll("#board svg .card")].filter((e) => !e.closest(".laid")).length
        : document.querySelectorAll("#board svg " + s).length]))""", list(DRAWN[game]))
    return counts, {k: f(view) for k, f in DRAWN[game].items()}


@pytest.mark.parametrize(("game", "variant", "seats", "board", "shot_at"), GAMES, ids=[g[0] for g in GAMES])
def test_a_full_match_played_by_clicks_against_bots(page: Any, web_server: ThreadServer, screenshots: Path | None,
                                                     game: str, variant: str, seats: int, board: str | None,
                                                     shot_at: int) -> None:
    lobby = screenshots / "lobby.png" if screenshots is not None and game == "saboteur" else None
    match_id = create_from_lobby(page, web_server.base, game, variant=variant, seats=seats, shot=lobby)
    if board is not None:
        page.wait_for_selector(f"#board svg.{board}")
    else:
        page.wait_for_selector("#board .generic")

    if board is not None:  # the first position, as the view has it
        drawn, expected = _drawn(page, game)
        assert drawn == expected

    def picture(clicks: int) -> None:
        if board is not None and clicks == shot_at and page.get_attribute("body", "data-over") != "true":
            drawn, expected = _drawn(page, game)  # and one well into the match
            assert drawn == expected, f"after {clicks} clicks"
        if screenshots is not None and clicks == shot_at:
            page.wait_for_selector("body[data-busy=false]")
            page.locator("main.table").screenshot(path=str(screenshots / f"{game}.png"))

    clicks = click_through(page, seed=7, on_click=picture)
    page.wait_for_selector("#outcome:not([hidden])")
    assert "Over" in page.inner_text("#outcome") or "won" in page.inner_text("#outcome")

    match, opened = referee_copy(web_server.base, match_id, web_server.store)
    assert match.is_over and opened["verify"]["ok"]
    mine = [r for r in match.records if r.actor == 0]
    assert 1 <= len(mine) <= clicks  # every command of seat 0 came from a click on its page
    assert page.get_attribute("body", "data-cursor") == str(match.cursor)

    messages = page.recorder.frames
    assert any('"type":"sync"' in m for m in messages)
    refused = [m for m in messages if '"type":"error"' in m and '"stale_cursor"' not in m]
    assert refused == []  # the board offered only what the server accepts: legal commands
    leaks = scan(messages, match, 0)
    assert leaks == [], leaks[:5]
    json_answers = [text for url, text in page.recorder.json if "/api/" in url]
    assert scan([t for t in json_answers if t.startswith("{")], match, 0) == []


def test_saboteur_deluxe_shows_fronts_and_only_the_roles_the_seat_knows(page: Any, web_server: ThreadServer) -> None:
    create_from_lobby(page, web_server.base, "saboteur", variant="deluxe", seats=5, bot="random")
    page.wait_for_selector("#board svg.saboteur")
    for clicks in range(0, 36, 6):
        click_through(page, seed=5 + clicks, until=lambda n: n >= 6)
        if page.get_attribute("body", "data-over") == "true":
            break
        drawn, expected = _drawn(page, "saboteur")
        assert drawn == expected
        view = last_view(page.recorder.frames)
        if view["phase"] != "play":
            continue
        known = {0} | {s for s, _ in view["inspected"]}  # its own role, and those it inspected
        shown = {int(p.get_attribute("data-seat")) for p in page.query_selector_all("#board svg .player-panel")
                 if "·" in (p.query_selector_all("text.small")[0].text_content() or "")}
        assert shown == known
    match_id = page.url.rsplit("/play/", 1)[1]
    assert web_server.lobby.match(match_id)["variant"] == "deluxe"
    frames = page.recorder.frames
    assert [m for m in frames if '"type":"error"' in m and '"stale_cursor"' not in m] == []


def test_a_spectator_sees_no_hand_and_cannot_act(page: Any, web_server: ThreadServer) -> None:
    created = web_server.lobby.create(game="saboteur", seats=3, bots={"0": "heuristic", "1": "heuristic", "2": "heuristic"})
    page.goto(f"{web_server.base}/play/{created['id']}")
    page.wait_for_selector("body[data-over=true]", timeout=60_000)
    assert page.get_attribute("body", "data-seat") == "spectator"
    assert page.query_selector_all(".act") == []
    match, _ = referee_copy(web_server.base, created["id"], web_server.store)
    assert scan(page.recorder.frames, match, None) == []


@pytest.mark.parametrize("variant", ["beginner", "advanced"])
def test_gophers_rule_sets_play_to_the_end_by_clicks(page: Any, web_server: ThreadServer, variant: str) -> None:
    # the beginner rules lay collections from the open bank (and give change from the seat's own pile), the
    # advanced ones add baskets: the board offers them by clicks, and draws every card the view lists
    match_id = create_from_lobby(page, web_server.base, "gophers", variant=variant, seats=2, bot="random")
    page.wait_for_selector("#board svg.gophers")

    def picture(clicks: int) -> None:
        if clicks % 10 == 0 and page.get_attribute("body", "data-over") != "true":
            drawn, expected = _drawn(page, "gophers")
            assert drawn == expected, f"after {clicks} clicks"

    click_through(page, seed=3, on_click=picture)
    page.wait_for_selector("#outcome:not([hidden])")
    match, opened = referee_copy(web_server.base, match_id, web_server.store)
    assert match.is_over and opened["verify"]["ok"]
    assert match.state.options.variant.value == variant
    assert any(r.command.tag == "add" for r in match.records if r.actor == 0), "seat 0 never laid a card"
    assert [m for m in page.recorder.frames if '"type":"error"' in m and '"stale_cursor"' not in m] == []


def test_undo_and_redo_take_back_and_replay_the_seats_own_command(page: Any, web_server: ThreadServer) -> None:
    # Mordred: a warrior placed on an empty area draws nothing, so its player may take it back
    create_from_lobby(page, web_server.base, "mordred", seats=2, bot="random")
    click_through(page, seed=3, max_clicks=200, until=lambda _: page.locator("#undo").is_enabled())
    assert page.locator("#undo").is_enabled(), "no command of this seat could be undone in 200 clicks"
    after = page.get_attribute("body", "data-cursor")
    page.click("#undo")
    page.wait_for_selector(f"body[data-busy=false]:not([data-cursor='{after}'])")
    assert int(page.get_attribute("body", "data-cursor") or 0) < int(after or 0)
    assert page.locator("#redo").is_enabled()
    page.click("#redo")
    page.wait_for_selector(f"body[data-busy=false][data-cursor='{after}']")


def test_two_people_and_a_spectator_meet_through_the_lobby(page: Any, new_page: Any, web_server: ThreadServer) -> None:
    # one browser creates a short Mordred match with an open seat and a bot, a second joins the open seat from
    # the lobby, a third watches from it; the two people play it out by clicks, each seeing only its seat
    host, guest, watcher = page, new_page(), new_page()
    fill_lobby(host, web_server.base, "mordred", variant="short", seats=3)
    host.select_option("#seat-list select[data-seat='1']", "open")
    host.select_option("#seat-list select[data-seat='2']", "bot:random")
    host.click("#create-button")
    host.wait_for_url("**/play/**")
    match_id = host.url.rsplit("/play/", 1)[1]

    guest.goto(web_server.base + "/")
    row = f".match-row[data-match='{match_id}']"
    guest.click(f"{row} button.join")  # only seat 1 is open: the one button of the row
    guest.wait_for_url(f"**/play/{match_id}")
    guest.wait_for_selector("body[data-seat='1']")
    watcher.goto(web_server.base + "/")
    watcher.wait_for_selector(row)
    assert watcher.query_selector_all(f"{row} button.join") == []  # the seat is taken now
    watcher.click(f"{row} a:text('Watch')")
    watcher.wait_for_selector("body[data-seat=spectator]")
    host.wait_for_selector("body[data-seat='0']")

    rnd = random.Random(11)
    people = (host, guest)
    for _ in range(600):
        # every page shows the server's position (or a later one), and none is waiting for an answer
        cursor = http_json(web_server.base, f"/api/matches/{match_id}")["cursor"]
        for p in (host, guest, watcher):
            p.wait_for_function(CAUGHT_UP, arg=cursor)
        if all(p.get_attribute("body", "data-over") == "true" for p in (host, guest, watcher)):
            break
        assert watcher.query_selector_all(".act") == []
        acting = [p for p in people if p.get_attribute("body", "data-acting") == "true"]
        if acting:
            settle(acting[0])
            rnd.choice(targets(acting[0])).click()
        else:  # the bot's turn (or the engine's): the host sees every record, so its cursor moves on
            host.wait_for_function(MOVED_ON, arg=cursor)
    else:
        raise AssertionError("the match did not end in 600 rounds of clicks")

    match, opened = referee_copy(web_server.base, match_id, web_server.store)
    assert match.is_over and opened["verify"]["ok"]
    assert {r.actor for r in match.records} >= {0, 1}  # both people played, each from its own page
    for p, seat in ((host, 0), (guest, 1), (watcher, None)):
        assert scan(p.recorder.frames, match, seat) == []
        assert [m for m in p.recorder.frames if '"type":"error"' in m and '"stale_cursor"' not in m] == []
        assert p.get_attribute("body", "data-cursor") == str(match.cursor)


@pytest.mark.parametrize(("locale", "cyrillic"), [("ru-RU", True), ("en-GB", False)])
def test_the_record_reads_as_sentences_in_the_browsers_language(browser: Any, web_server: ThreadServer, locale: str,
                                                                cyrillic: bool) -> None:
    import re

    created = web_server.lobby.create(game="kings", seats=2, bots={"0": "heuristic", "1": "heuristic"})
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    try:
        page = context.new_page()
        page.goto(f"{web_server.base}/play/{created['id']}")
        page.wait_for_selector("body[data-over=true]", timeout=60_000)
        lines = page.locator("#log li").all_inner_texts()
        assert len(lines) > 5
        assert all(bool(re.search("[А-Яа-яЁё]", line)) is cyrillic for line in lines)
        assert not any(re.search(r"\b[a-z]+_[a-z_]+\b", line) for line in lines)  # no event tags (squad_played)
        # numbered from 0, as the log and the CLI number records: the newest on top is record cursor - 1
        numbers = page.evaluate("[...document.querySelectorAll('#log li')].map((li) => li.value)")
        cursor = int(page.get_attribute("body", "data-cursor") or 0)
        assert numbers[0] == cursor - 1 and numbers[-1] == max(0, cursor - 200)
    finally:
        context.close()


def test_the_generic_page_speaks_the_games_own_words(page: Any, web_server: ThreadServer) -> None:
    create_from_lobby(page, web_server.base, "liars-dice", variant="standard", seats=2)
    page.wait_for_selector("#board .generic button.command")
    settle(page)
    buttons = page.locator("#board .generic button.command").all_inner_texts()
    assert "bid 1 x 1" in buttons  # Game.text (Liar's Dice: its describe), not the wire form's fields
    assert not [b for b in buttons if "quantity" in b]
    told = page.locator("#board .generic ol.told li").all_inner_texts()
    assert told and told[0] == "roll"  # the records, as the game tells them
    assert page.locator("#board .generic details.view-data").count() == 1  # the data stays, folded away
    assert page.get_attribute("#board .generic details.view-data", "open") is None
