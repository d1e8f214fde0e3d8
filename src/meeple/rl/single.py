"""A single-agent Gymnasium environment: the learner at one seat, bots or policies at the others.

:func:`meeple.rl.single_agent` seats the learner at ``seat`` and an
opponent at every other seat, each given as

* a bot spec, as ``meeple simulate --bots`` takes them: ``"random"``, a
  game's own bot (``"heuristic"``), ``"ismcts:200"``; each bot is made at
  every ``reset`` with a seed drawn from the environment's ``np_random``,
  so a seeded reset replays the same match for the same actions;
* a bot object (anything with ``choose(view, legal, seat)``);
* a policy: a callable ``policy(observation, agent) -> action id`` given
  the seat's PettingZoo observation (``"observation"``, ``"action_mask"``,
  ``"view"``), such as a frozen copy of the learner for self-play.

The learner sees the flat observation tensor (a ``Box``), picks a
``Discrete`` action, and reads its legal actions from
:meth:`SingleAgentEnv.action_masks` (the method sb3-contrib's
``MaskablePPO`` calls) or from ``info["action_mask"]``. The reward of a
step is everything the learner earned from its action up to its next turn
(the game's reward when the match ends, 0 before). An action outside the
mask ends the match with ``illegal_reward`` by default
(``illegal="penalize"``), so Gymnasium's ``check_env``, which steps
random actions, passes; ``illegal="raise"`` raises
:class:`~meeple.rl.aec.IllegalAction` instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np

from ..catalog import bot_factory
from ..engine import Game
from .aec import IllegalAction, MeepleEnv, make_env
from .rewards import Reward, zero_sum

#: ``policy(observation, agent) -> action id``: an opponent that reads the seat's PettingZoo observation.
Policy = Callable[[dict[str, Any], str], int]
#: An opponent: a bot spec, a bot (``choose(view, legal, seat)``) or a policy.
Opponent = str | Policy | Any

#: Matches ``reset`` starts, at most, looking for one in which the learner gets a turn.
_STARTS = 100


class SingleAgentEnv(gymnasium.Env[Any, np.int64]):
    """The learner at one seat of a match, the other seats played by opponents (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(self, aec: MeepleEnv, seat: int, opponents: Sequence[Opponent], render_mode: str | None = None) -> None:
        if not 0 <= seat < aec.seats:
            raise ValueError(f"seat is 0..{aec.seats - 1}, not {seat}")
        if len(opponents) != aec.seats - 1:
            raise ValueError(f"give one opponent for each of the {aec.seats - 1} other seats, not {len(opponents)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        self.aec = aec
        self.seat = seat
        self.agent = aec.possible_agents[seat]
        others = [s for s in range(aec.seats) if s != seat]
        self.opponents: dict[int, Opponent] = dict(zip(others, opponents))
        self.render_mode = render_mode
        self.observation_space = aec.observation_spaces[self.agent]["observation"]
        self.action_space = aec.action_spaces[self.agent]
        self._bots: dict[int, Any] = {}
        self._mask = np.zeros(int(self.action_space.n), np.int8)
        self._obs: Any = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start a match (the next of ``seed``'s stream) and play the opponents up to the learner's first turn."""
        super().reset(seed=seed)
        streams = [int(x) for x in self.np_random.integers(0, 2**63, size=1 + len(self.opponents))]
        self.aec.reset(seed=streams[0])
        for i, (s, opp) in enumerate(self.opponents.items()):
            if isinstance(opp, str):
                self._bots[s] = bot_factory(self.aec.game, opp)(streams[1 + i])
            else:
                self._bots[s] = opp
        for _ in range(_STARTS):
            self._advance()
            if not self._over():
                break
            self.aec.reset()  # the learner never got a turn in that match: the next one
        return self._observe(), {"action_mask": self._mask}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the opponents up to its next turn or the end of the match."""
        if self._over():
            raise gymnasium.error.ResetNeeded("the match is over: call reset()")
        self.aec.step(action)
        self._advance()
        reward = float(self.aec._cumulative_rewards[self.agent])
        obs = self._observe()
        info: dict[str, Any] = {**self.aec.infos.get(self.agent, {}), "action_mask": self._mask}
        return obs, reward, bool(self.aec.terminations[self.agent]), bool(self.aec.truncations[self.agent]), info

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The learner's legal actions now, as booleans (what sb3-contrib's ``MaskablePPO`` asks for)."""
        return self._mask.astype(bool)

    def render(self) -> str | None:
        """The referee's picture of the match (every hidden card): printed for ``"human"``, returned for ``"ansi"``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = self.aec.game.render(self.aec._live().state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # -- inside ------------------------------------------------------------------------------------
    def _over(self) -> bool:
        return bool(self.aec.terminations[self.agent] or self.aec.truncations[self.agent])

    def _observe(self) -> Any:
        got = self.aec.observe(self.agent)
        self._mask = got["action_mask"]
        return got["observation"]

    def _advance(self) -> None:
        """Play every opponent's turn until the learner is to act or the match is over."""
        aec = self.aec
        while not self._over() and aec.agent_selection != self.agent:
            agent = aec.agent_selection
            if aec.terminations[agent] or aec.truncations[agent]:
                aec.step(None)
                continue
            s = aec.possible_agents.index(agent)
            opp = self._bots[s]
            if hasattr(opp, "choose"):
                match = aec._live()
                view = match.view(s)
                for a in aec.actions_of(opp.choose(view, match.legal(s), s), s):  # one, or each step of it
                    aec.step(a)
            else:
                aec.step(opp(aec.observe(agent), agent))


def single_agent(
    game: str | Game[Any, Any],
    seats: int | None = None,
    seat: int = 0,
    opponents: Opponent | Sequence[Opponent] = "random",
    *,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    reward: Reward = zero_sum,
    max_commands: int | None = None,
    illegal: str = "penalize",
    illegal_reward: float = -1.0,
    segments: bool = False,
    render_mode: str | None = None,
    actions: str = "flat",
) -> SingleAgentEnv:
    """A Gymnasium environment of ``game`` with the learner at ``seat`` and ``opponents`` at the other seats.

    ``opponents`` is one opponent for every other seat, or a list of one
    per other seat in seat order (see the module docstring for what an
    opponent is). ``seats``, ``variant``, ``options``, ``reward`` and
    ``max_commands`` are as for :func:`meeple.rl.env`; ``illegal`` is
    ``"penalize"`` (the default here: the match ends and the learner gets
    ``illegal_reward``) or ``"raise"``; ``segments=True`` gives the
    observation as a Dict of the game's named segments in their shapes;
    ``actions="steps"`` has the learner give each command in steps, where
    the game declares them (:class:`~meeple.rl.encoding.Steps`).
    """
    aec = make_env(game, seats, variant, options, reward=reward, max_commands=max_commands, illegal=illegal,
                   illegal_reward=illegal_reward, segments=segments, actions=actions)
    n = aec.seats
    if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
        listed: list[Opponent] = [opponents] * (n - 1)
    else:
        listed = list(opponents)
    for opp in listed:
        if isinstance(opp, str):
            bot_factory(aec.game, opp)  # refuses an unknown bot now, naming the choices
    return SingleAgentEnv(aec, seat, listed, render_mode=render_mode)


__all__ = ["IllegalAction", "Opponent", "Policy", "SingleAgentEnv", "single_agent"]
