"""The tunnel board: the cards on the table, what fits where, and what the start reaches.

The :class:`Board` is public: the path cards laid (:class:`Cell`) and the
three goal cards as the table sees them (:class:`GoalCard`; a goal's kind
shows only once it is turned over). What the start reaches is the board's
:class:`Network`:

* *segments*: one per group of joined edges on a face-up card; a segment is
  reached when a tunnel joins it to the start. Ladder cards and the start
  (which shows a ladder) are joined to each other (Deluxe). Dead-end stubs are
  open edges in no segment: they must fit, but nothing passes through them.
* *holes*: the empty squares next to a face-up card, each with what it asks
  of a card laid there (:class:`Hole`): the edges that must be open, those
  that must be walls, and the edges through which a reached tunnel enters.

The network is derived from the cards and never written to a log. A board
works it out when first asked; a board made by :meth:`Board.lay` or
:meth:`Board.turn_goal` from a board that already knows its network extends
that network from the new card instead of walking the whole tunnel again,
and one made by :meth:`Board.remove` (a rockfall) asks again only the holes
around the card taken away before it walks from the start.

>>> board = Board.new()
>>> sorted(board.network.holes)[:2]
[(-1, 0), (0, -1)]
>>> board.lay(Cell(1, 0, 0)).network.holes[(2, 0)]  # a crossroads east of the start; W = 8
Hole(open=8, wall=0, ports=8)
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import cast

import attrs

from meeple.engine.copies import builder
from meeple.engine.memo import Ring

from .data import (
    DIRECTIONS,
    GOAL_EDGES,
    GOAL_POSITIONS,
    KINDS,
    START_EDGES,
    START_POSITION,
    Category,
    Door,
    GoalKind,
    turn180,
)

Pos = tuple[int, int]

__all__ = [
    "NEAR_GOALS",
    "Board",
    "Cell",
    "GoalCard",
    "Hole",
    "Network",
    "Tile",
    "coal_rotation",
    "fitting",
    "goal_tile",
    "orientations",
    "route_free_of",
    "shape",
    "symmetric",
]


@attrs.frozen
class Cell:
    """A path card on the board at (``col``, ``row``), turned 180 degrees if ``rotated``."""

    col: int
    row: int
    kind: int
    rotated: bool = False


@attrs.frozen
class GoalCard:
    """A goal card as the table sees it: ``kind`` is None while it lies face down."""

    col: int
    row: int
    kind: GoalKind | None = None
    rotated: bool = False


@attrs.frozen
class Tile:
    """A card lying face up, as the network sees it: open edges and the groups joined through it."""

    edges: int
    groups: tuple[int, ...]
    ladder: bool = False
    door: Door | None = None
    crystals: int = 0
    #: The group each open edge belongs to, by edge (derived from ``groups``; a dead-end stub is in none).
    group_at: dict[int, int] = attrs.field(init=False, eq=False, repr=False)

    @group_at.default
    def _group_at(self) -> dict[int, int]:
        return {edge: j for j, group in enumerate(self.groups) for edge, _, _, _ in DIRECTIONS if group & edge}


START_TILE = Tile(START_EDGES, (START_EDGES,), ladder=True)


def _shape(kind: int, rotated: bool) -> Tile:
    k = KINDS[kind]
    if not rotated:
        return Tile(k.edges, k.groups, k.ladder, k.door, k.crystals)
    return Tile(turn180(k.edges), tuple(turn180(g) for g in k.groups), k.ladder, k.door, k.crystals)


_SHAPES: dict[tuple[int, bool], Tile] = {(i, r): _shape(i, r) for i in range(len(KINDS)) for r in (False, True)}


def shape(kind: int, rotated: bool = False) -> Tile:
    """Return the tile of a path card kind, turned 180 degrees if ``rotated``."""
    return _SHAPES[(kind, rotated)]


def symmetric(kind: int) -> bool:
    """True if a path card looks the same turned by 180 degrees, so it has one orientation.

    The tunnels are compared as a set: a double curve (west-north and
    east-south) turned is east-south and west-north, the same card.

    >>> from .data import kind_id
    >>> symmetric(kind_id("double-curve")), symmetric(kind_id("curve-a"))
    (True, False)
    """
    plain, turned = _SHAPES[(kind, False)], _SHAPES[(kind, True)]
    return plain.edges == turned.edges and sorted(plain.groups) == sorted(turned.groups)


#: Every path card kind's distinct orientations: ``(rotated, tile)``, unturned first.
_ORIENTATIONS: dict[int, tuple[tuple[bool, Tile], ...]] = {
    i: ((False, _SHAPES[(i, False)]),) if symmetric(i) else ((False, _SHAPES[(i, False)]), (True, _SHAPES[(i, True)]))
    for i, k in enumerate(KINDS)
    if k.category is Category.PATH
}


def orientations(kind: int) -> tuple[tuple[bool, Tile], ...]:
    """The distinct ways path card ``kind`` can lie: ``(rotated, tile)``, one for a symmetric card."""
    return _ORIENTATIONS[kind]


def goal_tile(kind: GoalKind, rotated: bool) -> Tile:
    """Return the tile of a turned-over goal card (all its edges are joined)."""
    edges = GOAL_EDGES[kind]
    if rotated:
        edges = turn180(edges)
    return Tile(edges, (edges,))


def coal_rotation(kind: GoalKind, arrivals: int) -> bool:
    """Turn a coal goal to fit the edges ``arrivals`` it is reached through (facts section 7).

    The orientation that opens the most of those edges wins; on a tie, unturned.
    """
    plain = bin(GOAL_EDGES[kind] & arrivals).count("1")
    turned = bin(turn180(GOAL_EDGES[kind]) & arrivals).count("1")
    return turned > plain


def _neighbours(pos: Pos) -> tuple[Pos, ...]:
    col, row = pos
    return tuple((col + dc, row + dr) for _, dc, dr, _ in DIRECTIONS)


#: Squares next to a goal card (face down or turned), where a ladder may not lie (R2, F§11).
NEAR_GOALS: frozenset[Pos] = frozenset(q for g in GOAL_POSITIONS for q in _neighbours(g)) - frozenset(GOAL_POSITIONS)


class Hole(int):
    """An empty square next to a face-up card, and what it asks of a card laid there.

    ``open``: edges facing an open edge of a neighbour (the card must open
    them); ``wall``: edges facing a neighbour's wall (the card must close them);
    ``ports``: edges through which a tunnel the start reaches comes in. The
    three edge masks are packed in one small int (``open | wall << 4 | ports
    << 8``), so a hole is its own key in the table of cards that fit it.

    >>> Hole.of(open=8, ports=8)
    Hole(open=8, wall=0, ports=8)
    """

    __slots__ = ()

    @classmethod
    def of(cls, open: int = 0, wall: int = 0, ports: int = 0) -> Hole:
        """The hole asking these edges open, these closed, with a tunnel coming in through ``ports``."""
        return cls(open | wall << 4 | ports << 8)

    @property
    def open(self) -> int:
        """Edges that must be open."""
        return self & 15

    @property
    def wall(self) -> int:
        """Edges that must be walls."""
        return self >> 4 & 15

    @property
    def ports(self) -> int:
        """Edges a reached tunnel comes in through."""
        return self >> 8

    def fits(self, edges: int) -> bool:
        """True if a card with open ``edges`` matches every face-up neighbour (open to open, wall to wall)."""
        need = self & 15
        return edges & need == need and not edges & (self >> 4 & 15)

    def __repr__(self) -> str:
        return f"Hole(open={self.open}, wall={self.wall}, ports={self.ports})"


#: Every hole, by its value (three 4-bit masks): a hole laid or walked to is looked up here, not built.
_HOLES: tuple[Hole, ...] = tuple(Hole(v) for v in range(1 << 12))
_EMPTY = _HOLES[0]
#: The squares around each square met: ``(square, the edge facing it, the edge facing back)``, by direction.
_AROUND: dict[Pos, tuple[tuple[Pos, int, int], ...]] = {}


def _around(pos: Pos) -> tuple[tuple[Pos, int, int], ...]:
    """The squares around ``pos``, as :data:`_AROUND` keeps them (worked out the first time ``pos`` is met)."""
    found = _AROUND.get(pos)
    if found is None:
        col, row = pos
        found = _AROUND[pos] = tuple(((col + dc, row + dr), edge, opp) for edge, dc, dr, opp in DIRECTIONS)
    return found


_FITTING: dict[int, dict[int, tuple[bool, ...]]] = {}


def fitting(hole: Hole) -> dict[int, tuple[bool, ...]]:
    """Every path card kind that may lie in ``hole``, with the rotations that fit (a table, by hole).

    A card fits when it matches every face-up neighbour; it must also open
    onto a tunnel the start reaches (``ports``), except a ladder, which is
    joined to the start anyway (the caller keeps ladders away from goals).

    >>> from .data import kind_id
    >>> fitting(Hole.of(open=8, ports=8))[kind_id("curve-b")]  # a hole entered from the west
    (False,)
    """
    found = _FITTING.get(hole)
    if found is None:
        found = {}
        need, wall, ports = hole & 15, hole >> 4 & 15, hole >> 8  # Hole.fits and Hole.ports, inline
        for kind, ladder, shapes in _EDGES_BY_KIND:  # a new hole is met often in a match's first rounds
            rots = tuple(r for r, edges in shapes
                         if edges & need == need and not edges & wall and (ladder or edges & ports))
            if rots:
                found[kind] = rots
        _FITTING[int(hole)] = found
    return found


#: Every path card kind, whether it is a ladder, and the open edges of each of its orientations.
_EDGES_BY_KIND: tuple[tuple[int, bool, tuple[tuple[bool, int], ...]], ...] = tuple(
    (kind, KINDS[kind].ladder, tuple((r, tile.edges) for r, tile in turns)) for kind, turns in _ORIENTATIONS.items()
)


class Network:
    """What the start reaches on one board: tiles, reached segments, holes, goals reached.

    ``tiles`` maps each face-up card's position to its :class:`Tile` (the
    start, path cards, turned goals); ``goals`` each face-down goal's
    position to its index; ``reached`` holds the ``(position, group)``
    segments joined to the start; ``holes`` every empty square next to a
    face-up card; ``arrivals`` the face-down goals a reached tunnel points
    into, with the goal's edges it enters through (a goal is turned as soon
    as it is reached, so this is empty between turns).

    Derived data: mutable only while it is being built, never changed after
    (``memo`` and the cached lists only grow, with values worked out from it).
    """

    __slots__ = ("_frontier", "_holes", "arrivals", "goals", "holes", "memo", "reached", "tiles")

    def __init__(self, tiles: dict[Pos, Tile], goals: dict[Pos, int], reached: set[tuple[Pos, int]],
                 holes: dict[Pos, Hole], arrivals: dict[int, int]) -> None:
        self.tiles = tiles
        self.goals = goals
        self.reached = reached
        self.holes = holes
        self.arrivals = arrivals
        self._frontier: tuple[tuple[Pos, Hole], ...] | None = None
        self._holes: tuple[tuple[Pos, Hole], ...] | None = None
        #: what functions work out from this network, by the function, then its other arguments
        #: (:func:`meeple.engine.memo.derived`): the rules' legal commands, the bots' distances
        self.memo: dict[object, object] = {}

    @classmethod
    def of(cls, board: Board) -> Network:
        """Work out the network of ``board`` from scratch: every card face up, then one walk from the start.

        The same network as laying the cards one by one from the start (what
        :meth:`laid` does), in one pass: a rockfall and a board rebuilt by a
        bot need it whole.
        """
        goals = {(g.col, g.row): i for i, g in enumerate(board.goals) if g.kind is None}
        tiles = {START_POSITION: START_TILE}
        for g in board.goals:
            if g.kind is not None:
                tiles[(g.col, g.row)] = goal_tile(g.kind, g.rotated)
        for c in board.cells:
            tiles[(c.col, c.row)] = shape(c.kind, c.rotated)
        holes: dict[Pos, Hole] = {}
        for (col, row), tile in tiles.items():  # each card's edges ask things of its empty neighbours
            for edge, dc, dr, opp in DIRECTIONS:
                q = (col + dc, row + dr)
                if q not in tiles and q not in goals:
                    holes[q] = _HOLES[holes.get(q, 0) | (opp if tile.edges & edge else opp << 4)]
        net = cls(tiles, goals, set(), holes, {})
        # the start, and every ladder (joined to the start: the start shows one), whole
        net._walk([(pos, gi) for pos, tile in tiles.items() if tile.ladder for gi in range(len(tile.groups))])
        return net

    def _copy(self) -> Network:
        # the goals and the arrivals rarely change: shared, and copied where they do (_place, turned)
        return Network(dict(self.tiles), self.goals, set(self.reached), dict(self.holes), self.arrivals)

    def laid(self, pos: Pos, tile: Tile) -> Network:
        """The network after ``tile`` is laid on the empty square ``pos``."""
        net = self._copy()
        net._place(pos, tile)
        return net

    def turned(self, pos: Pos, tile: Tile) -> Network:
        """The network after the face-down goal at ``pos`` turns over as ``tile``."""
        net = self._copy()
        net.goals, net.arrivals = dict(net.goals), dict(net.arrivals)
        index = net.goals.pop(pos)
        net._place(pos, tile, entry=net.arrivals.pop(index, 0))
        return net

    def removed(self, pos: Pos) -> Network:
        """The network after the path card at ``pos`` is taken away (a rockfall).

        What :meth:`of` works out for the board without the card, without
        laying every card again: the other cards stay as they are, the holes
        around ``pos`` are asked again of their neighbours, and the start and
        the ladders are walked from again (the tunnel may now reach less).
        """
        tiles, goals = dict(self.tiles), self.goals
        del tiles[pos]
        # h.open and h.wall: which tunnels come in is walked again (a hole no tunnel came into stays as it is)
        holes = {q: h if h < 256 else _HOLES[h & 255] for q, h in self.holes.items()}
        col, row = pos
        for q in (pos, *((col + dc, row + dr) for _, dc, dr, _ in DIRECTIONS)):
            if q in tiles or q in goals:
                continue
            asks, touched = 0, False
            for edge, dc, dr, opp in DIRECTIONS:  # what each face-up neighbour's edge facing q asks of it
                other = tiles.get((q[0] + dc, q[1] + dr))
                if other is not None:
                    touched = True
                    asks |= edge if other.edges & opp else edge << 4
            if touched:
                holes[q] = _HOLES[asks]
            else:
                holes.pop(q, None)  # no face-up card next to it any more
        net = Network(tiles, goals, set(), holes, {})
        net._walk([(p, gi) for p, tile in tiles.items() if tile.ladder for gi in range(len(tile.groups))])
        return net

    def _place(self, pos: Pos, tile: Tile, entry: int | None = None) -> None:
        """Put ``tile`` at ``pos`` and walk on from it, changing this (new) network in place.

        ``entry``: the edges through which a reached tunnel comes in (by
        default, the hole's ports); a ladder is always joined to the start.
        """
        tiles, holes, goals = self.tiles, self.holes, self.goals
        hole = holes.pop(pos, _EMPTY)
        if entry is None:
            entry = hole >> 8  # hole.ports, inline
        tiles[pos] = tile
        edges = tile.edges
        for q, edge, opp in _AROUND.get(pos) or _around(pos):  # the new card's edges ask things of its empty neighbours
            if q in tiles or q in goals:
                continue
            holes[q] = _HOLES[holes.get(q, 0) | (opp if edges & edge else opp << 4)]
        self._walk([(pos, gi) for gi, group in enumerate(tile.groups) if tile.ladder or group & entry])

    def _walk(self, stack: list[tuple[Pos, int]]) -> None:
        """Reach the segments on ``stack`` and every segment joined to them, marking the holes and goals they open into."""
        tiles, holes, goals = self.tiles, self.holes, self.goals
        reached = self.reached
        while stack:
            node = stack.pop()
            if node in reached:
                continue
            reached.add(node)
            pos, gi = node
            group = tiles[pos].groups[gi]
            for q, edge, opp in _AROUND.get(pos) or _around(pos):
                if not group & edge:
                    continue
                other = tiles.get(q)
                if other is not None:
                    j = other.group_at.get(opp)  # the segment of the neighbour behind this edge
                    if j is not None and (q, j) not in reached:
                        stack.append((q, j))
                elif q in goals:
                    index = goals[q]
                    self.arrivals = {**self.arrivals, index: self.arrivals.get(index, 0) | opp}
                else:
                    holes[q] = _HOLES[holes[q] | opp << 8]

    def frontier(self) -> tuple[tuple[Pos, Hole], ...]:
        """The holes a reached tunnel comes into (where a tunnel can grow), sorted by position."""
        if self._frontier is None:
            found = [(p, h) for p, h in self.holes.items() if h >> 8]  # h.ports, inline; a list sorts in place
            found.sort()
            self._frontier = tuple(found)
        return self._frontier

    def sorted_holes(self) -> tuple[tuple[Pos, Hole], ...]:
        """Every hole, sorted by position (where a ladder may go, if not next to a goal)."""
        if self._holes is None:
            self._holes = tuple(sorted(self.holes.items()))
        return self._holes

    def ports(self) -> frozenset[tuple[Pos, int]]:
        """Every open edge of a reached segment, as ``(position, edge)``."""
        tiles = self.tiles
        return frozenset(
            (pos, edge) for pos, gi in self.reached for edge, _, _, _ in DIRECTIONS if tiles[pos].groups[gi] & edge
        )


@attrs.frozen
class Board:
    """The cards face up on the table and the goal cards, as every player sees them."""

    cells: tuple[Cell, ...] = ()
    goals: tuple[GoalCard, ...] = ()

    @classmethod
    def new(cls) -> Board:
        """The board of a new round: the start and three face-down goals (S0, F§7)."""
        board = cls((), _NEW_GOALS)
        if cls is Board:  # every round's network starts as this one: a copy, not a walk
            _keep_network(board, _NEW_NETWORK._copy())
        return board

    @functools.cached_property
    def network(self) -> Network:
        """What the start reaches (worked out once per board)."""
        return Network.of(self)

    @functools.cached_property
    def _laid(self) -> dict[tuple[int, ...], weakref.ref[Board]]:
        """The boards made from this one by :meth:`lay` and :meth:`remove` (one board, one network, for one change).

        Keyed by plain ints (a cell's four values, a removed card's square), which hash and compare
        quicker than a :class:`Cell`. The values are weak: a board does not keep its children alive
        (see :data:`_RECENT`), so a match's kept states do not hold every board ever laid from them.
        """
        return {}

    def lay(self, cell: Cell) -> Board:
        """The board with ``cell`` laid on its empty square (the same board each time for the same card, while it lives)."""
        laid = self._laid
        key = (cell.col, cell.row, cell.kind, cell.rotated)
        ref = laid.get(key)
        board = None if ref is None else ref()
        if board is None:
            board = _remember(laid, key, _board((*self.cells, cell), self.goals))
            known = _known_network(self)
            if known is not None:
                _keep_network(board, known.laid((cell.col, cell.row), shape(cell.kind, cell.rotated)))
        return board

    def turn_goal(self, index: int, kind: GoalKind, rotated: bool) -> Board:
        """The board with face-down goal ``index`` turned over as ``kind``."""
        g = self.goals[index]
        goals = (*self.goals[:index], GoalCard(g.col, g.row, kind, rotated), *self.goals[index + 1 :])
        board = _board(self.cells, goals)
        known = _known_network(self)
        if known is not None:
            _keep_network(board, known.turned((g.col, g.row), goal_tile(kind, rotated)))
        return board

    def remove(self, col: int, row: int) -> Board:
        """The board without the path card at (``col``, ``row``); its network is walked again.

        The same board each time for the same square while it lives, as with :meth:`lay`.
        """
        laid = self._laid
        key = (col, row)
        ref = laid.get(key)
        board = None if ref is None else ref()
        if board is None:
            board = _remember(laid, key, _board(tuple(c for c in self.cells if (c.col, c.row) != key), self.goals))
            known = _known_network(self)
            if known is not None:
                _keep_network(board, known.removed(key))
        return board

    def cell_at(self, col: int, row: int) -> Cell | None:
        """The path card at (``col``, ``row``), if any."""
        return next((c for c in self.cells if c.col == col and c.row == row), None)

    def crystals(self) -> int:
        """Crystals visible on the board (Deluxe geologists' pay)."""
        return sum(KINDS[c.kind].crystals for c in self.cells)


#: The goal cards of a new round, face down.
_NEW_GOALS: tuple[GoalCard, ...] = tuple(GoalCard(c, r) for c, r in GOAL_POSITIONS)
#: The network of a new round's board, which every round's board copies (worked out once, never changed).
_NEW_NETWORK: Network = Network.of(Board((), _NEW_GOALS))

#: How many of the boards made last by :meth:`Board.lay` and :meth:`Board.remove` are kept alive
#: (measured: a search's decisions ran quickest at a few hundred; thousands keep more for the cycle
#: collector to walk than they save).
KEEP_LAID = 256
#: The boards made last by :meth:`Board.lay` and :meth:`Board.remove`, oldest first: what keeps a
#: search's boards (and the networks, legal commands and distances they carry) shared between its
#: playouts, without keeping every board a round ever laid, as strong children would (each kept
#: state of a match would hold them all, and the cycle collector would walk them all).
_RECENT: Ring[Board] = Ring("saboteur: boards laid", KEEP_LAID)


def _remember(laid: dict[tuple[int, ...], weakref.ref[Board]], key: tuple[int, ...], board: Board) -> Board:
    """Note ``board`` as its parent's child ``key`` (weakly) and keep it among the recent boards; hand it back."""
    laid[key] = weakref.ref(board)
    _RECENT.append(board)
    return board


#: A board from its cells and goals, built as ``Board(cells, goals)`` builds it, quicker (a new board per card laid).
_board: Callable[[tuple[Cell, ...], tuple[GoalCard, ...]], Board] = builder(Board)


def _network_slot() -> Callable[[Board, type[Board]], Network] | None:
    """The reader of the slot attrs keeps ``Board.network`` in, or None where the network is kept elsewhere."""
    slot = Board.__dict__.get("network")
    getter = getattr(slot, "__get__", None)
    if getter is None or isinstance(slot, functools.cached_property):
        return None  # a class that keeps the network elsewhere: let it be worked out on demand
    return cast(Callable[[Board, type[Board]], Network], getter)


#: Read once: the class's slot does not change (looking it up cost more than reading it, on every card laid).
_NETWORK_SLOT = _network_slot()


def _known_network(board: Board) -> Network | None:
    """``board.network`` if it is already worked out, else None (nothing is computed)."""
    if _NETWORK_SLOT is None:
        return None
    try:
        return _NETWORK_SLOT(board, Board)
    except AttributeError:
        return None


def _keep_network(board: Board, net: Network) -> None:
    """Remember ``net`` as the (derived) network of a board just made."""
    try:  # noqa: SIM105 - a try costs less than contextlib.suppress on this hot path
        object.__setattr__(board, "network", net)
    except AttributeError:  # no slot to keep it in: the board works it out when asked
        pass


def route_free_of(board: Board, target: Pos, door: Door) -> bool:
    """True if some route from the start into the card at ``target`` passes no ``door`` of that colour.

    Doors do not change how cards fit or join (F§15.14); they decide the
    Deluxe winners only, so this walk is made once, when the gold is reached.
    """
    tiles = board.network.tiles
    seen: set[tuple[Pos, int]] = set()
    stack: list[tuple[Pos, int]] = [(START_POSITION, 0)]
    ladders_done = False
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        pos, gi = node
        if pos == target:
            return True
        tile = tiles[pos]
        if tile.ladder and not ladders_done:
            ladders_done = True
            for p, t in tiles.items():
                if t.ladder and t.door is not door:
                    stack.extend((p, j) for j in range(len(t.groups)))
        col, row = pos
        for edge, dc, dr, opp in DIRECTIONS:
            if not tile.groups[gi] & edge:
                continue
            other = tiles.get((col + dc, row + dr))
            if other is None or other.door is door:
                continue
            for j, g in enumerate(other.groups):
                if g & opp:
                    stack.append(((col + dc, row + dr), j))
                    break
    return False
