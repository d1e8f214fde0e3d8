"""Gophers ("Проныры"): ground squirrels walk a six-spread burrow book and collect supplies.

Rules: ``docs/rules/gophers.md``. Four rule sets, one ``variant`` option:
standard, simplified, advanced (baskets) and beginner (5+).

>>> import meeple
>>> m = meeple.Match.start("gophers", seats=2, seed=3)
>>> m.to_act
(0,)
"""

from .data import Card, Kind
from .game import GAME, Gophers
from .info import INFO
from .options import GophersOptions, Variant
from .state import Phase, State, Turn
from .view import View

__all__ = ["GAME", "INFO", "Card", "Gophers", "GophersOptions", "Kind", "Phase", "State", "Turn", "Variant", "View"]
