"""The environment's observations, value for value: against the plain path, and pinned over seeded matches.

The environment takes short cuts (the seat's view made once per position,
the legal ids in one pass, the tensor written into one buffer); every
observation it gives must still be what the plain path makes of the same
position: the layout's ``encode`` of the seat's view, and a mask of the
action ids of ``legal`` through ``index``. The digests pin every value of
every observation of a few seeded random matches per game, so that a
faster encoder cannot drift from the one it replaces.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import numpy as np
import pytest

import meeple.rl as rl
from meeple.examples import liars_dice  # noqa: F401  (registers "liars-dice")

#: (game, seats, action space) and the digest of every observation of three seeded random matches.
PINNED: dict[tuple[str, int, str], str] = {
    ('saboteur', 4, 'flat'): "88d92867f010d27dd75fd6a3038036118cc2f0b318b86334ad536a9cf950d777",
    ('saboteur', 4, 'steps'): "da7a34ac960d2b93e2c6c572dbed24e15278cf62c26f60f1d54856d6231ae734",
    ('kings', 2, 'flat'): "8dae436f854cecaaa286e1d191498666de056d4caf690d3575163489a29afb0f",
    ('kings', 3, 'flat'): "47469b9a29c2d14805583811df33c194974d4d88b4c46a2ae36c50e117d194b5",
    ('gophers', 2, 'flat'): "a40882b5a1a53b7ba8a2c61a90404d099fbe91aa4851e7262a167fe0e44d3368",
    ('gophers', 4, 'flat'): "2375aa6dad86c8b4f4c553bc7c2e5e19c4f7fedf09ed74a1ee07dbc09af7f1ce",
    ('mordred', 3, 'flat'): "da8a10e20dcf9497e495918ab57520642d25b5029122e955659dfea35e4adb1e",
    ('liars-dice', 2, 'flat'): "bbcc05d7cdd7bde6c480fc190e19c6af007c2919bb19ee190be3c5886d2de2b4",
}


def _plain(env: Any, agent: str) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The observation of ``agent`` by the plain path: ``encode`` of a fresh view, ``index`` of each legal command."""
    raw = env.unwrapped
    seat = raw._seat_of[agent]
    view = raw.match.view(seat)
    values = raw.encoding.observation.encode(view, seat)
    flat = [float(x) for s in raw.encoding.observation.segments for x in np.ravel(values[s.name])]
    mask = np.zeros(raw._n_actions, np.int8)
    if raw.steps is None:
        if seat == raw._mover:
            for c in raw.match.legal(seat):
                mask[raw.encoding.actions.index(c, view, seat)] = 1
    else:
        flat += [0.0] * raw.steps.size
        if seat == raw._mover:
            chosen = raw._chosen
            for a in chosen:
                flat[raw._chosen_at + a] = 1.0
            for c in raw.match.legal(seat):
                tokens = raw.steps.tokens(c, view, seat)
                if list(tokens[:len(chosen)]) == chosen:
                    mask[tokens[len(chosen)]] = 1
    return np.asarray(flat, np.float32), mask


def _digest(game: str, seats: int, actions: str, matches: int, check: bool) -> str:
    env = rl.env(game, seats=seats, view=False, actions=actions)
    h = hashlib.sha256()
    rng = random.Random(7)
    for seed in range(matches):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            others = [a for a in env.agents if a != agent][:1]
            for who, got in [(agent, obs), *((a, env.observe(a)) for a in others)]:
                h.update(who.encode())
                h.update(got["observation"].tobytes())
                h.update(got["action_mask"].tobytes())
                if check:
                    tensor, mask = _plain(env, who)
                    assert np.array_equal(got["observation"], tensor), (game, who)
                    assert np.array_equal(got["action_mask"], mask), (game, who)
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
    return h.hexdigest()


CASES = [("saboteur", 4, "flat"), ("saboteur", 4, "steps"), ("kings", 2, "flat"), ("kings", 3, "flat"),
         ("gophers", 2, "flat"), ("gophers", 4, "flat"), ("mordred", 3, "flat"), ("liars-dice", 2, "flat")]


@pytest.mark.slow  # whole random matches of every bundled game, each observation made twice
@pytest.mark.parametrize(("game", "seats", "actions"), CASES)
def test_every_observation_is_the_plain_paths_and_the_pinned_one(game: str, seats: int, actions: str) -> None:
    digest = _digest(game, seats, actions, 3, check=True)
    assert digest == PINNED[(game, seats, actions)]
