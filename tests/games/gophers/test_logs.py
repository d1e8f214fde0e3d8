"""Gophers logs across rules versions: version 1 is refused by name; versions 2 and 3 load and verify.

Version 2 is played as today's rules with ``bank="harder"`` (the 48-card
beginner bank) and ``end="turn"`` (``GameInfo.older_rules``), so its logs
verify and re-save byte for byte under their own header.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple.engine import UnsupportedLog, read_log

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
RETIRED = sorted((GOLDEN / "gophers-v1").glob("*.meeple"))
V2 = sorted((GOLDEN / "gophers-v2").glob("*.meeple"))


def test_the_older_rules_logs_are_kept() -> None:
    assert len(RETIRED) == 8 and len(V2) == 8


@pytest.mark.parametrize("path", RETIRED, ids=[p.name for p in RETIRED])
def test_a_log_of_a_retired_rules_version_is_refused_naming_its_version(path: Path) -> None:
    # rules version 2 changed what is played (collections card by card, every seat asked, no
    # hand limit, the beginner bank and gifts): no option of today's rules plays version 1
    data = path.read_bytes()
    message = "gophers rules version 1; this library has version 3 and plays version 2 too"
    for read in (meeple.Match.from_bytes, read_log, lambda d: list(meeple.replay(d))):
        with pytest.raises(UnsupportedLog, match=message):
            read(data)
    report = meeple.verify(data)
    assert not report.ok and "rules version 1" in report.summary()


@pytest.mark.parametrize("path", V2, ids=[p.name for p in V2])
def test_a_version_2_log_verifies_and_re_saves_under_its_own_header(path: Path) -> None:
    data = path.read_bytes()
    report = meeple.verify(data)
    assert report.ok, report.summary()
    log = read_log(data)
    assert log.header.rules == 2 and not {"bank", "end"} & set(log.header.options)
    match = log.to_match()
    assert match.rules == 2 and (match.options.bank, match.options.end) == ("harder", "turn")
    assert match.is_over and list(meeple.replay(data))[-1].state == match.state
    assert match.to_bytes(hide_seed=log.header.seeds is None) == data, "re-saving a version 2 log changed its bytes"


def test_a_version_2_beginner_match_continues_with_the_48_card_bank() -> None:
    match = meeple.Match.start("gophers", 2, seed=4, options={"variant": "beginner"}, rules=2)
    assert match.rules == 2 and len(match.state.bank) == 48
    again = meeple.Match.from_bytes(match.to_bytes())
    assert again.rules == 2 and again.header() == match.header() and meeple.verify(match.to_bytes()).ok
    assert len(meeple.Match.start("gophers", 2, seed=4, options={"variant": "beginner"}).state.bank) == 60


def test_todays_logs_carry_rules_version_3() -> None:
    current = sorted(GOLDEN.glob("gophers-*-v3*.meeple"))
    assert len(current) == 8
    for path in current:
        assert read_log(path.read_bytes()).header.rules == 3
