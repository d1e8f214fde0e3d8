"""The browser client's scripts outside a browser: node's unit tests of the pure helpers, and the type check.

``node --test tests/web/js/`` runs the helpers' tests (Debian: the ``nodejs``
package, which ``scripts/system-deps.sh`` installs); without node they skip,
and fail in CI (``CI`` set). The scripts carry ``// @ts-check`` and JSDoc
types (the board context is typed in ``static/js/board.js``); where a
whole client is checked with ``tsc -p tests/web/js/tsconfig.json``: ``MEEPLE_TSC``,
``tsc`` on the path, or a pinned TypeScript that npm installs once into
``~/.cache/meeple-tests`` (without npm the check skips, and fails in CI).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
STATIC = ROOT / "src" / "meeple" / "web" / "static"


def _node() -> str:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        message = "the client's unit tests need node (Debian: apt-get install nodejs; run scripts/system-deps.sh)"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return node


def test_the_client_helpers_pass_their_node_tests() -> None:
    run = subprocess.run([_node(), "--test", str(HERE / "js")], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout


def test_every_script_of_the_client_asks_to_be_type_checked() -> None:
    scripts = sorted(STATIC.rglob("*.js"))
    assert scripts
    unchecked = [str(p.relative_to(STATIC)) for p in scripts if not p.read_text(encoding="utf-8").startswith("// @ts-check\n")]
    assert not unchecked, unchecked


TYPESCRIPT = "typescript@5.9.3"


def _tsc(cache: Path) -> str:
    """A TypeScript compiler: ``MEEPLE_TSC``, ``tsc`` on the path, or the pinned one installed by npm into ``cache``."""
    found = os.environ.get("MEEPLE_TSC") or shutil.which("tsc")
    if found:
        return found
    tsc = cache / "node_modules" / ".bin" / "tsc"
    if not tsc.exists():
        npm = shutil.which("npm")
        if npm is None:
            message = "no TypeScript compiler and no npm to install one (Debian: apt-get install npm)"
            if os.environ.get("CI"):
                pytest.fail(message, pytrace=False)
            pytest.skip(message)
        cache.mkdir(parents=True, exist_ok=True)
        run = subprocess.run([npm, "install", "--prefix", str(cache), "--no-audit", "--no-fund", TYPESCRIPT],
                             capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stderr[-2000:]
    return str(tsc)


def test_the_client_type_checks() -> None:
    tsc = _tsc(Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "meeple-tests" / "typescript")
    run = subprocess.run([tsc, "-p", str(HERE / "js" / "tsconfig.json")], capture_output=True, text=True, timeout=600,
                         cwd=ROOT)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
