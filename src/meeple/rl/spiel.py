"""A meeple game as an OpenSpiel Python game, so that OpenSpiel's CFR, exploitability, MCTS and evaluation run on it.

:func:`register` registers a game with ``pyspiel.register_game`` under
``meeple_<id>`` (``-`` as ``_``); ``pyspiel.load_game("meeple_liars_dice",
{"players": 2, "sides": 3})`` then loads it, its options as game
parameters. Actions are the game's fixed action ids (:mod:`meeple.rl.encoding`),
so action *a* means the same command as in the PettingZoo environment;
legality and rewards stay the game's (``legal_commands``, ``reward`` of
the outcome, :func:`~meeple.rl.rewards.zero_sum` by default).

**Chance is explicit, one node per draw.** The engine's own steps (deals,
rolls) and any command whose rules draw from the RNG run ``decide`` with a
scripted RNG: each ``below(n)`` it asks for (and every draw of
:class:`~meeple.engine.Rng` is built on ``below``: ``die``, ``dice``,
``between``, ``choice``, ``shuffled``) becomes a chance node of ``n``
equally likely outcomes ``0..n-1``, and the step's events are those the
rules make from the drawn values. Liar's Dice's roll is one chance node per
die (six outcomes each); Mordred's income roll is two (one per die) after
the player's decision to roll. What cannot be made explicit: a draw of a
raw 64-bit word (``Rng.next64``, 2**64 outcomes: such a step raises
:class:`Unenumerable`), and nothing is merged: a shuffle of *n* cards is
*n* - 1 chance nodes of *n*, *n* - 1, ... outcomes, exact but far too many
to enumerate for CFR (sampling algorithms, MCTS and evaluation, are
fine).

Information states: the string is the acting seat's history of views (each
position's view, repeated views once), so it has perfect recall whatever
the view keeps; the observation tensor is the game's encoding of the
current view. No information-state tensor is offered (a view does not in
general recall the past). OpenSpiel is the ``bench`` extra
(``open_spiel``, module ``pyspiel``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel

from ..engine import ENGINE, Command, Event, Game, Rng
from ..engine.codec import options_from_map, options_to_map
from ..engine.match import codec_for
from ..engine.registry import resolve
from .check import observe
from .encoding import Encoding, encoding_for
from .rewards import Reward, zero_sum


class Unenumerable(ValueError):
    """A step's rules draw a raw 64-bit word, whose 2**64 outcomes cannot be listed as a chance node."""


class _Draw(Exception):
    """Raised by the scripted RNG when the rules ask for a draw beyond the script: ``n`` outcomes."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.n = n


class ScriptedRng(Rng):
    """An RNG whose ``below`` draws are given in advance; the draw after them raises :class:`_Draw`."""

    def __init__(self, script: Sequence[int]) -> None:
        super().__init__(0)
        self.script = script
        self.at = 0

    def below(self, n: int) -> int:
        """The next scripted value (checked to be below ``n``), or :class:`_Draw` of ``n`` outcomes."""
        if self.at >= len(self.script):
            raise _Draw(n)
        v = self.script[self.at]
        if not 0 <= v < n:
            raise ValueError(f"chance outcome {v} is not in 0..{n - 1}")
        self.at += 1
        return v

    def dice(self, count: int, sides: int = 6) -> tuple[int, ...]:
        """``count`` dice, each ``1 + below(sides)``."""
        return tuple(1 + self.below(sides) for _ in range(count))

    def shuffle_in_place(self, items: Any) -> None:
        """Fisher-Yates, one scripted draw per swap (as :class:`Rng` does it)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def next64(self) -> int:
        """Refuse: a raw word has 2**64 outcomes."""
        raise Unenumerable("the rules draw a raw 64-bit word (Rng.next64): its outcomes cannot be listed")


#: Every game object a state was made for, by ``id``: states hold the key, so a deepcopy shares the game.
_GAMES: dict[int, MeepleSpielGame] = {}

#: Parameter types OpenSpiel takes for a game's options.
_PARAM_TYPES = (bool, int, float, str)


class MeepleSpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """A position of a meeple game as an OpenSpiel state (see the module docstring)."""

    def __init__(self, game: MeepleSpielGame) -> None:
        super().__init__(game)
        _GAMES[id(game)] = game
        self._game_id = id(game)  # OpenSpiel clones a state by deepcopy: the game is shared, not copied
        self._state = game.meeple.initial_state(game.seats, game.options)
        self._views: list[Any] = [self._state]  # every position so far, for the information states
        self._pending: tuple[int, Command, list[int], int] | None = None  # seat, command, draws so far, outcomes
        self._settle()

    # -- OpenSpiel's API -------------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act, CHANCE at a draw, TERMINAL once over."""
        if self._pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        acting = [s for s in self._g.meeple.to_act(self._state) if s != ENGINE]
        if not acting or self._g.meeple.outcome(self._state) is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return acting[0]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._ids(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The draw's ``n`` outcomes, each of probability 1/n."""
        assert self._pending is not None
        n = self._pending[3]
        return [(i, 1.0 / n) for i in range(n)]

    def _apply_action(self, action: int) -> None:
        if self._pending is not None:
            seat, command, script, _ = self._pending
            self._run(seat, command, [*script, action])
        else:
            seat = self.current_player()
            self._run(seat, self._ids(seat)[action], [])
        self._settle()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {action}"
        return self._g.encoding.actions.label(action)

    def is_terminal(self) -> bool:
        """True once the match is over."""
        return bool(self.current_player() == pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        """Each seat's reward of the outcome once over; zeros before."""
        out = self._g.meeple.outcome(self._state)
        if out is None or self._pending is not None:
            return [0.0] * self._g.seats
        return [float(self._g.reward(out, s)) for s in range(self._g.seats)]

    def __str__(self) -> str:
        return repr(self._state)

    # -- inside ------------------------------------------------------------------------------
    @property
    def _g(self) -> MeepleSpielGame:
        return _GAMES[self._game_id]

    @property
    def meeple_state(self) -> Any:
        """The game's own state of this position (the referee's: every hidden card)."""
        return self._state

    def _ids(self, seat: int) -> dict[int, Command]:
        if self._pending is not None or seat < 0:
            return {}
        g = self._g.meeple
        view = g.view(self._state, seat)
        index = self._g.encoding.actions.index
        return {int(index(c, view, seat)): c for c in g.legal_commands(self._state, seat)}

    def _run(self, seat: int, command: Command, script: list[int]) -> None:
        """Decide ``command`` with ``script`` as its draws: fold its events, or stop at the next draw."""
        try:
            events: Sequence[Event] = self._g.meeple.decide(self._state, seat, command, ScriptedRng(script))
        except _Draw as d:
            self._pending = (seat, command, script, d.n)
            return
        self._pending = None
        self._state = self._g.meeple.fold(self._state, tuple(events))
        self._views.append(self._state)

    def _settle(self) -> None:
        """Play the engine's steps that draw nothing; stop at a draw, a player's turn or the end."""
        g = self._g.meeple
        while self._pending is None and ENGINE in g.to_act(self._state) and g.outcome(self._state) is None:
            self._run(ENGINE, g.auto_command(self._state), [])


class MeepleObserver:
    """OpenSpiel's Python observer: the view's encoding as the tensor; the view (or its history) as the string."""

    def __init__(self, game: MeepleSpielGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        segments = game.encoding.observation.segments_at()
        size = 0 if perfect_recall else game.encoding.observation.size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        if not perfect_recall:
            for p in segments:
                self.dict[p.name] = self.tensor[p.offset:p.offset + p.segment.size].reshape(p.segment.shape or (1,))

    def set_from(self, state: MeepleSpielState, player: int) -> None:
        """Fill the tensor from ``player``'s view of ``state`` (nothing for the perfect-recall observer)."""
        if not self.perfect_recall:
            g = self.game
            self.tensor[:] = observe(g.encoding, g.meeple.view(state.meeple_state, player), player)

    def string_from(self, state: MeepleSpielState, player: int) -> str:
        """``player``'s view of ``state``; with perfect recall, of every position so far (repeats once)."""
        view = self.game.meeple.view
        if not self.perfect_recall:
            return f"p{player} {view(state.meeple_state, player)!r}"
        seen: list[str] = []
        for s in state._views:
            text = repr(view(s, player))
            if not seen or seen[-1] != text:
                seen.append(text)
        if state._pending is not None:
            seen.append(f"drawing {len(state._pending[2])}")
        return f"p{player} " + " | ".join(seen)


class MeepleSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """A meeple game at a table of ``players`` seats with its options, as an OpenSpiel game."""

    meeple: Game[Any, Any]
    reward: Reward = staticmethod(zero_sum)

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.seats = int(params.pop("players", self._defaults["players"]))
        self.options = options_from_map(codec_for(self.meeple), params, self.seats)
        self.encoding: Encoding = encoding_for(self.meeple, self.seats, self.options)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.actions.size,
            max_chance_outcomes=self._max_chance(self.options),
            num_players=self.seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self._max_length,
        )
        super().__init__(self._game_type, info, {"players": self.seats, **options_to_map(self.options)})

    _defaults: dict[str, Any] = {}
    _game_type: Any = None
    _max_length: int = 10_000

    @staticmethod
    def _max_chance(options: Any) -> int:
        return 64

    def new_initial_state(self) -> MeepleSpielState:
        """The position before the first step: the engine's first draw, or the first seat's turn."""
        return MeepleSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> MeepleObserver:
        """The observer OpenSpiel asks for: perfect recall gives the information state, else the observation."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        return MeepleObserver(self, perfect)


def short_name(game: str | Game[Any, Any]) -> str:
    """The OpenSpiel name of a meeple game: ``meeple_`` and its id with ``-`` as ``_``."""
    return "meeple_" + resolve(game).info.id.replace("-", "_")


_registered: dict[str, type[MeepleSpielGame]] = {}


def register(
    game: str | Game[Any, Any],
    *,
    max_chance_outcomes: int | None = None,
    max_game_length: int = 10_000,
) -> str:
    """Register ``game`` with OpenSpiel (once) and return its name for ``pyspiel.load_game``.

    Its parameters are ``players`` (default: the fewest seats) and every
    option of a type OpenSpiel takes (bool, int, float, str) at its
    default. ``max_chance_outcomes`` bounds the outcomes of one draw
    (Liar's Dice: its sides; 64 if not given and not known);
    ``max_game_length`` bounds the actions of a match, chance included.
    """
    g = resolve(game)
    name = short_name(g)
    if name in _registered:
        return name
    seats = g.info.min_seats
    defaults = options_to_map(options_from_map(codec_for(g), {}, seats))
    params: dict[str, Any] = {"players": seats}
    params.update({k: v for k, v in defaults.items() if isinstance(v, _PARAM_TYPES)})
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"meeple {g.info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if g.info.hidden_information
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=g.info.max_seats,
        min_num_players=g.info.min_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )
    if max_chance_outcomes is None:
        known = {"liars-dice": lambda o: int(o.sides), "mordred": lambda o: 6}.get(g.info.id)
    else:
        bound = max_chance_outcomes

        def known(o: Any) -> int:
            return bound

    cls = type(f"Spiel_{name}", (MeepleSpielGame,), {
        "meeple": g, "_defaults": params, "_game_type": game_type, "_max_length": max_game_length,
        **({"_max_chance": staticmethod(known)} if known is not None else {}),
    })
    pyspiel.register_game(game_type, cls)
    _registered[name] = cls
    return name


__all__ = ["MeepleObserver", "MeepleSpielGame", "MeepleSpielState", "ScriptedRng", "Unenumerable", "register",
           "short_name"]
