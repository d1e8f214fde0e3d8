"""Running the server from a shell: :func:`serve`, and ``python -m meeple.server``."""

from __future__ import annotations

import argparse
import copy
import logging
import socket
import sys
from collections.abc import Sequence
from typing import Any

from ..store import Durability
from ..store.errors import StoreError
from .app import MeepleServer
from .protocol import Limits
from .stores import open_store, server_store

#: uvicorn closes a socket whose frame is larger than this (close code 1009); below it, the
#: server answers a message over ``Limits.max_message_bytes`` with a ``too_large`` error.
WS_MAX_FRAME = 1024 * 1024


def serve(store: str | None, host: str, port: int, *, bot_delay: float = 0.0, log_level: str = "info",
          durability: Durability = "fsync", limits: Limits | None = None) -> None:
    """Serve matches on ``host:port`` from ``store`` (None: ``meeple.db`` here) until interrupted.

    ``limits`` bound clients and the memory of hosted matches (default :class:`Limits`).

    The store is opened once before the port is bound, so a bad address
    fails at once (:class:`~meeple.store.StoreError`) instead of on the first request.
    """
    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    open_store(store, durability).close()  # fail now, with the store's own message
    sock = bind(host, port)  # and now: an address in use is an OSError here, not a log line later
    server = MeepleServer(store, bot_delay=bot_delay, durability=durability, limits=limits)
    limits = server.limits
    config = uvicorn.Config(
        server.app,
        host=host,
        port=port,
        lifespan="on",
        ws_max_size=max(WS_MAX_FRAME, 2 * limits.max_message_bytes),
        # compressing every message cost more CPU than everything else the server does for it
        # (docs/server.md); a deployment short of bandwidth rather than CPU can serve the app itself
        ws_per_message_deflate=False,
        log_level=log_level,
        log_config=_log_config(LOGGING_CONFIG, log_level),
        timeout_graceful_shutdown=5,
    )
    where = server_store(store)
    logging.getLogger("meeple.server").info("serving the %s store %s on http://%s:%d", where.kind,
                                            where.location.split("?")[0], host, port)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()


def _log_config(base: dict[str, Any], level: str) -> dict[str, Any]:
    """uvicorn's logging set-up, with meeple's own loggers on its console handler."""
    config = copy.deepcopy(base)
    config["loggers"]["meeple"] = {"handlers": ["default"], "level": level.upper(), "propagate": False}
    return config


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (``OSError`` if the address cannot be had)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as e:
        raise OSError(e.errno, f"cannot listen on {host}:{port}: {e.strerror}") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
        sock.set_inheritable(True)
    except OSError as e:
        sock.close()
        raise OSError(e.errno, f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    except BaseException:
        sock.close()
        raise
    return sock


def add_memory_options(parser: argparse.ArgumentParser) -> None:
    """``--max-hosted-mb`` and ``--max-unjoined``: the memory budget of hosted matches (docs/server.md)."""
    defaults = Limits()
    parser.add_argument("--max-hosted-mb", type=int, default=defaults.max_hosted_bytes >> 20, metavar="MB",
                        help="memory for matches in play; idle ones beyond it are dropped and read again from the "
                             f"store on demand (default {defaults.max_hosted_bytes >> 20})")
    parser.add_argument("--max-unjoined", type=int, default=defaults.max_unjoined, metavar="N",
                        help=f"matches nobody has joined yet, at most (default {defaults.max_unjoined})")


def memory_limits(args: argparse.Namespace) -> Limits:
    """The :class:`Limits` of the options :func:`add_memory_options` added."""
    if args.max_hosted_mb < 1 or args.max_unjoined < 1:
        raise SystemExit("meeple serve: --max-hosted-mb and --max-unjoined are at least 1")
    return Limits(max_hosted_bytes=args.max_hosted_mb << 20, max_unjoined=args.max_unjoined)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m meeple.server [--store URL] [--host 127.0.0.1] [--port 8000]``."""
    parser = argparse.ArgumentParser(prog="python -m meeple.server", description="Serve meeple matches over HTTP and WebSocket.")
    parser.add_argument("--store", default=None, help="a SQLite path, sqlite://PATH or postgresql://... (default: meeple.db)")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000)")
    parser.add_argument("--bot-delay", type=float, default=0.0, help="seconds each bot move is held back (default 0)")
    parser.add_argument("--durability", default="fsync", choices=["fsync", "flush"],
                        help="fsync: every command on disk before clients hear of it (default); flush: safe from a "
                             "killed process, not from a power cut, and faster")
    add_memory_options(parser)
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"],
                        help="how much the server logs (default info)")
    args = parser.parse_args(argv)
    try:
        serve(args.store, args.host, args.port, bot_delay=args.bot_delay, log_level=args.log_level,
              durability=args.durability, limits=memory_limits(args))
    except StoreError as e:
        print(f"meeple serve: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"meeple serve: {e.strerror or e}", file=sys.stderr)
        return 2
    return 0
