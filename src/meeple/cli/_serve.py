"""``meeple serve``: the network server, when the ``server`` extra is installed."""

from __future__ import annotations

import argparse
import importlib
import importlib.util

from ._base import CliError

#: The modules the ``server`` extra installs.
SERVER_EXTRA = ("starlette", "uvicorn")
INSTALL = "pip install 'meeple[server]'"


def _missing(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is None
    except (ImportError, ValueError):  # a module that cannot be found, or one blocked in sys.modules
        return True


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
    if args.max_hosted_mb < 1 or args.max_unjoined < 1:
        raise CliError("--max-hosted-mb and --max-unjoined are at least 1")
    limits = server.Limits(max_hosted_bytes=args.max_hosted_mb << 20, max_unjoined=args.max_unjoined)
    server.serve(store=args.store, host=args.host, port=args.port, limits=limits)
    return 0
