"""The Mordred game object: where the rules, the view, the renderer and the bots meet.

The rules (:mod:`.rules`) know nothing of bots or text; this module hands
them, with the view, the renderer and the bots, to the engine as one
:class:`~meeple.engine.Game`.

>>> GAME.info.id, GAME.info.hidden_information
('mordred', False)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from meeple.engine import Command, Event, Game, GameInfo, RandomBot, Rng

from . import rules
from . import text as _text
from . import world as _world
from .bot import HeuristicBot
from .commands import Attack, Build, EndTurn, Place, Roll, Start
from .events import (
    Assaulted,
    Attacked,
    Built,
    FirstPlayerRolled,
    GameEnded,
    Rolled,
    Siege,
    TurnEnded,
    WarriorPlaced,
)
from .render import describe, render
from .state import MordredOptions, State
from .view import View, make_view

INFO = GameInfo(
    id="mordred",
    title="Mordred",
    rules_version=2,
    min_seats=3,
    max_seats=4,
    variants=("standard", "short"),
    has_chance=True,
    hidden_information=False,
    summary="Build in Wales, hold back Mordred's warriors, and help him as little as you can.",
)

#: The options each variant selects (the first is the plain game).
VARIANTS: Mapping[str, Mapping[str, int]] = {
    "standard": {},
    "short": {"warriors": 14, "road_forward": 10},
}


class Mordred(Game[State, MordredOptions]):
    """Mordred (Martin Wallace) on the meeple protocol: 3-4 players defend Wales."""

    info = INFO
    options_type = MordredOptions
    state_type = State
    view_type = View
    commands = (Start, Roll, Place, Build, Attack, EndTurn)
    events = (FirstPlayerRolled, Rolled, WarriorPlaced, Siege, Built, Attacked, Assaulted, TurnEnded, GameEnded)

    # The rules are plain functions of the state (see :mod:`.rules`); the engine calls them
    # through the game object, so they sit on it as they are, without a call in between.
    initial_state = staticmethod(rules.initial_state)
    to_act = staticmethod(rules.to_act)
    legal_commands = staticmethod(rules.legal_commands)
    decide = staticmethod(rules.decide)
    evolve = staticmethod(rules.evolve)
    outcome = staticmethod(rules.outcome)

    def auto_command(self, state: State) -> Command:
        """The engine's only command: the first-player roll."""
        return Start()

    def view(self, state: State, seat: int | None) -> View:
        """Everything on the table: Mordred has no hidden information (see :mod:`.view`)."""
        return make_view(state, seat)

    def world(self, view: View, seat: int | None, rng: Rng) -> State:
        """The state the view shows (nothing is hidden; see :mod:`.world`): search bots run plain MCTS."""
        return _world.world(view, seat, rng)

    def render(self, state: State, seat: int | None = None) -> str:
        """The map with buildings and warriors, the road, the money and the phase."""
        return render(state, seat)

    def describe(self, command: Command) -> str:
        """A short description of a command, for menus and replays."""
        return describe(command)

    def text(self, command: Command, events: Sequence[Event] | None = None, lang: str = "en") -> str:
        """A command offered, or a record as a sentence, in English or Russian; see :mod:`.text`."""
        return _text.text(command, events, lang)

    def bots(self) -> Mapping[str, Callable[[int], Any]]:
        """The random bot and the heuristic bot."""
        return {"random": lambda seed: RandomBot(seed), "heuristic": lambda seed: HeuristicBot(seed)}

    def variant_options(self, variant: str) -> dict[str, Any]:
        """``standard`` (no options) or ``short`` (14 warriors, road of 10 spaces)."""
        super().variant_options(variant)
        return dict(VARIANTS[variant])


#: The game object the registry finds (``meeple.get_game("mordred")``).
GAME = Mordred()
