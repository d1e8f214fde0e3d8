"""The file store: append-only logs, durability settings, locking, torn tails and repair."""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path

import pytest

import liars_dice as ld
import meeple
from meeple import Match
from meeple.engine import CorruptLog, TruncatedLog, read_log
from meeple.engine.log import iter_frames
from meeple.store import FileStore, MatchNotFound, StoreConflict, StoreError, repair

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


def test_reopened_match_continues_appending(tmp_path: Path, minimal: Play, finish: Callable[[Match], Match]) -> None:
    store = FileStore(tmp_path)
    m = minimal(store.create("liars-dice", 2, seed=8, match_id="m"), 3)
    store.close(m)
    again = store.open("m")
    assert again.records == m.records and again.state == m.state
    finish(again)
    store.close()
    assert meeple.verify(tmp_path / "m.meeple").ok
    assert Match.load(tmp_path / "m.meeple").outcome == again.outcome


def test_a_match_open_for_writing_cannot_be_opened_twice(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    m = store.create("liars-dice", 2, seed=8, match_id="m")
    with pytest.raises(StoreConflict, match="open for writing elsewhere"):
        FileStore(tmp_path).open("m")
    with pytest.raises(StoreConflict):
        repair(tmp_path / "m.meeple")
    store.close(m)
    store.open("m")  # free again


def test_a_taken_match_id_is_a_conflict(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    store.create("liars-dice", 2, seed=8, match_id="m")
    with pytest.raises(StoreConflict, match="already exists"):
        store.create("liars-dice", 2, seed=9, match_id="m")


@pytest.mark.parametrize("bad", ["", "../x", "a/b", ".hidden", "x" * 200])
def test_match_ids_are_checked(tmp_path: Path, bad: str) -> None:
    with pytest.raises(StoreError, match="match id"):
        FileStore(tmp_path).create("liars-dice", 2, seed=1, match_id=bad)


def test_a_missing_match_is_reported(tmp_path: Path) -> None:
    with pytest.raises(MatchNotFound):
        FileStore(tmp_path).open("nope")


def test_a_new_branch_after_undo_replaces_the_undone_records_on_disk(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    m = store.create("liars-dice", 2, seed=3, match_id="m")
    m.play(0, ld.Bid(1, 2))
    m.play(1, ld.Bid(1, 5))
    m.undo()
    m.play(1, ld.Bid(2, 2))
    assert (tmp_path / "m.meeple").read_bytes() == m.to_bytes()
    assert [r.command for r in read_log((tmp_path / "m.meeple").read_bytes()).records][1:] == [ld.Bid(1, 2), ld.Bid(2, 2)]


def test_a_file_changed_behind_the_store_is_a_conflict(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    m = store.create("liars-dice", 2, seed=3, match_id="m")
    with open(tmp_path / "m.meeple", "ab") as f:
        f.write(b"junk")
    before = m.state
    with pytest.raises(StoreConflict, match="changed outside"):
        m.play(0, ld.Bid(1, 2))
    assert m.state == before and len(m) == 1  # refused: the match did not change


def test_a_closed_match_plays_on_in_memory_only(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    m = store.create("liars-dice", 2, seed=3, match_id="m")
    store.close(m)
    m.play(0, ld.Bid(1, 2))  # detached: plays in memory only
    assert read_log((tmp_path / "m.meeple").read_bytes()).records == list(m.records[:1])


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


def test_ids_lists_the_directory(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    for i in ("b", "a"):
        store.create("liars-dice", 2, seed=1, match_id=i)
    assert list(store.ids()) == ["a", "b"]


def test_a_match_garbage_collected_releases_its_lock(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    store.create("liars-dice", 2, seed=1, match_id="m")  # dropped at once
    gc.collect()
    store.open("m")
