"""Golden logs: every committed log keeps loading, replaying and verifying, byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple.engine import read_log

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.meeple"))


def test_there_are_golden_logs() -> None:
    assert any("liars-dice" in p.name for p in GOLDEN)


@pytest.mark.parametrize("path", GOLDEN, ids=[p.name for p in GOLDEN])
def test_golden_log_loads_replays_and_verifies(path: Path) -> None:
    data = path.read_bytes()
    report = meeple.verify(data)
    assert report.ok, report.summary()
    log = read_log(data)
    match = log.to_match()
    steps = list(meeple.replay(data))
    assert len(steps) == len(log.records) and steps[-1].state == match.state
    hide = log.header.seeds is None
    assert match.to_bytes(hide_seed=hide) == data, "re-saving a golden log changed its bytes"
