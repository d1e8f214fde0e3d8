"""meeple.web: the browser client that ``meeple serve`` serves: static ES modules, SVG and CSS.

Nothing here is built or bundled: the files under ``static/`` are what the
browser loads. The lobby (``/``), the play page (``/play/MATCH``) and the
replay debugger (``/debug``) are plain HTML pages; each game's board is an ES
module that draws a seat's view (its JSON wire form) in SVG and offers, as
things to click, exactly the seat's legal commands.

A game without a board of its own gets the generic page: the view as a tree
and the legal commands as buttons. A third-party game brings its own board
with a :class:`Board` (see ``docs/web.md``, "A board of your own")::

    [project.entry-points."meeple.boards"]
    mygame = "mypackage.web:BOARD"

>>> board_for("saboteur").module
'saboteur.js'
>>> board_for("no-such-game") is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import attrs

from ..engine.registry import bundled

#: The directory of the client's files (pages, scripts, styles, the bundled boards).
STATIC = Path(__file__).resolve().parent / "static"
#: The directory of the bundled boards' ES modules.
BOARDS = STATIC / "boards"

#: JSON data, as :func:`json.dumps` takes it.
Json = Any


@attrs.frozen
class Board:
    """A game's board for the browser: an ES module in ``directory``, and the printed tables it draws from.

    ``module`` is the file name of the ES module (inside ``directory``, which
    is served as it is, so the module may import its own files relatively);
    ``catalog`` returns the game's public, printed material as JSON (card
    faces, the map), which the board receives beside each view: views name
    cards by id, the catalog says what each id looks like. It must hold
    nothing a seat may not know.
    """

    game: str
    module: str
    directory: Path
    catalog: Callable[[], Json] | None = None


def _bundled(game: str) -> Board:
    from . import catalogs

    return Board(game, f"{game}.js", BOARDS, getattr(catalogs, game.replace("-", "_")))


#: The bundled games, as the engine's registry finds them: each has a board of its own,
#: ``static/boards/<id>.js``, drawing from its catalog, :mod:`meeple.web.catalogs` ``.<id>``
#: (``tests/test_bundled_games.py`` holds every bundled game to both).
BUNDLED = bundled()

_registered: dict[str, Board] = {}


def register_board(board: Board) -> None:
    """Use ``board`` for its game (replacing the bundled or entry-point board, if any)."""
    _registered[board.game] = board


def _entry_point(game: str) -> Board | None:
    try:
        found = [ep for ep in metadata.entry_points(group="meeple.boards") if ep.name == game]
    except Exception:  # pragma: no cover - a broken environment
        return None
    for ep in found:
        try:
            board = ep.load()
        except Exception:
            return None
        if isinstance(board, Board):
            return board
    return None


def board_for(game: str) -> Board | None:
    """The board of ``game``: registered, from the ``meeple.boards`` entry points, or bundled; None for the generic page."""
    board = _registered.get(game)
    if board is not None:
        return board
    board = _entry_point(game)
    if board is not None:
        return board
    if game in BUNDLED:
        return _bundled(game)
    return None


__all__ = ["BOARDS", "BUNDLED", "STATIC", "Board", "board_for", "register_board"]
