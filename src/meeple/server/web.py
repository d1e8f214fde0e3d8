"""The browser client's routes: its pages, its static files, each game's board and printed tables.

Mounted by :class:`~meeple.server.app.MeepleServer` beside the lobby and
play routes (docs/web.md)::

    GET /                      the lobby page
    GET /play/{match}          the play page of a match (a seat with its token, or a spectator)
    GET /debug                 the replay debugger
    GET /rules/{game}          a bundled game's rules for players (its text: static/rules/<game>.<lang>.html)
    GET /static/...            the client's scripts, styles and the bundled boards
    GET /api/web/boards/{game} which board draws a game, its printed tables (``catalog``) and,
                               with ``?lang=``, the game's own words in that language (``words``), what
                               each card or square does (``about``) and where its rules page is (``rules``)
    GET /web/boards/{game}/... a board's own files (a third-party board's directory)

Every page and file is public: nothing here depends on a match, and what a
seat is shown of a match comes only over the play protocol and the
debugger's routes.
"""

from __future__ import annotations

import functools
import html
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ..engine.errors import UnknownGame
from ..engine.registry import get_game
from ..engine.text import LANGUAGES, language
from ..web import BUNDLED, STATIC, board_for, catalogs
from .protocol import ErrorCode, ServerError

if TYPE_CHECKING:
    from .app import MeepleServer

#: Sent with every page: scripts, styles and connections from this server only, no framing.
SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-cache",
}

PAGES = {"lobby": "lobby.html", "play": "play.html", "debug": "debug.html", "rules": "rules.html"}
#: The players' rules of the bundled games: ``<game>.<lang>.html`` for every language of the pages.
RULES = STATIC / "rules"


def has_rules(game_id: str) -> bool:
    """Whether ``game_id`` has a players' rules page (a text in every language the pages speak)."""
    return all((RULES / f"{game_id}.{lang}.html").is_file() for lang in LANGUAGES)


@functools.cache
def _template(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def page(name: str, request: Request) -> HTMLResponse:
    """A page of the client, its ``<base href>`` set to where the server is mounted."""
    base = str(request.scope.get("root_path", "")).rstrip("/") + "/"
    text = _template(PAGES[name]).replace("{{base}}", html.escape(base, quote=True))
    return HTMLResponse(text, headers=SECURITY_HEADERS)


class _Static(StaticFiles):
    """Static files with the client's headers (module scripts are revalidated, never run stale)."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers.update({"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})
        return response


async def lobby_page(request: Request) -> Response:
    """``GET /``: the lobby page."""
    return page("lobby", request)


async def play_page(request: Request) -> Response:
    """``GET /play/{match}``: the play page (the script reads the match id from the address)."""
    return page("play", request)


async def rules_page(request: Request) -> Response:
    """``GET /rules/{game}``: a game's rules for players (the script loads the text in the page's language)."""
    game_id = request.path_params["game_id"]
    if not has_rules(game_id):
        raise ServerError(ErrorCode.NOT_FOUND, f"no rules page for {game_id!r}")
    return page("rules", request)


async def debug_page(request: Request) -> Response:
    """``GET /debug``: the replay debugger."""
    return page("debug", request)


def board_info(game_id: str, lang: str | None = None) -> dict[str, Any]:
    """``{"game", "module", "catalog", "words", "about", "rules"}``: a game's board module (None: the generic page), its tables and words.

    ``words`` are a bundled game's own names for what its board draws (cards,
    peoples, places) in ``lang`` (:func:`meeple.web.catalogs.words`; empty
    for English and for other games); ``about`` says in a sentence what each
    card or square does (:func:`meeple.web.catalogs.about`), and ``rules``
    is the address of its rules page (relative to the server's root), or None.
    """
    try:
        get_game(game_id)
    except UnknownGame as e:
        raise ServerError(ErrorCode.UNKNOWN_GAME, str(e)) from None
    board = board_for(game_id)
    said = catalogs.words(game_id, language(lang)) if game_id in BUNDLED else {}
    help_ = {"about": catalogs.about(game_id, language(lang)) if game_id in BUNDLED else {},
             "rules": f"rules/{game_id}" if has_rules(game_id) else None}
    if board is None:
        return {"game": game_id, "module": None, "catalog": None, "words": said, **help_}
    return {"game": game_id, "module": f"web/boards/{game_id}/{board.module}",
            "catalog": board.catalog() if board.catalog is not None else None, "words": said, **help_}


async def board(request: Request) -> Response:
    """``GET /api/web/boards/{game}?lang=``: see :func:`board_info`."""
    return JSONResponse(board_info(request.path_params["game_id"], request.query_params.get("lang")))


async def board_file(request: Request) -> Response:
    """``GET /web/boards/{game}/{path}``: a file of a game's board directory (nothing outside it)."""
    found = board_for(request.path_params["game_id"])
    if found is None:
        raise ServerError(ErrorCode.NOT_FOUND, "this game has no board of its own")
    root = found.directory.resolve()
    target = (root / request.path_params["path"]).resolve()
    if not target.is_relative_to(root) or not target.is_file():
        raise ServerError(ErrorCode.NOT_FOUND, "no such file")
    media = "text/javascript" if target.suffix in (".js", ".mjs") else None
    return FileResponse(target, media_type=media, headers={"Cache-Control": "no-cache",
                                                          "X-Content-Type-Options": "nosniff"})


def routes(server: MeepleServer) -> list[BaseRoute]:
    """The client's routes, with the replay debugger's API (:mod:`meeple.server.debugger`)."""
    from .debugger import Debugger

    debugger = Debugger(server)
    return [
        Route("/", lobby_page),
        Route("/play/{match_id}", play_page),
        Route("/debug", debug_page),
        Route("/rules/{game_id}", rules_page),
        Route("/api/web/boards/{game_id}", board),
        Route("/web/boards/{game_id}/{path:path}", board_file),
        *debugger.routes(),
        Mount("/static", app=_Static(directory=Path(STATIC)), name="static"),
    ]
