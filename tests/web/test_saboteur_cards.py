"""Saboteur's hand cards in a real browser: every card's name fits on the card, and shows whole on hover.

Deluxe path cards have names of up to 34 characters; a hand card is 58 units
wide. The board used to cut names at 14 characters and let them run past the
card's edge.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from serverkit import ThreadServer
from webkit import played, save

from meeple.games.saboteur.data import KINDS

LONG = 20  # a name this long cannot stand on one line of a hand card


def _position_with_long_names(m: Any, seat: int) -> int:
    """The last position at which ``seat`` holds at least two cards with long names."""
    for n in range(m.cursor, 0, -1):
        m.seek(n)
        if m.to_act and sum(len(KINDS[k].name) >= LONG for k in m.view(seat).hand) >= 2:
            return n
    raise AssertionError("no position of this match has long-named cards in the hand")


def test_every_hand_card_shows_its_whole_name_within_the_card(page: Any, web_server: ThreadServer, tmp_path: Path) -> None:
    m = played("saboteur", 3, seed=1, options={"edition": "deluxe"}, limit=60)
    at = _position_with_long_names(m, 0)
    hand = m.view(0).hand
    page.goto(web_server.base + "/debug")
    page.wait_for_selector("body[data-ready=true]")
    page.set_input_files("#file", str(save(tmp_path / "deluxe.meeple", m.to_bytes())))
    page.wait_for_selector("body[data-log][data-loading=false]")
    page.select_option("#as", "0")
    page.fill("#jump", str(at))
    page.dispatch_event("#jump", "change")
    page.wait_for_selector(f"body[data-at='{at}'][data-loading=false]")
    page.wait_for_selector("#board svg.saboteur g.card[data-slot]")
    cards = page.evaluate("""() => [...document.querySelectorAll("#board svg g.card[data-slot]")].map((g) => {
        const r = g.querySelector("rect.hit").getBBox();
        const texts = [...g.querySelectorAll(":scope > text")].map((t) => {
            const b = t.getBBox();
            return { text: t.textContent, left: b.x, right: b.x + b.width, top: b.y, bottom: b.y + b.height };
        });
        return { kind: g.dataset.kind, title: (g.querySelector(":scope > title") || {}).textContent,
                 left: r.x, right: r.x + r.width, top: r.y, bottom: r.y + r.height, texts };
    })""")
    assert [c["kind"] for c in cards] == [KINDS[k].name for k in hand]
    long_ones = 0
    for card in cards:
        assert card["title"] == card["kind"].replace("-", " ")
        shown = " ".join(t["text"] for t in card["texts"] if t["text"] not in ("pick", "lamp", "cart"))
        words = card["kind"].split("-")
        for word in words:  # every word of the name is on the card, whole or shortened
            assert word in shown or {"horizontal": "horiz.", "vertical": "vert."}.get(word, "-") in shown, (word, shown)
        for t in card["texts"]:
            assert card["left"] <= t["left"] and t["right"] <= card["right"], (card["kind"], t)
            assert card["top"] <= t["top"] and t["bottom"] <= card["bottom"], (card["kind"], t)
        long_ones += len(card["kind"]) >= LONG
    assert long_ones >= 2
