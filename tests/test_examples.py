"""Every script in examples/ runs and shows what it promises."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SCRIPTS = sorted(p for p in EXAMPLES.glob("*.py") if p.name != "liars_dice.py")

EXPECTED = {
    "embedding.py": ["not_your_turn", "bad_message", "outcome: Outcome("],
    "undo_redo.py": ["can seat 1 undo its bid? True", "can redo? False", "fork plays on alone"],
    "tournament.py": ["same logs on a pool: True", "heuristic  won", "95% Wilson interval"],
    "verify_replay.py": ["honest: ok", "forged: FAILED: event 0 differs", "torn:   FAILED: log ends inside a frame"],
}


def test_every_example_has_expectations() -> None:
    assert {p.name for p in SCRIPTS} == set(EXPECTED)


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_example_runs(script: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120,
        env={"PYTHONPATH": os.pathsep.join([str(EXAMPLES), str(EXAMPLES.parent / "src")]), "PATH": ""},
    )
    assert out.returncode == 0, out.stderr
    for text in EXPECTED[script.name]:
        assert text in out.stdout
