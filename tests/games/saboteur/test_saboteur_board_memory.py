"""Boards do not keep the boards laid from them: a search's memory stays bounded through a round.

A match keeps some of its states (snapshots for undo and seek), and each
state's board once held, through its cache of children and its network's
memos, every board laid from it: every playout of every search of the round
stayed alive, and the cycle collector walked them all (pauses of tenths of
a second inside a one-second decision). Children are now held weakly, with
the last :data:`KEEP_LAID` boards made kept alive for the search that made
them.
"""

from __future__ import annotations

import gc
import weakref

from meeple.catalog import bot_factory
from meeple.engine import Match, get_game
from meeple.games.saboteur import board as board_module
from meeple.games.saboteur.board import KEEP_LAID, Board, Cell
from meeple.games.saboteur.bot import HeuristicBot


def _boards_alive() -> int:
    gc.collect()
    return sum(isinstance(o, Board) for o in gc.get_objects())


def test_a_board_hands_back_the_same_child_while_it_lives_and_does_not_keep_it() -> None:
    root = Board.new()
    cell = Cell(1, 0, 0)
    child = root.lay(cell)
    assert root.lay(cell) is child  # shared while alive: one board, one network, one memo
    gone = weakref.ref(child)
    board_module._RECENT.clear()  # as if the search had laid many boards since
    del child
    gc.collect()
    assert gone() is None  # the root kept it before: its cache held children strongly
    again = root.lay(cell)
    assert again.cells == (cell,) and again.network.holes == root.lay(cell).network.holes


def test_judging_a_deed_keeps_no_board_in_the_judged_boards_memo() -> None:
    match = Match.start("saboteur", 3, seed=4)
    bots = [HeuristicBot(seed) for seed in range(3)]
    kept = [match.state.board]
    for _ in range(9):  # the bots judge each other's path cards as they are laid
        seat = match.to_act[0]
        match.play(seat, bots[seat].choose(match.view(seat), match.legal(seat), seat))
        kept.append(match.state.board)
    assert len({len(b.cells) for b in kept}) > 3  # path cards were laid and judged
    for board in kept:
        for memo in board.network.memo.values():
            assert isinstance(memo, dict)
            for value in memo.values():
                assert not isinstance(value, Board)
                assert not (isinstance(value, tuple) and any(isinstance(v, Board) for v in value))


def test_a_search_leaves_at_most_the_kept_boards_alive_after_its_decisions() -> None:
    game = get_game("saboteur")
    match = Match.start("saboteur", 3, seed=11)
    bot = bot_factory(game, "pimc:40")(1)
    before = _boards_alive()
    for _ in range(3):
        seat = match.to_act[0]
        match.play(seat, bot.choose(match.view(seat), match.legal(seat), seat))
    # before the fix some 1,900 boards stayed alive here, every one the playouts laid
    assert _boards_alive() - before <= KEEP_LAID + 16
