"""PettingZoo environments: the API and seeding tests, fixed action ids, view-only observations, rewards, errors."""

from __future__ import annotations

import warnings
from typing import Any

import attrs
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import liars_dice as ld
import meeple
import meeple.rl as rl
from meeple.engine import Outcome, get_game
from meeple.rl.aec import IllegalAction, MeepleEnv
from meeple.rl.encoding import NoEncoding, encoding_factory
from meeple.testing import game_params

pytestmark = pytest.mark.slow  # PettingZoo's api_test and seed_test on whole matches of every game

LD = get_game("liars-dice")


@pytest.mark.parametrize(("seats", "options"), [(2, {}), (3, {"dice": 2}), (4, {"dice": 2, "sides": 4, "wild": False})])
def test_liars_dice_passes_the_pettingzoo_api_test(seats: int, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a Dict observation is the classic environments' way
        api_test(rl.env("liars-dice", seats=seats, options=options), num_cycles=300)


@pytest.mark.parametrize("seats", [2, 3])
def test_liars_dice_passes_the_pettingzoo_seed_test(seats: int) -> None:
    seed_test(lambda: rl.env("liars-dice", seats=seats, options={"dice": 2}), num_cycles=200)


@pytest.mark.parametrize("gid", game_params())
def test_every_game_with_encodings_passes_the_api_test(gid: str) -> None:
    try:
        encoding_factory(gid)
    except NoEncoding:
        pytest.skip(f"{gid} declares no encodings for meeple.rl yet")
    game = get_game(gid)
    # the fewest seats of the default variant (Saboteur's base game starts at 3, its Deluxe edition at 2)
    seats = next((low for name, low, _ in game.info.variant_seats if name == game.info.variants[0]),
                 game.info.min_seats)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(rl.env(gid, seats=seats), num_cycles=200)
    seed_test(lambda: rl.env(gid, seats=seats), num_cycles=100)
    assert rl.check_encoding(gid, seats, seeds=range(2), max_steps=300) > 0


def _play_random(e: Any, seed: int) -> list[tuple[str, int]]:
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    played = []
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        played.append((agent, action))
        e.step(action)
    return played


def test_an_action_id_means_the_same_command_in_every_position() -> None:
    e = rl.env("liars-dice", seats=3, options={"dice": 2})
    raw: MeepleEnv = e.unwrapped
    meaning: dict[int, Any] = {}
    for seed in range(20):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = raw.match.legal(raw.possible_agents.index(agent))
            ids = np.flatnonzero(obs["action_mask"])
            assert len(ids) == len(legal)
            for a in ids:
                assert meaning.setdefault(int(a), raw.command_of(int(a))) == raw.command_of(int(a))
            e.step(int(ids[-1 if seed % 2 else 0]))
    assert meaning[6 * 6] == ld.CallLiar() and meaning[0] == ld.Bid(1, 1) and meaning[6 + 2] == ld.Bid(2, 3)


def test_observations_are_built_from_the_seats_view() -> None:
    e = rl.env("liars-dice", seats=3, options={"dice": 3})
    e.reset(seed=4)
    raw: MeepleEnv = e.unwrapped
    for agent in raw.possible_agents:
        seat = raw.possible_agents.index(agent)
        obs = raw.observe(agent)
        assert obs["view"] == raw.match.view(seat)
        assert np.array_equal(obs["observation"], raw.tensor(raw.match.view(seat), seat))
    # a true state that differs only in what seat 1 cannot see gives it the same observation
    state = raw.match.state
    other = attrs.evolve(state, dice=tuple(d if s == 1 else (1, 1, 1) for s, d in enumerate(state.dice)))
    assert state != other
    assert np.array_equal(raw.tensor(LD.view(state, 1), 1), raw.tensor(LD.view(other, 1), 1))
    mine = raw.observe("player_1")["observation"][3:9]
    assert list(mine) == [state.dice[1].count(f) for f in range(1, 7)]


def test_only_the_agent_to_act_has_a_mask() -> None:
    e = rl.env("liars-dice", seats=3)
    e.reset(seed=2)
    raw: MeepleEnv = e.unwrapped
    masks = {a: raw.observe(a)["action_mask"] for a in raw.possible_agents}
    assert masks[e.agent_selection].sum() == 18  # every bid of 1..3 dice of 6 faces; no call before a bid
    assert all(m.sum() == 0 for a, m in masks.items() if a != e.agent_selection)


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    e = rl.env("liars-dice", seats=2)
    e.reset(seed=1)
    raw: MeepleEnv = e.unwrapped
    before = raw.match.to_bytes()
    call = 2 * 6
    with pytest.raises(IllegalAction, match="not legal for player_0 now") as caught:
        e.step(call)  # no bid to call yet
    assert caught.value.agent == "player_0" and caught.value.action == call
    for bad, message in ((13, "outside the action space"), (-1, "outside the action space"),
                         (1.5, "an action is an integer"), ("3", "an action is an integer")):
        with pytest.raises(IllegalAction, match=message):
            e.step(bad)
    assert isinstance(caught.value, meeple.IllegalCommand)
    assert raw.match.to_bytes() == before and e.agent_selection == "player_0"
    e.step(np.int64(0))
    assert len(raw.match.records) == len(meeple.Match.from_bytes(before).records) + 1


def test_rewards_come_from_the_outcome_when_the_match_ends() -> None:
    e = rl.env("liars-dice", seats=3)
    e.reset(seed=7)
    e.step(0)  # seat 0 bids 1 x 1
    e.step(e.unwrapped.action_of(ld.CallLiar()))  # seat 1 calls
    raw: MeepleEnv = e.unwrapped
    out = raw.match.outcome
    assert out is not None
    rewards = {a: e.rewards[a] for a in raw.possible_agents}
    assert rewards == {f"player_{s}": rl.zero_sum(out, s) for s in range(3)}
    assert sorted(rewards.values()) == [-1.0, 0.5, 0.5] and sum(rewards.values()) == 0
    assert all(e.terminations.values())
    seen = []
    for agent in e.agent_iter():
        _, reward, terminated, _, _ = e.last()
        assert terminated
        seen.append((agent, reward))
        e.step(None)
    assert dict(seen) == rewards and e.agents == []


def test_other_rewards_can_be_given() -> None:
    e = rl.env("liars-dice", seats=3, reward=rl.win_share)
    e.reset(seed=3)
    e.step(0)
    e.step(e.unwrapped.action_of(ld.CallLiar()))
    out = e.unwrapped.match.outcome
    assert out is not None
    assert {a: e.rewards[a] for a in e.agents} == {f"player_{s}": rl.win_share(out, s) for s in range(3)}
    assert sorted(e.rewards.values()) == [0.0, 0.5, 0.5]


def test_reset_with_a_seed_replays_and_without_one_moves_on() -> None:
    e = rl.env("liars-dice", seats=2, options={"dice": 3})
    first = _play_random(e, 11)
    log = e.unwrapped.match.to_bytes()
    assert _play_random(e, 11) == first and e.unwrapped.match.to_bytes() == log
    e.reset(seed=11)
    d0 = e.unwrapped.match.state.dice
    e.reset()
    assert e.unwrapped.match.state.dice != d0 or e.unwrapped.match.to_bytes() != log


def test_a_long_match_is_truncated() -> None:
    e = rl.env("liars-dice", seats=2, options={"dice": 5}, max_commands=3)
    e.reset(seed=1)
    for _ in range(3):
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert e.unwrapped.match.outcome is None


def test_render_shows_the_referees_picture() -> None:
    e = rl.env("liars-dice", seats=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and "seat 0:" in text and "seat 1:" in text
    with pytest.raises(ValueError, match="render_mode"):
        rl.env("liars-dice", render_mode="rgb_array")


def test_a_game_without_encodings_is_refused_by_name() -> None:
    class Plain(type(LD)):  # type: ignore[misc]  # Liar's Dice under another id, with no encodings declared
        info = attrs.evolve(LD.info, id="plain-dice")

    with pytest.raises(NoEncoding, match="plain-dice declares no encodings") as e:
        rl.env(Plain())
    assert e.value.game == "plain-dice" and isinstance(e.value, meeple.ConfigError)


def test_seats_variant_and_options_are_checked_like_a_match() -> None:
    with pytest.raises(meeple.ConfigError, match="2-6 players"):
        rl.env("liars-dice", seats=9)
    with pytest.raises(meeple.ConfigError):
        rl.env("liars-dice", options={"dice": 9})
    with pytest.raises(meeple.ConfigError):
        rl.env("liars-dice", variant="nope")
    e = rl.env("liars-dice", options={"sides": 4})
    assert e.action_space("player_0").n == 2 * 4 + 1 and e.possible_agents == ["player_0", "player_1"]


def test_the_view_space_holds_views_and_draws_none() -> None:
    space = rl.env("liars-dice").observation_space("player_0")["view"]
    m = meeple.Match.start("liars-dice", 2, seed=1)
    assert space.contains(m.view(0)) and not space.contains("a view")
    with pytest.raises(NotImplementedError):
        space.sample()


def test_the_zero_sum_reward_splits_wins_and_losses() -> None:
    assert [rl.zero_sum(Outcome((0,), (1, 0), ""), s) for s in (0, 1)] == [1.0, -1.0]
    assert [rl.zero_sum(Outcome((1, 2), (0, 1, 1, 0), ""), s) for s in range(4)] == [-0.5, 0.5, 0.5, -0.5]
    assert rl.zero_sum(Outcome((), (0, 0), "a draw"), 0) == 0.0
    assert rl.zero_sum(Outcome((0, 1), (1, 1), "both won"), 1) == 0.0
