"""The game object of Underground Kings: its declared facts, and the parts assembled.

The rules (:mod:`.rules`), what each seat sees (:mod:`.view`), the text
(:mod:`.render`) and the bots (:mod:`.bot`) meet here and nowhere else, so
the rules depend on none of the others.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from meeple.engine import Command, ConfigError, Event, Game, GameInfo, RandomBot, Rng

from . import render as _render
from . import rules as _rules
from . import view as _view
from . import world as _world
from .bot import HeuristicBot
from .commands import DrawCamp, DrawDeck, Play, Retreat, SetUp
from .events import (
    CampLaid,
    DeckShuffled,
    DrewFromCamp,
    DrewFromDeck,
    GameEnded,
    HandDealt,
    KingsDealt,
    MineCaptured,
    MineDeveloped,
    MineTurned,
    Retreated,
    SquadPlayed,
    TurnEnded,
)
from .state import VARIANTS, KingsOptions, State

INFO = GameInfo(
    id="kings",
    title="Underground Kings",
    rules_version=3,
    min_seats=2,
    max_seats=4,
    variants=tuple(VARIANTS),
    summary="Send squads to capture mines, then work them with foreign prisoners.",
)


class KingsGame(Game[State, KingsOptions]):
    """Underground Kings (Kings Under Mountains) on the meeple protocol.

    >>> import meeple
    >>> m = meeple.Match.start("kings", seats=2, seed=1)
    >>> m.to_act, len(m.view(0).hand)
    ((0,), 6)
    """

    info = INFO
    options_type = KingsOptions
    state_type = State
    view_type = _view.KingsView
    commands = (SetUp, Play, Retreat, DrawDeck, DrawCamp)
    events = (
        KingsDealt,
        DeckShuffled,
        MineTurned,
        CampLaid,
        HandDealt,
        SquadPlayed,
        MineCaptured,
        MineDeveloped,
        Retreated,
        DrewFromDeck,
        DrewFromCamp,
        TurnEnded,
        GameEnded,
    )

    # -- the rules (:mod:`.rules`), bound as they are: they run several times per command ----------
    initial_state = staticmethod(_rules.initial_state)
    to_act = staticmethod(_rules.to_act)
    legal_commands = staticmethod(_rules.legal_commands)
    decide = staticmethod(_rules.decide)
    evolve = staticmethod(_rules.evolve)
    outcome = staticmethod(_rules.outcome)

    def auto_command(self, state: State) -> Command:
        """The engine's only command: set up the table."""
        return SetUp()

    def variant_options(self, variant: str) -> dict[str, Any]:
        """``standard``: no options; ``discard``: developed mines' squads leave the game."""
        if variant not in VARIANTS:
            raise ConfigError(f"kings has no variant {variant!r}; variants: {', '.join(INFO.variants)}")
        return dict(VARIANTS[variant])

    # -- what each seat sees (:mod:`.view`) -----------------------------------------
    def view(self, state: State, seat: int | None) -> _view.KingsView:
        """What ``seat`` knows (see :func:`meeple.games.kings.view.view`)."""
        return _view.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """``event`` with what ``seat`` may not see set to None."""
        return _view.redact(event, seat)

    def determinize(self, state: State, seat: int | None, rng: Rng) -> State:
        """A state ``seat`` cannot tell from ``state`` (hidden cards re-dealt)."""
        return _view.determinize(state, seat, rng)

    def world(self, view: _view.KingsView, seat: int | None, rng: Rng) -> State:
        """A state sampled from ``view`` alone, for search bots (see :func:`meeple.games.kings.world.world`)."""
        return _world.world(view, seat, rng)

    # -- text and bots ------------------------------------------------------------------
    def render(self, state: State, seat: int | None = None) -> str:
        """The table as text, as ``seat`` sees it (None: the referee)."""
        return _render.render(state, seat)

    def describe(self, command: Command) -> str:
        """A short description of a command (see :func:`meeple.games.kings.render.describe`)."""
        return _render.describe(command)

    def bots(self) -> Mapping[str, Callable[[int], Any]]:
        """``random`` and ``heuristic`` bots (``factory(seed) -> bot``)."""
        return {"random": lambda seed: RandomBot(seed), "heuristic": lambda seed: HeuristicBot(seed)}


#: The game object the registry loads (``meeple.Match.start("kings", ...)``).
GAME = KingsGame()
