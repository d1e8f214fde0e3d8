"""Whose turn it is, said alike by the header's badge, the board's status line and the players panel.

The seats to act are the server's (every position message's ``to_act``): the
players panel marks exactly those, in words (a screen reader's label too),
the board's status line names them, and the badge says "Your move" only to
a seat among them. A seat that acts outside the game's turn order (Gophers:
every player on a supply may collect after the book turns in another's turn)
is told what it may do and why, and the board says whose turn it is.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from positions import shown
from serverkit import ThreadServer
from webkit import create_from_lobby, http_json, settle, targets

import meeple

#: Desktop and phone, as the play page is tested elsewhere (tests/web/test_phone.py).
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
GAMES = [("saboteur", 3), ("kings", 2), ("gophers", 2), ("mordred", 3)]


def _agree(seen: dict[str, Any], told: dict[str, Any], seat: int | None) -> None:
    acting = sorted(told["to_act"])
    if told["outcome"] is not None:
        assert seen["marked"] == [] and seen["badge"] == "The match is over"
        return
    assert seen["marked"] == acting, (seen, acting)
    assert all(seen["labels"]), seen  # every mark has words a screen reader says
    for s in acting:
        assert f"seat {s}" in seen["line"], (seen["line"], acting)  # the board names the seats to act
    if seat is not None and seat in acting and told["legal"]:
        assert seen["badge"] == "Your move" or seen["badge"].startswith("You may "), seen
    elif seat is None:
        assert seen["badge"].startswith("Watching"), seen
    else:
        assert seen["badge"].startswith("Waiting for seat "), seen
        assert all(f"seat {s}" in seen["badge"] for s in acting), seen


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("game", "seats"), GAMES, ids=[g for g, _ in GAMES])
def test_the_badge_the_board_and_the_players_panel_name_the_seats_the_server_says_may_act(
        page: Any, web_server: ThreadServer, game: str, seats: int, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    create_from_lobby(page, web_server.base, game, seats=seats, bot="random")
    rnd = random.Random(5)
    checked = 0
    for _ in range(25):
        settle(page)
        seen, told = shown(page)
        _agree(seen, told, 0)
        checked += 1
        if seen["over"]:
            break
        rnd.choice(targets(page)).click()
        # at once after the click, whatever the page shows (this seat's turn, a bot's, the answer awaited)
        # agrees with what the server said of that position
        seen, told = shown(page)
        _agree(seen, told, 0)
    assert checked >= 5


def _out_of_turn_collect() -> meeple.Match:
    """A Gophers match (two seats, seeded random moves) played to where a seat may collect in the other's turn."""
    for seed in range(1, 60):
        m = meeple.Match.start("gophers", seats=2, seed=seed)
        rnd = random.Random(seed)
        while not m.is_over and m.cursor < 400:
            s = m.state
            if s.phase.value == "collect" and s.collectors[0] != s.current:
                return m
            seat = m.to_act[0]
            m.play(seat, rnd.choice(list(m.legal(seat))))
    raise AssertionError("no collection out of turn in 60 matches")


@pytest.mark.parametrize("size", list(SIZES))
def test_gophers_says_who_collects_in_whose_turn_and_why(page: Any, new_page: Any, web_server: ThreadServer,
                                                         size: str) -> None:
    m = _out_of_turn_collect()
    at, collector, mover = m.cursor, m.to_act[0], m.state.current
    opened = http_json(web_server.base, "/api/debug/logs", raw=m.to_bytes())
    made = http_json(web_server.base, f"/api/debug/logs/{opened['id']}/fork", {"at": at})
    assert made["cursor"] == at
    joined = web_server.lobby.join(made["id"], seat=collector)
    page.set_viewport_size(SIZES[size])
    page.goto(web_server.base + "/")
    page.evaluate("([id, seat, token]) => localStorage.setItem('meeple.seats', JSON.stringify({[id]: {seat, token}}))",
                  [made["id"], collector, joined["token"]])
    page.goto(f"{web_server.base}/play/{made['id']}")
    settle(page)
    seen, told = shown(page)
    assert told["to_act"] == [collector] and told["view"]["current"] == mover
    _agree(seen, told, collector)
    # the badge: what the seat may do now, and the rule that lets it; the board: who collects, in whose turn
    assert seen["badge"].startswith("You may collect now: after a turn of the book, every player standing on a supply")
    assert f"seat {collector} may collect now · seat {mover}'s turn" in seen["line"]
    assert f"seat {mover} to move" not in seen["line"]
    assert seen["marked"] == [collector] and "supply or a store" in seen["labels"][0]
    # a spectator reads the same
    watcher = new_page()
    watcher.set_viewport_size(SIZES[size])
    watcher.goto(f"{web_server.base}/play/{made['id']}")
    watcher.wait_for_selector(f"body[data-seat=spectator][data-cursor='{at}'] #players .to-act")
    seen, told = shown(watcher)
    _agree(seen, told, None)
    assert seen["badge"] == f"Watching: seat {collector} may collect now · seat {mover}'s turn"
    # once the collector is done, the turn goes on for the mover, whom nobody has joined: both pages wait for it
    for _ in range(30):
        if len(told["to_act"]) > 0 and collector not in told["to_act"]:
            break
        settle(page)
        targets(page)[0].click()
        page.wait_for_selector("body[data-busy=false]")
        seen, told = shown(page)
        _agree(seen, told, collector)
    assert told["to_act"] == [mover]
    assert seen["badge"] == f"Waiting for seat {mover}…" and seen["marked"] == [mover]
    assert f"seat {mover} to move" in seen["line"]
