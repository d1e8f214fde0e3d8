"""Gophers logs across rules versions: logs of the first rules are refused by name, today's load and verify."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple.engine import UnsupportedLog, read_log

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
RETIRED = sorted((GOLDEN / "gophers-v1").glob("*.meeple")) + sorted((GOLDEN / "gophers-v2").glob("*.meeple"))


def test_the_first_rules_logs_are_kept() -> None:
    assert len(RETIRED) == 16


@pytest.mark.parametrize("path", RETIRED, ids=[p.name for p in RETIRED])
def test_a_log_of_a_retired_rules_version_is_refused_naming_its_version(path: Path) -> None:
    # rules version 2 changed what is played (collections card by card, every seat asked, no
    # hand limit, the beginner bank and gifts); version 3 the beginner bank (all 60 cards) and the
    # end (checked after the last seat's turn), and its options and states carry bank and end
    old = path.parent.name.rsplit("-v", 1)[1]
    data = path.read_bytes()
    for read in (meeple.Match.from_bytes, read_log, lambda d: list(meeple.replay(d))):
        with pytest.raises(UnsupportedLog, match=f"gophers rules version {old}; this library has version 3"):
            read(data)
    report = meeple.verify(data)
    assert not report.ok and f"rules version {old}" in report.summary()


def test_todays_logs_carry_rules_version_3() -> None:
    current = sorted(GOLDEN.glob("gophers-*-v3*.meeple"))
    assert len(current) == 8
    for path in current:
        assert read_log(path.read_bytes()).header.rules == 3
