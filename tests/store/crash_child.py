"""A writer process for the crash tests: plays a long liars-dice match into a store until killed.

Run as ``python crash_child.py KIND PATH [fsync]``. KIND is ``file`` (PATH is the
log file, created if missing, else opened and continued) or ``sqlite`` (PATH is
the database; the match id is ``crash``). Every command goes through a sink whose
writes are split into small pieces with pauses, so a SIGKILL often lands in the
middle of a frame. After each acknowledged ``play`` it prints ``ack N`` (N: the
records the match now holds) and flushes; ``ready N`` once the match is open.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any


def minimal_bid(legal: Any) -> Any:
    """The lowest legal bid (matches run long: every bid is one step up)."""
    return legal[0]


def main(argv: list[str]) -> int:
    import liars_dice  # noqa: F401  (registers the game)
    from meeple.store import FileStore, SqliteStore, StoreConflict
    from meeple.store.files import FileSink

    kind, path = argv[0], argv[1]
    durability: Any = "fsync" if len(argv) > 2 and argv[2] == "fsync" else "flush"

    class TearingSink(FileSink):
        def _append(self, data: bytes) -> None:
            view = memoryview(data)
            while view:
                done = os.write(self.fd, view[:5])
                view = view[done:]
                time.sleep(0.0002)

    options = {"dice": 5, "sides": 12}
    if kind == "file":
        store: Any = FileStore(os.path.dirname(path), durability)
        store.sink_type = TearingSink
        if os.path.exists(path):
            match = store.open(path)
        else:
            match = store.create("liars-dice", 6, seed=99, options=options,
                                 match_id=os.path.basename(path)[: -len(".meeple")])
    else:
        store = SqliteStore(path, durability)
        try:
            match = store.create("liars-dice", 6, seed=99, options=options, match_id="crash")
        except StoreConflict:
            match = store.open("crash")
    print(f"ready {len(match)}", flush=True)
    while not match.is_over:
        seat = match.to_act[0]
        match.play(seat, minimal_bid(match.legal(seat)))
        print(f"ack {len(match)}", flush=True)
    print("over", flush=True)
    while True:  # wait to be killed
        time.sleep(1)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
