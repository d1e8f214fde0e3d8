"""Position deltas (protocol 2): a patch turns the position a connection holds into the new one, exactly, and
carries nothing but parts of the seat's own new position; clients of protocol 1 are sent whole positions."""

from __future__ import annotations

import asyncio
import json
import marshal
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from serverkit import ThreadServer, check_table, open_table, play_out

from meeple import Match
from meeple.engine import to_wire
from meeple.engine.registry import available
from meeple.server.client import ClientError, Seat, autoplay
from meeple.server.delta import PatchError, diff, patched, same
from meeple.server.messages import STATE_FIELDS

# -- the patch, on any JSON values ---------------------------------------------------------------

SCALARS = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=4), inner,
                                                                                           max_size=6), max_leaves=40)


def strictly_equal(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``true`` is not ``1``, ``1`` is not ``1.0``, ``0.0`` is not ``-0.0``; key order is free."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(strictly_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(strictly_equal(x, y) for x, y in zip(a, b, strict=True))
    return marshal.dumps(a, 2) == marshal.dumps(b, 2)


@st.composite
def changed(draw: st.DrawFn, value: Any, depth: int = 0) -> Any:
    """``value`` with a few changes of the kinds positions make: a key added, dropped or changed, items spliced."""
    kind = draw(st.sampled_from(["keep", "keep", "inside", "replace"]))
    if kind == "replace" or depth > 4:
        return draw(VALUES) if kind == "replace" else value
    if kind == "keep":
        return value
    if isinstance(value, dict):
        out = {k: draw(changed(v, depth + 1)) for k, v in value.items() if not draw(st.booleans()) or len(value) < 2}
        for k in draw(st.lists(st.text(max_size=4), max_size=2)):
            out[k] = draw(VALUES)
        return out
    if isinstance(value, list):
        out_list = [draw(changed(v, depth + 1)) for v in value]
        at = draw(st.integers(0, len(out_list)))
        gone = draw(st.integers(0, len(out_list) - at))
        out_list[at:at + gone] = draw(st.lists(VALUES, max_size=3))
        return out_list
    return draw(VALUES)


@st.composite
def pairs(draw: st.DrawFn) -> tuple[Any, Any]:
    old = draw(VALUES)
    return old, draw(st.one_of(changed(old), VALUES))


@given(pairs())
@settings(max_examples=400)
def test_the_patch_of_any_two_json_values_turns_the_first_into_the_second(pair: tuple[Any, Any]) -> None:
    old, new = pair
    before = json.dumps(old)
    ops = diff(old, new)
    assert strictly_equal(patched(old, ops), new)
    assert json.dumps(old) == before  # the base is left as it was (connections share it)
    assert strictly_equal(patched(json.loads(json.dumps(old)), json.loads(json.dumps(ops))), new)  # as sent
    if json.dumps(old) == json.dumps(new) and strictly_equal(old, new):
        assert ops == [] and same(old, new)


@given(VALUES)
def test_a_value_and_itself_make_an_empty_patch(value: Any) -> None:
    assert diff(value, json.loads(json.dumps(value))) == []


def test_the_types_of_json_are_kept_apart() -> None:
    for old, new in [(1, True), (0, False), (1, 1.0), ([1, 2], [True, 2]), ({"a": 0.0}, {"a": -0.0})]:
        assert strictly_equal(patched(old, diff(old, new)), new), (old, new)


@pytest.mark.parametrize("ops", [[["r", ["a", "b"], 1]], [["d", ["x"]]], [["s", ["l"], 2, 0, []]],
                                 [["s", ["l"], 0, 2, []]], [["r", ["l", 1], 0]], [["q", []]], [["d", []]], ["r"]])
def test_a_patch_that_does_not_fit_is_refused(ops: list[Any]) -> None:
    with pytest.raises(PatchError):
        patched({"a": 1, "l": [1]}, ops)


# -- the patch, on the positions of every bundled game -----------------------------------------------

GAMES = list(available())


def _views(game: str, seed: int) -> list[list[Any]]:
    """Every seat's view (and the spectator's, last), in wire form, at each position of a random match."""
    m = Match.start(game, 3 if game != "saboteur" else 4, seed=seed)
    rng = random.Random(seed)
    seats: list[int | None] = [*range(m.seats), None]
    out = [[to_wire(m.view(s)) for s in seats]]
    while not m.is_over and len(out) < 80:
        seat = next(s for s in m.to_act if s >= 0)
        m.play(seat, rng.choice(list(m.legal(seat))))
        out.append([to_wire(m.view(s)) for s in seats])
    return out


def _drawn_from(ops: list[Any], new: Any) -> list[str]:
    """Where an operation's value is not the new value's own part at the operation's path (empty: none)."""
    bad = []
    for op in ops:
        node = new
        path = op[1] if op[0] != "r" else op[1][:-1]
        for key in path:
            node = node[key]
        if op[0] == "r" and ((not op[1] and not strictly_equal(op[2], new))
                             or (op[1] and not strictly_equal(node[op[1][-1]], op[2]))):
            bad.append(f"{op}: not the new value at its path")
        if op[0] == "s" and not strictly_equal(node[op[2]:op[2] + len(op[4])], op[4]):
            bad.append(f"{op}: not the new list's items")
    return bad


@pytest.mark.parametrize("game", GAMES)
@given(seed=st.integers(0, 2**31), data=st.data())
@settings(max_examples=5, deadline=None)
def test_the_patch_between_any_two_positions_of_a_seat_gives_its_view_and_nothing_else(game: str, seed: int,
                                                                                       data: st.DataObject) -> None:
    views = _views(game, seed)
    for k in range(len(views) - 1):  # each position after the one before, and one drawn from any earlier
        j = data.draw(st.integers(0, k), label="earlier")
        for before in {k, j}:
            for seat_view_old, seat_view_new in zip(views[before], views[k + 1], strict=True):
                ops = diff(seat_view_old, seat_view_new)
                assert strictly_equal(patched(seat_view_old, ops), seat_view_new)
                assert _drawn_from(json.loads(json.dumps(ops)), seat_view_new) == []


# -- over a socket ------------------------------------------------------------------------------------


def _deltas(seat: Seat) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, seat.received) if "delta" in m]


@pytest.mark.parametrize(("game", "seats", "options"), [("kings", 3, {}), ("saboteur", 4, {}),
                                                        ("liars-dice", 3, {"dice": 2})])
def test_every_client_rebuilds_every_position_of_a_whole_match_from_deltas(server: ThreadServer, game: str,
                                                                           seats: int, options: dict[str, Any]) -> None:
    async def scenario() -> None:
        table = await open_table(server.lobby, game, seats, options, bots={str(seats - 1): "random"})
        old = await Seat.connect(server.lobby.ws_url(table.id), protocol=1)  # an older client, watching
        try:
            await play_out(table, seed=3)
            await old.until(lambda s: s.outcome is not None)
            match = check_table(table, server.store)  # every position each client made is its projection
            for s in table.everyone:
                deltas = _deltas(s)
                assert len(deltas) > len(match.records) // 2  # most positions came as deltas
                kinds = [json.loads(t)["type"] for t in s.received]
                assert len(s.positions) == sum(k in ("sync", "update", "rewind") for k in kinds)
            assert _deltas(old) == [] and old.view == to_wire(match.view(None))
            assert all("view" in json.loads(t) for t in old.received if json.loads(t)["type"] == "update")
        finally:
            await old.close()
            await table.close()

    asyncio.run(scenario())


def test_a_delta_holds_only_parts_of_the_seats_own_new_position(server: ThreadServer) -> None:
    async def scenario() -> None:
        table = await open_table(server.lobby, "saboteur", 4, {}, bots={"3": "random"})
        try:
            await play_out(table, seed=11)
            check_table(table, server.store)
            for s in table.everyone:
                positions = {p["cursor"]: p for p in s.positions}
                for msg in _deltas(s):
                    new = positions[msg["cursor"]]
                    state = {k: new[k] for k in STATE_FIELDS}
                    assert _drawn_from(msg["delta"], state) == []
        finally:
            await table.close()

    asyncio.run(scenario())


def test_undo_redo_and_a_resync_keep_the_position_a_client_makes_of_deltas(server: ThreadServer) -> None:
    async def scenario() -> None:
        lobby = server.lobby
        m = lobby.create(game="liars-dice", seats=2, options={"dice": 3})
        joined = [lobby.join(m["id"], seat=s) for s in range(2)]
        a, b = [await Seat.connect(lobby.ws_url(j), j["token"]) for j in joined]
        old = await Seat.connect(lobby.ws_url(joined[1]), joined[1]["token"], protocol=1)
        try:
            await a.play(a.legal[3])
            await b.until(lambda s: s.cursor == a.cursor)
            await a.undo()
            await a.redo()
            await b.sync()
            await b.play(b.legal[0])
            await a.until(lambda s: s.cursor == b.cursor)
            await old.until(lambda s: s.cursor == b.cursor)
            assert any(json.loads(t)["type"] == "rewind" and "delta" in json.loads(t) for t in a.received)
            # seat 1 over protocol 2 (deltas) holds what seat 1 over protocol 1 (whole positions) holds
            assert b.view == old.view and b.legal == old.legal and b.legal_text == old.legal_text
            assert (b.undo_check, b.can_redo, b.outcome) == (old.undo_check, old.can_redo, old.outcome)
        finally:
            for s in (a, b, old):
                await s.close()

    asyncio.run(scenario())


def test_a_client_of_a_protocol_the_server_does_not_speak_is_refused_with_bad_version(server: ThreadServer) -> None:
    async def scenario() -> None:
        m = server.lobby.create(game="liars-dice", seats=2)
        with pytest.raises(ClientError) as refused:
            await Seat.connect(server.lobby.ws_url(m["id"]), protocol=3)
        assert refused.value.code == "bad_version" and "1, 2" in refused.value.message

    asyncio.run(scenario())


def test_a_seat_playing_from_deltas_finishes_its_match(server: ThreadServer) -> None:
    async def scenario() -> None:
        m = server.lobby.create(game="gophers", seats=2, bots={"1": "random"})
        joined = server.lobby.join(m["id"], seat=0)
        async with await Seat.connect(server.lobby.ws_url(joined), joined["token"]) as seat:
            rng = random.Random(2)
            await autoplay(seat, lambda s: rng.choice(s.legal))
            assert seat.outcome is not None and _deltas(seat)

    asyncio.run(scenario())


@given(pairs(), st.booleans())
@settings(max_examples=300)
def test_the_delta_of_two_positions_turns_the_first_into_the_second_whatever_their_views(pair: tuple[Any, Any],
                                                                                      objects: bool) -> None:
    from meeple.server.delta import Shown, delta_text

    old_view, new_view = pair
    if objects:  # views are objects, whose fields are compared by their texts first
        old_view, new_view = {"a": old_view, "b": 1}, {"a": new_view, **({"c": new_view} if new_view else {})}

    def shown(view: Any, n: int) -> Shown:
        state = {"view": view, "undo": {"ok": n > 0, "reason": ""}, "redo": False, "clock": None, "outcome": None}
        return Shown(state, json.dumps([{"type": "x", "n": i} for i in range(n)]), json.dumps(["x"] * n))

    old, new = shown(old_view, 0), shown(new_view, 2)
    held = json.loads("{" + old.members + "}")
    assert strictly_equal(patched(held, json.loads(delta_text(old, new))), json.loads("{" + new.members + "}"))
    assert json.loads("{" + new.members + "}")["view"] == json.loads(json.dumps(new_view))


@given(VALUES, st.dictionaries(st.from_regex(r"[a-z_]{1,6}", fullmatch=True).filter(lambda k: k != "view"), VALUES,
                       max_size=4), st.booleans())
@settings(max_examples=200)
def test_a_positions_size_is_the_length_of_its_whole_text(view: Any, rest: dict[str, Any], texts: bool) -> None:
    from meeple.server.delta import Shown
    from meeple.server.messages import dumps

    state = {"view": view, **rest}
    fields = {k: dumps(v) for k, v in view.items()} if texts and isinstance(view, dict) else None
    shown = Shown(state, "[]", '["a \\"b\\""]', fields)
    size = shown.size()  # before the whole text is built, then after
    assert size == len(shown.members) == shown.size()
    assert json.loads("{" + shown.members + "}") == json.loads(json.dumps({**state, "legal": [], "legal_text": ['a "b"']}))


@pytest.mark.parametrize("game", ["liars-dice", "kings"])
def test_the_state_texts_a_table_keeps_are_those_of_its_state(game: str) -> None:
    import meeple.examples.liars_dice  # noqa: F401  (registers liars-dice)
    from meeple.server.lobby import MatchRow, SeatRow
    from meeple.server.messages import dumps
    from meeple.server.table import Table

    seats = 2
    m = Match.start(game, seats, seed=3)
    row = MatchRow("m", game, "standard", seats, {}, 30.0, "random", "in_progress", "now")
    table = Table(row, [SeatRow(s, "human") for s in range(seats)], m, {})
    rng = random.Random(3)
    redone = 0
    for step in range(40):
        for seat in [*range(seats), None]:
            shown = table.shown(seat, "en", picture=seat == 0)
            _, rest = shown.parts()
            assert rest == {**{k: dumps(v) for k, v in shown.state.items() if k != "view"},
                            "legal": shown.legal, "legal_text": shown.legal_text}
            redone += shown.state["redo"] is True
        if m.is_over:
            break
        if step % 4 == 3 and m.can_redo():  # after an undo: the next step plays again
            m.redo()
        else:
            seat = next(s for s in m.to_act if s >= 0)
            legal = list(m.legal(seat))
            m.play(seat, legal[0] if game == "liars-dice" else rng.choice(legal))  # Liar's Dice: no early call
            if step % 4 == 2 and m.can_undo(seat).ok:  # the undo answers, and a seat that may redo
                m.undo(seat)
        table.moved()
    assert redone  # the texts were checked where a seat may redo too


def test_a_changes_records_are_shared_only_by_the_seats_that_see_them_alike() -> None:
    import meeple.examples.liars_dice  # noqa: F401  (registers liars-dice)
    from meeple.server.lobby import MatchRow, SeatRow
    from meeple.server.table import Table, _Changes

    m = Match.start("liars-dice", 3, seed=5, options={"dice": 3})
    m.play(0, m.legal(0)[0])
    row = MatchRow("m", "liars-dice", "standard", 3, {"dice": 3}, None, "random", "in_progress", "now")
    table = Table(row, [SeatRow(s, "human") for s in range(3)], m, {})

    class Conn:  # what the table reads of a connection
        def __init__(self, seat: int | None) -> None:
            self.seat, self.lang, self.picture, self.protocol, self.shown = seat, "en", False, 2, None
            self.cursor, self.head = 0, b""

    changes = _Changes(table, "update", "play", 0)
    dice = {e.seat: list(e.dice) for e in m.records[0].events}
    for seat in (0, 1, None, 2):  # the roll shows each seat its own dice; the bid is the same for all
        message = json.loads(changes.text(Conn(seat), 0))  # type: ignore[arg-type]
        assert message["records"] == table.records(seat, 0)
        shown = [e["dice"] for e in message["records"][0]["events"]]
        assert shown == [dice[s] if s == seat else None for s in range(3)]
    assert len(changes._records) == 4  # four lists of records: none alike (the roll differs), each its own text
    bid = _Changes(table, "update", "play", 0)
    for seat in (0, 1, None):
        bid.text(Conn(seat), 1)  # type: ignore[arg-type]
    assert len(bid._records) == 1  # the bid alone: one text for every seat
