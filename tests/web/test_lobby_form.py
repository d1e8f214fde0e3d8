"""The lobby's form asks for everything the HTTP API takes: a turn clock and the rule options."""

from __future__ import annotations

from typing import Any

import httpx
from serverkit import ThreadServer
from webkit import fill_lobby


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


def test_options_a_variant_does_not_take_are_refused_and_make_no_match(page: Any, web_server: ThreadServer) -> None:
    before = len(httpx.get(f"{web_server.base}/api/matches").json())
    _form(page, web_server.base, "saboteur", "standard", 3)
    page.fill("#option-list [data-option=pass_discards]", "3")  # a Deluxe rule
    page.click("#create-button")
    page.wait_for_selector(".toast.error")
    assert "Deluxe" in page.inner_text(".toast.error")
    assert "/play/" not in page.url
    assert len(httpx.get(f"{web_server.base}/api/matches").json()) == before
    _form(page, web_server.base, "gophers", "standard", 2)
    page.fill("#option-list [data-option=removed_values]", "[1,")  # not JSON
    page.click("#create-button")
    page.wait_for_selector(".toast.error:has-text('removed_values')")
    assert len(httpx.get(f"{web_server.base}/api/matches").json()) == before
