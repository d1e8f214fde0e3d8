"""The README's two lines: the second is exactly what CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _readme_lines() -> list[str]:
    block = re.search(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    assert block, "the README starts with a shell block"
    return block.group(1).strip().splitlines()


def test_the_readme_starts_with_the_demo_and_the_test_line() -> None:
    demo, tests = _readme_lines()[:2]
    assert demo.endswith("meeple demo")
    assert tests.endswith("pytest -n 2") and "system-deps.sh" in tests


def test_ci_runs_exactly_the_readme_test_line() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert script[-1] == _readme_lines()[1]
