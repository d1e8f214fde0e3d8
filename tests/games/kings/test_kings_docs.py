"""The rules page (docs/rules/kings.md) agrees with the data and its examples run."""

from __future__ import annotations

import re
from pathlib import Path

from meeple.games.kings.data import CARDS, MINE_SIDES, PEOPLES

PAGE = Path(__file__).resolve().parents[3] / "docs" / "rules" / "kings.md"


def test_rules_page_lists_every_mine_side_as_in_the_data() -> None:
    text = PAGE.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| (\d+pt def\d dep\d(?:\+O)?) \| (\d) \| (\d) \| (\d) \| (yes|-) \|$", text, re.M)
    assert len(rows) == len(MINE_SIDES)
    for index, label, value, defence, depth, overseer in rows:
        mine = MINE_SIDES[int(index)]
        assert (label, int(value), int(defence), int(depth), overseer == "yes") == (
            mine.label(), mine.value, mine.defence, mine.depth, mine.overseer
        )


def test_rules_page_card_table_matches_the_cards() -> None:
    text = PAGE.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d) \((first|second) copy\) \| (.+) \|$", text, re.M)
    assert len(rows) == 20
    for strength, copy, cells in rows:
        j = int(strength) + (10 if copy == "second" else 0)
        labels = [c.strip() for c in cells.split("|")]
        assert labels == [CARDS[20 * p + j].mine.label() for p in range(len(PEOPLES))]


def test_rules_page_python_example_runs() -> None:
    text = PAGE.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, str(PAGE), "exec"), {})
