"""Root test set-up: registers the example game for doctests and tests alike; what needs an extra.

Where an extra of meeple's is not installed, the test modules that need it
skip, each saying which extra, without being imported, and the doctests of
the modules of meeple that import it are left out. In CI (the ``CI``
variable set) they fail instead: README's test line installs every extra
(``tests/needs.py``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

import liars_dice  # noqa: F401  (registers "liars-dice")

ROOT = Path(__file__).resolve().parent
if str(ROOT / "tests") not in sys.path:  # the tests' shared helpers (needs) by name
    sys.path.insert(0, str(ROOT / "tests"))

from needs import EXTRAS, NEEDS, missing, unavailable  # noqa: E402

#: Extras not installed here, with the modules of each that cannot be imported.
MISSING = {extra: gone for extra in EXTRAS if (gone := missing(extra))}


def _missing_extra(path: Path) -> str | None:
    """The extra that ``path`` needs and that is not installed, if any."""
    path = path.resolve()
    if not MISSING or not path.is_relative_to(ROOT):
        return None
    rel = path.relative_to(ROOT).as_posix()
    extra = next((e for prefix, e in NEEDS.items() if rel == prefix or rel.startswith(prefix + "/")), None)
    return extra if extra in MISSING else None


def pytest_report_header() -> list[str]:
    """Say which extras are missing, and so which tests skip."""
    return [f"extra {extra!r} not installed ({', '.join(gone)}): its tests skip, its doctests are left out"
            for extra, gone in MISSING.items()]


class _Unavailable(pytest.Module):
    """A test module whose extra is missing: skipped (failed in CI), saying why, and never imported."""

    extra = ""

    def collect(self) -> Any:
        unavailable(self.extra, f"{', '.join(MISSING[self.extra])} cannot be imported")


def pytest_pycollect_makemodule(module_path: Path, parent: Any) -> Any:
    """A test module that needs a missing extra is collected as one skip."""
    extra = _missing_extra(module_path)
    if extra is None:
        return None
    module = _Unavailable.from_parent(parent, path=module_path)
    module.extra = extra
    return module


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: Any) -> Generator[None, list[Any], list[Any]]:
    """No doctests of a module that needs a missing extra (importing it would fail), but in CI."""
    collected = yield
    if os.environ.get("CI") or _missing_extra(file_path) is None:
        return collected
    return [c for c in collected if type(c).__name__ != "DoctestModule"]
