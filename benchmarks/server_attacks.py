"""Attacks on a real ``meeple serve`` on loopback: what each costs the server, and a bystander playing meanwhile.

    python benchmarks/server_attacks.py              # the defaults, without rates, every limit off (5 minutes)
    python benchmarks/server_attacks.py --quick      # shorter attacks, smaller logs
    python benchmarks/server_attacks.py --profile defaults --out attacks.json

``nox -s server_attacks`` runs it. The server (``python -m meeple.server``,
liars-dice registered) runs in a process of its own with a file descriptor
limit of 256, once per profile: ``defaults`` (what ``meeple serve`` does
unless told otherwise, docs/server.md "Deploying"), ``no-rates`` (the same
without the per-client rates and socket quota, so that the debugger's
budgets and the transport's bounds meet the attacks alone) and ``open``
(every per-client rate, quota, budget and transport bound of that section
turned off or set out of reach: about what the server did before them). The
attacks, one after the other, all from 127.0.0.1:

* ``create_flood``: one client creates matches as fast as it can;
* ``debugger_uploads``: a victim (127.0.0.3) opens a small log; the attacker
  uploads forged logs whose hash chains are valid and whose records are as
  dense as decoding allows: 33 small ones, then five of 448 KiB (under the
  default per-log limit) and five of 16 MiB; does the victim's log still
  open?
* ``full_timeline``: the referee's timeline of the largest log the debugger
  took, asked for at once;
* ``slow_headers``, ``silent``: hundreds of connections that send their
  headers a byte a second, or nothing; how many are still open at the end,
  and is a real client (127.0.0.3) served?
* ``big_headers``: three requests with 32 MiB headers at once.

Meanwhile a bystander (127.0.0.2) plays Underground Kings against a bot over a
WebSocket without pause; each of its commands' round trip is a sample.
Reported per attack: what was tried and how it was answered, the server's
RSS before and after, its CPU time, and the bystander's samples during the
attack (count, median, 95th percentile, max; every sample is kept in
``--out``). The load average of the machine is printed at the start and the
end: the machine is shared, so compare the two profiles of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import json
import os
import random
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for p in (ROOT / "src", ROOT / "examples"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import httpx  # noqa: E402
import msgpack  # noqa: E402
import websockets  # noqa: E402

import liars_dice as ld  # noqa: E402
from meeple import Match  # noqa: E402
from meeple.engine import codec_for, get_game  # noqa: E402
from meeple.engine.codec import pack  # noqa: E402
from meeple.engine.log import MAGIC, frame, iter_frames  # noqa: E402
from meeple.server.client import ClientError, Seat  # noqa: E402

ATTACKER, BYSTANDER, VICTIM = "127.0.0.1", "127.0.0.2", "127.0.0.3"
MiB = 1024 * 1024
FD_LIMIT = 256
LAUNCH = "import sys, liars_dice; from meeple.server.run import main; sys.exit(main(sys.argv[1:]))"
PROFILES: dict[str, list[str]] = {
    "defaults": [],
    "no-rates": ["--no-rate-limits"],
    "open": ["--no-rate-limits", "--max-connections-per-ip", "0", "--header-timeout", "0",
             "--max-header-bytes", "64MiB", "--max-headers", "1000000", "--max-connections", "1000000",
             "--debug-max-log", "16MiB", "--debug-client-bytes", "1GiB", "--debug-client-logs", "32",
             "--debug-total-bytes", "1GiB"],
}


# -- the server ------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _limit_descriptors() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (FD_LIMIT, hard))


class Server:
    """``meeple.server`` in a process of its own, with a descriptor limit of :data:`FD_LIMIT`."""

    def __init__(self, store: str, extra: list[str]) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT / "examples")]))
        self.proc = subprocess.Popen([sys.executable, "-c", LAUNCH, "--store", store, "--port", str(self.port),
                                      "--log-level", "error", *extra], env=env, preexec_fn=_limit_descriptors)
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(self.base + "/api", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.1)

    def rss_mib(self) -> float:
        """The server's resident memory."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def cpu_s(self) -> float:
        """The server's CPU time so far (user and system)."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=30)


# -- the bystander ------------------------------------------------------------------------------------


class Bystander:
    """Underground Kings against a bot from :data:`BYSTANDER`, without pause, in a thread; each command's round trip noted."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.samples: list[tuple[float, float]] = []  # (when sent, seconds to its acknowledgement)
        self.failures: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self.thread.start()

    async def _run(self) -> None:
        rng = random.Random(7)
        http = httpx.Client(transport=httpx.HTTPTransport(local_address=BYSTANDER), timeout=60)
        while not self._stop.is_set():
            try:
                made = http.post(f"{self.base}/api/matches",
                                 json={"game": "kings", "seats": 2, "bots": {"1": "random"}}).json()
                joined = http.post(f"{self.base}/api/matches/{made['id']}/join", json={}).json()
                url = self.base.replace("http", "ws", 1) + joined["ws"]
                sock = await websockets.connect(url, local_addr=(BYSTANDER, 0), max_size=None)
                seat = Seat(sock)
                await seat.send({"type": "hello", "token": joined["token"]})
                await seat.next(60)
                while seat.outcome is None and not self._stop.is_set():
                    if not seat.legal:
                        await seat.next(60)
                        continue
                    t = time.perf_counter()
                    try:
                        await seat.play(rng.choice(seat.legal), timeout=60)
                    except ClientError as e:
                        if e.code not in ("stale_cursor", "not_your_turn"):
                            raise
                        continue
                    self.samples.append((t, time.perf_counter() - t))
                await sock.close()
            except Exception as e:
                self.failures.append((time.perf_counter(), f"{type(e).__name__}: {e}"[:200]))
                await asyncio.sleep(0.5)
        http.close()

    def during(self, start: float, end: float) -> list[float]:
        """The round trips of the commands sent between ``start`` and ``end`` (perf_counter), in ms."""
        return [round(lat * 1000, 2) for t, lat in list(self.samples) if start <= t <= end]

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(timeout=90)


# -- the attacks ------------------------------------------------------------------------------------------


def _client(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=120)


def create_flood(base: str, seconds: float) -> dict[str, Any]:
    """One client creates matches as fast as it can for ``seconds``."""
    answers: Counter[str] = Counter()
    end = time.perf_counter() + seconds
    with _client(ATTACKER) as c:
        while time.perf_counter() < end:
            try:
                answers[str(c.post(f"{base}/api/matches", json={"game": "liars-dice", "seats": 2}).status_code)] += 1
            except httpx.HTTPError as e:
                answers[type(e).__name__] += 1
    return {"tried": sum(answers.values()), "answers": dict(answers)}


def dense_log(size: int) -> bytes:
    """A Liar's Dice log of about ``size`` bytes, hash chain valid, its records as dense as decoding allows.

    The records decode (each is a bid and a ``LiarCalled`` event carrying
    300 one-die hands) but do not verify: what the reader holds per byte of
    such a log is the most it holds for any log (docs/reliability.md).
    """
    m = Match.start("liars-dice", 2, seed=1)
    m.play(0, ld.Bid(1, 2))
    bodies = [msgpack.unpackb(f.body) for f in iter_frames(m.to_bytes())]
    codec = codec_for(get_game("liars-dice"))
    bid, called = codec.index_of[ld.Bid], codec.index_of[ld.LiarCalled]
    out, prev = [MAGIC], MAGIC
    for b in bodies:
        fr, prev = frame(pack(b), prev)
        out.append(fr)
    total, seq = sum(len(x) for x in out), len(bodies) - 1
    while total < size:
        ck = bytes(16) if (seq + 1) % 64 == 0 else None
        fr, prev = frame(pack([seq, 0, [bid, 1, 2], [[called, 0, [[-20]] * 300, 0, 0]], 0, ck]), prev)
        out.append(fr)
        total += len(fr)
        seq += 1
    return b"".join(out)


def debugger_uploads(base: str, big: bytes, near: bytes, small: bytes) -> dict[str, Any]:
    """A victim opens a log; the attacker uploads 33 small, five near-limit and five big logs; does the victim's stay?"""
    raw = {"Content-Type": "application/octet-stream"}
    answers: Counter[str] = Counter()
    opened: list[tuple[int, str]] = []
    with _client(VICTIM) as victim, _client(ATTACKER) as attacker:
        mine = victim.post(f"{base}/api/debug/logs", content=small, headers=raw).json()["id"]
        for data in [small] * 33 + [near] * 5 + [big] * 5:
            try:
                r = attacker.post(f"{base}/api/debug/logs", content=data, headers=raw)
            except httpx.HTTPError as e:
                answers[type(e).__name__] += 1
                continue
            answers[str(r.status_code)] += 1
            if r.status_code == 201:
                opened.append((len(data), r.json()["id"]))
        kept = victim.get(f"{base}/api/debug/logs/{mine}").status_code == 200
        still = [(n, i) for n, i in opened if attacker.get(f"{base}/api/debug/logs/{i}").status_code == 200]
    largest = max(still)[1] if still else None
    return {"tried": sum(answers.values()), "answers": dict(answers), "victims_log_kept": kept,
            "log_bytes": {"big": len(big), "near": len(near), "small": len(small)}, "_largest": largest}


def full_timeline(base: str, log_id: str | None) -> dict[str, Any]:
    """The referee's timeline of the largest opened log, asked for once."""
    if log_id is None:
        return {"tried": 0, "answers": {}, "note": "no large log was opened"}
    with _client(ATTACKER) as c:
        t = time.perf_counter()
        r = c.get(f"{base}/api/debug/logs/{log_id}/records", params={"as": "referee"})
        took = time.perf_counter() - t
    return {"tried": 1, "answers": {str(r.status_code): 1}, "answer_mib": round(len(r.content) / MiB, 1),
            "seconds": round(took, 2)}


def _served(base: str) -> tuple[bool, float]:
    """Is a real client (:data:`VICTIM`) served now, and how long did it take (s)?"""
    t = time.perf_counter()
    try:
        with httpx.Client(transport=httpx.HTTPTransport(local_address=VICTIM), timeout=10) as c:
            ok = c.get(f"{base}/api").status_code == 200
    except httpx.HTTPError:
        ok = False
    return ok, round(time.perf_counter() - t, 3)


def hold_connections(port: int, base: str, count: int, seconds: float, trickle: bool) -> dict[str, Any]:
    """``count`` connections that send their headers a byte a second (``trickle``) or nothing, for ``seconds``."""
    sel = selectors.DefaultSelector()
    refused = 0
    socks: list[socket.socket] = []
    for _ in range(count):
        s = socket.socket()
        s.setblocking(False)
        try:
            s.connect_ex(("127.0.0.1", port))
        except OSError:
            refused += 1
            s.close()
            continue
        socks.append(s)
        sel.register(s, selectors.EVENT_READ)
    closed: set[socket.socket] = set()
    start = time.perf_counter()
    head = b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
    sent = 0
    while time.perf_counter() - start < seconds:
        for key, _ in sel.select(timeout=0.2):
            s = key.fileobj
            assert isinstance(s, socket.socket)
            try:
                if s.recv(65536) == b"":
                    closed.add(s)
                    sel.unregister(s)
            except OSError:
                closed.add(s)
                sel.unregister(s)
        if trickle and time.perf_counter() - start >= sent:
            for s in socks:
                if s not in closed:
                    try:
                        s.send(head if sent == 0 else b"a")
                    except OSError:
                        closed.add(s)
                        with_key = sel.get_map().get(s)
                        if with_key is not None:
                            sel.unregister(s)
            sent += 1
    served = _served(base)
    still_open = len(socks) - len(closed)
    for s in socks:
        s.close()
    sel.close()
    return {"tried": count, "answers": {"connect_failed": refused, "closed_by_server": len(closed),
                                        "still_open": still_open},
            "real_client_served": served[0], "real_client_seconds": served[1]}


def big_headers(port: int, base: str, size: int) -> dict[str, Any]:
    """Three requests with a ``size``-byte header each, at once."""
    def one() -> str:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=120) as s:
                s.sendall(b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
                chunk = b"a" * MiB
                for _ in range(size // MiB):
                    s.sendall(chunk)
                s.sendall(b"\r\n\r\n")
                answer = s.recv(65536)
                return answer.split(b" ")[1].decode() if answer else "closed"
        except OSError as e:
            return type(e).__name__

    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        answers = Counter(pool.map(lambda _: one(), range(3)))
    served = _served(base)
    return {"tried": 3, "answers": dict(answers), "real_client_served": served[0]}


# -- the run --------------------------------------------------------------------------------------------


def _summary(ms: list[float]) -> dict[str, Any]:
    if not ms:
        return {"n": 0}
    ordered = sorted(ms)
    return {"n": len(ms), "median": round(statistics.median(ms), 1),
            "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1), "max": round(ordered[-1], 1)}


def run_profile(name: str, quick: bool, logs: dict[str, bytes]) -> list[dict[str, Any]]:
    """Every attack against a fresh server of profile ``name``; one result per attack."""
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(str(Path(tmp) / "attacks.db"), PROFILES[name])
        bystander = Bystander(server.base)
        try:
            deadline = time.monotonic() + 60
            while len(bystander.samples) < 20 and time.monotonic() < deadline:
                time.sleep(0.1)
            hold = 6.0 if quick else 13.0
            attacks: list[tuple[str, Any]] = [
                ("create_flood", lambda: create_flood(server.base, 3.0 if quick else 8.0)),
                ("debugger_uploads", lambda: debugger_uploads(server.base, logs["big"], logs["near"], logs["small"])),
                ("full_timeline", lambda: full_timeline(server.base, largest)),
                ("slow_headers", lambda: hold_connections(server.port, server.base, 300, hold, trickle=True)),
                ("silent", lambda: hold_connections(server.port, server.base, 300, hold, trickle=False)),
                ("big_headers", lambda: big_headers(server.port, server.base, (4 if quick else 32) * MiB)),
            ]
            largest: str | None = None
            quiet_start = time.perf_counter() - 5
            results.append({"profile": name, "attack": "none (baseline)", "tried": 0,
                            "rss_mib_after": round(server.rss_mib(), 1),
                            "bystander_ms": _summary(bystander.during(quiet_start, time.perf_counter())),
                            "bystander_samples": bystander.during(quiet_start, time.perf_counter())})
            for attack, run in attacks:
                rss_before, cpu_before, start = server.rss_mib(), server.cpu_s(), time.perf_counter()
                outcome = run()
                end = time.perf_counter()
                largest = outcome.pop("_largest", largest)
                samples = bystander.during(start, end)
                results.append({"profile": name, "attack": attack, **outcome, "seconds": round(end - start, 2),
                                "rss_mib_before": round(rss_before, 1), "rss_mib_after": round(server.rss_mib(), 1),
                                "server_cpu_s": round(server.cpu_s() - cpu_before, 2),
                                "bystander_ms": _summary(samples), "bystander_samples": samples,
                                "bystander_failures": [f for t, f in bystander.failures if start <= t <= end]})
                print(json.dumps({k: v for k, v in results[-1].items() if k != "bystander_samples"}), flush=True)
        finally:
            bystander.stop()
            server.stop()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter attacks and smaller logs")
    parser.add_argument("--profile", choices=[*PROFILES, "both"], default="both")
    parser.add_argument("--out", help="write every result, every bystander sample included, to this JSON file")
    args = parser.parse_args(argv)
    print(json.dumps({"load_average": os.getloadavg(), "cpus": os.cpu_count(), "fd_limit": FD_LIMIT,
                      "python": sys.version.split()[0]}), flush=True)
    big = dense_log((4 if args.quick else 16) * MiB - 4096)
    logs = {"big": big, "near": dense_log(448 * 1024),
            "small": Match.start("liars-dice", 2, seed=3).to_bytes()}
    results: list[dict[str, Any]] = []
    for name in (PROFILES if args.profile == "both" else [args.profile]):
        results += run_profile(name, args.quick, logs)
    print(json.dumps({"load_average": os.getloadavg(), "attacks_tried": sum(r["tried"] for r in results),
                      "attacks": sum(1 for r in results if r["tried"])}), flush=True)
    print()
    print(f"{'profile':9} {'attack':16} {'tried':>6}  {'answers':44} {'RSS MiB':>15} {'bystander ms: n med p95 max':>30}")
    for r in results:
        b = r["bystander_ms"]
        lat = f"{b['n']:4} {b.get('median', '-'):>7} {b.get('p95', '-'):>7} {b.get('max', '-'):>7}"
        rss = f"{r.get('rss_mib_before', '')}->{r['rss_mib_after']}"
        answers = json.dumps(r.get("answers", {}), separators=(",", ":"))[:44]
        print(f"{r['profile']:9} {r['attack']:16} {r['tried']:>6}  {answers:44} {rss:>15} {lat:>30}")
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
