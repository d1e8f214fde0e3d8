"""The browser client's routes, without a browser: pages, static files, boards and their tables, package data."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import httpx
import pytest
from serverkit import ThreadServer

import meeple
from meeple.web import BUNDLED, STATIC, Board, board_for, register_board
from meeple.web import _registered as registered_boards

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> ThreadServer:
    s = ThreadServer(str(tmp_path_factory.mktemp("routes") / "routes.db"))
    yield s  # type: ignore[misc]
    s.stop()


@pytest.mark.parametrize(("path", "script"), [("/", "lobby.js"), ("/play/abc", "play.js"), ("/debug", "debug.js")])
def test_each_page_is_html_with_its_script_and_a_strict_policy(server: ThreadServer, path: str, script: str) -> None:
    r = httpx.get(server.base + path)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert f'src="static/js/{script}"' in r.text and '<base href="/">' in r.text
    policy = r.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe" not in policy and "frame-ancestors 'none'" in policy


def test_the_json_index_lives_at_api_and_the_python_client_finds_it(server: ThreadServer) -> None:
    assert httpx.get(server.base + "/api").json()["games"] == "/api/games"
    assert server.lobby.index()["name"] == "meeple"


def test_static_modules_are_served_as_javascript(server: ThreadServer) -> None:
    for path in ("/static/js/play.js", "/web/boards/saboteur/saboteur.js"):
        r = httpx.get(server.base + path)
        assert r.status_code == 200 and "javascript" in r.headers["content-type"], path
        assert r.headers["x-content-type-options"] == "nosniff"
    assert httpx.get(server.base + "/static/js/nothing.js").status_code == 404


@pytest.mark.parametrize("game", meeple.available())
def test_every_game_has_a_board_or_the_generic_page(server: ThreadServer, game: str) -> None:
    info = httpx.get(f"{server.base}/api/web/boards/{game}").json()
    if game in BUNDLED:
        assert info["module"] == f"web/boards/{game}/{game}.js" and info["catalog"]
        assert httpx.get(f"{server.base}/{info['module']}").status_code == 200
    else:
        assert info == {"game": game, "module": None, "catalog": None, "words": {}, "about": {}, "rules": None}


@pytest.mark.parametrize(("game", "english", "russian"), [("saboteur", "dead-curve-a", "тупик-поворот А"),
                                                          ("kings", "giants", "великаны"),
                                                          ("mordred", "Holyhead", "Холихед"), ("gophers", "acorn", "жёлуди")])
def test_a_board_is_sent_the_games_own_words_in_the_asked_language(server: ThreadServer, game: str, english: str,
                                                                   russian: str) -> None:
    ru = httpx.get(f"{server.base}/api/web/boards/{game}", params={"lang": "ru-RU"}).json()["words"]
    assert ru[english] == russian and not any("{" in k for k in ru)  # words, not the game's sentences
    assert httpx.get(f"{server.base}/api/web/boards/{game}").json()["words"] == {}  # English: the ids themselves


def test_an_unknown_game_has_no_board(server: ThreadServer) -> None:
    r = httpx.get(f"{server.base}/api/web/boards/no-such-game")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_game"


@pytest.mark.parametrize("path", ["../../js/api.js", "..%2F..%2Fjs%2Fapi.js", "%2e%2e/kings.js", "/etc/passwd"])
def test_a_board_directory_gives_nothing_outside_it(server: ThreadServer, path: str) -> None:
    r = httpx.get(f"{server.base}/web/boards/kings/{path}")
    assert r.status_code == 404


def test_a_third_party_game_brings_its_own_board(server: ThreadServer, tmp_path: Path) -> None:
    (tmp_path / "board.js").write_text("export function render(ctx) { ctx.root.textContent = 'dice'; }\n")
    register_board(Board("liars-dice", "board.js", tmp_path, catalog=lambda: {"faces": 6}))
    try:
        info = httpx.get(f"{server.base}/api/web/boards/liars-dice").json()
        assert info == {"game": "liars-dice", "module": "web/boards/liars-dice/board.js", "catalog": {"faces": 6},
                        "words": {}, "about": {}, "rules": None}
        r = httpx.get(f"{server.base}/{info['module']}")
        assert r.status_code == 200 and "export function render" in r.text
        assert board_for("liars-dice") is not None
    finally:
        registered_boards.pop("liars-dice", None)
    assert board_for("liars-dice") is None


def test_every_file_of_the_client_is_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["meeple"]
    package = STATIC.parents[1]
    files = [p.relative_to(package).as_posix() for p in STATIC.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert files
    missing = [f for f in files if not any(fnmatch.fnmatch(f, pat) and f.count("/") == pat.count("/") for pat in patterns)]
    assert missing == [], f"not in the wheel: {missing}"
