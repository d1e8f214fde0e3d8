"""The OpenSpiel adapter: OpenSpiel's own checks and algorithms on meeple games, held to meeple's rules.

CFR through the adapter is compared with CFR on OpenSpiel's C++
``liars_dice`` (the example game has its rules): the same game tree gives
the same exploitability, iteration by iteration.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import meeple.rl as rl  # noqa: E402
from meeple.examples import liars_dice  # noqa: E402, F401  (registers "liars-dice")
from meeple.rl import spiel  # noqa: E402
from meeple.rl.aec import MeepleEnv  # noqa: E402


def _liars_dice(**params: Any) -> Any:
    return pyspiel.load_game(spiel.register("liars-dice"), params)


def test_cfr_through_the_adapter_is_cfr_on_openspiels_own_liars_dice() -> None:
    from open_spiel.python.algorithms import cfr, exploitability

    ours, theirs = _liars_dice(sides=3), pyspiel.load_game("liars_dice", {"players": 2, "numdice": 1, "dice_sides": 3})
    curves = []
    for game in (ours, theirs):
        solver = cfr.CFRSolver(game)
        curve = [exploitability.exploitability(game, solver.average_policy())]
        for _ in range(3):
            solver.evaluate_and_update_policy()
            curve.append(exploitability.exploitability(game, solver.average_policy()))
        curves.append(curve)
    assert np.allclose(curves[0], curves[1], atol=1e-9), curves
    # the average policy of one iteration is the uniform one; from there it falls at every iteration
    assert curves[0][1] == pytest.approx(curves[0][0])
    assert all(a > b for a, b in zip(curves[0][1:], curves[0][2:])), curves[0]
    assert curves[0][-1] < 0.5 * curves[0][0]


def test_legal_actions_and_returns_are_meeples() -> None:
    """The adapter, given the dice a match rolled, offers the environment's mask and pays its rewards."""
    game = _liars_dice(players=3, dice=2)
    for seed in range(12):
        env = rl.env("liars-dice", seats=3, options={"dice": 2})
        env.reset(seed=seed)
        raw: MeepleEnv = env.unwrapped
        state = game.new_initial_state()
        for cup in raw.match.state.dice:
            for die in cup:
                assert state.is_chance_node() and len(state.chance_outcomes()) == 6
                state.apply_action(die - 1)
        rng = np.random.default_rng(seed)
        while not raw.match.is_over:
            obs = env.last()[0]
            assert state.current_player() == raw.possible_agents.index(env.agent_selection)
            assert state.legal_actions() == np.flatnonzero(obs["action_mask"]).tolist()
            action = int(rng.choice(state.legal_actions()))
            state.apply_action(action)
            env.step(action)
        assert state.is_terminal()
        assert state.returns() == [raw.rewards[a] for a in raw.possible_agents]
        assert state.meeple_state == raw.match.state


@pytest.mark.parametrize(("gid", "params"), [("liars-dice", {"players": 3, "dice": 2}), ("mordred", {})])
def test_openspiels_random_simulation_check_passes(gid: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(spiel.register(gid), params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_mordreds_dice_are_chance_nodes_after_the_decision_to_roll() -> None:
    game = pyspiel.load_game(spiel.register("mordred"))
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    rolls = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == list(range(6)) and sum(p for _, p in outcomes) == pytest.approx(1)
            state.apply_action(int(rng.integers(6)))
            continue
        legal = state.legal_actions()
        action = int(rng.choice(legal))
        label = state.action_to_string(state.current_player(), action)
        state.apply_action(action)
        if label.startswith("declare row"):
            rolls += 1
            assert state.is_chance_node()  # the roll is decided, its two dice are drawn next
            state.apply_action(0)
            assert state.is_chance_node()
            state.apply_action(5)
            assert not state.is_chance_node()
    assert rolls > 0
    assert sum(state.returns()) == pytest.approx(0)


def test_information_states_hold_only_what_the_seat_may_know() -> None:
    game = _liars_dice(sides=3)
    strings: dict[int, set[str]] = {0: set(), 1: set()}
    tensors: dict[int, set[bytes]] = {0: set(), 1: set()}
    for first in range(3):
        state = game.new_initial_state()
        state.apply_action(first)  # seat 0's die
        state.apply_action(1)  # seat 1's die
        state.apply_action(0)  # seat 0 bids
        for p in (0, 1):
            strings[p].add(state.information_state_string(p))
            tensors[p].add(np.asarray(state.observation_tensor(p), np.float32).tobytes())
    assert len(strings[1]) == 1 and len(tensors[1]) == 1  # seat 1 cannot tell seat 0's die
    assert len(strings[0]) == 3 and len(tensors[0]) == 3  # seat 0 can


def test_openspiels_mcts_and_evaluation_run_on_the_adapter() -> None:
    from open_spiel.python.algorithms import evaluate_bots, mcts

    mordred = pyspiel.load_game(spiel.register("mordred"))
    state = mordred.new_initial_state()
    rs = np.random.RandomState(1)
    while state.is_chance_node():
        state.apply_action(int(rs.randint(6)))
    bot = mcts.MCTSBot(mordred, 2, 8, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(0))
    assert bot.step(state) in state.legal_actions()
    game = _liars_dice()
    bots = [pyspiel.make_uniform_random_bot(p, 7 + p) for p in range(2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sorted(returns) == [-1.0, 1.0]


def test_a_draw_is_a_chance_node_and_a_raw_word_is_refused() -> None:
    rng = spiel.ScriptedRng([2, 0])
    assert rng.dice(2, 6) == (3, 1)
    with pytest.raises(spiel._Draw) as drawn:
        rng.die()
    assert drawn.value.n == 6
    with pytest.raises(spiel.Unenumerable):
        spiel.ScriptedRng([]).next64()
    with pytest.raises(ValueError, match=r"not in 0\.\.1"):
        spiel.ScriptedRng([4]).below(2)
