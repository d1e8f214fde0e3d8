"""Finding games by id: the bundled ones and those of the ``meeple.games`` entry-point group.

A third-party package adds a game without touching meeple by declaring, in its
``pyproject.toml``::

    [project.entry-points."meeple.games"]
    mygame = "mypackage.game:GAME"

where ``GAME`` is an instance of a :class:`~meeple.engine.game.Game` subclass.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from importlib import metadata
from typing import Any

from .errors import ConfigError, UnknownGame
from .game import Game

#: The package of the bundled games: each package in it is one game, whose
#: id is the package's name (``_`` read as ``-``) and whose ``GAME`` is the
#: game object. Being there is a game's whole registration: nothing else
#: names it, and the layers above find its board, catalog and encodings by
#: that id (``docs/game-authoring-notes.md``).
GAMES_PACKAGE = "meeple.games"


def _bundled() -> dict[str, str]:
    spec = importlib.util.find_spec(GAMES_PACKAGE)
    if spec is None or not spec.submodule_search_locations:  # pragma: no cover - a stripped install
        return {}
    return {m.name.replace("_", "-"): f"{GAMES_PACKAGE}.{m.name}:GAME"
            for m in sorted(pkgutil.iter_modules(spec.submodule_search_locations), key=lambda m: m.name)
            if m.ispkg and not m.name.startswith("_")}


#: Bundled games: id -> "module:attribute", found without importing any
#: game (each is imported on first use, so loading one never imports another).
BUNDLED: dict[str, str] = _bundled()


def bundled() -> tuple[str, ...]:
    """The ids of the games bundled with meeple, sorted.

    >>> bundled()
    ('gophers', 'kings', 'mordred', 'saboteur')
    """
    return tuple(BUNDLED)

_registered: dict[str, Game[Any, Any]] = {}


def register(game: Game[Any, Any]) -> None:
    """Register a game object under its ``info.id`` (replacing any earlier one)."""
    _registered[game.info.id] = game


def _load_target(target: str) -> Game[Any, Any]:
    module, _, attr = target.partition(":")
    try:
        obj = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        raise ConfigError(f"the game at {target} could not be loaded: {e}") from None
    if not isinstance(obj, Game):
        raise ConfigError(f"{target} is not a meeple Game")
    return obj


def _entry_points() -> dict[str, metadata.EntryPoint]:
    try:
        return {ep.name: ep for ep in metadata.entry_points(group="meeple.games")}
    except Exception:  # pragma: no cover - broken environments
        return {}


def available() -> list[str]:
    """Return the ids of every game that can be loaded, sorted."""
    return sorted(set(_registered) | set(_entry_points()) | set(BUNDLED))


def get_game(game_id: str) -> Game[Any, Any]:
    """Return the game registered as ``game_id``; raise :class:`UnknownGame` if none is.

    >>> get_game("liars-dice").info.title
    "Liar's Dice"
    """
    if not isinstance(game_id, str):
        raise UnknownGame(f"a game id is a string, not {game_id!r}")
    game = _registered.get(game_id)
    if game is not None:
        return game
    eps = _entry_points()
    if game_id in eps:
        try:
            obj = eps[game_id].load()
        except Exception as e:
            raise ConfigError(f"the game of entry point {game_id!r} could not be loaded: {e}") from None
        if not isinstance(obj, Game):
            raise ConfigError(f"entry point {game_id!r} does not name a meeple Game")
        _registered[game_id] = obj
        return obj
    if game_id in BUNDLED:
        game = _load_target(BUNDLED[game_id])
        _registered[game_id] = game
        return game
    known = ", ".join(available()) or "none"
    raise UnknownGame(f"unknown game {game_id!r}; known games: {known}")


def resolve(game: str | Game[Any, Any]) -> Game[Any, Any]:
    """Accept a game id or a game object and return the game object."""
    return game if isinstance(game, Game) else get_game(game)


