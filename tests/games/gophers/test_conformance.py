"""The engine's conformance kit over random playouts, for every rule set and seat count,
plus properties of the combination and walk enumerations."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeple
from meeple.engine import ConfigError
from meeple.games.gophers import GAME
from meeple.games.gophers.combos import hand_combinations
from meeple.games.gophers.data import HOLES, SPREADS, SUPPLY_KINDS, VALUES, Card
from meeple.games.gophers.walk import walks
from meeple.testing import check_game

VARIANTS = ["standard", "simplified", "advanced", "beginner"]


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("variant", VARIANTS)
def test_conformance(variant: str, seats: int) -> None:
    check_game(GAME, seats=seats, options=GAME.variant_options(variant), seeds=range(1), max_steps=3000)


def test_conformance_with_a_small_hand_limit_and_removed_values() -> None:
    check_game(GAME, seats=3, options={"hand_limit": 6, "removed_values": (1, 2)}, seeds=range(1), max_steps=3000)


def test_variant_names_map_to_options() -> None:
    assert GAME.variant_options("standard") == {}
    assert GAME.variant_options("beginner") == {"variant": "beginner"}
    with pytest.raises(ConfigError):
        GAME.variant_options("expert")


@pytest.mark.parametrize("options", [{"hand_limit": 5}, {"hand_limit": 11}, {"removed_values": (11,)}, {"removed_values": (3, 1)},
                                     {"removed_values": tuple(range(1, 9))}, {"variant": "expert"}])
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        meeple.Match.start("gophers", seats=2, seed=1, options=options)


def test_seat_range_is_two_to_four() -> None:
    for seats in (1, 5):
        with pytest.raises(ConfigError):
            meeple.Match.start("gophers", seats=seats, seed=1)


_cards = st.builds(Card, st.sampled_from(SUPPLY_KINDS), st.sampled_from(VALUES))


@given(hand=st.lists(_cards, max_size=10), target=st.integers(1, 15), subtract=st.booleans())
def test_every_listed_combination_is_in_hand_and_sums_to_the_count(hand: list[Card], target: int, subtract: bool) -> None:
    combos = list(hand_combinations(tuple(hand), target, subtract, frozenset(SUPPLY_KINDS)))
    assert len(combos) == len(set(combos)), "each combination is listed once"
    for plus, minus in combos:
        assert plus and sum(c.value for c in plus) - sum(c.value for c in minus) == target
        assert subtract or not minus
        pool = list(hand)
        for c in (*plus, *minus):
            pool.remove(c)  # raises if the hand does not hold the cards
        assert not {c.value for c in plus} & {c.value for c in minus}


@given(hand=st.lists(_cards, max_size=6), target=st.integers(1, 15))
def test_combination_enumeration_is_complete_on_small_hands(hand: list[Card], target: int) -> None:
    import itertools

    want = set()
    for signs in itertools.product((0, 1, -1), repeat=len(hand)):
        plus = tuple(sorted((c for c, s in zip(hand, signs) if s == 1), key=lambda c: c.key))
        minus = tuple(sorted((c for c, s in zip(hand, signs) if s == -1), key=lambda c: c.key))
        cancelling = {c.value for c in plus} & {c.value for c in minus}
        if plus and not cancelling and sum(c.value for c in plus) - sum(c.value for c in minus) == target:
            want.add((plus, minus))
    assert set(hand_combinations(tuple(hand), target, True, frozenset(SUPPLY_KINDS))) == want


@given(sp=st.sampled_from(SPREADS), start=st.integers(0, HOLES - 1), steps=st.integers(1, 6),
       others=st.lists(st.integers(0, HOLES - 1), max_size=3, unique=True))
def test_walks_end_on_free_holes(sp: object, start: int, steps: int, others: list[int]) -> None:
    from meeple.games.gophers.data import Spread

    assert isinstance(sp, Spread)
    pawns = {h: s + 1 for s, h in enumerate(others) if h != start}
    result = walks(sp, start, steps, pawns)
    assert result
    for dest, jumped in result:
        assert dest == start or dest not in pawns
        assert set(jumped) <= set(pawns.values()) and list(jumped) == sorted(jumped)


def test_worst_case_collection_enumeration_is_fast() -> None:
    # the largest hand the rules allow (the hand limit, 10) at a store (any kind):
    # the densest hand for the store count 12
    hand = tuple(Card(k, v) for k, v in zip(SUPPLY_KINDS * 4, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)))
    t = time.perf_counter()
    n = sum(1 for _ in hand_combinations(hand, 12, True, frozenset(SUPPLY_KINDS)))
    assert n > 100
    assert time.perf_counter() - t < 1.0
