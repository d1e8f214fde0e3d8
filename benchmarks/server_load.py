"""Load on the server: many matches and clients at once, over real sockets on loopback.

Run it with ``nox -s server_load`` (or ``python benchmarks/server_load.py``;
``--quick`` for a short run). For each store configuration it starts real
server processes (``python -m meeple.server``), creates ``--matches``
matches of the bundled games, each with two scripted seats, one bot seat and
a spectator, and lets every scripted seat play random legal commands until
every match is over. With two processes, a match's connections are either
spread over both (every command then reaches the other process through the
store's notification) or all on one ("sticky", as a load balancer that
routes by match id would place them). It reports:

* commands/s end to end: every player command committed (the scripted
  seats' and the bots'), over the wall time from the first command to the
  last match's end;
* latency, p50 and p99: from a scripted seat sending a command to the last
  connection of its match (seats, spectator) receiving the position after
  it; measured in the client process, whose own clock all connections share.

Configurations, side by side in one run (``--only`` picks): SQLite with one
server process (durability fsync and flush), SQLite with two, PostgreSQL
with one and with two, spread and sticky (a throw-away cluster started as
the test suite starts one, or ``MEEPLE_BENCH_POSTGRES=postgresql://...``). All
clients run in this one process, on one event loop: on a small machine the
clients' own work is part of what is measured, so the figures are a floor,
and the ratios between configurations are what carries over.

``--anchor`` runs the side-by-side comparison of issue #29 instead: Liar's
Dice (5 dice of 12 faces each, 121 commands a match), two seats per match,
one WebSocket per seat, every client answering its turn at once, driven by
an independent load generator in Node (``benchmarks/anchor/loadgen.mjs``,
the same program for every server) at each of ``--clients``. Servers:
meeple on SQLite (fsync, flush) and PostgreSQL; boardgame.io 0.50's own
server (Koa + socket.io, in memory and FlatFile) with the same rules
(``benchmarks/anchor/liars_dice.mjs``), installed from the npm registry into
a temporary directory by this script; and the floor, a bare
Starlette/uvicorn relay speaking meeple's protocol with no rules and no
store (``benchmarks/anchor/relay.py``). Without Node and npm the
boardgame.io and relay rows are skipped with a line saying so. Each row
gives commands/s, p50/p99 from send to the sender's acknowledgement and to
the other seat's update, the server's CPU time per command (from
``/proc``; split into the event loop's thread, the engine threads and the
rest), bytes received per command, and the load average at its end. The
load generator speaks protocol 2 (deltas, applied with the browser's
``delta.js``) to a meeple that speaks it, protocol 1 to an older one (``@base``).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from meeple.server.client import ClientError, Lobby, Seat  # noqa: E402

#: The tables of the load: (game, seats, options); seat 0 and 1 are scripted, the last a bot.
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("kings", 3, {}),
    ("mordred", 3, {}),
    ("gophers", 3, {}),
    ("saboteur", 3, {"edition": "deluxe"}),
]


class TimedSeat(Seat):
    """A connection that notes when each position message arrives, and at which cursor."""

    def __init__(self, socket: Any) -> None:
        super().__init__(socket)
        self.arrivals: list[tuple[float, int]] = []

    def apply(self, msg: dict[str, Any]) -> None:
        if msg.get("type") in ("sync", "update", "rewind"):
            self.arrivals.append((time.perf_counter(), msg["cursor"]))
        super().apply(msg)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m meeple.server`` on a store, in a process of its own."""

    def __init__(self, store: str, durability: str) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        self.proc = subprocess.Popen([sys.executable, "-m", "meeple.server", "--store", store, "--port",
                                      str(self.port), "--log-level", "warning", "--durability", durability,
                                      # one loopback address plays every client: no per-client rates or caps
                                      "--no-rate-limits", "--max-connections-per-ip", "0"], env=env)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(self.base + "/", timeout=1):
                    return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.05)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


async def _match(servers: list[Server], i: int, sticky: bool) -> tuple[list[TimedSeat], list[TimedSeat]]:
    """Create match ``i`` and connect its seats and a spectator: all to one process if ``sticky``, else spread."""
    game, seats, options = TABLES[i % len(TABLES)]
    lobby = Lobby(servers[i % len(servers)].base)

    def host(k: int) -> Lobby:
        return Lobby(servers[(i if sticky else i + k) % len(servers)].base)

    m = await asyncio.to_thread(lobby.create, game=game, seats=seats, options=options,
                                bots={str(seats - 1): "random"})
    players: list[TimedSeat] = []
    for s in range(seats - 1):
        joined = await asyncio.to_thread(lobby.join, m["id"], s)
        seat = await TimedSeat.connect(host(s).ws_url(joined), joined["token"])
        players.append(seat)
    watcher = await TimedSeat.connect(host(1).ws_url(m["id"]))
    return players, [*players, watcher]


async def _play(seat: TimedSeat, everyone: list[TimedSeat], rng: random.Random, sent: list[tuple[float, int, list[TimedSeat]]]) -> None:
    while seat.outcome is None:
        if not seat.legal:
            await seat.next(120)
            continue
        t = time.perf_counter()
        try:
            update = await seat.play(rng.choice(seat.legal), timeout=120)
        except ClientError as e:
            if e.code in ("stale_cursor", "not_your_turn", "conflict"):
                continue
            raise
        sent.append((t, update["cursor"], everyone))


def _latencies(sent: list[tuple[float, int, list[TimedSeat]]]) -> list[float]:
    out = []
    for t, cursor, everyone in sent:
        last = 0.0
        for conn in everyone:
            seen = next((at for at, c in conn.arrivals if at >= t and c >= cursor), None)
            if seen is None:
                break
            last = max(last, seen)
        else:
            out.append(last - t)
    return out


async def _load(servers: list[Server], matches: int, seed: int, sticky: bool) -> dict[str, Any]:
    rng = random.Random(seed)
    tables = [await _match(servers, i, sticky) for i in range(matches)]
    for _, everyone in tables:
        for conn in everyone:
            conn.arrivals = []
    watchers = [everyone[-1] for _, everyone in tables]
    before = sum(sum(1 for r in w.records if r["actor"] >= 0) for w in watchers)
    sent: list[tuple[float, int, list[TimedSeat]]] = []
    start = time.perf_counter()
    await asyncio.gather(*(_play(p, everyone, random.Random(rng.random()), sent)
                           for players, everyone in tables for p in players),
                         *(w.until(lambda s: s.outcome is not None, 600) for w in watchers))
    wall = time.perf_counter() - start
    commands = sum(sum(1 for r in w.records if r["actor"] >= 0) for w in watchers) - before
    for _, everyone in tables:
        for conn in everyone:
            await conn.close()
    lat = sorted(_latencies(sent))
    return {
        "matches": matches,
        "connections": sum(len(e) for _, e in tables),
        "commands": commands,
        "scripted_commands": len(sent),
        "wall_s": round(wall, 2),
        "commands_per_s": round(commands / wall, 1),
        "latency_p50_ms": round(1000 * statistics.median(lat), 1),
        "latency_p99_ms": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 1),
    }


def _postgres() -> tuple[str | None, Any, str]:
    """A PostgreSQL address, the throw-away server to remove afterwards (or None), and why there is none."""
    if os.environ.get("MEEPLE_BENCH_POSTGRES"):
        return os.environ["MEEPLE_BENCH_POSTGRES"], None, ""
    spec = importlib.util.spec_from_file_location("meeple_test_conftest", ROOT / "tests" / "conftest.py")
    assert spec is not None and spec.loader is not None
    conftest = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(conftest)
        server = conftest._started_server()
    except BaseException as e:  # pytest.skip raises an exception that is not an Exception
        return None, None, str(e)
    return server.url(), server, ""


# -- the side-by-side anchor (issue #29) -----------------------------------------------------------

ANCHOR = ROOT / "benchmarks" / "anchor"
#: what the anchor installs from the npm registry (boardgame.io 0.50's server and client, ws for meeple)
NPM_PACKAGES = ["boardgame.io@0.50", "ws@8", "node-persist@2"]
DICE, SIDES = 5, 12


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (and its waited-for children), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(f) for f in fields[11:15])
    return ticks / os.sysconf("SC_CLK_TCK")


def _thread_cpu(pid: int) -> dict[str, float]:
    """A process's CPU seconds by part: ``loop`` (its main thread, the event loop), ``engine`` (the threads
    named ``meeple-engine-*``) and ``all`` (every thread, ended ones too); from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {"loop": 0.0, "engine": 0.0, "all": _cpu_seconds(pid)}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except OSError:  # the thread ended meanwhile
            continue
        name, fields = stat[stat.index("(") + 1:stat.rindex(")")], stat.rsplit(")", 1)[1].split()
        seconds = (int(fields[11]) + int(fields[12])) / tick
        if task.name == str(pid):
            out["loop"] += seconds
        elif name.startswith("meeple-engine"):
            out["engine"] += seconds
    return out


def _wait_http(url: str, proc: subprocess.Popen[Any]) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except urllib.error.HTTPError:
            return  # it answers
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server at {url} did not start") from None
            time.sleep(0.05)


def _npm_dir(tmp: str) -> tuple[Path | None, str]:
    """A directory with the anchor's npm packages installed, or None and why not."""
    import shutil

    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        return None, "Node.js and npm are not on PATH: the boardgame.io anchor and the relay floor are skipped"
    where = Path(tmp) / "npm"
    where.mkdir()
    for f in ANCHOR.glob("*.mjs"):
        (where / f.name).write_bytes(f.read_bytes())
    # the load generator applies deltas as the browser does (an ES module: .mjs outside a package of modules)
    (where / "delta.mjs").write_bytes((ROOT / "src" / "meeple" / "web" / "static" / "js" / "delta.js").read_bytes())
    done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--silent", *NPM_PACKAGES], cwd=where,
                          capture_output=True, text=True)
    if done.returncode != 0:
        return None, f"npm install {' '.join(NPM_PACKAGES)} failed: {done.stderr.strip()[:300]}"
    return where, ""


def _start(config: str, tmp: str, npm: Path, pg: str | None,
           baselines: dict[str, Path]) -> tuple[list[subprocess.Popen[Any]], str, str]:
    """Start the server(s) of ``config``: their processes, their base addresses (comma-separated), which load they speak.

    A meeple configuration ending in ``@NAME`` runs the meeple of the checkout ``--baseline NAME=PATH`` names;
    one whose store kind ends in a number (``postgresql2``) runs that many processes on one store.
    """
    root = ROOT
    if "@" in config:
        config, name = config.split("@", 1)
        root = baselines[name]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root / "src"), str(root / "examples")]))
    if config.startswith("bgio"):
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        extra = ["flatfile", str(Path(tmp) / f"bgio-{port}")] if config == "bgio-flatfile" else []
        proc = subprocess.Popen(["node", "bgio_server.mjs", str(port), str(DICE), str(SIDES), *extra], cwd=npm,
                                stdout=subprocess.DEVNULL)
        _wait_http(base + "/games", proc)
        return [proc], base, "bgio"
    if config == "relay":
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        proc = subprocess.Popen([sys.executable, str(ANCHOR / "relay.py"), str(port), str(DICE), str(SIDES)], env=env)
        _wait_http(base + "/", proc)
        return [proc], base, "relay"
    kind, *flags = config.split("-")
    durability = "flush" if "flush" in flags else "fsync"
    count = int(kind[len(kind.rstrip("0123456789")):] or 1)
    kind = kind.rstrip("0123456789")
    if kind == "postgresql":
        assert pg is not None
        store = f"{pg}{'&' if '?' in pg else '?'}schema=anchor_{uuid.uuid4().hex[:8]}"
    else:
        store = str(Path(tmp) / f"anchor-{uuid.uuid4().hex[:8]}.db")
    serve = "import sys, liars_dice; from meeple.server.run import main; sys.exit(main(sys.argv[1:]))"
    procs, bases = [], []
    for _ in range(count):
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        proc = subprocess.Popen([sys.executable, "-c", serve, "--store", store, "--port", str(port), "--log-level",
                                 "warning", "--durability", durability,
                                 # one loopback address plays every client: no per-client rates or caps
                                 "--no-rate-limits", "--max-connections-per-ip", "0"], env=env)
        procs.append(proc)
        _wait_http(base + "/", proc)
        bases.append(base)
    return procs, ",".join(bases), "meeple"


def _anchor_one(config: str, clients: int, tmp: str, npm: Path, pg: str | None,
                baselines: dict[str, Path], game: str = "liars-dice") -> dict[str, Any]:
    procs, base, speaks = _start(config, tmp, npm, pg, baselines)
    try:
        gen = subprocess.Popen(["node", "loadgen.mjs", speaks, base, str(clients), str(DICE), str(SIDES), game],
                               cwd=npm, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert gen.stdin is not None and gen.stdout is not None
        line = gen.stdout.readline()
        if line.strip() != "ready":
            raise RuntimeError(f"the load generator failed before the start ({config}, {clients} clients)")
        before = [_thread_cpu(p.pid) for p in procs]
        gen.stdin.write("go\n")
        gen.stdin.flush()
        result = json.loads(gen.stdout.readline())
        after = [_thread_cpu(p.pid) for p in procs]
        parts = {k: sum(a[k] - b[k] for a, b in zip(after, before, strict=True)) for k in ("all", "loop", "engine")}
        cpu = parts["all"]
        gen.wait(timeout=60)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
    result.pop("target", None)
    per = 1000 / max(1, result["commands"])
    return {"config": config, **result, "server_cpu_ms_per_command": round(per * cpu, 3),
            # the same split by thread: the event loop (main thread), the engine threads, the rest (listeners,
            # the executor's other threads, ended ones); an engine of old or another server has no engine row
            "cpu_ms_loop": round(per * parts["loop"], 3), "cpu_ms_engine": round(per * parts["engine"], 3),
            "cpu_ms_rest": round(per * (cpu - parts["loop"] - parts["engine"]), 3),
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def anchor(clients: list[int], only: list[str], baselines: dict[str, Path] | None = None, repeat: int = 1,
           games: tuple[str, ...] = ("liars-dice",)) -> int:
    """The side-by-side run of the module docstring (``--anchor``): one JSON line per sample, then a table.

    With ``repeat``, every configuration runs that many times, in rounds (each round runs them all, one
    after the other), so a change in the machine's load falls on all of them alike; the table gives the
    median of each figure and the spread (lowest-highest) of commands/s. ``games`` other than Liar's Dice
    run on meeple only (boardgame.io and the relay know Liar's Dice alone).
    """
    baselines = baselines or {}
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="meeple-anchor-") as tmp:
        npm, why = _npm_dir(tmp)
        pg, pg_server, why_pg = (None, None, "not asked for")
        if any(c.startswith("postgresql") for c in only):
            pg, pg_server, why_pg = _postgres()
        try:
            for n, _, game, config in ((n, r, g, c) for n in clients for r in range(repeat) for g in games
                                       for c in only):
                if npm is None:
                    print(json.dumps({"config": config, "clients": n, "skipped": why}), flush=True)
                    continue
                if config.startswith("postgresql") and pg is None:
                    print(json.dumps({"config": config, "clients": n, "skipped": why_pg}), flush=True)
                    continue
                if game != "liars-dice" and (config.startswith("bgio") or config == "relay"):
                    continue
                row = _anchor_one(config, n, tmp, npm, pg, baselines, game)
                rows.append(row)
                print(json.dumps(row), flush=True)
        finally:
            if pg_server is not None:
                pg_server.remove()
    if rows:
        print(f"\n{'server':<22}{'game':>11}{'clients':>8}{'cmd/s':>9}{'spread':>12}{'ack p50':>9}{'ack p99':>9}{'fan p99':>9}"
              f"{'cpu ms':>8}{'loop':>6}{'engine':>7}{'rest':>6}{'B/cmd':>8}{'load':>7}{'n':>3}")
        for n, game, config in ((n, g, c) for n in clients for g in games for c in only):
            got = [r for r in rows if r["config"] == config and r["clients"] == n and r["game"] == game]
            if not got:
                continue

            def med(key: str, got: list[dict[str, Any]] = got) -> Any:
                values = [r[key] for r in got if r[key] is not None]
                return round(statistics.median(values), 3) if values else "-"

            rates = [r["commands_per_s"] for r in got]
            print(f"{config:<22}{game:>11}{n:>8}{med('commands_per_s'):>9}{f'{min(rates):.0f}-{max(rates):.0f}':>12}"
                  f"{med('ack_p50_ms'):>9}{med('ack_p99_ms'):>9}{med('fanout_p99_ms'):>9}"
                  f"{med('server_cpu_ms_per_command'):>8}{med('cpu_ms_loop'):>6}{med('cpu_ms_engine'):>7}"
                  f"{med('cpu_ms_rest'):>6}{med('bytes_per_command'):>8}"
                  f"{statistics.median(r['load_average'][0] for r in got):>7.1f}{len(got):>3}")
        print(f"\nLiar's Dice {DICE} dice of {SIDES} faces, 2 seats a match; python {sys.version.split()[0]}, "
              f"{os.cpu_count()} cores")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run every configuration and print one JSON line each, then a table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--anchor", action="store_true",
                        help="the side-by-side Liar's Dice run against boardgame.io and the relay floor")
    parser.add_argument("--clients", default="10,100,200", help="--anchor: client counts, comma-separated")
    parser.add_argument("--servers", default="relay,sqlite,sqlite-flush,postgresql,bgio-memory,bgio-flatfile",
                        help="--anchor: servers, comma-separated; a meeple one ending in @base runs --baseline")
    parser.add_argument("--baseline", action="append", default=[], metavar="NAME=PATH",
                        help="--anchor: another meeple checkout's root, for the servers ending in @NAME (e.g. "
                             "base=../main); may be repeated")
    parser.add_argument("--games", default="liars-dice",
                        help="--anchor: games, comma-separated (liars-dice, kings, ...; others on meeple only)")
    parser.add_argument("--repeat", type=int, default=1, help="--anchor: samples of every configuration, in rounds")
    parser.add_argument("--matches", type=int, default=None, help="matches at once (default 32; --quick 12)")
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--seed", type=int, default=1, help="seed of the scripted seats' choices")
    parser.add_argument("--only", default="sqlite,sqlite-flush,sqlite2,postgresql,postgresql2,postgresql2-sticky",
                        help="configurations, comma-separated: sqlite or postgresql, 2 for two server processes, "
                             "-flush for durability flush (default fsync), -sticky to serve each match from one "
                             "process (default: its connections spread over both)")
    args = parser.parse_args(argv)
    if args.anchor:
        baselines = {name: Path(path) for name, _, path in (b.partition("=") for b in args.baseline)}
        return anchor([int(c) for c in args.clients.split(",")], args.servers.split(","), baselines, args.repeat,
                      tuple(args.games.split(",")))
    matches = args.matches or (12 if args.quick else 32)
    results = []
    with tempfile.TemporaryDirectory(prefix="meeple-load-") as tmp:
        pg, pg_server, why = (None, None, "not asked for")
        if "postgresql" in args.only:
            pg, pg_server, why = _postgres()
        try:
            for config in args.only.split(","):
                if config.startswith("postgresql"):
                    if pg is None:
                        print(json.dumps({"config": config, "skipped": why}), flush=True)
                        continue
                    sep = "&" if "?" in pg else "?"
                    store = f"{pg}{sep}schema=load_{uuid.uuid4().hex[:8]}"
                else:
                    store = str(Path(tmp) / f"{config}.db")
                kind, *flags = config.split("-")
                durability = "flush" if "flush" in flags else "fsync"
                sticky = "sticky" in flags
                count = 2 if kind.endswith("2") else 1
                servers = [Server(store, durability)]
                servers += [Server(store, durability) for _ in range(count - 1)]
                try:
                    figures = asyncio.run(_load(servers, matches, args.seed, sticky))
                finally:
                    for s in servers:
                        s.stop()
                figures = {"config": config, "store": kind.rstrip("2"), "durability": durability, "processes": count,
                           "spread": count > 1 and not sticky, **figures}
                results.append(figures)
                print(json.dumps(figures), flush=True)
        finally:
            if pg_server is not None:
                pg_server.remove()
    if results:
        base = results[0]["commands_per_s"]
        print(f"\n{'configuration':<50}{'commands/s':>12}{'ratio':>8}{'p50 ms':>9}{'p99 ms':>9}{'commands':>10}")
        for r in results:
            name = f"{r['store']} {r['durability']}, {r['processes']} process{'es' if r['processes'] > 1 else ''}"
            if r["processes"] > 1:
                name += ", matches spread" if r["spread"] else ", each match on one"
            print(f"{name:<50}{r['commands_per_s']:>12}{r['commands_per_s'] / base:>8.2f}"
                  f"{r['latency_p50_ms']:>9}{r['latency_p99_ms']:>9}{r['commands']:>10}")
        print(f"\n{matches} matches at once, {results[0]['connections']} connections; "
              f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
