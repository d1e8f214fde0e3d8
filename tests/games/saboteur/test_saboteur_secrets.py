"""Secrets: nothing a seat is shown tells it what it may not know, and ``determinize`` re-deals the rest.

Scenario tests from hand-built positions pin what each card teaches (a hand
swap, an Inspection, Swap Your Hats, the gold offer); hypothesis properties
check, over random matches, that views and legal commands are the same in
every world ``determinize`` deals for a seat, that those worlds really differ,
and that two tables differing only in other players' secrets look the same
to a seat at every step (its view, the events and the commands it is shown).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.engine import ENGINE, Command, Rng, seen_by
from meeple.engine.codec import pack, unstructure
from meeple.games.saboteur import GAME
from meeple.games.saboteur.bot import HeuristicBot
from meeple.games.saboteur.commands import (
    ClearFront,
    Discard,
    Inspect,
    PeekGoal,
    PlayPath,
    SwapHand,
    TakeGold,
    TargetAction,
)
from meeple.games.saboteur.data import GOLD_CARDS, Role, kind_id
from meeple.games.saboteur.events import GoalRevealed, RoundEnded
from meeple.games.saboteur.state import Front, KnownHand, Phase, State, replace

K = kind_id
DELUXE = {"edition": "deluxe"}


def worlds(state: State, seat: int | None, count: int = 40) -> list[State]:
    """``count`` worlds ``seat`` cannot tell from ``state``."""
    return [GAME.determinize(state, seat, Rng(1000 + i)) for i in range(count)]


# -- commands: secret fields -------------------------------------------------------------


def test_the_value_of_a_gold_card_taken_is_secret() -> None:
    assert TakeGold.secret == ("value",)
    assert GAME.redact_command(TakeGold(3), 2, 0) == TakeGold(None)  # type: ignore[arg-type]
    assert GAME.redact_command(TakeGold(3), 2, 2) == TakeGold(3)
    assert GAME.describe(TakeGold(None)) == "take a gold card"  # type: ignore[arg-type]
    assert GAME.describe(TakeGold(3)) == "take a gold card worth 3"


def test_describe_tells_nothing_secret_of_a_redacted_command() -> None:
    assert GAME.describe(Discard(None)) == "pass, discarding face down"  # type: ignore[arg-type]
    assert GAME.describe(ClearFront(None, Front.TRAPPED)) == "discard two cards to remove your trapped"  # type: ignore[arg-type]
    assert "map" in GAME.describe(Discard((K("map"),)))


def test_every_command_field_that_reveals_a_hand_is_declared_secret() -> None:
    """A face-down discard's cards and a gold card's value; every other field is played face up."""
    secret = {c.tag: c.secret for c in GAME.commands if c.secret}
    assert secret == {"discard": ("cards",), "clear": ("cards",), "take": ("value",)}


def test_a_gold_offer_taken_in_a_match_reads_as_a_card_to_every_other_seat() -> None:
    for seed in range(20):
        m = heuristic_match(5, {}, seed)
        records = [r for r in m.records if isinstance(r.command, TakeGold)]
        if records:
            break
    else:
        pytest.fail("no miners' payout in 20 matches")
    r = records[0]
    other = (r.actor + 1) % 5
    seen = seen_by(GAME, r, other)
    assert seen.command == TakeGold(None)  # type: ignore[arg-type]
    assert all(getattr(e, "value", None) is None for e in seen.events)
    assert GAME.describe(seen.command) == "take a gold card"
    assert seen_by(GAME, r, r.actor).command == r.command


# -- Swap Your Hand: what a swap teaches (S0, R2; issue: determinize ignored it) ---------------


def _swap_table(table: Any, **options: Any) -> State:
    hands = [["swap-your-hand", "map", "rockfall"], ["crossroads", "crossroads"], ["trapped", "bridge"], ["theft"]]
    pile = ["curve-a", "curve-b", "straight-vertical", "inspection", "hands-off", "free-at-last"] * 3
    state: State = table.build(edition="deluxe", hands=hands, pile=pile, **options)
    return state


def test_a_hand_swap_shows_each_player_the_hand_it_gave_away(table: Any) -> None:
    st, _ = table.play(_swap_table(table), 0, SwapHand(K("swap-your-hand"), 1))
    given = tuple(sorted((K("map"), K("rockfall"))))
    assert GAME.view(st, 0).known_hands == (KnownHand(0, 1, given, 2),)
    assert GAME.view(st, 1).known_hands == (KnownHand(1, 0, (K("crossroads"),) * 2, 2),)
    assert GAME.view(st, 2).known_hands == () and GAME.view(st, None).known_hands == ()
    assert "you know seat 1 holds rockfall, map" in GAME.render(st, 0)


def test_determinize_keeps_the_cards_a_swapper_gave_away(table: Any) -> None:
    st, _ = table.play(_swap_table(table), 0, SwapHand(K("swap-your-hand"), 1))
    real = st.hands[1]
    assert Counter(real) >= Counter({K("map"): 1, K("rockfall"): 1}) and len(real) == 3  # plus the card drawn
    drawn = set()
    for w in worlds(st, 0):
        assert Counter(w.hands[1]) >= Counter({K("map"): 1, K("rockfall"): 1})
        drawn.add(tuple(sorted((Counter(w.hands[1]) - Counter({K("map"): 1, K("rockfall"): 1})).elements())))
    assert len(drawn) > 3  # the card seat 1 drew is not known to seat 0: it changes
    # seat 2 learned nothing: seat 1's hand is dealt again from everything it cannot see
    assert any(not {K("map"), K("rockfall")} <= set(w.hands[1]) for w in worlds(st, 2))


def test_knowledge_of_a_hand_follows_plays_discards_and_further_swaps(table: Any) -> None:
    st, _ = table.play(_swap_table(table), 0, SwapHand(K("swap-your-hand"), 1))
    st = replace(st, turn=1)
    st, _ = table.play(st, 1, PeekGoal(K("map"), 0))  # the map is played face up: it leaves what seat 0 knows
    (k,) = GAME.view(st, 0).known_hands
    assert (k.holder, k.cards, k.sure) == (1, (K("rockfall"),), 1)
    held = st.hands[1]
    other = next(c for c in held if c != K("rockfall"))
    st = replace(st, turn=1)
    st, _ = table.play(st, 1, Discard((other,)))  # face down: seat 0 cannot tell which card went
    (k,) = GAME.view(st, 0).known_hands
    assert (k.cards, k.sure, k.discarded_by) == ((K("rockfall"),), 0, (1,))
    for w in worlds(st, 0):  # the rockfall is still in seat 1's hand or among its discards
        assert K("rockfall") in w.hands[1] + w.discards[1]


def test_knowledge_moves_with_the_hand_when_it_is_swapped_again(table: Any) -> None:
    st, _ = table.play(_swap_table(table), 0, SwapHand(K("swap-your-hand"), 1))
    hand1 = st.hands[1]
    st = replace(st, turn=2, hands=(st.hands[0], st.hands[1], (K("swap-your-hand"), K("trapped")), st.hands[3]))
    st, _ = table.play(st, 2, SwapHand(K("swap-your-hand"), 1))  # seat 2 takes seat 1's hand
    assert st.hands[2] == hand1
    mine = {k.holder: k for k in GAME.view(st, 0).known_hands}
    assert set(mine) == {2} and mine[2].cards == tuple(sorted((K("map"), K("rockfall"))))
    for w in worlds(st, 0):
        assert Counter(w.hands[2]) >= Counter({K("map"): 1, K("rockfall"): 1})
    assert {k.holder for k in GAME.view(st, 2).known_hands} == {1}


def test_what_others_learned_by_swaps_is_dealt_again_with_the_hands(table: Any) -> None:
    st, _ = table.play(_swap_table(table), 0, SwapHand(K("swap-your-hand"), 1))
    for w in worlds(st, 3):
        for k in w.known.hands:  # every world is consistent: the known cards are in the holder's hand
            assert Counter(w.hands[k.holder]) >= Counter(k.cards)
    assert len({w.known.hands for w in worlds(st, 3)}) > 1  # and they change: seat 3 did not see them


# -- Inspection and Swap Your Hats ----------------------------------------------------------


def test_a_role_seen_by_inspection_stays_until_the_target_swaps_hats(table: Any) -> None:
    roles = [Role.GREEN, Role.SABOTEUR, Role.BLUE, Role.BOSS]
    st = table.build(edition="deluxe", roles=roles, hands=[["inspection", "map"], ["swap-your-hats", "map"], [], []],
                     leftover=[Role.GEOLOGIST, Role.PROFITEER, Role.SABOTEUR], pile=["map"] * 5)
    st, _ = table.play(st, 0, Inspect(K("inspection"), 1))
    assert all(w.deal.roles[1] is Role.SABOTEUR for w in worlds(st, 0))
    assert {w.deal.roles[1] for w in worlds(st, 2)} > {Role.SABOTEUR}
    for w in worlds(st, 2):  # seat 0's Inspection shows seat 1's role in every world of seat 2
        (i,) = w.known.roles
        assert i.role is w.deal.roles[1]
    st, _ = table.play(st, 1, TargetAction(K("swap-your-hats"), 1))  # seat 1 swaps its own hat
    assert GAME.view(st, 0).inspected == ()  # no longer the role
    assert GAME.view(st, 0).put_away == ((1, Role.SABOTEUR),)  # but seat 0 knows the card put away
    assert GAME.view(st, 1).put_away == ((1, Role.SABOTEUR),) and GAME.view(st, 2).put_away == ((1, None),)
    new = st.deal.roles[1]
    assert all(w.deal.roles[1] is new for w in worlds(st, 1))
    assert len({w.deal.roles[1] for w in worlds(st, 0)}) > 1
    # the card put away is re-dealt for seat 2, kept for seats 0 and 1
    assert len({w.deal.spent_roles[0].role for w in worlds(st, 2)}) > 1
    assert all(w.deal.spent_roles[0].role is Role.SABOTEUR for w in worlds(st, 0) + worlds(st, 1))


# -- the base game's gold: hidden until the end (R1, F§7) ---------------------------------------


def test_others_gold_is_dealt_again_and_what_a_chooser_saw_is_kept(table: Any) -> None:
    roles = [Role.MINER, Role.SABOTEUR, Role.MINER, Role.SABOTEUR, Role.MINER]
    hands: list[list[str]] = [[], ["straight-horizontal"], [], [], []]
    st = table.build(5, cells=table.ROW0[:-1], hands=hands, roles=roles, turn=1, goals=("coal-a", "gold", "coal-b"))
    st, _ = table.play(st, 1, PlayPath(K("straight-horizontal"), 7, 0))
    assert st.phase is Phase.CHOOSE and st.purse.chooser == 0
    offer = st.purse.offer
    for w in worlds(st, 0):  # the chooser sees the offer as it lies
        assert w.purse.offer == offer and GAME.view(w, 0) == GAME.view(st, 0)
    assert len({w.purse.offer for w in worlds(st, 2)}) > 1  # another miner has not seen it
    order = []
    while st.phase is Phase.CHOOSE:
        order.append(st.purse.chooser)
        st, _ = table.play(st, st.purse.chooser, TakeGold(max(st.purse.offer)))
    assert order == [0, 4, 2, 0, 4]
    for seat in range(5):
        ws = worlds(st, seat)
        for w in ws:
            assert w.purse.gold[seat] == st.purse.gold[seat]
            assert sum(w.purse.gold) + sum(w.purse.deck) == sum(GOLD_CARDS)
            assert GAME.view(w, seat) == GAME.view(st, seat)
        if seat in (1, 3):  # the saboteurs never saw the offer: the miners' gold changes from world to world
            assert len({w.purse.gold for w in ws}) > 1
    # seat 0 chose first and third: it saw all five cards, then the two left; what 4 and 2 took in
    # between is a lot it knows, shared out again between them
    for w in worlds(st, 0):
        assert w.purse.gold[4] + w.purse.gold[2] == st.purse.gold[4] + st.purse.gold[2]


# -- properties over random matches --------------------------------------------------------------


def heuristic_match(seats: int, options: dict[str, Any], seed: int, steps: int | None = None) -> meeple.Match:
    """A match played by heuristic bots, to its end or for ``steps`` commands."""
    m = meeple.Match.start("saboteur", seats, seed=seed, options=options)
    bots = [HeuristicBot(seed * 31 + s) for s in range(seats)]
    n = 0
    while not m.is_over and (steps is None or n < steps):
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
        n += 1
    return m


def random_match(seats: int, options: dict[str, Any], seed: int, steps: int) -> meeple.Match:
    """A match played by random bots for ``steps`` commands (or to its end)."""
    m = meeple.Match.start("saboteur", seats, seed=seed, options=options)
    bots = [meeple.RandomBot(seed * 31 + s) for s in range(seats)]
    for _ in range(steps):
        if m.is_over:
            break
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    return m


OPTIONS = st.sampled_from([{}, {"saboteur_pay": "cards"}, {"round_end": "lap"}, DELUXE,
                           {"edition": "deluxe", "pass_discards": 3}])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(2**40, 2**62), steps=st.integers(0, 250), options=OPTIONS, seats=st.integers(3, 8),
       heuristic=st.booleans(), world=st.integers(0, 2**32))
def test_views_and_legal_commands_are_the_same_in_every_world_of_a_seat(
    seed: int, steps: int, options: dict[str, Any], seats: int, heuristic: bool, world: int
) -> None:
    m = (heuristic_match if heuristic else random_match)(seats, options, seed, steps)
    state = m.state
    for seat in (*range(seats), None):
        v = GAME.view(state, seat)
        for i in range(3):
            w = GAME.determinize(state, seat, Rng(world, i))
            assert GAME.view(w, seat) == v
            assert GAME.determinize(w, seat, Rng(world + 1, i)) is not None
            if seat is not None and seat in GAME.to_act(state):
                assert list(GAME.legal_commands(w, seat)) == list(GAME.legal_commands(state, seat))
        # nothing a seat is shown holds the seed (the kit's leak scan, on every view and record)
        shown = pack(unstructure(v)) + b"".join(pack(unstructure(r)) for r in m.records_for(seat))
        assert pack(seed) not in shown


PARTS: dict[str, Callable[[State], object]] = {
    "hands": lambda s: s.hands,
    "pile": lambda s: s.pile,
    "roles": lambda s: s.deal.roles,
    "goals": lambda s: s.deal.goal_kinds,
    "gold": lambda s: s.purse.gold,
    "known": lambda s: s.known.hands,
}


def test_determinize_really_deals_other_worlds() -> None:
    """Some states change in every hidden part: hands, pile, roles, goals, gold, known hands."""
    changed: Counter[str] = Counter()
    for seed, (options, bot) in enumerate([({}, True), ({"saboteur_pay": "cards"}, True), (DELUXE, False),
                                           (DELUXE, True)]):
        m = (heuristic_match if bot else random_match)(5, options, seed, 400)
        for i in range(0, len(m), 7):
            m.seek(i)
            state = m.state
            if state.round == 0:
                continue
            for seat in range(5):
                w = GAME.determinize(state, seat, Rng(i, seat))
                for name, part in PARTS.items():
                    changed[name] += part(w) != part(state)
    assert all(changed[p] > 0 for p in ("hands", "pile", "roles", "goals", "gold", "known")), changed


# -- twin tables: a seat cannot tell two tables that differ only in other players' secrets ------------


def _twin(state: State, viewer: int, a: int, b: int) -> State | None:
    """``state`` with the hands and dwarf cards of ``a`` and ``b`` exchanged, or None if the viewer could tell."""
    if len(state.hands[a]) != len(state.hands[b]) or state.hands[a] == state.hands[b]:
        return None
    involved = {a, b}
    if any(k.holder in involved or k.viewer in involved for k in state.known.hands):
        return None
    if any(i.target in involved or i.viewer in involved for i in state.known.roles):
        return None
    if any(sp.seat in involved for sp in state.deal.spent_roles):
        return None
    hands, roles = list(state.hands), list(state.deal.roles)
    hands[a], hands[b] = hands[b], hands[a]
    roles[a], roles[b] = roles[b], roles[a]
    # the goals nobody looked at may lie the other way round too
    looked: set[int] = set().union(*state.known.goals)
    unknown = [i for i, g in enumerate(state.board.goals) if g.kind is None and i not in looked]
    kinds = list(state.deal.goal_kinds)
    if len(unknown) >= 2:
        i, j = unknown[:2]
        kinds[i], kinds[j] = kinds[j], kinds[i]
    return replace(state, hands=tuple(hands), deal=replace(state.deal, roles=tuple(roles), goal_kinds=tuple(kinds)))


def twin_difference(one: State, two: State, viewer: int, picks: int, view: Any = GAME.view, redact: Any = GAME.redact,
                    steps: int = 60) -> str | None:
    """Play both twins on with the same commands; the first thing ``viewer`` is shown differently, or None.

    Stops where the twins may rightly part: a goal turned, a goal, role or
    hand the viewer looks at, the round's end, or no command legal at both tables.
    """
    rng = Rng(picks)
    for step in range(steps):
        if view(one, viewer) != view(two, viewer):
            return f"step {step}: the views differ"
        if GAME.to_act(one) != GAME.to_act(two):
            return f"step {step}: different seats act"
        if one.phase is not Phase.PLAY:
            return None
        seat = one.turn
        both = set(GAME.legal_commands(two, seat))
        legal = [c for c in GAME.legal_commands(one, seat) if c in both]
        if not legal:
            return None
        command = legal[rng.below(len(legal))]
        if seat == viewer and isinstance(command, (PeekGoal, Inspect, SwapHand)):
            return None  # the viewer looks at a goal, a role or a hand: the twins may differ there
        if isinstance(command, SwapHand) and command.target == viewer:
            return None
        e1 = GAME.decide(one, seat, command, Rng(picks, step))
        e2 = GAME.decide(two, seat, command, Rng(picks, step))
        if any(isinstance(e, (GoalRevealed, RoundEnded)) for e in e1 + e2):
            return None
        shown1 = (GAME.redact_command(command, seat, viewer), *(redact(e, viewer) for e in e1))
        shown2 = (GAME.redact_command(command, seat, viewer), *(redact(e, viewer) for e in e2))
        if shown1 != shown2:
            return f"step {step}: {command} shows {shown1} at one table and {shown2} at the other"
        for e in e1:
            one = GAME.evolve(one, e)
        for e in e2:
            two = GAME.evolve(two, e)
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 120), options=OPTIONS, seats=st.integers(3, 7),
       picks=st.integers(0, 2**32))
def test_a_seat_cannot_tell_twin_tables_apart(seed: int, steps: int, options: dict[str, Any], seats: int,
                                              picks: int) -> None:
    m = random_match(seats, options, seed, steps)
    state = m.state
    if state.phase is not Phase.PLAY:
        return
    viewer = picks % seats
    twin = _twin(state, viewer, (viewer + 1) % seats, (viewer + 2) % seats)
    if twin is not None:
        assert twin_difference(state, twin, viewer, picks) is None


def _inspecting_twins(table: Any) -> tuple[State, State]:
    roles = [Role.GREEN, Role.SABOTEUR, Role.BLUE, Role.BOSS]
    hands = [["map", "map"], ["crossroads", "map"], ["rockfall", "map"], ["inspection", "map"]]
    state = table.build(edition="deluxe", roles=roles, hands=hands, turn=3, pile=["map"] * 8)
    twin = _twin(state, 0, 1, 2)
    assert twin is not None
    return state, twin


def test_twin_tables_show_the_same_to_a_seat_when_another_inspects(table: Any) -> None:
    one, two = _inspecting_twins(table)
    assert twin_difference(one, two, 0, picks=5) is None
    events = GAME.decide(one, 3, Inspect(K("inspection"), 1), Rng(1))
    assert GAME.redact(events[0], 0) == GAME.redact(GAME.decide(two, 3, Inspect(K("inspection"), 1), Rng(1))[0], 0)


def test_twin_tables_catch_a_leaky_view_and_a_leaky_redaction(table: Any) -> None:
    """The check is pinned: a view that shows a neighbour's hand, or a redaction that shows inspected roles, fail it."""
    one, two = _inspecting_twins(table)

    def leaky_view(state: State, seat: int | None) -> Any:
        return attrs.evolve(GAME.view(state, seat), hand=state.hands[1])

    assert twin_difference(one, two, 0, picks=5, view=leaky_view) == "step 0: the views differ"

    def leaky_redact(event: Any, seat: int | None) -> Any:
        return event  # the referee's copy: every role an Inspection saw

    picks = next(p for p in range(200) if _first_pick(one, p) == Inspect(K("inspection"), 1))
    found = twin_difference(one, two, 0, picks=picks, redact=leaky_redact)
    assert found is not None and "RoleInspected" in found


def _first_pick(state: State, picks: int) -> Command:
    """The command ``twin_difference`` plays first with ``picks``."""
    legal = list(GAME.legal_commands(state, state.turn))
    return legal[Rng(picks).below(len(legal))]
