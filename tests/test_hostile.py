"""Hostile input: random and mutated bytes, logs and commands against every decoder and every game.

The only allowed outcomes are a valid result or one of the library's own
errors (:class:`meeple.MeepleError` subclasses): never another exception,
never a hang, never unbounded memory (every decode has a size limit). Games
are taken from :func:`meeple.available` as they land; one that does not load
is skipped with the reason.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import liars_dice as ld
import meeple
from meeple import Code, DecodeError, IllegalCommand, Match, MeepleError
from meeple.engine import codec_for, get_game, read_log
from meeple.engine.codec import pack, unstructure
from meeple.engine.log import MAGIC, MAX_FRAME, MAX_SEEDS, frame, iter_frames
from meeple.engine.match import seed_commitment
from meeple.store import FileStore, SqliteStore, StoreConflict, repair
from meeple.testing import game_params, playout

GAMES = game_params()
_logs: dict[str, bytes] = {}


def sample_log(gid: str) -> bytes:
    """A short real log of ``gid`` (cached): set-up plus a few random commands."""
    if gid not in _logs:
        game = get_game(gid)
        seats = max(game.info.min_seats, min(3, game.info.max_seats))
        _logs[gid] = playout(game, seats, seed=11, bot_seed=2, max_steps=12).match.to_bytes()
    return _logs[gid]


def only_library_errors(fn: Callable[[], Any]) -> Any:
    """Run ``fn``; a MeepleError is fine, anything else fails the test. Returns the result or None."""
    try:
        return fn()
    except MeepleError:
        return None


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as d:
        yield Path(d)


def every_log_decoder(data: bytes, workdir: Path) -> None:
    """Feed ``data`` to every log decoder: the engine's and both stores'."""
    only_library_errors(lambda: read_log(data))
    report = meeple.verify(data)  # never raises for bad content
    assert report.ok or report.first_divergence is not None
    only_library_errors(lambda: Match.from_bytes(data))
    only_library_errors(lambda: list(meeple.replay(data)))
    path = workdir / "hostile.meeple"
    path.write_bytes(data)
    store = FileStore(workdir)
    only_library_errors(lambda: store.open_path(path))
    store.close()
    only_library_errors(lambda: repair(path))


# -- random and mutated bytes ------------------------------------------------------------------


@given(st.binary(max_size=400))
def test_random_bytes_give_only_library_errors(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as d:
        every_log_decoder(data, Path(d))
        every_log_decoder(MAGIC + data, Path(d))


MUTATION = st.tuples(st.sampled_from(["flip", "insert", "delete", "truncate", "duplicate", "swap"]),
                     st.integers(0, 1 << 30), st.integers(0, 1 << 30), st.binary(min_size=1, max_size=8))


def mutate_bytes(data: bytes, how: tuple[str, int, int, bytes]) -> bytes:
    kind, a, b, junk = how
    n = len(data)
    if not n:
        return junk
    i, j = sorted((a % n, b % n))
    if kind == "flip":
        return data[:i] + bytes([data[i] ^ (1 << (b % 8))]) + data[i + 1:]
    if kind == "insert":
        return data[:i] + junk + data[i:]
    if kind == "delete":
        return data[:i] + data[j + 1:]
    if kind == "truncate":
        return data[:i]
    if kind == "duplicate":
        return data[:j] + data[i:j] + data[j:]
    return data[:i] + data[j:] + data[i:j]


@pytest.mark.parametrize("gid", GAMES)
@given(st.lists(MUTATION, min_size=1, max_size=3))
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_mutated_logs_give_only_library_errors(gid: str, workdir: Path, mutations: list[Any]) -> None:
    data = sample_log(gid)
    for how in mutations:
        data = mutate_bytes(data, how)
    every_log_decoder(data, workdir)


# -- structure-aware mutations: the forger re-computes the hash chain ------------------------------

PRIM = st.recursive(
    st.none() | st.booleans() | st.integers(-(1 << 63), (1 << 64) - 1) | st.floats(allow_nan=True)
    | st.text(max_size=8) | st.binary(max_size=17),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def replace_at(value: Any, path: list[int], new: Any) -> Any:
    """``value`` with the item reached by following ``path`` (indices, taken modulo) replaced by ``new``."""
    if not path or not isinstance(value, (list, dict)) or not value:
        return new
    if isinstance(value, list):
        i = path[0] % len(value)
        return [*value[:i], replace_at(value[i], path[1:], new), *value[i + 1:]]
    key = sorted(value, key=repr)[path[0] % len(value)]
    return {**value, key: replace_at(value[key], path[1:], new)}


def rechain(bodies: list[Any]) -> bytes:
    out = [MAGIC]
    prev = MAGIC
    for b in bodies:
        try:
            body = pack(b)
        except (TypeError, ValueError, OverflowError):
            body = b"\xc1"
        fr, prev = frame(body, prev)
        out.append(fr)
    return b"".join(out)


@pytest.mark.parametrize("gid", GAMES)
@given(frame_no=st.integers(0, 1000), path=st.lists(st.integers(0, 100), max_size=5), new=PRIM)
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_rechained_forgeries_give_only_library_errors(gid: str, workdir: Path, frame_no: int, path: list[int],
                                                      new: Any) -> None:
    data = sample_log(gid)
    bodies = [msgpack.unpackb(f.body, strict_map_key=False) for f in iter_frames(data)]
    i = frame_no % len(bodies)
    bodies[i] = replace_at(bodies[i], path, new)
    every_log_decoder(rechain(bodies), workdir)


@pytest.mark.parametrize("gid", GAMES)
@given(new=PRIM, path=st.lists(st.integers(0, 100), max_size=4))
def test_the_codec_decodes_hostile_primitives_or_refuses_them(gid: str, new: Any, path: list[int]) -> None:
    game = get_game(gid)
    codec = codec_for(game)
    log = read_log(sample_log(gid))
    command = unstructure(log.records[-1].command)
    event = unstructure(log.records[0].events[0])
    for decode, prim in ((codec.command, command), (codec.event, event)):
        only_library_errors(lambda d=decode: d(new))  # type: ignore[misc]
        only_library_errors(lambda d=decode, p=prim: d(replace_at(p, path, new)))  # type: ignore[misc]
    state = unstructure(log.to_match().state)
    only_library_errors(lambda: codec.structure(replace_at(state, path, new), game.state_type))
    only_library_errors(lambda: codec.structure(new, game.state_type))


# -- the SQLite store's loader on tampered rows -------------------------------------------------------


_sqlite_dir = tempfile.TemporaryDirectory()


def _sqlite_sample() -> Path:
    """A database holding one match of 71 records (one snapshot), made once."""
    path = Path(_sqlite_dir.name) / "sample.db"
    if not path.exists():
        with SqliteStore(path, durability="flush") as store:
            m = store.create("liars-dice", 6, seed=2, options={"dice": 5, "sides": 12}, match_id="m")
            for _ in range(70):
                m.play(m.to_act[0], m.legal(m.to_act[0])[0])
            store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


@given(column=st.sampled_from(["body", "hash", "state", "header", "records"]), row=st.integers(0, 50),
       new=st.binary(max_size=64) | st.integers(-5, 5) | st.none())
@settings(max_examples=20)
def test_tampered_sqlite_rows_give_only_library_errors(column: str, row: int, new: Any) -> None:
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(_sqlite_sample(), Path(d) / "h.db")
        store = SqliteStore(Path(d) / "h.db", durability="flush")
        table = {"body": "records", "hash": "records", "state": "snapshots", "header": "matches", "records": "matches"}[column]
        key = "id" if table == "matches" else "match"
        db = sqlite3.connect(store.path)
        try:
            db.execute(f"UPDATE {table} SET {column} = ? WHERE {key} = 'm'"
                       + ("" if table == "matches" else f" AND seq = {row % 71}"), (new,))
            db.commit()
        except sqlite3.IntegrityError:
            return  # NOT NULL refused the edit
        finally:
            db.close()
        only_library_errors(lambda: store.open("m"))
        only_library_errors(lambda: meeple.verify(store.log_bytes("m")))
        store.close()


# -- size limits and hangs -----------------------------------------------------------------------------


def test_a_huge_frame_length_is_refused_without_reading_it() -> None:
    data = sample_log("liars-dice")
    forged = data + (MAX_FRAME + 1).to_bytes(4, "big") + b"x" * 100
    t = time.perf_counter()
    with pytest.raises(MeepleError, match="impossible frame length"):
        read_log(forged)
    assert time.perf_counter() - t < 1


def test_a_log_claiming_a_long_frame_is_a_torn_tail_not_an_allocation() -> None:
    data = sample_log("liars-dice")
    forged = data + (MAX_FRAME - 1).to_bytes(4, "big") + b"x" * 100
    with pytest.raises(meeple.TruncatedLog):
        read_log(forged)


def _forge_header(edit: Callable[[dict[str, Any]], None]) -> bytes:
    data = sample_log("liars-dice")
    bodies = [msgpack.unpackb(f.body, strict_map_key=False) for f in iter_frames(data)]
    edit(bodies[0])
    return rechain(bodies)


def test_a_negative_schema_version_is_refused_quickly() -> None:
    def negative(h: dict[str, Any]) -> None:
        h["types"][0][1] = -(1 << 62)  # once made the reader build 2**62 upcaster steps

    t = time.perf_counter()
    with pytest.raises(meeple.CorruptLog, match="schema versions"):
        read_log(_forge_header(negative))
    assert time.perf_counter() - t < 1


@pytest.mark.parametrize("seeds", [[], [[i, i] for i in range(MAX_SEEDS + 1)]])
def test_a_seed_schedule_must_be_short_and_not_empty(seeds: list[Any]) -> None:
    def schedule(h: dict[str, Any]) -> None:
        h["seeds"] = seeds

    with pytest.raises(meeple.CorruptLog, match="seed schedule"):
        read_log(_forge_header(schedule))
    assert not meeple.verify(_forge_header(schedule)).ok


def test_a_seed_out_of_range_is_a_corrupt_log_not_a_crash() -> None:
    def negative(h: dict[str, Any]) -> None:
        h["seeds"] = [[0, -5]]  # once reached Rng, whose ValueError escaped verify and play

    with pytest.raises(meeple.CorruptLog, match="a seed is an integer"):
        read_log(_forge_header(negative))
    assert not meeple.verify(_forge_header(negative)).ok


def test_a_revealed_seed_out_of_range_is_a_corrupt_log_not_a_crash() -> None:
    data = sample_log("liars-dice")
    bodies = [msgpack.unpackb(f.body, strict_map_key=False) for f in iter_frames(data)]
    seeds, salt = [[0, -5]], b"salt"
    bodies[0]["seeds"] = None
    bodies[0]["commitment"] = seed_commitment([(0, -5)], salt)
    forged = rechain([*bodies, {"reveal": [seeds, salt]}])
    with pytest.raises(meeple.CorruptLog, match="malformed reveal frame"):
        read_log(forged)
    assert not meeple.verify(forged).ok


def test_deeply_nested_msgpack_is_refused() -> None:
    body = b"\x91" * 100_000 + b"\xc0"  # an array inside an array ... 100000 deep
    fr, _ = frame(body, list(iter_frames(sample_log("liars-dice")))[-1].hash)
    with pytest.raises(MeepleError):
        read_log(sample_log("liars-dice") + fr)


def _hostile_bodies(n: int) -> Iterator[tuple[str, bytes]]:
    """Frame bodies of about ``n`` bytes built to make a decoder allocate as much as it can per byte."""
    yield "empty arrays", b"\xdd" + n.to_bytes(4, "big") + b"\x90" * n  # the reported case: 64 bytes each
    inner = b"\xdc" + (4000).to_bytes(2, "big") + b"\x90" * 4000  # nested, each array short
    yield "nested arrays", b"\xdd" + (n // len(inner)).to_bytes(4, "big") + inner * (n // len(inner))
    yield "empty maps", b"\xdd" + n.to_bytes(4, "big") + b"\x80" * n
    yield "two-letter strings", b"\xdd" + (n // 3).to_bytes(4, "big") + b"\xa2ab" * (n // 3)
    yield "small negative ints", b"\xdd" + n.to_bytes(4, "big") + b"\xec" * n
    cap = (1 << 16) - 10  # as many values (MAX_VALUES) as a frame may hold, then bytes that are not msgpack
    yield "a full frame, then junk", b"\xdc" + cap.to_bytes(2, "big") + b"\x90" * cap + b"\xc1" * (n - cap)
    yield "a full frame, then a long form", b"\xdc" + cap.to_bytes(2, "big") + b"\x90" * cap + b"\xcc\x01"


@pytest.fixture(params=["compiled", "python"])
def either_reader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The compiled reader, then the pure-Python one."""
    from meeple.engine import log as log_module
    from meeple.engine import reader as reader_module

    if request.param == "python":
        monkeypatch.setattr(reader_module, "_speedups", None)
        monkeypatch.setattr(log_module, "_speedups", None)
    elif reader_module._speedups is None:
        pytest.skip("meeple._speedups was not built")
    return str(request.param)


def _peak(fn: Callable[[], Any]) -> int:
    """The most memory ``fn`` held at once (tracemalloc), its result or error dropped."""
    import tracemalloc

    only_library_errors(fn)  # the caches (codecs, type tables) are made outside the measure
    tracemalloc.start()
    try:
        only_library_errors(fn)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("shape", [name for name, _ in _hostile_bodies(1000)])
def test_rejecting_a_hostile_frame_takes_a_bounded_amount_of_memory(either_reader: str, shape: str) -> None:
    """docs/reliability.md: a bad frame costs at most 3 bytes per byte of it, plus 8 MiB (MAX_VALUES values).

    The reported case, one 16 MiB frame of empty arrays behind a valid chain,
    took 1.24 GB (about 77 bytes per byte) to reject: it was decoded whole, twice.
    """
    size = 4 << 20
    body = dict(_hostile_bodies(size))[shape]
    data = sample_log("liars-dice")
    fr, _ = frame(body, list(iter_frames(data))[-1].hash)
    hostile = data + fr
    with pytest.raises(meeple.CorruptLog):
        read_log(hostile)
    peak = _peak(lambda: read_log(hostile))
    assert peak <= 3 * len(body) + (8 << 20), f"{peak / len(body):.1f} bytes per byte"


@pytest.mark.slow
def test_a_loaded_log_holds_a_bounded_amount_of_memory_per_byte(either_reader: str) -> None:
    """docs/reliability.md: decoded records take at most ~48 bytes per byte of log, however they are made.

    Real logs take 5-9; records forged for it (an event of one-item tuples of small
    negative numbers: 84 bytes of objects per 2 bytes of log) about 42.
    """
    m = Match.start("liars-dice", 2, seed=1)
    m.play(0, ld.Bid(1, 2))
    bodies = [msgpack.unpackb(f.body) for f in iter_frames(m.to_bytes())]
    codec = codec_for(get_game("liars-dice"))
    bid, called = codec.index_of[ld.Bid], codec.index_of[ld.LiarCalled]
    for seq in range(2, 1500):
        ck = bytes(16) if (seq + 1) % 64 == 0 else None
        bodies.append([seq, 0, [bid, 1, 2], [[called, 0, [[-20]] * 300, 0, 0]], 0, ck])
    forged = rechain(bodies)
    assert len(read_log(forged).records) == 1500
    assert _peak(lambda: read_log(forged)) <= 48 * len(forged)
    golden = Path(__file__).parent / "golden" / "gophers-standard-v3.meeple"
    assert _peak(lambda: read_log(golden.read_bytes())) <= 16 * golden.stat().st_size


def test_the_file_store_refuses_a_file_larger_than_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from meeple.store import files

    monkeypatch.setattr(files, "MAX_LOG_BYTES", 100)
    (tmp_path / "big.meeple").write_bytes(sample_log("liars-dice"))
    with pytest.raises(MeepleError, match="larger than 100 bytes"):
        FileStore(tmp_path).open("big")


# -- hostile commands ------------------------------------------------------------------------------------


def _started(gid: str) -> Match:
    game = get_game(gid)
    seats = max(game.info.min_seats, min(3, game.info.max_seats))
    for steps in (6, 3, 1, 0):  # a few random commands in, the match still going
        m = playout(game, seats, seed=5, bot_seed=3, max_steps=steps).match
        if not m.is_over:
            return m
    raise AssertionError(f"{gid} is over before any command")


def _refused(m: Match, seat: Any, command: Any) -> IllegalCommand:
    before, state = m.to_bytes(), m.state
    with pytest.raises(IllegalCommand) as err:
        m.play(seat, command)
    assert m.to_bytes() == before and m.state == state, "a refused command changed the match"
    return err.value


@pytest.mark.parametrize("gid", GAMES)
def test_commands_out_of_turn_or_for_another_seat_are_refused(gid: str) -> None:
    m = _started(gid)
    acting = [s for s in m.to_act if s >= 0]
    assert acting, "the match waits for a player"
    waiting = [s for s in range(m.seats) if s not in acting]
    command = m.legal(acting[0])[0]
    for seat in waiting:  # another seat's legal command, sent by a seat that may not act
        assert _refused(m, seat, command).code is Code.NOT_YOUR_TURN
    bad_seats: tuple[Any, ...] = (-1, m.seats, 10**9, True, "0", None)
    for seat in bad_seats:  # the engine's seat and seats that do not exist
        assert _refused(m, seat, command).code is Code.UNKNOWN_SEAT


@pytest.mark.parametrize("gid", GAMES)
def test_foreign_commands_and_events_are_refused(gid: str) -> None:
    m = _started(gid)
    seat = next(s for s in m.to_act if s >= 0)
    foreign: list[Any] = [m.game.events[0].__new__(m.game.events[0]), object(), None, "bid"]
    if gid != "liars-dice":
        foreign.append(ld.Bid(1, 1))
    for command in foreign:
        assert _refused(m, seat, command).code is Code.UNKNOWN_COMMAND


def _out_of_range(command: Any) -> Iterator[Any]:
    for f in attrs.fields(type(command)):
        v = getattr(command, f.name)
        if isinstance(v, bool) or not isinstance(v, int):
            continue
        for w in (-1, -(1 << 63), 10_000, 1 << 64):
            yield attrs.evolve(command, **{f.name: w})


@pytest.mark.parametrize("gid", GAMES)
def test_out_of_range_fields_are_refused_as_illegal(gid: str) -> None:
    m = _started(gid)
    seat = next(s for s in m.to_act if s >= 0)
    legal = list(m.legal(seat))
    tried = 0
    for command in legal[:10]:
        for bad in _out_of_range(command):
            if bad not in legal:
                _refused(m, seat, bad)
                tried += 1
    if not tried:
        pytest.skip(f"{gid}: no integer fields in the first legal commands")


def _wrong_types(prim: list[Any]) -> Iterator[tuple[int, Any]]:
    for i in range(1, len(prim)):
        for w in ("3", 3.5, None, [1], {"x": 1}, b"\x01", True):
            if type(w) is not type(prim[i]):
                yield i, w


@pytest.mark.parametrize("gid", GAMES)
def test_wrongly_typed_fields_from_a_client_are_decode_errors_naming_the_field(gid: str) -> None:
    m = _started(gid)
    codec = codec_for(m.game)
    seat = next(s for s in m.to_act if s >= 0)
    named = 0
    for command in list(m.legal(seat))[:10]:
        prim = unstructure(command)
        names = [f.name for f in attrs.fields(type(command))]  # type: ignore[arg-type]
        for i, wrong in _wrong_types(prim):
            bad = [*prim[:i], wrong, *prim[i + 1:]]
            try:
                decoded = codec.command(bad)
            except DecodeError as e:
                assert e.path.split(".")[0].split("[")[0] == names[i - 1], f"{e} does not name {names[i - 1]}"
                named += 1
            else:  # a value the field's type admits (e.g. None for an optional field): the rules judge it
                if decoded not in m.legal(seat):
                    _refused(m, seat, decoded)
    if not named:
        pytest.skip(f"{gid}: the first legal commands have no fields")


@pytest.mark.parametrize("gid", GAMES)
def test_a_command_replayed_after_the_match_ended_is_refused(gid: str) -> None:
    if gid != "liars-dice":
        game = get_game(gid)
        p = playout(game, max(game.info.min_seats, min(3, game.info.max_seats)), seed=5, bot_seed=3, max_steps=3000)
        m = p.match
        if not m.is_over:
            pytest.skip(f"{gid}: random play did not finish")
        seat, command = p.moves[-1]
    else:
        m = Match.start("liars-dice", 2, seed=1)
        m.play(0, ld.Bid(1, 1))
        m.play(1, ld.CallLiar())
        seat, command = 1, ld.CallLiar()
    assert _refused(m, seat, command).code is Code.GAME_OVER


def test_a_replayed_command_is_refused_by_the_rules() -> None:
    m = Match.start("liars-dice", 2, seed=1)
    m.play(0, ld.Bid(2, 3))
    m.play(1, ld.Bid(2, 4))
    assert _refused(m, 0, ld.Bid(2, 3)).code is Code.RULE  # the same bid again is not higher


def test_a_stale_client_replaying_a_command_gets_a_conflict(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "m.db")
    live = store.create("liars-dice", 2, seed=1, match_id="m")
    stale = SqliteStore(tmp_path / "m.db").open("m")
    live.play(0, ld.Bid(1, 2))
    stored = store.log_bytes("m")
    with pytest.raises(StoreConflict):
        stale.play(0, ld.Bid(1, 2))  # the same command, replayed by a second copy
    assert store.log_bytes("m") == stored and len(stale) == 1


def test_a_replayed_record_in_a_log_is_named() -> None:
    m = Match.start("liars-dice", 2, seed=1)
    m.play(0, ld.Bid(1, 2))
    m.play(1, ld.Bid(1, 3))
    data = m.to_bytes()
    frames = list(iter_frames(data))
    bodies = [msgpack.unpackb(f.body) for f in frames]
    replayed = rechain([*bodies[:3], bodies[2]])  # record 1 appended again as record 2
    report = meeple.verify(replayed)
    assert report.first_divergence is not None and report.first_divergence.record == 2
    assert "record number 1 where 2 was expected" in report.first_divergence.reason


@pytest.mark.slow
def test_the_hostile_input_benchmark_runs() -> None:
    """benchmarks/hostile.py measures the time figures of docs/reliability.md (no timing is asserted here)."""
    import json
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, str(root / "benchmarks" / "hostile.py"), "--quick", "--size", "70000"],
                         capture_output=True, text=True, timeout=300, cwd=root, check=True).stdout
    figures = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    names = {(f["subject"], f["name"]) for f in figures}
    assert ("pure Python", "time: a frame of empty arrays / BLAKE2b of its bytes") in names
    assert all(f["value"] is None or f["value"] > 0 for f in figures) and len(figures) == 6
