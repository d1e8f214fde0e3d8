"""The fast paths of the log reader against the checking code they stand in for.

The compiled loops (``meeple._speedups``) and the pure-Python fast paths must
accept exactly the logs the checking reader accepts, with the same result (the
forged-record comparison is in test_benchmarks.py); here: headers, BLAKE2b
against hashlib's, every bundled game's logs, and the switch that turns the
compiled loops off. Tests of the compiled code are skipped where the package
was built without a C compiler.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeple
from meeple.engine import ENGINE, Match, RandomBot, Record
from meeple.engine import reader as reader_module
from meeple.engine.errors import LogError
from meeple.engine.log import HASH_SIZE, LENGTH, read_header
from meeple.engine.match import codec_for
from meeple.engine.records import TypeTable

try:
    from meeple import _speedups as speedups
except ImportError:  # built without a C compiler: the pure-Python reader is all there is
    speedups = None

compiled = pytest.mark.skipif(speedups is None, reason="meeple._speedups was not built")


@compiled
@given(st.binary(max_size=700), st.binary(max_size=40))
def test_blake2b_is_hashlibs(data: bytes, key: bytes) -> None:
    assert speedups.blake2b_128(data, key) == hashlib.blake2b(key + data, digest_size=16).digest()


def _played(game: str, seats: int, seed: int) -> Match:
    m = Match.start(game, seats, seed=seed)
    bots = [RandomBot(seed * 31 + s) for s in range(seats)]
    while m.to_act and len(m) < 400:
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    return m


@compiled
@pytest.mark.parametrize("game", ["saboteur", "kings", "gophers", "mordred", "liars-dice"])
def test_both_loops_read_every_game_alike(game: str) -> None:
    seats = 3 if game in ("saboteur", "mordred") else 2
    for seed in range(2):
        m = _played(game, seats, seed)
        for data in (m.to_bytes(), m.to_bytes(hide_seed=True)):
            header, prev, end = read_header(data)
            table = TypeTable.of(codec_for(meeple.get_game(game)), header.types)
            compiled = reader_module._read_records(data, end, prev, table, header)
            pure = reader_module._read_records_py(data, end, prev, table, header)
            assert compiled is not None and compiled == pure
            records = compiled[0]
            assert all(type(r) is Record for r in records) and records == list(m.records)
            assert [r.seq for r in records] == list(range(len(m)))


@compiled
def test_the_compiled_loop_rejects_arguments_of_the_wrong_kind() -> None:
    with pytest.raises(TypeError):
        speedups.read_records("not bytes", 0, bytes(16), (), (), Record, None)
    with pytest.raises(ValueError):
        speedups.read_records(b"", 0, bytes(15), (), (), Record, None)
    with pytest.raises(ValueError):
        speedups.read_records(b"", 0, bytes(16), (), (), dict, None)


@compiled
def test_meeple_pure_python_turns_the_compiled_loop_off() -> None:
    code = "from meeple.engine import reader; print(reader._speedups is None)"
    env = {**os.environ, "MEEPLE_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
    env.pop("MEEPLE_PURE_PYTHON")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@compiled
def test_the_compiled_header_reader_accepts_only_what_the_checking_one_accepts() -> None:
    from meeple.engine.codec import digest
    from meeple.engine.log import _HEADER_SLOTS, MAGIC, Header, _check_header

    def framed(raw: object) -> bytes:
        body = msgpack.packb(raw)
        return MAGIC + LENGTH.pack(len(body) + HASH_SIZE) + body + digest(body, MAGIC)

    def compiled(log: bytes, cache: dict[bytes, Any] | None) -> Any:
        """The compiled reader's header, hash and end, built both ways, or None (as the reader takes them:
        the compiled code checks the header's shape, ``Header.problem`` the rules of its seeds and types)."""
        found = speedups.read_header(log, MAGIC, msgpack.unpackb)
        if _HEADER_SLOTS is None:
            return None if found is None or Header(*found[0]).problem() else (Header(*found[0]), found[1], found[2])
        built = speedups.read_header(log, MAGIC, msgpack.unpackb, Header, _HEADER_SLOTS, cache)
        assert (found is None) == (built is None)
        if built is None:
            return None
        assert (Header(*found[0]), found[1], found[2]) == built[:3] and type(built[0]) is Header
        return None if built[0].problem() else built[:3]

    accepted = refused = 0
    cache: dict[bytes, Any] = {}  # kinds of header shared across the honest and forged ones
    for hide in (False, True):
        data = Match.start("kings", 3, seed=9).to_bytes(hide_seed=hide)
        raw = msgpack.unpackb(data[12 : 12 + LENGTH.unpack_from(data, 8)[0] - HASH_SIZE])
        for _ in range(2):  # read, then read again as a known kind
            assert compiled(data, cache) == _check_header(data)
        if _HEADER_SLOTS is not None:
            with pytest.raises(ValueError):
                speedups.read_header(data, MAGIC, msgpack.unpackb, Header, _HEADER_SLOTS[:3])
        forgeries = [*_header_forgeries(raw), {**raw, "types": [["x", 1 << 70]]}, {**raw, "seeds": [[0, (1 << 64) - 1]]},
                     {**raw, "seeds": [[0, 1 << 64]]}, {**raw, "checkpoint_every": 1 << 64},
                     {**raw, "seeds": [[7, 1], [300, 1 << 40]]}, {**raw, "seeds": [[-1, 5]]},
                     {**raw, "commitment": b""}, {**raw, "commitment": bytes(300)}]
        for forged in forgeries:
            try:
                log = framed(forged)
            except (TypeError, ValueError, OverflowError):
                continue  # msgpack cannot write it
            try:
                slow: object = _check_header(log)
            except LogError as e:
                slow = e
            for attempt in (None, cache, cache):
                fast = compiled(log, attempt)
                if fast is not None:
                    accepted += 1
                    assert fast == slow, f"accepted {forged!r} differently"
                else:
                    refused += 1
    assert accepted > 30 and refused > 300
    assert 2 <= len(cache) <= 64
    for cut in range(0, 40, 3):  # torn or foreign headers
        assert speedups.read_header(data[:cut], MAGIC, msgpack.unpackb) is None


def test_a_header_read_from_a_known_kind_owns_its_options() -> None:
    from meeple.engine.log import read_header

    data = Match.start("liars-dice", 3, seed=1, options={"dice": 2}).to_bytes()
    first, _, _ = read_header(data)
    first.options["dice"] = 5  # a caller changing its header's (mutable) options map
    again, _, _ = read_header(data)
    assert again.options["dice"] == 2 and again == read_header(data)[0]


def _header_forgeries(raw: dict[str, Any]) -> Iterator[Any]:
    swaps: list[Any] = [True, False, 0, 1, 1.0, -1, 1 << 64, None, "x", b"x", [], [0], [[0, 1]], [["bid", 1]],
                        [[0, True]], [["x", 0]], {}, {"a": 1}, {1: 2}]
    for key in raw:
        for swap in swaps:
            yield {**raw, key: swap}
        yield {k: v for k, v in raw.items() if k != key}
    yield {**raw, "extra": 1}
    yield [raw]
    for item in ("seeds", "types"):
        if raw[item]:
            for swap in swaps:
                yield {**raw, item: [swap, *raw[item][1:]]}
                yield {**raw, item: [[raw[item][0][0], swap], *raw[item][1:]]}
                yield {**raw, item: [[swap, raw[item][0][1]], *raw[item][1:]]}
    yield {**raw, "seeds": [[0, 1]] * 257}


def test_the_fast_header_reader_accepts_exactly_the_headers_the_checking_one_accepts() -> None:
    from meeple.engine.log import Header

    checked = 0
    for hide in (False, True):
        data = Match.start("liars-dice", 2, seed=5, options={"dice": 2}).to_bytes(hide_seed=hide)
        raw = msgpack.unpackb(data[12 : 12 + LENGTH.unpack_from(data, 8)[0] - HASH_SIZE])
        assert Header.from_known(raw) == Header.from_prim(raw, 8)  # an honest header takes the fast path
        for forged in _header_forgeries(raw):
            fast = Header.from_known(forged)
            try:
                slow: Any = Header.from_prim(forged, 8)
            except LogError as e:
                slow = e
            if fast is not None:
                assert fast == slow, f"the fast reader accepted {forged!r} differently"
            else:
                checked += 1
    assert checked > 100


def test_reading_a_log_leaves_the_garbage_collector_as_it_found_it() -> None:
    import gc

    from meeple.engine.errors import CorruptLog

    data = _played("kings", 2, 1).to_bytes()
    forged = bytearray(data)
    forged[-20] ^= 1  # inside the last frame: the hash chain breaks
    assert gc.isenabled()
    Match.from_bytes(data)
    assert gc.isenabled()
    with pytest.raises(CorruptLog):
        Match.from_bytes(bytes(forged))
    assert gc.isenabled()
    gc.disable()
    try:
        Match.from_bytes(data)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_headers_of_many_kinds_are_read_alike_and_remembered_within_a_bound() -> None:
    from meeple.engine import log as log_module
    from meeple.engine.log import _check_header, read_header

    for i in range(70):  # every match a kind of its own (its meta differs)
        data = Match.start("liars-dice", 2, seed=i, meta={"table": i}).to_bytes()
        assert read_header(data) == _check_header(data)
        assert Match.from_bytes(data).meta == {"table": i}
        assert len(log_module._KNOWN_HEADERS) <= 64


def _same(a: Any, b: Any) -> bool:
    """Equal values of the same classes all the way down (True is not 1; NaN is NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, float):
        return a == b or (a != a and b != b)
    return bool(a == b)


_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(1 << 63), (1 << 64) - 1) | st.floats() | st.text() | st.binary(),
    lambda inner: st.lists(inner, max_size=20) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=40,
)


@compiled
@given(_values, st.booleans())
def test_the_compiled_msgpack_subset_decodes_as_unpackb_does(value: Any, single: bool) -> None:
    try:
        data = msgpack.packb(value, use_single_float=single)
    except OverflowError:  # a float too large for single precision
        return
    assert _same(speedups.unpack(data, msgpack.unpackb), msgpack.unpackb(data))


@compiled
@given(st.binary(max_size=60))
def test_the_compiled_msgpack_subset_fails_as_unpackb_does(data: bytes) -> None:
    try:
        expected: Any = msgpack.unpackb(data)
    except Exception as e:  # msgpack raises several unrelated types
        with pytest.raises(type(e)):
            speedups.unpack(data, msgpack.unpackb)
    else:
        assert _same(speedups.unpack(data, msgpack.unpackb), expected)


_MUTATED_LOGS = [_played(game, seats, 1).to_bytes() for game, seats in (("kings", 2), ("mordred", 3), ("liars-dice", 3))]


@given(st.sampled_from(_MUTATED_LOGS), st.data())
def test_every_reader_agrees_on_records_mutated_under_a_valid_chain(data: bytes, draw: st.DataObject) -> None:
    from meeple.engine.codec import digest
    from meeple.engine.log import iter_frames

    header, prev, end = read_header(data)
    bodies = [f.body for f in list(iter_frames(data))[1:]]
    i = draw.draw(st.integers(0, len(bodies) - 1))
    body = bytearray(bodies[i])
    for _ in range(draw.draw(st.integers(1, 3))):
        j = draw.draw(st.integers(0, len(body) - 1))
        body[j : j + 1] = draw.draw(st.sampled_from([b"", bytes([draw.draw(st.integers(0, 255))]), b"\x00\xc0"]))
    bodies[i] = bytes(body)
    parts, link = [data[:end]], prev
    for b in bodies:  # a forger's log: the chain is valid, the record is not what was written
        link = digest(b, link)
        parts.append(LENGTH.pack(len(b) + HASH_SIZE) + b + link)
    forged = b"".join(parts)
    table = TypeTable.of(codec_for(meeple.get_game(header.game)), header.types)
    fast = reader_module._read_records(forged, end, prev, table, header)
    pure = reader_module._read_records_py(forged, end, prev, table, header)
    try:
        slow: Any = reader_module._check_records(forged, prev, table, header)
    except LogError as e:
        slow = e
    assert (fast is None) == (pure is None)
    if fast is not None:
        assert fast == pure == slow
