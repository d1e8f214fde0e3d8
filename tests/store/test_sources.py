"""Sources and store addresses: one string names a stored match (or a store), of any kind."""

from __future__ import annotations

from pathlib import Path

import pytest

import liars_dice as ld
import meeple
from meeple.store import (
    FileStore,
    MatchNotFound,
    Source,
    SqliteStore,
    StoreError,
    load_log,
    log_bytes,
    open_match,
    open_store,
    parse_source,
    parse_sqlite,
    parse_store,
)


@pytest.mark.parametrize(
    ("source", "parsed"),
    [
        ("sqlite:games.db#abc", ("games.db", "abc")),  # relative
        ("sqlite:data/games.db#abc", ("data/games.db", "abc")),
        ("sqlite:/srv/games.db#m-1", ("/srv/games.db", "m-1")),  # absolute
        ("sqlite:///srv/games.db#m-1", ("/srv/games.db", "m-1")),  # the URL form: empty host, absolute path
        ("sqlite:////srv/games.db#m-1", ("/srv/games.db", "m-1")),  # four slashes (SQLAlchemy's absolute form)
        ("sqlite://games.db#abc", ("games.db", "abc")),  # the form of earlier versions: relative
        ("sqlite:///a#b.db#m", ("/a#b.db", "m")),  # the id follows the last '#'
        ("sqlite:my%20games.db#m", ("my%20games.db", "m")),  # taken as written, no percent-decoding
        ("games.meeple", None),
        ("/srv/sqlite.db", None),
    ],
)
def test_a_sqlite_source_names_a_database_and_a_match(source: str, parsed: tuple[str, str] | None) -> None:
    assert parse_sqlite(source) == parsed


@pytest.mark.parametrize("source", ["sqlite:", "sqlite://", "sqlite:///x.db", "sqlite:///x.db#", "sqlite://#m",
                                    "sqlite:#m"])
def test_an_incomplete_sqlite_source_is_refused(source: str) -> None:
    with pytest.raises(StoreError, match="sqlite:PATH#MATCH_ID"):
        parse_sqlite(source)


def test_a_bad_match_id_in_a_source_is_refused() -> None:
    with pytest.raises(StoreError, match="match id"):
        parse_source("sqlite:m.db#../../etc")


@pytest.mark.parametrize(
    ("source", "parsed"),
    [
        ("postgresql://game@db.internal/meeple#t7", Source("postgresql", "postgresql://game@db.internal/meeple", "t7")),
        ("postgres://db/meeple#t7", Source("postgresql", "postgres://db/meeple", "t7")),
        ("postgresql:///meeple?host=%2Frun%2Fpg&schema=club#t7",
         Source("postgresql", "postgresql:///meeple?host=%2Frun%2Fpg", "t7", "club")),
        ("postgresql://db/m?schema=club&sslmode=require#t7",
         Source("postgresql", "postgresql://db/m?sslmode=require", "t7", "club")),
        ("postgresql://u:p%23w@db/m#t7", Source("postgresql", "postgresql://u:p%23w@db/m", "t7")),
    ],
)
def test_a_postgresql_source_is_a_libpq_url_and_a_match(source: str, parsed: Source) -> None:
    assert parse_source(source) == parsed
    assert parse_sqlite(source) is None


def test_a_store_address_names_no_match(tmp_path: Path) -> None:
    assert parse_store("sqlite:m.db") == Source("sqlite", "m.db")
    assert parse_store("postgresql://db/m?schema=s") == Source("postgresql", "postgresql://db/m", None, "s")
    assert parse_store(tmp_path) == Source("file", str(tmp_path))
    with pytest.raises(StoreError, match="names no match"):
        parse_store("sqlite:m.db#x")
    with pytest.raises(StoreError, match="names a match"):
        parse_source("postgresql://db/m")


def test_every_kind_of_source_loads_the_same_match(tmp_path: Path) -> None:
    for store in (FileStore(tmp_path), SqliteStore(tmp_path / "all.db")):
        m = store.create("liars-dice", 2, seed=3, match_id="same")
        m.play(0, ld.Bid(1, 4))
        store.close()
    file_src, db_src = str(tmp_path / "same.meeple"), f"sqlite:{tmp_path}/all.db#same"
    assert log_bytes(file_src) == log_bytes(db_src) == log_bytes(tmp_path / "same.meeple")
    assert load_log(file_src).records == load_log(db_src).records
    for src in (file_src, db_src):
        m = open_match(src)
        m.play(1, ld.Bid(1, 5))
        assert meeple.verify(log_bytes(src)).ok and len(load_log(src).records) == 3
        del m


def test_a_relative_sqlite_source_is_relative_to_the_current_directory(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    with SqliteStore(tmp_path / "m.db") as store:
        store.create("liars-dice", 2, seed=3, match_id="x")
    monkeypatch.chdir(tmp_path)
    assert load_log("sqlite:m.db#x").header.seats == 2
    assert [i.id for i in open_store("sqlite:m.db", readonly=True).find()] == ["x"]


def test_a_missing_source_is_reported(tmp_path: Path) -> None:
    with pytest.raises(MatchNotFound):
        log_bytes(str(tmp_path / "none.meeple"))
    with pytest.raises(MatchNotFound, match="no SQLite store"):
        open_match(f"sqlite:{tmp_path}/none.db#m")
    with pytest.raises(MatchNotFound, match="no match 'm'"):
        SqliteStore(tmp_path / "some.db").close()
        log_bytes(f"sqlite:{tmp_path}/some.db#m")


def test_postgresql_sources_say_what_is_missing_without_psycopg(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "meeple.store.postgres", None)  # as if psycopg were not installed
    with pytest.raises(StoreError, match=r"pip install 'meeple\[postgres\]'"):
        log_bytes("postgresql://nowhere/db#m")


def test_the_file_store_finds_a_match_by_id_or_name(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    store.create("liars-dice", 2, seed=3, match_id="m1")
    store.close()
    for ref in ("m1", "m1.meeple"):
        assert store.path(ref) == tmp_path / "m1.meeple"
        store.open(ref)
        store.close()
    with pytest.raises(StoreError, match="a match id is"):
        store.open(1)  # type: ignore[arg-type]
