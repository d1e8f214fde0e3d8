"""``meeple serve``: the network server, when the ``server`` extra is installed."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from typing import Any

from ..engine.game import Game
from ..engine.registry import register
from ..serving import settings
from ._base import CliError

#: The modules the ``server`` extra installs.
SERVER_EXTRA = ("starlette", "uvicorn")
INSTALL = "pip install 'meeple[server]'"


def _missing(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is None
    except (ImportError, ValueError):  # a module that cannot be found, or one blocked in sys.modules
        return True


def load_game(spec: str) -> Game[Any, Any]:
    """Import the game ``spec`` names and register it: ``MODULE:ATTRIBUTE``, or ``MODULE`` with its ``GAME``.

    ``MODULE`` is imported from the current directory or the Python path. A
    module that does not import, or an attribute that is not a meeple
    :class:`~meeple.engine.game.Game` instance, is a :class:`CliError` (exit 2).
    """
    name, _, attribute = spec.partition(":")
    if not name or (":" in spec and not attribute):
        raise CliError(f"--game {spec}: give MODULE or MODULE:ATTRIBUTE")
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.append(here)  # a game module next to the command, as `python -m` would find it
    try:
        module = importlib.import_module(name)
    except Exception as e:  # ImportError, or any error the module raises as it runs
        told = " ".join(str(e).split()) or type(e).__name__
        raise CliError(f"--game {spec}: cannot import {name}: {told}") from None
    found = getattr(module, attribute or "GAME", None)
    if not isinstance(found, Game):
        what = f"{name}:{attribute}" if attribute else f"{name} has no GAME; {name}.GAME"
        if attribute and found is None and not hasattr(module, attribute):
            raise CliError(f"--game {spec}: {name} has no attribute {attribute!r}")
        raise CliError(f"--game {spec}: {what} is not a meeple Game (an instance of meeple.Game)")
    register(found)
    return found


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve matches over HTTP and WebSockets (``meeple.server``), on loopback unless told otherwise."""
    missing = [m for m in SERVER_EXTRA if _missing(m)]
    if missing:
        raise CliError(f"meeple serve needs the server extra ({', '.join(missing)} missing): {INSTALL}")
    try:
        server = importlib.import_module("meeple.server")
    except ModuleNotFoundError as e:
        if e.name in SERVER_EXTRA or (e.name or "").split(".")[0] in SERVER_EXTRA:
            raise CliError(f"meeple serve needs the server extra ({e.name} missing): {INSTALL}") from None
        if e.name == "meeple.server":
            raise CliError("this installation of meeple has no server (meeple.server)") from None
        raise
    for spec in args.game:
        load_game(spec)
    server.serve(store=args.store, host=args.host, port=args.port, options=settings(args))
    return 0
