"""The source distribution holds what its test suite needs, and a part of that suite passes from it.

``python -m build --sdist`` is run on this tree (without an isolated build
environment, so no network is needed: the ``dev`` extra brings setuptools),
the archive is unpacked, every file the project tracks is looked for in it,
and the unpacked tree collects its whole suite and runs a few test modules
with its own ``src`` first on the path.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds an sdist and a wheel, and runs tests from the unpacked sdist

ROOT = Path(__file__).resolve().parents[1]
#: Tracked files an sdist need not carry: none today (the CI script and git's own files ship too).
NOT_SHIPPED: frozenset[str] = frozenset()
#: Test modules run from the unpacked sdist: examples, golden logs, the RNG vectors, the command line.
#: Enough to show the unpacked tree tests itself; that the docs ship is checked file by file above,
#: and their code blocks run once, from the checkout, in tests/test_docs.py (the slowest module).
RUN_FROM_SDIST = ("tests/test_examples.py", "tests/test_golden.py", "tests/engine/test_rng.py", "tests/test_cli.py")


def _tracked() -> set[str]:
    """The files of this tree: ``git ls-files`` in a checkout, else a walk of the tree (in an unpacked sdist)."""
    if shutil.which("git") and (ROOT / ".git").exists():
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
        return {f for f in out.stdout.decode().split("\0") if f and (ROOT / f).is_file()}
    skip = {"__pycache__", ".hypothesis", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".venv", "build", "dist"}
    found = set()
    for p in ROOT.rglob("*"):
        rel = p.relative_to(ROOT)
        if p.is_file() and not skip & set(rel.parts) and not rel.parts[0].endswith(".egg-info") \
                and p.suffix not in (".pyc", ".so") and rel.name != "PKG-INFO" and rel.name != "setup.cfg":
            found.add(rel.as_posix())
    return found


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sdist")
    build = subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(out), str(ROOT)],
                           capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr[-2000:]
    (archive,) = out.glob("meeple-*.tar.gz")
    with tarfile.open(archive) as tar:
        tar.extractall(out, filter="data")
    (tree,) = [p for p in out.iterdir() if p.is_dir()]
    return tree


def test_the_sdist_holds_every_tracked_file(unpacked: Path) -> None:
    shipped = {p.relative_to(unpacked).as_posix() for p in unpacked.rglob("*") if p.is_file()}
    missing = sorted(_tracked() - shipped - NOT_SHIPPED)
    assert not missing, f"missing from the sdist: {missing[:20]}"
    for needed in ("conftest.py", "tests/conftest.py", "examples/liars_dice.py", "docs/cli.md", "MANIFEST.in"):
        assert needed in shipped


def test_the_suite_runs_from_the_unpacked_sdist(unpacked: Path) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(unpacked / "src")
    env.pop("PYTEST_XDIST_WORKER", None)
    where = subprocess.run([sys.executable, "-c", "import meeple; print(meeple.__file__)"], cwd=unpacked, env=env,
                           capture_output=True, text=True, timeout=60)
    assert Path(where.stdout.strip()).is_relative_to(unpacked / "src"), where.stdout + where.stderr
    collect = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                             cwd=unpacked, env=env, capture_output=True, text=True, timeout=300)
    assert collect.returncode == 0, collect.stdout[-3000:] + collect.stderr[-2000:]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *RUN_FROM_SDIST],
                         cwd=unpacked, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]  # 5 would mean no test ran


def test_a_wheel_built_from_the_sdist_carries_the_package_data(unpacked: Path, tmp_path: Path) -> None:
    import zipfile

    build = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path),
                            str(unpacked)], capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr[-2000:]
    (wheel,) = tmp_path.glob("meeple-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("meeple/py.typed", "meeple/_speedups.pyi", "meeple/cli/__init__.py",
                   "meeple/batch.py"):
        assert needed in names
    assert not any(n.startswith(("tests/", "docs/", "examples/")) for n in names)
    if shutil.which("cc") or shutil.which("gcc"):  # the extension is optional: a failed compile would go unseen
        compiled = [n for n in names if n.startswith("meeple/_speedups.") and n.endswith((".so", ".pyd"))]
        assert compiled, "the wheel has no compiled meeple._speedups: " + build.stderr[-2000:]
