"""Fixtures for the store tests: liars-dice matches to play, and a writer process to kill."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from meeple import Match

CHILD = Path(__file__).with_name("crash_child.py")
ROOT = Path(__file__).resolve().parents[2]


def play_minimal(match: Match, commands: int) -> Match:
    """Play the lowest legal bid ``commands`` times (or until the match ends)."""
    for _ in range(commands):
        if match.is_over:
            break
        seat = match.to_act[0]
        match.play(seat, match.legal(seat)[0])
    return match


def call_liar(match: Match) -> Match:
    """End the match: the seat to act calls the last bid."""
    seat = match.to_act[0]
    match.play(seat, match.legal(seat)[-1])
    return match


LONG = {"dice": 5, "sides": 12}


@pytest.fixture
def minimal() -> Callable[[Match, int], Match]:
    """``play_minimal(match, n)``: n lowest bids."""
    return play_minimal


@pytest.fixture
def finish() -> Callable[[Match], Match]:
    """``call_liar(match)``: end the match."""
    return call_liar


@pytest.fixture
def long_options() -> dict[str, Any]:
    """Options under which a match can run to hundreds of records."""
    return dict(LONG)


def child_env() -> dict[str, str]:
    """The environment of a child process that imports meeple and the example game from this checkout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "examples"), str(ROOT / "src"), env.get("PYTHONPATH", "")])
    return env


#: ``kill_writer(kind, target, delay, durability="flush", meanwhile=None) -> (last ack, lines, reached the end)``
KillWriter = Callable[..., tuple[int, list[str], bool]]


def run_and_kill(kind: str, target: str | Path, delay: float, durability: str = "flush",
                 meanwhile: Callable[[], None] | None = None, stop: int | None = None) -> tuple[int, list[str], bool]:
    """Start ``crash_child.py KIND TARGET``, SIGKILL it ``delay`` seconds after it is ready.

    Returns the last number it acknowledged (``ack N`` or ``ready N``), every
    line it printed, and whether its match reached the end. ``meanwhile``
    runs while the writer is alive (after it is ready). With ``stop``, the
    writer pauses inside the write that reaches its ``stop``-th byte and is
    killed there, once it says so (``delay`` is not used).
    """
    proc = subprocess.Popen([sys.executable, str(CHILD), kind, str(target), durability,
                             *([] if stop is None else [str(stop)])],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env(), text=True)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    if not first.startswith("ready"):
        proc.kill()
        raise AssertionError(f"the writer did not start: {first!r} {proc.stderr.read() if proc.stderr else ''}")
    if meanwhile is not None:
        meanwhile()
    before: list[str] = []
    if stop is None:
        time.sleep(delay)
    else:
        while (line := proc.stdout.readline()) and line.strip() != "paused":
            before.append(line.strip())
        assert line, f"the writer ended before it paused: {proc.stderr.read() if proc.stderr else ''}"
    proc.send_signal(signal.SIGKILL)
    # read the rest through the same buffered reader: communicate() would read the pipe beneath it and lose
    # the lines readline() had already buffered (the "created" lines a busy machine lets pile up)
    out = proc.stdout.read()
    err = proc.stderr.read() if proc.stderr else ""
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, f"the writer ended by itself ({proc.returncode}): {err[-2000:]}"
    lines = [first.strip(), *before, *out.splitlines()]
    acks = [int(line.split()[1]) for line in lines if line.split()[:1] in (["ack"], ["ready"])]
    return max(acks), lines, "over" in lines


@pytest.fixture
def kill_writer() -> KillWriter:
    """:func:`run_and_kill`: a writer process killed with SIGKILL at a chosen moment."""
    return run_and_kill
