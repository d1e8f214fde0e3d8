"""The gate in front of every route: which Host names are served, which origins may change anything, which bodies are read.

* **Host.** A server on loopback is reachable from any web page through DNS
  rebinding (a name of the attacker's that resolves to 127.0.0.1): only
  requests naming one of ``allowed_hosts`` in their ``Host`` header are
  served (``bad_host``, 400; a WebSocket is refused before it opens).
* **Origin.** A browser sends ``Origin`` with every cross-site POST and
  WebSocket; one from another site may not change anything (``bad_origin``,
  403): the origin must name the host the request was sent to, or be one
  of ``allowed_origins``. Clients that are not browsers send no ``Origin``
  and are not affected.
* **Header count.** At most ``max_headers`` header fields (``too_large``,
  431); their total size is bounded by the HTTP parser
  (:mod:`meeple.server.transport`).
* **Content type.** A state-changing request with a body says
  ``Content-Type: application/json`` (the debugger's upload may also send
  ``application/octet-stream``): the types a cross-site HTML form can send
  without asking (``text/plain``, form encodings) are refused
  (``bad_content_type``, 415).

>>> host_of("Example.org:8000"), host_of("[::1]:80"), host_of("")
('example.org', '::1', '')
>>> same_origin("https://example.org", "example.org:443"), same_origin("http://evil.test", "example.org")
(True, False)
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from .protocol import CloseCode, ErrorCode, ServerError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Methods that change nothing (no Origin or content-type check).
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: Routes that take a body other than JSON, and the types they take besides it.
RAW_BODIES = {"/api/debug/logs": frozenset({"application/octet-stream"})}
_DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443"}


def host_of(header: str) -> str:
    """The host name of a ``Host`` header, lower-cased, without its port or IPv6 brackets."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def _netloc(host: str, port: str | None, scheme: str) -> tuple[str, str]:
    return host, port or _DEFAULT_PORTS.get(scheme, "")


def same_origin(origin: str, host_header: str) -> bool:
    """True if ``origin`` names the host (and port) of ``host_header``; the scheme may differ behind a proxy."""
    try:
        o = urlsplit(origin)
        o_host, o_port = (o.hostname or ""), (str(o.port) if o.port else None)
        h = urlsplit("//" + host_header.strip())
        h_host, h_port = (h.hostname or ""), (str(h.port) if h.port else None)
    except ValueError:
        return False
    if not o_host or not h_host or o_host != h_host:
        return False
    if o_port == h_port:
        return True
    default = _DEFAULT_PORTS.get(o.scheme, "")
    return (o_port or default) == (h_port or default)


class Guard:
    """ASGI middleware enforcing the Host, Origin and content-type rules of the module docstring.

    ``allowed_hosts`` None serves any Host (an application mounted in
    another, whose own server decides); ``"*"`` in it does the same.
    """

    def __init__(self, app: App, *, allowed_hosts: Sequence[str] | None = None,
                 allowed_origins: Sequence[str] = (), max_headers: int | None = None) -> None:
        self.app = app
        self.max_headers = max_headers
        hosts = None if allowed_hosts is None or "*" in allowed_hosts else frozenset(host_of(h) for h in allowed_hosts)
        self.allowed_hosts = hosts
        self.allowed_origins = frozenset(o.rstrip("/").lower() for o in allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        raw = scope.get("headers", ())
        if self.max_headers is not None and len(raw) > self.max_headers:
            refusal: tuple[ErrorCode, int, str] | None = (
                ErrorCode.TOO_LARGE, 431, f"a request has at most {self.max_headers} header fields")
        else:
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in raw}
            refusal = self.check(kind, scope.get("method", "GET"), _route(scope), headers)
        if refusal is None:
            await self.app(scope, receive, send)
            return
        code, status, message = refusal
        if kind == "websocket":
            await send({"type": "websocket.close", "code": CloseCode.FORBIDDEN, "reason": code.value})
            return
        body = json.dumps({"error": ServerError(code, message).body()}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})

    def check(self, kind: str, method: str, path: str, headers: dict[str, str]) -> tuple[ErrorCode, int, str] | None:
        """Why a request is refused (code, HTTP status, sentence), or None to serve it."""
        host = headers.get("host", "")
        if self.allowed_hosts is not None and host_of(host) not in self.allowed_hosts:
            return ErrorCode.BAD_HOST, 400, "this server does not serve that host name (see --allowed-hosts)"
        if kind == "http" and method in SAFE_METHODS:
            return None
        origin = headers.get("origin")
        if origin is not None and origin.rstrip("/").lower() not in self.allowed_origins and not same_origin(origin, host):
            return ErrorCode.BAD_ORIGIN, 403, "requests from another site's pages may not change anything here"
        if kind == "websocket":
            return None
        has_body = headers.get("content-length", "0") not in ("", "0") or "transfer-encoding" in headers
        media = headers.get("content-type", "").split(";")[0].strip().lower()
        if has_body and media != "application/json" and media not in RAW_BODIES.get(path, ()):
            extra = "".join(f" or {t}" for t in sorted(RAW_BODIES.get(path, ())))
            return ErrorCode.BAD_CONTENT_TYPE, 415, f"send the body as application/json{extra}"
        return None


def _route(scope: Scope) -> str:
    """The path of the request below where the application is mounted."""
    path = str(scope.get("path", ""))
    root = str(scope.get("root_path", ""))
    return path[len(root):] if root and path.startswith(root) else path
