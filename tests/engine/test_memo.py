"""The engine's memos: bounded tables, identity memos, decide's fold trail, and one switch that empties them all."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.engine.memo import Last, Table, Trail, clear_all, derived, memos


@given(st.lists(st.tuples(st.integers(0, 20), st.integers()), max_size=60), st.integers(1, 8))
def test_a_table_never_holds_more_than_its_limit_and_answers_what_was_put_last(
        puts: list[tuple[int, int]], limit: int) -> None:
    table: Table[int, int] = Table(f"test: bounded {limit} {id(puts)}", limit=limit)
    for key, value in puts:
        assert table.put(key, value) == value
        assert len(table) <= limit and table[key] == value


def test_last_answers_only_for_the_very_same_object() -> None:
    last: Last[list[int], str] = Last("test: last")
    key = [1, 2]
    last.put(key, "a")
    assert last.get(key) == "a"
    assert last.get([1, 2]) is None  # equal, but another object: a miss
    last.put([3], "b")
    assert last.get(key) is None


def test_a_trail_hands_back_a_fold_only_for_the_same_state_and_event() -> None:
    trail: Trail[list[int], list[int]] = Trail("test: trail")
    state, event = [1], [2]
    trail.start()
    after = trail.fold(state, event, lambda s, e: s + e)
    assert trail.after(state, event) is after == [1, 2]
    assert trail.after([1], event) is None and trail.after(state, [2]) is None
    trail.start()
    assert trail.after(state, event) is None


def test_derived_keeps_each_functions_answers_apart() -> None:
    memo: dict[object, object] = {}
    derived(memo, len)["k"] = 1
    derived(memo, abs)["k"] = 2
    assert derived(memo, len) == {"k": 1} and derived(memo, abs) == {"k": 2}


def test_clear_all_empties_every_memo_the_games_keep() -> None:
    import meeple

    m = meeple.Match.start("saboteur", 4, seed=3)
    for _ in range(30):
        seat = m.to_act[0]
        m.play(seat, m.legal(seat)[0])
    kept = memos()
    assert any(name.startswith("saboteur:") for name in kept)
    assert any(isinstance(x, Table) and len(x) for x in kept.values())
    clear_all()
    for memo in memos().values():
        if isinstance(memo, Table):
            assert len(memo) == 0
        elif isinstance(memo, Last):
            assert memo.pair == (None, None)
        else:
            assert memo.folds == []


def test_two_memos_may_not_share_a_name() -> None:
    keep = Table("test: one name", limit=1)
    with pytest.raises(ValueError, match="own name"):
        Table("test: one name", limit=1)
    assert keep.name == "test: one name"
