"""Engine invariants as hypothesis properties, over the example game."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeple
from meeple import testing
from meeple.testing import game_params

seeds = st.integers(0, 2**64 - 1)
bot_seeds = st.integers(0, 10_000)
configs = st.sampled_from([(2, {}), (3, {"dice": 2}), (4, {"dice": 3, "sides": 4}), (6, {"wild": False})])


@given(seeds, bot_seeds, configs)
def test_every_engine_invariant_holds_on_random_playouts(seed: int, bot: int, config: tuple[int, dict[str, object]]) -> None:
    seats, options = config
    p = testing.playout("liars-dice", seats, options, seed=seed, bot_seed=bot)
    assert p.match.is_over
    testing.check_determinism(p, options)
    for check in testing.ALL_CHECKS[1:]:
        check(p)


@given(seeds, bot_seeds, st.data())
def test_an_illegal_command_leaves_the_match_byte_identical(seed: int, bot: int, data: st.DataObject) -> None:
    p = testing.playout("liars-dice", 3, {"dice": 2}, seed=seed, bot_seed=bot)
    m = p.match
    m.seek(data.draw(st.integers(0, len(m))))
    before = m.to_bytes()
    seat = data.draw(st.integers(-2, 4))
    q, f = data.draw(st.integers(-3, 9)), data.draw(st.integers(-3, 9))
    import liars_dice as ld

    cmd = ld.Bid(q, f)
    try:
        legal = seat in m.to_act and cmd in m.legal(seat)
    except meeple.IllegalCommand:
        legal = False
    try:
        m.play(seat, cmd)
    except meeple.IllegalCommand:
        assert not legal
        assert m.to_bytes() == before
    else:
        assert legal


@given(seeds, bot_seeds, st.integers(0, 2**64 - 1))
def test_a_fork_with_a_new_seed_verifies_and_leaves_the_parent_alone(seed: int, bot: int, new_seed: int) -> None:
    p = testing.playout("liars-dice", 2, {"dice": 2}, seed=seed, bot_seed=bot)
    parent = p.match.to_bytes()
    child = p.match.fork(at=0, seed=new_seed)
    assert meeple.verify(child.to_bytes()).ok
    assert p.match.to_bytes() == parent


@pytest.mark.parametrize("game_id", game_params())
def test_logs_are_byte_identical_in_a_fresh_process(game_id: str) -> None:
    game = meeple.get_game(game_id)
    seats = game.info.seat_range(game.info.variants[0])[0]
    script = (
        "import sys, liars_dice, meeple\n"
        "from meeple import testing\n"
        f"p = testing.playout({game_id!r}, {seats}, seed=123456789, bot_seed=5)\n"
        "sys.stdout.buffer.write(p.match.to_bytes())\n"
    )
    examples = str(Path(__file__).resolve().parents[1] / "examples")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True,
                         env={"PYTHONPATH": examples, "PYTHONHASHSEED": "77", "PATH": ""}).stdout
    here = testing.playout(game_id, seats, seed=123456789, bot_seed=5).match.to_bytes()
    assert out == here
