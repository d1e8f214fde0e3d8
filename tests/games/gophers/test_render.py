"""The text board: every symbol it draws is explained by the key printed under it."""

from __future__ import annotations

import re

import pytest

from meeple.engine import ENGINE, Match, RandomBot
from meeple.games.gophers import GAME
from meeple.games.gophers.data import SPREADS
from meeple.games.gophers.render import CARD_KEY, KEY, draw_spread, legend

#: What each entry of the key stands for, as a pattern of the drawn board.
PATTERNS = {
    "07": r"\b\d\d\b(?= )",
    "A5": r"\bA\d+",
    "B5": r"\bB\d+",
    "W5": r"\bW\d+",
    "S9": r"\bS\d+",
    "P": r"\bP\b",
    "G": r"\bG\b",
    ".": r"(?<= )\.(?= |$|@)",
    "@1": r"@\d",
    "-": r"-",
    "|": r"\|",
}


def _unexplained(board: str) -> set[str]:
    """What is left of the board once every symbol of the key is taken out (blanks are walls)."""
    left = board
    for pattern in sorted(PATTERNS.values(), key=len, reverse=True):
        left = re.sub(pattern, " ", left, flags=re.M)
    return set(left) - {" ", "\n"}


@pytest.mark.parametrize("number", [s.number for s in SPREADS])
def test_every_symbol_of_every_spread_is_in_the_key(number: int) -> None:
    board = draw_spread(number, (0, 7, 13, 19))
    assert _unexplained(board) == set()
    used = {sym for sym, pattern in PATTERNS.items() if re.search(pattern, board, flags=re.M)}
    printed = legend()
    for sym, meaning in KEY:
        if sym in used or sym == "blank":
            assert f"{sym} {meaning}" in printed, sym
    assert used <= {sym for sym, _ in KEY}


def test_the_key_explains_the_cards_and_piles_of_the_lines_under_the_board() -> None:
    m = Match.start(GAME, 3, seed=6, options={"variant": "advanced"})
    bots = [RandomBot(s) for s in range(3)]
    while m.to_act and len(m) < 120:
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    text = GAME.render(m.state, 0)
    assert "Key: 07 hole number" in text
    for sym, meaning in CARD_KEY:
        assert f"{sym} {meaning}" in text
    assert "baskets" in legend(baskets=True) and "baskets" not in legend()
    assert re.search(r"pile \+\[.*\] -\[.*\]", text)


def test_the_key_fits_a_terminal() -> None:
    assert max(map(len, legend().splitlines())) <= 78
    assert max(map(len, draw_spread(1, (0, 1, 2, 3)).splitlines())) <= 78


def test_the_board_shows_pawns_and_tunnels_where_they_are() -> None:
    board = draw_spread(1, (0, 4))
    first = board.splitlines()[0]
    assert first.startswith("00 .  @0") and "04 W11@1" in first
    assert first.count("-") == 4, "spread 1 joins holes 0-1, 1-2, 2-3 and 3-4 in its top row"


def test_cards_a_seat_has_not_seen_are_drawn_as_question_marks() -> None:
    from meeple.games.gophers.commands import Move
    from meeple.games.gophers.state import Phase

    from .test_rules import make, play

    state = make([1, 19], ["", "A1 A2 A3 A4"], phase=Phase.MOVE, roll=1, deck="A7 B3 W9 A1")
    state, _ = play(state, 0, Move(2))  # a gift: seat 0 is shown three cards
    assert "chooses a gift: ? ? ?" in GAME.render(state, 1)
    assert "chooses a gift: A7 B3 W9" in GAME.render(state, 0)
    assert "? a card you have not seen" in GAME.render(state, 1)
