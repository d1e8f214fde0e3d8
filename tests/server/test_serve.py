"""Running the server: embedded in another ASGI application, and from a shell (``python -m meeple.server``)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import httpx
import pytest
from serverkit import ROOT, ThreadServer, free_port
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Mount, Route

from meeple.server import MeepleServer
from meeple.server.client import Seat

pytestmark = pytest.mark.slow  # the meeple serve command as a process


def _outer(server: MeepleServer) -> Any:
    async def home(request: Request) -> PlainTextResponse:
        return PlainTextResponse("my site")

    return Starlette(routes=[Route("/", home), Mount("/games", app=server.app)], lifespan=server.lifespan)


def test_the_server_mounts_inside_another_asgi_application(store_path: str) -> None:
    site = ThreadServer(store_path, app=_outer, prefix="/games")
    try:
        root = site.base[: -len("/games")]
        assert httpx.get(root + "/").text == "my site"
        assert httpx.get(site.base + "/api").json()["matches"] == "/games/api/matches"
        assert '<base href="/games/">' in httpx.get(site.base + "/").text  # the lobby page, where it is mounted
        m = site.lobby.create(game="liars-dice", seats=2, bots={"1": "random"})
        joined = site.lobby.join(m["id"])
        assert joined["ws"] == f"/games/api/matches/{m['id']}/ws"

        async def scenario() -> None:
            async with await Seat.connect(site.lobby.ws_url(joined), joined["token"]) as me:
                while me.outcome is None:
                    if me.legal:
                        await me.play(me.legal[-1] if len(me.records) > 3 else me.legal[0])
                    else:
                        await me.next()

        asyncio.run(scenario())
        assert site.lobby.match(m["id"])["status"] == "over"
    finally:
        site.stop()


def _module(*args: str, cwd: Path, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "meeple.server", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


def test_a_bad_store_or_a_taken_port_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = _module("--store", str(tmp_path / "missing" / "m.db"), "--port", str(free_port()), cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "does not exist" in done.stderr
    done = _module("--store", "redis://localhost", cwd=tmp_path)
    assert done.returncode == 2 and "unknown store scheme" in done.stderr
    done = subprocess.run([sys.executable, "-m", "meeple", "serve", "--store", str(tmp_path / "no" / "m.db")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "does not exist" in done.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = _module("--store", str(tmp_path / "m.db"), "--port", str(port), cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and f"127.0.0.1:{port}" in done.stderr


def test_meeple_serve_with_no_store_makes_its_store_here_and_answers(tmp_path: Path) -> None:
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.Popen([sys.executable, "-m", "meeple", "serve", "--port", str(port)],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as r:
                    assert r.status == 200
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "the server did not come up"
                time.sleep(0.05)
        assert (tmp_path / "meeple.db").exists()
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    # uvicorn shuts down on SIGTERM, then ends by that signal, as a well-behaved service does
    assert proc.returncode in (0, -signal.SIGTERM) and b"Traceback" not in err


def _served_games(port: int, proc: subprocess.Popen[bytes]) -> list[str]:
    deadline = time.monotonic() + 30
    while True:
        try:
            return [g["id"] for g in httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).json()]
        except httpx.HTTPError:
            assert proc.poll() is None and time.monotonic() < deadline, "the server did not come up"
            time.sleep(0.05)


@pytest.mark.parametrize("spec", ["meeple.examples.liars_dice", "dice_here:GAME"])
def test_meeple_serve_hosts_a_game_given_by_its_module(tmp_path: Path, spec: str) -> None:
    # a game module of the user's own, next to the command (a copy of the example), or an installed one
    (tmp_path / "dice_here.py").write_bytes((ROOT / "src" / "meeple" / "examples" / "liars_dice.py").read_bytes())
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.Popen([sys.executable, "-m", "meeple", "serve", "--port", str(port), "--game", spec,
                             "--bot-pace", "0"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert "liars-dice" in _served_games(port, proc)
        r = httpx.post(f"http://127.0.0.1:{port}/api/matches", json={"game": "liars-dice", "seats": 2})
        assert r.status_code == 201 and r.json()["game"] == "liars-dice"
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert b"Traceback" not in err


@pytest.mark.parametrize(("spec", "said"), [
    ("no_such_module", "--game no_such_module: cannot import no_such_module: No module named 'no_such_module'"),
    ("broken", "--game broken: cannot import broken: division by zero"),
    ("meeple.examples.liars_dice:Bid", "meeple.examples.liars_dice:Bid is not a meeple Game"),
    ("json", "json has no GAME"),
])
def test_meeple_serve_refuses_a_game_module_that_does_not_import_or_is_not_a_game(
        tmp_path: Path, spec: str, said: str) -> None:
    (tmp_path / "broken.py").write_text("GAME = 1 / 0\n")
    done = subprocess.run([sys.executable, "-m", "meeple", "serve", "--port", str(free_port()), "--game", spec],
                          cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT / "src")), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("meeple: ") and said in done.stderr
    assert not (tmp_path / "meeple.db").exists()  # refused before anything was opened
