"""The RNG's draws written out inline draw exactly what their definitions through ``below`` draw."""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine.rng import MASK64, Rng

seeds = st.integers(0, MASK64)
counters = st.integers(0, 1 << 70)


def _reference_shuffle(rng: Rng, items: MutableSequence[Any]) -> None:
    """Fisher-Yates as docs/rng.md defines it: for i from len-1 down to 1, swap i with below(i+1)."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


@given(seeds, counters, st.integers(1, 3000) | st.integers(1, 1 << 64))
def test_a_die_is_one_plus_below(seed: int, counter: int, sides: int) -> None:
    a, b = Rng(seed, counter), Rng(seed, counter)
    assert a.die(sides) == 1 + b.below(sides)
    assert a.counter == b.counter


@settings(max_examples=60)
@given(seeds, counters, st.integers(0, 40) | st.integers(1000, 1100))
def test_a_shuffle_swaps_as_below_says(seed: int, counter: int, size: int) -> None:
    a, b = Rng(seed, counter), Rng(seed, counter)
    items, expected = list(range(size)), list(range(size))
    a.shuffle_in_place(items)
    _reference_shuffle(b, expected)
    assert items == expected
    assert a.counter == b.counter
    assert Rng(seed, counter).shuffled(range(size)) == tuple(expected)


def test_the_draws_refuse_what_below_refuses_with_the_counter_where_below_leaves_it() -> None:
    with pytest.raises(ValueError, match="n >= 1"):
        Rng(1).die(0)
    a, b = Rng(5, 9), Rng(5, 9)
    with pytest.raises(TypeError):
        a.shuffle_in_place((1, 2, 3))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _reference_shuffle(b, (1, 2, 3))  # type: ignore[arg-type]
    assert a.counter == b.counter == 10
