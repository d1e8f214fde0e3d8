"""The server's kept JSON texts: each the text of its value, and never more of them than the limit."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from meeple.server.texts import Kept

values = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                      max_leaves=8)


@given(st.lists(values, max_size=40), st.integers(1, 6))
def test_a_kept_text_is_its_values_text_and_the_table_stays_within_its_limit(seen: list[object], limit: int) -> None:
    kept = Kept(limit)
    for value in seen:
        key = json.dumps(value, sort_keys=True)
        assert json.loads(kept.text(key, value)) == value  # type: ignore[arg-type]
        assert 1 <= len(kept) <= limit


def test_a_text_is_encoded_once_and_forgotten_with_the_rest_at_the_limit() -> None:
    kept = Kept(2)
    first = kept.text("a", ["x"])
    assert kept.text("a", ["x"]) is first  # kept, not encoded again
    kept.text("b", 1)
    assert len(kept) == 2
    kept.text("c", 2)  # the third: the table starts again
    assert len(kept) == 1
    assert kept.text("a", ["x"]) is not first and kept.text("a", ["x"]) == first
