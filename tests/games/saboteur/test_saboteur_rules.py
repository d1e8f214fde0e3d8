"""Scenario tests of the base game, each named after the rule it checks.

Positions are hand-built (``table`` fixture in conftest.py); the expected
answers come from the rule texts and ``saboteur-facts.md`` (section numbers
in the docstrings).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import meeple
from meeple.engine import ENGINE, ConfigError, IllegalCommand
from meeple.games.saboteur import GAME
from meeple.games.saboteur import data as d
from meeple.games.saboteur.board import shape
from meeple.games.saboteur.commands import (
    BreakTool,
    Discard,
    PeekGoal,
    PlayPath,
    RepairTool,
    Rockfall,
    TakeGold,
)
from meeple.games.saboteur.data import GoalKind, Role, Tool, kind_id
from meeple.games.saboteur.events import GoalRevealed, GoldOffered, GoldPaid, GoldTaken, RoundEnded
from meeple.games.saboteur.rules import exact_payment
from meeple.games.saboteur.state import Front, Phase, replace

K = kind_id


# -- the cards (facts sections 1-6) -------------------------------------------------------


def test_base_deck_has_40_tunnels_31_connected_9_dead_ends_and_27_actions() -> None:
    cards = [d.KINDS[k] for k in d.deck(deluxe=False)]
    tunnels = [c for c in cards if c.category is d.Category.PATH]
    assert len(tunnels) == 40
    assert sum(1 for c in tunnels if c.groups) == 31
    assert sum(1 for c in tunnels if not c.groups) == 9
    actions = Counter(c.name for c in cards if c.category is d.Category.ACTION)
    assert sum(actions.values()) == 27
    assert actions["map"] == 6 and actions["rockfall"] == 3
    assert actions["broken-pickaxe"] == actions["broken-lantern"] == actions["broken-cart"] == 3
    assert actions["repair-pickaxe-lantern"] == actions["repair-pickaxe-cart"] == actions["repair-lantern-cart"] == 1


def test_gold_deck_is_16_ones_8_twos_4_threes() -> None:
    assert Counter(d.GOLD_CARDS) == {1: 16, 2: 8, 3: 4}
    assert sum(d.GOLD_CARDS) == 44


def test_coal_goals_are_the_two_curves() -> None:
    assert d.GOAL_EDGES[GoalKind.COAL_A] == d.S | d.E
    assert d.GOAL_EDGES[GoalKind.COAL_B] == d.S | d.W
    assert d.GOAL_EDGES[GoalKind.GOLD] == d.N | d.E | d.S | d.W


@pytest.mark.parametrize(("seats", "saboteurs", "miners"), [
    (3, 1, 3), (4, 1, 4), (5, 2, 4), (6, 2, 5), (7, 3, 5), (8, 3, 6), (9, 3, 7), (10, 4, 7),
])
def test_role_deck_per_player_count_has_one_card_aside(seats: int, saboteurs: int, miners: int) -> None:
    m = meeple.Match.start("saboteur", seats, seed=seats)
    st = m.state
    every = Counter(st.roles) + Counter(st.deal.leftover_roles)
    assert every == {Role.SABOTEUR: saboteurs, Role.MINER: miners}
    assert len(st.deal.leftover_roles) == 1
    assert m.view(0).leftover_roles_count == 1


def test_three_player_round_may_have_no_saboteur() -> None:
    found = False
    for seed in range(40):
        st = meeple.Match.start("saboteur", 3, seed=seed).state
        if Role.SABOTEUR not in st.roles:
            found = True
            assert st.deal.leftover_roles == (Role.SABOTEUR,)
            break
    assert found


@pytest.mark.parametrize(("seats", "size"), [(3, 6), (5, 6), (6, 5), (7, 5), (8, 4), (10, 4)])
def test_hand_size_6_5_4_by_player_count(seats: int, size: int) -> None:
    st = meeple.Match.start("saboteur", seats, seed=1).state
    assert all(len(h) == size for h in st.hands)
    assert len(st.pile) == 67 - seats * size


def test_goals_lie_face_down_at_column_8_rows_minus2_0_2() -> None:
    m = meeple.Match.start("saboteur", 4, seed=9)
    assert [(g.col, g.row) for g in m.state.board.goals] == [(8, -2), (8, 0), (8, 2)]
    assert all(g.kind is None for g in m.state.board.goals)
    assert sorted(k.value for k in m.state.deal.goal_kinds) == ["coal-a", "coal-b", "gold"]
    assert all(g.kind is None for g in m.view(0).goals)


def test_youngest_player_seat_0_starts_the_first_round() -> None:
    assert meeple.Match.start("saboteur", 6, seed=4).to_act == (0,)


# -- laying path cards (facts section 7) --------------------------------------------------


def table_rng() -> meeple.Rng:
    """A fixed RNG for direct ``decide`` calls."""
    return meeple.Rng(1)


def test_path_card_must_fit_every_neighbour(table: Any) -> None:
    st = table.build(hands=[["straight-vertical", "crossroads"], [], [], []])
    # east of the start: a vertical straight has a wall facing the start's open east edge
    with pytest.raises(IllegalCommand, match="does not fit"):
        GAME.decide(st, 0, PlayPath(K("straight-vertical"), 1, 0), table_rng())
    st2, _ = table.play(st, 0, PlayPath(K("crossroads"), 1, 0))
    assert any((c.col, c.row) == (1, 0) for c in st2.cells)


def test_path_card_must_join_the_tunnel_from_the_start(table: Any) -> None:
    st = table.build(hands=[["crossroads"], [], [], []])
    with pytest.raises(IllegalCommand, match="leads back to the start"):
        GAME.decide(st, 0, PlayPath(K("crossroads"), 3, 3), table_rng())


def test_dead_end_passes_no_tunnel_on(table: Any) -> None:
    st = table.build(cells=[(1, 0, "dead-straight-horizontal")], hands=[["crossroads"], [], [], []])
    targets = table.placements(st, K("crossroads"))
    # the dead end at (1, 0) fits the start, but nothing beyond it joins the start
    assert (2, 0, False) not in targets
    assert (0, -1, False) in targets


def test_path_cards_lie_upright_only_turned_180_degrees(table: Any) -> None:
    assert shape(K("curve-a"), True).edges == d.N | d.W
    st = table.build(hands=[["crossroads", "curve-a"], [], [], []])
    with pytest.raises(IllegalCommand, match="looks the same turned"):
        GAME.decide(st, 0, PlayPath(K("crossroads"), 1, 0, True), table_rng())
    # west of the start a curve-a (S-E) fits only unturned (it opens east) ...
    assert (-1, 0, False) in table.placements(st, K("curve-a"))
    assert (-1, 0, True) not in table.placements(st, K("curve-a"))


def test_card_touching_two_goals_turns_both(table: Any) -> None:
    st = table.build(cells=table.ROW_MINUS1, hands=[["crossroads"], ["map"], [], []], goals=("coal-a", "coal-b", "gold"))
    events = table.events(st, 0, PlayPath(K("crossroads"), 8, -1))
    revealed = {e.goal for e in events if isinstance(e, GoalRevealed)}
    assert revealed == {0, 1}
    assert not any(isinstance(e, RoundEnded) for e in events)


def test_card_touching_the_gold_and_a_coal_ends_the_round_for_the_miners(table: Any) -> None:
    st = table.build(cells=table.ROW_MINUS1, hands=[["crossroads"], [], [], []], goals=("gold", "coal-a", "coal-b"))
    events = table.events(st, 0, PlayPath(K("crossroads"), 8, -1))
    assert {e.goal for e in events if isinstance(e, GoalRevealed)} == {0, 1}
    ended = [e for e in events if isinstance(e, RoundEnded)]
    assert ended and ended[0].team == "miners" and ended[0].finisher == 0


def test_coal_goal_is_turned_to_fit_and_the_tunnel_goes_on_through_it(table: Any) -> None:
    # middle goal coal-a (S-E); reached from the west it turns to N-W
    st = table.build(cells=table.ROW0[:-1], hands=[["straight-horizontal", "straight-vertical"], [], [], []],
                     goals=("gold", "coal-a", "coal-b"), pile=["map", "map"])
    st, events = table.play(st, 0, PlayPath(K("straight-horizontal"), 7, 0))
    (rev,) = [e for e in events if isinstance(e, GoalRevealed)]
    assert rev.kind is GoalKind.COAL_A and rev.rotated
    assert st.phase is Phase.PLAY
    assert ((8, 0), d.N) in st.board.network.ports()
    # the tunnel continues north out of the coal card, into the gold goal
    st = table.build(cells=table.ROW0, hands=[["straight-vertical"], [], [], []],
                     goals=("gold", "coal-a", "coal-b"))
    st = table.turn_goal(st, 1, rotated=True)
    events = table.events(st, 0, PlayPath(K("straight-vertical"), 8, -1))
    assert any(isinstance(e, GoalRevealed) and e.kind is GoalKind.GOLD for e in events)
    assert any(isinstance(e, RoundEnded) and e.team == "miners" for e in events)


def test_turned_coal_card_edges_must_be_matched(table: Any) -> None:
    st = table.build(cells=table.ROW0, hands=[["straight-horizontal"], [], [], []], goals=("gold", "coal-a", "coal-b"))
    st = table.turn_goal(st, 1, rotated=True)
    # the turned coal card (N-W) has a wall to the east: an east-west straight cannot lie against it
    with pytest.raises(IllegalCommand):
        GAME.decide(st, 0, PlayPath(K("straight-horizontal"), 9, 0), table_rng())


# -- action cards (facts section 5) -----------------------------------------------------


def test_broken_pickaxe_blocks_path_cards(table: Any) -> None:
    st = table.build(hands=[["crossroads", "map"], [], [], []], front={0: {Front.BROKEN_PICKAXE}})
    legal = GAME.legal_commands(st, 0)
    assert not any(isinstance(c, PlayPath) for c in legal)
    assert any(isinstance(c, PeekGoal) for c in legal)
    with pytest.raises(IllegalCommand, match="broken-pickaxe"):
        GAME.decide(st, 0, PlayPath(K("crossroads"), 1, 0), table_rng())


def test_at_most_one_broken_tool_of_each_kind_per_player(table: Any) -> None:
    st = table.build(hands=[["broken-lantern", "broken-cart"], [], [], []], front={2: {Front.BROKEN_LANTERN}})
    legal = GAME.legal_commands(st, 0)
    assert BreakTool(K("broken-lantern"), 2) not in legal
    assert BreakTool(K("broken-cart"), 2) in legal
    assert BreakTool(K("broken-lantern"), 0) in legal  # yourself included
    with pytest.raises(IllegalCommand, match="already has a broken lantern"):
        GAME.decide(st, 0, BreakTool(K("broken-lantern"), 2), table_rng())


def test_repair_fixes_only_a_matching_broken_tool(table: Any) -> None:
    st = table.build(hands=[["repair-cart", "repair-pickaxe"], [], [], []], front={1: {Front.BROKEN_PICKAXE}})
    with pytest.raises(IllegalCommand, match="no broken cart"):
        GAME.decide(st, 0, RepairTool(K("repair-cart"), 1, Tool.CART), table_rng())
    with pytest.raises(IllegalCommand, match="does not repair"):
        GAME.decide(st, 0, RepairTool(K("repair-cart"), 1, Tool.PICKAXE), table_rng())
    st, _ = table.play(st, 0, RepairTool(K("repair-pickaxe"), 1, Tool.PICKAXE))
    assert st.front[1] == frozenset()


def test_double_repair_fixes_one_of_its_two_tools_not_both(table: Any) -> None:
    st = table.build(hands=[["repair-pickaxe-lantern"], [], [], []],
                     front={3: {Front.BROKEN_PICKAXE, Front.BROKEN_LANTERN}}, pile=["map"])
    legal = [c for c in GAME.legal_commands(st, 0) if isinstance(c, RepairTool)]
    assert set(legal) == {RepairTool(K("repair-pickaxe-lantern"), 3, Tool.PICKAXE),
                          RepairTool(K("repair-pickaxe-lantern"), 3, Tool.LANTERN)}
    st, _ = table.play(st, 0, RepairTool(K("repair-pickaxe-lantern"), 3, Tool.LANTERN))
    assert st.front[3] == {Front.BROKEN_PICKAXE}


def test_rockfall_removes_a_path_card_then_the_gap_can_be_rebuilt(table: Any) -> None:
    st = table.build(cells=[(1, 0, "crossroads"), (2, 0, "crossroads")],
                     hands=[["rockfall"], ["crossroads"], [], []], pile=["map", "map"])
    st, _ = table.play(st, 0, Rockfall(K("rockfall"), 1, 0))
    assert [(c.col, c.row) for c in st.cells] == [(2, 0)]
    assert st.turn == 1
    assert (1, 0, False) in table.placements(st, K("crossroads"))
    st, _ = table.play(st, 1, PlayPath(K("crossroads"), 1, 0))
    assert {(c.col, c.row) for c in st.cells} == {(1, 0), (2, 0)}


def test_rockfall_never_removes_the_start_or_a_goal(table: Any) -> None:
    st = table.build(hands=[["rockfall"], [], [], []])
    for col, row in ((0, 0), (8, 0)):
        with pytest.raises(IllegalCommand, match="never removes the start or a goal"):
            GAME.decide(st, 0, Rockfall(K("rockfall"), col, row), table_rng())


def test_map_shows_a_goal_to_its_player_alone_and_the_knowledge_stays(table: Any) -> None:
    st = table.build(hands=[["map", "crossroads"], ["crossroads"], [], []], goals=("coal-b", "coal-a", "gold"),
                     pile=["map"])
    st, events = table.play(st, 0, PeekGoal(K("map"), 2))
    peek = events[0]
    assert GAME.redact(peek, 0) == peek
    assert GAME.redact(peek, 1).kind is None  # type: ignore[union-attr]
    assert GAME.view(st, 0).known_goals == ((2, GoalKind.GOLD),)
    assert GAME.view(st, 1).known_goals == ()
    assert GAME.view(st, None).known_goals == ()
    st, _ = table.play(st, 1, PlayPath(K("crossroads"), 1, 0))
    assert GAME.view(st, 0).known_goals == ((2, GoalKind.GOLD),)


def test_discard_one_card_face_down_then_draw(table: Any) -> None:
    st = table.build(hands=[["map", "rockfall"], ["map"], [], []], pile=["crossroads"])
    st, events = table.play(st, 0, Discard((K("rockfall"),)))
    assert st.hands[0] == tuple(sorted((K("map"), K("crossroads"))))
    assert GAME.redact(events[0], 1).cards is None  # type: ignore[union-attr]
    with pytest.raises(IllegalCommand):
        GAME.decide(st, 1, Discard((K("map"), K("map"))), table_rng())


# -- end of a round (facts section 7) ----------------------------------------------------


def test_round_ends_for_the_saboteurs_when_pile_and_hands_are_empty(table: Any) -> None:
    st = table.build(hands=[["map"], [], [], []], roles=[Role.MINER, Role.SABOTEUR, Role.MINER, Role.MINER])
    events = table.events(st, 0, Discard((K("map"),)))
    ended = events[-1]
    assert isinstance(ended, RoundEnded) and ended.team == "saboteurs" and ended.winners == (1,)


def test_players_with_empty_hands_are_skipped(table: Any) -> None:
    st = table.build(hands=[["map"], [], ["map"], []])
    st, _ = table.play(st, 0, Discard((K("map"),)))
    assert st.turn == 2


def test_by_default_a_lap_of_passes_does_not_end_the_round(table: Any) -> None:
    """R1, R2, S1: with the pile empty the round goes on until no player holds a card."""
    st = table.build(hands=[["map", "map"], ["map"], ["map", "rockfall"], ["map"]])
    for seat in range(4):
        st, _ = table.play(st, seat, Discard((min(st.hands[seat]),)))
    assert st.round == 1 and st.phase is Phase.PLAY and st.turn == 0


def test_option_round_end_lap_ends_the_round_after_every_player_passed_once_the_pile_is_empty(table: Any) -> None:
    """S0: "закончились игровая колода, а все участники пропустили по ходу" (option ``round_end="lap"``)."""
    roles = [Role.MINER, Role.SABOTEUR, Role.MINER, Role.MINER]
    st = table.build(hands=[["map", "map"], ["map"], ["map", "rockfall"], ["map"]], roles=roles, round_end="lap")
    for seat in range(3):
        st, events = table.play(st, seat, Discard((min(st.hands[seat]),)))
        assert st.passes == seat + 1 and not any(isinstance(e, RoundEnded) for e in events)
    assert GAME.view(st, 0).passes == 3
    _, events = table.play(st, 3, Discard((K("map"),)))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.team == "saboteurs" and ended.winners == (1,) and ended.ender == 3


def test_lap_of_passes_starts_again_after_a_card_played_face_up(table: Any) -> None:
    st = table.build(hands=[["map", "map"], ["map", "map"], ["broken-cart", "map"], ["map"]], round_end="lap")
    st, _ = table.play(st, 0, Discard((K("map"),)))
    st, _ = table.play(st, 1, Discard((K("map"),)))
    st, _ = table.play(st, 2, BreakTool(K("broken-cart"), 0))
    assert st.passes == 0
    st, _ = table.play(st, 3, Discard((K("map"),)))
    assert st.passes == 1 and st.phase is Phase.PLAY


def test_lap_of_passes_counts_players_skipped_for_holding_no_cards(table: Any) -> None:
    st = table.build(hands=[["map", "map"], [], ["map", "map"], []], round_end="lap")
    st, _ = table.play(st, 0, Discard((K("map"),)))
    assert st.turn == 2 and st.passes == 2  # seat 0 passed, seat 1 had nothing to play
    _, events = table.play(st, 2, Discard((K("map"),)))
    assert any(isinstance(e, RoundEnded) for e in events)


def test_lap_of_passes_counts_only_once_the_pile_has_run_out(table: Any) -> None:
    st = table.build(hands=[["map"], ["map"], ["map"], ["map"]], pile=["rockfall"], round_end="lap")
    st, _ = table.play(st, 0, Discard((K("map"),)))  # draws the last card: this pass does not count
    assert st.passes == 0 and not st.pile
    for seat in (1, 2, 3):
        st, _ = table.play(st, seat, Discard((K("map"),)))
    assert st.passes == 3 and st.phase is Phase.PLAY


def test_next_round_starts_with_the_player_after_the_one_who_ended_it(table: Any) -> None:
    st = table.build(hands=[[], [], ["map"], []], turn=2)
    st, _ = table.play(st, 2, Discard((K("map"),)))
    assert st.round == 2 and st.turn == 3
    st = table.build(hands=[[], [], ["map"], []], turn=2, next_starter="ender")
    st, _ = table.play(st, 2, Discard((K("map"),)))
    assert st.turn == 2



def test_with_next_starter_ender_the_player_of_the_last_path_card_starts_the_next_round(table: Any) -> None:
    # seed 001: «Խաղացողը, ով կխաղա վերջին ուղու քարտը, սկսում է նոր փուլը» ("the player who plays the
    # last path card starts the new round"): seat 1 lays the round's only path card, seat 2 removes it
    # with a rockfall (laying none) and later empties the last hand
    hands = [[], ["straight-horizontal"], ["rockfall", "map"], ["map"]]
    for option, starter in (("ender", 1), ("after-ender", 3)):
        st = table.build(hands=hands, turn=1, next_starter=option)
        st, _ = table.play(st, 1, PlayPath(K("straight-horizontal"), 1, 0))
        st, _ = table.play(st, 2, Rockfall(K("rockfall"), 1, 0))
        st, _ = table.play(st, 3, Discard((K("map"),)))
        st, events = table.play(st, 2, Discard((K("map"),)))
        ended = next(e for e in events if isinstance(e, RoundEnded))
        assert ended.ender == 2 and st.round == 2
        assert st.turn == starter and st.deal.starter == starter, option

# -- payouts (facts section 8) ------------------------------------------------------------


def _gold_round(table: Any, seats: int, roles: list[Role], finder: int, **options: Any) -> Any:
    hands: list[list[str]] = [[] for _ in range(seats)]
    hands[finder] = ["straight-horizontal"]
    st = table.build(seats, cells=table.ROW0[:-1], hands=hands, roles=roles, turn=finder,
                     goals=("coal-a", "gold", "coal-b"), **options)
    return table.play(st, finder, PlayPath(K("straight-horizontal"), 7, 0))


def test_gold_payout_saboteur_finder_passes_to_nearest_miner_counter_clockwise(table: Any) -> None:
    roles = [Role.MINER, Role.SABOTEUR, Role.MINER, Role.SABOTEUR, Role.MINER]
    st, events = _gold_round(table, 5, roles, finder=1)
    offer = next(e for e in events if isinstance(e, GoldOffered))
    assert offer.count == 5 and offer.chooser == 0
    order = []
    while st.phase is Phase.CHOOSE:
        order.append(st.purse.chooser)
        st, _ = table.play(st, st.purse.chooser, TakeGold(max(st.purse.offer)))
    # counter-clockwise through miners only: 0, 4, 2, 0, 4
    assert order == [0, 4, 2, 0, 4]
    assert st.gold[1] == st.gold[3] == 0
    assert sum(st.gold) == sum(offer.values or ())
    assert st.phase is Phase.PLAY and st.round == 2 and st.turn == 2


def test_gold_payout_miner_finder_chooses_first(table: Any) -> None:
    roles = [Role.MINER, Role.SABOTEUR, Role.MINER, Role.MINER]
    st, _ = _gold_round(table, 4, roles, finder=2)
    assert st.phase is Phase.CHOOSE and st.purse.chooser == 2
    assert GAME.legal_commands(st, 2) == [TakeGold(v) for v in sorted(set(st.purse.offer))]
    assert GAME.view(st, 2).offer == st.purse.offer and GAME.view(st, 0).offer == ()


def test_taking_gold_hands_the_rest_to_the_next_miner_and_is_an_undo_barrier(table: Any) -> None:
    # F§8: the finder chooses one card and passes the rest on; the next miner now sees them
    roles = [Role.MINER, Role.SABOTEUR, Role.MINER, Role.MINER]
    st, _ = _gold_round(table, 4, roles, finder=2)
    assert GAME.view(st, 0).offer == ()
    taken = max(st.purse.offer)
    rest = list(st.purse.offer)
    rest.remove(taken)
    st, events = table.play(st, 2, TakeGold(taken))
    (took,) = [e for e in events if isinstance(e, GoldTaken)]
    assert took.next == st.purse.chooser == 0  # counter-clockwise, past the saboteur at seat 1
    assert sorted(GAME.view(st, 0).offer) == sorted(rest)
    assert took.barrier  # the taker may not undo once the next miner has looked


def test_gold_pass_option_passes_clockwise(table: Any) -> None:
    roles = [Role.MINER, Role.SABOTEUR, Role.MINER, Role.SABOTEUR, Role.MINER]
    st, _ = _gold_round(table, 5, roles, finder=1, gold_pass="clockwise")
    order = []
    while st.phase is Phase.CHOOSE:
        order.append(st.purse.chooser)
        st, _ = table.play(st, st.purse.chooser, TakeGold(max(st.purse.offer)))
    assert order == [2, 4, 0, 2, 4]


def test_ten_players_draw_nine_gold_cards(table: Any) -> None:
    roles = [Role.SABOTEUR] * 4 + [Role.MINER] * 6
    _, events = _gold_round(table, 10, roles, finder=5)
    assert next(e for e in events if isinstance(e, GoldOffered)).count == 9


def test_gold_cards_per_miner_option_draws_one_per_miner(table: Any) -> None:
    roles = [Role.SABOTEUR, Role.SABOTEUR, Role.MINER, Role.MINER, Role.MINER]
    _, events = _gold_round(table, 5, roles, finder=2, gold_cards="miners")
    assert next(e for e in events if isinstance(e, GoldOffered)).count == 3


def test_broken_tools_forfeit_option_skips_broken_miners(table: Any) -> None:
    roles = [Role.MINER, Role.SABOTEUR, Role.MINER, Role.MINER]
    hands: list[list[str]] = [[], [], ["straight-horizontal"], []]
    st = table.build(4, cells=table.ROW0[:-1], hands=hands, roles=roles, turn=2, goals=("coal-a", "gold", "coal-b"),
                     front={3: {Front.BROKEN_CART}}, broken_tools_forfeit=True)
    st, _ = table.play(st, 2, PlayPath(K("straight-horizontal"), 7, 0))
    seen = set()
    while st.phase is Phase.CHOOSE:
        seen.add(st.purse.chooser)
        st, _ = table.play(st, st.purse.chooser, TakeGold(min(st.purse.offer)))
    assert seen == {0, 2} and st.gold[3] == 0


@pytest.mark.parametrize(("saboteurs", "each"), [(1, 4), (2, 3), (3, 3), (4, 2)])
def test_saboteurs_take_4_3_3_2_nuggets_each_paid_exactly(table: Any, saboteurs: int, each: int) -> None:
    seats = 10
    roles = [Role.SABOTEUR] * saboteurs + [Role.MINER] * (seats - saboteurs)
    hands: list[list[str]] = [["map"]] + [[] for _ in range(seats - 1)]
    st, events = table.play(table.build(seats, roles=roles, hands=hands), 0, Discard((K("map"),)))
    paid = [e for e in events if isinstance(e, GoldPaid)]
    assert [e.seat for e in paid] == list(range(saboteurs))
    assert all(e.amount == each and sum(e.cards or ()) == each for e in paid)
    assert st.gold[:saboteurs] == (each,) * saboteurs and sum(st.gold) == each * saboteurs
    assert len(st.purse.deck) == 28 - sum(len(e.cards or ()) for e in paid)


@pytest.mark.parametrize(("saboteurs", "cards"), [(1, 4), (2, 3), (3, 3), (4, 2)])
def test_option_saboteur_pay_cards_gives_4_3_3_2_gold_cards_each(table: Any, saboteurs: int, cards: int) -> None:
    """S0: "тому выдаётся 4 карты золота ... по 3 карточек ... по 2 карточек" (option ``saboteur_pay="cards"``)."""
    seats = 10
    roles = [Role.SABOTEUR] * saboteurs + [Role.MINER] * (seats - saboteurs)
    hands: list[list[str]] = [["map"]] + [[] for _ in range(seats - 1)]
    st, events = table.play(table.build(seats, roles=roles, hands=hands, saboteur_pay="cards"), 0,
                            Discard((K("map"),)))
    paid = [e for e in events if isinstance(e, GoldPaid)]
    assert [e.seat for e in paid] == list(range(saboteurs))
    assert all(e.cards is not None and len(e.cards) == cards and e.amount == sum(e.cards) for e in paid)
    assert len(st.purse.deck) == 28 - cards * saboteurs
    assert sum(st.gold) == sum(e.amount or 0 for e in paid)


def test_saboteur_pay_cards_is_drawn_at_random(table: Any) -> None:
    roles = [Role.SABOTEUR] + [Role.MINER] * 3
    seen = set()
    for seed in range(12):
        st = table.build(4, roles=roles, hands=[["map"], [], [], []], saboteur_pay="cards")
        _, events = table.play(st, 0, Discard((K("map"),)), seed=seed)
        seen.add(next(e.cards for e in events if isinstance(e, GoldPaid)))
    assert len(seen) > 3


def test_saboteur_pay_uses_change_when_no_exact_cards_are_left() -> None:
    assert exact_payment([3, 3, 2, 1], 4) == (3, 1)
    assert exact_payment([2, 2, 2], 3) == (2,)  # the bank makes up the last nugget
    assert exact_payment([3, 3, 3], 2) == ()


def test_no_saboteur_in_play_means_nobody_is_paid(table: Any) -> None:
    st = table.build(3, roles=[Role.MINER] * 3, hands=[["map"], [], []], leftover=[Role.SABOTEUR])
    st, events = table.play(st, 0, Discard((K("map"),)))
    assert not any(isinstance(e, GoldPaid) for e in events) and sum(st.gold) == 0


def test_after_three_rounds_the_most_gold_wins_and_ties_share(table: Any) -> None:
    st = table.build(4, hands=[["map"], [], [], []], round=3, roles=[Role.SABOTEUR, Role.MINER, Role.MINER, Role.MINER])
    st = replace(st, purse=replace(st.purse, gold=(3, 7, 7, 1)))
    st, _ = table.play(st, 0, Discard((K("map"),)))
    # the lone saboteur takes 4: 7, 7, 7, 1
    assert st.phase is Phase.OVER
    out = GAME.outcome(st)
    assert out is not None and out.winners == (0, 1, 2) and out.scores == (7, 7, 7, 1)
    assert GAME.view(st, 3).gold == (7, 7, 7, 1)
    assert GAME.to_act(st) == ()


# -- options -------------------------------------------------------------------------------


def test_base_game_refuses_2_and_11_players_with_a_hint() -> None:
    """S0's first paragraph says 3-11, but its hand table and the 11 dwarf cards stop at 10 (S1, R1: 3-10)."""
    for n in (2, 11):
        with pytest.raises(ConfigError, match=r"3-10 players.*tables stop at 10.*Deluxe"):
            meeple.Match.start("saboteur", n, seed=1)


def test_options_are_checked() -> None:
    with pytest.raises(ConfigError):
        meeple.Match.start("saboteur", 4, seed=1, options={"pass_discards": 3})
    with pytest.raises(ConfigError):
        meeple.Match.start("saboteur", 4, seed=1, options={"gold_cards": "everyone"})
    assert GAME.variant_options("deluxe") == {"edition": "deluxe"}
    assert GAME.variant_options("standard") == {}
    with pytest.raises(ConfigError):
        GAME.variant_options("junior")


def test_engine_deals_each_round_and_settles_it() -> None:
    m = meeple.Match.start("saboteur", 4, seed=3)
    assert [r.actor for r in m.records] == [ENGINE]
    assert m.state.phase is Phase.PLAY


def test_turning_a_goal_over_is_an_undo_barrier(table: Any) -> None:
    # GoalRevealed is a barrier event: the engine forbids a player's undo of its record
    st = table.build(cells=table.ROW0[:-1], hands=[["straight-horizontal"], ["map"], [], []],
                     goals=("gold", "coal-a", "coal-b"))
    rng = meeple.Rng(1)
    events = GAME.decide(st, 0, PlayPath(K("straight-horizontal"), 7, 0), rng)
    assert any(isinstance(e, GoalRevealed) and e.barrier for e in events)
    rng = meeple.Rng(1)
    events = GAME.decide(st, 0, Discard((K("straight-horizontal"),)), rng)
    # a plain discard with the pile empty reveals nothing
    assert rng.counter == 0 and not any(e.barrier for e in events)


def test_ending_the_round_shows_the_roles_and_is_an_undo_barrier(table: Any) -> None:
    st = table.build(hands=[["map"], [], [], []])
    rng = meeple.Rng(1)
    events = GAME.decide(st, 0, Discard((K("map"),)), rng)
    assert isinstance(events[-1], RoundEnded) and events[-1].barrier
