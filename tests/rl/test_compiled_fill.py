"""The compiled observation fills (``meeple._speedups``) write what the Python fills they stand for write.

Underground Kings' encoding takes ``fill_kings`` where the package was
built with it; the Python ``fill`` of ``meeple.rl.encodings.kings`` defines
the bytes. Every seat's view of every position of random matches, at each
seat count and with the developed cards' option both ways, goes through
both; a view the layout cannot hold raises instead of writing outside it.
"""

from __future__ import annotations

import random

import attrs
import pytest

from meeple.engine import ENGINE, Match, get_game
from meeple.engine._compiled import speedups
from meeple.engine.codec import options_from_map
from meeple.engine.match import codec_for
from meeple.rl.encodings import kings

pytestmark = pytest.mark.skipif(speedups is None, reason="meeple._speedups was not built (or MEEPLE_PURE_PYTHON is set)")


def _both(seats: int, options: dict[str, str]) -> tuple[object, object]:
    decoded = options_from_map(codec_for(get_game("kings")), options, seats)
    return kings.encoding(seats, decoded).observation, kings.encoding(seats, decoded, compiled=False).observation


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("options", [{}, {"developed_cards": "camp"}])
def test_kings_compiled_fill_writes_the_python_fill(seats: int, options: dict[str, str]) -> None:
    fast, slow = _both(seats, options)
    assert fast.fill is not slow.fill  # type: ignore[attr-defined]
    size = fast.size  # type: ignore[attr-defined]
    rng = random.Random(seats)
    positions = 0
    for seed in range(4):
        m = Match.start("kings", seats, seed=seed, options=options)
        while m.outcome is None:
            for seat in range(seats):
                view = m.view(seat)
                a, b = bytearray(size), bytearray(size)
                extra_a = fast.fill(view, seat, a)  # type: ignore[attr-defined]
                extra_b = slow.fill(view, seat, b)  # type: ignore[attr-defined]
                assert a == b, (seed, len(m), seat, [i for i in range(size) if a[i] != b[i]][:10])
                assert list(extra_a or ()) == list(extra_b or ())
                positions += 1
            acting = [s for s in m.to_act if s != ENGINE]
            legal = m.legal(acting[0])
            m.play(acting[0], legal[rng.randrange(len(legal))])
    assert positions > 200


def test_kings_compiled_fill_refuses_what_the_layout_cannot_hold() -> None:
    fast, _ = _both(2, {})
    m = Match.start("kings", 2, seed=1)
    view = m.view(0)
    with pytest.raises(ValueError, match="outside the observation"):
        fast.fill(attrs.evolve(view, hand=(10_000,)), 0, bytearray(fast.size))  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="no seat"):
        fast.fill(view, 5, bytearray(fast.size))  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="outside the observation"):
        fast.fill(view, 0, bytearray(10))  # type: ignore[attr-defined]
