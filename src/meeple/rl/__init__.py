"""Reinforcement learning: PettingZoo environments for every game that declares its encodings.

>>> import meeple.rl
>>> e = meeple.rl.env("liars-dice", seats=2)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), obs["observation"].shape == e.observation_space(e.agent_selection)["observation"].shape
(['action_mask', 'observation', 'view'], True)

:func:`env` returns a PettingZoo AEC environment (:mod:`meeple.rl.aec`)
with a fixed action space and observation tensors built from each seat's
view. A game declares what that takes, its encodings, as data
(:mod:`meeple.rl.encoding`): an action space of fixed size in which each
action id always means the same command, and a layout of named segments
that its encoder fills from a view. :func:`check_encoding` plays random
matches and holds a game's encodings to their declaration.

The declarations (:class:`Encoding`, :class:`Actions`, :class:`Observation`,
:class:`Segment`, :func:`register_encoding`) need nothing beyond meeple's
core; the environment needs the ``rl`` extra (``pip install
'meeple[rl]'``: pettingzoo, gymnasium, numpy).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..engine import Game
from .check import check_encoding
from .encoding import (
    ENTRY_POINTS,
    Actions,
    Encoding,
    EncodingError,
    EncodingFactory,
    NoEncoding,
    Observation,
    Segment,
    Steps,
    encoding_factory,
    encoding_for,
    register_encoding,
)
from .rewards import Reward, score, win_share, zero_sum

if TYPE_CHECKING:
    from pettingzoo import AECEnv

    from .single import SingleAgentEnv


def env(
    game: str | Game[Any, Any],
    seats: int | None = None,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    *,
    reward: Reward = zero_sum,
    max_commands: int | None = None,
    view: bool = True,
    segments: bool = False,
    illegal: str = "raise",
    illegal_reward: float = -1.0,
    actions: str = "flat",
) -> AECEnv[str, dict[str, Any], int]:
    """A PettingZoo AEC environment of ``game`` at a table of ``seats`` (default: the fewest the variant allows).

    ``variant`` and ``options`` choose the rules as for a match (options
    over the variant's); ``render_mode`` is None, ``"ansi"`` or
    ``"human"``; ``reward(outcome, seat)`` gives each agent its reward when
    the match ends (:func:`zero_sum` by default); a match lasting
    ``max_commands`` actions is truncated. ``view=False`` leaves the
    ``"view"`` entry out of the observations; ``segments=True`` gives the
    tensor as a Dict of the named segments in their shapes;
    ``illegal="penalize"`` ends the match with ``illegal_reward`` for an
    action outside the mask instead of raising (:mod:`meeple.rl.aec`);
    ``actions="steps"`` gives a command in several steps, each with its own
    mask, where the game declares such a space (:class:`Steps`; Saboteur
    does). As in PettingZoo's classic
    environments, the environment comes in an ``OrderEnforcingWrapper``
    (``.unwrapped`` is the :class:`~meeple.rl.aec.MeepleEnv`, whose
    ``match`` is the referee's match). Raises :class:`NoEncoding` for a
    game that declares no encodings, :class:`ConfigError` for seats or
    options that make no game, and :class:`ModuleNotFoundError` naming the
    extra when PettingZoo is not installed.
    """
    try:
        from .aec import Ordered, make_env
    except ModuleNotFoundError as e:  # pragma: no cover - depends on the installation
        raise ModuleNotFoundError(f"meeple.rl.env needs the rl extra (pip install 'meeple[rl]'): {e}") from e
    raw = make_env(game, seats, variant, options, render_mode, reward=reward, max_commands=max_commands, view=view,
                   segments=segments, illegal=illegal, illegal_reward=illegal_reward, actions=actions)
    return Ordered(raw)


def single_agent(*args: Any, **kwargs: Any) -> SingleAgentEnv:
    """A Gymnasium environment with the learner at one seat and bots or policies at the others.

    The arguments are those of :func:`meeple.rl.single.single_agent`
    (``game, seats, seat, opponents``, then the options of :func:`env`);
    it needs the ``rl`` extra.
    """
    from .single import single_agent as make

    return make(*args, **kwargs)


__all__ = [
    "ENTRY_POINTS", "Actions", "Encoding", "EncodingError", "EncodingFactory", "NoEncoding",
    "Observation", "Reward", "Segment", "Steps", "check_encoding", "encoding_factory", "encoding_for", "env",
    "register_encoding", "score", "single_agent", "win_share", "zero_sum",
]
