"""Canonical encoding: a log is read only in the one byte form the writer gives it (docs/log-format.md).

Each forgery below keeps a valid hash chain (the forger recomputes it) and
decodes to the same match as the honest log, so only the canonical-form rule
tells them apart: two byte-different logs must never pass as one match. Each
is tried with the compiled reader and the pure-Python one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import attrs
import msgpack
import pytest

import liars_dice as ld
import meeple
from meeple.engine import CorruptLog, Match, read_log
from meeple.engine import log as log_module
from meeple.engine import reader as reader_module
from meeple.engine.codec import pack
from meeple.engine.log import MAGIC, frame, iter_frames


@pytest.fixture(params=["compiled", "python"])
def reader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test with the compiled reader, then with the pure-Python one."""
    if request.param == "python":
        monkeypatch.setattr(reader_module, "_speedups", None)
        monkeypatch.setattr(log_module, "_speedups", None)
    elif reader_module._speedups is None:
        pytest.skip("meeple._speedups was not built")
    return str(request.param)


def _honest() -> bytes:
    m = Match.start("liars-dice", 2, seed=4, options={"dice": 2})
    m.play(0, ld.Bid(1, 2))
    m.play(1, ld.Bid(2, 2))
    m.play(0, ld.CallLiar())
    return m.to_bytes()


def _bodies(data: bytes) -> list[bytes]:
    return [f.body for f in iter_frames(data)]


def _chained(bodies: list[bytes]) -> bytes:
    out, prev = [MAGIC], MAGIC
    for b in bodies:
        fr, prev = frame(b, prev)
        out.append(fr)
    return b"".join(out)


def _refused(data: bytes, why: str) -> None:
    with pytest.raises(CorruptLog, match=why):
        read_log(data)
    report = meeple.verify(data)
    assert not report.ok and report.first_divergence is not None
    assert re.search(why, report.first_divergence.reason)


NOT_CANONICAL = "not in the canonical msgpack encoding"


# -- record bodies ---------------------------------------------------------------------------------

def _record_forgeries(body: bytes) -> Iterator[tuple[str, bytes]]:
    """Other byte forms of the record ``body`` (an array of 6 starting with a fixarray byte)."""
    assert body[0] == 0x96
    head, rest = body[:1], body[1:]
    seq = rest[0]
    assert seq <= 0x7F  # a positive fixint
    tail = rest[1:]
    yield "seq as uint32", head + b"\xce" + seq.to_bytes(4, "big") + tail
    yield "seq as uint8", head + b"\xcc" + bytes([seq]) + tail
    yield "seq as int8", head + b"\xd0" + bytes([seq]) + tail
    yield "seq as uint64", head + b"\xcf" + seq.to_bytes(8, "big") + tail
    yield "record as array16", b"\xdc\x00\x06" + rest
    yield "record as array32", b"\xdd\x00\x00\x00\x06" + rest
    yield "trailing byte", body + b"\xc0"


@pytest.mark.parametrize("which", [name for name, _ in _record_forgeries(_bodies(_honest())[2])])
def test_a_record_in_a_longer_encoding_is_refused(reader: str, which: str) -> None:
    bodies = _bodies(_honest())
    forged = dict(_record_forgeries(bodies[2]))[which]
    assert msgpack.unpackb(forged[: len(forged) - (which == "trailing byte")]) == msgpack.unpackb(bodies[2])
    data = _chained([*bodies[:2], forged, *bodies[3:]])
    _refused(data, NOT_CANONICAL if which != "trailing byte" else "undecodable frame")
    with pytest.raises(CorruptLog) as err:
        read_log(data)
    assert err.value.record == 1


def test_the_seq_written_as_uint32_under_a_recomputed_chain_no_longer_verifies(reader: str) -> None:
    """The reported case: the forged log passed verify as the same match."""
    data = _honest()
    bodies = _bodies(data)
    raw = msgpack.unpackb(bodies[3])
    forged = b"\x96\xce" + raw[0].to_bytes(4, "big") + bodies[3][2:]
    fake = _chained([*bodies[:3], forged, *bodies[4:]])
    assert fake != data and msgpack.unpackb(forged) == raw
    assert not meeple.verify(fake).ok
    assert meeple.verify(data).ok


def _reencode(data: bytes, i: int, edit: Callable[[Any], Any]) -> bytes:
    bodies = _bodies(data)
    bodies[i] = edit(msgpack.unpackb(bodies[i], strict_map_key=False))
    return _chained(bodies)


@pytest.mark.parametrize("value, encoded", [
    ("x" * 5, b"\xd9\x05xxxxx"), ("x" * 40, b"\xda\x00\x28" + b"x" * 40), (b"ab", b"\xc5\x00\x02ab"),
    (-5, b"\xd0\xfb"), (-100, b"\xd1\xff\x9c"), (300, b"\xce\x00\x00\x01\x2c"), ([], b"\xdc\x00\x00"),
    (1.5, b"\xca\x3f\xc0\x00\x00"),
], ids=["str8", "str16", "bin16", "int8", "int16", "uint32", "array16", "float32"])
def test_every_value_must_take_its_shortest_form(reader: str, value: Any, encoded: bytes) -> None:
    assert msgpack.unpackb(encoded) == value and pack(value) != encoded
    data = _honest()
    bodies = _bodies(data)
    raw = msgpack.unpackb(bodies[2])  # [seq, actor, command, events, rng, checkpoint]
    body = msgpack.packb([*raw[:5], "PLACEHOLDER"]).replace(msgpack.packb("PLACEHOLDER"), encoded)
    with pytest.raises(CorruptLog, match=NOT_CANONICAL):
        read_log(_chained([*bodies[:2], body, *bodies[3:]]))
    honest_form = msgpack.packb([*raw[:5], value], use_bin_type=True)
    with pytest.raises(CorruptLog, match=r"checkpoint|malformed"):  # the canonical form is refused for its content
        read_log(_chained([*bodies[:2], honest_form, *bodies[3:]]))


def test_a_checkpoint_must_be_where_one_is_due_and_nowhere_else(reader: str) -> None:
    m = Match.start("liars-dice", 6, seed=2, options={"dice": 5, "sides": 12})
    while len(m) < 70:
        m.play(m.to_act[0], m.legal(m.to_act[0])[0])
    data = m.to_bytes()
    at = 63  # the record written with the checkpoint (every 64)
    missing = _reencode(data, at + 1, lambda r: pack([*r[:5], None]))
    with pytest.raises(CorruptLog, match="missing") as err:
        read_log(missing)
    assert err.value.record == at
    ck = msgpack.unpackb(_bodies(data)[at + 1])[5]
    extra = _reencode(data, 5, lambda r: pack([*r[:5], ck]))
    with pytest.raises(CorruptLog, match="none is due"):
        read_log(extra)
    assert not meeple.verify(missing).ok and not meeple.verify(extra).ok


# -- the header ----------------------------------------------------------------------------------------


def _header_edit(edit: Callable[[dict[str, Any]], Any]) -> bytes:
    data = _honest()
    bodies = _bodies(data)
    raw = msgpack.unpackb(bodies[0])
    bodies[0] = edit(raw)
    return _chained(bodies)


def _moved(raw: dict[str, Any], key: str) -> bytes:
    """The header with ``key`` moved to the end: the same map, its keys out of order."""
    value = raw.pop(key)
    raw[key] = value
    return pack(raw)


@pytest.mark.parametrize("edit, why", [
    (lambda h: _moved(h, "checkpoint_every"), "sorted order"),
    (lambda h: pack({**h, "options": dict(reversed(list(h["options"].items())))}), "options are not in sorted order"),
    (lambda h: pack({**h, "meta": {"z": 1, "a": {"y": 1, "b": 2}}}), "meta is not in sorted order"),
    (lambda h: pack({**h, "zzz": 1}), "unknown field 'zzz'"),
    (lambda h: pack({k: v for k, v in h.items() if k != "meta"}), r"missing or malformed field \('meta'\)"),
    (lambda h: pack({**h, "types": [*h["types"], h["types"][0]]}), "names a type twice"),
    (lambda h: pack({**h, "commitment": h["commitment"][:8]}), "16 bytes"),
    (lambda h: pack(h).replace(b"\xa5seeds\x91\x92\x00\x04", b"\xa5seeds\x91\x92\x00\xcd\x00\x04"), NOT_CANONICAL),
    (lambda h: pack({**h, "meta": {"when": msgpack.ExtType(5, b"")}}), "undecodable"),
    (lambda h: pack({**h, "meta": {"when": msgpack.Timestamp(1)}}), "undecodable"),
    (lambda h: pack({**h, "meta": {"ratio": 0.5}}).replace(pack(0.5), b"\xca\x3f\x00\x00\x00"), NOT_CANONICAL),
], ids=["keys out of order", "options out of order", "nested meta out of order", "an unknown field", "no meta",
        "a type twice", "a short commitment", "a seed in a longer form", "an extension type", "a timestamp",
        "a 32-bit float"])
def test_a_header_in_another_form_is_refused(reader: str, edit: Callable[[dict[str, Any]], bytes], why: str) -> None:
    forged = _header_edit(edit)
    with pytest.raises(CorruptLog, match=why):
        read_log(forged)
    assert not meeple.verify(forged).ok


def test_the_writer_sorts_nested_meta_so_its_logs_read_back(reader: str) -> None:
    m = Match.start("liars-dice", 2, seed=1, meta={"z": 1, "table": {"seat b": "Bo", "seat a": "Al"}})
    data = m.to_bytes()
    back = Match.from_bytes(data)
    assert list(back.meta["table"]) == ["seat a", "seat b"] and back.to_bytes() == data


def test_an_option_missing_from_an_old_header_takes_its_default(reader: str) -> None:
    """The one variation the header allows: an option the game added since the log was written."""
    data = _header_edit(lambda h: pack({**h, "options": {k: v for k, v in h["options"].items() if k != "wild"}}))
    log = read_log(data)
    assert log.options.wild is True and meeple.verify(data).ok


def test_an_option_in_another_form_is_refused(reader: str) -> None:
    forged = _header_edit(lambda h: pack({**h, "options": {**h["options"], "wild": 1}}))
    with pytest.raises(CorruptLog, match="option"):
        read_log(forged)


# -- messages whose fields decode alike from several forms ----------------------------------------------


@attrs.frozen
class Chose(ld.Event):
    """A test event whose fields decode from many forms: a set and a map."""

    tag: ClassVar[str] = "chose"
    seat: int
    faces: frozenset[int]
    notes: dict[str, int]


class LiarsDiceWithSets(ld.LiarsDice):
    """Liar's Dice whose bids also write a :class:`Chose` event."""

    events = (*ld.LiarsDice.events, Chose)

    def decide(self, state: ld.State, seat: int, command: meeple.Command, rng: meeple.Rng) -> tuple[meeple.Event, ...]:
        events = super().decide(state, seat, command, rng)
        if isinstance(command, ld.Bid):
            return (*events, Chose(seat, frozenset({command.face, 1, 6}), {"q": command.quantity, "f": command.face}))
        return events

    def evolve(self, state: ld.State, event: meeple.Event) -> ld.State:
        return state if isinstance(event, Chose) else super().evolve(state, event)


@pytest.fixture
def with_sets() -> Iterator[bytes]:
    old = meeple.get_game("liars-dice")
    meeple.register(LiarsDiceWithSets())
    try:
        m = Match.start("liars-dice", 2, seed=4)
        m.play(0, ld.Bid(1, 3))
        yield m.to_bytes()
    finally:
        meeple.register(old)


def _chose(data: bytes, edit: Callable[[list[Any]], None]) -> bytes:
    def change(raw: list[Any]) -> bytes:
        edit(raw[3][-1])  # the Chose event: [index, seat, faces, notes]
        return pack(raw)

    return _reencode(data, 2, change)


def test_a_set_or_map_field_is_read_only_in_sorted_order(reader: str, with_sets: bytes) -> None:
    log = read_log(with_sets)
    assert log.records[1].events[-1] == Chose(0, frozenset({1, 3, 6}), {"f": 3, "q": 1})
    assert meeple.verify(with_sets).ok
    for edit in (lambda e: e.__setitem__(2, [6, 3, 1]),  # the set's items out of order
                 lambda e: e.__setitem__(2, [1, 1, 3, 6]),  # an item twice
                 lambda e: e.__setitem__(3, {"q": 1, "f": 3})):  # the map's keys out of order
        forged = _chose(with_sets, edit)
        with pytest.raises(CorruptLog, match="canonical form"):
            read_log(forged)
        assert not meeple.verify(forged).ok
