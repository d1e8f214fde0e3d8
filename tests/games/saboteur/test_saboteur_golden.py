"""Saboteur's golden logs: rules version 2 keeps loading, replaying and verifying, byte for byte.

The version 1 logs stay in ``golden/``: this library no longer has those
rules (the double curve had two names for one placement, the state had no
place for what hand swaps teach), so reading one must fail with
``UnsupportedLog`` naming the version, never with a wrong replay. Write the
logs of a new rules version with ``python tests/games/saboteur/golden/make_golden.py``;
never rewrite them to make this test pass.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple.engine import UnsupportedLog, read_log
from meeple.games.saboteur import GAME
from meeple.games.saboteur.state import Phase

HERE = Path(__file__).parent / "golden"
#: (file stem, seats, options, expected winners, expected scores)
CASES = [
    ("saboteur-base-v2", 5, {}, (0, 4), (6, 3, 0, 3, 6)),
    ("saboteur-deluxe-v2", 7, {"edition": "deluxe"}, (1, 6), (6, 7, 3, 1, 2, 6, 7)),
]
OLD = ["saboteur-base-v1.meeple", "saboteur-deluxe-v1.meeple"]


def test_every_golden_log_is_pinned() -> None:
    names = sorted(p.name for p in HERE.glob("*.meeple"))
    assert names == sorted([*OLD, *(f"{c[0]}.meeple" for c in CASES), *(f"{c[0]}.hidden-seed.meeple" for c in CASES)])


@pytest.mark.parametrize(("stem", "seats", "options", "winners", "scores"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("hidden", [False, True], ids=["seed", "hidden-seed"])
def test_golden_log_loads_replays_verifies_and_keeps_its_result(
    stem: str, seats: int, options: dict[str, str], winners: tuple[int, ...], scores: tuple[int, ...], hidden: bool,
) -> None:
    data = (HERE / (f"{stem}.hidden-seed.meeple" if hidden else f"{stem}.meeple")).read_bytes()
    report = meeple.verify(data)
    assert report.ok, report.summary()
    log = read_log(data)
    assert log.header.rules == GAME.info.rules_version == 2
    match = log.to_match()
    assert match.seats == seats and match.state.phase is Phase.OVER and len(match.state.results) == 3
    assert match.options.edition.value == options.get("edition", "base")
    steps = list(meeple.replay(data))
    assert steps[-1].state == match.state
    assert match.to_bytes(hide_seed=hidden) == data
    outcome = match.outcome
    assert outcome is not None and (outcome.winners, outcome.scores) == (winners, scores)


@pytest.mark.parametrize("name", OLD)
def test_rules_version_1_logs_are_refused_naming_their_version(name: str) -> None:
    data = (HERE / name).read_bytes()
    with pytest.raises(UnsupportedLog, match="rules version 1; this library has version 2"):
        meeple.Match.from_bytes(data)
    with pytest.raises(UnsupportedLog, match="rules version 1"):
        list(meeple.replay(data))
    report = meeple.verify(data)
    assert not report.ok and "rules version 1" in report.summary()
