"""Mordred's designed data: the map of Wales, the road, and the three tables.

No public source prints Mordred's map or tables, so everything here is designed
(``docs/rules/mordred.md`` gives each number with its reason). Rule code reads
these tables and never repeats a number of its own.

>>> AREAS["CAS"].name
"Mordred's castle"
>>> money_cell(Row.C, 6)
Cell(amount=2, black=True)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

import attrs

# -- vocabulary ----------------------------------------------------------------------


class Terrain(enum.Enum):
    """The two kinds of land on the map (and Mordred's castle, which is neither)."""

    FOREST = "forest"
    MOUNTAINS = "mountains"
    CASTLE = "castle"


class Kind(enum.Enum):
    """The three building types, cheapest first."""

    VILLAGE = "village"
    TOWN = "town"
    CASTLE = "castle"


class Row(enum.Enum):
    """A row of the Money table; a player declares one before rolling (C if none)."""

    A = "A"
    B = "B"
    C = "C"


# -- the map ---------------------------------------------------------------------------


@attrs.frozen
class Area:
    """One area of the map: its code, name, terrain, border mark, neighbours and grid place."""

    code: str
    name: str
    terrain: Terrain
    border: bool
    neighbours: tuple[str, ...]
    row: int
    col: int


#: Mordred's castle on Anglesey: Mordred's own figure stands here all game.
CASTLE_AREA = "CAS"

_F, _M = Terrain.FOREST, Terrain.MOUNTAINS

#: (code, name, terrain, black-bordered, row, column, neighbours). Rows run
#: north to south, columns west to east; England lies east of column 4.
_MAP: tuple[tuple[str, str, Terrain, bool, int, int, tuple[str, ...]], ...] = (
    ("HOL", "Holyhead", _F, False, 0, 0, ("CAS", "LLN")),
    ("CAS", "Mordred's castle", Terrain.CASTLE, False, 0, 1, ("HOL", "BEA", "SNO")),
    ("BEA", "Beaumaris", _F, False, 0, 2, ("CAS", "CON")),
    ("LLN", "Llyn", _M, False, 1, 0, ("HOL", "SNO", "HAR")),
    ("SNO", "Snowdon", _M, False, 1, 1, ("CAS", "LLN", "CON", "HAR")),
    ("CON", "Conwy", _F, False, 1, 2, ("BEA", "SNO", "DEN", "BAL")),
    ("DEN", "Denbigh", _F, False, 1, 3, ("CON", "FLI", "LGN")),
    ("FLI", "Flint", _F, True, 1, 4, ("DEN", "WRX")),
    ("HAR", "Harlech", _M, False, 2, 1, ("LLN", "SNO", "BAL", "DOL")),
    ("BAL", "Bala", _M, False, 2, 2, ("CON", "HAR", "LGN", "MAC")),
    ("LGN", "Llangollen", _M, False, 2, 3, ("DEN", "BAL", "WRX", "NEW")),
    ("WRX", "Wrexham", _F, True, 2, 4, ("FLI", "LGN", "WEL")),
    ("DOL", "Dolgellau", _M, False, 3, 1, ("HAR", "MAC", "ABY")),
    ("MAC", "Machynlleth", _M, False, 3, 2, ("BAL", "DOL", "NEW", "RHA")),
    ("NEW", "Newtown", _F, False, 3, 3, ("LGN", "MAC", "WEL", "LLD")),
    ("WEL", "Welshpool", _F, True, 3, 4, ("WRX", "NEW", "KNI")),
    ("ABY", "Aberystwyth", _F, False, 4, 1, ("DOL", "RHA", "CDG", "LAM")),
    ("RHA", "Rhayader", _M, False, 4, 2, ("MAC", "ABY", "LLD", "LDV")),
    ("LLD", "Llandrindod", _F, False, 4, 3, ("NEW", "RHA", "KNI", "BRE")),
    ("KNI", "Knighton", _M, True, 4, 4, ("WEL", "LLD", "HAY")),
    ("CDG", "Cardigan", _F, False, 5, 0, ("ABY", "LAM", "PEM")),
    ("LAM", "Lampeter", _F, False, 5, 1, ("ABY", "CDG", "LDV", "CMN")),
    ("LDV", "Llandovery", _M, False, 5, 2, ("RHA", "LAM", "BRE", "SWA")),
    ("BRE", "Brecon", _M, False, 5, 3, ("LLD", "LDV", "HAY", "MER")),
    ("HAY", "Hay", _F, True, 5, 4, ("KNI", "BRE", "ABG")),
    ("PEM", "Pembroke", _F, False, 6, 0, ("CDG", "CMN")),
    ("CMN", "Carmarthen", _F, False, 6, 1, ("LAM", "PEM", "SWA")),
    ("SWA", "Swansea", _F, False, 6, 2, ("LDV", "CMN", "MER", "GOW")),
    ("MER", "Merthyr", _M, False, 6, 3, ("BRE", "SWA", "ABG", "CDF")),
    ("ABG", "Abergavenny", _M, True, 6, 4, ("HAY", "MER", "CHE")),
    ("GOW", "Gower", _F, False, 7, 2, ("SWA", "CDF")),
    ("CDF", "Cardiff", _F, False, 7, 3, ("MER", "GOW", "CHE")),
    ("CHE", "Chepstow", _F, True, 7, 4, ("ABG", "CDF")),
)

#: Every area by code, in map order (north to south, west to east).
AREAS: Mapping[str, Area] = {
    code: Area(code, name, terrain, border, neighbours, row, col)
    for code, name, terrain, border, row, col, neighbours in _MAP
}
#: Area codes in map order; a state keeps per-area facts in tuples in this order.
AREA_CODES: tuple[str, ...] = tuple(AREAS)
#: The index of each area code in :data:`AREA_CODES`.
AREA_INDEX: Mapping[str, int] = {code: i for i, code in enumerate(AREA_CODES)}
#: The areas players may build on and warriors may stand on (all but the castle).
LAND: tuple[str, ...] = tuple(code for code in AREA_CODES if code != CASTLE_AREA)
#: The black-bordered areas on the border with England.
BORDER: frozenset[str] = frozenset(code for code, area in AREAS.items() if area.border)

#: Neighbours that are not side by side on the grid (the text map draws them with ``/`` and ``\\``):
#: each pair once, north first. Every other pair of neighbours shares a side of the grid.
DIAGONALS: tuple[tuple[str, str], ...] = tuple(
    (a, b)
    for a in AREA_CODES
    for b in AREAS[a].neighbours
    if (AREAS[a].row, AREAS[a].col) < (AREAS[b].row, AREAS[b].col)
    and abs(AREAS[a].row - AREAS[b].row) + abs(AREAS[a].col - AREAS[b].col) > 1
)

# The same map by index into AREA_CODES, for the rule code that walks it many times a turn.

#: The index of Mordred's castle.
CASTLE_INDEX: int = AREA_INDEX[CASTLE_AREA]
#: The indices of the land areas, in map order.
LAND_INDICES: tuple[int, ...] = tuple(AREA_INDEX[code] for code in LAND)
#: The indices of the black-bordered areas.
BORDER_INDICES: frozenset[int] = frozenset(AREA_INDEX[code] for code in BORDER)
#: ``NEIGHBOURS[i]``: the indices of the areas next to area ``i``.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(AREA_INDEX[n] for n in AREAS[code].neighbours) for code in AREA_CODES
)


# -- the road ----------------------------------------------------------------------------

#: Markers start on the dragon space, numbered 0. Spaces run from
#: ``-ROAD_BACK`` (behind the dragon) to ``ROAD_FORWARD`` (the end of the road);
#: a marker that cannot move the full number of spaces ends the game.
ROAD_FORWARD = 12
ROAD_BACK = 3


# -- the Money table ----------------------------------------------------------------------


@attrs.frozen
class Cell:
    """One cell of the Money table: it pays ``amount`` pounds; a black cell also brings that many warriors.

    The seed (*Ход 2*): the cell shows how much money to take from the bank;
    a black cell means taking as many ("столько же") of Mordred's warriors
    as well, and moving the marker as many spaces along Mordred's road.

    >>> Cell(3, black=True).money, Cell(3, black=True).warriors, Cell(3).warriors
    (3, 3, 0)
    """

    amount: int
    black: bool = False

    @property
    def money(self) -> int:
        """The pounds the cell pays (every cell pays its amount)."""
        return self.amount

    @property
    def warriors(self) -> int:
        """The warriors the cell brings (and road spaces it costs): its amount if black, else none."""
        return self.amount if self.black else 0


def _w(n: int) -> Cell:
    return Cell(n, black=True)


#: ``MONEY[row][face - 1]``: each die is read separately against the declared
#: row. Row C has three black faces of six, as the public facts require.
MONEY: Mapping[Row, tuple[Cell, ...]] = {
    Row.A: (Cell(1), Cell(2), Cell(2), Cell(3), Cell(3), _w(2)),
    Row.B: (Cell(3), Cell(4), Cell(5), Cell(7), _w(1), _w(2)),
    Row.C: (Cell(6), Cell(7), Cell(8), _w(1), _w(1), _w(2)),
}


def money_cell(row: Row, face: int) -> Cell:
    """Return the Money-table cell a die showing ``face`` gives on ``row``."""
    return MONEY[row][face - 1]


# -- the Building table --------------------------------------------------------------------


@attrs.frozen
class BuildingSpec:
    """A building type: its price in forest and in mountains (None: not allowed), points, pieces."""

    forest: int
    mountains: int | None
    points: int
    pieces: int


#: Cost by terrain, victory points, and how many pieces of the type each player has.
BUILDINGS: Mapping[Kind, BuildingSpec] = {
    Kind.VILLAGE: BuildingSpec(forest=3, mountains=4, points=1, pieces=7),
    Kind.TOWN: BuildingSpec(forest=6, mountains=None, points=3, pieces=4),
    Kind.CASTLE: BuildingSpec(forest=10, mountains=8, points=5, pieces=4),
}
#: The extra pound paid for building away from your own buildings (not on the border).
SURCHARGE = 1
#: The building types in table order (per-type tuples below follow it).
KINDS: tuple[Kind, ...] = tuple(Kind)
#: The place of each type in :data:`KINDS`.
KIND_INDEX: Mapping[Kind, int] = {kind: k for k, kind in enumerate(KINDS)}


def build_price(kind: Kind, terrain: Terrain) -> int | None:
    """Return the table price of ``kind`` on ``terrain`` (None where it may not stand)."""
    spec = BUILDINGS[kind]
    if terrain is Terrain.FOREST:
        return spec.forest
    if terrain is Terrain.MOUNTAINS:
        return spec.mountains
    return None


#: ``PRICES[i]``: the table price of each type of :data:`KINDS` on area ``i`` (None: it may not stand there).
PRICES: tuple[tuple[int | None, ...], ...] = tuple(
    tuple(build_price(kind, AREAS[code].terrain) for kind in KINDS) for code in AREA_CODES
)
#: The cheapest building anywhere: with less money nothing can be built.
CHEAPEST: int = min(p for prices in PRICES for p in prices if p is not None)


# -- the Combat table -----------------------------------------------------------------------

#: A warrior placed on a building takes it on this roll or more, by building and terrain.
SIEGE: Mapping[tuple[Kind, Terrain], int] = {
    (Kind.VILLAGE, Terrain.FOREST): 2,
    (Kind.VILLAGE, Terrain.MOUNTAINS): 3,
    (Kind.TOWN, Terrain.FOREST): 3,
    (Kind.CASTLE, Terrain.FOREST): 4,
    (Kind.CASTLE, Terrain.MOUNTAINS): 5,
}
#: A player's attack beats a warrior on this roll or more, by the attacking building.
ATTACK: Mapping[Kind, int] = {Kind.VILLAGE: 5, Kind.TOWN: 4, Kind.CASTLE: 3}
#: An attack on Mordred in his castle succeeds only on this roll.
ASSAULT = 6
#: What an attack (on a warrior or on the castle) costs, paid before the roll.
ATTACK_COST = 2


# -- pieces -----------------------------------------------------------------------------------

#: Mordred's warriors in the box (all of them on the map ends the game).
WARRIORS = 18
# The bank has no count: it never runs out (see the rules page, "Components").
