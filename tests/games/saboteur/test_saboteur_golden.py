"""Saboteur's golden logs keep loading, replaying and verifying, byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple.engine import read_log
from meeple.games.saboteur.state import Phase

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.meeple"))


def test_both_editions_have_golden_logs() -> None:
    assert [p.name for p in GOLDEN] == ["saboteur-base-v1.meeple", "saboteur-deluxe-v1.meeple"]


@pytest.mark.parametrize("path", GOLDEN, ids=[p.name for p in GOLDEN])
def test_golden_log_loads_replays_and_verifies(path: Path) -> None:
    data = path.read_bytes()
    report = meeple.verify(data)
    assert report.ok, report.summary()
    log = read_log(data)
    match = log.to_match()
    assert match.state.phase is Phase.OVER and len(match.state.results) == 3
    assert match.to_bytes() == data
    assert log.header.options["edition"] in ("base", "deluxe")
