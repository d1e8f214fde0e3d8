"""The log format: truncation, corruption, tampering, foreign files, seed commitment, upcasting."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import msgpack
import pytest

import liars_dice as ld
import meeple
from meeple.engine import CorruptLog, ForeignFile, TruncatedLog, UnknownGame, UnsupportedLog, read_log
from meeple.engine.codec import pack
from meeple.engine.log import MAGIC, frame, header_frame, iter_frames


def finished(seed: int = 4) -> meeple.Match:
    m = meeple.Match.start("liars-dice", 2, seed=seed, options={"dice": 2})
    m.play(0, ld.Bid(1, 2))
    m.play(1, ld.Bid(2, 2))
    m.play(0, ld.CallLiar())
    return m


def rebuild(data: bytes, edit: Any) -> bytes:
    """Re-encode a log after ``edit(index, body_list)`` changes record bodies, re-chaining hashes."""
    frames = list(iter_frames(data))
    out = [data[: frames[0].offset]]
    head = frames[0]
    out.append(data[head.offset : head.offset + 4 + len(head.body) + 16])
    prev = head.hash
    bodies = [msgpack.unpackb(f.body) for f in frames[1:]]
    bodies = edit(bodies)
    for b in bodies:
        fr, prev = frame(pack(b), prev)
        out.append(fr)
    return b"".join(out)


def test_magic_and_header_come_first() -> None:
    data = finished().to_bytes()
    assert data.startswith(MAGIC)
    header = read_log(data).header
    assert (header.game, header.rules, header.seats, header.options) == ("liars-dice", 1, 2, {"dice": 2, "sides": 6, "wild": True})


def test_a_foreign_file_is_named_as_such() -> None:
    with pytest.raises(ForeignFile):
        read_log(b"PK\x03\x04 not a log")
    with pytest.raises(ForeignFile):
        read_log(b"")


def test_a_torn_tail_reports_the_intact_records() -> None:
    data = finished().to_bytes()
    with pytest.raises(TruncatedLog) as err:
        read_log(data[:-5])
    assert err.value.intact == 3 and err.value.record == 3
    assert read_log(data[: err.value.intact_bytes]).records == read_log(data).records[:3]


@pytest.mark.parametrize("where", ["header", "record", "hash", "length"])
def test_a_flipped_byte_is_caught(where: str) -> None:
    data = finished().to_bytes()
    frames = list(iter_frames(data))
    pos = {
        "header": frames[0].offset + 10,
        "record": frames[2].offset + 6,
        "hash": frames[2].offset + 4 + len(frames[2].body) + 3,
        "length": frames[3].offset + 3,
    }[where]
    bad = bytearray(data)
    bad[pos] ^= 0x10
    with pytest.raises((CorruptLog, TruncatedLog)):
        read_log(bytes(bad))
    report = meeple.verify(bytes(bad))
    assert not report.ok and report.first_divergence is not None


def test_verify_names_a_forged_die_roll_even_with_rehashed_frames() -> None:
    data = finished().to_bytes()

    def forge(bodies: list[Any]) -> list[Any]:
        bodies[0][3][0][2] = [6, 6]  # seat 0's dice
        return bodies

    forged = rebuild(data, forge)
    assert read_log(forged)  # the chain is consistent: only re-deciding finds it
    report = meeple.verify(forged)
    assert not report.ok
    assert report.first_divergence is not None and report.first_divergence.record == 0
    assert "event 0 differs" in report.first_divergence.reason


def test_verify_names_an_edited_command() -> None:
    def edit(bodies: list[Any]) -> list[Any]:
        bodies[1][2] = [1, 1, 5]  # Bid(1, 5) instead of Bid(1, 2); events unchanged
        return bodies

    report = meeple.verify(rebuild(finished().to_bytes(), edit))
    assert not report.ok and report.first_divergence is not None and report.first_divergence.record == 1


def test_reordered_and_removed_records_are_caught() -> None:
    data = finished().to_bytes()

    def swap(bodies: list[Any]) -> list[Any]:
        bodies[1], bodies[2] = bodies[2], bodies[1]
        return bodies

    def drop(bodies: list[Any]) -> list[Any]:
        return [bodies[0], bodies[2], bodies[3]]

    for edit in (swap, drop):
        report = meeple.verify(rebuild(data, edit))
        assert not report.ok and report.first_divergence is not None and report.first_divergence.record == 1


def test_a_rules_version_mismatch_is_refused() -> None:
    data = finished().to_bytes()
    frames = list(iter_frames(data))
    header = msgpack.unpackb(frames[0].body)
    header["rules"] = 99
    body = pack(dict(sorted(header.items())))
    rest = data[frames[1].offset :]
    fr, _ = frame(body, MAGIC)
    with pytest.raises(UnsupportedLog, match="rules version 99"):
        read_log(MAGIC + fr + rest)
    assert not meeple.verify(MAGIC + fr + rest).ok


def test_an_unknown_game_in_a_log_is_named() -> None:
    m = finished()
    h = attrs.evolve(m.header(), game="chess")
    data, _ = header_frame(h)
    with pytest.raises(UnknownGame, match="chess"):
        read_log(data)


def test_a_hidden_seed_is_committed_and_revealed_at_the_end() -> None:
    m = finished()
    data = m.to_bytes(hide_seed=True)
    log = read_log(data)
    assert log.header.seeds is None and log.reveal is not None
    assert meeple.verify(data).ok
    unfinished = meeple.Match.start("liars-dice", 2, seed=9)
    hidden = read_log(unfinished.to_bytes(hide_seed=True))
    assert hidden.reveal is None
    report = meeple.verify(unfinished.to_bytes(hide_seed=True))
    assert not report.ok and "hidden" in report.summary()
    loaded = hidden.to_match()
    with pytest.raises(meeple.SeedHidden):
        loaded.play(0, ld.Bid(1, 1))


def test_a_reveal_that_does_not_match_the_commitment_is_refused() -> None:
    m = finished()
    data = m.to_bytes(hide_seed=True)
    frames = list(iter_frames(data))
    last = frames[-1]
    body = msgpack.unpackb(last.body)
    body["reveal"][0][0][1] += 1
    prev = frames[-2].hash
    fr, _ = frame(pack(body), prev)
    with pytest.raises(CorruptLog, match="commitment"):
        read_log(data[: last.offset] + fr)


# -- schema evolution: an event that gained a field ---------------------------------


@attrs.frozen
class BidMadeV2(ld.Event):
    """Version 2 of ``bid_made``: records the bid's rank too."""

    tag: ClassVar[str] = "bid_made"
    schema: ClassVar[int] = 2
    seat: int
    quantity: int
    face: int
    rank: int


def test_old_records_are_upcast_on_read() -> None:
    data = finished().to_bytes()

    class LiarsDiceV2(ld.LiarsDice):
        events = (ld.DiceRolled, BidMadeV2, ld.LiarCalled)
        upcasters = {("bid_made", 1): lambda f: [*f, (f[1] - 1) * 6 + f[2] - 1]}

        def evolve(self, state: ld.State, event: ld.Event) -> ld.State:
            if isinstance(event, BidMadeV2):
                event = ld.BidMade(event.seat, event.quantity, event.face)
            return super().evolve(state, event)

    old = meeple.get_game("liars-dice")
    meeple.register(LiarsDiceV2())
    try:
        log = read_log(data)
        assert log.records[1].events == (BidMadeV2(0, 1, 2, 1),)
    finally:
        meeple.register(old)


def test_verify_reports_a_flipped_bit_at_every_byte_of_a_log() -> None:
    data = finished().to_bytes()
    for pos in range(len(data)):
        bad = bytearray(data)
        bad[pos] ^= 0x01
        report = meeple.verify(bytes(bad))
        assert not report.ok, f"a flipped bit at byte {pos} went unnoticed"
    boundaries = {f.offset for f in iter_frames(data)} | {len(data)}
    for end in range(len(MAGIC), len(data)):
        if end not in boundaries:  # a cut at a frame boundary is a shorter, valid log
            assert not meeple.verify(data[:end]).ok, f"a log torn at byte {end} went unnoticed"
