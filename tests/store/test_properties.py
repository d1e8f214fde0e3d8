"""Properties: whatever a match goes through, each store holds exactly the match's log.

Hypothesis drives random sequences of plays, undos, redos, new branches,
closes and reopens over both stores; after every step the stored log must be
byte-identical to ``Match.to_bytes()`` of the match in memory, and must verify.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import meeple
from meeple import Match
from meeple.store import FileStore, SqliteStore, log_bytes

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


@given(actions=ACTIONS, choices=st.lists(st.integers(0, 3), min_size=25, max_size=25), sqlite=st.booleans())
def test_the_store_always_holds_the_match_log(actions: list[str], choices: list[int], sqlite: bool) -> None:
    with tempfile.TemporaryDirectory() as d:
        store: Any = SqliteStore(Path(d) / "p.db", "flush") if sqlite else FileStore(d)
        source = f"sqlite://{d}/p.db#p" if sqlite else str(Path(d) / "p.meeple")
        m = store.create("liars-dice", 3, seed=8, options={"dice": 2}, match_id="p")
        stored = log_bytes(source)
        for action, choice in zip(actions, choices):
            if action == "reopen":
                if not sqlite:
                    store.close(m)  # release the file's lock
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
