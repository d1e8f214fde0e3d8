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
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeple
from meeple.engine import ENGINE, Match, RandomBot, Record
from meeple.engine import reader as reader_module
from meeple.engine.errors import LogError
from meeple.engine.log import HASH_SIZE, LENGTH, iter_frames, read_header
from meeple.engine.match import codec_for
from meeple.engine.records import TypeTable

try:
    from meeple import _speedups as speedups
except ImportError:  # built without a C compiler: the pure-Python reader is all there is
    speedups = None

compiled = pytest.mark.skipif(speedups is None, reason="meeple._speedups was not built")


@compiled
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1),
       st.lists(st.one_of(st.integers(1, 40), st.integers(1, 2**64), st.just(2**64), st.just((1 << 63) + 1)),
                max_size=12),
       st.lists(st.integers(), max_size=40))
def test_the_compiled_rng_core_draws_the_words_of_the_pure_one(seed: int, counter: int, bounds: list[int],
                                                                items: list[int]) -> None:
    from meeple.engine.rng import PyRngCore

    fast, slow = speedups.RngCore(seed, counter), PyRngCore(seed, counter)
    if counter < 2**64 - 200:  # the pure core's counter does not wrap at 2**64; the compiled one's does
        assert [fast.below(n) for n in bounds] == [slow.below(n) for n in bounds]
        assert fast.counter == slow.counter
        assert fast.next64() == slow.next64() and fast.counter == slow.counter
        listed, other = list(items), list(items)
        fast.shuffle_in_place(listed)
        slow.shuffle_in_place(other)
        assert listed == other and fast.counter == slow.counter
        array_like = bytearray(x % 256 for x in items)  # not a list: the generic path
        again = bytearray(array_like)
        fast.shuffle_in_place(array_like)
        slow.shuffle_in_place(again)
        assert array_like == again and fast.counter == slow.counter


@compiled
def test_the_compiled_rng_core_refuses_what_the_pure_one_refuses() -> None:
    from meeple.engine.rng import PyRngCore

    for core in (speedups.RngCore, PyRngCore):
        for bad in ((-1,), (2**64,), (1, -1), (1, 2**64)):
            with pytest.raises(ValueError):
                core(*bad)
        for n in (0, -5, 2**64 + 1):
            with pytest.raises(ValueError):
                core(1).below(n)
        r = core(1, 7)
        with pytest.raises(ValueError):
            r.below(0)
        assert r.counter == 7  # a refused draw draws nothing


def test_rng_uses_the_compiled_core_unless_told_not_to() -> None:
    code = "from meeple.engine.rng import Rng; print(Rng.__mro__[1].__name__)"
    env = dict(os.environ)
    env.pop("MEEPLE_PURE_PYTHON", None)
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert found.stdout.strip() == ("RngCore" if speedups is not None else "PyRngCore")
    env["MEEPLE_PURE_PYTHON"] = "1"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert found.stdout.strip() == "PyRngCore"


@attrs.frozen
class _Base:
    a: int
    b: tuple[int, ...] = ()


@attrs.frozen
class _Built(_Base):
    c: str | None = None


@attrs.frozen(slots=False)
class _DictBacked:
    a: int


_values = st.tuples(st.integers(), st.tuples(st.integers()), st.none() | st.text(max_size=5))


@given(_values)
def test_a_builder_builds_what_the_class_builds(values: tuple[Any, ...]) -> None:
    from meeple.engine.copies import builder, replacer

    built = builder(_Built)(*values)
    assert built == _Built(*values)
    assert (built.a, built.b, built.c) == values and type(built) is _Built
    assert builder(_Built)(c=values[2], b=values[1], a=values[0]) == built  # by name: the Python function
    again = replacer(_Built, "c")(built, "new")
    assert again == _Built(values[0], values[1], "new") and again is not built
    assert replacer(_Built, "a", "b")(built, 1, (2,)) == _Built(1, (2,), values[2])


def test_a_builder_is_compiled_for_slotted_classes_unless_told_not_to() -> None:
    code = ("from meeple.engine.copies import builder; from meeple.games.saboteur.events import CardDrawn; "
            "b = builder(CardDrawn); print(type(b).__name__, b(1, 2) == CardDrawn(1, 2))")
    env = dict(os.environ)
    env.pop("MEEPLE_PURE_PYTHON", None)
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert found.stdout.split() == ["SlotBuilder" if speedups is not None else "function", "True"]
    env["MEEPLE_PURE_PYTHON"] = "1"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert found.stdout.split() == ["function", "True"]


@compiled
def test_the_slot_builder_sets_every_slot_or_hands_the_call_on() -> None:
    import gc
    import pickle

    slots = (_Base.__dict__["a"], _Base.__dict__["b"], _Built.__dict__["c"])
    calls: list[Any] = []

    def fallback(*args: Any, **kwargs: Any) -> str:
        calls.append((args, kwargs))
        return "handed on"

    build = speedups.SlotBuilder(_Built, slots, fallback)
    value = build(1, (2, 3), "x")
    assert value == _Built(1, (2, 3), "x") and gc.is_tracked(value) and hash(value) == hash(_Built(1, (2, 3), "x"))
    assert pickle.loads(pickle.dumps(value)) == value
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        value.a = 2  # type: ignore[misc]
    assert build(1, 2) == "handed on" and build(a=1, b=2, c=3) == "handed on"
    assert calls == [((1, 2), {}), ((), {"a": 1, "b": 2, "c": 3})]
    assert repr(build) == "<SlotBuilder of _Built>" and build.cls is _Built and build.fallback is fallback


@attrs.frozen
class _WithNew:
    a: int

    def __new__(cls, *args: Any, **kwargs: Any) -> _WithNew:
        return super().__new__(cls)


def test_a_class_the_slot_builder_does_not_take_is_built_in_python() -> None:
    from meeple.engine.copies import builder, replacer

    build = builder(_WithNew)
    assert type(build).__name__ == "function" and build(3) == _WithNew(3)
    assert replacer(_WithNew, "a")(_WithNew(1), 2) == _WithNew(2)


@compiled
def test_the_slot_builder_refuses_what_is_not_a_slot_of_the_class() -> None:
    a, b, c = _Base.__dict__["a"], _Base.__dict__["b"], _Built.__dict__["c"]
    with pytest.raises(TypeError, match="member descriptors"):
        speedups.SlotBuilder(_Built, (a, "b"), print)
    with pytest.raises(TypeError, match="not an object slot of"):
        speedups.SlotBuilder(_Base, (a, c), print)  # c is a slot of the subclass
    with pytest.raises(TypeError, match="not an object slot of"):
        speedups.SlotBuilder(_Base, (speedups.RngCore.__dict__["seed"],), print)
    with pytest.raises(TypeError, match="given twice"):
        speedups.SlotBuilder(_Built, (a, b, a), print)
    with pytest.raises(TypeError, match=r"not built by object\.__new__"):
        speedups.SlotBuilder(int, (), print)
    with pytest.raises(TypeError, match="callable"):
        speedups.SlotBuilder(_Built, (a,), None)
    with pytest.raises(TypeError):
        speedups.SlotBuilder(_DictBacked(1), (), print)


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
        speedups.read_records("not bytes", 0, bytes(16), (), (), Record, None, 64)
    with pytest.raises(TypeError):
        speedups.read_records(b"", 0, bytes(16), (), (), Record, None)
    with pytest.raises(ValueError):
        speedups.read_records(b"", 0, bytes(15), (), (), Record, None, 64)
    with pytest.raises(ValueError):
        speedups.read_records(b"", 0, bytes(16), (), (), dict, None, 64)
    with pytest.raises(ValueError):
        speedups.read_records(b"", 0, bytes(16), (), (), Record, None, 0)


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
    from meeple.engine.log import _HEADER_SLOTS, MAGIC, Header, _check_header, decode_body

    def framed(raw: object) -> bytes:
        body = msgpack.packb(raw)
        return MAGIC + LENGTH.pack(len(body) + HASH_SIZE) + body + digest(body, MAGIC)

    def compiled(log: bytes, cache: dict[bytes, Any] | None) -> Any:
        """The compiled reader's header, hash and end, built both ways, or None, as the reader takes them: the
        compiled code checks the header's bytes (``decode_body``) and shape, and lays its kind out as the writer
        does (else the kind is None); ``Header.problem`` checks the rules of its fields."""
        found = speedups.read_header(log, MAGIC, decode_body)
        if _HEADER_SLOTS is None:
            pytest.skip("the compiled header reader needs the Header's slots")
        built = speedups.read_header(log, MAGIC, decode_body, Header, _HEADER_SLOTS, cache)
        assert (found is None) == (built is None)
        if built is None:
            return None
        assert (Header(*found[0]), found[1], found[2]) == built[:3] and type(built[0]) is Header
        if cache is not None and built[3] is None:
            return None  # not laid out as the writer lays a header out
        if built[0].problem():
            if cache is not None:
                cache.pop(built[3], None)  # what the reader does with a kind whose fields break the rules
            return None
        return built[:3]

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


# -- canonical encodings: every reader takes exactly the writer's byte form --------------------------------


def _loose(value: Any, pick: Callable[[int], int]) -> bytes:
    """``value`` in msgpack, every item in one of the forms that decode to it: ``pick(n)`` chooses among ``n``.

    Choice 0 is always the canonical form (the shortest; maps in the order given), so
    ``_loose(v, lambda n: 0) == pack(v)`` for values the writer writes.
    """
    import struct

    def sized(kinds: list[tuple[int, int, int]], n: int) -> bytes:
        fits = [(t, w) for t, w, limit in kinds if n < limit]
        t, w = fits[pick(len(fits))]
        return bytes([t]) + n.to_bytes(w, "big")

    if value is None or value is True or value is False:
        return {None: b"\xc0", False: b"\xc2", True: b"\xc3"}[value]
    if isinstance(value, int):
        forms: list[bytes] = []
        if 0 <= value < 128:
            forms.append(bytes([value]))
        if -32 <= value < 0:
            forms.append(struct.pack(">b", value))
        for t, fmt, lo, hi in ((0xCC, ">B", 0, 1 << 8), (0xCD, ">H", 0, 1 << 16), (0xCE, ">I", 0, 1 << 32),
                               (0xCF, ">Q", 0, 1 << 64), (0xD0, ">b", -(1 << 7), 1 << 7), (0xD1, ">h", -(1 << 15), 1 << 15),
                               (0xD2, ">i", -(1 << 31), 1 << 31), (0xD3, ">q", -(1 << 63), 1 << 63)):
            if lo <= value < hi and not (t < 0xD0 and value < 0):
                forms.append(bytes([t]) + struct.pack(fmt, value))
        canonical = msgpack.packb(value)
        forms.sort(key=lambda f: f != canonical)
        return forms[pick(len(forms))]
    if isinstance(value, float):
        forms = [b"\xcb" + struct.pack(">d", value)]
        try:
            single = struct.pack(">f", value)
        except OverflowError:  # too large for 32 bits
            single = b""
        if single and (struct.unpack(">f", single)[0] == value or value != value):
            forms.append(b"\xca" + single)
        return forms[pick(len(forms))]
    if isinstance(value, str):
        data = value.encode()
        n = len(data)
        head = bytes([0xA0 | n]) if n < 32 and pick(2) == 0 else b""
        return (head or sized([(0xD9, 1, 1 << 8), (0xDA, 2, 1 << 16), (0xDB, 4, 1 << 32)], n)) + data
    if isinstance(value, bytes):
        return sized([(0xC4, 1, 1 << 8), (0xC5, 2, 1 << 16), (0xC6, 4, 1 << 32)], len(value)) + value
    if isinstance(value, list):
        n = len(value)
        head = bytes([0x90 | n]) if n < 16 and pick(2) == 0 else sized([(0xDC, 2, 1 << 16), (0xDD, 4, 1 << 32)], n)
        return head + b"".join(_loose(v, pick) for v in value)
    if isinstance(value, dict):
        items = list(value.items())
        if len(items) > 1 and pick(2):
            items.reverse()
        n = len(items)
        head = bytes([0x80 | n]) if n < 16 and pick(2) == 0 else sized([(0xDE, 2, 1 << 16), (0xDF, 4, 1 << 32)], n)
        return head + b"".join(_loose(k, pick) + _loose(v, pick) for k, v in items)
    raise TypeError(type(value))


def test_the_loose_writer_writes_the_canonical_form_when_it_picks_the_first() -> None:
    data = _MUTATED_LOGS[0]
    for f in iter_frames(data):
        assert _loose(msgpack.unpackb(f.body), lambda n: 0) == f.body


def _outcome(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except LogError as e:
        return (type(e).__name__, str(e))


def _every_reader(data: bytes) -> list[Any]:
    """What each reader makes of ``data``: the compiled and pure-Python fast paths, the checking loop, read_log."""
    from meeple.engine import log as log_module

    header, prev, end = read_header(data)
    table = TypeTable.of(codec_for(meeple.get_game(header.game)), header.types)
    found = [reader_module._read_records(data, end, prev, table, header),
             reader_module._read_records_py(data, end, prev, table, header),
             _outcome(lambda: reader_module._check_records(data, prev, table, header))]
    loaded = [_outcome(lambda: meeple.engine.read_log(data))]
    saved = reader_module._speedups, log_module._speedups
    reader_module._speedups = log_module._speedups = None
    try:
        loaded.append(_outcome(lambda: meeple.engine.read_log(data)))
    finally:
        reader_module._speedups, log_module._speedups = saved
    return [*found, *[x if isinstance(x, tuple) else (x.header, x.records, x.checkpoints, x.hashes, x.reveal)
                      for x in loaded]]


_CANONICAL_LOGS = [*_MUTATED_LOGS, _played("saboteur", 3, 2).to_bytes(hide_seed=True)]
_CANONICAL_LOGS.append(Match.from_bytes(_CANONICAL_LOGS[-1]).to_bytes(hide_seed=True))


@given(st.sampled_from(_CANONICAL_LOGS), st.data())
def test_every_reader_takes_a_record_only_in_its_canonical_form(data: bytes, draw: st.DataObject) -> None:
    from meeple.engine.codec import digest

    frames = list(iter_frames(data))
    i = draw.draw(st.integers(1, len(frames) - 1))
    body = _loose(msgpack.unpackb(frames[i].body), lambda n: draw.draw(st.integers(0, n - 1)))
    bodies = [f.body for f in frames[1:]]
    bodies[i - 1] = body
    header_end = frames[0].offset + 4 + len(frames[0].body) + HASH_SIZE
    parts, link = [data[:header_end]], frames[0].hash
    for b in bodies:  # a forger's log: the chain is valid, the bytes decode to the same records
        link = digest(b, link)
        parts.append(LENGTH.pack(len(b) + HASH_SIZE) + b + link)
    forged = b"".join(parts)
    fast, pure, slow, compiled_log, pure_log = _every_reader(forged)
    assert (fast is None) == (pure is None)
    canonical = body == frames[i].body
    assert (fast is not None) == canonical, "a reader took a record in another form, or refused the canonical one"
    if canonical:
        assert fast == pure == slow
    else:
        assert isinstance(slow, tuple) and ("canonical" in slow[1] or "undecodable" in slow[1])
    assert compiled_log == pure_log


@given(st.sampled_from(_CANONICAL_LOGS), st.data())
def test_every_reader_takes_a_header_only_in_its_canonical_form(data: bytes, draw: st.DataObject) -> None:
    from meeple.engine.codec import digest
    from meeple.engine.log import MAGIC

    frames = list(iter_frames(data))
    head = _loose(msgpack.unpackb(frames[0].body), lambda n: draw.draw(st.integers(0, n - 1)))
    parts, link = [MAGIC], MAGIC
    for b in [head, *(f.body for f in frames[1:])]:
        link = digest(b, link)
        parts.append(LENGTH.pack(len(b) + HASH_SIZE) + b + link)
    forged = b"".join(parts)
    compiled_log = _outcome(lambda: meeple.engine.read_log(forged))
    from meeple.engine import log as log_module

    saved = reader_module._speedups, log_module._speedups
    reader_module._speedups = log_module._speedups = None
    try:
        pure_log = _outcome(lambda: meeple.engine.read_log(forged))
    finally:
        reader_module._speedups, log_module._speedups = saved
    if head == frames[0].body:
        assert not isinstance(compiled_log, tuple) and not isinstance(pure_log, tuple)
        assert compiled_log.records == pure_log.records
    else:
        assert isinstance(compiled_log, tuple) and compiled_log == pure_log, (compiled_log, pure_log)


@compiled
@given(_values, st.data())
def test_the_compiled_decoder_takes_what_decode_body_takes(value: Any, draw: st.DataObject) -> None:
    from meeple.engine.log import BodyError, decode_body

    data = _loose(value, lambda n: draw.draw(st.integers(0, n - 1)))
    try:
        expected: Any = decode_body(data)
    except BodyError as e:
        with pytest.raises(BodyError, match=re.escape(str(e))):
            speedups.unpack(data, decode_body)
    else:
        assert _same(speedups.unpack(data, decode_body), expected)
