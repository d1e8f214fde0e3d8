"""Embedding meeple in a game server: untrusted JSON in, per-seat views out.

Clients send commands in the compact form (``["bid", 2, 5]``: tag, then fields); the server decodes
them strictly with the game's codec, plays them for the authenticated seat,
and sends each seat only its own view and its redacted events. Run it:

    python examples/embedding.py
"""

from __future__ import annotations

import json
from typing import Any

import liars_dice  # noqa: F401  (registers "liars-dice")
import meeple
from meeple.engine import DecodeError, codec_for, readable


class Server:
    """A minimal match server: one match, seats authenticated by the caller."""

    def __init__(self, seats: int, seed: int) -> None:
        self.match = meeple.Match.start("liars-dice", seats, seed=seed)
        self.codec = codec_for(self.match.game)

    def handle(self, seat: int, message: str) -> dict[str, Any]:
        """Apply one client message; return the reply for that client."""
        try:
            command = self.codec.command(json.loads(message))
            self.match.play(seat, command)
        except (json.JSONDecodeError, DecodeError) as e:
            return {"error": "bad_message", "detail": str(e)}
        except meeple.IllegalCommand as e:
            return {"error": e.code.value, "detail": e.message}
        return {"ok": True}

    def state_for(self, seat: int) -> str:
        """The JSON a client at ``seat`` receives: its view and what it may see of the events."""
        return json.dumps(
            {
                "view": readable(self.match.view(seat)),
                "events": [readable(e) for e in self.match.events_for(seat)],
                "to_act": list(self.match.to_act),
            }
        )


def main() -> None:
    """Play a short scripted match through the server."""
    server = Server(seats=2, seed=2026)
    print("seat 0 sees:", server.state_for(0))
    print(server.handle(1, '["bid", 1, 3]'))  # not seat 1's turn
    print(server.handle(0, '["bid", "one", 3]'))  # malformed
    print(server.handle(0, '["bid", 1, 3]'))
    print(server.handle(1, '["liar"]'))
    print("seat 1 sees:", server.state_for(1))
    print("outcome:", server.match.outcome)


if __name__ == "__main__":
    main()
