"""The browser client's scripts outside a browser: node's unit tests of the pure helpers, and the type check.

``node --test tests/web/js/`` runs the helpers' tests (Debian: the ``nodejs``
package, which ``scripts/system-deps.sh`` installs); without node they skip,
and fail in CI (``CI`` set). The scripts carry ``// @ts-check`` and JSDoc
types (the board context is typed in ``static/js/board.js``); where a
TypeScript compiler is at hand (``MEEPLE_TSC``, or ``tsc`` on the path) the
whole client is checked with it, as ``tsc -p tests/web/js/tsconfig.json``.
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


def test_the_client_type_checks() -> None:
    tsc = os.environ.get("MEEPLE_TSC") or shutil.which("tsc")
    if tsc is None:
        pytest.skip("no TypeScript compiler (set MEEPLE_TSC, e.g. to node_modules/.bin/tsc after npm install typescript)")
    run = subprocess.run([tsc, "-p", str(HERE / "js" / "tsconfig.json")], capture_output=True, text=True, timeout=600,
                         cwd=ROOT)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
