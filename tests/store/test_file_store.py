"""The file store: append-only logs, durability settings, locking, torn tails and repair."""

from __future__ import annotations

import fcntl
import gc
import os
from collections.abc import Callable
from pathlib import Path

import pytest

import liars_dice as ld
import meeple
from meeple import Match
from meeple.engine import CorruptLog, TruncatedLog, read_log
from meeple.engine.log import iter_frames
from meeple.store import FileSink, FileStore, MatchExists, StoreConflict, StoreError, is_held, repair, save_log

Play = Callable[[Match, int], Match]


def test_every_acknowledged_command_is_in_the_file_before_play_returns(tmp_path: Path, minimal: Play) -> None:
    store = FileStore(tmp_path)
    m = store.create("liars-dice", 3, seed=4, match_id="m")
    path = tmp_path / "m.meeple"
    for _ in range(5):
        minimal(m, 1)
        assert path.read_bytes() == m.to_bytes()  # exactly the save format, at every step
    assert meeple.verify(path).ok


@pytest.mark.parametrize("durability", ["flush", "fsync"])
def test_both_durability_settings_write_the_same_log(tmp_path: Path, durability: str, minimal: Play) -> None:
    store = FileStore(tmp_path / durability, durability)  # type: ignore[arg-type]
    (tmp_path / durability).mkdir()
    m = minimal(store.create("liars-dice", 2, seed=1, match_id="m"), 4)
    reference = minimal(Match.start("liars-dice", 2, seed=1), 4)
    assert (tmp_path / durability / "m.meeple").read_bytes() == reference.to_bytes() == m.to_bytes()


def test_an_unknown_durability_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="flush"):
        FileStore(tmp_path, "sometimes")  # type: ignore[arg-type]


def test_a_match_open_for_writing_cannot_be_opened_twice(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    m = store.create("liars-dice", 2, seed=8, match_id="m")
    with pytest.raises(StoreConflict, match="open for writing elsewhere"):
        FileStore(tmp_path).open("m")
    with pytest.raises(StoreConflict):
        repair(tmp_path / "m.meeple")
    store.close(m)
    store.open("m")  # free again


def test_a_file_changed_behind_the_store_is_a_conflict(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    m = store.create("liars-dice", 2, seed=3, match_id="m")
    with open(tmp_path / "m.meeple", "ab") as f:
        f.write(b"junk")
    before = m.state
    with pytest.raises(StoreConflict, match="changed outside"):
        m.play(0, ld.Bid(1, 2))
    assert m.state == before and len(m) == 1  # refused: the match did not change


def _log(tmp_path: Path, minimal: Play) -> tuple[Path, bytes, list[int]]:
    store = FileStore(tmp_path)
    minimal(store.create("liars-dice", 2, seed=6, options={"dice": 2}, match_id="m"), 4)
    store.close()
    path = tmp_path / "m.meeple"
    data = path.read_bytes()
    ends = [f.offset + 4 + len(f.body) + 16 for f in iter_frames(data)]
    return path, data, ends


def test_a_torn_tail_is_reported_with_the_intact_records_at_every_cut(tmp_path: Path, minimal: Play) -> None:
    path, data, ends = _log(tmp_path, minimal)
    header_end, record_ends = ends[0], ends[1:]
    for cut in range(header_end + 1, len(data)):
        if cut in record_ends:
            continue
        path.write_bytes(data[:cut])
        intact = sum(1 for e in record_ends if e <= cut)
        with pytest.raises(TruncatedLog) as err:
            FileStore(tmp_path).open("m")
        assert (err.value.intact, err.value.intact_bytes) == (intact, max([header_end, *(e for e in record_ends if e <= cut)]))
        assert f"after {intact} intact records" in str(err.value)
        report = repair(path)
        assert report.records == intact and path.read_bytes() == data[: report.kept_bytes]
        store = FileStore(tmp_path)
        assert len(store.open("m")) == max(intact, 1)  # the engine's set-up roll is re-run if it was cut off
        store.close()


def test_repair_leaves_an_intact_log_alone(tmp_path: Path, minimal: Play) -> None:
    path, data, _ = _log(tmp_path, minimal)
    report = repair(path)
    assert report.dropped_bytes == 0 and path.read_bytes() == data
    assert "nothing to repair" in report.summary()


def test_a_zero_filled_tail_is_a_torn_tail(tmp_path: Path, minimal: Play) -> None:
    path, data, ends = _log(tmp_path, minimal)
    path.write_bytes(data + b"\x00" * 100)  # a crash after the file grew but before the data landed
    with pytest.raises(TruncatedLog) as err:
        FileStore(tmp_path).open("m")
    assert err.value.intact == len(ends) - 1
    assert repair(path).dropped_bytes == 100 and path.read_bytes() == data


def test_a_garbled_last_frame_is_a_torn_tail(tmp_path: Path, minimal: Play) -> None:
    path, data, ends = _log(tmp_path, minimal)
    bad = bytearray(data)
    bad[-3] ^= 0xFF  # the last frame's hash no longer matches
    path.write_bytes(bytes(bad))
    with pytest.raises(TruncatedLog) as err:
        FileStore(tmp_path).open("m")
    assert err.value.intact == len(ends) - 2
    assert repair(path).kept_bytes == ends[-2]


def test_repair_refuses_damage_before_the_tail(tmp_path: Path, minimal: Play) -> None:
    path, data, ends = _log(tmp_path, minimal)
    bad = bytearray(data)
    bad[ends[1] + 8] ^= 0x01  # inside record 1, with records after it
    path.write_bytes(bytes(bad))
    with pytest.raises(CorruptLog, match="not a torn tail"):
        repair(path)
    assert path.read_bytes() == bytes(bad)  # untouched
    with pytest.raises(CorruptLog):
        FileStore(tmp_path).open("m")


def test_a_torn_header_cannot_be_repaired(tmp_path: Path, minimal: Play) -> None:
    path, data, ends = _log(tmp_path, minimal)
    path.write_bytes(data[: ends[0] - 3])
    with pytest.raises(TruncatedLog, match="header"):
        repair(path)


def test_a_crash_between_a_command_and_its_engine_steps_is_completed_on_open(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    store.create("liars-dice", 3, seed=12, match_id="m")
    store.close()
    path = tmp_path / "m.meeple"
    full = path.read_bytes()
    (_, roll) = list(iter_frames(full))[:2]
    path.write_bytes(full[: roll.offset])  # the set-up roll never reached the disk
    m = FileStore(tmp_path).open("m")
    assert len(m) == 1 and path.read_bytes() == full  # re-run, with the same outcome, and stored


def test_a_match_garbage_collected_releases_its_lock(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    store.create("liars-dice", 2, seed=1, match_id="m")  # dropped at once
    gc.collect()
    store.open("m")


# -- a file replaced, moved or removed behind the writer --------------------------------------------


def _replace_with_save(path: Path) -> None:
    Match.start("liars-dice", 2, seed=99).save(path)  # what `meeple fork --out` and editors do: a new inode


def _replace_with_a_copy(path: Path) -> None:
    copy = path.with_name("copy.tmp")
    copy.write_bytes(path.read_bytes())  # the same bytes, the same size: only the inode tells
    os.replace(copy, path)


def _move_away(path: Path) -> None:
    os.rename(path, path.with_name("moved.meeple"))


def _remove(path: Path) -> None:
    path.unlink()


@pytest.mark.parametrize("change", [_replace_with_save, _replace_with_a_copy, _move_away, _remove])
def test_a_file_replaced_behind_the_writer_is_a_conflict_not_a_lost_append(
    tmp_path: Path, change: Callable[[Path], None]
) -> None:
    store = FileStore(tmp_path)
    m = store.create("liars-dice", 2, seed=3, match_id="m")
    m.play(0, ld.Bid(1, 2))
    path = tmp_path / "m.meeple"
    change(path)
    there = path.read_bytes() if path.exists() else None
    before = m.to_bytes()
    with pytest.raises(StoreConflict, match=r"replaced|removed or moved"):
        m.play(1, ld.Bid(1, 5))
    assert m.to_bytes() == before, "the refused command changed the match"
    assert (path.read_bytes() if path.exists() else None) == there, "the file at the path was changed"
    with pytest.raises(StoreConflict):  # and it stays refused
        m.play(1, ld.Bid(1, 5))


def test_a_file_replaced_while_a_command_is_written_is_not_acknowledged(tmp_path: Path) -> None:
    class ReplacedMidWrite(FileSink):
        @staticmethod
        def _write(fd: int, data: bytes) -> None:
            if ReplacedMidWrite.armed:
                _replace_with_a_copy(tmp_path / "m.meeple")  # after the check before the write
            os.write(fd, data)

        armed = False

    store = FileStore(tmp_path)
    store.sink_type = ReplacedMidWrite
    m = store.create("liars-dice", 2, seed=3, match_id="m")
    ReplacedMidWrite.armed = True
    with pytest.raises(StoreConflict, match="while this command was written"):
        m.play(0, ld.Bid(1, 2))
    assert len(m) == 1, "the command was acknowledged although it went to a file that is no longer there"
    assert read_log((tmp_path / "m.meeple").read_bytes()).records == list(m.records)


def test_is_held_tells_whether_a_writer_holds_a_file(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    path = tmp_path / "m.meeple"
    assert not is_held(path)  # missing
    m = store.create("liars-dice", 2, seed=1, match_id="m")
    assert is_held(path)
    m.play(0, ld.Bid(1, 2))
    store.close(m)
    assert not is_held(path)


def test_save_log_respects_a_held_file_and_refuses_to_overwrite(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    m = store.create("liars-dice", 2, seed=1, match_id="m")
    path = tmp_path / "m.meeple"
    other = Match.start("liars-dice", 3, seed=2)
    with pytest.raises(MatchExists):
        save_log(other, path)
    with pytest.raises(StoreConflict, match="open for writing elsewhere"):
        save_log(other, path, overwrite=True)
    m.play(0, ld.Bid(1, 2))  # the writer goes on undisturbed
    assert path.read_bytes() == m.to_bytes()
    store.close(m)
    save_log(other, path, overwrite=True)
    assert path.read_bytes() == other.to_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.meeple"], "a temporary file was left behind"


# -- ids stay inside the store ----------------------------------------------------------------------


def test_an_id_never_names_a_file_outside_the_store(tmp_path: Path) -> None:
    victim_dir = tmp_path / "other"
    FileStore(victim_dir).add(Match.start("liars-dice", 2, seed=1), "victim")
    victim = victim_dir / "victim.meeple"
    before = victim.read_bytes()
    store = FileStore(tmp_path / "store")
    for ref in ("../other/victim.meeple", "../other/victim", str(victim), "/etc/passwd", ".."):
        with pytest.raises(StoreError, match="match id"):
            store.open(ref)
        with pytest.raises(StoreError, match="match id"):
            store.log_bytes(ref)
        with pytest.raises(StoreError, match="match id"):
            store.delete(ref)
    with pytest.raises(StoreError, match="open_path"):
        store.open(victim)  # type: ignore[arg-type]
    assert victim.read_bytes() == before and is_held(victim) is False
    m = store.open_path(victim)  # the explicit call for a file anywhere
    m.play(0, ld.Bid(1, 2))
    assert victim.read_bytes() == m.to_bytes()


def test_create_path_and_open_path_work_on_any_file(tmp_path: Path) -> None:
    store = FileStore(tmp_path / "unused")
    path = tmp_path / "elsewhere game.log"  # neither an id nor the .meeple suffix
    m = store.create_path(path, "liars-dice", 2, seed=1)
    m.play(0, ld.Bid(1, 2))
    with pytest.raises(MatchExists):
        store.create_path(path, "liars-dice", 2, seed=1)
    store.close()
    assert store.open_path(path).records == m.records
    assert not (tmp_path / "unused").exists()


def test_the_directory_is_made_when_the_first_match_is_stored(tmp_path: Path) -> None:
    store = FileStore(tmp_path / "a" / "matches/", durability="fsync")  # the first example of reliability.md
    assert store.ids() == [] and not (tmp_path / "a").exists()
    m = store.create("saboteur", seats=5, seed=42, match_id="table-7")
    seat = m.to_act[0]
    m.play(seat, m.legal(seat)[0])
    store.close()
    assert store.open("table-7").records == m.records


def test_a_held_file_cannot_be_deleted(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    m = store.create("liars-dice", 2, seed=1, match_id="m")
    with pytest.raises(StoreConflict):
        FileStore(tmp_path).delete("m")
    store.close(m)
    FileStore(tmp_path).delete("m")
    assert not (tmp_path / "m.meeple").exists()


def test_find_names_a_damaged_file(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    store.add(Match.start("liars-dice", 2, seed=1), "good")
    (tmp_path / "bad.meeple").write_bytes(Match.start("liars-dice", 2, seed=1).to_bytes()[:-3])
    with pytest.raises(TruncatedLog, match=r"bad\.meeple"):
        store.find()
    repair(tmp_path / "bad.meeple")
    assert sorted(i.id for i in store.find(seats=2)) == ["bad", "good"]


# -- creation is atomic -----------------------------------------------------------------------------


def test_a_create_that_fails_part_way_leaves_nothing(tmp_path: Path) -> None:
    class FailingSink(FileSink):
        @staticmethod
        def _write(fd: int, data: bytes) -> None:
            os.write(fd, data[:20])  # the header cut short, then the disk is full
            raise OSError(28, "No space left on device")

    store = FileStore(tmp_path)
    store.sink_type = FailingSink
    with pytest.raises(StoreError, match="No space left"):
        store.create("liars-dice", 2, seed=1, match_id="m")
    assert list(tmp_path.iterdir()) == [], "a failed create left a file"
    store.sink_type = FileSink
    store.create("liars-dice", 2, seed=1, match_id="m")  # the id is free
    assert meeple.verify(tmp_path / "m.meeple").ok


def test_create_removes_the_temporary_files_of_a_crashed_create(tmp_path: Path) -> None:
    stale = tmp_path / ".m.meeple.0123456789ab.tmp"
    stale.write_bytes(b"MEEPLE\x00\x01\x00\x00")  # what a creator killed mid-write leaves
    busy = tmp_path / ".m.meeple.ba9876543210.tmp"
    busy.write_bytes(b"")
    fd = os.open(busy, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # a creator still at work
    try:
        FileStore(tmp_path).create("liars-dice", 2, seed=1, match_id="m")
        assert not stale.exists() and busy.exists()
    finally:
        os.close(fd)
    assert FileStore(tmp_path).ids() == ["m"]


def test_a_create_refused_for_a_taken_id_still_clears_what_a_killed_creator_left(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    store.create("liars-dice", 2, seed=1, match_id="m")
    store.close()
    stale = tmp_path / ".m.meeple.0123456789ab.tmp"
    os.link(tmp_path / "m.meeple", stale)  # a creator killed after linking its file in place, before unlinking
    with pytest.raises(MatchExists):
        FileStore(tmp_path).create("liars-dice", 2, seed=2, match_id="m")
    assert not stale.exists() and meeple.verify(tmp_path / "m.meeple").ok


def test_files_that_are_not_named_by_an_id_are_not_matches_of_the_store(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    store.add(Match.start("liars-dice", 2, seed=1), "m")
    Match.start("liars-dice", 2, seed=2).save(tmp_path / "my game.meeple")
    (tmp_path / ".m.meeple.0123456789ab.tmp").write_bytes(b"")
    assert store.ids() == ["m"] and [i.id for i in store.find()] == ["m"]
    assert len(store.open_path(tmp_path / "my game.meeple")) == 1
