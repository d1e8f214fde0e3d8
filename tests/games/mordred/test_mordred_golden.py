"""Golden logs of Mordred: the current rules version's logs keep their result; older versions are refused.

``tests/golden/mordred-*-v2*.meeple`` (written by ``tests/golden/make_golden.py mordred``)
are checked byte for byte with every other golden log by ``tests/test_golden.py``;
here they must also end as they ended when written. ``tests/golden/mordred-v1/``
keeps the logs of rules version 1 (black cells paid no money, and end (b) was
checked at the very next turn): the library no longer plays those rules, so it
must refuse them, naming the version, rather than replay them under other rules.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple.engine import UnsupportedLog, read_log
from meeple.engine.log import read_header
from meeple.games.mordred import GAME, End

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
V1 = sorted((GOLDEN / "mordred-v1").glob("*.meeple"))
CURRENT = sorted(GOLDEN.glob(f"mordred-*-v{GAME.info.rules_version}*.meeple"))


def test_the_golden_logs_are_of_the_current_rules_version() -> None:
    assert GAME.info.rules_version == 2
    assert len(CURRENT) >= 4 and len(V1) == 4
    for path in CURRENT:
        assert read_log(path.read_bytes()).header.rules == GAME.info.rules_version


@pytest.mark.parametrize("path", CURRENT, ids=[p.name for p in CURRENT])
def test_a_current_golden_log_ends_as_it_was_written(path: Path) -> None:
    match = meeple.load(path)
    assert match.is_over and match.state.ended is End.BUILDINGS
    out = match.outcome
    assert out is not None and out.winners == (3,) and "King Arthur wins" in out.reason


@pytest.mark.parametrize("path", V1, ids=[p.name for p in V1])
def test_a_log_of_rules_version_1_is_refused_naming_its_version(path: Path) -> None:
    data = path.read_bytes()
    header, _, _ = read_header(data)
    assert (header.game, header.rules) == ("mordred", 1)  # the header itself still reads
    for use in (meeple.load, lambda p: read_log(p.read_bytes()), lambda p: list(meeple.replay(p.read_bytes()))):
        with pytest.raises(UnsupportedLog, match="mordred rules version 1; this library has version 2"):
            use(path)
    report = meeple.verify(data)
    assert not report.ok and "rules version 1" in report.summary()
