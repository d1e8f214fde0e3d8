"""Real servers on loopback for the server tests: uvicorn in a thread, or in a process of its own."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from needs import missing

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(HERE) not in sys.path:  # the tests here import their helpers (serverkit) by name
    sys.path.insert(0, str(HERE))

if not missing("server"):  # else every test here skips, saying why (the root conftest)
    from serverkit import ThreadServer

    from meeple.server import Limits


@pytest.fixture
def store_path(tmp_path: Path) -> str:
    """A fresh SQLite store file."""
    return str(tmp_path / "server.db")


@pytest.fixture
def server(store_path: str) -> Iterator[ThreadServer]:
    """A real server on loopback, in a thread, on a fresh SQLite store."""
    s = ThreadServer(store_path)
    yield s
    s.stop()


@pytest.fixture
def small_server(store_path: str) -> Iterator[ThreadServer]:
    """A server with small limits (messages of 2 KiB, a 1 s hello timeout, 0.05 s clocks allowed)."""
    s = ThreadServer(store_path, limits=Limits(max_message_bytes=2048, hello_timeout=1.0, min_clock=0.05))
    yield s
    s.stop()
