"""Saboteur: dwarves dig for gold while hidden saboteurs dig against them.

The base game (3-10 players) and the Deluxe edition (option
``edition="deluxe"``, variant ``deluxe``, 2-12 players) on meeple's Game
protocol. Rules as implemented: ``docs/rules/saboteur.md``.

>>> import meeple
>>> m = meeple.Match.start("saboteur", seats=3, seed=7)
>>> m.view(0).role is not None
True
"""

from .game import GAME, Saboteur
from .info import INFO
from .rules import SaboteurRules
from .state import Edition, SaboteurOptions, State
from .view import View

__all__ = ["GAME", "INFO", "Edition", "Saboteur", "SaboteurOptions", "SaboteurRules", "State", "View"]
