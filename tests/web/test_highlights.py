"""The last moves, marked on the board where they happened and in the record panel.

A person plays against bots by clicks. At each of its turns, every record
since its own last command carries ``recent`` in the record panel, that
command ``recent-own``, no older record either; and the board elements a
record's events name (read here from the events the page received, by a
table of its own: a maze cell laid, a mine played on, an area built on, a
hole walked to) carry ``touched`` (``touched-own`` for the seat's own
command) with the seat that did it in ``data-touched-by``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from positions import records
from serverkit import ThreadServer
from webkit import create_from_lobby, settle, targets

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
GAMES = [("saboteur", 3), ("kings", 2), ("gophers", 2), ("mordred", 3)]

Where = Callable[[dict[str, Any]], list[str]]


def _area(e: dict[str, Any]) -> list[str]:
    return [f'.area[data-area="{e["area"]}"]']


#: Per game, per event type: the board elements the event happened at (CSS selectors inside the board's SVG).
WHERE: dict[str, dict[str, Where]] = {
    "saboteur": {
        "path_played": lambda e: [f'.laid[data-col="{e["col"]}"][data-row="{e["row"]}"]'],
        "tool_broken": lambda e: [f'.player-panel[data-seat="{e["target"]}"]'],
        "tool_repaired": lambda e: [f'.player-panel[data-seat="{e["target"]}"]'],
        "goal_peeked": lambda e: [f'.goal[data-goal="{e["goal"]}"]'],
    },
    "kings": {
        "squad_played": lambda e: [f'.mine[data-mine="{e["mine"]}"]'],
        "drew_deck": lambda e: [".deck"],
        "drew_camp": lambda e: [f'.camp-pile[data-people="{e["people"]}"]'],
    },
    "gophers": {
        "moved": lambda e: [f'.hole[data-hole="{e["dest"]}"]', f'.pawn[data-seat="{e["seat"]}"]'],
        "placed": lambda e: [f'.hole[data-hole="{e["hole"]}"]', f'.pawn[data-seat="{e["seat"]}"]'],
        "rolled": lambda e: [".die"],
    },
    "mordred": {
        "rolled": lambda e: [f'.money-row[data-row="{e["row"]}"]'],
        "warrior_placed": _area,
        "built": _area,
    },
}

#: For each selector: the classes and data-touched-by of the elements it finds in the board's drawing.
_MARKS = """(sels) => sels.map((s) => [...document.querySelectorAll("#board svg " + s)]
  .map((e) => [e.classList.contains("touched"), e.classList.contains("touched-own"), e.dataset.touchedBy || ""]))"""
#: The record panel's marks, by record number.
_LOG = """() => Object.fromEntries([...document.querySelectorAll("#log li")].map((li) => [li.value, li.dataset.recent || ""]))"""


def _check(page: Any, game: str, seat: int) -> tuple[int, int]:
    """Check the marks of the page (at this seat's turn); how many elements and records it checked."""
    held = records(page)
    last = max((r["seq"] for r in held if r["actor"] == seat), default=-1)
    log = {int(k): v for k, v in page.evaluate(_LOG).items()}
    # the record panel: everything after the seat's last command, that command itself, nothing older
    for r in held:
        if r["seq"] not in log:
            continue
        want = "other" if r["seq"] > last else "own" if r["seq"] == last else ""
        assert log[r["seq"]] == want, (r["seq"], last, log[r["seq"]], r.get("text"))
    # the board: the elements each recent record's events name carry the mark and the seat that made it
    elements = 0
    for r in held:
        if r["seq"] < last:
            continue
        for e in r.get("events") or []:
            where = WHERE[game].get(e["type"])
            if where is None:
                continue
            for found in page.evaluate(_MARKS, where(e)):
                for touched, own, by in found:
                    elements += 1
                    if r["seq"] == last:
                        assert touched or own, (e, r["seq"])  # the own move, unless another touched it since
                    else:
                        assert touched and str(r["actor"]) in by.split(), (e, r["seq"], by)
    return elements, len([r for r in held if r["seq"] >= last])


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("game", "seats"), GAMES, ids=[g for g, _ in GAMES])
def test_the_moves_since_the_seats_last_one_are_marked_on_the_board_and_in_the_record(
        page: Any, web_server: ThreadServer, game: str, seats: int, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    create_from_lobby(page, web_server.base, game, seats=seats, bot="random")
    rnd = random.Random(7)
    elements = marked_records = 0
    for _ in range(30):
        settle(page)
        if page.get_attribute("body", "data-over") == "true":
            break
        e, n = _check(page, game, 0)
        elements += e
        marked_records += n
        rnd.choice(targets(page)).click()
    assert elements >= 3 and marked_records >= 10, (elements, marked_records)


def test_a_mark_lasts_until_the_seats_next_move_and_tells_the_seat(page: Any, web_server: ThreadServer) -> None:
    # Mordred: seat 0 ends its turn, the bots each roll on a row of the Money table; at seat 0's turn the
    # rows they rolled on are marked with their seats, and once seat 0 rolls, its own row is marked as its own
    create_from_lobby(page, web_server.base, "mordred", seats=3, bot="random")
    rnd = random.Random(3)
    for _ in range(60):
        settle(page)
        held = records(page)
        last = max((r["seq"] for r in held if r["actor"] == 0), default=-1)
        rolls = [(r["actor"], e["row"]) for r in held if r["seq"] > last and r["actor"] > 0
                 for e in r["events"] if e["type"] == "rolled"]
        if rolls:
            break
        rnd.choice(targets(page)).click()
    else:
        raise AssertionError("no bot rolled in 60 clicks")
    for actor, row in rolls:
        by = page.get_attribute(f'#board svg .money-row[data-row="{row}"].touched', "data-touched-by") or ""
        assert str(actor) in by.split()
        tag = page.query_selector_all(f'#board svg .money-row[data-row="{row}"] .touch-tag.seat-{actor}')
        assert len(tag) == 1 and tag[0].inner_html().count(f">{actor}<") == 1  # the seat's number, not colour alone
    # seat 0 rolls: the bots' marks go, its own roll is marked as its own
    roll = page.query_selector_all("#board svg .money-row.act")
    assert roll, "seat 0 may roll at its turn's start"
    mine = roll[0].get_attribute("data-row")
    roll[0].click()
    page.wait_for_selector(f'#board svg .money-row[data-row="{mine}"].touched-own')
    settle(page, "body[data-busy=false]")
    assert page.query_selector_all("#board svg .touched") == []
    assert page.query_selector_all("#log li.recent") == []
    assert len(page.query_selector_all("#log li.recent-own")) == 1
