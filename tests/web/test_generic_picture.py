"""The generic page shows a third-party game's own picture of the table (``Game.render``), for its seat only.

Liar's Dice (``meeple.examples.liars_dice``) has no board of its own: its
play page asks the socket for the seat's text picture (``hello``'s
``picture``) and shows it as it is, above the commands; it follows the
match (a bid appears in it), it shows the seat's own dice and nobody
else's, and a spectator, for whom the game has no picture but the
referee's, is sent none.
"""

from __future__ import annotations

from typing import Any

from positions import whole
from serverkit import ThreadServer
from webkit import create_from_lobby, settle

from meeple.server.messages import POSITION_EXTRA, SERVER_MESSAGES


def _pictures(page: Any) -> list[dict[str, Any]]:
    """The position messages the page received, decoded."""
    return [m for m in whole(page.recorder.frames) if m.get("type") in ("sync", "update", "rewind")]


def test_the_generic_page_shows_the_games_own_picture_of_the_table(page: Any, new_page: Any,
                                                                   web_server: ThreadServer) -> None:
    match = create_from_lobby(page, web_server.base, "liars-dice", variant="standard", seats=2)
    page.wait_for_selector("#board .generic pre.picture")
    settle(page)
    shown = page.inner_text("#board .generic pre.picture")
    last = _pictures(page)[-1]
    assert shown == last["picture"]
    lines = shown.splitlines()
    assert lines[0] == "Liar's Dice, 2 players"
    assert lines[1] == f"  your dice: {last['view']['my_dice']}"  # this seat's dice, as its view has them
    assert "seat 1: [" not in shown  # the referee's picture (every hand) is never sent to a seat
    # the picture comes before the commands, and follows the match
    order = page.evaluate("[...document.querySelector('#board .generic').children].map((e) => e.tagName)")
    assert order[0] == "PRE"
    page.locator("#board .generic button.command", has_text="bid 1 x 1").first.click()
    page.wait_for_function("() => document.querySelector('#board .generic pre.picture').textContent.includes('seat 0 bid 1 x 1')")
    assert page.inner_text("#board .generic pre.picture") == _pictures(page)[-1]["picture"]
    for m in _pictures(page):  # the declared fields, and the picture asked for
        assert set(m) - {"type", "ref"} == SERVER_MESSAGES[m["type"]] | POSITION_EXTRA

    watcher = new_page()
    watcher.goto(f"{web_server.base}/play/{match}")
    watcher.wait_for_selector("#board .generic")
    settle(watcher, "body[data-cursor]")
    assert watcher.locator("#board .generic pre.picture").count() == 0
    assert [m["picture"] for m in _pictures(watcher)] == [None] * len(_pictures(watcher))


def test_a_game_with_a_board_of_its_own_is_sent_no_picture(page: Any, web_server: ThreadServer) -> None:
    create_from_lobby(page, web_server.base, "kings", bot="random")
    settle(page)
    assert _pictures(page) and all("picture" not in m for m in _pictures(page))
