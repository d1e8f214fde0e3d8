"""Gophers logs across rules versions: logs of the first rules are refused by name, today's load and verify."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple.engine import UnsupportedLog, read_log

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
RETIRED = sorted((GOLDEN / "gophers-v1").glob("*.meeple"))


def test_the_first_rules_logs_are_kept() -> None:
    assert len(RETIRED) == 8


@pytest.mark.parametrize("path", RETIRED, ids=[p.name for p in RETIRED])
def test_a_log_of_rules_version_1_is_refused_naming_its_version(path: Path) -> None:
    # rules version 2 changed what is played (collections card by card, every seat asked, no
    # hand limit, the beginner bank and gifts), so a version 1 log cannot be replayed or verified
    data = path.read_bytes()
    for read in (meeple.Match.from_bytes, read_log, lambda d: list(meeple.replay(d))):
        with pytest.raises(UnsupportedLog, match="gophers rules version 1; this library has version 2"):
            read(data)
    report = meeple.verify(data)
    assert not report.ok and "rules version 1" in report.summary()


def test_todays_logs_carry_rules_version_2() -> None:
    current = sorted(GOLDEN.glob("gophers-*-v2*.meeple"))
    assert len(current) == 8
    for path in current:
        assert read_log(path.read_bytes()).header.rules == 2
