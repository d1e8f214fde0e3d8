"""The heuristic bot's tables give what the plain walks they replace give.

The bot reads the reach after each path card from a table per hole and a
table of the edges each card leaves by; these tests walk the card's joined
groups and their neighbours the plain way, on every position of real
heuristic matches (base and Deluxe, whose ladders join whatever they touch),
and compare.
"""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.engine import ENGINE
from meeple.games.saboteur import GAME
from meeple.games.saboteur.board import Board, Cell, shape
from meeple.games.saboteur.bot import HeuristicBot, Suspicion, _goal_targets, _Reach, reach
from meeple.games.saboteur.commands import PlayPath
from meeple.games.saboteur.data import DIRECTIONS, Role, kind_id
from meeple.games.saboteur.state import Inspection, replace
from meeple.games.saboteur.view import View

Pos = tuple[int, int]
FAR = 99


def _dist(board: Board, targets: tuple[Pos, ...], q: Pos) -> int | None:
    if q in targets:
        return 0
    net = board.network
    if q in net.tiles or q in net.goals:
        return None
    return min([FAR, *(abs(q[0] - c) + abs(q[1] - r) for c, r in targets)])


def _after(board: Board, targets: tuple[Pos, ...], cmd: PlayPath) -> int:
    """The reach after ``cmd``: the best hole elsewhere, or a square the card's joined groups open onto."""
    net = board.network
    frontier = sorted((min([FAR, *(abs(q[0] - c) + abs(q[1] - r) for c, r in targets)]), q) for q, _ in net.frontier())
    pos = (cmd.col, cmd.row)
    if not frontier:
        best = FAR
    elif frontier[0][1] == pos:
        best = frontier[1][0] if len(frontier) > 1 else FAR
    else:
        best = frontier[0][0]
    tile = shape(cmd.card, cmd.rotated)
    hole = net.holes.get(pos)
    ports = hole.ports if hole is not None else 0
    for group in tile.groups:
        if not (tile.ladder or group & ports):
            continue
        for edge, dc, dr, _ in DIRECTIONS:
            if group & edge:
                d = _dist(board, targets, (pos[0] + dc, pos[1] + dr))
                if d is not None and d < best:
                    best = d
    return best


def _positions(seats: int, options: dict[str, Any], seed: int) -> list[tuple[View, list[PlayPath]]]:
    """Every turn of a heuristic match: the view of the seat to play and its legal path cards."""
    m = meeple.Match.start("saboteur", seats, seed=seed, options=options)
    bots = [HeuristicBot(seed * 7 + s) for s in range(seats)]
    out = []
    while not m.is_over:
        seat = next(s for s in m.to_act if s != ENGINE)
        view, legal = m.view(seat), m.legal(seat)
        paths = [c for c in legal if isinstance(c, PlayPath)]
        if paths and isinstance(view, View):
            out.append((view, paths))
        m.play(seat, bots[seat].choose(view, legal, seat))
    return out


@pytest.mark.parametrize(("seats", "options", "seed"), [
    (3, {}, 1), (6, {}, 2), (10, {}, 3), (2, {"edition": "deluxe"}, 4), (7, {"edition": "deluxe"}, 5),
])
def test_the_reach_after_each_path_card_is_the_walk_through_its_joined_groups(
        seats: int, options: dict[str, Any], seed: int) -> None:
    checked = 0
    for view, paths in _positions(seats, options, seed):
        targets = _goal_targets(view)
        board = view.board
        assert _Reach.of(board, targets).afters(paths) == [_after(board, targets, c) for c in paths]
        plain = min([FAR, *(min([FAR, *(abs(q[0] - c) + abs(q[1] - r) for c, r in targets)])
                           for q, _ in board.network.frontier())])
        assert reach(board, targets) == plain
        checked += len(paths)
    assert checked > 200


def test_the_reach_of_one_board_is_kept_per_target_goals() -> None:
    board = Board.new().lay(Cell(1, 0, kind_id("straight-horizontal")))  # the tunnel's tip is (2, 0)
    assert reach(board, ((8, 0),)) == 6
    assert reach(board, ((8, 2),)) == 8  # from the tip: 6 + 2 (the start's south edge (0, 1) is 8 + 1)
    assert reach(board, ((8, 0),)) == 6
    assert reach(board, ((8, -2), (8, 2))) == 8


def test_every_other_seats_score_is_its_score_alone(table: Any) -> None:
    st = table.build(hands=[["map"], ["map"], ["map"], ["map"]], pile=["map"] * 20)
    inspected = (Inspection(0, 2, Role.SABOTEUR), Inspection(0, 2, Role.MINER), Inspection(1, 3, Role.MINER))
    st = replace(st, known=replace(st.known, roles=inspected))
    view = GAME.view(st, 0)
    memory = Suspicion()
    memory.score = {1: 1.5, 2: -3.0, 3: 4.0}
    others = memory.others(view, 0)
    assert others == {t: memory.of(view, t) for t in (1, 2, 3)}
    assert others == {1: 1.5, 2: 10.0, 3: 4.0}  # the first answer about seat 2 settles it; seat 1's look is not ours
