"""The tunnel board: which card lies where, what fits, and what the start reaches.

A :class:`Board` is built from a state's cells and goals. Its network is a
graph of *tunnel segments* (one per group of joined edges on a card); two
segments touch when their cards are neighbours and both facing edges are
open and joined. Ladder cards and the start (which shows a ladder) are also
joined to each other (Deluxe). Dead-end stubs are open edges in no segment:
they must fit, but nothing passes through them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import attrs

from .data import (
    DIRECTIONS,
    GOAL_EDGES,
    KINDS,
    START_EDGES,
    START_POSITION,
    Door,
    GoalKind,
    turn180,
)
from .state import Cell, Goal

Pos = tuple[int, int]


@attrs.frozen
class Tile:
    """A card lying face up, as the network sees it."""

    edges: int
    groups: tuple[int, ...]
    ladder: bool = False
    door: Door | None = None
    crystals: int = 0
    removable: bool = True


START_TILE = Tile(START_EDGES, (START_EDGES,), ladder=True, removable=False)


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
    """True if a path card looks the same turned by 180 degrees (play it unturned)."""
    return _SHAPES[(kind, False)] == _SHAPES[(kind, True)]


def goal_tile(kind: GoalKind, rotated: bool) -> Tile:
    """Return the tile of a turned-over goal card."""
    edges = GOAL_EDGES[kind]
    if rotated:
        edges = turn180(edges)
    return Tile(edges, (edges,), removable=False)


def coal_rotation(kind: GoalKind, arrivals: int) -> bool:
    """Turn a coal goal to fit the edges ``arrivals`` it is reached through (facts section 7).

    The orientation that opens the most of those edges wins; on a tie, unturned.
    """
    plain = bin(GOAL_EDGES[kind] & arrivals).count("1")
    turned = bin(turn180(GOAL_EDGES[kind]) & arrivals).count("1")
    return turned > plain


class Board:
    """The face-up cards of a state (start, path cards, turned goals) and their network."""

    __slots__ = ("_frontier", "_net", "hidden_goals", "tiles")

    def __init__(self, cells: Iterable[Cell], goals: Iterable[Goal]) -> None:
        tiles: dict[Pos, Tile] = {START_POSITION: START_TILE}
        hidden: dict[Pos, int] = {}
        for i, g in enumerate(goals):
            if g.revealed:
                tiles[(g.col, g.row)] = goal_tile(g.kind, g.rotated)
            else:
                hidden[(g.col, g.row)] = i
        for c in cells:
            tiles[(c.col, c.row)] = shape(c.kind, c.rotated)
        self.tiles = tiles
        self.hidden_goals = hidden
        self._net: Network | None = None
        self._frontier: tuple[Pos, ...] | None = None

    @property
    def network(self) -> Network:
        """The tunnel network reachable from the start (computed once)."""
        if self._net is None:
            self._net = reach(self.tiles, self.hidden_goals)
        return self._net

    def occupied(self, pos: Pos) -> bool:
        """True if a card (face up or a face-down goal) lies at ``pos``."""
        return pos in self.tiles or pos in self.hidden_goals

    def fits(self, pos: Pos, tile: Tile) -> bool:
        """True if ``tile`` at ``pos`` matches every face-up neighbour (open to open, wall to wall).

        Face-down goals do not constrain (facts section 15, gap 2).
        """
        col, row = pos
        tiles = self.tiles
        for edge, dc, dr, opp in DIRECTIONS:
            other = tiles.get((col + dc, row + dr))
            if other is not None and bool(tile.edges & edge) != bool(other.edges & opp):
                return False
        return True

    def joins_network(self, pos: Pos, tile: Tile) -> bool:
        """True if an open edge of ``tile`` at ``pos`` meets an open edge the start reaches."""
        col, row = pos
        ports = self.network.ports
        return any(tile.edges & edge and ((col + dc, row + dr), opp) in ports for edge, dc, dr, opp in DIRECTIONS)

    def touches_card(self, pos: Pos) -> bool:
        """True if a face-up card (the start, a path card, a turned goal) is a neighbour of ``pos``."""
        return any(p in self.tiles for p in neighbours(pos))

    def next_to_goal(self, pos: Pos, goal_positions: Iterable[Pos]) -> bool:
        """True if ``pos`` is a neighbour of any goal card, face down or turned."""
        col, row = pos
        near = {(col + dc, row + dr) for _, dc, dr, _ in DIRECTIONS}
        return any(g in near for g in goal_positions)

    def frontier(self) -> tuple[Pos, ...]:
        """Empty cells an open, reachable edge points at (where a tunnel can grow), sorted; computed once."""
        if self._frontier is None:
            out = set()
            for (col, row), edge in self.network.ports:
                for e, dc, dr, _ in DIRECTIONS:
                    if e == edge:
                        p = (col + dc, row + dr)
                        if not self.occupied(p):
                            out.add(p)
            self._frontier = tuple(sorted(out))
        return self._frontier

    def empty_neighbours(self) -> set[Pos]:
        """Empty cells next to a face-up card (where a ladder may go)."""
        return {p for pos in self.tiles for p in neighbours(pos) if not self.occupied(p)}

    def crystals(self) -> int:
        """Crystals visible on the board (Deluxe geologists' pay)."""
        return sum(t.crystals for t in self.tiles.values())


@attrs.frozen
class Network:
    """What the start reaches: segments, open edges (ports), and face-down goals reached.

    ``goals`` maps a face-down goal's index to the edges of the goal card that
    a reached tunnel points into.
    """

    segments: frozenset[tuple[Pos, int]]
    ports: frozenset[tuple[Pos, int]]
    goals: dict[int, int]


def reach(tiles: dict[Pos, Tile], hidden_goals: dict[Pos, int], blocked: Door | None = None) -> Network:
    """Walk the network from the start; with ``blocked``, doors of that colour stop the walk."""
    seen: set[tuple[Pos, int]] = set()
    ports: set[tuple[Pos, int]] = set()
    goals: dict[int, int] = {}
    stack: list[tuple[Pos, int]] = [(START_POSITION, 0)]
    ladders_done = False
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        pos, gi = node
        tile = tiles[pos]
        group = tile.groups[gi]
        if tile.ladder and not ladders_done:
            ladders_done = True
            for p, t in tiles.items():
                if t.ladder and (blocked is None or t.door is not blocked):
                    stack.extend((p, j) for j in range(len(t.groups)))
        col, row = pos
        for edge, dc, dr, opp in DIRECTIONS:
            if not group & edge:
                continue
            ports.add((pos, edge))
            npos = (col + dc, row + dr)
            other = tiles.get(npos)
            if other is None:
                gidx = hidden_goals.get(npos)
                if gidx is not None:
                    goals[gidx] = goals.get(gidx, 0) | opp
                continue
            if blocked is not None and other.door is blocked:
                continue
            for j, g in enumerate(other.groups):
                if g & opp:
                    stack.append((npos, j))
                    break
    return Network(frozenset(seen), frozenset(ports), goals)


def route_free_of(tiles: dict[Pos, Tile], target: Pos, door: Door) -> bool:
    """True if some route from the start into the card at ``target`` passes no ``door`` of that colour."""
    net = reach(tiles, {}, blocked=door)
    return any(p == target for p, _ in net.segments)


def neighbours(pos: Pos) -> Iterator[Pos]:
    """The four orthogonal neighbours of ``pos``."""
    col, row = pos
    for _, dc, dr, _ in DIRECTIONS:
        yield (col + dc, row + dr)
