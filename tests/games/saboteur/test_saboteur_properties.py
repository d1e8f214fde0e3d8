"""Engine conformance on every player count of both editions, and hypothesis properties.

Random bots rarely reach a goal, so the kit's checks also run on playouts by
the heuristic bot, which pays out gold in most rounds.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.engine import ENGINE, IllegalCommand, Rng
from meeple.games.saboteur import GAME
from meeple.games.saboteur.bot import HeuristicBot
from meeple.games.saboteur.state import Phase, replace
from meeple.testing import ALL_CHECKS, Playout, check_determinism, check_game, check_undo_redo


@pytest.mark.parametrize("seats", [*range(3, 6), *(pytest.param(n, marks=pytest.mark.slow) for n in range(6, 11))])
def test_conformance_base_game(seats: int) -> None:
    (p,) = check_game("saboteur", seats=seats, seeds=range(seats, seats + 1), max_steps=1500)
    assert p.match.is_over


@pytest.mark.parametrize("seats", [*range(2, 4), *(pytest.param(n, marks=pytest.mark.slow) for n in range(4, 13))])
def test_conformance_deluxe(seats: int) -> None:
    (p,) = check_game("saboteur", seats=seats, options={"edition": "deluxe"}, seeds=range(seats, seats + 1),
                      max_steps=1500)
    assert p.match.is_over


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "options"), [
    (6, {"edition": "deluxe", "pass_discards": 3}),
    (5, {"gold_cards": "miners", "gold_pass": "clockwise", "next_starter": "ender", "broken_tools_forfeit": True}),
])
def test_conformance_with_every_option(seats: int, options: dict[str, Any]) -> None:
    (p,) = check_game("saboteur", seats=seats, options=options, seeds=range(1), max_steps=1500)
    assert p.match.is_over


def test_base_gold_is_conserved_through_payouts() -> None:
    from meeple.games.saboteur.events import GoldPaid

    for seed in range(3):
        m = heuristic_playout(4 + seed, {}, seed=seed).match
        st = m.state
        change = sum(e.amount - sum(e.cards) for r in m.records for e in r.events
                     if isinstance(e, GoldPaid) and e.amount is not None and e.cards is not None)
        # 44 nuggets in the gold deck, plus what the bank added as change (usually nothing)
        assert sum(st.purse.deck) + sum(st.purse.offer) + sum(st.gold) == 44 + change
        assert any(r.team == "miners" for r in st.results)


def heuristic_playout(seats: int, options: dict[str, Any], seed: int) -> Playout:
    """A whole match played by heuristic bots, as a kit playout."""
    m = meeple.Match.start("saboteur", seats, seed=seed, options=options)
    bots = [HeuristicBot(seed * 31 + s) for s in range(seats)]
    moves = []
    while not m.is_over:
        seat = next(s for s in m.to_act if s != ENGINE)
        cmd = bots[seat].choose(m.view(seat), m.legal(seat), seat)
        m.play(seat, cmd)
        moves.append((seat, cmd))
    return Playout(m, moves, seed, seed)


@pytest.mark.slow  # whole heuristic matches, every check
@pytest.mark.parametrize(("seats", "options"), [
    (4, {}), (10, {}), (5, {"gold_cards": "miners", "next_starter": "ender", "broken_tools_forfeit": True}),
    (3, {"edition": "deluxe"}), (12, {"edition": "deluxe", "pass_discards": 3}),
])
def test_conformance_on_heuristic_playouts_with_payouts(seats: int, options: dict[str, Any]) -> None:
    p = heuristic_playout(seats, options, seed=seats + 100)
    teams = [r.team for r in p.match.state.results]
    assert len(teams) == 3
    for check in ALL_CHECKS:
        if check is check_determinism:
            check(p, options)
        elif check is check_undo_redo:
            undo_redo_between_player_commands(p)
        else:
            check(p)


def undo_redo_between_player_commands(p: Playout) -> None:
    """The kit's undo/redo check, at positions where no engine step is pending.

    ``check_undo_redo`` may seek into the middle of an engine chain (a round
    ended, its payout not yet run); redo then runs on to the end of the chain,
    so the cursor moves. Saboteur has such chains at every round end.
    """
    m = p.match.fork()
    for i in range(1, len(m) + 1, 7):
        m.seek(i)
        if ENGINE in m.to_act or not m.can_undo():
            continue
        state, head = m.state, m.head_hash
        m.undo()
        m.redo()
        assert m.state == state and m.head_hash == head, f"undo/redo moved the match at record {i}"


@given(seed=st.integers(0, 2**32), step=st.integers(0, 400), deluxe=st.booleans(), seats=st.integers(3, 10))
def test_every_listed_command_is_accepted(seed: int, step: int, deluxe: bool, seats: int) -> None:
    m = meeple.Match.start("saboteur", seats, seed=seed, options={"edition": "deluxe"} if deluxe else {})
    bot = HeuristicBot(seed)
    for _ in range(step):
        if m.is_over:
            break
        seat = m.to_act[0]
        m.play(seat, bot.choose(m.view(seat), m.legal(seat), seat))
    if m.is_over:
        return
    seat = m.to_act[0]
    for cmd in m.legal(seat):
        GAME.decide(m.state, seat, cmd, Rng(seed))  # never raises


@given(seed=st.integers(0, 2**32), step=st.integers(0, 300), watcher=st.integers(0, 5), shuffle=st.integers(0, 2**32))
def test_view_does_not_change_when_only_hidden_information_changes(seed: int, step: int, watcher: int,
                                                                    shuffle: int) -> None:
    m = meeple.Match.start("saboteur", 6, seed=seed, options={"edition": "deluxe"} if seed % 2 else {})
    bot = HeuristicBot(seed)
    for _ in range(step):
        if m.is_over:
            break
        seat = m.to_act[0]
        m.play(seat, bot.choose(m.view(seat), m.legal(seat), seat))
    state = m.state
    other = GAME.determinize(state, watcher, Rng(shuffle))
    assert GAME.view(other, watcher) == GAME.view(state, watcher)
    # legal commands depend only on what the acting seat may know
    if state.phase is Phase.PLAY and state.turn == watcher:
        assert list(GAME.legal_commands(other, watcher)) == list(GAME.legal_commands(state, watcher))


def test_changing_another_hand_or_the_goals_leaves_a_view_alone() -> None:
    m = meeple.Match.start("saboteur", 5, seed=11)
    st0 = m.state
    hands = list(st0.hands)
    hands[3], pile = tuple(sorted((st0.pile[0], *hands[3][1:]))), (hands[3][0], *st0.pile[1:])
    changed = replace(st0, hands=tuple(hands), pile=tuple(sorted(pile)),
                      deal=replace(st0.deal, goal_kinds=tuple(reversed(st0.deal.goal_kinds))))
    assert GAME.view(changed, 0) == GAME.view(st0, 0)
    assert GAME.view(changed, 3) != GAME.view(st0, 3)


def test_views_hide_roles_hands_and_gold_until_they_are_public() -> None:
    full = heuristic_playout(5, {}, seed=3).match
    assert full.is_over
    assert full.view(2).gold == full.state.gold
    assert [r.roles for r in full.view(None).results] == [r.roles for r in full.state.results]
    m = full.fork(at=1)
    v = m.view(2)
    assert v.role is m.state.roles[2] and v.hand == m.state.hands[2]
    assert v.results == () and v.gold is None and v.my_gold == 0
    spectator = m.view(None)
    assert spectator.role is None and spectator.hand == () and spectator.my_gold is None


def test_redacted_deal_shows_each_seat_only_its_own_role_and_hand() -> None:
    m = meeple.Match.start("saboteur", 4, seed=5, options={"edition": "deluxe"})
    (deal,) = m.records[0].events
    red = GAME.redact(deal, 1)
    assert red.roles == (None, m.state.roles[1], None, None)  # type: ignore[union-attr]
    assert red.hands[1] == m.state.hands[1] and red.hands[0] is None  # type: ignore[union-attr]
    assert red.pile is None and red.set_aside is None and red.goals is None  # type: ignore[union-attr]
    assert red.leftover_roles is None  # type: ignore[union-attr]


def test_illegal_command_names_the_rule_and_changes_nothing() -> None:
    m = meeple.Match.start("saboteur", 4, seed=5)
    before = m.to_bytes()
    from meeple.games.saboteur.commands import TakeGold

    with pytest.raises(IllegalCommand, match="not your turn to take a gold card"):
        m.play(0, TakeGold(3))
    assert m.to_bytes() == before


def _random_boards(seed: int, deluxe: bool, seats: int, records: int) -> list[Any]:
    """The board after each command of a match of random legal commands, up to ``records`` records."""
    m = meeple.Match.start(GAME, seats, seed=seed, options={"edition": "deluxe"} if deluxe else {})
    pick = Rng(seed)
    boards = []
    while m.to_act and len(m) < records:
        seat = m.to_act[0]
        legal = m.legal(seat)
        m.play(seat, legal[pick.below(len(legal))])
        boards.append(m.state.board)
    return boards


def _network_laid_card_by_card(board: Any) -> Any:
    """The network of ``board`` built as :meth:`Network.laid` builds it: the start, turned goals, then each card."""
    from meeple.games.saboteur.board import START_TILE, Network, goal_tile, shape
    from meeple.games.saboteur.data import START_EDGES, START_POSITION

    net = Network({}, {(g.col, g.row): i for i, g in enumerate(board.goals) if g.kind is None}, set(), {}, {})
    net._place(START_POSITION, START_TILE, entry=START_EDGES)
    for g in board.goals:
        if g.kind is not None:
            net._place((g.col, g.row), goal_tile(g.kind, g.rotated))
    for c in board.cells:
        net._place((c.col, c.row), shape(c.kind, c.rotated))
    return net


@given(seed=st.integers(0, 2**32), deluxe=st.booleans(), seats=st.integers(3, 10))
def test_a_network_worked_out_at_once_is_the_one_laid_card_by_card(seed: int, deluxe: bool, seats: int) -> None:
    from meeple.games.saboteur.board import Board, Network

    for board in _random_boards(seed, deluxe, seats, 400)[::3]:
        whole, laid = Network.of(Board(board.cells, board.goals)), _network_laid_card_by_card(board)
        assert (whole.tiles, whole.goals, whole.reached, whole.holes, whole.arrivals) == (
            laid.tiles, laid.goals, laid.reached, laid.holes, laid.arrivals)
        assert whole.frontier() == board.network.frontier()  # and the network the match built as it went


@pytest.mark.slow
@given(seed=st.integers(0, 2**32), deluxe=st.booleans(), seats=st.integers(3, 10))
def test_a_network_after_a_rockfall_is_the_one_worked_out_at_once(seed: int, deluxe: bool, seats: int) -> None:
    from meeple.games.saboteur.board import Board, Network

    checked = 0
    boards = _random_boards(seed, deluxe, seats, 300)
    for board in boards[::5]:
        for cell in board.cells[::2]:  # every other card taken away, the ones next to the start among them
            rest = tuple(c for c in board.cells if c != cell)
            whole = Network.of(Board(rest, board.goals))
            for after in (board.network.removed((cell.col, cell.row)), board.remove(cell.col, cell.row).network):
                assert (after.tiles, after.goals, after.reached, after.holes, after.arrivals) == (
                    whole.tiles, whole.goals, whole.reached, whole.holes, whole.arrivals)
                assert after.frontier() == whole.frontier() and after.sorted_holes() == whole.sorted_holes()
            checked += 1
    assert checked or not any(b.cells for b in boards[::5])


def test_every_new_board_has_its_own_copy_of_the_new_rounds_network() -> None:
    from meeple.games.saboteur.board import Board, Cell, Network

    def parts(net: Network) -> tuple[Any, ...]:
        return (net.tiles, net.goals, net.reached, net.holes, net.arrivals, net.frontier())

    first, second = Board.new(), Board.new()
    whole = Network.of(Board((), first.goals))
    assert parts(first.network) == parts(whole) and first.network is not second.network
    first.network.memo["mark"] = 1
    grown = first.lay(Cell(1, 0, 0)).network  # a crossroads east of the start
    assert parts(second.network) == parts(whole) and "mark" not in second.network.memo
    assert (2, 0) in grown.holes and (2, 0) not in second.network.holes


@given(st.lists(st.sets(st.sampled_from(["broken-pickaxe", "broken-lantern", "broken-cart", "theft", "trapped"])),
                min_size=2, max_size=12), st.data())
def test_breaks_and_repairs_kept_by_the_cards_in_front_are_those_worked_out_anew(fronts: list[set[str]],
                                                                                 data: st.DataObject) -> None:
    from meeple.games.saboteur import rules, tables
    from meeple.games.saboteur.data import KINDS, Action
    from meeple.games.saboteur.state import Front

    front = tuple(frozenset(Front(f) for f in fs) for fs in fronts)
    state = replace(meeple.Match.start("saboteur", 3, seed=1).state, seats=len(front), front=front)
    kind = data.draw(st.sampled_from([i for i, k in enumerate(KINDS) if k.action in (Action.BREAK, Action.REPAIR)]))
    if KINDS[kind].action is Action.BREAK:
        broken, on = tables.BREAKS[kind], tables.ON_PLAYER[kind]
        fresh = [on[t] for t in range(len(front)) if broken not in front[t]]
        assert list(rules._on_tools(state, 0, kind)) == fresh == list(rules._on_tools(state, 1, kind))
    else:
        fresh = [c for t in range(len(front)) for broken, c in tables.REPAIRS[kind][t] if broken in front[t]]
        assert list(rules._on_tools(state, 0, kind)) == fresh == list(rules._on_tools(state, 1, kind))


def test_every_state_of_a_match_and_of_a_world_keeps_its_fields_in_a_dict_of_its_own() -> None:
    import sys

    from meeple.games.saboteur.world import world

    def own(value: object) -> bool:  # a dict sharing the class's key table is smaller than a dict of its own
        fields = vars(value)
        return sys.getsizeof(fields) == sys.getsizeof(dict(fields))

    m = meeple.Match.start("saboteur", 4, seed=3)
    pick = Rng(11)
    states = [m.state]
    while m.to_act and len(states) < 400:
        seat = m.to_act[0]
        legal = m.legal(seat)
        m.play(seat, legal[pick.below(len(legal))])
        states.append(m.state)
    assert states[0].round == 1 and all(own(s) for s in states)
    assert own(world(m.view(1), 1, Rng(2))) and own(GAME.initial_state(4, GAME.options_type()))


def _one_by_one(state: Any, events: Any) -> Any:
    for e in events:
        state = GAME.evolve(state, e)
    return state


@given(seed=st.integers(0, 2**32), seats=st.integers(2, 12),
       options=st.sampled_from([{}, {"edition": "deluxe"}, {"round_end": "lap"},
                                {"edition": "deluxe", "pass_discards": 3, "round_end": "lap"}]))
def test_a_records_fold_is_its_events_folded_one_by_one(seed: int, seats: int, options: dict[str, Any]) -> None:
    if "edition" not in options:
        seats = max(seats, 3) if seats <= 10 else 10
    m = meeple.Match.start("saboteur", seats, seed=seed, options=options)
    pick = Rng(seed)
    shapes = set()
    while m.to_act and len(m) < 600:
        seat = m.to_act[0]
        legal = m.legal(seat)
        before = m.state
        events = m.play(seat, legal[pick.below(len(legal))])
        assert m.state == _one_by_one(before, events), f"record {len(m) - 1}: {events!r}"
        shapes.add(tuple(type(e).__name__ for e in events))
    assert ("CardsDiscarded", "CardDrawn", "TurnEnded") in shapes
    assert len(m) < 600 or ("CardsDiscarded", "TurnEnded") in shapes  # a pass once the pile is out


def test_a_fold_of_forged_turn_events_is_the_one_by_one_fold_or_fails_as_it_does() -> None:
    from meeple.games.saboteur.events import CardDrawn, CardsDiscarded, PathPlayed, ToolBroken, TurnEnded

    m = meeple.Match.start("saboteur", 4, seed=5)
    state = m.state
    hand, card = state.hands[0], state.pile[0]
    forged = [
        (CardsDiscarded(0, 1, (hand[0],)), CardDrawn(0, card), TurnEnded(0, 1)),  # honest
        (CardsDiscarded(-1, 1, (state.hands[-1][0],)), CardDrawn(-1, card), TurnEnded(-1, 0)),  # a seat below 0
        (CardsDiscarded(0, 1, (hand[0],)), CardDrawn(1, card), TurnEnded(0, 1)),  # another seat draws
        (CardsDiscarded(0, 1, (99,)), CardDrawn(0, card), TurnEnded(0, 1)),  # a card not held
        (PathPlayed(0, hand[0], 1, 0, False), CardDrawn(0, 999), TurnEnded(0, 1)),  # a card not in the pile
        (ToolBroken(0, hand[0], 2), CardDrawn(0, card), TurnEnded(0, 3)),
        (CardsDiscarded(7, 1, (hand[0],)), CardDrawn(7, card), TurnEnded(7, 0)),  # no such seat
        (CardsDiscarded(0, 1, (hand[0],)), TurnEnded(0, 1)),  # no draw
        (CardsDiscarded(-1, 1, (state.hands[-1][0],)), TurnEnded(-1, 0)),
        (PathPlayed(0, hand[0], 1, 0, False), TurnEnded(0, 2)),
        (PathPlayed(9, hand[0], 1, 0, False), TurnEnded(9, 2)),
        (ToolBroken(0, hand[0], 2), TurnEnded(0, 3)),
    ]
    for events in forged:
        try:
            expected: Any = _one_by_one(state, events)
        except Exception as e:
            expected = type(e)
        try:
            got: Any = GAME.fold(state, events)
        except Exception as e:
            got = type(e)
        assert got == expected, events


@given(st.lists(st.integers(0, 70), min_size=1, max_size=12), st.data())
def test_cards_leave_and_join_a_sorted_hand_in_their_place(cards: list[int], data: Any) -> None:
    from collections import Counter

    from meeple.games.saboteur.rules import add_card, remove_card, swap_card

    hand = tuple(sorted(cards))
    out = data.draw(st.sampled_from(hand))
    into = data.draw(st.integers(0, 70))
    fewer = remove_card(hand, out)
    assert Counter(fewer) == Counter(hand) - Counter([out]) and list(fewer) == sorted(fewer)
    more = add_card(hand, into)
    assert Counter(more) == Counter(hand) + Counter([into]) and list(more) == sorted(more)
    assert swap_card(hand, out, into) == add_card(fewer, into)
    with pytest.raises(ValueError):
        remove_card(hand, 71)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 120), deluxe=st.booleans())
def test_decide_accepts_a_path_card_exactly_where_the_legal_list_puts_it(seed: int, steps: int, deluxe: bool) -> None:
    """One rule for where a path card may go: what decide checks is what legal_commands lists, square by square."""
    from meeple.games.saboteur.commands import PlayPath
    from meeple.games.saboteur.data import KINDS, Category
    from meeple.games.saboteur.rules import blocked, path_allowed

    m = meeple.Match.start("saboteur", 5, seed=seed, options={"edition": "deluxe"} if deluxe else {})
    pick = Rng(seed)
    for _ in range(steps):
        if m.state.phase is not Phase.PLAY:
            break
        seat = m.to_act[0]
        legal = m.legal(seat)
        m.play(seat, legal[pick.below(len(legal))])
    state = m.state
    if state.phase is not Phase.PLAY or blocked(state, state.turn):
        return
    listed = {(c.card, c.col, c.row, c.rotated) for c in GAME.legal_commands(state, state.turn) if isinstance(c, PlayPath)}
    kinds = {k for k in state.hands[state.turn] if KINDS[k].category is Category.PATH}
    for kind in kinds:
        for col in range(-3, 11):
            for row in range(-5, 6):
                for rotated in (False, True):
                    allowed = path_allowed(state, kind, col, row, rotated) is None
                    assert allowed == ((kind, col, row, rotated) in listed), (kind, col, row, rotated)

