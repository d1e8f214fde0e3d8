"""What one client may cost the server: rates (token buckets) and quotas, per client address or seat token.

A *client* is its IP address (an IPv6 address by its /64 network, which one
subscriber usually holds whole), or for requests made with a seat token,
that token. Each action has a :class:`Rate`: a bucket of ``count`` tokens,
refilled at ``count`` per ``period`` seconds, one token per request; a
request finding the bucket empty is refused with ``rate_limited`` (HTTP
429, ``Retry-After``) to that client only. Open WebSockets are counted per
address against :attr:`Quotas.sockets` (``over_quota``). The table of
buckets is bounded (:attr:`Quotas.clients`, the least recently seen client
forgotten first), so a flood of addresses costs a bounded amount of memory.

>>> gate = Gate(Quotas(create=Rate.parse("2/m")))
>>> gate.take("create", "203.0.113.7"); gate.take("create", "203.0.113.7")
>>> gate.take("create", "203.0.113.7")
Traceback (most recent call last):
...
meeple.server.protocol.ServerError: too many create requests from this client: at most 2 per 60 s; retry in 30 s
>>> client_key("2001:db8::1") == client_key("2001:db8::ffff")
True

``meeple serve`` holds every client to :class:`Quotas` by default
(docs/server.md, "Deploying"); a :class:`~meeple.server.MeepleServer` made
in Python holds none unless given ``quotas``.
"""

from __future__ import annotations

import collections
import ipaddress
import math
import re
import time
from collections.abc import Callable

import attrs
from starlette.requests import HTTPConnection

from .protocol import ErrorCode, ServerError

#: What each rate limits (the keys of :class:`Quotas`' rates).
ACTIONS = ("create", "join", "upload", "sync", "connect")
_RATE = re.compile(r"([0-9]{1,9})/([0-9]{0,6})([smh])")
_UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0}


@attrs.frozen
class Rate:
    """At most ``count`` at once, refilled at ``count`` per ``period`` seconds."""

    count: int
    period: float

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """``"30/m"`` (30 a minute; also ``/s``, ``/h``, ``/10s``), or None for ``"off"``; ValueError otherwise."""
        if text.strip().lower() in ("off", "0", "none"):
            return None
        found = _RATE.fullmatch(text.strip().lower())
        if found is None or int(found[1]) < 1:
            raise ValueError(f"a rate is COUNT/UNIT (30/m, 5/s, 100/h, 10/30s) or off, not {text!r}")
        return cls(int(found[1]), int(found[2] or 1) * _UNITS[found[3]])

    def __str__(self) -> str:
        return f"{self.count}/{self.period:g}s"


def _mib(n: int) -> int:
    return n * 1024 * 1024


@attrs.frozen
class Quotas:
    """The per-client rates and quotas (docs/server.md, "Deploying", for each default and option)."""

    #: Matches created (``POST /api/matches``, and forks hosted by the debugger).
    create: Rate | None = Rate(30, 60.0)
    #: Seats taken (``POST /api/matches/{id}/join``).
    join: Rate | None = Rate(60, 60.0)
    #: Logs opened in the replay debugger (uploads and matches of the server).
    upload: Rate | None = Rate(12, 60.0)
    #: ``sync`` requests on WebSockets (per seat token; a spectator's per address).
    sync: Rate | None = Rate(60, 60.0)
    #: WebSocket connections opened.
    connect: Rate | None = Rate(60, 60.0)
    #: WebSockets one address may hold open at once (0: no limit).
    sockets: int = 32
    #: Clients whose buckets are remembered (the least recently seen forgotten first).
    clients: int = 10_000
    #: The debugger: the largest log it opens, in bytes (a whole match of a bundled game is 5-15 KB).
    debug_log_bytes: int = 512 * 1024
    #: The debugger: bytes of opened logs one client keeps (its own least recently used closed first).
    debug_client_bytes: int = _mib(2)
    #: The debugger: logs one client keeps open.
    debug_client_logs: int = 8
    #: The debugger: bytes of opened logs of all clients together (beyond: ``server_busy``).
    debug_total_bytes: int = _mib(8)
    #: The debugger: seconds an opened log is kept after its last use.
    debug_idle: float = 600.0

    def rate(self, action: str) -> Rate | None:
        """The rate of ``action`` (one of :data:`ACTIONS`)."""
        rate: Rate | None = getattr(self, action)
        return rate


#: No limits at all (a server made in Python, for tests and trusted networks).
UNLIMITED = Quotas(create=None, join=None, upload=None, sync=None, connect=None, sockets=0,
                   debug_log_bytes=_mib(16), debug_client_bytes=_mib(128), debug_client_logs=32,
                   debug_total_bytes=_mib(128), debug_idle=math.inf)


def client_key(address: str | None) -> str:
    """The client an address belongs to: the address itself, an IPv6 address's /64 network."""
    if not address:
        return "?"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def client_of(connection: HTTPConnection) -> str:
    """The client a request or WebSocket counts against: :func:`client_key` of its address.

    The address is the peer's, or behind a reverse proxy trusted with
    ``--forwarded-allow-ips``, the one the proxy names (uvicorn's
    ``--proxy-headers``).
    """
    return client_key(connection.client.host if connection.client else None)


class Gate:
    """Token buckets and socket counts for every client of one server (on its event loop only: no locks)."""

    def __init__(self, quotas: Quotas, clock: Callable[[], float] = time.monotonic) -> None:
        self.quotas = quotas
        self._clock = clock
        self._buckets: collections.OrderedDict[tuple[str, str], tuple[float, float]] = collections.OrderedDict()
        self._sockets: dict[str, int] = {}

    def take(self, action: str, client: str) -> None:
        """Spend one token of ``client``'s bucket for ``action``, or raise RATE_LIMITED saying when to retry."""
        rate = self.quotas.rate(action)
        if rate is None:
            return
        now = self._clock()
        key = (action, client)
        tokens, then = self._buckets.pop(key, (float(rate.count), now))
        tokens = min(float(rate.count), tokens + (now - then) * rate.count / rate.period)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            wait = math.ceil((1.0 - tokens) * rate.period / rate.count)
            raise ServerError(ErrorCode.RATE_LIMITED,
                              f"too many {action} requests from this client: at most {rate.count} per "
                              f"{rate.period:g} s; retry in {wait} s", retry_after=wait)
        self._buckets[key] = (tokens - 1.0, now)
        while len(self._buckets) > self.quotas.clients * len(ACTIONS):
            self._buckets.popitem(last=False)

    def open_socket(self, client: str) -> None:
        """Count a WebSocket of ``client`` (OVER_QUOTA if it holds as many as it may); pair with :meth:`close_socket`."""
        limit = self.quotas.sockets
        held = self._sockets.get(client, 0)
        if limit and held >= limit:
            raise ServerError(ErrorCode.OVER_QUOTA, f"this client holds {held} open sockets, the most it may; "
                                                    "close some first")
        self._sockets[client] = held + 1

    def close_socket(self, client: str) -> None:
        """Uncount a WebSocket counted by :meth:`open_socket`."""
        held = self._sockets.get(client, 0) - 1
        if held > 0:
            self._sockets[client] = held
        else:
            self._sockets.pop(client, None)

    @property
    def remembered(self) -> int:
        """How many buckets are held now (bounded by ``clients`` times the number of actions)."""
        return len(self._buckets)
