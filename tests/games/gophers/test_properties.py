"""Properties over random playouts: cards are conserved, scores follow the rules, text works."""

from __future__ import annotations

from collections import Counter

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine import ENGINE, IllegalCommand, Match, RandomBot, Rng
from meeple.games.gophers import GAME, GophersOptions, Phase, State, Variant
from meeple.games.gophers.commands import Collect
from meeple.games.gophers.data import DIG, HOLES, SUPPLY_KINDS, Card, sort_cards
from meeple.games.gophers.rules import build_deck, score, tie_break


def _all_cards(state: State) -> Counter[Card]:
    held: Counter[Card] = Counter(state.deck)
    held.update(state.bank)
    held.update(state.gift_offer)
    for pile in (*state.hands, *state.plus, *state.minus):
        held.update(pile)
    return held


def _random_match(variant: str, seats: int, seed: int) -> list[State]:
    m = Match.start(GAME, seats, seed=seed, options=GAME.variant_options(variant))
    bots = [RandomBot(seed + s) for s in range(seats)]
    states = [m.state]
    while m.to_act:
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
        states.append(m.state)
    return states


@settings(max_examples=12)
@given(variant=st.sampled_from(["standard", "simplified", "advanced", "beginner"]), seats=st.integers(2, 4),
       seed=st.integers(0, 2**32))
def test_cards_are_conserved_and_the_outcome_follows_the_scores(variant: str, seats: int, seed: int) -> None:
    states = _random_match(variant, seats, seed)
    final = states[-1]
    box = Counter(build_deck(final.options))
    supplies = Counter({c: n for c, n in box.items() if c != DIG})
    for state in states[1:]:
        held = _all_cards(state)
        assert Counter({c: n for c, n in held.items() if c != DIG}) == supplies
        assert held[DIG] <= (0 if variant == "beginner" else box[DIG])
    assert final.phase is Phase.OVER
    outcome = GAME.outcome(final)
    assert outcome is not None
    assert outcome.scores == tuple(score(final, s) for s in range(seats))
    best = max((score(final, s), tie_break(final, s)) for s in range(seats))
    assert all((score(final, s), tie_break(final, s)) == best for s in outcome.winners)


def test_render_and_describe_work_in_every_phase_for_every_seat() -> None:
    for variant in ("standard", "advanced", "beginner"):
        m = Match.start(GAME, 3, seed=4, options=GAME.variant_options(variant))
        bots = [RandomBot(s) for s in range(3)]
        seen: set[Phase] = set()
        while m.to_act:
            seen.add(m.state.phase)
            for seat in (None, 0, 1, 2):
                assert "Gophers" in GAME.render(m.state, seat)
            seat = next(s for s in m.to_act if s != ENGINE)
            legal = m.legal(seat)
            assert all(GAME.describe(c) for c in legal)
            m.play(seat, bots[seat].choose(m.view(seat), legal, seat))
        assert "game over" in GAME.render(m.state)
        assert {Phase.PLACE, Phase.START, Phase.MOVE, Phase.COLLECT} <= seen


def test_heuristic_bot_plays_only_legal_commands_and_finishes() -> None:
    bots = GAME.bots()
    for variant in ("standard", "simplified", "advanced", "beginner"):
        m = Match.start(GAME, 2, seed=9, options=GAME.variant_options(variant))
        players = [bots["heuristic"](1), bots["random"](2)]
        while m.to_act:
            seat = next(s for s in m.to_act if s != ENGINE)
            legal = m.legal(seat)
            cmd = players[seat].choose(m.view(seat), legal, seat)
            assert cmd in legal
            m.play(seat, cmd)
        assert m.outcome is not None


_card = st.builds(Card, st.sampled_from(SUPPLY_KINDS), st.integers(1, 10))


@settings(max_examples=40)
@given(hand=st.lists(_card, max_size=10), sp=st.integers(1, 6), hole=st.integers(0, HOLES - 1),
       variant=st.sampled_from(["standard", "simplified"]), signs=st.lists(st.integers(-1, 1), min_size=10, max_size=10))
def test_decide_accepts_exactly_the_listed_collections(hand: list[Card], sp: int, hole: int, variant: str,
                                                        signs: list[int]) -> None:
    state = _collect_state(hand, sp, hole, variant)
    listed = {c for c in GAME.legal_commands(state, 0) if isinstance(c, Collect)}
    for cmd in listed:
        GAME.decide(state, 0, cmd, Rng(0))  # never raises
    # a collection made of the hand with arbitrary signs is accepted iff it is listed
    plus = sort_cards([c for c, s in zip(hand, signs) if s == 1])
    minus = sort_cards([c for c, s in zip(hand, signs) if s == -1])
    probe = Collect(plus, minus)
    try:
        GAME.decide(state, 0, probe, Rng(0))
    except IllegalCommand:
        assert probe not in listed
    else:
        assert probe in listed


@settings(max_examples=40)
@given(bank=st.lists(_card, max_size=12), loot=st.lists(_card, max_size=6), sp=st.integers(1, 6),
       hole=st.integers(0, HOLES - 1), take=st.lists(st.integers(0, 11), max_size=3),
       give=st.lists(st.integers(0, 5), max_size=2))
def test_beginner_decide_accepts_exactly_the_listed_collections(bank: list[Card], loot: list[Card], sp: int,
                                                                 hole: int, take: list[int], give: list[int]) -> None:
    state = attrs.evolve(_collect_state([], sp, hole, "beginner"), bank=sort_cards(bank),
                         plus=(sort_cards(loot), ()))
    listed = {c for c in GAME.legal_commands(state, 0) if isinstance(c, Collect)}
    for cmd in listed:
        GAME.decide(state, 0, cmd, Rng(0))
    probe = Collect(sort_cards([bank[i] for i in set(take) if i < len(bank)]),
                    sort_cards([loot[i] for i in set(give) if i < len(loot)]))
    try:
        GAME.decide(state, 0, probe, Rng(0))
    except IllegalCommand:
        assert probe not in listed
    else:
        assert probe in listed


def _collect_state(hand: list[Card], sp: int, hole: int, variant: str) -> State:
    other = (hole + 1) % HOLES
    return State(seats=2, options=GophersOptions(Variant(variant)), phase=Phase.COLLECT, spread=sp,
                 positions=(hole, other), hands=(sort_cards(hand), ()), deck=(DIG,), plus=((), ()),
                 minus=((), ()), baskets=(0, 1), own_digs=(1, 1), collectors=(0,))
