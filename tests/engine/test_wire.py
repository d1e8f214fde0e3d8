"""The JSON wire form: every command, event, view and seen record of every bundled game round-trips,
and malformed input gives a DecodeError naming the place, never anything else."""

from __future__ import annotations

import copy
import enum
import json
from typing import Any, ClassVar

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple import DecodeError, Match
from meeple.engine import RandomBot
from meeple.engine.game import ENGINE, Command
from meeple.engine.wire import Wire, describe, to_wire, wire_for

#: (game, seats, options) covering every bundled game and variant, and the example game.
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("saboteur", 5, {}),
    ("saboteur", 7, {"edition": "deluxe"}),
    ("kings", 3, {}),
    ("kings", 2, {"developed_cards": "discard"}),
    ("gophers", 3, {}),
    ("gophers", 2, {"variant": "advanced"}),
    ("gophers", 4, {"variant": "simplified"}),
    ("gophers", 2, {"variant": "beginner"}),
    ("mordred", 4, {}),
    ("mordred", 3, {"warriors": 14, "road_forward": 10}),
    ("liars-dice", 4, {"dice": 2}),
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def _json(value: Any) -> Any:
    """Through real JSON text and back, as a client would send it."""
    return json.loads(json.dumps(to_wire(value)))


def _playout(game: str, seats: int, options: dict[str, Any], seed: int, bot: int, cap: int = 400) -> Match:
    m = Match.start(game, seats, seed=seed, options=options)
    bots = [RandomBot(bot * 100 + s) for s in range(seats)]
    for _ in range(cap):
        acting = [s for s in m.to_act if s != ENGINE]
        if not acting:
            break
        seat = acting[0]
        m.play(seat, bots[seat].choose(None, m.legal(seat), seat))
    return m


@pytest.mark.slow  # whole matches of every table, eight each
@pytest.mark.parametrize(("game", "seats", "options"), TABLES, ids=[f"{g}-{s}-{'-'.join(map(str, o.values())) or 'std'}" for g, s, o in TABLES])
@settings(max_examples=8)  # whole matches, every seat's records: eight of them per table
@given(seed=st.integers(0, 2**64 - 1), bot=st.integers(0, 10_000), data=st.data())
def test_every_command_event_view_and_record_round_trips(game: str, seats: int, options: dict[str, Any], seed: int,
                                                         bot: int, data: st.DataObject) -> None:
    m = _playout(game, seats, options, seed, bot)
    wire = wire_for(m.game)
    for r in m.records:  # the referee's records: every command and event played
        assert wire.command(_json(r.command)) == r.command
        for e in r.events:
            assert wire.event(_json(e)) == e
    for seat in (None, *range(seats)):  # as each seat sees them: redacted commands and events
        for seen in m.records_for(seat):
            assert wire.seen_record(json.loads(json.dumps(wire.record(seen)))) == seen
    positions = sorted(set(data.draw(st.lists(st.integers(0, len(m)), min_size=1, max_size=6))))
    for at in positions:
        m.seek(at)
        for seat in (None, *range(seats)):
            view = m.view(seat)
            assert wire.view(_json(view)) == view
            if seat is not None:
                for cmd in m.legal(seat):
                    decoded = wire.command(_json(cmd))
                    assert decoded == cmd and type(decoded) is type(cmd)


@pytest.mark.parametrize("game", ["saboteur", "kings", "gophers", "mordred", "liars-dice"])
def test_decoded_legal_commands_are_played_as_the_originals(game: str) -> None:
    seats = meeple.get_game(game).info.seat_range(meeple.get_game(game).info.variants[0])[0] + 1
    a = Match.start(game, seats, seed=11)
    b = Match.start(game, seats, seed=11)
    wire = wire_for(a.game)
    for i in range(60):
        acting = [s for s in a.to_act if s != ENGINE]
        if not acting:
            break
        seat = acting[0]
        legal = a.legal(seat)
        cmd = legal[i * 7 % len(legal)]
        a.play(seat, cmd)
        b.play(seat, wire.command(json.loads(json.dumps(to_wire(cmd)))))
    assert a.to_bytes() == b.to_bytes()


def _mutations(value: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every (path, container) pair inside a wire value, for picking where to break it."""
    out = [(path, value)]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _mutations(v, f"{path}.{k}" if path else k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _mutations(v, f"{path}[{i}]")
    return out


def _set(root: Any, path_parts: list[Any], new: Any) -> Any:
    if not path_parts:
        return new
    target = root
    for p in path_parts[:-1]:
        target = target[p]
    target[path_parts[-1]] = new
    return root


def _walk(value: Any, parts: list[Any] | None = None) -> list[list[Any]]:
    parts = parts or []
    out = [parts]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _walk(v, [*parts, k])
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _walk(v, [*parts, i])
    return out


@pytest.mark.parametrize(("game", "seats", "options"), [TABLES[1], TABLES[2], TABLES[5], TABLES[8], TABLES[10]])
@given(seed=st.integers(0, 2**64 - 1), data=st.data())
def test_malformed_input_is_a_decode_error_or_a_valid_value_never_a_crash(
        game: str, seats: int, options: dict[str, Any], seed: int, data: st.DataObject) -> None:
    m = _playout(game, seats, options, seed, 1, cap=data.draw(st.integers(0, 150)))
    wire = wire_for(m.game)
    seat = data.draw(st.integers(0, seats - 1))
    samples: list[tuple[Any, Any]] = [(m.view(seat), wire.view), (m.view(None), wire.view)]
    samples += [(c, wire.command) for c in list(m.legal(seat))[:5]]
    samples += [(e, wire.event) for r in m.records[-5:] for e in r.events]
    value, decode = data.draw(st.sampled_from(samples))
    good = _json(value)
    broken = copy.deepcopy(good)
    where = data.draw(st.sampled_from(_walk(good)))
    how = data.draw(st.sampled_from(["replace", "drop", "add"]))
    if how == "replace":
        broken = _set(broken, where, data.draw(json_values))
    elif how == "drop" and where:
        parent = broken
        for p in where[:-1]:
            parent = parent[p]
        del parent[where[-1]]
    else:
        target = broken
        for p in where:
            target = target[p]
        if isinstance(target, dict):
            target[data.draw(st.text(min_size=1, max_size=5))] = data.draw(json_values)
        elif isinstance(target, list):
            target.append(data.draw(json_values))
    try:
        decoded = decode(broken)
    except DecodeError as e:
        assert str(e)  # a message, and a path wherever the break is inside the value
        if where and broken != good and how != "add":
            assert e.path, f"no path for a break at {where}: {e}"
        return
    # accepted: then it is a value of the same kind that encodes back to what was sent (up to set order)
    assert type(decoded) is type(value)
    assert _unordered(_json(decoded)) == _unordered(broken)
    assert decode(_json(decoded)) == decoded


def _unordered(value: Any) -> Any:
    """``value`` with every array sorted (sets may arrive in any order; everything else must match)."""
    if isinstance(value, dict):
        return {k: _unordered(v) for k, v in value.items()}
    if isinstance(value, list):
        return sorted((_unordered(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    return value


@given(json_values)
def test_random_json_is_refused_with_a_decode_error(garbage: Any) -> None:
    for game in ("saboteur", "kings", "gophers", "mordred", "liars-dice"):
        wire = wire_for(meeple.get_game(game))
        for decode in (wire.command, wire.event, wire.view, wire.seen_record):
            try:
                decode(garbage)
            except DecodeError:
                continue


def test_errors_name_the_field_and_what_was_expected() -> None:
    wire = wire_for(meeple.get_game("saboteur"))
    with pytest.raises(DecodeError) as e:
        wire.command({"type": "path", "card": True, "col": 0, "row": 0, "rotated": False})
    assert e.value.path == "card" and "integer" in e.value.message and "bool" in e.value.message
    with pytest.raises(DecodeError) as e:
        wire.command({"type": "path", "card": 1.0, "col": 0, "row": 0, "rotated": False})
    assert e.value.path == "card"
    with pytest.raises(DecodeError) as e:
        wire.command({"type": "path", "card": 1, "col": 0, "row": 0})
    assert e.value.path == "rotated" and "missing" in e.value.message
    with pytest.raises(DecodeError) as e:
        wire.command({"type": "path", "card": 1, "col": 0, "row": 0, "rotated": False, "cheat": 1})
    assert e.value.path == "cheat" and "unknown field" in e.value.message
    with pytest.raises(DecodeError) as e:
        wire.command({"type": "teleport"})
    assert e.value.path == "type" and "path" in e.value.message  # lists the known types
    with pytest.raises(DecodeError) as e:
        wire.command({"type": "repair", "card": 1, "target": 0, "tool": "hammer"})
    assert e.value.path == "tool" and "pickaxe" in e.value.message
    with pytest.raises(DecodeError) as e:
        wire.command({"type": "discard", "cards": [1, "2"]})
    assert e.value.path == "cards[1]"
    with pytest.raises(DecodeError) as e:
        wire.command(["path", 1, 0, 0, False])  # the log's compact form is not the wire form
    assert "object" in e.value.message


def test_a_nested_error_path_goes_all_the_way_down() -> None:
    m = Match.start("saboteur", 5, seed=3)
    wire = wire_for(m.game)
    data = _json(m.view(0))
    data["board"]["goals"][1]["kind"] = "diamonds"
    with pytest.raises(DecodeError) as e:
        wire.view(data)
    assert e.value.path == "board.goals[1].kind"


def test_an_engine_only_command_decodes_but_the_rules_refuse_it() -> None:
    m = Match.start("kings", 2, seed=1)
    wire = wire_for(m.game)
    setup = wire.command({"type": "setup"})
    seat = m.to_act[0]
    with pytest.raises(meeple.IllegalCommand):
        m.play(seat, setup)


def test_redacted_commands_decode_only_when_asked_for() -> None:
    wire = wire_for(meeple.get_game("saboteur"))
    hidden = {"type": "discard", "cards": None}
    with pytest.raises(DecodeError):
        wire.command(hidden)
    assert wire.command(hidden, redacted=True).cards is None  # type: ignore[attr-defined]
    with pytest.raises(DecodeError) as e:  # only secret fields may be null
        wire.command({"type": "path", "card": None, "col": 0, "row": 0, "rotated": False}, redacted=True)
    assert e.value.path == "card"


class Hue(enum.Enum):
    RED = "red"
    BLUE = "blue"


@attrs.frozen
class Inner:
    n: int
    raw: bytes


@attrs.frozen
class Sample:
    tag: ClassVar[str] = "sample"
    hues: frozenset[Hue]
    by_name: dict[str, int]
    by_seat: dict[int, tuple[str, ...]]
    pair: tuple[int, str]
    inner: Inner | None
    anything: Any


def test_sets_mappings_bytes_and_fixed_tuples_have_one_form_both_ways() -> None:
    wire = Wire(meeple.get_game("liars-dice"))
    value = Sample(frozenset({Hue.RED, Hue.BLUE}), {"b": 2, "a": 1}, {3: ("x",), 1: ()}, (1, "y"),
                   Inner(5, b"\x00\xff"), [1, "z"])
    form = to_wire(value)
    assert form == {"hues": ["blue", "red"], "by_name": {"a": 1, "b": 2}, "by_seat": [[1, []], [3, ["x"]]],
                    "pair": [1, "y"], "inner": {"n": 5, "raw": "AP8="}, "anything": [1, "z"]}
    assert wire.decode(json.loads(json.dumps(form)), Sample) == value
    broken = dict(form, hues=["red", "red"])
    with pytest.raises(DecodeError) as e:
        wire.decode(broken, Sample)
    assert e.value.path == "hues[1]" and "duplicate" in e.value.message
    with pytest.raises(DecodeError) as e:
        wire.decode(dict(form, inner={"n": 5, "raw": "not base64!"}), Sample)
    assert e.value.path == "inner.raw"
    with pytest.raises(DecodeError) as e:
        wire.decode(dict(form, pair=[1]), Sample)
    assert e.value.path == "pair"
    with pytest.raises(DecodeError) as e:
        wire.decode(dict(form, by_seat=[[1, []], [1, []]]), Sample)
    assert e.value.path == "by_seat[1]"


def test_describe_gives_a_schema_clients_can_build_forms_from() -> None:
    game = meeple.get_game("saboteur")
    schema = {c.tag: describe(c) for c in game.commands}
    assert schema["repair"]["properties"]["tool"] == {"enum": ["pickaxe", "lantern", "cart"]}
    assert schema["discard"]["properties"]["cards"] == {"type": "array", "items": {"type": "integer"}}
    assert schema["path"]["required"] == ["type", "card", "col", "row", "rotated"]
    assert describe(game.view_type)["properties"]["front"]["items"]["uniqueItems"] is True


def test_to_wire_refuses_values_it_has_no_form_for() -> None:
    with pytest.raises(TypeError):
        to_wire(object())


def test_legal_commands_of_every_game_are_distinct_on_the_wire() -> None:
    """Two different legal commands never share one wire form (a client could not tell them apart)."""
    for game, seats, options in TABLES:
        m = _playout(game, seats, options, 5, 2, cap=30)
        for seat in range(seats):
            forms = [json.dumps(to_wire(c), sort_keys=True) for c in m.legal(seat)]
            assert len(forms) == len(set(forms)), game


def test_wire_is_cached_per_game() -> None:
    game = meeple.get_game("kings")
    assert wire_for(game) is wire_for(game)
    assert isinstance(wire_for(game).command({"type": "draw_deck"}), Command)


@attrs.frozen
class _Tree:
    """A recursive type, whose encoder refers to itself."""

    label: str
    children: tuple[_Tree, ...] = ()


def test_a_thread_never_meets_an_encoder_another_is_still_building(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from meeple.engine import wire

    started, go, progress = threading.Event(), threading.Event(), threading.Event()
    make = wire._make_encoder

    def slow_make(tp: Any) -> Any:  # the first thread stops in the middle of building _Tree's encoder
        if tp is _Tree and threading.current_thread().name == "first":
            started.set()
            go.wait()
        return make(tp)

    class Watched:  # the lock (if there is one) says when the second thread waits for it
        def __init__(self, lock: Any) -> None:
            self.lock = lock

        def __enter__(self) -> Any:
            if threading.current_thread().name == "second":
                progress.set()
            return self.lock.__enter__()

        def __exit__(self, *exc: Any) -> Any:
            return self.lock.__exit__(*exc)

    monkeypatch.setattr(wire, "_make_encoder", slow_make)
    monkeypatch.setattr(wire, "_building_lock", Watched(getattr(wire, "_building_lock", threading.RLock())),
                        raising=False)
    tree = _Tree("root", (_Tree("leaf"),))
    got: dict[str, Any] = {}

    def encode(name: str) -> None:
        try:
            got[name] = to_wire(tree)
        except Exception as e:
            got[name] = e
        finally:
            if name == "second":
                progress.set()

    first = threading.Thread(target=encode, args=("first",), name="first")
    second = threading.Thread(target=encode, args=("second",), name="second")
    first.start()
    started.wait()
    second.start()
    progress.wait()  # the second thread waits for the build, or has already met the half-built encoder
    go.set()
    first.join()
    second.join()
    expected = {"label": "root", "children": [{"label": "leaf", "children": []}]}
    assert got == {"first": expected, "second": expected}
    assert to_wire(tree) == expected
