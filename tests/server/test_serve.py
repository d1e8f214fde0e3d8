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
