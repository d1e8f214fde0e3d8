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
