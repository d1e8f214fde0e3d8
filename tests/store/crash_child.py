"""A writer process for the crash tests: writes into a store until it is killed.

Run as ``python crash_child.py KIND TARGET [fsync|flush [STOP]]``:

* ``file PATH``: plays a long liars-dice match into the log file PATH
  (created if missing, else opened and continued);
* ``db ADDRESS``: the same into match ``crash`` of the database store at
  ADDRESS (``sqlite:...`` or ``postgresql://...``);
* ``create DIR``: creates matches ``c0``, ``c1``, ... in the file store DIR,
  one after the other, printing ``created ID`` after each ``create`` returns.

File writes are split into 5-byte pieces with pauses, so a SIGKILL often
lands in the middle of a frame (or of a new file's header). After each
acknowledged ``play`` it prints ``ack N`` (N: the records the match now
holds) and flushes; ``ready N`` once the match is open; ``error ...`` when a
store error stops it (it then waits to be killed, as it does at the end).
With STOP, the writer stops once it has written STOP bytes, inside that
write, prints ``paused`` and waits to be killed there: a kill that lands
inside a write whatever the machine's load.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any


def main(argv: list[str]) -> int:
    import liars_dice  # noqa: F401  (registers the game)
    from meeple.store import FileStore, MatchExists, StoreError, open_store
    from meeple.store.files import FileSink

    kind, target = argv[0], argv[1]
    durability: Any = "fsync" if len(argv) > 2 and argv[2] == "fsync" else "flush"
    stop = int(argv[3]) if len(argv) > 3 else None
    written = [0]

    class TearingSink(FileSink):
        @staticmethod
        def _write(fd: int, data: bytes) -> None:
            view = memoryview(data)
            while view:
                done = os.write(fd, view[:5])
                view = view[done:]
                written[0] += done
                if stop is not None and written[0] >= stop and view:
                    print("paused", flush=True)
                    while True:  # inside this write until killed
                        time.sleep(60)
                time.sleep(0.0002)

    options = {"dice": 5, "sides": 12}
    if kind == "create":
        store: Any = FileStore(target, durability)
        store.sink_type = TearingSink
        print("ready 0", flush=True)
        for n in range(10_000):
            store.create("liars-dice", 6, seed=n, options=options, match_id=f"c{n}")
            print(f"created c{n}", flush=True)
            store.close()
        return 0
    if kind == "file":
        path = Path(target)
        store = FileStore(path.parent, durability)
        store.sink_type = TearingSink
        if path.exists():
            match = store.open_path(path)
        else:
            match = store.create_path(path, "liars-dice", 6, seed=99, options=options)
    else:
        store = open_store(target, durability=durability)
        try:
            match = store.create("liars-dice", 6, seed=99, options=options, match_id="crash")
        except MatchExists:
            match = store.open("crash")
    print(f"ready {len(match)}", flush=True)
    while not match.is_over:
        seat = match.to_act[0]
        try:
            match.play(seat, match.legal(seat)[0])  # the lowest bid: matches run long
        except StoreError as e:  # the database went away: a client lives on, acknowledging nothing more
            print(f"error {e}", flush=True)
            break
        print(f"ack {len(match)}", flush=True)
    else:
        print("over", flush=True)
    while True:  # wait to be killed
        time.sleep(1)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
