"""Seed schedules, their commitment, and forks: what a fork writes and what verify binds (docs/rng.md).

A fork's log depends only on the match it forks, not on where that match came
from (made in memory, loaded from bytes, opened from a file or SQLite store);
verify re-decides only with seeds that the header's commitment binds.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple import ENGINE, CorruptLog, Match, RandomBot
from meeple.engine import read_log
from meeple.engine.codec import pack
from meeple.engine.log import MAGIC, frame, iter_frames
from meeple.engine.seeds import SeedEpoch, commitment_of, derive_salt, seed_commitment
from meeple.store import FileStore, SqliteStore

GAME, SEATS, SEED, LENGTH = "kings", 2, 3, 24


def _play(m: Match, until: int, bot_seed: int = 0) -> Match:
    bots = [RandomBot(bot_seed * 7 + s) for s in range(m.seats)]
    while m.to_act and len(m) < until:
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    return m


def _bodies(data: bytes) -> list[Any]:
    return [msgpack.unpackb(f.body, strict_map_key=False) for f in iter_frames(data)]


def _chained(bodies: list[Any]) -> bytes:
    """A log of these frame bodies with its hash chain recomputed: what a forger would write."""
    out, prev = [MAGIC], MAGIC
    for b in bodies:
        fr, prev = frame(pack(b), prev)
        out.append(fr)
    return b"".join(out)


def _edit_header(data: bytes, **fields: Any) -> bytes:
    bodies = _bodies(data)
    bodies[0].update(fields)
    return _chained(bodies)


# -- forks -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sources() -> Iterator[dict[str, Match]]:
    """One match, as it was played and as every way of loading it gives it back."""
    with tempfile.TemporaryDirectory() as d:
        played = _play(Match.start(GAME, SEATS, seed=SEED), LENGTH)
        files, db = FileStore(d), SqliteStore(Path(d) / "all.db")
        _play(files.create(GAME, SEATS, seed=SEED, match_id="k"), LENGTH)
        files.close()
        _play(db.create(GAME, SEATS, seed=SEED, match_id="k"), LENGTH)
        loaded = Match.from_bytes(played.to_bytes())
        hashed = Match.from_bytes(played.to_bytes())
        assert hashed.head_hash == played.head_hash  # the chain is now cached: a fork once copied it
        yield {"memory": played, "bytes": loaded, "bytes, head hash read": hashed,
               "file": files.open("k"), "sqlite": db.open("k")}
        files.close()
        db.close()


def test_the_sources_hold_the_same_match(sources: dict[str, Match]) -> None:
    logs = {name: m.to_bytes() for name, m in sources.items()}
    assert len(set(logs.values())) == 1, "the fork test needs one match from every source"
    assert len(sources["memory"]) == LENGTH


@settings(max_examples=40, deadline=None)
@given(at=st.integers(0, LENGTH), seed=st.none() | st.integers(0, (1 << 64) - 1))
def test_a_fork_is_the_same_log_wherever_its_match_came_from(sources: dict[str, Match], at: int,
                                                              seed: int | None) -> None:
    forks = {name: m.fork(at=at, seed=seed).to_bytes() for name, m in sources.items()}
    assert len(set(forks.values())) == 1, {name: len(data) for name, data in forks.items()}
    data = forks["memory"]
    loaded = Match.from_bytes(data)  # the chain holds
    assert loaded.to_bytes() == data
    assert meeple.verify(data).ok
    schedule = read_log(data).seed_schedule
    expected = [SeedEpoch(0, None, SEED)] if seed is None else [SeedEpoch(0, at, SEED), SeedEpoch(at, None, seed)]
    if seed is not None and at == 0:
        expected = [SeedEpoch(0, None, seed)]
    assert list(schedule.epochs) == expected and schedule.binding


def test_a_fork_of_a_reseeded_fork_is_the_same_log_from_memory_and_from_a_store(tmp_path: Path) -> None:
    reseeded = _play(_play(Match.start(GAME, SEATS, seed=SEED), 10).fork(at=6, seed=77), 20)
    db = SqliteStore(tmp_path / "m.db")
    db.add(reseeded, "r")
    opened = db.open("r")
    for at, seed in ((4, None), (8, None), (12, None), (8, 5), (3, 5)):
        a, b = reseeded.fork(at=at, seed=seed).to_bytes(), opened.fork(at=at, seed=seed).to_bytes()
        assert a == b and meeple.verify(a).ok
    db.close()


def test_a_store_keeps_and_opens_a_fork_of_a_match_it_opened(tmp_path: Path) -> None:
    db = SqliteStore(tmp_path / "m.db")
    _play(db.create(GAME, SEATS, seed=SEED, match_id="k"), LENGTH)
    db.add(db.open("k").fork(at=10), "fork")  # once stored a log that open refused
    reopened = db.open("fork")
    assert len(reopened) >= 10 and meeple.verify(db.log_bytes("fork")).ok
    _play(reopened, 16)
    assert meeple.verify(db.log_bytes("fork")).ok
    db.close()


def test_the_salt_of_a_schedule_is_derived_from_its_last_seed() -> None:
    m = Match.start(GAME, SEATS, seed=42)
    assert m.commitment == seed_commitment([(0, 42)], derive_salt(42)) == commitment_of([(0, 42)])
    forked = _play(m, 4).fork(at=2, seed=7)
    assert forked.commitment == seed_commitment([(0, 42), (2, 7)], derive_salt(7))
    assert forked.fork(at=1).commitment == forked.commitment  # a plain fork keeps the schedule, later seeds too


# -- what verify binds ----------------------------------------------------------------------------


def _finished(seed: int = 4) -> Match:
    m = _play(Match.start(GAME, SEATS, seed=seed), 10_000)
    assert m.is_over
    return m


def _divergence(data: bytes) -> str:
    report = meeple.verify(data)
    assert not report.ok and report.first_divergence is not None, "a log that must not verify did"
    return report.first_divergence.reason


def test_an_honest_log_binds_its_seeds_in_every_form() -> None:
    m = _finished()
    for data in (m.to_bytes(), m.to_bytes(hide_seed=True), m.fork(at=5, seed=9).to_bytes(),
                 Match.from_bytes(m.to_bytes()).fork(at=5).to_bytes()):
        assert meeple.verify(data).ok
        assert read_log(data).seed_schedule.binding is True


def test_a_public_seed_log_committing_to_another_seed_fails_verify() -> None:
    forged = _edit_header(_finished().to_bytes(), commitment=commitment_of([(0, 99)]))
    assert "commitment" in _divergence(forged) and "other seeds" in _divergence(forged)
    report = meeple.verify(forged)
    assert report.first_divergence is not None and report.first_divergence.record is None
    assert read_log(forged).seed_schedule.binding is False


def test_a_re_seed_that_keeps_the_old_commitment_fails_verify_naming_the_re_seed() -> None:
    m = _play(Match.start(GAME, SEATS, seed=4), 12).fork(at=8, seed=5)
    forged = _edit_header(m.to_bytes(), commitment=commitment_of([(0, 4)]))
    assert "re-seed" in _divergence(forged) and "record 8" in _divergence(forged)


def test_a_reveal_frame_that_reveals_other_seeds_than_the_header_shows_is_refused() -> None:
    m = _finished()
    bodies = _bodies(m.to_bytes())
    fake, salt = [[0, 12345]], derive_salt(12345)
    bodies[0]["commitment"] = seed_commitment([(0, 12345)], salt)  # the commitment binds the revealed seeds
    forged = _chained([*bodies, {"reveal": [fake, salt]}])  # while the header's seeds re-decide the match
    with pytest.raises(CorruptLog, match=r"reveal frame in a log that shows its seeds \(it reveals other seeds"):
        read_log(forged)
    assert "reveal" in _divergence(forged)


def test_a_revealed_salt_that_is_not_derived_from_the_seeds_fails_verify() -> None:
    m = _finished()
    bodies = _bodies(m.to_bytes(hide_seed=True))
    salt = bytes(range(16))
    bodies[0]["commitment"] = seed_commitment([(0, 4)], salt)
    bodies[-1] = {"reveal": [[[0, 4]], salt]}
    forged = _chained(bodies)
    assert "salt" in _divergence(forged)
    assert read_log(forged).seed_schedule.binding is False


@pytest.mark.parametrize("seeds", [[[0, 4], [3, 9], [1, 7]], [[2, 4]], [[0, 4], [0, 5]]],
                         ids=["out of order", "not from record 0", "twice from one record"])
def test_a_header_schedule_that_is_no_schedule_is_refused(seeds: list[list[int]]) -> None:
    forged = _edit_header(_finished().to_bytes(), seeds=seeds,
                          commitment=commitment_of([tuple(p) for p in seeds]))  # type: ignore[misc]
    with pytest.raises(CorruptLog, match="seed schedule"):
        read_log(forged)
    assert "seed schedule" in _divergence(forged)


# -- reading the schedule ---------------------------------------------------------------------------


def test_the_seed_schedule_of_a_log_shows_every_re_seed() -> None:
    m = _play(_play(Match.start(GAME, SEATS, seed=1), 6).fork(at=3, seed=2), 12).fork(at=9, seed=3)
    public = read_log(m.to_bytes()).seed_schedule
    assert public.epochs == (SeedEpoch(0, 3, 1), SeedEpoch(3, 9, 2), SeedEpoch(9, None, 3))
    assert (public.hidden, public.revealed, public.binding) == (False, False, True)
    assert public.commitment == m.commitment
    hidden = read_log(m.to_bytes(hide_seed=True)).seed_schedule
    assert hidden.epochs == () and (hidden.hidden, hidden.revealed, hidden.binding) == (True, False, None)
    over = _finished(6)
    revealed = read_log(over.to_bytes(hide_seed=True)).seed_schedule
    assert revealed.epochs == (SeedEpoch(0, None, 6),) and (revealed.hidden, revealed.revealed) == (True, True)
    assert revealed.binding is True


def test_a_match_opened_from_a_file_that_hides_its_seeds_forks_and_saves_whole(tmp_path: Path) -> None:
    """The store keeps the chain of the hidden-seed bytes it read; forks and to_bytes chain from their own header."""
    m = _finished()
    m.save(tmp_path / "h.meeple", hide_seed=True)
    files = FileStore(tmp_path)
    opened = files.open("h")
    assert opened.to_bytes() == m.to_bytes() and opened.to_bytes(hide_seed=True) == m.to_bytes(hide_seed=True)
    for at in (0, 10, len(m)):
        assert opened.fork(at=at).to_bytes() == m.fork(at=at).to_bytes()
    files.close()
