"""Replay verification: save a match, verify it, then catch a forged die roll.

    python examples/verify_replay.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import msgpack

import liars_dice  # noqa: F401
import meeple
from meeple.engine.codec import pack
from meeple.engine.log import frame, iter_frames, read_header
from meeple.testing import playout


def forge_first_roll(data: bytes) -> bytes:
    """Rewrite seat 0's dice in the first record and re-chain every hash (a careful cheat)."""
    _, prev, header_end = read_header(data)
    out = [data[:header_end]]
    for i, fr in enumerate(list(iter_frames(data))[1:]):
        body = msgpack.unpackb(fr.body)
        if i == 0:
            body[3][0][2] = [6]
        chunk, prev = frame(pack(body), prev)
        out.append(chunk)
    return b"".join(out)


def main() -> None:
    """Verify an honest log and a forged one."""
    match = playout("liars-dice", 3, seed=31337, bot_seed=4).match
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "match.meeple"
        match.save(path, hide_seed=True)  # the seed is committed, and revealed at the end
        print("honest:", meeple.verify(path).summary())
        for step in meeple.replay(path):
            print(f"  #{step.record.seq} seat {step.record.actor}: {match.game.describe(step.record.command)}")
        forged = forge_first_roll(match.to_bytes())
        print("forged:", meeple.verify(forged).summary())
        print("torn:  ", meeple.verify(path.read_bytes()[:-7]).summary())


if __name__ == "__main__":
    main()
