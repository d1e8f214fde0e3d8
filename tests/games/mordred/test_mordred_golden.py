"""Golden logs of Mordred: each rules version the library plays keeps its logs' results; version 1 is refused.

``tests/golden/mordred-*-v3*.meeple`` are checked byte for byte with every
other golden log by ``tests/test_golden.py``; here each must also end as it
ended when written. The random-bot logs come from ``tests/golden/make_golden.py
mordred``; the heuristic-bot logs (a 3-player game that ends by a used-up
building type, and a 4-player game under ``used_up="next-turn"``) from::

    python tests/games/mordred/test_mordred_golden.py --write

``tests/golden/mordred-v2/`` keeps the logs of rules version 2 (a warrior
could besiege the roller's own building): the library still plays that
version as today's rules with ``siege="any"`` (``GameInfo.older_rules``), so
they load, verify and re-save byte for byte, under their own header, and a
command appended to one continues under version 2's rules.

``tests/golden/mordred-v1/`` keeps the logs of rules version 1 (black cells
paid no money, end (b) was checked at the very next turn, and the tables were
others): the library no longer plays those rules, so it must refuse them,
naming the version, rather than replay them under other rules. A rule change
that breaks these tests raises ``rules_version``; the logs are never rewritten
to make a test pass.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

import meeple
from meeple.engine import CorruptLog, UnsupportedLog, read_log
from meeple.engine.log import header_frame, read_header
from meeple.games.mordred import GAME, End, Place, SiegeTargets
from meeple.games.mordred.rules import building_at

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
V1 = sorted((GOLDEN / "mordred-v1").glob("*.meeple"))
V2 = GOLDEN / "mordred-v2"
VERSION = GAME.info.rules_version
#: (file stem, seats, options, how it ended, winners, scores); seed 20261129
CASES: list[tuple[str, int, dict[str, Any], End, tuple[int, ...], tuple[int, ...]]] = [
    (f"mordred-standard-v{VERSION}", 4, {}, End.WARRIORS, (3,), (6, 2, 6, 10)),
    (f"mordred-short-v{VERSION}", 4, {"warriors": 14, "road_forward": 10}, End.WARRIORS, (3,), (4, 5, 11, 20)),
    (f"mordred-heuristic-3p-v{VERSION}", 3, {}, End.BUILDINGS, (2,), (20, 15, 26)),
    (f"mordred-heuristic-4p-next-turn-v{VERSION}", 4, {"used_up": "next-turn"}, End.BUILDINGS, (2,), (12, 15, 22, 13)),
]
HEURISTIC = [c for c in CASES if "heuristic" in c[0]]
#: rules version 2's logs (the same seeds and bots), with their options as version 2 named them
CASES_V2: list[tuple[str, int, dict[str, Any], End, tuple[int, ...], tuple[int, ...]]] = [
    ("mordred-standard-v2", 4, {}, End.WARRIORS, (2,), (7, 4, 3, 15)),
    ("mordred-short-v2", 4, {"warriors": 14, "road_forward": 10}, End.WARRIORS, (3,), (10, 5, 7, 14)),
    ("mordred-heuristic-3p-v2", 3, {}, End.BUILDINGS, (2,), (20, 15, 26)),
    ("mordred-heuristic-4p-next-turn-v2", 4, {"used_up": "next-turn"}, End.BUILDINGS, (2,), (12, 15, 22, 13)),
]


def _write() -> None:  # pragma: no cover - run by hand, once per rules version
    from meeple.games.mordred.bot import HeuristicBot

    for stem, seats, options, *_ in HEURISTIC:
        m = meeple.Match.start(GAME, seats, seed=20261129, options=options)
        bots = [HeuristicBot(s) for s in range(seats)]
        while not m.is_over:
            (seat,) = m.to_act
            m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
        m.save(GOLDEN / f"{stem}.meeple")
        m.save(GOLDEN / f"{stem}.hidden-seed.meeple", hide_seed=True)
        out = m.outcome
        print(stem, len(m), m.state.ended, out.winners if out else None, out.scores if out else None)


def test_the_golden_logs_are_of_the_current_rules_version() -> None:
    assert VERSION == 3
    assert len(V1) == 4 and len(list(V2.glob("*.meeple"))) == 8
    for stem, *_ in CASES:
        for name in (f"{stem}.meeple", f"{stem}.hidden-seed.meeple"):
            assert read_header((GOLDEN / name).read_bytes())[0].rules == VERSION


@pytest.mark.parametrize(("stem", "seats", "options", "ended", "winners", "scores"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("hidden", [False, True], ids=["seed", "hidden-seed"])
def test_a_golden_log_ends_as_it_was_written(
    stem: str, seats: int, options: dict[str, Any], ended: End, winners: tuple[int, ...], scores: tuple[int, ...],
    hidden: bool,
) -> None:
    data = (GOLDEN / (f"{stem}.hidden-seed.meeple" if hidden else f"{stem}.meeple")).read_bytes()
    assert meeple.verify(data).ok
    match = read_log(data).to_match()
    assert match.seats == seats and match.options == meeple.Match.start(GAME, seats, seed=0, options=options).options
    assert match.is_over and match.state.ended is ended
    out = match.outcome
    assert out is not None and (out.winners, out.scores) == (winners, scores)


@pytest.mark.parametrize(("stem", "seats", "options", "ended", "winners", "scores"), CASES_V2, ids=[c[0] for c in CASES_V2])
@pytest.mark.parametrize("hidden", [False, True], ids=["seed", "hidden-seed"])
def test_a_log_of_rules_version_2_verifies_and_re_saves_under_its_own_header(
    stem: str, seats: int, options: dict[str, Any], ended: End, winners: tuple[int, ...], scores: tuple[int, ...],
    hidden: bool,
) -> None:
    data = (V2 / (f"{stem}.hidden-seed.meeple" if hidden else f"{stem}.meeple")).read_bytes()
    report = meeple.verify(data)
    assert report.ok, report.summary()
    log = read_log(data)
    assert log.header.rules == 2 and "siege" not in log.header.options
    match = log.to_match()
    assert match.rules == 2 and match.options.siege is SiegeTargets.ANY
    assert match.options == meeple.Match.start(GAME, seats, seed=0, options=options, rules=2).options
    assert match.is_over and match.state.ended is ended
    out = match.outcome
    assert out is not None and (out.winners, out.scores) == (winners, scores)
    steps = list(meeple.replay(data))
    assert steps[-1].state == match.state
    assert match.to_bytes(hide_seed=hidden) == data, "re-saving a version 2 log changed its bytes"


def test_a_version_2_match_continues_under_version_2_rules() -> None:
    # the first position of the version 2 log where the roller may besiege its own building (and could
    # go elsewhere): version 2 lists that siege, today's rules do not
    data = (V2 / "mordred-standard-v2.meeple").read_bytes()
    match = read_log(data).to_match()
    for n in range(1, len(match.records)):
        match.seek(n)
        (seat,) = match.to_act
        own = [c for c in match.legal(seat) if isinstance(c, Place)
               and (b := building_at(match.state, c.area)) is not None and b.owner == seat]
        if own and len(own) < len(match.legal(seat)):
            break
    else:
        pytest.fail("no position of the log lets the roller besiege its own building")
    fork = match.fork(at=n)
    assert fork.rules == 2 and fork.header().rules == 2 and "siege" not in fork.header().options
    fork.play(seat, own[0])  # legal under version 2 only
    again = meeple.Match.from_bytes(fork.to_bytes())
    assert again.rules == 2 and meeple.verify(fork.to_bytes()).ok
    today = attrs.evolve(match.state, options=attrs.evolve(match.state.options, siege=SiegeTargets.OTHERS))
    assert own[0] not in GAME.legal_commands(today, seat)


def test_a_version_2_header_naming_an_option_version_2_did_not_have_is_refused() -> None:
    m = meeple.Match.start(GAME, 3, seed=1, rules=2)
    header = m.header()
    assert header.rules == 2 and "siege" not in header.options
    forged = attrs.evolve(header, options=dict(sorted({**header.options, "siege": "others"}.items())))
    with pytest.raises(CorruptLog, match="rules version 2 has no option 'siege'"):
        read_log(header_frame(forged)[0])


@pytest.mark.parametrize("path", V1, ids=[p.name for p in V1])
def test_a_log_of_rules_version_1_is_refused_naming_its_version(path: Path) -> None:
    data = path.read_bytes()
    header, _, _ = read_header(data)
    assert (header.game, header.rules) == ("mordred", 1)  # the header itself still reads
    for use in (meeple.load, lambda p: read_log(p.read_bytes()), lambda p: list(meeple.replay(p.read_bytes()))):
        with pytest.raises(UnsupportedLog, match="mordred rules version 1; this library has version 3 and plays "
                                                 "version 2 too"):
            use(path)
    report = meeple.verify(data)
    assert not report.ok and "rules version 1" in report.summary()


if __name__ == "__main__":  # pragma: no cover
    if "--write" in sys.argv:
        _write()
