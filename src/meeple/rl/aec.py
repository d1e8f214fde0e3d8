"""A PettingZoo AEC environment over any game that declares its encodings (:mod:`meeple.rl.encoding`).

The environment drives a match (a :class:`~meeple.rl.referee.Referee`, which
keeps the position but not the log; ``env.match`` is the full
:class:`~meeple.Match`, made when asked) and gives each
agent only what its seat may know: the observation tensor is built from the
seat's view by the game's encoder, the action mask from the seat's legal
commands through the game's fixed action space, and the view itself rides
along. As in PettingZoo's classic environments:

* agents are ``player_0`` .. ``player_{n-1}`` (seat *i* is ``player_i``);
* an observation is ``{"observation": float32 vector, "action_mask": int8
  vector, "view": the seat's view}``; the mask is all zeros for an agent
  that may not act; ``view=False`` leaves the view out (a Dict of Boxes
  only, as Stable-Baselines3's ``MultiInputPolicy`` needs), and
  ``segments=True`` gives the observation as a Dict of the game's named
  segments, each a Box of its own shape (board planes keep their rows and
  columns); :meth:`MeepleEnv.split` cuts a flat vector the same way;
* rewards are 0 until the match ends, then ``reward(outcome, seat)``
  (:func:`meeple.rl.rewards.zero_sum` by default: +1/-1 for two players);
* an action outside the mask raises (:class:`IllegalAction`) with
  ``illegal="raise"`` (the default); with ``illegal="penalize"``, as
  PettingZoo's classic environments do, the match ends at once: the agent
  that chose it gets ``illegal_reward`` (-1), the others 0, every agent is
  terminated, and the offender's info holds ``"illegal_move": True``. A
  value that is no action id at all (not an integer, out of range) raises
  either way. A match still going after ``max_commands`` actions is
  truncated.

Seeding: ``reset(seed=s)`` starts a stream from ``s``, and each reset after
it (with no seed) starts the next match of that stream, so two environments
reset with the same seed play the same matches for the same actions. The
engine's own steps (deals, rolls) run inside ``step``, from the match's
seed, as in any match.
"""

from __future__ import annotations

import operator
import secrets
from collections.abc import Mapping
from itertools import repeat
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from ..engine import ENGINE, Code, Command, ConfigError, Game, IllegalCommand, Match, Rng
from ..engine.codec import options_from_map, options_to_map
from ..engine.match import codec_for
from ..engine.registry import resolve
from .encoding import Encoding, EncodingError, Segment, encoding_for
from .referee import Referee
from .rewards import Reward, zero_sum

#: Actions an environment's match may last before it is truncated.
MAX_COMMANDS = 10_000
_MASK64 = (1 << 64) - 1
#: The dtypes of the mask and the tensor, made once (NumPy turns a scalar type into a dtype on every call).
_INT8, _UINT8, _FLOAT32 = np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.float32)
#: What an action outside the mask does: raise :class:`IllegalAction`, or end the match with a penalty.
ILLEGAL_POLICIES = ("raise", "penalize")
#: The action spaces an environment offers: the game's flat one, or its steps (:class:`~meeple.rl.encoding.Steps`).
ACTION_SPACES = ("flat", "steps")


class IllegalAction(IllegalCommand):
    """An action that is not legal now (outside the action mask), or not an action id at all; nothing changed.

    ``action`` is what was passed, ``agent`` the agent that passed it.
    """

    def __init__(self, code: Code, message: str, action: Any, agent: str) -> None:
        super().__init__(code, message, None)
        self.action = action
        self.agent = agent


class ViewSpace(gymnasium.spaces.Space[Any]):
    """The space of a game's views: any value of its view class (views are not sampled)."""

    def __init__(self, view_type: type[Any] | None) -> None:
        super().__init__()
        self.view_type = view_type

    @property
    def is_np_flattenable(self) -> bool:
        """False: a view is a game's own value, not numbers (use the ``observation`` tensor for networks)."""
        return False

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        """Refuse: a view is what a seat sees in a match, not something to draw at random."""
        raise NotImplementedError("a view cannot be sampled; sample the 'observation' tensor instead")

    def contains(self, x: Any) -> bool:
        """True for a value of the view class (any value when the game names none)."""
        return self.view_type is None or isinstance(x, self.view_type)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ViewSpace) and other.view_type is self.view_type

    def __hash__(self) -> int:
        return hash((ViewSpace, self.view_type))

    def __repr__(self) -> str:
        name = self.view_type.__qualname__ if self.view_type is not None else "any"
        return f"ViewSpace({name})"


class MeepleEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]  # AECEnv is untyped
    """A PettingZoo AEC environment of one game at one table (see the module docstring); made by :func:`meeple.rl.env`."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        game: Game[Any, Any],
        seats: int,
        options: Any,
        encoding: Encoding | None = None,
        *,
        render_mode: str | None = None,
        reward: Reward = zero_sum,
        max_commands: int = MAX_COMMANDS,
        view: bool = True,
        segments: bool = False,
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        actions: str = "flat",
    ) -> None:
        super().__init__()
        if illegal not in ILLEGAL_POLICIES:
            raise ValueError(f"illegal is one of {ILLEGAL_POLICIES}, not {illegal!r}")
        if actions not in ACTION_SPACES:
            raise ValueError(f"actions is one of {ACTION_SPACES}, not {actions!r}")
        self.with_view = view
        self.with_segments = segments
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        self.game = game
        self.seats = seats
        self.options = options
        self._options_map = options_to_map(options)
        self.encoding = encoding if encoding is not None else encoding_for(game, seats, options)
        self.steps = self.encoding.steps if actions == "steps" else None
        if actions == "steps" and self.steps is None:
            raise ConfigError(f"{game.info.id} declares no step action space (Encoding.steps); use actions='flat'")
        self.actions_kind = actions
        self._segment_names = frozenset(s.name for s in self.encoding.observation.segments)
        self.render_mode = render_mode
        self.reward = reward
        self.max_commands = max_commands
        self.metadata = {**self.metadata, "name": f"meeple_{game.info.id.replace('-', '_')}_v{game.info.rules_version}"}
        self.possible_agents = [f"player_{s}" for s in range(seats)]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        obs = self.encoding.observation
        self._fill = obs.fill
        #: (name, offset, size, shape) of every segment, in order
        self._placed = [(p.name, p.offset, p.segment.size, p.segment.shape or (1,)) for p in obs.segments_at()]
        self._size = obs.size
        layout = list(obs.segments)
        if self.steps is not None:  # the steps chosen so far in the command being given, after the game's segments
            chosen = Segment("chosen", self.steps.size, doc="1 at each step id chosen so far in the command being given")
            layout.append(chosen)
            self._placed.append((chosen.name, self._size, chosen.size, chosen.shape))
            self._size += chosen.size
        self._chosen_at = obs.size
        low = np.concatenate([np.full(s.size, s.low, np.float32) for s in layout])
        high = np.concatenate([np.full(s.size, s.high, np.float32) for s in layout])
        n = self.steps.size if self.steps is not None else self.encoding.actions.size
        self._n_actions = n
        tensor_space: spaces.Space[Any] = spaces.Box(low=low, high=high, dtype=np.float32)
        if segments:
            tensor_space = spaces.Dict({
                s.name: spaces.Box(low=s.low, high=s.high, shape=s.shape or (1,), dtype=np.float32)
                for s in layout
            })
        entries: dict[str, spaces.Space[Any]] = {
            "observation": tensor_space,
            "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
        }
        if view:
            entries["view"] = ViewSpace(game.view_type)
        self.observation_spaces = {a: spaces.Dict(dict(entries)) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._stream: Rng | None = None
        self._referee: Referee | None = None
        self._legal: dict[int, Any] = {}  # action id -> its command (steps: or the next steps, a dict like this)
        self._chosen: list[int] = []  # steps: the step ids chosen so far in the command being given
        self._mover: int | None = None
        self._commands = 0
        self._views: dict[int, Any] = {}  # the views of the current position, by seat
        self._ids: list[int] = []  # the action ids of the legal commands of the seat to act

    # -- spaces ----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The (cached) observation space of ``agent``: a Dict of the tensor, the mask and the view."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The (cached) fixed action space of ``agent``: ``Discrete(size)``."""
        return self.action_spaces[agent]

    # -- the AEC protocol -----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new match: from ``seed``'s stream, or the next match of the stream (``options`` is not used)."""
        if seed is not None:
            self._stream = Rng(seed & _MASK64)
        elif self._stream is None:
            self._stream = Rng(secrets.randbits(64))
        self._referee = Referee(self.game, self.seats, self._stream.next64(), self._options_map)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewarded = False  # whether self.rewards holds any reward (else all are 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._commands = 0
        self._views = {}
        self._next()

    def observe(self, agent: str) -> dict[str, Any]:
        """The observation of ``agent``: its tensor, its action mask (zeros unless it acts now) and its view."""
        seat = self._seat_of[agent]
        view = self._view(seat)
        bits = bytearray(self._n_actions)  # zeros; a few items set, then wrapped (no copy)
        if seat == self._mover:
            for a in self._ids:
                bits[a] = 1
        mask = np.frombuffer(bits, _INT8)
        tensor: Any = self.tensor(view, seat)
        if self._chosen and seat == self._mover:
            for a in self._chosen:
                tensor[self._chosen_at + a] = 1
        if self.with_segments:
            tensor = self.split(tensor)
        out = {"observation": tensor, "action_mask": mask}
        if self.with_view:
            out["view"] = view
        return out

    def split(self, tensor: np.ndarray[Any, Any]) -> dict[str, np.ndarray[Any, Any]]:
        """The flat observation ``tensor`` cut into the game's named segments, each in its own shape (no copy)."""
        return {name: tensor[o:o + n].reshape(shape) for name, o, n, shape in self._placed}

    def step(self, action: Any) -> None:
        """Play ``action`` for the agent to act (None for one that is done); raise :class:`IllegalAction` if illegal."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self._live()
        seat = self._seat_of[agent]
        command = self._legal.get(action) if type(action) is int and seat == self._mover else None
        if command is None:  # not a legal action id: _entry says why (or finds a NumPy integer's entry)
            try:
                command = self._entry(action, agent)
            except IllegalAction as e:
                if self.illegal == "raise" or e.code is not Code.RULE:
                    raise
                self._penalize(agent)
                return
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # rewards are all 0 until the match ends: reset them only when some were given
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        if type(command) is dict:  # steps: one step of a command chosen, the same agent chooses the next
            self._chosen.append(operator.index(action))
            self._legal, self._ids = command, list(command)
            return
        self._views = {}
        match.play(seat, command)
        self._commands += 1
        out = match.outcome
        if out is not None:
            self.rewards = {a: float(self.reward(out, s)) for s, a in enumerate(self.possible_agents) if a in self.rewards}
            self._rewarded = True
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        elif self._commands >= self.max_commands:
            self.truncations = dict.fromkeys(self.agents, True)
        if out is not None or self._commands >= self.max_commands:
            self._mover, self._legal, self._ids, self._chosen = None, {}, [], []
            self._deads_step_first()
        else:
            self._next()
        if self.render_mode == "human":
            self.render()

    def _penalize(self, agent: str) -> None:
        """End the match for an illegal action, as PettingZoo's classic environments do."""
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: (float(self.illegal_reward) if a == agent else 0.0) for a in self.agents}
        self._rewarded = True
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent]["illegal_move"] = True
        self._accumulate_rewards()
        self._mover, self._legal, self._ids, self._chosen = None, {}, [], []
        self._deads_step_first()

    def render(self) -> str | None:
        """The referee's picture of the match (every hidden card): printed for ``"human"``, returned for ``"ansi"``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = self.game.render(self._live().state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (the match lives in memory)."""

    # -- encodings ----------------------------------------------------------------------------------
    def tensor(self, view: Any, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The observation tensor of ``view`` for ``seat``: the game's segments, flattened and concatenated.

        With the layout's ``fill`` the numbers are written straight into a
        zeroed ``bytearray``, made ``float32`` in one conversion, and the
        values a byte cannot hold set after; otherwise ``encode``'s segments
        are checked and copied in.
        """
        if self._fill is not None:
            raw = bytearray(self._size)
            extra = self._fill(view, seat, raw)
            filled = np.frombuffer(raw, _UINT8).astype(_FLOAT32)
            if extra:
                for i, x in extra:
                    filled[i] = x
            return filled
        obs = self.encoding.observation
        values = obs.encode(view, seat)
        if len(values) > len(obs.segments) or not set(values) <= self._segment_names:
            unknown = sorted(set(values) - self._segment_names)
            raise EncodingError(f"{self.game.info.id}: the encoder fills segments it does not declare: {unknown}")
        # runs of segments given as numbers go into one flat list each, assigned at once (far cheaper than an
        # assignment per segment); arrays (and deeper nestings, made arrays) are copied in where they lie
        out = np.zeros(self._size, np.float32)
        buf: list[Any] = []
        start = 0
        for name, offset, n, shape in self._placed:
            v = values.get(name)
            if v is None:
                buf.extend(repeat(0, n))
                continue
            if isinstance(v, (int, float)):
                buf.append(v)
            elif isinstance(v, (list, tuple)) and (not v or not isinstance(v[0], (list, tuple))):
                buf.extend(v)  # a flat sequence of numbers
            elif isinstance(v, (list, tuple)) and len(shape) == 2 and not (v[0] and isinstance(v[0][0], (list, tuple))):
                for row in v:  # rows of numbers
                    buf.extend(row)
            else:  # an array, or deeper nesting: copied in as an array
                array = v if isinstance(v, np.ndarray) else np.asarray(v, dtype=np.float32)
                if array.size != n:
                    raise EncodingError(f"{self.game.info.id}: segment {name!r} has {array.size} values, not {n} "
                                        f"(shape {shape})")
                if buf:
                    out[start:offset] = buf
                    buf = []
                out[offset:offset + n] = array.reshape(-1)
                start = offset + n
                continue
            if start + len(buf) != offset + n:
                raise EncodingError(f"{self.game.info.id}: segment {name!r} has {start + len(buf) - offset} values, "
                                    f"not {n} (shape {shape})")
        if buf:
            out[start:] = buf
        return out

    def command_of(self, action: Any, agent: str | None = None) -> Command:
        """The legal command that ``action`` stands for now; :class:`IllegalAction` if it stands for none.

        With ``actions="steps"``, an action that is one step of a command but
        not its last stands for none yet: IllegalAction says so.
        """
        agent = agent or self.agent_selection
        got = self._entry(action, agent)
        if type(got) is dict:
            raise IllegalAction(Code.RULE, f"action {action} is one step of a command, not all of it: the next step "
                                "is chosen after it", action, agent)
        return got  # type: ignore[no-any-return]

    def _entry(self, action: Any, agent: str) -> Any:
        """What ``action`` stands for now: a command, or (steps) the next steps; :class:`IllegalAction` if neither."""
        size = self._n_actions
        try:
            a = operator.index(action)
        except TypeError:
            raise IllegalAction(Code.BAD_ARGUMENT, f"an action is an integer in 0..{size - 1}, not {action!r}",
                                action, agent) from None
        if not 0 <= a < size:
            raise IllegalAction(Code.BAD_ARGUMENT, f"action {a} is outside the action space 0..{size - 1}", action, agent)
        got = self._legal.get(a) if self._seat_of.get(agent) == self._mover else None
        if got is None:
            label = (self.steps or self.encoding.actions).label(a)
            raise IllegalAction(Code.RULE, f"action {a} ({label}) is not legal for {agent} now: "
                                "choose where observation['action_mask'] is 1", action, agent)
        return got

    def action_of(self, command: Command, seat: int | None = None) -> int:
        """The action id of a legal ``command`` of ``seat`` (default: the seat to act) in the current position.

        With ``actions="steps"``: the id of its first step (:meth:`actions_of` gives them all).
        """
        return self.actions_of(command, seat)[0]

    def actions_of(self, command: Command, seat: int | None = None) -> tuple[int, ...]:
        """The action ids that give a legal ``command`` of ``seat`` (default: the seat to act), in order.

        One id with the flat action space; with ``actions="steps"``, one per
        step (the steps already chosen included: give it at the start of a
        command).
        """
        self._live()
        seat = self._mover if seat is None else seat
        if seat is None:
            raise IllegalAction(Code.GAME_OVER, "no seat acts now", command, "")
        if self.steps is not None:
            return tuple(self.steps.tokens(command, self._view(seat), seat))
        return (self.encoding.actions.index(command, self._view(seat), seat),)

    @property
    def match(self) -> Match | None:
        """The referee's :class:`~meeple.Match` of the current episode (None before ``reset``): save, replay, verify.

        The environment plays on a :class:`~meeple.rl.referee.Referee`, which
        keeps the position and the commands but not the log; the match is
        made from them when asked (the same log, byte for byte), and what is
        done to it does not move the environment.
        """
        return self._referee.match() if self._referee is not None else None

    # -- inside ------------------------------------------------------------------------------------
    def _live(self) -> Referee:
        if self._referee is None:
            raise gymnasium.error.ResetNeeded("call reset() before using the environment")
        return self._referee

    def _view(self, seat: int) -> Any:
        """The seat's view of the current position, made once per position."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self._live().view(seat)
        return view

    def _next(self) -> None:
        """Point ``agent_selection`` at the seat to act and map its legal commands to action ids."""
        match = self._live()
        acting = match.to_act
        seat = acting[0] if acting and acting[0] != ENGINE else next((s for s in acting if s != ENGINE), None)
        self._chosen = []
        if seat is None:
            self._mover, self._legal, self._ids = None, {}, []
            return
        if self.steps is not None:
            self._next_steps(match, seat)
            return
        view = self._view(seat)
        actions = self.encoding.actions
        commands = match.legal(seat)
        if actions.index_all is not None:
            ids = actions.index_all(commands, view, seat)
        else:
            ids = [actions.index(c, view, seat) for c in commands]
        legal = dict(zip(ids, commands))
        if len(legal) != len(commands) or len(ids) != len(commands) or (
                ids and not (type(lo := min(ids)) is int and lo >= 0 and max(ids) < actions.size)):
            self._check_ids(commands, ids)  # raises, naming the command at fault, or makes every id an int
            legal = dict(zip(ids, commands))
        self._mover, self._legal, self._ids = seat, legal, ids
        self.agent_selection = self.possible_agents[seat]

    def _next_steps(self, match: Referee, seat: int) -> None:
        """The steps space: the tree of the legal commands' step ids, each leaf a command, the mask at its root."""
        view = self._view(seat)
        steps = self.steps
        assert steps is not None
        gid, size = self.game.info.id, steps.size
        root: dict[int, Any] = {}
        for command in match.legal(seat):
            tokens = steps.tokens(command, view, seat)
            if not tokens or any(type(t) is not int or not 0 <= t < size for t in tokens):
                raise EncodingError(f"{gid}: {command!r} got step ids {tokens!r}: one or more, each in 0..{size - 1}")
            node = root
            for t in tokens[:-1]:
                node = node.setdefault(t, {})
                if type(node) is not dict:
                    raise EncodingError(f"{gid}: the steps of {node!r} begin those of {command!r}")
            if tokens[-1] in node:
                other = node[tokens[-1]]
                what = f"{other!r} and {command!r} share" if type(other) is not dict else f"{command!r} begins"
                raise EncodingError(f"{gid}: {what} the steps {tokens!r}")
            node[tokens[-1]] = command
        self._mover, self._legal, self._ids = seat, root, list(root)
        self.agent_selection = self.possible_agents[seat]

    def _check_ids(self, commands: Any, ids: list[Any]) -> None:
        """Raise :class:`EncodingError` for the first command without an id of its own in the space."""
        size = self.encoding.actions.size
        if len(ids) != len(commands):
            raise EncodingError(f"{self.game.info.id}: {len(commands)} legal commands got {len(ids)} action ids")
        seen: dict[int, Command] = {}
        for command, a in zip(commands, ids):
            if isinstance(a, bool) or not isinstance(a, (int, np.integer)) or not 0 <= a < size:
                raise EncodingError(f"{self.game.info.id}: {command!r} got action id {a!r}, outside 0..{size - 1}")
            if int(a) in seen:
                raise EncodingError(f"{self.game.info.id}: {seen[int(a)]!r} and {command!r} are legal at once and "
                                    f"share action id {a}")
            seen[int(a)] = command
        for i, a in enumerate(ids):  # numpy integers, all distinct and in range: kept as Python ints
            ids[i] = int(a)


class Ordered(OrderEnforcingWrapper):  # type: ignore[misc]  # the wrapper is untyped
    """PettingZoo's ``OrderEnforcingWrapper`` with ``last`` asked of the environment itself.

    The wrapper's own ``last`` reads five attributes through its
    ``__getattr__``, one lookup chain each; this one checks the order once
    and hands the call on. Everything else is the wrapper's.
    """

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """What :meth:`MeepleEnv.last` gives; AttributeError before ``reset``, as the wrapper raises."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        """What the wrapper's ``step`` does, reading the environment's agents directly."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)


def make_env(
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
) -> MeepleEnv:
    """The :class:`MeepleEnv` that :func:`meeple.rl.env` wraps (same arguments), without PettingZoo's wrapper."""
    g = resolve(game)
    opts: dict[str, Any] = dict(g.variant_options(variant)) if variant is not None else {}
    opts.update(options or {})
    n = g.info.seat_range(variant or g.info.variants[0])[0] if seats is None else seats
    g.check_seats(n)
    decoded = options_from_map(codec_for(g), opts, n)
    return MeepleEnv(g, n, decoded, encoding_for(g, n, decoded), render_mode=render_mode, reward=reward,
                     max_commands=MAX_COMMANDS if max_commands is None else max_commands, view=view,
                     segments=segments, illegal=illegal, illegal_reward=illegal_reward, actions=actions)
