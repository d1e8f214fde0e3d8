"""Mordred (Martin Wallace): defend Wales from Mordred's warriors, and help him least.

Every turn a player declares a row of the Money table and rolls two dice;
black cells bring Mordred's warriors onto the map and move the player along
Mordred's road. Money buys villages, towns and castles and pays for attacks.
The rules as implemented are in ``docs/rules/mordred.md``.

>>> import meeple
>>> m = meeple.Match.start("mordred", seats=4, seed=1)
>>> len(m.legal(m.to_act[0]))
3
"""

from .commands import Attack, Build, EndTurn, Place, Roll, Start
from .data import AREAS, Kind, Row, Terrain
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
from .game import GAME, Mordred
from .info import INFO, VARIANTS
from .state import Building, End, MordredOptions, Phase, SiegeTargets, State, UsedUp
from .view import View

__all__ = [
    "AREAS",
    "GAME",
    "INFO",
    "VARIANTS",
    "Assaulted",
    "Attack",
    "Attacked",
    "Build",
    "Building",
    "Built",
    "End",
    "EndTurn",
    "FirstPlayerRolled",
    "GameEnded",
    "Kind",
    "Mordred",
    "MordredOptions",
    "Phase",
    "Place",
    "Roll",
    "Rolled",
    "Row",
    "Siege",
    "SiegeTargets",
    "Start",
    "State",
    "Terrain",
    "TurnEnded",
    "UsedUp",
    "View",
    "WarriorPlaced",
]
