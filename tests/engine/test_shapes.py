"""The one description of a type that every codec walker reads (meeple.engine.shapes), and the walkers' agreement on it.

The msgpack codec, the wire form, ``readable`` and ``describe`` must see the
same fields in the same order with the same tag: they are checked against the
description, and so against each other, on every message of every bundled
game's playouts.
"""

from __future__ import annotations

import enum
import typing
from collections.abc import Mapping
from typing import Any, ClassVar, Literal, NamedTuple

import attrs
import pytest

from meeple import Match
from meeple.engine import RandomBot
from meeple.engine.codec import readable, unstructure
from meeple.engine.game import ENGINE, Command, Event
from meeple.engine.match import codec_for
from meeple.engine.shapes import Kind, field_slots, init_sets_fields_only, record_of, shape_of, value_shape
from meeple.engine.wire import describe, to_wire, wire_for


class Suit(enum.Enum):
    CUPS = "cups"
    COINS = "coins"


class Big(int):
    pass


class Pair(NamedTuple):
    a: int
    b: int


@attrs.frozen
class Moved(Event):
    tag: ClassVar[str] = "moved"
    seat: int
    to: tuple[int, ...]


@attrs.frozen
class MovedAgain(Moved):  # inherits the tag without declaring one
    pass


@pytest.mark.parametrize(("tp", "kind", "parts", "optional", "bare"), [
    (int, Kind.SCALAR, (), False, False),
    (bytes, Kind.SCALAR, (), False, False),
    (type(None), Kind.SCALAR, (), False, False),
    (Any, Kind.ANY, (), False, False),
    (Literal["a", 1], Kind.LITERAL, ("a", 1), False, False),
    (int | None, Kind.UNION, (int,), True, False),
    (None | str, Kind.UNION, (str,), True, False),
    (int | str, Kind.UNION, (int, str), False, False),
    (tuple[int, ...], Kind.TUPLE, (int,), False, False),
    (tuple[int, str], Kind.FIXED, (int, str), False, False),
    (tuple[()], Kind.FIXED, (), False, False),
    (list[Suit], Kind.LIST, (Suit,), False, False),
    (frozenset[str], Kind.SET, (str,), False, False),
    (dict[str, int], Kind.MAP, (str, int), False, False),
    (Mapping[int, str], Kind.MAP, (int, str), False, False),
    (tuple, Kind.TUPLE, (), False, True),
    (dict, Kind.MAP, (), False, True),
    (Suit, Kind.ENUM, (), False, False),
    (Command, Kind.MESSAGES, (), False, False),
    (Event, Kind.MESSAGES, (), False, False),
    (Moved, Kind.RECORD, (), False, False),
    (MovedAgain, Kind.MESSAGES, (), False, False),  # no tag of its own: the tagged classes under it
    (Big, Kind.OTHER, (), False, False),
    (Pair, Kind.OTHER, (), False, False),
])
def test_shape_of_names_an_annotations_kind_and_parts(tp: Any, kind: Kind, parts: tuple[Any, ...], optional: bool,
                                                     bare: bool) -> None:
    shape = shape_of(tp)
    assert (shape.kind, shape.parts, shape.optional, shape.bare) == (kind, parts, optional, bare)
    assert (shape.record is not None) == (kind is Kind.RECORD or (kind is Kind.MESSAGES and attrs.has(tp)))


def test_a_union_keeps_its_written_order_and_says_whether_it_is_tagged() -> None:
    assert shape_of(int | None).args == (int, type(None))
    assert shape_of(None | int).args == (type(None), int)  # equal to int | None, yet written the other way
    assert describe(None | int) == {"anyOf": [{"type": "null"}, {"type": "integer"}]}
    assert shape_of(Moved | None).tagged
    assert not shape_of(int | Moved).tagged


@pytest.mark.parametrize(("cls", "kind"), [
    (Pair, Kind.TUPLE), (list, Kind.LIST), (set, Kind.SET), (dict, Kind.MAP), (Big, Kind.SCALAR), (bool, Kind.SCALAR),
    (Suit, Kind.ENUM), (Moved, Kind.RECORD), (MovedAgain, Kind.RECORD), (object, Kind.OTHER),
])
def test_value_shape_counts_a_subclass_as_its_base(cls: type, kind: Kind) -> None:
    assert value_shape(cls).kind is kind


def test_a_record_holds_the_fields_in_order_with_the_written_and_the_own_tag() -> None:
    record = record_of(Moved)
    assert (record.names, record.types, record.tag, record.own_tag) == (("seat", "to"), (int, tuple[int, ...]),
                                                                         "moved", "moved")
    again = record_of(MovedAgain)
    assert (again.tag, again.own_tag) == ("moved", None)


@attrs.frozen
class Plain:
    a: int
    b: str


@attrs.frozen
class Checked:
    a: int = attrs.field(validator=attrs.validators.instance_of(int))


@attrs.frozen
class Converted:
    a: tuple[int, ...] = attrs.field(converter=tuple)


@attrs.frozen
class Hooked:
    a: int

    def __attrs_post_init__(self) -> None:
        pass


@attrs.frozen(cache_hash=True)
class Cached:
    a: int


@attrs.frozen(slots=False)
class DictBacked:
    a: int


@attrs.frozen
class KeywordOnly:
    a: int = attrs.field(kw_only=True)


@pytest.mark.parametrize(("cls", "init_only", "slotted", "plain"), [
    (Plain, True, True, (True, True)),
    (Checked, False, False, (False,)),
    (Converted, False, False, (False,)),
    (Hooked, False, False, (True,)),
    (Cached, False, False, (True,)),
    (DictBacked, True, False, (True,)),
    (KeywordOnly, True, True, (False,)),
])
def test_a_record_is_built_by_setting_its_slots_only_where_init_does_nothing_else(
        cls: type, init_only: bool, slotted: bool, plain: tuple[bool, ...]) -> None:
    record = record_of(cls)
    assert init_sets_fields_only(cls) is init_only
    assert (field_slots(cls) is not None) is slotted
    assert record.plain == plain
    if slotted:  # the slots are the fields' own, in order: setting them builds what __init__ builds
        value, fields = object.__new__(cls), dict(zip(record.names, (1, "x")))
        for slot, v in zip(typing.cast(Any, field_slots(cls)), fields.values()):
            slot.__set__(value, v)
        assert value == cls(**fields)


def test_a_class_that_is_not_attrs_has_no_slots() -> None:
    assert field_slots(Pair) is None
    assert not init_sets_fields_only(Pair)


TABLES = [("saboteur", 4, {}), ("kings", 3, {}), ("gophers", 2, {}), ("mordred", 4, {}), ("liars-dice", 3, {})]


@pytest.mark.parametrize(("game", "seats", "options"), TABLES, ids=[t[0] for t in TABLES])
def test_every_walker_writes_the_fields_the_description_names(game: str, seats: int, options: dict[str, Any]) -> None:
    m = Match.start(game, seats, seed=5, options=options)
    bots = [RandomBot(50 + s) for s in range(seats)]
    for _ in range(80):
        acting = [s for s in m.to_act if s != ENGINE]
        if not acting:
            break
        m.play(acting[0], bots[acting[0]].choose(None, m.legal(acting[0]), acting[0]))
    codec, wire = codec_for(m.game), wire_for(m.game)
    seen: set[type] = set()
    for message in (x for r in m.records for x in (r.command, *r.events)):
        cls = type(message)
        record = record_of(cls)
        keys = ["type", *record.names]
        prim = unstructure(message)
        assert prim[0] == record.tag and len(prim) == 1 + len(record.names)
        assert list(to_wire(message)) == keys
        assert list(readable(message)) == keys
        assert codec.hook(cls)(prim) == message
        assert wire.decode(to_wire(message), cls) == message
        if cls not in seen:
            seen.add(cls)
            assert list(describe(cls)["properties"]) == keys
    assert len(seen) >= 3
