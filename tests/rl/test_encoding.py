"""Declaring encodings: the declaration's own checks, the lookup, and check_encoding catching broken encodings."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import liars_dice as ld
import meeple.rl as rl
from meeple.engine import ConfigError, get_game
from meeple.rl.encoding import (
    Actions,
    ByIdentity,
    Encoding,
    EncodingError,
    Observation,
    Segment,
    encoding_factory,
    register_encoding,
)

LD = get_game("liars-dice")


def test_liars_dice_encodings_pass_their_check() -> None:
    for seats, options in ((2, {}), (3, {"dice": 3}), (6, {"dice": 1, "sides": 2})):
        assert rl.check_encoding("liars-dice", seats, options, seeds=range(3)) > 0


def test_the_liars_dice_layout_is_documented_as_declared() -> None:
    enc = rl.encoding_for("liars-dice", 2, ld.LiarsDiceOptions())
    table = enc.observation.layout()
    assert table.splitlines()[2] == "| `seat` | 0 | 2 | 0..1 | one-hot: the observer's seat at the table |"
    assert [(p.name, p.offset) for p in enc.observation.segments_at()] == [
        ("seat", 0), ("my_dice", 2), ("bids", 8), ("current_bid", 32), ("to_act", 44), ("revealed", 46), ("loser", 52)]
    assert enc.observation.size == 54 and enc.actions.size == 13
    assert enc.actions.label(12) == "call liar" and enc.actions.label(0) == "bid 1 x 1"


class _Faulty:
    """The Liar's Dice encodings with one fault."""

    def __init__(self, fault: str) -> None:
        self.fault = fault

    def __call__(self, seats: int, options: Any) -> Encoding:
        good = ld.encoding(seats, options)
        obs, acts = good.observation, good.actions
        if self.fault == "shared id":
            return attrs.evolve(good, actions=Actions(acts.size, lambda c, v, s: min(acts.index(c, v, s), 3)))
        if self.fault == "id outside":
            return attrs.evolve(good, actions=Actions(acts.size, lambda c, v, s: acts.index(c, v, s) + 1))
        if self.fault == "short segment":
            return attrs.evolve(good, observation=Observation(
                obs.segments, lambda v, s: {**obs.encode(v, s), "my_dice": [0]}))
        if self.fault == "out of bounds":
            return attrs.evolve(good, observation=Observation(
                obs.segments, lambda v, s: {**obs.encode(v, s), "seat": [7] * seats}))
        if self.fault == "undeclared":
            return attrs.evolve(good, observation=Observation(obs.segments, lambda v, s: {**obs.encode(v, s), "x": 1}))
        if self.fault == "missing":
            return attrs.evolve(good, actions=Actions.table(acts_table(seats, options)[:-1]))
        raise AssertionError(self.fault)


def acts_table(seats: int, options: Any) -> tuple[Any, ...]:
    return (*ld._all_bids(seats * options.dice, options.sides), ld.CallLiar())


@pytest.mark.parametrize(("fault", "message"), [
    ("shared id", "share action id 3"),
    ("id outside", "outside 0..12"),
    ("short segment", "'my_dice' has 1 values, not 6"),
    ("out of bounds", "'seat' holds 7.0, outside 0..1"),
    ("undeclared", r"does not declare: \['x'\]"),
    ("missing", "has no action id"),
])
def test_check_encoding_catches_a_broken_encoding(fault: str, message: str) -> None:
    try:
        register_encoding("liars-dice", _Faulty(fault))
        with pytest.raises(EncodingError, match=message):
            rl.check_encoding("liars-dice", 2, seeds=range(4))
    finally:
        register_encoding("liars-dice", ld.encoding)
    assert encoding_factory("liars-dice") is ld.encoding


def test_the_environment_refuses_a_broken_encoding_too() -> None:
    try:
        register_encoding("liars-dice", _Faulty("shared id"))
        e = rl.env("liars-dice", seats=2)
        with pytest.raises(EncodingError, match="share action id 3"):
            e.reset(seed=1)
        register_encoding("liars-dice", _Faulty("short segment"))
        e = rl.env("liars-dice", seats=2)
        e.reset(seed=1)
        with pytest.raises(EncodingError, match="'my_dice' has 1 values"):
            e.last()
    finally:
        register_encoding("liars-dice", ld.encoding)


def test_a_declaration_checks_itself() -> None:
    with pytest.raises(ConfigError, match="at least 1"):
        Segment("board", (3, 0))
    with pytest.raises(ConfigError, match="low <= high"):
        Segment("x", 2, low=1, high=0)
    with pytest.raises(ConfigError, match="each command once"):
        Actions.table(["a", "a"])
    with pytest.raises(ConfigError, match="at least one action"):
        Actions(0, lambda c, v, s: 0)
    with pytest.raises(ConfigError, match="must differ"):
        Observation((Segment("a", 1), Segment("a", 2)), lambda v, s: {})
    assert Segment("one", ()).size == 1 and Segment("plane", (2, 3)).size == 6


def test_a_factory_must_return_an_encoding() -> None:
    try:
        register_encoding("liars-dice", lambda seats, options: "nothing")  # type: ignore[arg-type, return-value]
        with pytest.raises(ConfigError, match="not an Encoding"):
            rl.encoding_for("liars-dice", 2, ld.LiarsDiceOptions())
    finally:
        register_encoding("liars-dice", ld.encoding)


def test_a_bundled_game_is_found_by_its_module_in_meeple_rl_encodings(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from meeple.rl import encoding as encoding_module
    from meeple.rl.encodings import kings, mordred

    monkeypatch.delitem(encoding_module._registered, "kings", raising=False)
    assert encoding_factory("kings") is kings.encoding
    assert encoding_factory("mordred") is mordred.encoding
    monkeypatch.delitem(encoding_module._registered, "kings")
    monkeypatch.setitem(sys.modules, "meeple.rl.encodings.kings", None)  # as if the module were not there
    with pytest.raises(rl.NoEncoding):
        encoding_factory("kings")


def test_by_identity_makes_once_per_seat_and_objects_and_never_answers_for_equal_ones() -> None:
    made: list[tuple[int, tuple[int, ...]]] = []

    def make(seat: int, values: tuple[int, ...]) -> bytes:
        made.append((seat, values))
        return bytes(v + seat for v in values)

    memo = ByIdentity(make, limit=3)
    a, b = (1, 2), tuple([1, 2])  # equal, not the same object
    assert a == b and a is not b
    assert memo.get((0, id(a))) is None
    assert memo.add(0, a) == b"\x01\x02" and memo.get((0, id(a))) == b"\x01\x02"
    assert memo.get((1, id(a))) is None and memo.add(1, a) == b"\x02\x03"  # another seat, made again
    assert memo.get((0, id(b))) is None  # an equal tuple is another object: no answer for it
    memo.add(0, b)
    assert len(made) == 3
    memo.add(2, a)  # the fourth entry: the memo starts afresh, holding only the newest
    assert memo.get((0, id(a))) is None and memo.get((2, id(a))) == b"\x03\x04"


def test_a_tables_ids_all_at_once_hold_for_equal_objects_and_unknown_ones_raise() -> None:
    @attrs.frozen
    class Bid:
        n: int

    acts = Actions.table([Bid(1), Bid(2), Bid(3)])
    assert acts.index_all is not None
    same, equal = Bid(2), Bid(2)
    for _ in range(2):  # the first time and once the objects are known
        assert acts.index_all([Bid(3), same, equal, Bid(1)], None, 0) == [2, 1, 1, 0]
        with pytest.raises(EncodingError, match="not in the action table"):
            acts.index_all([same, Bid(4)], None, 0)
