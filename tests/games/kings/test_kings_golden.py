"""Golden logs of Underground Kings: they pin the rules version and the event format.

Each committed log of the current rules version (heuristic bots, seed
20261129) must keep loading, replaying and verifying byte for byte, and end
with the same scores. If a rule change breaks this test, raise
``rules_version``; never rewrite a released version's logs to make the test
pass. Version 2's logs still verify and re-save byte for byte: the library
plays version 2 as today's rules with ``end="card"`` and without the
``TurnEnded`` event (``GameInfo.older_rules``). Logs of a rules version the
library no longer plays are kept too: they must be refused with
``UnsupportedLog`` naming their version (version 1: the first card list, and
a retreat that did not show the hand). To write the logs of a new rules
version::

    python tests/games/kings/test_kings_golden.py --write
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import meeple
from meeple.engine import UnsupportedLog, read_log
from meeple.games.kings import GAME

HERE = Path(__file__).parent / "golden"
VERSION = GAME.info.rules_version
#: (file stem, seats, variant, expected winners, expected scores)
CASES = [
    (f"kings-3p-standard-v{VERSION}", 3, "standard", (0,), (20, 19, 9)),
    (f"kings-2p-discard-v{VERSION}", 2, "discard", (1,), (9, 18)),
]
#: version 2's logs: (file stem, seats, variant, expected winners, expected scores)
CASES_V2 = [
    ("kings-3p-standard-v2", 3, "standard", (0,), (20, 19, 9)),
    ("kings-2p-discard-v2", 2, "discard", (1,), (9, 18)),
]
#: logs of rules versions this library no longer plays
RETIRED = sorted(p for p in HERE.glob("*.meeple") if p.name.split(".")[0].rsplit("-v", 1)[1] not in (str(VERSION), "2"))


def _write() -> None:  # pragma: no cover - run by hand
    from meeple.games.kings.bot import HeuristicBot

    HERE.mkdir(exist_ok=True)
    for stem, seats, variant, _, _ in CASES:
        m = meeple.Match.start(GAME, seats, seed=20261129, options=GAME.variant_options(variant))
        bots = [HeuristicBot(s) for s in range(seats)]
        while not m.is_over:
            seat = m.to_act[0]
            m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
        m.save(HERE / f"{stem}.meeple")
        m.save(HERE / f"{stem}.hidden-seed.meeple", hide_seed=True)
        out = m.outcome
        print(stem, len(m), out.winners if out else None, out.scores if out else None)


@pytest.mark.parametrize(("stem", "seats", "variant", "winners", "scores"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("hidden", [False, True], ids=["seed", "hidden-seed"])
def test_golden_log_replays_verifies_and_keeps_its_result(
    stem: str, seats: int, variant: str, winners: tuple[int, ...], scores: tuple[int, ...], hidden: bool
) -> None:
    path = HERE / (f"{stem}.hidden-seed.meeple" if hidden else f"{stem}.meeple")
    data = path.read_bytes()
    report = meeple.verify(data)
    assert report.ok, report.summary()
    log = read_log(data)
    match = log.to_match()
    assert match.seats == seats and match.is_over
    assert match.options == GAME.options_type(**GAME.variant_options(variant))
    outcome = match.outcome
    assert outcome is not None and (outcome.winners, outcome.scores) == (winners, scores)
    assert match.to_bytes(hide_seed=hidden) == data, "re-saving a golden log changed its bytes"


@pytest.mark.parametrize(("stem", "seats", "variant", "winners", "scores"), CASES_V2, ids=[c[0] for c in CASES_V2])
@pytest.mark.parametrize("hidden", [False, True], ids=["seed", "hidden-seed"])
def test_a_version_2_log_verifies_and_re_saves_under_its_own_header(
    stem: str, seats: int, variant: str, winners: tuple[int, ...], scores: tuple[int, ...], hidden: bool
) -> None:
    data = (HERE / (f"{stem}.hidden-seed.meeple" if hidden else f"{stem}.meeple")).read_bytes()
    report = meeple.verify(data)
    assert report.ok, report.summary()
    log = read_log(data)
    assert log.header.rules == 2 and "end" not in log.header.options
    assert "turn_ended" not in [tag for tag, _ in log.header.types]
    match = log.to_match()
    assert match.rules == 2 and match.seats == seats and match.is_over
    assert match.options == GAME.options_type(**GAME.variant_options(variant), end="card")
    outcome = match.outcome
    assert outcome is not None and (outcome.winners, outcome.scores) == (winners, scores)
    assert list(meeple.replay(data))[-1].state == match.state
    assert match.to_bytes(hide_seed=hidden) == data, "re-saving a version 2 log changed its bytes"


def test_a_version_2_match_continues_under_version_2_rules() -> None:
    match = read_log((HERE / "kings-3p-standard-v2.meeple").read_bytes()).to_match()
    match.seek(100)
    fork = match.fork()
    seat = fork.to_act[0]
    fork.play(seat, fork.legal(seat)[0])
    data = fork.to_bytes()
    assert fork.rules == 2 and meeple.verify(data).ok
    header = read_log(data).header
    assert header.rules == 2 and "end" not in header.options
    assert "turn_ended" not in [tag for tag, _ in header.types]


def test_a_version_2_match_cannot_take_today_s_end_option() -> None:
    with pytest.raises(meeple.ConfigError, match="rules version 2 has no option 'end'"):
        meeple.Match.start(GAME, 3, seed=1, options={"end": "round"}, rules=2)
    with pytest.raises(meeple.ConfigError, match="kings rules version 99; this library has version 3 and plays"):
        meeple.Match.start(GAME, 3, seed=1, rules=99)


def test_there_are_logs_of_a_retired_rules_version() -> None:
    assert any("-v1" in p.name for p in RETIRED) and not any("-v2" in p.name for p in RETIRED)


@pytest.mark.parametrize("path", RETIRED, ids=[p.name for p in RETIRED])
def test_a_log_of_a_retired_rules_version_is_refused_naming_its_version(path: Path) -> None:
    data = path.read_bytes()
    old = path.name.split(".")[0].rsplit("-v", 1)[1]
    message = f"kings rules version {old}; this library has version {VERSION} and plays version 2 too"
    with pytest.raises(UnsupportedLog, match=message):
        read_log(data)
    with pytest.raises(UnsupportedLog, match=message):
        meeple.Match.from_bytes(data)
    report = meeple.verify(data)
    assert not report.ok and f"rules version {old}" in report.summary()


if __name__ == "__main__":  # pragma: no cover
    if "--write" in sys.argv:
        _write()
