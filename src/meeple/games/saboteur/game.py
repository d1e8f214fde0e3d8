"""The Saboteur game object: the rules, with what each seat sees, the text pictures and the bots.

This is where the parts meet, so the imports run one way: data -> board ->
state -> tables -> rules -> fastfold / view / render / bot -> game.

>>> from meeple.games.saboteur.game import GAME
>>> sorted(GAME.bots())
['heuristic', 'random']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from meeple.engine import Command, Event, RandomBot, Rng

from . import fastfold
from . import render as _render
from .bot import HeuristicBot
from .rules import SaboteurRules
from .state import State
from .view import View, determinize, redact, view
from .world import world


class Saboteur(SaboteurRules):
    """Saboteur, base game (3-10 players) and Deluxe edition (2-12), on the meeple protocol.

    >>> import meeple
    >>> m = meeple.Match.start("saboteur", seats=5, seed=3, options={"edition": "deluxe"})
    >>> len(m.view(0).hand)
    6
    """

    view_type = View
    #: one record's events folded as :func:`meeple.games.saboteur.fastfold.fold` folds them (a turn in one copy)
    fold = fastfold.fold

    def view(self, state: State, seat: int | None) -> View:
        """What ``seat`` may know; see :func:`meeple.games.saboteur.view.view`."""
        return view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """The event as ``seat`` sees it; see :func:`meeple.games.saboteur.view.redact`."""
        return redact(event, seat)

    def determinize(self, state: State, seat: int | None, rng: Rng) -> State:
        """Re-deal what ``seat`` cannot see; see :func:`meeple.games.saboteur.view.determinize`."""
        return determinize(state, seat, rng)

    def world(self, view: View, seat: int | None, rng: Rng) -> State:
        """A state sampled from ``seat``'s view alone; see :func:`meeple.games.saboteur.world.world`."""
        return world(view, seat, rng)

    def render(self, state: State, seat: int | None = None) -> str:
        """The board as a grid, and the table as ``seat`` sees it (None: the referee)."""
        return _render.render(state, seat)

    def describe(self, command: Command) -> str:
        """A short description of a command, e.g. ``lay crossroads at (1, 0)`` (redacted: no secret)."""
        return _render.describe(command)

    def bots(self) -> Mapping[str, Callable[[int], Any]]:
        """``random`` and the role-aware ``heuristic`` bot."""
        return {"random": lambda seed: RandomBot(seed), "heuristic": lambda seed: HeuristicBot(seed)}


GAME = Saboteur()
