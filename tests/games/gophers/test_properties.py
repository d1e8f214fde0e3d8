"""Properties over random playouts and random positions: cards are conserved, scores follow the
rules, the collection steps reach exactly the collections the rules allow, text works."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine import ENGINE, IllegalCommand, Match, RandomBot, Rng
from meeple.games.gophers import GAME, GophersOptions, Phase, State, Variant
from meeple.games.gophers.commands import Add, Collect, Subtract
from meeple.games.gophers.data import (
    BANK_CHANGE,
    BANK_TAKE,
    DIG,
    FACES,
    HOLES,
    Card,
    LabelKind,
    beginner_bank,
    sort_cards,
    spread,
)
from meeple.games.gophers.rules import build_deck, score, supply_of, tie_break
from meeple.games.gophers.state import Cards, Table

Collection = tuple[tuple[Card, ...], tuple[Card, ...]]


def _all_cards(state: State) -> Counter[Card]:
    held: Counter[Card] = Counter(state.deck)
    held.update(state.bank)
    held.update(state.turn.offer)
    held.update(state.turn.added)
    held.update(state.turn.subtracted)
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


@settings(max_examples=12, deadline=None)
@given(variant=st.sampled_from(["standard", "simplified", "advanced", "beginner"]), seats=st.integers(2, 4),
       seed=st.integers(0, 2**32))
def test_cards_are_conserved_and_the_outcome_follows_the_scores(variant: str, seats: int, seed: int) -> None:
    states = _random_match(variant, seats, seed)
    final = states[-1]
    box = Counter(beginner_bank() if variant == "beginner" else build_deck(final.options))
    supplies = Counter({c: n for c, n in box.items() if c != DIG})
    for state in states[2:]:
        held = _all_cards(state)
        assert Counter({c: n for c, n in held.items() if c != DIG}) == supplies
        assert held[DIG] <= (0 if variant == "beginner" else box[DIG])
        assert all(len(h) == len(m) for h, m in zip(state.hands, state.seen)) and len(state.deck) == len(state.deck_seen)
        assert state.table.scores == tuple(score(state, s) for s in range(seats)), "the kept scores follow the piles"
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


# -- the collection steps reach exactly the rules' collections -----------------------------------

_card = st.sampled_from([c for c in FACES if c != DIG])
_supply_hole = st.sampled_from([(sp, h) for sp in range(1, 7) for h in range(HOLES)
                                if spread(sp).labels[h].kind in (LabelKind.SUPPLY, LabelKind.STORE)])


def _collect_state(hand: list[Card], sp: int, hole: int, variant: str, bank: list[Card] = (),  # type: ignore[assignment]
                   loot: list[Card] = (), bank_option: str = "full") -> State:  # type: ignore[assignment]
    other = (hole + 1) % HOLES
    held = (sort_cards(hand), ())
    options = GophersOptions(Variant(variant), bank=bank_option)  # type: ignore[arg-type]
    return State(seats=2, options=options, phase=Phase.COLLECT, spread=sp,
                 positions=(hole, other), collectors=(0,),
                 cards=Cards(held, tuple((0,) * len(h) for h in held), (DIG,), (0,)),
                 table=Table((sort_cards(loot), ()), ((), ()), sort_cards(bank), (1, 1), (0, 1), (0, 0)))


def _walk(state: State) -> set[Collection]:
    """Every collection reached by playing legal steps until ``Collect``; each step must be accepted."""
    found: set[Collection] = set()
    for cmd in GAME.legal_commands(state, 0):
        if isinstance(cmd, Collect):
            found.add((state.turn.added, state.turn.subtracted))
        elif isinstance(cmd, (Add, Subtract)):
            after = state
            for e in GAME.decide(state, 0, cmd, Rng(0)):
                after = GAME.evolve(after, e)
            found |= _walk(after)
    return found


def _hand_collections(hand: list[Card], kinds: tuple[object, ...], target: int, subtract: bool) -> set[Collection]:
    """Brute force over the rules: each card added, subtracted or kept, the sum exact, something added."""
    out: set[Collection] = set()
    for signs in itertools.product((0, 1, -1) if subtract else (0, 1), repeat=len(hand)):
        plus = sort_cards([c for c, s in zip(hand, signs) if s == 1])
        minus = sort_cards([c for c, s in zip(hand, signs) if s == -1])
        if plus and all(c.kind in kinds for c in (*plus, *minus)) and \
                sum(c.value for c in plus) - sum(c.value for c in minus) == target:
            out.add((plus, minus))
    return out


@settings(max_examples=60, deadline=None)
@given(hand=st.lists(_card, max_size=7), where=_supply_hole, variant=st.sampled_from(["standard", "simplified"]))
def test_the_steps_reach_exactly_the_collections_of_a_hand(hand: list[Card], where: tuple[int, int],
                                                           variant: str) -> None:
    hand = [c for c, n in Counter(hand).items() for _ in range(min(n, 2))]  # two copies of a card at most
    sp, hole = where
    lab = spread(sp).labels[hole]
    state = _collect_state(hand, sp, hole, variant)
    want = _hand_collections(hand, supply_of(lab), lab.count, variant == "standard")
    assert _walk(state) == want


@settings(max_examples=60, deadline=None)
@given(bank=st.lists(_card, max_size=8), loot=st.lists(_card, max_size=5), where=_supply_hole,
       bank_option=st.sampled_from(["full", "harder"]))
def test_the_steps_reach_exactly_the_collections_of_the_beginner_bank(bank: list[Card], loot: list[Card],
                                                                      where: tuple[int, int], bank_option: str) -> None:
    sp, hole = where
    lab = spread(sp).labels[hole]
    state = _collect_state([], sp, hole, "beginner", bank, loot, bank_option)
    want: set[Collection] = set()
    if bank_option == "full":  # a till short of a kind pays all it holds of it (at most three cards, no change)
        for kind in supply_of(lab):
            rest = sort_cards([c for c in bank if c.kind is kind])
            if 0 < len(rest) <= BANK_TAKE and sum(c.value for c in rest) < lab.count:
                want.add((rest, ()))
    for take in range(1, BANK_TAKE + 1):
        for taken in itertools.combinations(sort_cards(bank), take):
            for give in range(BANK_CHANGE + 1):
                for change in itertools.combinations(sort_cards(loot), give):
                    kinds = {c.kind for c in (*taken, *change)}
                    if len(kinds) == 1 and kinds <= set(supply_of(lab)) and \
                            not {c.value for c in taken} & {c.value for c in change} and \
                            sum(c.value for c in taken) - sum(c.value for c in change) == lab.count:
                        want.add((taken, change))
    assert _walk(state) == want


@settings(max_examples=60, deadline=None)
@given(hand=st.lists(_card, max_size=9), where=_supply_hole, probe=_card, sub=st.booleans())
def test_decide_accepts_a_card_exactly_when_it_is_listed(hand: list[Card], where: tuple[int, int], probe: Card,
                                                        sub: bool) -> None:
    hand = [c for c, n in Counter(hand).items() for _ in range(min(n, 2))]
    state = _collect_state(hand, *where, "standard")
    cmd = Subtract(repr(probe)) if sub else Add(repr(probe))
    listed = cmd in GAME.legal_commands(state, 0)
    try:
        GAME.decide(state, 0, cmd, Rng(0))
    except IllegalCommand:
        assert not listed
    else:
        assert listed

