"""The Gophers game object: the rules, with their views, text and bots, put together.

This is where the parts meet, so that the imports run one way: data ->
state -> rules -> view, render, bot -> game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from meeple.engine import Command, Event, RandomBot, Rng

from . import render as _render
from . import text as _text
from . import view as _view
from .bot import HeuristicBot
from .rules import GophersRules
from .state import State
from .world import world


class Gophers(GophersRules):
    """Gophers ("Проныры") on the meeple protocol, with all four rule sets as a ``variant`` option.

    >>> import meeple
    >>> m = meeple.Match.start("gophers", seats=2, seed=3)
    >>> m.to_act, m.game.describe(m.legal(0)[0])
    ((0,), 'place pawn on hole 0')
    """

    view_type = _view.View

    def view(self, state: State, seat: int | None) -> _view.View:
        """What ``seat`` may know (see :mod:`.view`)."""
        return _view.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """Hide other seats' cards and the deck order (see :mod:`.view`)."""
        return _view.redact(event, seat)

    def determinize(self, state: State, seat: int | None, rng: Rng) -> State:
        """Re-deal every card ``seat`` cannot know (see :mod:`.view`)."""
        return _view.determinize(state, seat, rng)

    def world(self, view: _view.View, seat: int | None, rng: Rng) -> State:
        """A state sampled from ``seat``'s view alone; see :func:`meeple.games.gophers.world.world`."""
        return world(view, seat, rng)

    def render(self, state: State, seat: int | None = None) -> str:
        """Draw the open spread, the pawns, the labels, a key and the piles (see :mod:`.render`)."""
        return _render.render(state, seat)

    def describe(self, command: Command) -> str:
        """A short text for a command, e.g. ``lay A9, added``."""
        return _render.describe(command)

    def text(self, command: Command, events: Sequence[Event] | None = None, lang: str = "en") -> str:
        """A command offered, or a record as a sentence, in English or Russian; see :mod:`.text`."""
        return _text.text(command, events, lang)

    def bots(self) -> Mapping[str, Callable[[int], Any]]:
        """``random`` and ``heuristic`` bot factories."""
        return {"random": lambda seed: RandomBot(seed), "heuristic": lambda seed: HeuristicBot(seed)}


#: The game object the registry finds (``meeple.games.gophers:GAME``).
GAME = Gophers()
