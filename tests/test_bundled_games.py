"""Every bundled game has everything a bundled game needs, as docs/game-authoring-notes.md lists it.

A bundled game is registered by its package under ``src/meeple/games`` and
nothing else; the layers above find its parts by its id. So a part missing
is found here, not by a person who opens its board: the package's modules
and its one assembly, its board and catalog for the browser, its encodings
for ``meeple.rl``, its rules page and its lines in the README and the API
reference.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import meeple
from meeple.engine import GameInfo, registry
from meeple.web import BOARDS, board_for, catalogs

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "src" / "meeple" / "games"
#: The modules of every bundled game's package (docs/game-authoring-notes.md).
TEMPLATE = ("__init__", "info", "data", "state", "commands", "events", "rules", "view", "world", "render", "bot",
            "game")
BUNDLED = registry.bundled()


def _package(game: str) -> Path:
    return GAMES / game.replace("-", "_")


def test_the_registry_finds_every_game_package_and_nothing_else() -> None:
    packages = sorted(p.name.replace("_", "-") for p in GAMES.iterdir() if (p / "__init__.py").is_file())
    assert list(BUNDLED) == packages
    assert {"saboteur", "kings", "gophers", "mordred"} <= set(BUNDLED)
    assert set(BUNDLED) <= set(meeple.available())


@pytest.mark.parametrize("game", BUNDLED)
def test_the_package_follows_the_template(game: str) -> None:
    package = _package(game)
    assert [m for m in TEMPLATE if not (package / f"{m}.py").is_file()] == []
    module = __import__(f"meeple.games.{package.name}", fromlist=["GAME", "INFO"])
    info_module = __import__(f"meeple.games.{package.name}.info", fromlist=["INFO"])
    assert isinstance(module.INFO, GameInfo) and module.INFO is info_module.INFO and module.INFO.id == game
    assert module.GAME is meeple.get_game(game) and module.GAME.info is module.INFO


@pytest.mark.parametrize("game", BUNDLED)
def test_the_game_object_is_one_assembly_with_no_forwarding_method(game: str) -> None:
    source = (_package(game) / "game.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    assert [n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))] == []
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "assemble"]
    assert len(calls) == 1
    g = meeple.get_game(game)
    assert type(g).__module__ == f"meeple.games.{_package(game).name}.game"
    for part in ("view", "render", "describe", "world"):  # each part is the module's own function, bound as it is
        assert getattr(type(g), part).__module__.startswith(f"meeple.games.{_package(game).name}."), part
    assert {"random", "heuristic"} <= set(g.bots())
    for variant in g.info.variants:
        g.variant_options(variant)


@pytest.mark.parametrize("game", BUNDLED)
def test_the_browser_has_its_board_and_catalog(game: str) -> None:
    board = board_for(game)
    assert board is not None and board.module == f"{game}.js" and board.directory == BOARDS
    assert (BOARDS / board.module).is_file()
    assert hasattr(catalogs, game.replace("-", "_")) and board.catalog is not None
    table = board.catalog()
    assert isinstance(table, dict) and table
    json.dumps(table)  # JSON, as the board receives it


@pytest.mark.parametrize("game", BUNDLED)
def test_meeple_rl_has_its_encodings(game: str) -> None:
    # the module is found by the game's id (meeple.rl.encoding.encoding_factory); read, not imported, so
    # that this test needs no numpy: tests/rl runs every game's encodings
    module = ROOT / "src" / "meeple" / "rl" / "encodings" / f"{game.replace('-', '_')}.py"
    assert module.is_file()
    tree = ast.parse(module.read_text(encoding="utf-8"))
    assert "encoding" in {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


@pytest.mark.parametrize("game", BUNDLED)
def test_the_docs_name_it(game: str) -> None:
    rules = ROOT / "docs" / "rules" / f"{game}.md"
    assert rules.is_file() and meeple.get_game(game).info.title.split(" (")[0] in rules.read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"| `{game}` |" in readme  # the table of bundled games
    reference = (ROOT / "docs" / "api" / "agents.rst").read_text(encoding="utf-8")
    assert f".. automodule:: meeple.rl.encodings.{game.replace('-', '_')}" in reference
    notes = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    assert f"`{game}`" in notes or meeple.get_game(game).info.title.split(" (")[0] in notes
