"""A store backend is one registration: its schemes reach sources, store addresses, the server and the CLI."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import liars_dice  # noqa: F401  (registers "liars-dice")
from meeple.cli._base import is_corpus, is_database, is_source
from meeple.store import SqliteStore, StoreError, open_store, parse_source, parse_store
from meeple.store import backends as registry
from meeple.store.backends import Backend, backend_for, forms, register_backend, schemes
from needs import need


@pytest.fixture
def memo_backend(tmp_path: Path) -> Iterator[list[tuple[str, str | None, bool, str]]]:
    """A backend of scheme ``memo:`` whose stores are SQLite files under ``tmp_path``; the calls it had."""
    opened: list[tuple[str, str | None, bool, str]] = []

    def read(where: str) -> tuple[str, str | None]:
        name, _, schema = where[len("memo:"):].partition(";")
        if not name:
            raise StoreError("no name")
        return name, schema or None

    def open_(location: str, schema: str | None, readonly: bool, durability: str) -> SqliteStore:
        opened.append((location, schema, readonly, durability))
        return SqliteStore(tmp_path / f"{location}.db", "flush")

    register_backend(Backend("memo", "Memo", ("memo:",), "memo:NAME", read, open_))
    yield opened
    registry._backends.pop("memo", None)


def test_the_bundled_backends_and_their_forms() -> None:
    assert schemes() == ("sqlite:", "postgresql://", "postgres://")
    assert forms("#MATCH_ID") == "sqlite:PATH#MATCH_ID, postgresql://...#MATCH_ID"
    assert backend_for("postgres://h/db").kind == "postgresql"  # type: ignore[union-attr]
    assert backend_for("games/m.meeple") is None


def test_a_registered_backend_is_known_to_every_reader_of_addresses(memo_backend: list[tuple[str, str | None, bool, str]],
                                                                    tmp_path: Path) -> None:
    src = parse_source("memo:club;spring#m1")
    assert (src.kind, src.location, src.schema, src.match_id) == ("memo", "club", "spring", "m1")
    assert parse_store("memo:club").kind == "memo"
    with pytest.raises(StoreError, match=r"a Memo source is memo:NAME#MATCH_ID, not 'memo:#m1'"):
        parse_source("memo:#m1")
    store = open_store("memo:club")
    m = store.create("liars-dice", 2, seed=1, match_id="m1")
    m.play(0, m.legal(0)[0])
    store.close()
    assert memo_backend == [("club", None, False, "fsync")]
    assert parse_source("memo:club#m1").open_store(readonly=True).log_bytes("m1")
    assert memo_backend[-1] == ("club", None, True, "fsync")
    assert "memo:NAME" in forms()
    # the command line takes it as a source and as a corpus
    assert is_database("memo:club") and is_source("memo:club#m1") and is_corpus("memo:club")


def test_schemes_of_two_backends_never_overlap(memo_backend: list[tuple[str, str | None, bool, str]]) -> None:
    clash = Backend("other", "Other", ("memo:x",), "memo:x...", lambda w: (w, None), lambda *a: None)  # type: ignore[arg-type,return-value]
    with pytest.raises(StoreError, match="overlap"):
        register_backend(clash)
    assert backend_for("memo:xyz").kind == "memo"  # type: ignore[union-attr]


def test_the_server_takes_a_registered_scheme_and_names_every_form_for_an_unknown_one(
        memo_backend: list[tuple[str, str | None, bool, str]]) -> None:
    need("server")
    from meeple.server.stores import server_store

    assert server_store("memo:club").kind == "memo"
    with pytest.raises(StoreError, match=r"unknown store scheme in 'mysql://h/db'; use a path or sqlite:PATH, postgresql://\.\.\., memo:NAME"):
        server_store("mysql://h/db")
