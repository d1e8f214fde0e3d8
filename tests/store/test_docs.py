"""The store examples of the documentation run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _python_blocks(page: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (DOCS / page).read_text(), flags=re.S)


def test_the_first_example_of_the_reliability_page_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # it makes matches/ and matches.db in the current directory
    exec(compile(_python_blocks("reliability.md")[0], "reliability.md", "exec"), {})
    assert (tmp_path / "matches" / "table-7.meeple").exists() and (tmp_path / "matches.db").exists()
