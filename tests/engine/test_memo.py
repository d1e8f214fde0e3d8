"""The engine's memos: bounded tables, identity memos, cached functions, and one switch that empties them all."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.engine.memo import Cached, Last, Ring, Table, cached, clear_all, derived, memos


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


def test_a_cached_function_answers_by_all_its_arguments_and_clear_all_forgets() -> None:
    calls: list[tuple[int, int]] = []

    @cached("test: cached", limit=8)
    def add(a: int, b: int) -> int:
        calls.append((a, b))
        return a + b

    assert add(1, 2) == add(1, 2) == 3 and add(2, 1) == 3
    assert calls == [(1, 2), (2, 1)]
    assert isinstance(memos()["test: cached"], Cached)
    clear_all()
    assert add(1, 2) == 3 and calls == [(1, 2), (2, 1), (1, 2)]


def test_derived_keeps_each_functions_answers_apart() -> None:
    memo: dict[object, object] = {}
    derived(memo, len)["k"] = 1
    derived(memo, abs)["k"] = 2
    assert derived(memo, len) == {"k": 1} and derived(memo, abs) == {"k": 2}


@pytest.mark.parametrize("game_id", ["saboteur", "gophers", "kings"])
def test_clear_all_empties_every_memo_the_games_keep(game_id: str) -> None:
    import meeple

    m = meeple.Match.start(game_id, 4, seed=3)
    for _ in range(30):
        seat = m.to_act[0]
        for s in range(m.seats):
            m.view(s)
        m.play(seat, m.legal(seat)[0])
    kept = memos()
    if game_id != "kings":  # Kings remembers only the pieces of views it builds (cached functions)
        assert any(name.startswith(f"{game_id}:") and isinstance(x, Table) and len(x) for name, x in kept.items())
    assert any(name.startswith(f"{game_id}:") for name in kept)
    if game_id == "saboteur":  # the boards a search laid last are let go too
        assert len(kept["saboteur: boards laid"]) > 0
    clear_all()
    for memo in memos().values():
        if isinstance(memo, Table):
            assert len(memo) == 0
        elif isinstance(memo, Last):
            assert memo.pair == (None, None)
        elif isinstance(memo, Ring):
            assert len(memo) == 0
        else:
            assert memo.function.cache_info().currsize == 0


def test_two_memos_may_not_share_a_name() -> None:
    keep = Table("test: one name", limit=1)
    with pytest.raises(ValueError, match="own name"):
        Table("test: one name", limit=1)
    assert keep.name == "test: one name"
