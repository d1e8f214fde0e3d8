"""Views encoded field by field and kept (meeple.server.views): always what to_wire gives, and the delta of a list
that grew is the splice that appends its new items."""

from __future__ import annotations

import enum
import json
from typing import Any

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine import to_wire
from meeple.server.delta import Shown, delta_text, patched
from meeple.server.messages import dumps
from meeple.server.table import _joined
from meeple.server.views import ViewCoder


class Suit(enum.Enum):
    CUPS = "cups"
    COINS = "coins"


@attrs.frozen
class Pile:
    suit: Suit
    cards: tuple[int, ...]


@attrs.frozen
class View:
    log: tuple[tuple[int, Suit], ...]
    piles: tuple[Pile, ...]
    hand: frozenset[int]
    turn: int
    loser: int | None
    anything: Any
    scratch: list[int]
    pair: tuple[int, str]


PILES = st.builds(Pile, st.sampled_from(Suit), st.tuples(st.integers(0, 9)) | st.tuples())
ENTRIES = st.tuples(st.integers(-3, 3), st.sampled_from(Suit))


@st.composite
def histories(draw: st.DrawFn) -> list[View]:
    """Views one after another as a match makes them: lists grown by appending (their items kept), fields kept
    as the very objects they were, or made anew; a value may come back from earlier."""
    views: list[View] = []
    for _ in range(draw(st.integers(1, 8))):
        if views and draw(st.booleans()):
            prev = views[draw(st.integers(0, len(views) - 1))]
            grow = draw(st.sampled_from(["append", "same", "new", "copy", "change"]))
            if grow == "change" and prev.log:  # one item replaced, or dropped, the others kept in place
                at = draw(st.integers(0, len(prev.log) - 1))
                log = (*prev.log[:at], *draw(st.lists(ENTRIES, max_size=1)), *prev.log[at + 1:])
            elif grow == "append":
                log = (*prev.log, *draw(st.lists(ENTRIES, max_size=3)))
            elif grow == "same":
                log = prev.log
            elif grow == "copy":  # the same items in a new tuple
                log = tuple(prev.log)
            else:
                log = tuple(draw(st.lists(ENTRIES, max_size=4)))
            piles = prev.piles if draw(st.booleans()) else (*prev.piles, draw(PILES))
            anything = prev.anything if draw(st.booleans()) else (*prev.log, True)
            view = View(log, piles, prev.hand if draw(st.booleans()) else frozenset(draw(st.sets(st.integers(0, 5)))),
                        draw(st.integers(0, 3)), draw(st.none() | st.integers(0, 1)), anything,
                        [*prev.scratch, 1], (1, "x"))
        else:
            view = View(tuple(draw(st.lists(ENTRIES, max_size=4))), tuple(draw(st.lists(PILES, max_size=2))),
                        frozenset(draw(st.sets(st.integers(0, 5)))), 0, None, draw(st.none() | st.integers()),
                        [], (0, ""))
        views.append(view)
    return views


@given(histories(), st.lists(st.none() | st.integers(0, 2), min_size=8, max_size=8))
@settings(max_examples=300)
def test_a_view_encoded_by_the_coder_is_what_to_wire_gives_field_for_field(views: list[View],
                                                                          seats: list[int | None]) -> None:
    coder = ViewCoder(View)
    for view, seat in zip(views, seats, strict=False):
        encoded = coder.encode(view, seat)
        assert encoded.wire == to_wire(view)
        assert json.dumps(encoded.wire) == json.dumps(to_wire(view))  # True and 1 told apart, order kept
        assert encoded.texts == {k: dumps(v) for k, v in to_wire(view).items()}
        for name, (base, n, tail) in encoded.grown.items():
            assert len(base) == n and [*base, *json.loads(tail)] == encoded.wire[name]


def test_a_list_that_grew_is_encoded_from_its_new_items_and_its_delta_is_their_splice() -> None:
    coder = ViewCoder(View)
    log = tuple((i, Suit.CUPS) for i in range(40))
    first = View(log, (), frozenset(), 0, None, None, [], (0, ""))
    second = attrs.evolve(first, log=(*log, (7, Suit.COINS)), turn=1)
    a, b = coder.encode(first), coder.encode(second)
    assert b.grown["log"] == (a.wire["log"], 40, '[[7,"coins"]]')
    assert b.wire["hand"] is a.wire["hand"]  # the very wire value kept, not encoded again
    old, new = (Shown({"view": e.wire, "undo": None}, "[]", "[]", e.texts, e.grown) for e in (a, b))
    delta = delta_text(old, new)
    assert delta == '[["s",["view","log"],40,0,[[7,"coins"]]],["r",["view","turn"],1]]'
    # the same patch as comparing the two views finds
    assert delta == delta_text(Shown(old.state, "[]", "[]"), Shown(new.state, "[]", "[]"))
    held = json.loads("{" + old.members + "}")
    assert patched(held, json.loads(delta)) == json.loads("{" + new.members + "}")


def test_a_delta_from_a_list_other_than_the_one_grown_from_compares_them() -> None:
    coder = ViewCoder(View)
    log = tuple((i, Suit.CUPS) for i in range(40))
    views = [View(log[:n], (), frozenset(), 0, None, None, [], (0, "")) for n in (30, 35, 40)]
    e30, _, e40 = (coder.encode(v) for v in views)
    old, new = (Shown({"view": e.wire}, "[]", "[]", e.texts, e.grown) for e in (e30, e40))
    assert new.grown["log"][1] == 35  # grown from the 35, not from the 30 this connection holds
    held = json.loads("{" + old.members + "}")
    assert patched(held, json.loads(delta_text(old, new))) == json.loads("{" + new.members + "}")


def test_a_view_that_is_not_an_attrs_class_is_encoded_whole() -> None:
    coder = ViewCoder(dict)
    encoded = coder.encode({"b": [1, 2], "a": True})
    assert encoded.wire == {"b": [1, 2], "a": True} and encoded.texts == {"b": "[1,2]", "a": "true"}
    assert encoded.grown == {}


def test_a_legal_list_handed_out_again_is_joined_once_and_a_list_each_time() -> None:
    calls: list[int] = []

    def build() -> str:
        calls.append(1)
        return "[1]"

    game: Any = object()
    legal: Any = (1,)
    assert _joined(legal, game, "", build) == _joined(legal, game, "", build) == "[1]" and len(calls) == 1
    assert _joined(legal, game, "hy", build) == "[1]" and len(calls) == 2  # another language
    assert _joined([1], game, "", build) == _joined([1], game, "", build) and len(calls) == 4


def test_a_list_changed_in_place_is_encoded_anew_though_it_is_the_same_object() -> None:
    coder = ViewCoder(View)
    scratch = [1]
    view = View((), (), frozenset(), 0, None, None, scratch, (0, ""))
    assert coder.encode(view, 0).wire["scratch"] == [1]
    scratch.append(2)  # no game should; the wire must follow anyway
    assert coder.encode(view, 0).wire["scratch"] == [1, 2]


def test_a_tuple_changed_in_one_place_keeps_the_wire_of_the_others_and_its_delta_patches_that_place() -> None:
    coder = ViewCoder(View)
    piles = tuple(Pile(Suit.CUPS, (i,)) for i in range(10))
    first = View((), piles, frozenset(), 0, None, None, [], (0, ""))
    second = attrs.evolve(first, piles=(*piles[:4], Pile(Suit.COINS, (4,)), *piles[5:]))
    a, b = coder.encode(first, 0), coder.encode(second, 0)
    assert b.wire == to_wire(second) and b.texts["piles"] == dumps(to_wire(second)["piles"])
    assert all(b.wire["piles"][i] is a.wire["piles"][i] for i in range(10) if i != 4)
    old, new = (Shown({"view": e.wire}, "[]", "[]", e.texts, e.grown) for e in (a, b))
    assert delta_text(old, new) == '[["r",["view","piles",4,"suit"],"coins"]]'


@given(histories(), st.lists(st.none() | st.integers(0, 2), min_size=8, max_size=8))
@settings(max_examples=300)
def test_a_views_encoding_leaves_those_before_it_as_they_were_and_its_delta_looks_at_its_changed_fields_alone(
        views: list[View], seats: list[int | None]) -> None:
    coder = ViewCoder(View)
    held: dict[int | None, tuple[Any, str, dict[str, str]]] = {}  # seat -> (its last Encoded, its wire, its texts)
    for view, seat in zip(views, seats, strict=False):
        encoded = coder.encode(view, seat)
        for before, wire, texts in held.values():  # each encoding has dicts of its own (the next copies them)
            assert json.dumps(before.wire) == wire and before.texts == texts
        last = held.get(seat)
        if last is not None:
            assert encoded.since is not None and encoded.since[0] is last[0].texts
            old = Shown({"view": last[0].wire}, "[]", "[]", last[0].texts, last[0].grown)
            new = Shown({"view": encoded.wire}, "[]", "[]", encoded.texts, encoded.grown, since=encoded.since)
            whole = Shown(new.state, "[]", "[]", encoded.texts, encoded.grown)  # every field compared
            assert delta_text(old, new) == delta_text(old, whole)  # the same operations, in the same order
        held[seat] = (encoded, json.dumps(encoded.wire), dict(encoded.texts or {}))
