"""Gophers' compiled observation fill (``meeple._speedups.fill_gophers``) writes what the Python fill writes.

The Python ``fill`` of ``meeple.rl.encodings.gophers`` defines the bytes
and the (index, value) pairs a byte cannot hold; the encoding takes the
compiled one where the package was built with it. Every seat's view of
every position of random matches, in each rule set at each seat count,
goes through both, and so do views with their numbers pushed past what a
byte holds (scores, the deck size, the stall count) and cards hidden.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine import ENGINE, Match, get_game
from meeple.engine._compiled import speedups
from meeple.engine.codec import options_from_map
from meeple.engine.match import codec_for
from meeple.games.gophers.data import FACES
from meeple.games.gophers.state import Phase
from meeple.rl.encodings import gophers

pytestmark = pytest.mark.skipif(speedups is None, reason="meeple._speedups was not built (or MEEPLE_PURE_PYTHON is set)")

VARIANTS = ("standard", "simplified", "advanced", "beginner")


def _both(seats: int, options: dict[str, str]) -> tuple[Any, Any]:
    decoded = options_from_map(codec_for(get_game("gophers")), options, seats)
    return gophers.encoding(seats, decoded).observation, gophers.encoding(seats, decoded, compiled=False).observation


def _same(fast: Any, slow: Any, view: Any, seat: int) -> None:
    a, b = bytearray(fast.size), bytearray(fast.size)
    extra_a = fast.fill(view, seat, a)
    extra_b = slow.fill(view, seat, b)
    assert a == b, (seat, [i for i in range(len(a)) if a[i] != b[i]][:10])
    assert list(extra_a or ()) == list(extra_b or ())


def _views(seats: int, variant: str, seed: int) -> list[tuple[Any, int]]:
    """Every seat's view of every position of one random match."""
    rng = random.Random(seed)
    m = Match.start("gophers", seats, seed=seed, options={"variant": variant})
    out: list[tuple[Any, int]] = []
    while m.outcome is None:
        out.extend((m.view(seat), seat) for seat in range(seats))
        acting = [s for s in m.to_act if s != ENGINE]
        legal = m.legal(acting[0])
        m.play(acting[0], legal[rng.randrange(len(legal))])
    out.extend((m.view(seat), seat) for seat in range(seats))
    return out


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("variant", VARIANTS)
def test_gophers_compiled_fill_writes_the_python_fill(seats: int, variant: str) -> None:
    fast, slow = _both(seats, {"variant": variant})
    assert fast.fill is not slow.fill
    views = [v for seed in range(2) for v in _views(seats, variant, seed)]
    for view, seat in views:
        _same(fast, slow, view, seat)
    assert len(views) > 200


_SAMPLE = {(seats, variant): _views(seats, variant, 7) for seats in (2, 3) for variant in ("standard", "beginner")}
_cards = st.lists(st.sampled_from((*FACES,)), max_size=12).map(tuple)


@settings(max_examples=150, deadline=None)
@given(key=st.sampled_from(sorted(_SAMPLE)), pick=st.integers(0, 10_000), data=st.data())
def test_gophers_compiled_fill_agrees_beyond_a_byte(key: tuple[int, str], pick: int, data: st.DataObject) -> None:
    seats, variant = key
    view, seat = _SAMPLE[key][pick % len(_SAMPLE[key])]
    n = seats
    changes: dict[str, Any] = {}
    if data.draw(st.booleans()):
        changes["scores"] = tuple(data.draw(st.lists(st.integers(-1000, 1000), min_size=n, max_size=n)))
    if data.draw(st.booleans()):
        changes["deck_size"] = data.draw(st.integers(0, 2000))
    if data.draw(st.booleans()):
        changes["idle"] = data.draw(st.integers(0, 2000))
    if data.draw(st.booleans()):
        changes["gift_offer"] = tuple(data.draw(st.lists(st.one_of(st.none(), st.sampled_from(FACES)), max_size=3)))
    if data.draw(st.booleans()):
        changes["plus"] = tuple(data.draw(_cards) for _ in range(n))
        changes["minus"] = tuple(data.draw(_cards) for _ in range(n))
    if data.draw(st.booleans()):
        changes["hand"] = data.draw(_cards)
        changes["known_hands"] = tuple(data.draw(_cards) for _ in range(n))
    if data.draw(st.booleans()):
        changes["known_deck"] = tuple(enumerate(data.draw(_cards)))
        changes["bank"] = data.draw(st.lists(st.sampled_from(FACES), max_size=80).map(tuple))
    if data.draw(st.booleans()):
        changes["laid"] = (data.draw(_cards), data.draw(_cards))
    if data.draw(st.booleans()):
        changes["phase"] = data.draw(st.sampled_from(tuple(Phase)))
        changes["collectors"] = tuple(data.draw(st.lists(st.integers(0, n - 1), max_size=n)))
        changes["current"] = data.draw(st.integers(0, n - 1))
        changes["spread"] = data.draw(st.integers(0, 7))
        changes["roll"] = data.draw(st.integers(0, 7))
    fast, slow = _both(seats, {"variant": variant})
    _same(fast, slow, attrs.evolve(view, **changes), seat)


def test_gophers_compiled_fill_refuses_what_the_layout_cannot_hold() -> None:
    fast, _ = _both(2, {})
    view = Match.start("gophers", 2, seed=1).view(0)
    with pytest.raises(ValueError, match="no card face"):
        fast.fill(attrs.evolve(view, hand=(5,)), 0, bytearray(fast.size))
    with pytest.raises(ValueError, match="no seat"):
        fast.fill(view, 5, bytearray(fast.size))
    with pytest.raises(ValueError, match="outside the observation"):
        fast.fill(view, 0, bytearray(10))
    with pytest.raises(ValueError, match="outside the observation"):
        fast.fill(attrs.evolve(view, positions=(10_000, 1)), 0, bytearray(fast.size))
