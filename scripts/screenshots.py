"""The pictures of docs/web.md: every page of the browser client in Chromium, desktop and phone, English and Russian.

Usage: ``python scripts/screenshots.py [--out docs/images] [--only NAME ...]`` (or ``nox -s screenshots``).

It starts ``meeple serve`` on loopback (a fresh SQLite store in a temporary
directory, Liar's Dice served too, no rate limits) and drives the Debian
``chromium`` headless through Playwright, as the browser tests do
(``MEEPLE_CHROMIUM`` names another executable). Each picture is named
``<page>-<game>-<size>-<lang>.png`` (the lobby has no game): ``size`` is
``desktop`` (1280x800, the window) or ``phone`` (390x844 with touch, the
whole page), ``lang`` ``en`` or ``ru``.

Every picture is the same from one run to the next. A match in play is
played here first, by the game's bots on fixed seeds, to a position in mid
match where seat 0 is to act; its log is opened in the server's debugger
and forked there, with bots in the other seats, and the browser joins seat
0 of the fork: nothing moves until seat 0 does, and what the fork's fresh
seed decides is still to come. The lobby is taken before any match exists
(its rows would say how long ago they started), the debugger shows the
Saboteur log as seat 0. Each page is shot once it is ready and has not
changed for three animation frames, with animations off.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import meeple  # noqa: E402
import meeple.examples.liars_dice  # noqa: E402  (registers liars-dice for the match played here)

#: The window of each size, and whether the picture is the whole page (a phone's is long).
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}, "full_page": False},
    "phone": {"viewport": {"width": 390, "height": 844}, "full_page": True, "is_mobile": True, "has_touch": True,
              "device_scale_factor": 1},
}
LANGS = ("en", "ru")
#: The games in play, each with its seat count and the record count from which a seat-0 turn is looked for.
GAMES: dict[str, tuple[int, int]] = {
    "saboteur": (4, 36),
    "kings": (3, 30),
    "gophers": (3, 24),
    "mordred": (3, 30),
    "liars-dice": (3, 3),
}
#: The match's name in the header, in each language (the match name is the players' own text).
NAME = {"en": "Example", "ru": "Пример"}
SEED = 20260101
CHROMIUM = os.environ.get("MEEPLE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync", "--disable-extensions", "--disable-default-apps",
        # the same pixels every run: one raster thread, no partial or GPU raster, plain sRGB, no subpixel text
        "--font-render-hinting=none", "--num-raster-threads=1", "--disable-partial-raster", "--disable-gpu-rasterization",
        "--disable-skia-runtime-opts", "--disable-lcd-text", "--force-color-profile=srgb",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
#: No animation or transition, no blinking caret: a picture shows where things stop.
STILL_CSS = "*, *::before, *::after { animation: none !important; transition: none !important; caret-color: transparent !important; }"
#: Counts every change of the page; true once ``ready`` matches and nothing changed for three animation frames.
WATCH = """() => {
  if (window.__changes === undefined) {
    window.__changes = { n: 0, seen: null, still: 0 };
    new MutationObserver((records) => { window.__changes.n += records.length; })
      .observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
  }
}"""
STILL = """(ready) => {
  const w = window.__changes;
  const root = document.documentElement;
  const now = [w.n, scrollX, scrollY, root.scrollWidth, root.scrollHeight].join();
  if (now === w.seen) w.still += 1; else { w.seen = now; w.still = 0; }
  return w.still >= 3 && document.querySelector(ready) !== null && document.fonts.status === "loaded";
}"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serve(store: Path) -> Iterator[str]:
    """``meeple serve`` on a free loopback port, until the block ends; its base address once it answers."""
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-m", "meeple", "serve", "--store", f"sqlite:{store}", "--port", str(port),
                             "--game", "meeple.examples.liars_dice", "--no-rate-limits"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:  # wait for the server to answer (or to die)
            if proc.poll() is not None:
                raise SystemExit(f"meeple serve exited: {proc.stderr.read() if proc.stderr else ''}")
            try:
                with urllib.request.urlopen(base + "/api", timeout=2):
                    break
            except (urllib.error.URLError, OSError):
                if time.monotonic() > deadline:
                    raise SystemExit("meeple serve did not answer within 60 s") from None
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def request(base: str, path: str, body: Any = None, raw: bytes | None = None, params: str = "") -> Any:
    """A JSON request to the server (POST when there is a body)."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/octet-stream" if raw is not None else "application/json"}
    req = urllib.request.Request(base + path + params, data=data, method="GET" if data is None else "POST", headers=headers)
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def mid_match(game: str, seats: int, after: int) -> meeple.Match:
    """A match of ``game`` played by its bots on fixed seeds to the first position after ``after`` records where
    seat 0 alone is to act."""
    m = meeple.Match.start(game, seats=seats, seed=SEED)
    factories = m.game.bots()
    make = factories.get("heuristic") or factories.get("random")
    rng = random.Random(SEED)
    bots = [make(SEED + s) if make is not None else None for s in range(seats)]
    while m.is_over is False:
        acting = [s for s in m.to_act if s != meeple.ENGINE]
        if m.cursor >= after and acting == [0]:
            return m
        seat = acting[0]
        legal = list(m.legal(seat))
        bot = bots[seat]
        m.play(seat, bot.choose(m.view(seat), legal, seat) if bot is not None else rng.choice(legal))
    raise SystemExit(f"{game}: the match ended before seat 0 was to act after record {after}")


def fork(base: str, log: str, at: int, seats: int, lang: str) -> tuple[str, str]:
    """A fork of the opened ``log`` at ``at`` with bots in every seat but 0, and seat 0 joined: (match, token)."""
    bots = {str(s): "random" for s in range(1, seats)}
    match = request(base, f"/api/debug/logs/{log}/fork", {"at": at, "bots": bots, "name": NAME[lang]})
    joined = request(base, f"/api/matches/{match['id']}/join", {"seat": 0})
    return match["id"], joined["token"]


class Camera:
    """A headless Chromium that shoots pages of the server at ``base`` into ``out``."""

    def __init__(self, base: str, out: Path, only: list[str]) -> None:
        from playwright.sync_api import sync_playwright

        self.base, self.out, self.only = base, out, only
        self.pw = sync_playwright().start()
        # headless Chromium draws its own controls (a file input's button) in English whatever the page's language
        self.browser = self.pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        self.taken: list[Path] = []

    def wanted(self, name: str) -> bool:
        """Whether the picture ``name`` is to be taken (every one without ``--only``)."""
        return not self.only or any(o in name for o in self.only)

    def shoot(self, name: str, size: str, lang: str, path: str, ready: str, storage: dict[str, str] | None = None,
              then: Any = None) -> None:
        """Open ``path`` in a fresh browser of ``size`` and ``lang``, wait until ``ready`` holds and the page is
        still, and save the picture ``name``."""
        spec = SIZES[size]
        context = self.browser.new_context(
            viewport=spec["viewport"], locale="ru-RU" if lang == "ru" else "en-GB", reduced_motion="reduce",
            is_mobile=spec.get("is_mobile", False), has_touch=spec.get("has_touch", False),
            device_scale_factor=spec.get("device_scale_factor", 1), timezone_id="UTC",
            bypass_csp=True)  # for the style sheet that stops animations (the pages allow no inline style)
        context.set_default_timeout(60_000)
        kept = {"meeple.lang": lang, **(storage or {})}
        context.add_init_script(f"for (const [k, v] of Object.entries({json.dumps(kept)})) localStorage.setItem(k, v);")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            page.goto(self.base + path)
            page.add_style_tag(content=STILL_CSS)
            page.wait_for_selector(ready)
            if then is not None:
                then(page)
            page.evaluate("window.scrollTo(0, 0)")  # the top of the page, whatever scrolled into view
            page.evaluate(WATCH)
            page.wait_for_function(STILL, arg=ready, polling="raf")
            target = self.out / f"{name}.png"
            page.screenshot(path=str(target), full_page=spec["full_page"], animations="disabled", caret="hide")
            self.taken.append(target)
        finally:
            context.close()
        if errors:
            raise SystemExit(f"{name}: the page failed: {errors}")

    def close(self) -> None:
        """Close the browser."""
        self.browser.close()
        self.pw.stop()


def main(argv: list[str] | None = None) -> int:
    """Take the pictures; the number taken is printed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="where to write (default docs/images)")
    parser.add_argument("--only", nargs="*", default=[], metavar="PART",
                        help="take only the pictures whose name holds one of these, e.g. phone-ru or kings")
    args = parser.parse_args(argv)
    if not os.path.exists(CHROMIUM):
        raise SystemExit(f"Chromium is missing ({CHROMIUM}): run scripts/system-deps.sh or set MEEPLE_CHROMIUM")
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp, serve(Path(tmp) / "shots.db") as base:
        camera = Camera(base, args.out, args.only)
        try:
            shots = [(size, lang) for size in SIZES for lang in LANGS]
            for size, lang in shots:  # the lobby first: no match exists yet
                name = f"lobby-{size}-{lang}"
                if camera.wanted(name):
                    camera.shoot(name, size, lang, "/", "body[data-ready=true]")
            for game, (seats, after) in GAMES.items():
                names = [f"play-{game}-{size}-{lang}" for size, lang in shots]
                if not any(camera.wanted(n) for n in names):
                    continue
                m = mid_match(game, seats, after)
                log = request(base, "/api/debug/logs", raw=m.to_bytes(), params=f"?name={game}.meeple")["id"]
                for (size, lang), name in zip(shots, names, strict=True):
                    if camera.wanted(name):
                        match, token = fork(base, log, m.cursor, seats, lang)
                        held = json.dumps({match: {"seat": 0, "token": token}})
                        camera.shoot(name, size, lang, f"/play/{match}",
                                     "body[data-busy=false][data-acting=true]", {"meeple.seats": held})
            names = [f"debugger-saboteur-{size}-{lang}" for size, lang in shots]
            if any(camera.wanted(n) for n in names):
                m = mid_match("saboteur", *GAMES["saboteur"])
                log = request(base, "/api/debug/logs", raw=m.to_bytes(), params="?name=saboteur.meeple")["id"]

                def as_seat_0(page: Any) -> None:
                    page.wait_for_selector("body[data-log][data-loading=false]")
                    page.select_option("#as", "0")
                    page.wait_for_selector("#board svg.saboteur")

                for (size, lang), name in zip(shots, names, strict=True):
                    if camera.wanted(name):
                        camera.shoot(name, size, lang, f"/debug?log={log}", "body[data-ready=true][data-loading=false]",
                                     then=as_seat_0)
        finally:
            camera.close()
    print(f"{len(camera.taken)} pictures in {args.out} ({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
