"""The heuristic bot's memory: who did what this round, read from the seat's view alone.

Positions are hand-built; the deeds are played through the rules, so the
bot reads them from ``View.deeds`` as it would at a table.
"""

from __future__ import annotations

from typing import Any

import meeple
from meeple.engine import ENGINE
from meeple.games.saboteur import GAME
from meeple.games.saboteur.bot import SUSPECT, TRUSTED, HeuristicBot, Suspicion
from meeple.games.saboteur.commands import BreakTool, Discard, PlayPath, RepairTool, Rockfall
from meeple.games.saboteur.data import Role, Tool, kind_id
from meeple.games.saboteur.state import Front, State, replace

K = kind_id
MINERS = [Role.MINER, Role.MINER, Role.MINER, Role.SABOTEUR]


def _table(table: Any, hands: list[list[str]], **kw: Any) -> State:
    cells = [(c, 0, "straight-horizontal") for c in range(1, 4)]
    state: State = table.build(cells=cells, hands=hands, roles=kw.pop("roles", MINERS), pile=["map"] * 20, **kw)
    return state


def test_a_dead_end_across_the_tunnel_is_blamed_and_digging_on_is_trusted(table: Any) -> None:
    st = _table(table, [["map"], ["straight-horizontal", "map"], ["dead-straight-horizontal", "map"], ["map"]])
    st, _ = table.play(st, 0, Discard((K("map"),)))
    st, _ = table.play(st, 1, PlayPath(K("straight-horizontal"), 4, 0))  # on towards the gold
    st, _ = table.play(st, 2, PlayPath(K("dead-straight-horizontal"), 5, 0))  # across the tip
    memory = Suspicion()
    memory.update(GAME.view(st, 3), me_digger=True)
    assert memory.score[1] <= TRUSTED and memory.score[2] >= SUSPECT
    assert 0 not in memory.score  # a pass says nothing


def test_a_rockfall_on_a_useful_tunnel_is_blamed_and_clearing_a_dead_end_is_not(table: Any) -> None:
    cells = [(1, 0, "straight-horizontal"), (2, 0, "straight-horizontal"), (0, 1, "dead-straight-vertical")]
    st = table.build(cells=cells, hands=[["map"], ["rockfall", "map"], ["rockfall", "map"], ["map"]], roles=MINERS,
                     pile=["map"] * 20)
    st, _ = table.play(st, 0, Discard((K("map"),)))
    st, _ = table.play(st, 1, Rockfall(K("rockfall"), 2, 0))  # the tip of the tunnel
    st, _ = table.play(st, 2, Rockfall(K("rockfall"), 0, 1))  # a dead end
    memory = Suspicion()
    memory.update(GAME.view(st, 3), me_digger=True)
    assert memory.score[1] >= SUSPECT and memory.score[2] <= TRUSTED


def test_breaking_a_trusted_player_is_blamed_and_repairing_one_is_trusted(table: Any) -> None:
    st = _table(table, [["straight-horizontal"], ["broken-cart", "map"], ["repair-cart", "map"], ["map"]])
    st, _ = table.play(st, 0, PlayPath(K("straight-horizontal"), 4, 0))  # seat 0 digs: trusted
    st, _ = table.play(st, 1, BreakTool(K("broken-cart"), 0))
    st, _ = table.play(st, 2, RepairTool(K("repair-cart"), 0, Tool.CART))
    memory = Suspicion()
    memory.update(GAME.view(st, 3), me_digger=True)
    assert memory.score[0] <= TRUSTED and memory.score[1] > 0 and memory.score[2] < 0


def test_breaking_me_is_blamed_by_a_digger(table: Any) -> None:
    st = _table(table, [["map"], ["broken-lantern", "map"], ["map"], ["map"]], roles=[Role.MINER] * 4)
    st, _ = table.play(st, 0, Discard((K("map"),)))
    st, _ = table.play(st, 1, BreakTool(K("broken-lantern"), 3))
    memory = Suspicion()
    memory.update(GAME.view(st, 3), me_digger=True)
    assert memory.score[1] > 0
    saboteur = Suspicion()
    saboteur.update(GAME.view(st, 3), me_digger=False)
    assert saboteur.score[1] < 0  # to a saboteur, whoever breaks it is a digger


def _after_two_deeds(table: Any, hand0: list[str], second: str) -> State:
    """Seat 1 digs on towards the gold, seat 2 lays ``second`` at the tip, seat 3 passes: seat 0 to play."""
    hands = [hand0, ["straight-horizontal", "map"], [second, "map"], ["map"]]
    st: State = table.build(cells=[(c, 0, "straight-horizontal") for c in range(1, 4)], hands=hands, roles=MINERS,
                            pile=["map"] * 20, turn=1)
    st, _ = table.play(st, 1, PlayPath(K("straight-horizontal"), 4, 0))
    st, _ = table.play(st, 2, PlayPath(K(second), 5, 0))
    st, _ = table.play(st, 3, Discard((K("map"),)))
    assert GAME.to_act(st) == (0,)
    return st


def test_a_digger_breaks_the_suspect(table: Any) -> None:
    st = _after_two_deeds(table, ["broken-pickaxe", "map"], "dead-straight-horizontal")
    choice = HeuristicBot(1).choose(GAME.view(st, 0), GAME.legal_commands(st, 0), 0)
    assert choice == BreakTool(K("broken-pickaxe"), 2)  # the player who walled the tunnel off
    before = HeuristicBot(1, suspicion=False).choose(GAME.view(st, 0), GAME.legal_commands(st, 0), 0)
    assert not isinstance(before, BreakTool)  # without the memory a digger broke nobody


def test_a_digger_repairs_a_trusted_player(table: Any) -> None:
    st = _after_two_deeds(table, ["repair-lantern", "map"], "straight-horizontal")
    st = replace(st, front=(frozenset(), frozenset({Front.BROKEN_LANTERN}), frozenset(), frozenset()))
    choice = HeuristicBot(2).choose(GAME.view(st, 0), GAME.legal_commands(st, 0), 0)
    assert choice == RepairTool(K("repair-lantern"), 1, Tool.LANTERN)  # seat 1 dug on: trusted
    st = replace(st, front=(frozenset(), frozenset(), frozenset({Front.BROKEN_LANTERN}), frozenset()))
    choice = HeuristicBot(2).choose(GAME.view(st, 0), GAME.legal_commands(st, 0), 0)
    assert choice == RepairTool(K("repair-lantern"), 2, Tool.LANTERN)  # seat 2 dug on too


def test_a_saboteur_breaks_the_best_digger(table: Any) -> None:
    st = _after_two_deeds(table, ["broken-cart", "map"], "straight-horizontal")
    st = replace(st, deal=replace(st.deal, roles=(Role.SABOTEUR, Role.MINER, Role.MINER, Role.MINER)))
    choice = HeuristicBot(3).choose(GAME.view(st, 0), GAME.legal_commands(st, 0), 0)
    assert isinstance(choice, BreakTool) and choice.target in (1, 2)  # one who dug on, not seat 3 who passed


def test_the_memory_starts_again_each_round() -> None:
    m = meeple.Match.start("saboteur", 4, seed=3)
    bots = [HeuristicBot(s) for s in range(4)]
    rounds_seen = set()
    while not m.is_over:
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
        memory = bots[seat].suspicion
        assert memory is not None
        if m.state.round == memory.round:
            assert memory.seen <= len(m.state.deeds)
        rounds_seen.add(memory.round)
    assert rounds_seen >= {1, 2, 3}


def test_diggers_with_the_memory_reach_the_gold_more_often() -> None:
    """The full figures: ``benchmarks/saboteur_bots.py`` (500 rounds per line-up)."""

    def rate(memory: bool) -> float:
        gold = rounds = 0
        for g in range(10):
            seats = 4 + g % 4
            m = meeple.Match.start("saboteur", seats, seed=900 + g)
            bots: list[Any] = []
            for s in range(seats):
                digger, saboteur = HeuristicBot(g * 10 + s, suspicion=memory), HeuristicBot(g * 10 + s, False)
                bots.append((digger, saboteur))
            while not m.is_over:
                seat = next(s for s in m.to_act if s != ENGINE)
                v = m.view(seat)
                bot = bots[seat][1] if v.role is Role.SABOTEUR else bots[seat][0]
                m.play(seat, bot.choose(v, m.legal(seat), seat))
            rounds += len(m.state.results)
            gold += sum(r.team != "saboteurs" for r in m.state.results)
        return gold / rounds

    assert rate(True) > rate(False)
