"""Worlds from a view (``Game.world``): what search bots sample must respect everything the seat knows."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import meeple
from meeple.bots import ISMCTS
from meeple.engine import ENGINE, Command, Rng
from meeple.games.saboteur import GAME
from meeple.games.saboteur import world as saboteur_world
from meeple.games.saboteur.bot import HeuristicBot, Suspicion
from meeple.games.saboteur.commands import Discard, PeekGoal, SwapHand
from meeple.games.saboteur.data import GOLD_CARDS, GoalKind, Role, deck, kind_id
from meeple.games.saboteur.state import Phase, State, replace
from meeple.testing import Playout, check_worlds, playout

DELUXE = {"edition": "deluxe"}


def heuristic_playout(seats: int, options: dict[str, Any], seed: int) -> Playout:
    """A whole match of heuristic bots, as a playout for the conformance checks."""
    m = meeple.Match.start("saboteur", seats, seed=seed, options=options)
    bots = [HeuristicBot(seed * 31 + s) for s in range(seats)]
    moves: list[tuple[int, Command]] = []
    while not m.is_over:
        seat = next(s for s in m.to_act if s != ENGINE)
        cmd = bots[seat].choose(m.view(seat), m.legal(seat), seat)
        m.play(seat, cmd)
        moves.append((seat, cmd))
    return Playout(m, moves, seed, seed)


@pytest.mark.parametrize(("seats", "options"), [
    (3, {}), pytest.param(10, {}, marks=pytest.mark.slow), (5, {"saboteur_pay": "cards", "gold_cards": "miners"}),
    (2, DELUXE), pytest.param(12, DELUXE, marks=pytest.mark.slow),
    pytest.param(5, {**DELUXE, "pass_discards": 3}, marks=pytest.mark.slow),
])
def test_worlds_pass_the_check_on_random_playouts(seats: int, options: dict[str, Any]) -> None:
    check_worlds(playout("saboteur", seats, options, seed=seats, bot_seed=1), samples=8, worlds=6)


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "options"), [(4, {}), (8, {"round_end": "lap"}), (4, DELUXE), (9, DELUXE)])
def test_worlds_pass_the_check_on_heuristic_playouts(seats: int, options: dict[str, Any]) -> None:
    check_worlds(heuristic_playout(seats, options, seed=seats), samples=8, worlds=6)


def _positions(options: dict[str, Any], seats: int, seeds: range, want: type[Command]) -> list[tuple[meeple.Match, int]]:
    """Matches (forked) right after a command of type ``want``, with the seat that played it."""
    out = []
    for seed in seeds:
        m = meeple.Match.start("saboteur", seats, seed=seed, options=options)
        bots = [meeple.RandomBot(seed * 7 + s) for s in range(seats)]
        while not m.is_over and len(out) < 6:
            seat = next(s for s in m.to_act if s != ENGINE)
            cmd = bots[seat].choose(m.view(seat), m.legal(seat), seat)
            m.play(seat, cmd)
            if isinstance(cmd, want) and m.state.phase.value == "play":
                out.append((m.fork(), seat))
    return out


def _unseen(state: State, seat: int) -> Counter[int]:
    """Every card ``seat`` cannot see: others' hands and discards, the pile and the cards set aside."""
    out: Counter[int] = Counter(state.pile) + Counter(state.deal.set_aside)
    for s in range(state.seats):
        if s != seat:
            out += Counter(state.hands[s]) + Counter(state.discards[s])
    return out


def test_a_swapper_knows_the_cards_it_gave_away_in_every_world() -> None:
    found = _positions(DELUXE, 4, range(40), SwapHand)
    checked = 0
    for m, seat in found:
        view = m.view(seat)
        known = [k for k in view.known_hands if k.viewer == seat and k.sure]
        checked += bool(known)  # a swapper that gave away no card (its hand was the swap card alone) knows nothing
        for k in range(12):
            w = GAME.world(view, seat, Rng(k))
            for kh in known:
                assert sum((Counter(w.hands[kh.holder]) & Counter(kh.cards)).values()) >= kh.sure
    assert checked, "no hand swap that gave cards away in 40 random matches"


def test_a_seats_own_discards_stay_its_own_and_the_unseen_cards_are_the_true_ones() -> None:
    found = _positions({**DELUXE, "pass_discards": 3}, 5, range(10), Discard)
    assert found
    for m, seat in found:
        true, view = m.state, m.view(seat)
        assert view.discarded == true.discards[seat] and view.discarded
        hands = set()
        for k in range(10):
            w = GAME.world(view, seat, Rng(k))
            assert w.discards[seat] == true.discards[seat]
            assert _unseen(w, seat) == _unseen(true, seat)  # the same cards, dealt elsewhere
            assert [len(d) for d in w.discards] == [len(d) for d in true.discards]
            hands.add(w.hands[(seat + 1) % 5])
        assert len(hands) > 1


def test_the_views_new_facts_are_public_or_the_seats_own() -> None:
    m = meeple.Match.start("saboteur", 4, seed=3, options={**DELUXE, "pass_discards": 3})
    seat = m.to_act[0]
    m.play(seat, Discard((m.view(seat).hand[0],)))
    assert m.view(seat).discarded == (m.state.discards[seat])
    assert m.view((seat + 1) % 4).discarded == () and m.view(None).discarded == ()
    assert m.view(None).discard_counts == tuple(len(d) for d in m.state.discards)
    assert m.view(None).options == m.state.options


def test_a_spectators_world_hides_every_hand_and_role() -> None:
    m = meeple.Match.start("saboteur", 5, seed=4)
    worlds = [GAME.world(m.view(None), None, Rng(k)) for k in range(10)]
    assert all(GAME.view(w, None) == m.view(None) for w in worlds)
    assert len({w.hands for w in worlds}) > 1 and len({w.deal.roles for w in worlds}) > 1
    assert all(Counter(w.deal.roles) == Counter(m.state.deal.roles + m.state.deal.leftover_roles)
               - Counter(w.deal.leftover_roles) for w in worlds)


def test_ismcts_plays_saboteur_from_its_view() -> None:
    m = meeple.Match.start("saboteur", 4, seed=5, options=DELUXE)
    seat = m.to_act[0]
    bot = ISMCTS("saboteur", seed=1, iterations=30)
    choice = bot.choose(m.view(seat), m.legal(seat), seat)
    assert choice in m.legal(seat)
    assert ISMCTS("saboteur", seed=1, iterations=30).choose(m.view(seat), m.legal(seat), seat) == choice


def test_deck_holds_every_card_a_world_deals() -> None:
    m = meeple.Match.start("saboteur", 6, seed=9)
    w = GAME.world(m.view(2), 2, Rng(1))
    dealt = Counter(w.pile) + sum((Counter(h) for h in w.hands), Counter())
    assert dealt == Counter(deck(False))


def _suspect_position() -> tuple[meeple.Match, int, int, int]:
    """A heuristic match in play where a digger's view scores one other player as suspect and another as trusted."""
    for seed in range(1, 40):
        m = meeple.Match.start("saboteur", 3, seed=seed)
        bots = [HeuristicBot(seed * 31 + s) for s in range(3)]
        while not m.is_over:
            seat = next(s for s in m.to_act if s != ENGINE)
            view = m.view(seat)
            if m.state.phase is Phase.PLAY and view.role is Role.MINER and len(view.deeds) >= 4:
                suspicion = Suspicion()
                suspicion.update(view, me_digger=True)
                scores = suspicion.others(view, seat)
                hi, lo = max(scores, key=scores.__getitem__), min(scores, key=scores.__getitem__)
                if scores[hi] >= 2 and scores[lo] <= -1 and not view.inspected:
                    return m, seat, hi, lo
            m.play(seat, bots[seat].choose(view, m.legal(seat), seat))
    raise AssertionError("no suspect in 40 heuristic matches")


def test_a_suspected_player_is_dealt_the_saboteur_more_often_than_a_trusted_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    m, seat, suspect, trusted = _suspect_position()
    view = m.view(seat)

    def saboteurs() -> Counter[int]:
        out: Counter[int] = Counter()
        for k in range(300):
            w = GAME.world(view, seat, Rng(k))
            assert GAME.view(w, seat) == view
            out.update(s for s in range(3) if w.deal.roles[s] is Role.SABOTEUR)
        return out

    weighed = saboteurs()
    monkeypatch.setattr(saboteur_world, "SUSPICION_WEIGHT", 0.0)
    uniform = saboteurs()
    assert weighed[seat] == uniform[seat] == 0  # the seat knows its own card
    assert abs(uniform[suspect] - uniform[trusted]) < 45  # both a third of the time, with no weighing
    assert weighed[suspect] > 1.5 * uniform[suspect] and weighed[trusted] < 0.67 * uniform[trusted]


def _paid_position() -> tuple[meeple.Match, int]:
    """A heuristic match in the third round's play after a miners' payout, and the seat to act."""
    for seed in range(1, 40):
        m = meeple.Match.start("saboteur", 3, seed=seed)
        bots = [HeuristicBot(seed * 31 + s) for s in range(3)]
        while not m.is_over:
            seat = next(s for s in m.to_act if s != ENGINE)
            state = m.state
            if (state.phase is Phase.PLAY and state.round == 3 and any(r.team == "miners" for r in state.results)
                    and sum(state.purse.gold) + sum(state.purse.deck) == sum(GOLD_CARDS)):
                return m, seat
            m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    raise AssertionError("no miners' payout in 40 heuristic matches")


def test_worlds_deal_the_hidden_gold_as_the_true_payouts_may_have_gone() -> None:
    m, seat = _paid_position()
    view, true = m.view(seat), m.state.purse
    totals: Counter[tuple[int, ...]] = Counter()
    for k in range(200):
        w = GAME.world(view, seat, Rng(k))
        assert GAME.view(w, seat) == view
        assert w.purse.gold[seat] == true.gold[seat]  # the seat knows its own gold
        # every gold card is in someone's purse or still in the gold deck, as in the true state
        assert sum(w.purse.gold) + sum(w.purse.deck) == sum(GOLD_CARDS)
        totals[w.purse.gold] += 1
    assert true.gold in totals  # the true totals are among the worlds' ...
    assert len(totals) > 1  # ... and the worlds do not all agree on what the view hides


# -- the goals other players looked at -------------------------------------------------------------------------------

MAP, STRAIGHT, CROSSROADS = kind_id("map"), kind_id("straight-horizontal"), kind_id("crossroads")


def _maps_played(table: Any, goals: tuple[str, str, str], peeks: tuple[int, ...]) -> State:
    """Seat 1 plays a map at each of ``peeks`` in turn, the other two discarding between; seat 0 (a miner) to act."""
    hands = [["straight-horizontal"] * 2, ["map"] * len(peeks), ["crossroads"] * 2]
    rest = Counter(deck(False))
    rest[STRAIGHT] -= 2
    rest[CROSSROADS] -= 2
    rest[MAP] -= len(peeks)
    st = table.build(3, hands=hands, goals=goals, turn=1, pile=[],
                     roles=[Role.MINER, Role.MINER, Role.SABOTEUR])
    st = replace(st, pile=tuple(sorted(rest.elements())))
    for i, goal in enumerate(peeks):
        st, _ = table.play(st, 1, PeekGoal(MAP, goal))
        if i < len(peeks) - 1:
            st, _ = table.play(st, 2, Discard((st.hands[2][0],)))
            st, _ = table.play(st, 0, Discard((st.hands[0][0],)))
    st, _ = table.play(st, 2, Discard((st.hands[2][0],)))
    assert st.turn == 0 and st.known.goals[1] == frozenset(peeks)
    return st


def test_another_players_map_shows_it_the_middle_goal_first(table: Any) -> None:
    st = _maps_played(table, ("coal-a", "gold", "coal-b"), (1,))
    view = GAME.view(st, 0)
    for k in range(20):
        w = GAME.world(view, 0, Rng(k))
        assert GAME.view(w, 0) == view
        assert w.known.goals == (frozenset(), frozenset({1}), frozenset())
        # in the world, seat 1 knows the goal its map showed, whatever the world dealt there
        assert GAME.view(w, 1).known_goals == ((1, w.deal.goal_kinds[1]),)


def test_a_player_who_looked_again_did_not_see_the_gold_first(table: Any) -> None:
    st = _maps_played(table, ("gold", "coal-a", "coal-b"), (1, 0))
    view = GAME.view(st, 0)
    golds: Counter[int] = Counter()
    for k in range(60):
        w = GAME.world(view, 0, Rng(k))
        assert GAME.view(w, 0) == view
        assert w.known.goals[1] == frozenset({0, 1})
        golds[w.deal.goal_kinds.index(GoalKind.GOLD)] += 1
    assert golds[1] == 0  # seat 1 would have played no second map had the middle goal been the gold
    assert golds[0] > 10 and golds[2] > 10
