"""Saboteur's step action space: a command given as its card's slot, then its cell and turn (or seat, goal, tool).

The judges are PettingZoo's ``api_test`` and ``seed_test`` and Gymnasium's
``check_env``; the tests here pin what they cannot see: that at every step
the mask is exactly the next steps of the legal commands that begin with
the steps chosen so far, so that the commands the masks allow are the legal
commands, no more and no fewer.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import meeple.rl as rl
from meeple.engine import ConfigError, get_game
from meeple.games.saboteur.commands import Discard, PlayPath
from meeple.rl.aec import IllegalAction, make_env
from meeple.rl.encodings import saboteur as saboteur_enc

TABLES = [(4, {}), (3, {"edition": "deluxe"}), (5, {"edition": "deluxe", "pass_discards": 3})]


@pytest.mark.parametrize(("seats", "options"), TABLES)
def test_the_step_space_passes_the_pettingzoo_api_and_seed_tests(seats: int, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(rl.env("saboteur", seats=seats, options=options, actions="steps"), num_cycles=300)
    seed_test(lambda: rl.env("saboteur", seats=seats, options=options, actions="steps"), num_cycles=100)


@pytest.mark.parametrize(("seats", "options"), TABLES)
def test_at_every_step_the_mask_is_the_next_steps_of_the_legal_commands(seats: int, options: dict[str, Any]) -> None:
    env = make_env("saboteur", seats, options=options, view=False, actions="steps")
    bots = {s: get_game("saboteur").bots()["heuristic"](s) for s in range(seats)}
    rng = random.Random(seats)
    env.reset(seed=seats)
    decisions = steps_taken = 0
    while env.agents and decisions < 400:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        match = env.match
        assert match is not None
        legal = list(match.legal(seat))
        paths = {env.actions_of(c, seat): c for c in legal}
        assert len(paths) == len(legal)  # every legal command has its own steps
        view = match.view(seat)
        command = bots[seat].choose(view, legal, seat) if rng.random() < 0.5 else rng.choice(legal)
        chosen: tuple[int, ...] = ()
        played = len(match.records)
        for token in env.actions_of(command, seat):
            obs = env.observe(agent)
            allowed = set(np.flatnonzero(obs["action_mask"]).tolist())
            assert allowed == {p[len(chosen)] for p in paths if p[:len(chosen)] == chosen}
            assert set(np.flatnonzero(obs["observation"][-env.steps.size:]).tolist()) == set(chosen)  # type: ignore[union-attr]
            assert len(env.match.records) == played  # type: ignore[union-attr]  # nothing is played before the last step
            env.step(token)
            chosen += (token,)
            steps_taken += 1
        assert env.match.records[played].command == command  # type: ignore[union-attr]  # the last step plays the command
        decisions += 1
    assert decisions > 50 and steps_taken > decisions  # some commands took more than one step


def test_a_path_card_is_its_slot_a_cell_and_a_turn_and_a_pass_is_its_slot() -> None:
    env = make_env("saboteur", 4, view=False, actions="steps")
    env.reset(seed=2)
    seat = env._mover
    assert seat is not None
    view = env.match.view(seat)  # type: ignore[union-attr]
    legal = env.match.legal(seat)  # type: ignore[union-attr]
    path = next(c for c in legal if isinstance(c, PlayPath))
    cell = (path.col - saboteur_enc.COLS[0]) * (saboteur_enc.ROWS[1] - saboteur_enc.ROWS[0] + 1) + path.row \
        - saboteur_enc.ROWS[0]
    card, where, turned = env.actions_of(path, seat)
    steps = env.steps
    assert steps is not None
    assert steps.label(card) == f"card #{view.hand.index(path.card)}"
    assert steps.label(where) == f"cell #{cell}" and steps.label(turned) == f"turned #{int(path.rotated)}"
    discard = next(c for c in legal if isinstance(c, Discard))
    (only,) = env.actions_of(discard, seat)
    assert steps.label(only) == f"discard #{view.hand.index(discard.cards[0])}"


def test_a_step_that_begins_a_command_is_not_a_command_and_an_illegal_step_is_refused() -> None:
    env = make_env("saboteur", 4, view=False, actions="steps")
    env.reset(seed=2)
    path = next(c for c in env.match.legal(env._mover) if isinstance(c, PlayPath))  # type: ignore[union-attr, arg-type]
    first = env.actions_of(path)[0]
    with pytest.raises(IllegalAction, match="one step of a command"):
        env.command_of(first)
    outside = next(a for a in range(env.steps.size) if a not in env._legal)  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match="not legal"):
        env.step(outside)


def test_a_game_without_steps_refuses_the_option() -> None:
    with pytest.raises(ConfigError, match="no step action space"):
        rl.env("kings", seats=2, actions="steps")
    with pytest.raises(ValueError, match="actions is one of"):
        rl.env("saboteur", seats=4, actions="factored")


@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_the_single_agent_wrapper_with_steps_passes_gymnasiums_check_env(opponents: str) -> None:
    env = rl.single_agent("saboteur", seats=4, seat=1, opponents=opponents, actions="steps")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, skip_render_check=True)
    _, info = env.reset(seed=5)
    assert env.action_space.n == env.aec.steps.size  # type: ignore[attr-defined, union-attr]
    done, moves = False, 0
    while not done:
        legal = np.flatnonzero(env.action_masks())
        assert len(legal) and np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        _, _, terminated, truncated, info = env.step(int(legal[moves % len(legal)]))
        done, moves = terminated or truncated, moves + 1
    assert moves > 10
