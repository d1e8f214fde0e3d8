"""Scenario tests of the Deluxe edition (Saboteur 2 rules), each named after its rule.

Sources: the expansion part of seed 000 and ``saboteur-facts.md`` sections 9-15.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.engine import IllegalCommand, Rng
from meeple.engine.codec import canonical, digest
from meeple.games.saboteur import GAME
from meeple.games.saboteur import data as d
from meeple.games.saboteur.board import Cell, shape, symmetric
from meeple.games.saboteur.commands import ClearFront, Discard, Inspect, PlayPath, Steal, SwapHand, TargetAction
from meeple.games.saboteur.data import Role, kind_id
from meeple.games.saboteur.events import GoldPaid, HatSwapped, RoundEnded, ThievesReady
from meeple.games.saboteur.render import render
from meeple.games.saboteur.state import Front, Phase, replace
from meeple.games.saboteur.text import TEXTS

K = kind_id
DELUXE = {"edition": "deluxe"}


def rng() -> Rng:
    """A fixed RNG for direct ``decide`` calls."""
    return Rng(1)


# -- contents and set-up (facts sections 9-13) ----------------------------------------------


def test_deluxe_deck_adds_30_path_and_21_action_cards_to_the_base_cards() -> None:
    base = Counter(d.deck(deluxe=False))
    deluxe = Counter(d.deck(deluxe=True))
    extra = deluxe - base
    paths = sum(n for k, n in extra.items() if d.KINDS[k].category is d.Category.PATH)
    actions = sum(n for k, n in extra.items() if d.KINDS[k].category is d.Category.ACTION)
    assert (paths, actions) == (30, 21)
    assert sum(deluxe.values()) == 118
    names = Counter({d.KINDS[k].name: n for k, n in extra.items()})
    assert names["bridge"] == names["double-curve"] == 2
    assert sum(n for k, n in extra.items() if d.KINDS[k].ladder) == 4
    assert sum(n for k, n in extra.items() if d.KINDS[k].door is d.Door.GREEN) == 3
    assert sum(n for k, n in extra.items() if d.KINDS[k].door is d.Door.BLUE) == 3
    assert (names["theft"], names["swap-your-hand"], names["inspection"], names["swap-your-hats"],
            names["trapped"], names["free-at-last"]) == (4, 2, 2, 2, 3, 4)


@pytest.mark.parametrize("seats", [2, 5, 12])
def test_deluxe_deals_from_all_15_dwarves_six_cards_each_ten_set_aside(seats: int) -> None:
    m = meeple.Match.start("saboteur", seats, seed=seats, options=DELUXE)
    st = m.state
    assert Counter(st.roles) + Counter(st.deal.leftover_roles) == Counter(d.DELUXE_ROLES)
    assert len(st.deal.leftover_roles) == 15 - seats
    assert all(len(h) == 6 for h in st.hands)
    assert len(st.deal.set_aside) == 10
    assert len(st.pile) == 118 - 10 - 6 * seats
    v = m.view(0)
    assert v.set_aside_count == 10 and v.leftover_roles_count == 15 - seats
    assert m.header().options["edition"] == "deluxe"


def test_set_aside_cards_return_next_round(table: Any) -> None:
    st = table.build(5, edition="deluxe", hands=[["map"], [], [], [], []])
    st, _ = table.play(st, 0, Discard((K("map"),)))
    assert st.round == 2 and len(st.deal.set_aside) == 10
    assert len(st.pile) + sum(len(h) for h in st.hands) + len(st.deal.set_aside) == 118


# -- new path cards (facts section 11) ----------------------------------------------------


def test_bridge_carries_two_separate_tunnels_and_one_must_join_the_start(table: Any) -> None:
    st = table.build(edition="deluxe", cells=[(1, 0, "bridge")], hands=[["straight-vertical", "bridge"], [], [], []])
    # the bridge's east-west tunnel is joined to the start, its north-south tunnel is not
    targets = table.placements(st, K("straight-vertical"))
    assert (1, -1, False) not in targets and (1, 1, False) not in targets
    with pytest.raises(IllegalCommand, match="leads back to the start"):
        GAME.decide(st, 0, PlayPath(K("straight-vertical"), 1, -1), rng())
    # a second bridge below the start joins through its north-south tunnel only
    assert (0, 1, False) in table.placements(st, K("bridge"))


def test_double_curve_joins_only_the_curve_that_touches_the_tunnel(table: Any) -> None:
    # double curve: west-north and east-south; its west edge meets the start
    st = table.build(edition="deluxe", cells=[(1, 0, "double-curve")],
                     hands=[["straight-vertical", "straight-horizontal"], [], [], []])
    assert (1, -1, False) in table.placements(st, K("straight-vertical"))
    assert (1, 1, False) not in table.placements(st, K("straight-vertical"))
    assert (2, 0, False) not in table.placements(st, K("straight-horizontal"))


def test_double_curve_looks_the_same_turned_so_it_has_one_name_per_placement(table: Any) -> None:
    """R2: two separate curves (west-north, east-south); turned 180 degrees it is the same card."""
    dc = K("double-curve")
    assert symmetric(dc) and symmetric(K("bridge")) and not symmetric(K("curve-a"))
    st = table.build(edition="deluxe", hands=[["double-curve"], [], [], []])
    targets = table.placements(st, dc)
    assert targets and all(not rotated for _, _, rotated in targets)
    assert PlayPath(dc, 1, 0, False) in GAME.legal_commands(st, 0)
    assert PlayPath(dc, 1, 0, True) not in GAME.legal_commands(st, 0)
    with pytest.raises(IllegalCommand, match="looks the same turned"):
        GAME.decide(st, 0, PlayPath(dc, 1, 0, True), rng())


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 150))
def test_no_two_listed_placements_make_the_same_table(seed: int, steps: int) -> None:
    """Each placement is listed once: the boards the listed path commands lead to are all different."""
    m = meeple.Match.start("saboteur", 5, seed=seed, options=DELUXE)
    bot = meeple.RandomBot(seed)
    for _ in range(steps):
        if m.is_over:
            return
        seat = m.to_act[0]
        m.play(seat, bot.choose(m.view(seat), m.legal(seat), seat))
    if m.state.phase is not Phase.PLAY:
        return
    state = m.state
    paths = [c for c in m.legal(state.turn) if isinstance(c, PlayPath)]
    for kind in {c.card for c in paths}:
        placed = [(c.col, c.row, shape(kind, c.rotated).edges, frozenset(shape(kind, c.rotated).groups))
                  for c in paths if c.card == kind]
        assert len(placed) == len(set(placed)), d.KINDS[kind].name
    boards = [state.board.lay(Cell(c.col, c.row, c.card, c.rotated)) for c in paths]
    assert len(set(boards)) == len(boards)
    hashes = {digest(canonical(replace(state, board=b))) for b in boards}
    assert len(hashes) == len(boards)  # one state hash per table, and one table per command


def test_ladder_links_a_distant_tunnel_to_the_start(table: Any) -> None:
    # a crossroads left alone at (5, 3), cut off from the start
    st = table.build(edition="deluxe", cells=[(1, 0, "crossroads"), (5, 3, "crossroads")],
                     hands=[["ladder-stub-horizontal", "crossroads"], ["map"], [], []])
    assert (4, 3, False) not in table.placements(st, K("crossroads"))
    assert (6, 3, False) in table.placements(st, K("ladder-stub-horizontal"))
    st, _ = table.play(st, 0, PlayPath(K("ladder-stub-horizontal"), 6, 3))
    assert (4, 3, False) in table.placements(st, K("crossroads"))


def test_ladder_must_touch_a_card_and_not_lie_next_to_a_goal(table: Any) -> None:
    st = table.build(edition="deluxe", cells=[(6, 2, "crossroads")], hands=[["ladder-curve-b"], [], [], []])
    with pytest.raises(IllegalCommand, match="must touch"):
        GAME.decide(st, 0, PlayPath(K("ladder-curve-b"), 3, 5), rng())
    with pytest.raises(IllegalCommand, match="next to a goal"):
        GAME.decide(st, 0, PlayPath(K("ladder-curve-b"), 7, 2, True), rng())


def test_rockfall_may_remove_a_ladder(table: Any) -> None:
    from meeple.games.saboteur.commands import Rockfall

    st = table.build(edition="deluxe", cells=[(1, 0, "crossroads"), (1, 1, "ladder-stub-vertical")],
                     hands=[["rockfall"], ["map"], [], []])
    st, _ = table.play(st, 0, Rockfall(K("rockfall"), 1, 1))
    assert [(c.col, c.row) for c in st.cells] == [(1, 0)]


# -- winners through doors (facts section 14) ----------------------------------------------

SEVEN = [Role.BLUE, Role.GREEN, Role.GREEN, Role.BOSS, Role.PROFITEER, Role.SABOTEUR, Role.SABOTEUR]


def _reach_gold(table: Any, finisher: int, doors: dict[int, str], front: dict[int, set[Front]] | None = None,
                roles: list[Role] = SEVEN) -> Any:
    cells = [(c, 0, doors.get(c, "straight-horizontal")) for c in range(1, 7)]
    hands: list[list[str]] = [[] for _ in range(7)]
    hands[finisher] = ["straight-horizontal"]
    st = table.build(7, edition="deluxe", cells=cells, hands=hands, roles=roles, turn=finisher,
                     goals=("coal-a", "gold", "coal-b"), front=front)
    return table.play(st, finisher, PlayPath(K("straight-horizontal"), 7, 0))


def _paid(events: tuple[Any, ...]) -> dict[int, int | None]:
    return {e.seat: e.amount for e in events if isinstance(e, GoldPaid)}


def test_worked_example_boss_through_a_blue_door_three_winners_share_three(table: Any) -> None:
    st, events = _reach_gold(table, finisher=3, doors={3: "blue-door-horizontal"})
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.team == "blue" and ended.winners == (0, 3, 4)
    assert _paid(events) == {0: 3, 3: 2, 4: 1}
    assert st.gold == (3, 0, 0, 2, 1, 0, 0)


def test_green_miner_blocked_by_a_blue_door_hands_the_win_to_blue(table: Any) -> None:
    _, events = _reach_gold(table, finisher=1, doors={2: "blue-door-horizontal"})
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.team == "blue" and ended.winners == (0, 3, 4)


def test_green_miner_on_an_open_route_wins_for_green(table: Any) -> None:
    _, events = _reach_gold(table, finisher=1, doors={2: "green-door-horizontal"})
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.team == "green" and ended.winners == (1, 2, 3, 4)
    assert _paid(events) == {1: 2, 2: 2, 3: 1}  # share 2; profiteer 2 - 2 = 0 is not paid


def test_neutral_finisher_without_doors_lets_both_teams_win(table: Any) -> None:
    _, events = _reach_gold(table, finisher=5, doors={})
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.team == "green+blue" and ended.winners == (0, 1, 2, 3, 4)
    assert _paid(events) == {0: 1, 1: 1, 2: 1}  # five winners: 1 each; boss 0, profiteer 0


def test_a_win_of_both_colours_reads_as_both_teams_in_russian(table: Any) -> None:
    st, events = _reach_gold(table, finisher=5, doors={})
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert "победили зелёные + синие" in GAME.text(None, (ended,), "ru")
    board = " ".join(render(st, seat=0, lang="ru").split())  # the round's result, as the table shows it (unwrapped)
    assert "победили зелёные + синие" in board
    assert "green+blue" not in board and "green+blue" not in TEXTS.missing("ru")


def test_route_blocked_for_both_colours_is_a_win_for_the_saboteurs(table: Any) -> None:
    _, events = _reach_gold(table, finisher=1, doors={2: "green-door-horizontal", 4: "blue-door-horizontal"})
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.team == "saboteurs" and ended.winners == (4, 5, 6)
    assert _paid(events) == {4: 1, 5: 3, 6: 3}


def test_saboteurs_win_with_the_profiteer_when_the_gold_is_not_reached(table: Any) -> None:
    st = table.build(7, edition="deluxe", roles=SEVEN, hands=[["map"]] + [[] for _ in range(6)])
    _, events = table.play(st, 0, Discard((K("map"),)))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.team == "saboteurs" and ended.winners == (4, 5, 6)


def test_share_table_5_4_3_2_1() -> None:
    assert [d.deluxe_share(n) for n in range(1, 8)] == [5, 4, 3, 2, 1, 1, 1]


def test_trapped_winner_gets_no_share_and_is_not_counted(table: Any) -> None:
    _, events = _reach_gold(table, finisher=3, doors={3: "blue-door-horizontal"}, front={0: {Front.TRAPPED}})
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.winners == (3, 4)
    assert _paid(events) == {3: 3, 4: 2}


def test_geologists_split_the_visible_crystals_rounded_down(table: Any) -> None:
    """R2 (facts section 14): two geologists split one nugget per crystal, rounded down (the default)."""
    roles = [Role.GEOLOGIST, Role.GEOLOGIST, Role.SABOTEUR]
    cells = [(1, 0, "crystal-crossroads"), (2, 0, "crystal-t-horizontal"), (3, 0, "crystal-t-horizontal")]
    st = table.build(3, edition="deluxe", roles=roles, cells=cells, hands=[["map"], [], []])
    _, events = table.play(st, 0, Discard((K("map"),)))
    assert _paid(events) == {0: 1, 1: 1, 2: 5}
    st = table.build(3, edition="deluxe", roles=roles, cells=cells, hands=[["map"], [], []],
                     front={1: {Front.TRAPPED}})
    _, events = table.play(st, 0, Discard((K("map"),)))
    assert _paid(events) == {0: 1, 2: 5}


def test_geologists_option_each_pays_every_geologist_one_nugget_per_crystal(table: Any) -> None:
    """S0: "Сколько кристаллов на карте тоннелей, столько золота получает игрок" (option ``geologists="each"``)."""
    roles = [Role.GEOLOGIST, Role.GEOLOGIST, Role.SABOTEUR]
    cells = [(1, 0, "crystal-crossroads"), (2, 0, "crystal-t-horizontal"), (3, 0, "crystal-t-horizontal")]
    st = table.build(3, edition="deluxe", roles=roles, cells=cells, hands=[["map"], [], []], geologists="each")
    _, events = table.play(st, 0, Discard((K("map"),)))
    assert _paid(events) == {0: 3, 1: 3, 2: 5}
    st = table.build(3, edition="deluxe", roles=roles[:1] + [Role.SABOTEUR] * 2, cells=cells,
                     hands=[["map"], [], []])
    _, events = table.play(st, 0, Discard((K("map"),)))
    assert _paid(events)[0] == 3  # one geologist: both readings pay every crystal


# -- new action cards (facts section 12) -----------------------------------------------------


def test_trapped_player_may_not_lay_path_cards(table: Any) -> None:
    st = table.build(edition="deluxe", hands=[["crossroads", "map"], [], [], []], front={0: {Front.TRAPPED}})
    assert not any(isinstance(c, PlayPath) for c in GAME.legal_commands(st, 0))


def test_trapped_is_played_on_another_player_and_free_at_last_releases(table: Any) -> None:
    st = table.build(edition="deluxe", hands=[["trapped", "free-at-last"], ["free-at-last"], [], []],
                     pile=["map", "map"])
    with pytest.raises(IllegalCommand, match="another player"):
        GAME.decide(st, 0, TargetAction(K("trapped"), 0), rng())
    st, _ = table.play(st, 0, TargetAction(K("trapped"), 1))
    assert st.front[1] == {Front.TRAPPED}
    st, _ = table.play(st, 1, TargetAction(K("free-at-last"), 1))
    assert st.front[1] == frozenset()


def test_no_two_action_cards_of_one_type_in_front_of_a_player(table: Any) -> None:
    st = table.build(edition="deluxe", hands=[["theft", "trapped"], [], [], []],
                     front={0: {Front.THEFT}, 2: {Front.TRAPPED}})
    legal = GAME.legal_commands(st, 0)
    assert TargetAction(K("theft"), 0) not in legal
    assert TargetAction(K("trapped"), 2) not in legal and TargetAction(K("trapped"), 1) in legal


def test_hands_off_removes_a_theft_card(table: Any) -> None:
    st = table.build(edition="deluxe", hands=[["hands-off"], [], [], []], pile=["map"])
    st = replace(st, front=(frozenset(), frozenset({Front.THEFT}), frozenset(), frozenset()), thieves=(1,))
    st, _ = table.play(st, 0, TargetAction(K("hands-off"), 1))
    assert st.front[1] == frozenset() and st.thieves == ()


def test_theft_order_last_played_first_then_clockwise_and_trapped_thieves_do_not_steal(table: Any) -> None:
    roles = [Role.SABOTEUR] * 3 + [Role.GREEN] * 4
    st = table.build(7, edition="deluxe", roles=roles, hands=[["map"]] + [[] for _ in range(6)],
                     front={6: {Front.TRAPPED}})
    st = replace(st, thieves=(5, 1, 3, 6), front=tuple(
        f | {Front.THEFT} if s in (5, 1, 3, 6) else f for s, f in enumerate(st.front)))
    st = replace(st, purse=replace(st.purse, gold=(0, 0, 0, 0, 0, 0, 9)))
    st, events = table.play(st, 0, Discard((K("map"),)))
    ready = next(e for e in events if isinstance(e, ThievesReady))
    # thieves 5, 1, 3 played in that order (6 is trapped): 3 steals first, then 5, then 1
    assert ready.order == (3, 5, 1)
    assert st.phase is Phase.THEFT and st.purse.theft_queue[0] == 3
    assert Steal(3) not in GAME.legal_commands(st, 3) and Steal(6) in GAME.legal_commands(st, 3)
    for thief in (3, 5, 1):
        assert GAME.to_act(st) == (thief,)
        st, _ = table.play(st, thief, Steal(6))
    assert st.gold[6] == 6 and st.phase is Phase.PLAY


def test_swap_your_hand_swaps_whole_hands_and_the_other_player_draws(table: Any) -> None:
    st = table.build(edition="deluxe", hands=[["swap-your-hand", "map"], ["rockfall", "rockfall"], [], []],
                     pile=["crossroads"])
    st, events = table.play(st, 0, SwapHand(K("swap-your-hand"), 1))
    assert st.hands[0] == (K("rockfall"), K("rockfall"))
    assert st.hands[1] == tuple(sorted((K("map"), K("crossroads"))))  # hands are kept sorted
    swap = events[0]
    assert GAME.redact(swap, 2).given is None and GAME.redact(swap, 1).given == (K("map"),)  # type: ignore[union-attr]


def test_inspection_shows_a_role_to_its_player_only(table: Any) -> None:
    roles = [Role.GREEN, Role.SABOTEUR, Role.BLUE, Role.BOSS]
    st = table.build(edition="deluxe", roles=roles, hands=[["inspection"], ["map"], [], []])
    st, events = table.play(st, 0, Inspect(K("inspection"), 1))
    assert GAME.view(st, 0).inspected == ((1, Role.SABOTEUR),)
    assert GAME.view(st, 2).inspected == ()
    assert GAME.redact(events[0], 2).role is None  # type: ignore[union-attr]
    assert Inspect.barrier


def test_swap_your_hats_draws_a_new_role_from_the_leftovers(table: Any) -> None:
    roles = [Role.GREEN, Role.SABOTEUR, Role.BLUE, Role.BOSS]
    st = table.build(edition="deluxe", roles=roles, hands=[["swap-your-hats"], ["map"], [], []],
                     leftover=[Role.GEOLOGIST, Role.PROFITEER])
    st, events = table.play(st, 0, TargetAction(K("swap-your-hats"), 1))
    hat = next(e for e in events if isinstance(e, HatSwapped))
    assert hat.old is Role.SABOTEUR and hat.role in (Role.GEOLOGIST, Role.PROFITEER)
    assert st.roles[1] is hat.role
    assert len(st.deal.leftover_roles) == 1 and Role.SABOTEUR not in st.deal.leftover_roles  # the old card is out of play
    assert GAME.view(st, 1).role is hat.role
    assert GAME.redact(hat, 0).role is None  # type: ignore[union-attr]


def test_discard_two_cards_to_remove_one_card_in_front_then_draw_one(table: Any) -> None:
    st = table.build(edition="deluxe", hands=[["map", "map", "rockfall"], ["map"], [], []],
                     front={0: {Front.BROKEN_CART, Front.TRAPPED}}, pile=["crossroads", "crossroads"])
    cmd = ClearFront((K("map"), K("map")), Front.TRAPPED)
    assert cmd in GAME.legal_commands(st, 0)
    st, _ = table.play(st, 0, cmd)
    assert st.front[0] == {Front.BROKEN_CART}
    assert sorted(st.hands[0]) == sorted((K("rockfall"), K("crossroads")))


def test_clear_front_is_deluxe_only(table: Any) -> None:
    st = table.build(hands=[["map", "map"], [], [], []], front={0: {Front.BROKEN_CART}})
    with pytest.raises(IllegalCommand, match="Deluxe"):
        GAME.decide(st, 0, ClearFront((K("map"), K("map")), Front.BROKEN_CART), rng())


def test_pass_discards_one_card_or_up_to_three_as_an_option(table: Any) -> None:
    hands = [["map", "rockfall", "theft"], ["map"], [], []]
    st = table.build(edition="deluxe", hands=hands, pile=["crossroads"] * 3)
    assert not any(isinstance(c, Discard) and len(c.cards) > 1 for c in GAME.legal_commands(st, 0))
    st = table.build(edition="deluxe", hands=hands, pile=["crossroads"] * 3, pass_discards=3)
    three = tuple(sorted((K("map"), K("rockfall"), K("theft"))))
    assert Discard(three) in GAME.legal_commands(st, 0)
    st, _ = table.play(st, 0, Discard(three))
    assert st.hands[0] == (K("crossroads"),) * 3
    with pytest.raises(IllegalCommand, match="ascending"):
        GAME.decide(table.build(edition="deluxe", hands=hands, pass_discards=3), 0,
                    Discard((K("theft"), K("map"))), rng())


def test_swap_your_hats_may_target_yourself(table: Any) -> None:
    st = table.build(edition="deluxe", roles=[Role.SABOTEUR, Role.GREEN, Role.BLUE, Role.BOSS],
                     hands=[["swap-your-hats"], ["map"], [], []], leftover=[Role.GEOLOGIST])
    assert TargetAction(K("swap-your-hats"), 0) in GAME.legal_commands(st, 0)
    st, _ = table.play(st, 0, TargetAction(K("swap-your-hats"), 0))
    assert st.roles[0] is Role.GEOLOGIST and st.deal.leftover_roles == ()
    assert GAME.view(st, 0).role is Role.GEOLOGIST


def test_thief_with_nobody_to_rob_is_skipped(table: Any) -> None:
    roles = [Role.SABOTEUR, Role.GREEN, Role.GREEN, Role.BLUE]
    st = table.build(edition="deluxe", roles=roles, hands=[["map"], [], [], []])
    st = replace(st, thieves=(1,), front=(frozenset(), frozenset({Front.THEFT}), frozenset(), frozenset()))
    # the lone saboteur wins 5, so thief 1 robs seat 0
    st, _ = table.play(st, 0, Discard((K("map"),)))
    assert st.phase is Phase.THEFT and GAME.legal_commands(st, 1) == [Steal(0)]
    st = table.build(edition="deluxe", roles=[Role.GREEN] * 4, hands=[["map"], [], [], []])
    st = replace(st, thieves=(1,), front=(frozenset(), frozenset({Front.THEFT}), frozenset(), frozenset()))
    st, _ = table.play(st, 0, Discard((K("map"),)))  # nobody holds gold: no theft
    assert st.phase is Phase.PLAY and st.round == 2


def test_hands_off_needs_a_theft_card(table: Any) -> None:
    st = table.build(edition="deluxe", hands=[["hands-off"], [], [], []])
    assert not any(isinstance(c, TargetAction) for c in GAME.legal_commands(st, 0))
    with pytest.raises(IllegalCommand, match="no Theft card"):
        GAME.decide(st, 0, TargetAction(K("hands-off"), 1), rng())
