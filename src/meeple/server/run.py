"""Running the server from a shell: :func:`serve`, and ``python -m meeple.server``."""

from __future__ import annotations

import argparse
import copy
import ipaddress
import logging
import resource
import socket
import sys
from collections.abc import Sequence
from typing import Any

import attrs

from ..serving import Settings, add_arguments, settings
from ..store import Durability
from ..store.errors import StoreError
from .app import MeepleServer
from .limits import Quotas, Rate
from .protocol import Limits
from .stores import open_store, server_store
from .transport import FastWebSocketProtocol, protocol_class

#: uvicorn closes a socket whose frame is larger than this (close code 1009); below it, the
#: server answers a message over ``Limits.max_message_bytes`` with a ``too_large`` error.
WS_MAX_FRAME = 1024 * 1024
#: File descriptors held back from client connections: the store, the logs, the debugger, the engine threads.
FD_HEADROOM = 64
#: The Host names a server answers to besides the address it listens on.
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")


def default_hosts(host: str) -> tuple[str, ...]:
    """The Host names served by default: the listening address and the loopback names; any on a wildcard address."""
    try:
        if ipaddress.ip_address(host).is_unspecified:
            return ("*",)
    except ValueError:
        pass
    return (host, *LOCAL_NAMES)


def default_max_connections() -> int:
    """Open connections at once: the process's file descriptor limit less :data:`FD_HEADROOM` (at least 16)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 65536
    return max(16, soft - FD_HEADROOM)


def quotas(chosen: Settings) -> Quotas:
    """The :class:`Quotas` the deployment options ask for (the production defaults where they say nothing)."""
    q = Quotas()
    changes: dict[str, Any] = {}
    if chosen.no_rate_limits:
        changes.update({a: None for a in ("create", "join", "upload", "sync", "connect")}, sockets=0)
    for action, text in chosen.rates.items():
        changes[action] = Rate.parse(text)
    for name, value in (("sockets", chosen.sockets_per_client), ("debug_log_bytes", chosen.debug_max_log),
                        ("debug_client_bytes", chosen.debug_client_bytes),
                        ("debug_client_logs", chosen.debug_client_logs),
                        ("debug_total_bytes", chosen.debug_total_bytes), ("debug_idle", chosen.debug_idle)):
        if value is not None:
            changes[name] = value
    return attrs.evolve(q, **changes)


def serve(store: str | None, host: str, port: int, *, bot_delay: float | None = None, log_level: str = "info",
          durability: Durability = "fsync", options: Settings | None = None) -> None:
    """Serve matches on ``host:port`` from ``store`` (None: ``meeple.db`` here) until interrupted.

    ``bot_delay`` holds each bot move back until that many seconds after the
    position it answers (None: the options' ``bot_pace``, one second by default).
    ``limits`` bound clients and the memory of hosted matches (default :class:`Limits`).

    The store is opened once before the port is bound, so a bad address
    fails at once (:class:`~meeple.store.StoreError`) instead of on the first request.
    ``options`` are the deployment options (:mod:`meeple.serving`; None: every
    default): the Host names served, the rates and quotas of each client, the
    transport's timeouts and caps (docs/server.md, "Deploying").
    """
    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    chosen = options or Settings()
    if bot_delay is None:
        bot_delay = chosen.bot_pace
    open_store(store, durability).close()  # fail now, with the store's own message
    sock = bind(host, port)  # and now: an address in use is an OSError here, not a log line later
    hosts = chosen.allowed_hosts or default_hosts(host)
    memory = Limits(max_hosted_bytes=chosen.max_hosted_mb << 20, max_unjoined=chosen.max_unjoined)
    server = MeepleServer(store, limits=memory, bot_delay=bot_delay, durability=durability, allowed_hosts=hosts,
                          allowed_origins=chosen.allowed_origins, quotas=quotas(chosen),
                          max_headers=chosen.max_headers or None)
    limits: Limits = server.limits
    most = chosen.max_connections or default_max_connections()
    config = uvicorn.Config(
        server.app,
        host=host,
        port=port,
        lifespan="on",
        # h11 bounds the request line and headers (httptools does not); the subclass adds a deadline for them
        http=protocol_class(header_timeout=chosen.header_timeout, max_connections=most,
                            max_per_peer=chosen.max_connections_per_ip),
        h11_max_incomplete_event_size=chosen.max_header_bytes,
        timeout_keep_alive=chosen.keep_alive_timeout,
        limit_concurrency=most,
        proxy_headers=chosen.forwarded_allow_ips is not None,
        forwarded_allow_ips=chosen.forwarded_allow_ips,
        # uvicorn's websockets-sansio, with a short way for whole text frames (meeple.server.transport)
        ws=FastWebSocketProtocol,
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


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m meeple.server [--store URL] [--host 127.0.0.1] [--port 8000]``."""
    parser = argparse.ArgumentParser(prog="python -m meeple.server", description="Serve meeple matches over HTTP and WebSocket.")
    parser.add_argument("--store", default=None, help="a SQLite path, sqlite://PATH or postgresql://... (default: meeple.db)")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000)")
    parser.add_argument("--durability", default="fsync", choices=["fsync", "flush"],
                        help="fsync: every command on disk before clients hear of it (default); flush: safe from a "
                             "killed process, not from a power cut, and faster")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"],
                        help="how much the server logs (default info)")
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        serve(args.store, args.host, args.port, log_level=args.log_level,
              durability=args.durability, options=settings(args))
    except StoreError as e:
        print(f"meeple serve: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"meeple serve: {e.strerror or e}", file=sys.stderr)
        return 2
    return 0
