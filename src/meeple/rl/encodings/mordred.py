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

    buildings_memo: dict[tuple[int, int], tuple[Any, list[int]]] = {}

    def building_writes(buildings: tuple[Any, ...], seat: int) -> list[int]:
        """Where the buildings' ones go for ``seat``, remembered by the tuple's identity (states share it)."""
        hit = buildings_memo.get((id(buildings), seat))
        if hit is not None and hit[0] is buildings:
            return hit[1]
        if len(buildings_memo) >= 1024:
            buildings_memo.clear()
        at = cells[seat]
        found = [at[i][b.owner] + KINDS.index(b.kind) for i, b in enumerate(buildings) if b is not None]
        buildings_memo[id(buildings), seat] = (buildings, found)
        return found

    def fill(view: View, seat: int, out: bytearray) -> list[tuple[int, float]]:
        n = seats
        out[o_seat + seat] = 1
        phase = view.phase
        out[o_phase + _PHASES.index(phase)] = 1
        if phase is not Phase.SETUP:
            if phase is not Phase.OVER:
                out[o_to_act + (view.turn - seat) % n] = 1
            out[o_first + (view.first - seat) % n] = 1
        for i in building_writes(view.buildings, seat):
            out[i] = 1
        out[o_warriors:o_warriors + areas] = bytes(view.warriors)
        out[o_supply] = view.supply
        out[o_hand] = view.hand
        seats_in_order = order[seat]
        standing, money, road = view.standing, view.money, view.road
        out[o_standing:o_money] = b"".join([bytes(standing[s]) for s in seats_in_order])
        out[o_money:o_road] = bytes([min(money[s], MONEY_CAP) for s in seats_in_order])
        # negative behind the dragon
        extra: list[tuple[int, float]] = [(o_road + r, road[s]) for r, s in enumerate(seats_in_order) if road[s]]
        last = view.last_roll
        if last is not None:
            out[o_roll_seat + (last.seat - seat) % n] = 1
            out[o_roll_row + _ROWS.index(last.row)] = 1
            d1, d2 = last.dice
            if 1 <= d1 <= 6:
                out[o_roll_dice + d1 - 1] = 1
            if 1 <= d2 <= 6:
                out[o_roll_dice + 5 + d2] = 1
            out[o_roll_money] = last.money
            out[o_roll_warriors] = last.warriors
        if view.ended is not None:
            out[o_ended + _ENDS.index(view.ended)] = 1
        return extra

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
    at = {p.name: p.offset for p in Observation(layout, _no_encoder).segments_at()}
    o_seat, o_phase, o_to_act, o_first, o_buildings = at["seat"], at["phase"], at["to_act"], at["first"], at["buildings"]
    o_warriors, o_supply, o_hand, o_standing, o_money, o_road = at["warriors"], at["supply"], at["hand"], \
        at["standing"], at["money"], at["road"]
    o_roll_seat, o_roll_row, o_roll_dice, o_roll_money, o_roll_warriors, o_ended = at["roll_seat"], at["roll_row"], \
        at["roll_dice"], at["roll_money"], at["roll_warriors"], at["ended"]
    # per seat, per area, per owner: where that owner's village goes (a town, a castle: the next places)
    cells = [[[o_buildings + i * owners + (owner - seat) % seats * kinds for owner in range(seats)]
              for i in range(areas)] for seat in range(seats)]
    # per seat, the seats in the observer's order (0 is the seat itself)
    order = [tuple((r + seat) % seats for r in range(seats)) for seat in range(seats)]
    return Encoding(Actions.table(commands(), describe=get_game("mordred").describe), Observation.filled(layout, fill))


def _no_encoder(view: Any, seat: int) -> dict[str, Any]:
    return {}


_PHASE_INDEX = {p: i for i, p in enumerate(_PHASES)}
_ROW_INDEX = {r: i for i, r in enumerate(_ROWS)}
