"""What hostile input costs the log reader: time per input byte, against hashing the same bytes.

    python benchmarks/hostile.py            # a 16 MiB frame, a few seconds
    python benchmarks/hostile.py --quick    # a 1 MiB frame

A reader cannot do less than hash every byte it is given (the chain), so each
figure is a ratio to BLAKE2b-128 of the same bytes, measured back to back in
this run (``harness.paired_ratio``), with the time per input byte beside it.
The workloads: rejecting one frame of empty msgpack arrays behind a valid
chain (the case that once took 1.24 GB and 5-15 s for 16 MiB), rejecting one
frame of nested short arrays, and loading an honest log of the same size,
each with the compiled reader and the pure-Python one. The memory bounds are
correctness properties and are tested (``tests/test_hostile.py``); the page
that states both is ``docs/reliability.md``.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
for p in (HERE, HERE.parent / "src"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import marathon  # noqa: E402
from harness import FULL, QUICK, Figure, Report, paired_ratio  # noqa: E402

import meeple  # noqa: E402
from meeple.engine import RandomBot, read_log  # noqa: E402
from meeple.engine import log as log_module  # noqa: E402
from meeple.engine import reader as reader_module  # noqa: E402
from meeple.engine.log import frame, iter_frames  # noqa: E402


@contextmanager
def pure_python(on: bool) -> Iterator[None]:
    """Read with the pure-Python loops while the block runs (``on``), as ``MEEPLE_PURE_PYTHON`` would."""
    saved = reader_module._speedups, log_module._speedups
    if on:
        reader_module._speedups = log_module._speedups = None
    try:
        yield
    finally:
        reader_module._speedups, log_module._speedups = saved


def honest_log(size: int) -> bytes:
    """A real log of about ``size`` bytes: a Marathon match (``marathon.py``) played by a random bot."""
    m = meeple.Match.start(marathon.GAME, 2, seed=1, options={"length": max(1, size // 36)})
    bot = RandomBot(1)
    while m.to_act:
        seat = m.to_act[0]
        m.play(seat, bot.choose(None, m.legal(seat), seat))
    return m.to_bytes()


def hostile_logs(size: int) -> dict[str, bytes]:
    """Logs that end in one frame of about ``size`` bytes built to make a decoder allocate all it can."""
    base = meeple.Match.start("kings", 2, seed=1).to_bytes()
    last = list(iter_frames(base))[-1].hash
    n = size - 5
    inner = b"\xdc" + (4000).to_bytes(2, "big") + b"\x90" * 4000
    bodies = {
        "a frame of empty arrays": b"\xdd" + n.to_bytes(4, "big") + b"\x90" * n,
        "a frame of nested arrays": b"\xdd" + (n // len(inner)).to_bytes(4, "big") + inner * (n // len(inner)),
    }
    return {name: base + frame(body, last)[0] for name, body in bodies.items()}


def rejecting(data: bytes) -> Callable[[], int]:
    def work() -> int:
        try:
            read_log(data)
        except meeple.CorruptLog:
            return len(data)
        raise AssertionError("a hostile log was accepted")

    return work


def loading(data: bytes) -> Callable[[], int]:
    def work() -> int:
        read_log(data)
        return len(data)

    return work


def hashing(data: bytes) -> Callable[[], int]:
    def work() -> int:
        hashlib.blake2b(data, digest_size=16).digest()
        return len(data)

    return work


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print every figure (JSON lines, then a table)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a 1 MiB frame and short repeats")
    ap.add_argument("--size", type=int, default=None, help="bytes of the hostile frame (default 16 MiB, 1 MiB quick)")
    args = ap.parse_args(argv)
    budget = QUICK if args.quick else FULL
    size = args.size or ((1 if args.quick else 16) << 20) - 64
    report = Report()
    started = time.perf_counter()
    workloads = {**{name: rejecting(data) for name, data in hostile_logs(size).items()},
                 "an honest log, loaded": loading(honest_log(min(size, 1 << 20)))}
    for name, work in workloads.items():
        for pure in (False, True):
            which = "pure Python" if pure else "compiled"
            if not pure and reader_module._speedups is None:
                report.note(f"time: {name} / BLAKE2b of its bytes", which, "meeple._speedups was not built")
                continue
            with pure_python(pure):
                data_size = work()
                ratio = paired_ratio(hashing(b"\0" * data_size), work, budget)  # hash rate / read rate
                t0 = time.process_time()
                rounds = 0
                while time.process_time() - t0 < budget.min_time or not rounds:
                    work()
                    rounds += 1
                per_byte = (time.process_time() - t0) / rounds / data_size * 1e9
            report.add(Figure(f"time: {name} / BLAKE2b of its bytes", which, ratio, "×",
                              note=f"{per_byte:.2f} ns per input byte, {data_size / 2**20:.1f} MiB"))
    print()
    print(report.table())
    print(f"\n# {len(report.figures)} figures in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
