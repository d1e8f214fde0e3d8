"""The lobby: its form asks for everything the HTTP API takes (a turn clock, the rule options of the chosen
variant, by readable names), and its rows say whose turn it is, when a match started, its last move and
who won, a page at a time."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from serverkit import ThreadServer
from webkit import fill_lobby, settle

import meeple
from meeple.server.hub import game_info

#: A value other than the default for each bundled option the form may offer.
OTHER = {"removed_values": [1, 2], "bank": "harder", "end": "round", "warriors": 10, "road_forward": 8,
         "road_back": 2, "used_up": "next-turn", "gold_cards": "miners", "next_starter": "ender",
         "pass_discards": 3, "broken_tools_forfeit": True, "gold_pass": "clockwise", "saboteur_pay": "cards",
         "round_end": "lap", "geologists": "each", "siege": "any"}


def _form(page: Any, base: str, game: str, variant: str, seats: int) -> None:
    fill_lobby(page, base, game, variant=variant, seats=seats, bot="random")
    page.click("#options summary")


def test_a_match_is_created_with_a_clock_and_rule_options(page: Any, web_server: ThreadServer) -> None:
    _form(page, web_server.base, "saboteur", "deluxe", 3)
    assert page.query_selector("#option-list [data-option=edition]") is None  # the variant list chooses the box
    assert page.get_attribute("#option-list [data-option=pass_discards]", "title")  # its help, from the field
    page.fill("#option-list [data-option=pass_discards]", "3")
    page.select_option("#option-list [data-option=geologists]", '"each"')
    page.fill("#clock", "30")
    page.click("#create-button")
    page.wait_for_url("**/play/**")
    match_id = page.url.rsplit("/play/", 1)[1]
    made = httpx.get(f"{web_server.base}/api/matches/{match_id}").json()
    assert made["clock"] == 30
    assert made["options"] == {"edition": "deluxe", "pass_discards": 3, "geologists": "each"}  # only what changed


def test_a_field_that_is_not_json_is_refused_and_makes_no_match(page: Any, web_server: ThreadServer) -> None:
    before = len(httpx.get(f"{web_server.base}/api/matches").json())
    _form(page, web_server.base, "gophers", "standard", 2)
    page.fill("#option-list [data-option=removed_values]", "[1,")  # not JSON
    page.click("#create-button")
    page.wait_for_selector(".toast.error:has-text('Supply values taken out of the box')")
    assert "/play/" not in page.url
    assert len(httpx.get(f"{web_server.base}/api/matches").json()) == before


def _takes(game: str, variant: str, option: str) -> bool:
    """Whether a match of ``variant`` starts with ``option`` set to another value than its default."""
    g = meeple.get_game(game)
    options = {**meeple.engine.wire.to_wire(g.variant_options(variant)), option: OTHER[option]}
    low, _ = g.info.seat_range(variant)
    try:
        meeple.Match.start(game, seats=max(low, 3) if game != "kings" else 2, seed=1, options=options)
    except meeple.ConfigError:
        return False
    return True


@pytest.mark.parametrize(("game", "variants"), [("saboteur", ["standard", "deluxe"]), ("gophers", ["standard", "beginner"]),
                                                ("mordred", ["standard", "short"])])
def test_the_form_offers_the_options_of_the_chosen_variant_by_readable_names(page: Any, web_server: ThreadServer,
                                                                            game: str, variants: list[str]) -> None:
    info = game_info(meeple.get_game(game))
    set_by_variants = {k for v in info["variants"] for k in v["options"]}
    for variant in variants:
        _form(page, web_server.base, game, variant, 3 if game != "gophers" else 2)
        shown = page.eval_on_selector_all("#option-list [data-option]", "(fs) => fs.map((f) => f.dataset.option)")
        # every option shown is one this variant takes; every option it takes (and no variant sets) is shown
        takes = [o["name"] for o in info["options"] if o["name"] not in set_by_variants and _takes(game, variant, o["name"])]
        if game == "gophers" and variant != "beginner":
            takes.remove("bank")  # taken, but only the beginner rules have a bank
        assert shown == takes, (variant, shown, takes)
        names = page.eval_on_selector_all("#option-list .option-name", "(ns) => ns.map((n) => n.textContent)")
        assert len(names) == len(shown) and not any("_" in n for n in names), names
    if game == "saboteur":  # base-only rules are not offered with Deluxe, and the reverse
        assert "gold_pass" in _takes_all(game, "standard") and "gold_pass" not in _takes_all(game, "deluxe")
        _form(page, web_server.base, game, "standard", 3)
        assert page.query_selector("#option-list [data-option=pass_discards]") is None
        assert page.query_selector("#option-list [data-option=geologists]") is None
        _form(page, web_server.base, game, "deluxe", 3)
        for base_only in ("gold_cards", "broken_tools_forfeit", "gold_pass", "saboteur_pay"):
            assert page.query_selector(f"#option-list [data-option={base_only}]") is None


def _takes_all(game: str, variant: str) -> list[str]:
    info = game_info(meeple.get_game(game))
    return [o["name"] for o in info["options"] if o["name"] in OTHER and _takes(game, variant, o["name"])]


def test_the_rows_say_whose_turn_when_it_started_the_last_move_and_who_won(page: Any, web_server: ThreadServer) -> None:
    over = web_server.lobby.create(game="mordred", seats=3, bots={"0": "random", "1": "random", "2": "random"})
    waiting = web_server.lobby.create(game="kings", seats=2, bots={"1": "random"})  # seat 0 open: its turn
    page.goto(web_server.base + "/")
    page.wait_for_selector(f"#finished [data-match='{over['id']}']", timeout=60_000)
    settle(page, f"#playing [data-match='{waiting['id']}'] .turn")
    described = httpx.get(f"{web_server.base}/api/matches/{over['id']}").json()
    winners = [i for i in described["outcome"]["winners"]]
    row = page.inner_text(f"#finished [data-match='{over['id']}']")
    assert "won: " + ", ".join(f"seat {s} (random bot)" for s in winners) in row
    assert "started " in row and "last move " in row
    assert page.inner_text(f"#playing [data-match='{waiting['id']}'] .turn") == "to move: seat 0"
    listed = {m["id"]: m for m in httpx.get(f"{web_server.base}/api/matches").json()}
    assert listed[over["id"]]["winners"] == winners and listed[over["id"]]["records"] == described["cursor"]
    assert listed[waiting["id"]]["to_act"] == [0] and listed[waiting["id"]]["updated"] >= listed[waiting["id"]]["created"][:19]


def test_the_lists_show_a_page_at_a_time(page: Any, web_server: ThreadServer) -> None:
    made = [web_server.lobby.create(game="kings", seats=2, bots={"1": "random"})["id"] for _ in range(13)]
    page.goto(web_server.base + "/")
    settle(page, "#playing .match-row")
    assert page.locator("#playing .match-row").count() == 10
    page.click("#playing button.more")
    settle(page, "#playing .match-row:nth-child(13)")
    assert page.locator("#playing .match-row").count() == 13
    assert page.query_selector("#playing button.more") is None
    assert sorted(page.eval_on_selector_all("#playing .match-row", "(rs) => rs.map((r) => r.dataset.match)")) == sorted(made)


def test_a_match_that_ended_between_the_two_lists_requests_is_shown_once(page: Any,
                                                                        web_server: ThreadServer) -> None:
    over = web_server.lobby.create(game="mordred", seats=3, bots={"0": "random", "1": "random", "2": "random"})
    ended = httpx.get(f"{web_server.base}/api/matches/{over['id']}").json()
    # the list of matches in progress was asked for just before the match ended, so it still holds it
    def stale(route: Any) -> None:
        listed = route.fetch().json()
        route.fulfill(json=[{**ended, "status": "in_progress"}, *listed])

    page.route(re.compile(r"/api/matches\?.*status=in_progress"), stale)
    page.goto(web_server.base + "/")
    page.wait_for_selector(f"#finished [data-match='{over['id']}']", timeout=60_000)
    settle(page, "body[data-ready=true]")
    assert page.eval_on_selector_all(f"[data-match='{over['id']}']", "(rs) => rs.map((r) => r.closest('section, [id]').id)") \
        == ["finished"]


def test_each_row_links_to_its_games_rules_where_it_has_a_page(page: Any, web_server: ThreadServer) -> None:
    over = web_server.lobby.create(game="mordred", seats=3, bots={"0": "random", "1": "random", "2": "random"})
    waiting = web_server.lobby.create(game="kings", seats=2, bots={"1": "random"})
    unruled = web_server.lobby.create(game="gophers", seats=2, bots={"1": "random"})
    # a game without a rules page: the board info says so (rules: null) and its row offers no link
    info = httpx.get(f"{web_server.base}/api/web/boards/gophers").json()
    page.route("**/api/web/boards/gophers*", lambda route: route.fulfill(json={**info, "rules": None}))
    page.goto(web_server.base + "/")
    page.evaluate("() => localStorage.setItem('meeple.lang', 'ru')")
    page.reload()
    page.wait_for_selector(f"#finished [data-match='{over['id']}']", timeout=60_000)
    settle(page, f"#playing [data-match='{waiting['id']}'] a.rules")
    links = {m["id"]: page.eval_on_selector_all(f"[data-match='{m['id']}'] a.rules", "(as) => as.map((a) => [a.getAttribute('href'), a.textContent])")
             for m in (over, waiting, unruled)}
    assert links == {over["id"]: [["rules/mordred", "Правила"]], waiting["id"]: [["rules/kings", "Правила"]], unruled["id"]: []}
    with page.expect_popup() as opened:
        page.click(f"#playing [data-match='{waiting['id']}'] a.rules")
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url == f"{web_server.base}/rules/kings"
    assert httpx.get(f"{web_server.base}/rules/kings").status_code == 200
