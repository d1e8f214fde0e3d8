"""Mordred for ``meeple.rl``: one table of every command, and a tensor of the (public) table.

**Actions** (one table, in this order): the three rows to roll on (A, B,
C); a warrior placed on each area, in map order; each building type that
may stand on an area, by area in map order then village, town, castle; an
attack from each land area on each of its neighbours, in map order; ending
the turn. :func:`encoding` declares it; ``docs/rl.md`` gives the sizes.

**Observation.** Seats are counted from the observer (0 is itself, 1 the
next seat clockwise, and so on); areas are in map order
(:data:`~meeple.games.mordred.data.AREA_CODES`). Money is read up to
:data:`MONEY_CAP` (more reads as the cap).
"""

from __future__ import annotations

from typing import Any

from meeple.engine import Command, get_game
from meeple.games.mordred.commands import Attack, Build, EndTurn, Place, Roll
from meeple.games.mordred.data import (
    AREA_CODES,
    BUILDINGS,
    KIND_INDEX,
    KINDS,
    LAND_INDICES,
    MONEY,
    NEIGHBOURS,
    PRICES,
    Row,
)
from meeple.games.mordred.state import End, MordredOptions, Phase
from meeple.games.mordred.view import View

from ..encoding import Actions, Encoding, Observation, Segment

#: Money above this reads as this in an observation.
MONEY_CAP = 100
_ROWS = tuple(Row)
_PHASES = tuple(Phase)
_ENDS = tuple(End)
#: The most a roll pays (two dice on the richest cell) and the most warriors it brings.
_MOST_MONEY = 2 * max(cell.money for cells in MONEY.values() for cell in cells)
_MOST_WARRIORS = 2 * max(cell.warriors for cells in MONEY.values() for cell in cells)


def commands() -> tuple[Command, ...]:
    """Every command a player can give in Mordred, in action-id order."""
    return (
        *(Roll(row) for row in Row),
        *(Place(code) for code in AREA_CODES),
        *(Build(code, kind) for i, code in enumerate(AREA_CODES) for kind, price in zip(KINDS, PRICES[i])
          if price is not None),
        *(Attack(AREA_CODES[i], AREA_CODES[n]) for i in LAND_INDICES for n in NEIGHBOURS[i]),
        EndTurn(),
    )


def encoding(seats: int, options: MordredOptions) -> Encoding:
    """The fixed action space and the observation layout of Mordred at ``seats`` (see the module)."""
    areas, kinds = len(AREA_CODES), len(KINDS)
    owners = seats * kinds

    def encode(view: View, seat: int) -> dict[str, Any]:
        def rel(s: int) -> int:
            return (s - seat) % seats

        buildings = [[0] * owners for _ in range(areas)]
        for i, b in enumerate(view.buildings):
            if b is not None:
                buildings[i][rel(b.owner) * kinds + KIND_INDEX[b.kind]] = 1
        to_act = [0] * seats
        if view.phase is not Phase.SETUP and view.phase is not Phase.OVER:
            to_act[rel(view.turn)] = 1
        first = [0] * seats
        if view.phase is not Phase.SETUP:
            first[rel(view.first)] = 1
        standing = [[0] * kinds for _ in range(seats)]
        for s, counts in enumerate(view.standing):
            standing[rel(s)] = list(counts)
        money, road = [0] * seats, [0] * seats
        for s, (cash, space) in enumerate(zip(view.money, view.road)):
            money[rel(s)], road[rel(s)] = min(cash, MONEY_CAP), space
        roll: dict[str, Any] = {}
        last = view.last_roll
        if last is not None:
            who = [0] * seats
            who[rel(last.seat)] = 1
            dice = [[int(d == face) for face in range(1, 7)] for d in last.dice]
            roll = {"roll_seat": who, "roll_row": [int(last.row is r) for r in _ROWS], "roll_dice": dice,
                    "roll_money": last.money, "roll_warriors": last.warriors}
        return {
            "seat": [int(s == seat) for s in range(seats)],
            "phase": [int(view.phase is p) for p in _PHASES],
            "to_act": to_act,
            "first": first,
            "buildings": buildings,
            "warriors": [int(w) for w in view.warriors],
            "supply": view.supply,
            "hand": view.hand,
            "standing": standing,
            "money": money,
            "road": road,
            **roll,
            "ended": [int(view.ended is e) for e in _ENDS],
        }

    layout = (
        Segment("seat", seats, doc="one-hot: the observer's seat at the table"),
        Segment("phase", len(_PHASES), doc="one-hot: set-up, roll, place, spend, over"),
        Segment("to_act", seats, doc="one-hot: the seat on turn, from the observer (all 0 once over)"),
        Segment("first", seats, doc="one-hot: the seat that took the first turn, from the observer"),
        Segment("buildings", (areas, owners),
                doc="per area in map order, one-hot owner and type of its building: seat (from the observer) "
                    "x village, town, castle; all 0 where none stands"),
        Segment("warriors", areas, doc="1 where one of Mordred's warriors stands"),
        Segment("supply", (), high=options.warriors, doc="Mordred's warriors not yet on the map"),
        Segment("hand", (), high=_MOST_WARRIORS, doc="warriors the seat on turn has still to place"),
        Segment("standing", (seats, kinds), high=max(spec.pieces for spec in BUILDINGS.values()),
                doc="per seat, its villages, towns and castles on the map"),
        Segment("money", seats, high=MONEY_CAP, doc=f"per seat, its pounds (more than {MONEY_CAP} reads {MONEY_CAP})"),
        Segment("road", seats, low=-options.road_back, high=options.road_forward,
                doc="per seat, its marker's space on the road (0 is the dragon, negative behind it)"),
        Segment("roll_seat", seats, doc="one-hot: who made the last income roll (all 0 before the first)"),
        Segment("roll_row", len(_ROWS), doc="one-hot: the row of the last roll (A, B, C)"),
        Segment("roll_dice", (2, 6), doc="one-hot per die: the faces of the last roll"),
        Segment("roll_money", (), high=_MOST_MONEY, doc="the pounds the last roll paid"),
        Segment("roll_warriors", (), high=_MOST_WARRIORS, doc="the warriors the last roll brought"),
        Segment("ended", len(_ENDS), doc="one-hot: how the match ended (warriors, buildings, road, Mordred)"),
    )
    return Encoding(Actions.table(commands(), describe=get_game("mordred").describe), Observation(layout, encode))
