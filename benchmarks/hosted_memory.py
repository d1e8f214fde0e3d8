"""Memory of a server process hosting many idle matches, and per connection (issue #28).

``python benchmarks/hosted_memory.py [--matches 10000] [--budget-mb 64] [--connections 200]``

Starts ``python -m meeple.server`` on a fresh SQLite store (durability
flush: creating matches is not what is measured) with a memory budget of
``--budget-mb`` for hosted matches, creates ``--matches`` Liar's Dice
matches through the lobby, a seat of each joined and one command played
over a WebSocket, then closed (every match idle), and reads the server's
resident memory (``VmRSS`` from ``/proc``) at each step: after start, every
1,000 matches, and after ``--connections`` spectators connect. It reports
memory per idle match while they fit the budget (the first 1,000, before
any is dropped) and after (bounded: the budget holds), per connection, and
the load average. The same run with a budget larger than every match
(``--budget-mb 4096``) shows what memory grows to without eviction.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from meeple.server.client import Lobby, Seat  # noqa: E402


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def _port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _run(base: str, pid: int, matches: int, connections: int) -> dict[str, object]:
    lobby = Lobby(base)
    samples = [(0, _rss_mb(pid))]
    last = ""
    for i in range(1, matches + 1):
        m = await asyncio.to_thread(lobby.create, game="liars-dice", seats=2)
        joined = await asyncio.to_thread(lobby.join, m["id"], 0)
        seat = await Seat.connect(lobby.ws_url(joined), joined["token"])
        if seat.legal:
            await seat.play(seat.legal[0])
        await seat.close()
        last = m["id"]
        if i % 1000 == 0:
            await asyncio.to_thread(lobby.matches, limit=1)  # the last leave is handled before the sample
            samples.append((i, _rss_mb(pid)))
            print(json.dumps({"matches": i, "rss_mb": round(samples[-1][1], 1)}), flush=True)
    before = _rss_mb(pid)
    watchers = [await Seat.connect(lobby.ws_url(last)) for _ in range(connections)]
    await asyncio.to_thread(lobby.matches, limit=1)
    after = _rss_mb(pid)
    for w in watchers:
        await w.close()
    first = samples[1] if len(samples) > 1 else samples[0]
    return {
        "matches": matches,
        "rss_start_mb": round(samples[0][1], 1),
        "rss_end_mb": round(samples[-1][1], 1),
        "kb_per_idle_match_first_1000": round(1024 * (first[1] - samples[0][1]) / max(1, first[0]), 1),
        "kb_per_idle_match_overall": round(1024 * (samples[-1][1] - samples[0][1]) / max(1, samples[-1][0]), 1),
        "rss_samples_mb": [round(r, 1) for _, r in samples],
        "connections": connections,
        "kb_per_connection": round(1024 * (after - before) / max(1, connections), 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the measurement of the module docstring and print one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--budget-mb", type=int, default=64, help="the server's --max-hosted-mb")
    parser.add_argument("--connections", type=int, default=200)
    args = parser.parse_args(argv)
    port = _port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT / "examples")]))
    serve = "import sys, liars_dice; from meeple.server.run import main; sys.exit(main(sys.argv[1:]))"
    with tempfile.TemporaryDirectory(prefix="meeple-memory-") as tmp:
        proc = subprocess.Popen([sys.executable, "-c", serve, "--store", str(Path(tmp) / "m.db"), "--port", str(port),
                                 "--durability", "flush", "--log-level", "warning", "--max-hosted-mb",
                                 str(args.budget_mb), "--max-unjoined", str(args.matches + 1)], env=env)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(base + "/", timeout=1):
                        break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError("the server did not start") from None
                    time.sleep(0.05)
            figures = asyncio.run(_run(base, proc.pid, args.matches, args.connections))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    print(json.dumps({"budget_mb": args.budget_mb, **figures, "load_average": [round(x, 2) for x in os.getloadavg()],
                      "cores": os.cpu_count()}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
