"""meeple.server: host matches for many clients over the network, each seeing only its seat.

An ASGI application (Starlette, served by uvicorn) with a JSON lobby over
HTTP and play over WebSocket; the protocol is specified in
``docs/protocol.md``, running it in ``docs/server.md``. It needs the
``server`` extra: ``pip install 'meeple[server]'``.

>>> import os, tempfile
>>> from meeple.server import MeepleServer
>>> server = MeepleServer(os.path.join(tempfile.mkdtemp(), "matches.db"))
>>> callable(server.app)   # an ASGI application; the store is opened when it starts
True
"""

from __future__ import annotations

try:
    import starlette  # noqa: F401
    import uvicorn  # noqa: F401
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(f"meeple.server needs the server extra: pip install 'meeple[server]' ({e})") from None

from .app import MeepleServer, create_app
from .hub import Hub
from .protocol import PROTOCOL_VERSION, CloseCode, ErrorCode, Limits, ServerError
from .run import serve

__all__ = ["PROTOCOL_VERSION", "CloseCode", "ErrorCode", "Hub", "Limits", "MeepleServer", "ServerError",
           "create_app", "serve"]
