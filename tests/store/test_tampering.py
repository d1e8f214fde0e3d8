"""Tampering: verify catches forged outcomes, reordered, removed and edited records, and foreign rules.

Each forgery is made the strong way: the forger re-computes the whole hash
chain, so only re-deciding from the seed can catch it; and the weak way (bytes
edited in place), which the chain catches. Either way the report names the
first bad record.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest

import liars_dice as ld
import meeple
from meeple.engine.codec import pack
from meeple.engine.log import MAGIC, frame, iter_frames
from meeple.store import SqliteStore

Edit = Callable[[list[Any]], list[Any]]


def honest() -> bytes:
    m = meeple.Match.start("liars-dice", 3, seed=21, options={"dice": 2})
    for q, f in [(1, 2), (1, 4), (2, 2), (2, 5), (3, 3)]:
        m.play(m.to_act[0], ld.Bid(q, f))
    m.play(m.to_act[0], ld.CallLiar())
    return m.to_bytes()


def forge(data: bytes, edit: Edit, header: Callable[[dict[str, Any]], None] | None = None) -> bytes:
    """Decode every frame, let ``edit`` change the record bodies, and re-chain the hashes."""
    frames = list(iter_frames(data))
    head = msgpack.unpackb(frames[0].body)
    if header is not None:
        header(head)
    out = [MAGIC]
    fr, prev = frame(pack(head), MAGIC)
    out.append(fr)
    for body in edit([msgpack.unpackb(f.body) for f in frames[1:]]):
        fr, prev = frame(pack(body), prev)
        out.append(fr)
    return b"".join(out)


def renumber(records: list[Any]) -> list[Any]:
    for i, r in enumerate(records):
        r[0] = i
    return records


def first_bad(data: bytes) -> tuple[int | None, str]:
    report = meeple.verify(data)
    assert not report.ok and report.first_divergence is not None
    return report.first_divergence.record, report.first_divergence.reason


def test_the_honest_log_verifies() -> None:
    assert meeple.verify(honest()).ok
    assert meeple.verify(forge(honest(), lambda rs: rs)).ok  # re-chaining alone changes nothing


def test_a_forged_random_outcome_is_caught_at_its_record() -> None:
    def loaded_dice(rs: list[Any]) -> list[Any]:
        rs[0][3][1][2] = [6, 6]  # seat 1 "rolled" two sixes
        return rs

    record, reason = first_bad(forge(honest(), loaded_dice))
    assert record == 0 and "event 1 differs" in reason


def test_a_forged_call_result_is_caught_at_its_record() -> None:
    def other_loser(rs: list[Any]) -> list[Any]:
        event = rs[-1][3][0]
        event[-1] = (event[-1] + 1) % 3
        return rs

    record, reason = first_bad(forge(honest(), other_loser))
    assert record == 6 and "differs" in reason


def test_a_reordered_record_is_caught_at_the_first_moved_record() -> None:
    def swap(rs: list[Any]) -> list[Any]:
        rs[2], rs[3] = rs[3], rs[2]
        return rs

    record, reason = first_bad(forge(honest(), swap))
    assert record == 2 and "record number 3 where 2 was expected" in reason
    record, reason = first_bad(forge(honest(), lambda rs: renumber(swap(rs))))
    assert record == 2 and "seat 2 acted" in reason


def test_a_removed_record_is_caught_where_it_was() -> None:
    def drop(rs: list[Any]) -> list[Any]:
        del rs[3]
        return rs

    record, reason = first_bad(forge(honest(), drop))
    assert record == 3 and "record number 4 where 3 was expected" in reason
    record, reason = first_bad(forge(honest(), lambda rs: renumber(drop(rs))))
    assert record == 3 and "acted" in reason


def test_a_removed_last_record_is_caught_by_the_chain_when_not_rechained() -> None:
    data = honest()
    frames = list(iter_frames(data))
    without = data[: frames[3].offset] + data[frames[4].offset :]
    record, reason = first_bad(without)
    assert record == 2 and "hash chain broken" in reason


def test_an_edited_command_is_caught_at_its_record() -> None:
    def higher_bid(rs: list[Any]) -> list[Any]:
        rs[2][2][1] = 3  # record 2's bid: 3 x 4 instead of 1 x 4
        return rs

    record, reason = first_bad(forge(honest(), higher_bid))
    assert record == 2 and "event 0 differs" in reason


def test_an_edited_byte_is_caught_by_the_chain_at_its_record() -> None:
    data = bytearray(honest())
    frames = list(iter_frames(bytes(data)))
    data[frames[4].offset + 8] ^= 0x01
    record, reason = first_bad(bytes(data))
    assert record == 3 and "hash chain broken" in reason


def test_a_rules_version_mismatch_is_named() -> None:
    def newer_rules(h: dict[str, Any]) -> None:
        h["rules"] = 2

    record, reason = first_bad(forge(honest(), lambda rs: rs, header=newer_rules))
    assert record is None and "rules version 2" in reason and "this library has version 1" in reason


def test_a_forgery_inside_a_sqlite_store_is_caught_by_verify(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "m.db")
    m = store.create("liars-dice", 2, seed=3, match_id="m")
    m.play(0, ld.Bid(1, 2))
    m.play(1, ld.Bid(1, 5))
    forged = forge(store.log_bytes("m"), lambda rs: [rs[0], [1, 0, [1, 1, 2], [[4, 0, 2, 6]], 2, None], rs[2]])
    frames = list(iter_frames(forged))
    db = store._db
    for seq, fr in enumerate(frames[1:]):
        db.execute("UPDATE records SET body = ?, hash = ? WHERE match = 'm' AND seq = ?", (fr.body, fr.hash, seq))
    db.execute("UPDATE matches SET head = ? WHERE id = 'm'", (frames[-1].hash,))
    record, reason = first_bad(store.log_bytes("m"))
    assert record == 1 and "differs" in reason


@pytest.mark.parametrize("cut", [1, 5, 17])
def test_a_truncated_log_is_caught_at_the_torn_record(cut: int) -> None:
    data = honest()
    record, reason = first_bad(data[:-cut])
    assert record == 6 and "ends inside" in reason
