"""The codec: compact, canonical, strict."""

from __future__ import annotations

import enum
from typing import ClassVar

import attrs
import pytest

import liars_dice as ld
from meeple.engine import Codec, DecodeError, Game, canonical, get_game, unstructure
from meeple.engine.codec import pack


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@attrs.frozen
class Inner:
    a: int
    colours: frozenset[Colour]


@attrs.frozen
class Outer:
    name: str
    items: tuple[Inner, ...]
    maybe: int | None
    pair: tuple[int, str]


def codec() -> Codec:
    return Codec(get_game("liars-dice"))


def test_commands_are_arrays_with_their_tag_first_and_no_field_names() -> None:
    assert unstructure(ld.Bid(3, 5)) == ["bid", 3, 5]
    assert unstructure(ld.CallLiar()) == ["liar"]


def test_commands_round_trip_by_tag() -> None:
    c = codec()
    assert c.command(["bid", 3, 5]) == ld.Bid(3, 5)
    assert c.event(["rolled", 1, [4, 2]]) == ld.DiceRolled(1, (4, 2))
    assert c.event(["rolled", 1, None]) == ld.DiceRolled(1, None)


def test_nested_values_round_trip_and_frozensets_are_sorted() -> None:
    c = codec()
    v = Outer("x", (Inner(1, frozenset({Colour.RED, Colour.BLUE})),), None, (2, "b"))
    prim = unstructure(v)
    assert prim == ["x", [[1, ["blue", "red"]]], None, [2, "b"]]
    assert c.structure(prim, Outer) == v


def test_canonical_bytes_do_not_depend_on_set_insertion_order() -> None:
    a = frozenset(range(100))
    b = frozenset(reversed(range(100)))
    assert canonical(a) == canonical(b)


@pytest.mark.parametrize(
    ("data", "path"),
    [
        (["bid", "3", 5], "quantity"),
        (["bid", True, 5], "quantity"),
        (["bid", 3], ""),
        (["bid", 3, 5, 6], ""),
        (["nope", 1], ""),
        ({"tag": "bid"}, ""),
        ("bid", ""),
    ],
)
def test_decoding_is_strict_and_names_the_field(data: object, path: str) -> None:
    with pytest.raises(DecodeError) as err:
        codec().command(data)
    assert err.value.path == path


def test_nested_errors_name_the_path() -> None:
    with pytest.raises(DecodeError) as err:
        codec().structure(["x", [[1, ["green"]]], None, [2, "b"]], Outer)
    assert err.value.path == "items[0].colours[0]"


def test_an_event_tag_does_not_decode_as_a_command() -> None:
    with pytest.raises(DecodeError):
        codec().command(["rolled", 1, [3]])


def test_duplicate_tags_are_refused_when_the_codec_is_built() -> None:
    @attrs.frozen
    class A(ld.Command):
        tag: ClassVar[str] = "bid"

    class Bad(ld.LiarsDice):
        commands = (ld.Bid, A)

    with pytest.raises(TypeError, match="used twice"):
        Codec(Bad())


def test_state_round_trips() -> None:
    import meeple

    m = meeple.Match.start("liars-dice", 3, seed=5)
    c = codec()
    assert c.structure(unstructure(m.state), ld.State) == m.state
    assert pack(unstructure(m.state)) == canonical(m.state)


def test_games_are_game_objects() -> None:
    assert isinstance(get_game("liars-dice"), Game)


@attrs.frozen
class _Checked:
    n: int = attrs.field(validator=attrs.validators.ge(0))


@attrs.frozen
class _PostInit:
    n: int

    def __attrs_post_init__(self) -> None:
        if self.n < 0:
            raise ValueError("n must not be negative")


@attrs.frozen(cache_hash=True)
class _CachedHash:
    n: int


@pytest.mark.parametrize("cls", [_Checked, _PostInit, _CachedHash])
def test_classes_whose_init_does_more_than_set_slots_are_built_by_their_init(cls: type) -> None:
    codec = Codec(get_game("liars-dice"))
    build = codec.hook(cls)
    assert build([3]) == cls(3)
    hash(build([3]))  # a cached hash slot is filled by __init__
    if cls is not _CachedHash:
        with pytest.raises(DecodeError):
            build([-1])  # the validator or the init hook still runs


def test_messages_built_from_their_slots_equal_those_built_by_init() -> None:
    codec = Codec(get_game("liars-dice"))
    for msg in (ld.BidMade(1, 3, 4), ld.DiceRolled(0, (1, 6)), ld.DiceRolled(1, None), ld.Bid(2, 5), ld.CallLiar()):
        prim = unstructure(msg)
        built = codec.message_builder(type(msg))(prim)
        assert built == msg and hash(built) == hash(msg) and repr(built) == repr(msg)
        assert attrs.asdict(built) == attrs.asdict(msg)


@attrs.frozen
class Converted:
    faces: tuple[int, ...] = attrs.field(converter=lambda v: tuple(sorted(v)))


@attrs.frozen
class Tree:
    label: int
    children: tuple[Tree, ...]


def test_one_form_tells_which_types_decode_from_a_single_primitive_form() -> None:
    """The log reader re-encodes values of the other types to check that a record holds their canonical form."""
    c = codec()
    for tp in (int, str, bool, bytes, Colour, tuple[int, ...], tuple[int, str], int | None, ld.Bid, ld.LiarCalled, Tree):
        assert c.one_form(tp), tp
    for tp in (frozenset[int], dict[str, int], float, int | str, Inner, Outer, Converted, tuple[Inner, ...]):
        assert not c.one_form(tp), tp
    assert c.structure([[2, 1]], Converted) == c.structure([[1, 2]], Converted)  # why Converted is not one form


def test_maps_sorted_reads_the_order_unstructure_writes() -> None:
    from meeple.engine.codec import maps_sorted

    written = unstructure({"b": {2: "x", 1: "y"}, "a": [{"d": 1, "c": 2}], 3: None})
    assert maps_sorted(written) and list(written) == [3, "a", "b"]
    assert not maps_sorted({"b": 1, "a": 2}) and not maps_sorted([1, [{"b": 1, "a": 2}]])
    assert maps_sorted({}) and maps_sorted(5) and maps_sorted([])


def test_pack_gives_each_thread_its_own_packer() -> None:
    from concurrent.futures import ThreadPoolExecutor

    import msgpack

    values = [[i, "x" * (i % 40), list(range(i % 30)), {"k": i}] for i in range(2000)]
    with ThreadPoolExecutor(8) as pool:
        packed = list(pool.map(pack, values))
    assert packed == [msgpack.packb(v, use_bin_type=True) for v in values]
    with pytest.raises(TypeError):
        pack([1, object()])
    assert pack([1]) == b"\x91\x01"  # a failed pack leaves nothing behind in the packer
