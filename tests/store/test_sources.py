"""Sources: one name for a stored match, a file path or ``sqlite://PATH#MATCH_ID``."""

from __future__ import annotations

from pathlib import Path

import pytest

import liars_dice as ld
import meeple
from meeple.store import (
    FileStore,
    MatchNotFound,
    SqliteStore,
    StoreError,
    load_log,
    log_bytes,
    open_match,
    parse_sqlite,
)


@pytest.mark.parametrize(
    ("source", "parsed"),
    [
        ("sqlite:///srv/games.db#m-1", ("/srv/games.db", "m-1")),
        ("sqlite://games.db#abc", ("games.db", "abc")),
        ("sqlite:///a#b.db#m", ("/a#b.db", "m")),  # the id follows the last '#'
        ("games.meeple", None),
        ("/srv/sqlite.db", None),
    ],
)
def test_a_sqlite_source_names_a_database_and_a_match(source: str, parsed: tuple[str, str] | None) -> None:
    assert parse_sqlite(source) == parsed


@pytest.mark.parametrize("source", ["sqlite://", "sqlite:///x.db", "sqlite:///x.db#", "sqlite://#m"])
def test_an_incomplete_sqlite_source_is_refused(source: str) -> None:
    with pytest.raises(StoreError, match="sqlite://PATH#MATCH_ID"):
        parse_sqlite(source)


def test_both_kinds_of_source_load_the_same_match(tmp_path: Path) -> None:
    for store in (FileStore(tmp_path), SqliteStore(tmp_path / "all.db")):
        m = store.create("liars-dice", 2, seed=3, match_id="same")
        m.play(0, ld.Bid(1, 4))
        store.close()
    file_src, db_src = str(tmp_path / "same.meeple"), f"sqlite://{tmp_path}/all.db#same"
    assert log_bytes(file_src) == log_bytes(db_src)
    assert load_log(file_src).records == load_log(db_src).records
    for src in (file_src, db_src):
        m = open_match(src)
        m.play(1, ld.Bid(1, 5))
        assert meeple.verify(log_bytes(src)).ok and len(load_log(src).records) == 3
        del m


def test_a_missing_source_is_reported(tmp_path: Path) -> None:
    with pytest.raises(MatchNotFound):
        log_bytes(str(tmp_path / "none.meeple"))
    with pytest.raises(MatchNotFound, match="no SQLite store"):
        open_match(f"sqlite://{tmp_path}/none.db#m")


def test_the_file_store_finds_a_match_by_id_name_or_path(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    store.create("liars-dice", 2, seed=3, match_id="m1")
    store.close()
    for ref in ("m1", "m1.meeple", tmp_path / "m1.meeple", str(tmp_path / "m1.meeple")):
        assert store.path(ref) == tmp_path / "m1.meeple"
        store.open(ref)
        store.close()
    with pytest.raises(StoreError, match="a match id is"):
        store.open(1)  # type: ignore[arg-type]  # once a TypeError from the separator test
