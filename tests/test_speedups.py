"""The compiled record loop (``meeple._speedups``) against the pure-Python one.

Both must accept exactly the same logs with the same result (the forged-log
comparison is in test_benchmarks.py); here: its BLAKE2b against hashlib's,
every bundled game's logs, the records it builds, and the switch that turns it
off. Skipped where the package was built without a C compiler.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeple
from meeple.engine import ENGINE, Match, RandomBot, Record
from meeple.engine import reader as reader_module
from meeple.engine.log import read_header
from meeple.engine.match import codec_for
from meeple.engine.records import TypeTable

speedups = pytest.importorskip("meeple._speedups")


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


def test_the_compiled_loop_rejects_arguments_of_the_wrong_kind() -> None:
    with pytest.raises(TypeError):
        speedups.read_records("not bytes", 0, bytes(16), (), (), Record, None)
    with pytest.raises(ValueError):
        speedups.read_records(b"", 0, bytes(15), (), (), Record, None)
    with pytest.raises(ValueError):
        speedups.read_records(b"", 0, bytes(16), (), (), dict, None)


def test_meeple_pure_python_turns_the_compiled_loop_off() -> None:
    code = "from meeple.engine import reader; print(reader._speedups is None)"
    env = {**os.environ, "MEEPLE_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
    env.pop("MEEPLE_PURE_PYTHON")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
