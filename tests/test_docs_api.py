"""The API reference (Sphinx autodoc over the docstrings) builds with warnings as errors, and misses no module."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
API = ROOT / "docs" / "api"


@pytest.mark.slow  # a whole Sphinx build
def test_the_api_reference_builds_without_a_warning(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                        "-d", str(tmp_path / "doctrees"), str(ROOT / "docs"), str(tmp_path / "html")],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-4000:]
    page = (tmp_path / "html" / "api" / "tools.html").read_text(encoding="utf-8")
    assert "wilson" in page and "describe_game" in page and "diff_logs" in page


def test_every_public_module_is_in_the_reference() -> None:
    documented = set(re.findall(r"^\.\. automodule:: ([\w.]+)", "".join(p.read_text() for p in API.glob("*.rst")),
                                re.M))
    src = ROOT / "src" / "meeple"
    public = {"meeple"}
    for p in src.rglob("*.py"):
        parts = p.relative_to(src.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if any(part.startswith("_") for part in parts) or (parts[1:2] in (("games",), ("cli",)) and len(parts) > 2):
            continue
        if parts[1:2] == ("games",):
            continue
        public.add(".".join(parts))
    assert public <= documented, sorted(public - documented)
