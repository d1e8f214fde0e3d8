"""Every code block of the README and of docs/ runs, so the docs cannot drift from the code.

Each Markdown file's fenced blocks run in order, in a fresh temporary
directory of their own, as a reader following along would run them:

* ``python`` blocks are executed, all blocks of one file in one namespace;
* ``sh`` / ``bash`` / ``console`` blocks run in bash (``set -e -o pipefail``)
  with ``meeple`` as the real command line (``python -m meeple``) and no
  standard input;
* ``toml`` blocks must parse;
* a block right after ``<!-- docs: excerpt PATH -->`` is a piece of the file
  PATH: each of its lines (but ``...`` lines, which stand for lines left
  out) must be found there, in order;
* a block right after ``<!-- docs: not run (REASON) -->`` is not run (the
  marker says why: installing packages, a server that runs until stopped);
* blocks with no language (diagrams, formulas, sample output) are text.

A file listed in ``KNOWN`` fails today for a reason outside this test; its
test is a strict xfail, so it must be removed from the list once mended.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every code block of the docs, the shell ones through the real meeple command

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```\s*$", re.M | re.S)
MARKER = re.compile(r"<!--\s*docs:\s*(.*?)\s*-->\s*$")
SHELL = {"sh", "bash", "console", "shell"}

#: Files whose blocks fail today for a reason outside this test (strict xfail: remove once mended).
KNOWN: dict[str, str] = {}


def blocks(path: Path) -> list[tuple[int, str, str, str]]:
    """``(line, language, marker, code)`` for each fenced block of a Markdown file."""
    text = path.read_text(encoding="utf-8")
    found = []
    for m in FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        marker = MARKER.search(before)
        found.append((line, m.group(1).lower(), marker.group(1) if marker else "", m.group(2)))
    return found


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def _params() -> list[object]:
    out = []
    for p in DOCS:
        rel = _rel(p)
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN[rel])] if rel in KNOWN else []
        out.append(pytest.param(p, id=rel, marks=marks))
    return out


def check_excerpt(code: str, source: Path, where: str) -> None:
    """Every line of ``code`` but ``...`` lines is a line of ``source``, in order."""
    lines = [line.strip() for line in source.read_text(encoding="utf-8").splitlines()]
    i = 0
    for want in (w.strip() for w in code.splitlines()):
        if not want or want == "...":
            continue
        try:
            i = lines.index(want, i) + 1
        except ValueError:
            raise AssertionError(f"{where}: {want!r} is not in {_rel(source)} (after line {i})") from None


def run_shell(code: str, cwd: Path, where: str) -> None:
    script = f'meeple() {{ "{sys.executable}" -m meeple "$@"; }}\nset -e -o pipefail\n{code}'
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), str(ROOT / "examples"), env.get("PYTHONPATH", "")])
    p = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, f"{where}: exit {p.returncode}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}"
    assert "Traceback" not in p.stderr, f"{where}: {p.stderr[-2000:]}"


@pytest.mark.parametrize("doc", _params())
def test_code_blocks_run(doc: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for line, lang, marker, code in blocks(doc):
        where = f"{_rel(doc)}:{line}"
        if marker.startswith("not run"):
            assert re.fullmatch(r"not run \(.+\)", marker), f"{where}: say why a block is not run"
            continue
        if marker.startswith("excerpt "):
            check_excerpt(code, ROOT / marker.split(" ", 1)[1], where)
            continue
        assert not marker, f"{where}: unknown docs marker {marker!r}"
        if lang == "python":
            exec(compile(code, where, "exec"), namespace)
        elif lang in SHELL:
            run_shell(code, tmp_path, where)
        elif lang == "toml":
            tomllib.loads(code)


def test_blocks_are_found() -> None:
    langs = {lang for p in DOCS for _, lang, _, _ in blocks(p)}
    assert {"python", "sh"} <= langs
    assert any(m.startswith("excerpt") for p in DOCS for _, _, m, _ in blocks(p))


def test_python_blocks_need_nothing_outside_the_package() -> None:
    """A reader runs the docs with meeple installed and nothing else: the example game comes from the package.

    The suite puts ``examples/`` on the path, so a block that imports
    ``liars_dice`` by its short name would pass here and fail for a reader.
    """
    short = re.compile(r"^\s*(import liars_dice|from liars_dice import)", re.M)
    bad = [f"{_rel(p)}:{line}" for p in DOCS for line, lang, marker, code in blocks(p)
           if lang == "python" and not marker and short.search(code)]
    assert not bad, f"import the example game as meeple.examples.liars_dice: {bad}"


def test_the_tutorial_lists_every_class_attribute_a_game_declares() -> None:
    import typing

    from meeple.engine import Game

    hints = typing.get_type_hints(Game, include_extras=False)
    declared = {name for name, tp in hints.items() if typing.get_origin(tp) is typing.ClassVar}
    text = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `(\w+)` \|", text, re.M))
    assert declared <= listed, f"the tutorial does not list {sorted(declared - listed)}"


def test_the_checks_catch_drift(tmp_path: Path) -> None:
    source = tmp_path / "game.py"
    source.write_text("class A:\n    x = 1\n\n    y = 2\n")
    check_excerpt("class A:\n    ...\n    y = 2\n", source, "ok")
    with pytest.raises(AssertionError, match="'y = 3' is not in"):
        check_excerpt("class A:\n    y = 3\n", source, "drift")
    with pytest.raises(AssertionError, match="is not in"):
        check_excerpt("y = 2\nx = 1\n", source, "out of order")
    with pytest.raises(AssertionError, match="exit 2"):
        run_shell("meeple verify missing.meeple", tmp_path, "shell")
    doc = tmp_path / "d.md"
    doc.write_text("text\n<!-- docs: not run (why) -->\n```sh\nfalse\n```\n\n```python\nx = 1\n```\n")
    assert [(lang, marker) for _, lang, marker, _ in blocks(doc)] == [("sh", "not run (why)"), ("python", "")]
