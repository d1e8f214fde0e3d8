"""The deployment options of the network server, shared by ``meeple serve`` and ``python -m meeple.server``.

It imports nothing of the server, so the command line offers (and checks)
the options without the ``server`` extra installed. What each option
bounds, and why its default, is in docs/server.md ("Deploying").

>>> parse_bytes("4MiB"), parse_bytes("512KiB"), parse_bytes("1000")
(4194304, 524288, 1000)
>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_arguments(parser)
>>> settings(parser.parse_args(["--rate-create", "5/m", "--header-timeout", "3"])).header_timeout
3.0
>>> settings(parser.parse_args([])).bot_pace, settings(parser.parse_args(["--bot-pace", "0"])).bot_pace
(1.0, 0.0)
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable

import attrs

_BYTES = re.compile(r"([0-9]{1,12})\s*(b|kib|mib|gib|k|m|g)?")
_UNITS = {None: 1, "b": 1, "k": 1024, "kib": 1024, "m": 1024**2, "mib": 1024**2, "g": 1024**3, "gib": 1024**3}
_RATE = re.compile(r"(off|none|0|[0-9]{1,9}/[0-9]{0,6}[smh])")


def parse_bytes(text: str) -> int:
    """A size: ``1000``, ``64KiB``, ``4MiB``, ``1GiB`` (ValueError otherwise)."""
    found = _BYTES.fullmatch(text.strip().lower())
    if found is None:
        raise ValueError(f"a size is a number of bytes, or one with KiB, MiB or GiB, not {text!r}")
    return int(found[1]) * _UNITS[found[2]]


def _size(text: str) -> int:
    try:
        return parse_bytes(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _rate(text: str) -> str:
    if _RATE.fullmatch(text.strip().lower()) is None:
        raise argparse.ArgumentTypeError(f"a rate is COUNT/UNIT (30/m, 5/s, 100/h, 10/30s) or off, not {text!r}")
    return text.strip().lower()


def _positive(kind: type[int] | type[float], least: int = 0) -> Callable[[str], int | float]:
    """An argument parser of a number of ``kind`` that is ``least`` or more."""
    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a {'whole ' if kind is int else ''}number: {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be {least} or more, not {text!r}")
        return value

    return parse


_at_least_one = _positive(int, 1)


def _hosts(text: str) -> tuple[str, ...]:
    return tuple(h.strip() for h in text.split(",") if h.strip())


@attrs.frozen
class Settings:
    """What the deployment options say; None: the server's default (docs/server.md, "Deploying")."""

    allowed_hosts: tuple[str, ...] | None = None
    allowed_origins: tuple[str, ...] = ()
    forwarded_allow_ips: str | None = None
    no_rate_limits: bool = False
    rates: dict[str, str] = attrs.field(factory=dict)
    sockets_per_client: int | None = None
    debug_max_log: int | None = None
    debug_client_bytes: int | None = None
    debug_client_logs: int | None = None
    debug_total_bytes: int | None = None
    debug_idle: float | None = None
    header_timeout: float = 10.0
    keep_alive_timeout: int = 5
    max_header_bytes: int = 16 * 1024
    max_headers: int = 64
    max_connections: int | None = None
    max_connections_per_ip: int = 64
    max_hosted_mb: int = 256
    max_unjoined: int = 10_000
    bot_pace: float = 1.0


#: The actions with a rate option (``--rate-ACTION``), and their defaults as the server states them.
RATE_DEFAULTS = {"create": "30/m", "join": "60/m", "upload": "12/m", "sync": "60/m", "connect": "60/m"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the deployment options to ``parser`` (read them back with :func:`settings`)."""
    g = parser.add_argument_group("deployment (docs/server.md, Deploying)")
    g.add_argument("--bot-pace", "--bot-delay", dest="bot_pace", type=_positive(float), default=1.0,
                   metavar="SECONDS",
                   help="a bot moves no sooner than this many seconds after the position it answers, so people "
                        "can follow what bots do (default 1; 0: at once; --bot-delay is the same option)")
    g.add_argument("--allowed-hosts", type=_hosts, metavar="HOSTS",
                   help="comma-separated Host names served (default: the --host address, localhost, 127.0.0.1, ::1; "
                        "any when listening on 0.0.0.0 or ::); * for any")
    g.add_argument("--allowed-origins", type=_hosts, default=(), metavar="ORIGINS",
                   help="comma-separated web origins (https://example.org) besides this server's own whose pages "
                        "may create, join and play")
    g.add_argument("--forwarded-allow-ips", metavar="IPS",
                   help="behind a reverse proxy: the proxy's addresses (comma-separated, or *), whose "
                        "X-Forwarded-For and X-Forwarded-Proto are trusted for the client's address "
                        "(default: none are, the peer's address is the client's)")
    g.add_argument("--no-rate-limits", action="store_true",
                   help="hold no client to any rate or socket quota (a trusted network, a benchmark)")
    for action, default in RATE_DEFAULTS.items():
        g.add_argument(f"--rate-{action}", type=_rate, metavar="RATE",
                       help=f"{action} requests per client, as COUNT/UNIT or off (default {default})")
    g.add_argument("--sockets-per-client", type=_positive(int), metavar="N",
                   help="WebSockets one client address may hold open (default 32; 0: no limit)")
    g.add_argument("--debug-max-log", type=_size, metavar="BYTES", help="the largest log the debugger opens (default 512KiB)")
    g.add_argument("--debug-client-bytes", type=_size, metavar="BYTES",
                   help="bytes of opened logs one client keeps in the debugger (default 2MiB)")
    g.add_argument("--debug-client-logs", type=_positive(int), metavar="N",
                   help="logs one client keeps open in the debugger (default 8)")
    g.add_argument("--debug-total-bytes", type=_size, metavar="BYTES",
                   help="bytes of opened logs all clients together keep in the debugger (default 8MiB)")
    g.add_argument("--debug-idle", type=_positive(float), metavar="SECONDS",
                   help="seconds an opened log is kept after its last use (default 600)")
    g.add_argument("--header-timeout", type=_positive(float), default=10.0, metavar="SECONDS",
                   help="seconds a connection has to send a request's headers (default 10)")
    g.add_argument("--keep-alive-timeout", type=_positive(int), default=5, metavar="SECONDS",
                   help="seconds an idle HTTP connection is kept open between requests (default 5)")
    g.add_argument("--max-header-bytes", type=_size, default=16 * 1024, metavar="BYTES",
                   help="the largest request line and headers (default 16KiB)")
    g.add_argument("--max-headers", type=_positive(int), default=64, metavar="N",
                   help="the most header fields in a request (default 64)")
    g.add_argument("--max-connections", type=_positive(int), metavar="N",
                   help="open connections at once, beyond which new ones are closed at once (default: the "
                        "process's file descriptor limit less 64 held back for the store and logs)")
    g.add_argument("--max-connections-per-ip", type=_positive(int), default=64, metavar="N",
                   help="open connections from one peer address (default 64; 0: no limit; a reverse proxy "
                        "is one peer)")
    g.add_argument("--max-hosted-mb", type=_at_least_one, default=256, metavar="MB",
                   help="memory for matches in play; idle ones beyond it are dropped and read again from the store "
                        "on demand (default 256)")
    g.add_argument("--max-unjoined", type=_at_least_one, default=10_000, metavar="N",
                   help="matches nobody has joined yet, at most (default 10000)")


def settings(args: argparse.Namespace) -> Settings:
    """The :class:`Settings` of options parsed by a parser given :func:`add_arguments`."""
    rates = {a: getattr(args, f"rate_{a}") for a in RATE_DEFAULTS if getattr(args, f"rate_{a}") is not None}
    return Settings(
        allowed_hosts=args.allowed_hosts, allowed_origins=tuple(args.allowed_origins),
        forwarded_allow_ips=args.forwarded_allow_ips, no_rate_limits=args.no_rate_limits, rates=rates,
        sockets_per_client=args.sockets_per_client, debug_max_log=args.debug_max_log,
        debug_client_bytes=args.debug_client_bytes, debug_client_logs=args.debug_client_logs,
        debug_total_bytes=args.debug_total_bytes, debug_idle=args.debug_idle,
        header_timeout=float(args.header_timeout), keep_alive_timeout=args.keep_alive_timeout,
        max_header_bytes=args.max_header_bytes, max_headers=args.max_headers,
        max_connections=args.max_connections, max_connections_per_ip=args.max_connections_per_ip,
        max_hosted_mb=args.max_hosted_mb, max_unjoined=args.max_unjoined, bot_pace=float(args.bot_pace),
    )
