"""The environment's options (no view, named segments, the illegal-action policy) and the single-agent wrapper.

Gymnasium's ``check_env`` and PettingZoo's ``api_test`` are the judges; the
other tests pin what those checkers cannot see: what an illegal action
costs, that opponents are who they were said to be, and that the learner
sees nothing its seat may not know.
"""

from __future__ import annotations

import warnings
from typing import Any

import attrs
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import meeple.rl as rl
from meeple.engine import ConfigError, RandomBot, get_game
from meeple.examples import liars_dice as ld
from meeple.rl.aec import IllegalAction, MeepleEnv
from meeple.rl.encoding import NoEncoding, encoding_factory
from meeple.rl.single import SingleAgentEnv
from meeple.testing import game_params

LD = get_game("liars-dice")


def _fewest(gid: str) -> int:
    game = get_game(gid)
    return next((low for name, low, _ in game.info.variant_seats if name == game.info.variants[0]), game.info.min_seats)


def _with_encodings() -> list[str]:
    """Every available game that declares encodings, the example game included."""
    out = {"liars-dice"}
    for p in game_params():
        gid = p.values[0]
        try:
            encoding_factory(gid)
        except (NoEncoding, ConfigError):
            continue
        out.add(gid)
    return sorted(out)


# -- the AEC environment's options -------------------------------------------------------------------


@pytest.mark.parametrize(("view", "segments", "illegal"), [(False, False, "raise"), (False, True, "penalize"),
                                                          (True, True, "raise")])
def test_every_option_passes_the_pettingzoo_api_and_seed_tests(view: bool, segments: bool, illegal: str) -> None:
    def make() -> Any:
        return rl.env("liars-dice", seats=3, options={"dice": 2}, view=view, segments=segments, illegal=illegal)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(make(), num_cycles=200)
    seed_test(make, num_cycles=100)
    e = make()
    e.reset(seed=1)
    obs = e.last()[0]
    assert ("view" in obs) is view and ("view" in e.observation_space("player_0").spaces) is view
    assert isinstance(obs["observation"], dict) is segments


def test_segments_are_the_flat_tensor_cut_by_name_into_their_shapes() -> None:
    flat, cut = rl.env("saboteur", seats=4), rl.env("saboteur", seats=4, segments=True, view=False)
    flat.reset(seed=5)
    cut.reset(seed=5)
    raw: MeepleEnv = flat.unwrapped
    whole, parts = flat.last()[0]["observation"], cut.last()[0]["observation"]
    declared = raw.encoding.observation.segments
    assert list(parts) == [s.name for s in declared]
    assert [parts[s.name].shape for s in declared] == [s.shape or (1,) for s in declared]
    assert np.array_equal(np.concatenate([p.reshape(-1) for p in parts.values()]), whole)
    # the board is a stack of planes over the window, one cell per (column, row): every card laid lies there
    from meeple.rl.encodings.saboteur import COLS, ROWS

    rng = np.random.default_rng(0)
    while len(cut.unwrapped.match.view(0).board.cells) < 3:
        cut.step(int(rng.choice(np.flatnonzero(cut.last()[0]["action_mask"]))))
    cells = cut.unwrapped.match.view(0).board.cells
    board = cut.unwrapped.observe("player_0")["observation"]["board"]
    assert board.shape == (33, 33, 6) and len(cells) >= 3
    assert {(c.col - COLS[0], c.row - ROWS[0]) for c in cells} == {tuple(ix) for ix in np.argwhere(board[:, :, 0])}
    assert cut.observation_space("player_0")["observation"]["board"].contains(board)


def test_without_the_view_the_observation_space_is_boxes_only() -> None:
    e = rl.env("kings", seats=2, view=False)
    space = e.observation_space("player_0")
    assert sorted(space.spaces) == ["action_mask", "observation"]
    assert all(s.is_np_flattenable for s in space.spaces.values())


def test_penalize_ends_the_match_with_a_penalty_for_the_offender_only() -> None:
    e = rl.env("liars-dice", seats=3, illegal="penalize", illegal_reward=-2.0)
    e.reset(seed=1)
    raw: MeepleEnv = e.unwrapped
    before = raw.match.to_bytes()
    offender = e.agent_selection
    e.step(3 * 6)  # the call, with no bid to call
    assert raw.match.to_bytes() == before  # the illegal action was not played
    assert all(e.terminations.values())
    assert e.rewards == {a: (-2.0 if a == offender else 0.0) for a in e.possible_agents}
    assert e.infos[offender] == {"illegal_move": True}
    rewards = {}
    for agent in e.agent_iter():
        rewards[agent] = e.last()[1]
        e.step(None)
    assert rewards == {a: (-2.0 if a == offender else 0.0) for a in e.possible_agents}
    for bad in (-1, 99, "x"):  # not an action id at all: raises under either policy
        e.reset(seed=1)
        with pytest.raises(IllegalAction):
            e.step(bad)


def test_an_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="illegal is one of"):
        rl.env("liars-dice", illegal="ignore")


def test_the_tensor_of_a_view_is_the_same_whichever_way_segments_are_given() -> None:
    """The fast assembly (rows as one list, arrays copied in) gives what the plain per-segment one gives."""
    from meeple.rl.check import observe

    for gid, seats in (("saboteur", 4), ("kings", 2), ("gophers", 3), ("mordred", 3), ("liars-dice", 3)):
        e = rl.env(gid, seats=seats)
        e.reset(seed=2)
        raw: MeepleEnv = e.unwrapped
        for _ in range(30):
            if raw.match.is_over:
                break
            for s in range(seats):
                view = raw.match.view(s)
                assert raw.tensor(view, s).tolist() == observe(raw.encoding, view, s), (gid, s)
            obs = e.last()[0]
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))


# -- the single-agent wrapper --------------------------------------------------------------------------


@pytest.mark.parametrize("gid", _with_encodings())
def test_every_game_passes_gymnasiums_check_env(gid: str) -> None:
    game = get_game(gid)
    opponent = "heuristic" if "heuristic" in game.bots() else "random"
    env = rl.single_agent(gid, seats=_fewest(gid), seat=1, opponents=opponent)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env warns of what it dislikes: none of it here
        check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].any() and np.array_equal(env.action_masks(), info["action_mask"].astype(bool))


def _play(env: SingleAgentEnv, seed: int, pick: int = 0) -> tuple[list[float], list[Any]]:
    obs, _ = env.reset(seed=seed)
    rewards, seen = [], [obs.tobytes()]
    done = False
    while not done:
        legal = np.flatnonzero(env.action_masks())
        obs, reward, terminated, truncated, _ = env.step(int(legal[pick % len(legal)]))
        rewards.append(reward)
        seen.append(obs.tobytes())
        done = terminated or truncated
    return rewards, seen


def test_the_learner_acts_only_at_its_seat_and_gets_its_reward_at_the_end() -> None:
    env = rl.single_agent("liars-dice", seats=3, seat=2, opponents="random")
    for seed in range(20):
        env.reset(seed=seed)
        m = env.aec.match
        assert m is not None and m.to_act == (2,)  # the opponents have played up to the learner's turn
        rewards, _ = _play(env, seed)
        assert rewards[:-1] == [0.0] * (len(rewards) - 1)
        assert rewards[-1] == rl.zero_sum(env.aec.match.outcome, 2)
    with pytest.raises(Exception, match="reset"):
        env.step(0)


def test_a_seeded_reset_replays_the_match_and_opponents() -> None:
    env = rl.single_agent("kings", seats=2, seat=0, opponents="heuristic")
    first = _play(env, 11)
    assert _play(env, 11) == first
    assert _play(env, 12) != first


def test_opponents_are_specs_bots_or_policies() -> None:
    calls: list[str] = []

    def lowest(observation: dict[str, Any], agent: str) -> int:
        calls.append(agent)
        assert "view" in observation  # a policy gets the seat's whole PettingZoo observation
        return int(np.flatnonzero(observation["action_mask"])[0])

    env = rl.single_agent("liars-dice", seats=4, seat=1, opponents=["ismcts:8", RandomBot(3), lowest])
    assert isinstance(env.opponents[0], str) and isinstance(env.opponents[2], RandomBot)
    _play(env, 5)
    assert set(calls) <= {"player_3"} and calls
    with pytest.raises(ValueError, match="one opponent for each of the 3 other seats"):
        rl.single_agent("liars-dice", seats=4, opponents=["random", "random"])
    with pytest.raises(ConfigError, match="no bot 'nobody'"):
        rl.single_agent("liars-dice", seats=2, opponents="nobody")


def test_an_illegal_action_ends_the_learners_match_or_raises() -> None:
    env = rl.single_agent("liars-dice", seats=2, seat=0)
    env.reset(seed=1)
    _, reward, terminated, truncated, info = env.step(12)  # the call, before any bid
    assert (reward, terminated, truncated, info["illegal_move"]) == (-1.0, True, False, True)
    strict = rl.single_agent("liars-dice", seats=2, seat=0, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalAction):
        strict.step(12)


def test_the_learner_sees_nothing_of_the_other_cups() -> None:
    """Re-rolling every die but the learner's changes nothing it observes; its own dice show."""
    env = rl.single_agent("liars-dice", seats=3, seat=1, opponents="random", options={"dice": 3})
    obs, _ = env.reset(seed=4)
    state = env.aec.match.state
    for faces in ((1, 1, 1), (6, 6, 6), (2, 3, 4)):
        other = attrs.evolve(state, dice=tuple(d if s == 1 else faces for s, d in enumerate(state.dice)))
        assert np.array_equal(env.aec.tensor(LD.view(other, 1), 1), obs)
    assert list(obs[3:9]) == [state.dice[1].count(f) for f in range(1, 7)]
    assert isinstance(env.aec.match.state, ld.State)
