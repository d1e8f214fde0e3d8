"""Underground Kings ("Подземные короли", Kings Under Mountains), complete, for 2-4 players.

Each player is the king of one people (orcs, goblins, dwarves or giants).
Squads played onto mines capture them; prisoners of other peoples work the
captured mines until they are developed. The rules as implemented are in
``docs/rules/kings.md``.

>>> import meeple
>>> m = meeple.Match.start("kings", seats=3, seed=5)
>>> len(m.state.deck), m.to_act
(54, (0,))
"""

from __future__ import annotations

from .commands import DrawCamp, DrawDeck, Play, Retreat, SetUp
from .data import CARDS, MINE_SIDES, Card, Mine, People
from .game import GAME, KingsGame
from .info import INFO
from .rules import beats
from .state import KingsOptions, MineSlot, Phase, State
from .view import KingsView, MineView

__all__ = [
    "CARDS", "GAME", "INFO", "MINE_SIDES", "Card", "DrawCamp", "DrawDeck", "KingsGame", "KingsOptions",
    "KingsView", "Mine", "MineSlot", "MineView", "People", "Phase", "Play", "Retreat", "SetUp", "State", "beats",
]
