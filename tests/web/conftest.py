"""Real Chromium for the browser tests: the Debian ``chromium`` package, headless, driven by Playwright.

Playwright for Python is launched on that executable (never ``playwright
install``), with a fresh profile per browser and only loopback traffic: the
pages load from a real server (uvicorn in a thread, on a fresh SQLite store).
Where Chromium is missing the tests skip, and fail in CI (the ``CI`` variable
set): ``scripts/system-deps.sh`` installs it.

``MEEPLE_SCREENSHOTS=DIR`` makes the tests save a screenshot of each board in
``DIR``, to look at (the docs' pictures come from ``scripts/screenshots.py``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
SERVER_TESTS = HERE.parent / "server"
for path in (HERE, SERVER_TESTS):  # the helpers of these tests and of the server's (serverkit)
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from needs import missing  # noqa: E402

if not missing("server"):  # else every test here skips, saying why (the root conftest)
    from serverkit import ThreadServer

#: The browser: the Debian package's launcher, unless MEEPLE_CHROMIUM names another.
CHROMIUM = os.environ.get("MEEPLE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
#: Flags for a quiet, local, headless browser: no sandbox (tests run as root in CI), nothing fetched.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync", "--disable-extensions", "--disable-default-apps",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


def _unavailable(reason: str) -> None:
    message = f"browser tests need Chromium: {reason} (run scripts/system-deps.sh)"
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium (a fresh temporary profile) for one test module, closed after it.

    Not kept longer: while Playwright's sync API is running, the thread
    counts as inside an event loop, and the asyncio tests that pytest may run
    next in this process (``asyncio.run``) would refuse to start.
    """
    if not os.path.exists(CHROMIUM):
        _unavailable(f"{CHROMIUM} does not exist (Debian: apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[dev]')")
    pw = sync_playwright().start()
    try:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    except Exception as e:
        pw.stop()
        _unavailable(f"{CHROMIUM} did not start: {e}")
    yield chromium
    chromium.close()
    pw.stop()


class Recorder:
    """What one page received: every WebSocket frame and every JSON answer, and the page's own errors."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.frames: list[str] = []
        self.json: list[tuple[str, str]] = []
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("websocket", self._socket)
        page.on("response", self._response)

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(payload if isinstance(payload, str) else payload.decode()))

    def _response(self, response: Any) -> None:
        if "json" in (response.headers.get("content-type") or ""):
            with contextlib.suppress(Exception):  # a response the page dropped (navigated away)
                self.json.append((response.url, response.text()))


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[ThreadServer]:
    """A real server on loopback serving the browser client, on a fresh SQLite store."""
    s = ThreadServer(str(tmp_path / "web.db"))
    yield s
    s.stop()


def _new_page(browser: Any) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.recorder = Recorder(page)
    return context, page


def _page_errors(page: Any) -> list[str]:
    return [e for e in page.recorder.errors if "Failed to load resource" not in e]


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser context and page; fails the test on any script error the page met."""
    context, page = _new_page(browser)
    yield page
    errors = _page_errors(page)
    context.close()
    assert not errors, errors


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """Makes more pages, each in a context of its own (another person's browser); as strict as ``page``."""
    made: list[tuple[Any, Any]] = []

    def make() -> Any:
        made.append(_new_page(browser))
        return made[-1][1]

    yield make
    errors = [e for _, p in made for e in _page_errors(p)]
    for context, _ in made:
        context.close()
    assert not errors, errors


@pytest.fixture
def screenshots() -> Path | None:
    """Where to save screenshots (``MEEPLE_SCREENSHOTS``), or None."""
    target = os.environ.get("MEEPLE_SCREENSHOTS")
    if not target:
        return None
    path = Path(target)
    path.mkdir(parents=True, exist_ok=True)
    return path
