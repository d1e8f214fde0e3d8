"""The optional parts some tests need (an extra of meeple's): skipped with the reason where missing, failed in CI.

A developer who installed only some extras runs the rest of the suite; CI
(the ``CI`` variable set, as README's test line installs ``.[dev]``, every
extra) must run every test, so there a missing extra fails instead of
hiding its tests.

A test module calls :func:`need` before it uses the extra; whole
directories are listed in :data:`NEEDS`, and the root ``conftest.py`` skips
their modules without importing them.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from types import ModuleType
from typing import NoReturn

import pytest

#: The modules each extra brings (pyproject.toml's optional dependencies).
EXTRAS = {
    "server": ("starlette", "uvicorn"),
    "postgres": ("psycopg",),
    "rl": ("pettingzoo", "gymnasium", "numpy"),
    "dask": ("distributed",),
}

#: What needs an extra, by path (a directory or a file): test modules there skip, saying why, without being
#: imported, and modules of meeple there have their doctests left out (the root conftest does both).
NEEDS = {
    "tests/server": "server",
    "tests/web": "server",
    "tests/rl": "rl",
    "tests/store/test_postgres_store.py": "postgres",
    "tests/test_dask_cluster.py": "dask",
    "src/meeple/server": "server",
    "src/meeple/store/postgres.py": "postgres",
    "src/meeple/rl/aec.py": "rl",
}


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here."""
    return [m for m in EXTRAS[extra] if importlib.util.find_spec(m) is None]


def unavailable(extra: str, reason: object) -> NoReturn:
    """Skip the calling test or module for want of ``extra`` (fail it in CI), saying why."""
    message = f"needs meeple's {extra!r} extra (pip install -e '.[{extra}]'): {reason}"
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message, allow_module_level=True)


def need(extra: str) -> dict[str, ModuleType]:
    """The modules of ``extra``, imported; skips the calling module (fails it in CI) if one is missing."""
    try:
        return {m: importlib.import_module(m) for m in EXTRAS[extra]}
    except ImportError as e:
        unavailable(extra, e)
