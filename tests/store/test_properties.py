"""Properties: whatever a match goes through, each store holds exactly the match's log.

Hypothesis drives random sequences of plays, undos, redos, new branches,
closes and reopens over every store (file, SQLite, PostgreSQL); after every step the stored log must be
byte-identical to ``Match.to_bytes()`` of the match in memory, and must verify.
"""

from __future__ import annotations

import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple import Match
from meeple.store import log_bytes, open_store

ACTIONS = st.lists(st.sampled_from(["play", "play", "play", "undo", "redo", "reopen"]), min_size=1, max_size=25)


def _step(match: Match, action: str, choice: int) -> None:
    if action == "undo" and match.can_undo():
        match.undo()
    elif action == "redo" and match.can_redo():
        match.redo()
    elif action == "play" and not match.is_over:
        seat = next(s for s in match.to_act if s >= 0)
        legal = match.legal(seat)
        match.play(seat, legal[choice % min(len(legal), 4)])


@pytest.fixture(params=["file", "sqlite", "postgresql"])
def place(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A function giving a fresh (store address, source of match "p") each time it is called."""
    made: list[Any] = []
    server = request.getfixturevalue("postgres_server") if request.param == "postgresql" else None

    def fresh() -> tuple[str, str]:
        if server is not None:
            schema = f"p_{uuid.uuid4().hex[:12]}"
            made.append(schema)
            address = server.url(schema=schema)
            return address, f"{address}#p"
        d = tempfile.mkdtemp()
        made.append(d)
        if request.param == "sqlite":
            return f"sqlite:{d}/p.db", f"sqlite:{d}/p.db#p"
        return d, str(Path(d) / "p.meeple")

    yield fresh
    if server is not None:
        import psycopg

        with psycopg.connect(server.dsn, autocommit=True) as db:
            for schema in made:
                db.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    else:
        import shutil

        for d in made:
            shutil.rmtree(d, ignore_errors=True)


@pytest.mark.slow
@given(actions=ACTIONS, choices=st.lists(st.integers(0, 3), min_size=25, max_size=25))
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])  # place() is a factory
def test_the_store_always_holds_the_match_log(place: Any, actions: list[str], choices: list[int]) -> None:
    address, source = place()
    store: Any = open_store(address, durability="flush")
    m = store.create("liars-dice", 3, seed=8, options={"dice": 2}, match_id="p")
    stored = log_bytes(source)
    for action, choice in zip(actions, choices):
        if action == "reopen":
            store.close()  # release the file's lock; the match is then refused
            store = open_store(address, durability="flush")
            m = store.open("p")
        else:
            _step(m, action, choice)
        now = log_bytes(source)
        if action == "play":
            assert now == m.to_bytes(), "the store differs from the match after a command"
            stored = now
        else:  # undo and redo move the cursor only; the store keeps the records played
            assert now == stored
    assert meeple.verify(stored).ok
    store.close()
