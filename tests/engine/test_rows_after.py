"""Reading stored records that continue a log (a store catching a match up): the log reader's checks, on rows."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.engine import CorruptLog
from meeple.engine.codec import pack
from meeple.engine.log import HASH_SIZE, chain_hash, decode_body, framed
from meeple.engine.reader import read_frames_after, read_rows_after, setup_table

Row = tuple[int, bytes, bytes]


def played(moves: int = 40) -> meeple.Match:
    """A Kings match a few dozen records in (records with several events, and a checkpoint or two)."""
    m = meeple.Match.start("kings", 2, seed=11)
    for _ in range(moves):
        if m.is_over:
            break
        seat = next(s for s in m.to_act if s >= 0)
        m.play(seat, m.legal(seat)[0])
    return m


def rows_of(m: meeple.Match, start: int) -> list[Row]:
    return [(i, m.body(i), m.record_hash(i)) for i in range(start, len(m.records))]


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_rows_read_as_the_framed_tail_reads(data: st.DataObject) -> None:
    m = played()
    start = data.draw(st.integers(1, len(m.records) - 1))
    rows = rows_of(m, start)
    header, prev = m.header(), m.record_hash(start - 1)
    table = setup_table(m.game, header) if data.draw(st.booleans()) else None
    records, checkpoints = read_rows_after(m.game, header, rows, prev, table)
    framed_records, framed_checkpoints, hashes = read_frames_after(
        m.game, header, b"".join(framed(b, h) for _, b, h in rows), start, prev)
    assert records == framed_records == list(m.records[start:])
    assert checkpoints == framed_checkpoints
    assert any(ck is not None for ck in checkpoints) or len(rows) < header.checkpoint_every
    assert hashes == [h for _, _, h in rows]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_a_flipped_bit_in_any_row_is_refused(data: st.DataObject) -> None:
    m = played()
    start = len(m.records) - 5
    rows = rows_of(m, start)
    k = data.draw(st.integers(0, len(rows) - 1))
    seq, body, h = rows[k]
    field = data.draw(st.sampled_from(["body", "hash"]))
    raw = bytearray(body if field == "body" else h)
    bit = data.draw(st.integers(0, 8 * len(raw) - 1))
    raw[bit // 8] ^= 1 << (bit % 8)
    rows[k] = (seq, bytes(raw), h) if field == "body" else (seq, body, bytes(raw))
    with pytest.raises(CorruptLog):
        read_rows_after(m.game, m.header(), rows, m.record_hash(start - 1))


def test_rows_that_skip_or_repeat_a_record_or_a_chain_from_elsewhere_are_refused() -> None:
    m = played()
    start = len(m.records) - 4
    rows = rows_of(m, start)
    header, prev = m.header(), m.record_hash(start - 1)
    with pytest.raises(CorruptLog, match="expected"):
        read_rows_after(m.game, header, [rows[0], rows[2]], prev)
    with pytest.raises(CorruptLog, match="expected"):
        read_rows_after(m.game, header, [rows[0], rows[0]], prev)
    with pytest.raises(CorruptLog, match="hash chain"):
        read_rows_after(m.game, header, rows, m.record_hash(start - 2))
    with pytest.raises(CorruptLog, match="frame length"):
        read_rows_after(m.game, header, [(start, rows[0][1], rows[0][2][:HASH_SIZE - 1])], prev)
    with pytest.raises(CorruptLog, match="frame length"):
        read_rows_after(m.game, header, [(start, b"", chain_hash(b"", prev))], prev)


def test_a_rechained_but_non_canonical_or_renumbered_record_is_refused() -> None:
    m = played()
    start = len(m.records) - 1
    header, prev = m.header(), m.record_hash(start - 1)
    raw = decode_body(m.body(start))
    renumbered = pack([start + 1, *raw[1:]])
    with pytest.raises(CorruptLog, match="record number"):
        read_rows_after(m.game, header, [(start, renumbered, chain_hash(renumbered, prev))], prev)
    loose = b"\xd1" + (1).to_bytes(2, "big")  # 1 as a 16-bit integer: not the smallest encoding
    with pytest.raises(CorruptLog, match="canonical"):
        read_rows_after(m.game, header, [(start, loose, chain_hash(loose, prev))], prev)
    reveal = pack({"seeds": [], "salt": b""})
    with pytest.raises(CorruptLog, match="reveal"):
        read_rows_after(m.game, header, [(start, reveal, chain_hash(reveal, prev))], prev)
