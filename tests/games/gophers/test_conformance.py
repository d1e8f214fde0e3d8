"""The engine's conformance kit over random playouts, for every rule set and seat count,
plus properties of the walk enumeration and the options."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.engine import ConfigError
from meeple.games.gophers import GAME
from meeple.games.gophers.data import HOLES, SPREADS
from meeple.games.gophers.walk import walk_outcomes, walks
from meeple.testing import check_game

VARIANTS = ["standard", "simplified", "advanced", "beginner"]


@pytest.mark.parametrize("seats", [2, *(pytest.param(n, marks=pytest.mark.slow) for n in (3, 4))])
@pytest.mark.parametrize("variant", VARIANTS)
def test_conformance(variant: str, seats: int) -> None:
    check_game(GAME, seats=seats, options=GAME.variant_options(variant), seeds=range(1), max_steps=3000)


def test_conformance_with_removed_values() -> None:
    check_game(GAME, seats=3, options={"removed_values": (1, 2)}, seeds=range(1), max_steps=3000)
    check_game(GAME, seats=2, options={"variant": "beginner", "removed_values": (2, 9)}, seeds=range(1),
               max_steps=3000)


def test_variant_names_map_to_options() -> None:
    assert GAME.variant_options("standard") == {}
    assert GAME.variant_options("beginner") == {"variant": "beginner"}
    with pytest.raises(ConfigError):
        GAME.variant_options("expert")


@pytest.mark.parametrize("options", [{"hand_limit": 10}, {"removed_values": (11,)}, {"removed_values": (3, 1)},
                                     {"removed_values": (3, 3)}, {"removed_values": tuple(range(1, 9))},
                                     {"variant": "beginner", "bank": "harder", "removed_values": (2, 4, 5, 7, 8)},
                                     {"variant": "expert"}, {"bank": "till"}, {"end": "game"}])
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        meeple.Match.start("gophers", seats=2, seed=1, options=options)


def test_seat_range_is_two_to_four() -> None:
    for seats in (1, 5):
        with pytest.raises(ConfigError):
            meeple.Match.start("gophers", seats=seats, seed=1)


#: A walk to look for: a spread, the walker's hole, the steps rolled and the holes of other pawns.
_WALKS = {"sp": st.sampled_from(SPREADS), "start": st.integers(0, HOLES - 1), "steps": st.integers(1, 6),
          "others": st.lists(st.integers(0, HOLES - 1), max_size=3, unique=True)}


@given(**_WALKS)
def test_walks_end_on_free_holes(sp: object, start: int, steps: int, others: list[int]) -> None:
    from meeple.games.gophers.data import Spread

    assert isinstance(sp, Spread)
    pawns = {h: s + 1 for s, h in enumerate(others) if h != start}
    result = walks(sp, start, steps, pawns)
    assert result
    for dest, jumped in result:
        assert dest == start or dest not in pawns
        assert set(jumped) <= set(pawns.values()) and list(jumped) == sorted(jumped)


def test_remembered_walks_are_the_walks() -> None:
    for sp in SPREADS:
        for start in (0, 7, 19):
            assert walk_outcomes(sp.number, start, 4, ((3, 1),)) == tuple(sorted(walks(sp, start, 4, {3: 1})))


@given(**_WALKS)
def test_walks_worked_out_once_for_an_open_spread_are_the_walks(sp: object, start: int, steps: int,
                                                                 others: list[int]) -> None:
    from meeple.games.gophers.data import Spread

    assert isinstance(sp, Spread)
    pawns = {h: s + 1 for s, h in enumerate(others) if h != start}
    assert walk_outcomes(sp.number, start, steps, tuple(sorted(pawns.items()))) == tuple(
        sorted(walks(sp, start, steps, pawns)))


def _walks_by_length(sp: object, start: int, steps: int, pawns: dict[int, int]) -> frozenset[tuple[int, tuple[int, ...]]]:
    """The walk rules read plainly: every walk of every length, then the longest."""
    from meeple.games.gophers.data import Spread

    assert isinstance(sp, Spread)
    by_length: list[set[tuple[int, tuple[int, ...]]]] = [set() for _ in range(steps + 1)]

    def go(here: int, k: int, visited: frozenset[int], jumped: frozenset[int]) -> None:
        by_length[k].add((here, tuple(sorted(jumped))))
        if k == steps:
            return
        for n in sp.neighbours[here]:
            if n in visited:
                continue
            if n not in pawns:
                go(n, k + 1, visited | {n}, jumped)
                continue
            chain = [(n, visited | {n}, jumped | {pawns[n]})]  # one step through joined pawns
            while chain:
                cur, passed, seats = chain.pop()
                for m in sp.neighbours[cur]:
                    if m in passed:
                        continue
                    if m in pawns:
                        chain.append((m, passed | {m}, seats | {pawns[m]}))
                    else:
                        go(m, k + 1, passed | {m}, seats)

    go(start, 0, frozenset({start}), frozenset())
    return frozenset(next(found for found in reversed(by_length) if found))


@given(**_WALKS)
def test_walks_are_the_longest_walks_of_the_rules_read_plainly(sp: object, start: int, steps: int,
                                                               others: list[int]) -> None:
    from meeple.games.gophers.data import Spread

    assert isinstance(sp, Spread)
    pawns = {h: s + 1 for s, h in enumerate(others) if h != start}
    assert walks(sp, start, steps, pawns) == _walks_by_length(sp, start, steps, pawns)


def test_a_shorter_roll_reads_the_first_paths_of_the_longest_roll() -> None:
    """The paths of each roll, read off the die's longest roll, are the paths worked out for that roll alone."""
    from meeple.games.gophers.data import DIE
    from meeple.games.gophers.walk import _open_paths, _paths

    for sp in SPREADS:
        for start in range(HOLES):
            for steps in range(DIE + 1):
                assert _paths(sp.number, start, steps) == _open_paths(sp.neighbours, start, steps)
            assert [k for k, *_ in _paths(sp.number, start, DIE)] == sorted(k for k, *_ in _paths(sp.number, start, DIE))


def test_the_open_walks_of_each_roll_are_the_walks_on_an_empty_spread() -> None:
    """The open walks of every roll, read off one table per hole, are the plain rules' walks with no other pawn,
    and the holes they list as visited are every hole a walk of that roll passes (rolls beyond the die too)."""
    from meeple.games.gophers.data import DIE
    from meeple.games.gophers.walk import _open_paths, _open_walks

    for sp in SPREADS:
        for start in range(HOLES):
            for steps in range(DIE + 3):
                ends, reach = _open_walks(sp.number, start, steps)
                assert ends == tuple(sorted((h, 0) for h, _seats in _walks_by_length(sp, start, steps, {})))
                visited = 0
                for _k, _end, holes, _beside in _open_paths(sp.neighbours, start, steps):
                    visited |= holes
                assert reach == visited


def test_a_move_lists_its_jumped_seats_bit_by_bit() -> None:
    from meeple.games.gophers.commands import Move

    for jumps in (*range(300), 1 << 20 | 0b101):
        assert Move(3, jumps).jumped == tuple(s for s in range(jumps.bit_length()) if jumps >> s & 1)


@settings(max_examples=300)
@given(sp=st.sampled_from(SPREADS), start=st.integers(0, HOLES - 1), steps=st.integers(0, 8),
       others=st.lists(st.integers(0, HOLES - 1), max_size=7, unique=True))
def test_walks_of_the_full_roll_are_the_longest_walks_when_there_are_any(sp: object, start: int, steps: int,
                                                                          others: list[int]) -> None:
    """The ends of the walks that use the whole roll, followed alone, are :func:`_ends`' longest ends whenever
    some walk uses the whole roll; and the walk ends come out in the order of the seats they jump."""
    from meeple.games.gophers.data import Spread
    from meeple.games.gophers.walk import _SEATS, _ends, _full_ends, walk_ends

    assert isinstance(sp, Spread)
    pawns = {h: s % 4 for s, h in enumerate(others) if h != start}
    full = _full_ends(sp.number, start, steps, pawns)
    ends = _ends(sp, start, steps, pawns)
    if full:
        assert full == ends
    got = walk_ends(sp.number, start, steps, pawns)
    assert list(got) == sorted(ends, key=lambda e: (e[0], _SEATS[e[1]]))
