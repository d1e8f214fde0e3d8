"""Golden logs of Underground Kings: they pin rules version 1 and the event format.

Each committed log (heuristic bots, seed 20261129) must keep loading, replaying and verifying byte for byte,
and end with the same scores. If a rule change breaks this test, raise
``rules_version`` and keep the old logs readable; never rewrite them to make
the test pass. To write them for a new rules version::

    python tests/games/kings/test_kings_golden.py --write
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import meeple
from meeple.engine import read_log
from meeple.games.kings import GAME

HERE = Path(__file__).parent / "golden"
#: (file stem, seats, variant, expected winners, expected scores)
CASES = [
    ("kings-3p-standard-v1", 3, "standard", (0,), (22, 5, 17)),
    ("kings-2p-discard-v1", 2, "discard", (0,), (18, 10)),
]


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


if __name__ == "__main__":  # pragma: no cover
    if "--write" in sys.argv:
        _write()
