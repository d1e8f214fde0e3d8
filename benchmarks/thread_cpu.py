"""Where a server's CPU goes, by thread and by step of the catch-up: ``server_load.py --anchor`` with a probe.

    python benchmarks/thread_cpu.py --servers postgresql,postgresql2 --games kings,liars-dice --repeat 2
    python benchmarks/thread_cpu.py --servers postgresql@base,postgresql2@base,postgresql,postgresql2 \
        --baseline base=../meeple-before --games kings --repeat 2

Runs ``server_load.py --anchor`` on a copy of this checkout's ``src`` (or
``--tree``'s) whose server starts a probe: it reads the CPU time of every
thread from ``/proc/self/task`` by thread name, and times (thread CPU,
``time.thread_time``) the steps of a catch-up: the listening thread's
handling of a notification, the engine thread's reading of the inbox
(``Peers._drain``), ``Peers.refresh``, ``store.catch_up`` and the clients'
messages (``Table.catch_up``), beside the messages of a process's own
commands (``Table.broadcast``). Every figure is in ms per command played,
over the whole life of the server processes (match creation and
connections included, so a little above the benchmark's own CPU per
command); the load average is printed beside each sample. A server ending in
``@NAME`` runs the checkout ``--baseline NAME=PATH`` names (with the same
probe), so that code before and after a change is measured side by side, in
rounds. ``benchmarks/processes_model.py`` reads its lines as it reads
``server_load.py``'s (``--one postgresql@base --two postgresql2@base`` for
the baseline). Linux only.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

PROBE = '''
"""The probe of benchmarks/thread_cpu.py (a copy of the tree made for a measurement only)."""
import collections, functools, json, os, threading, time
TICK = os.sysconf("SC_CLK_TCK")
_acc = collections.defaultdict(lambda: [0, 0.0])
_lock = threading.Lock()


def _wrap(cls, name, label):
    fn = getattr(cls, name, None)
    if fn is None:
        return
    @functools.wraps(fn)
    def timed(*args, **kwargs):
        t = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent = time.thread_time() - t
            with _lock:
                got = _acc[label]
                got[0] += 1
                got[1] += spent
    setattr(cls, name, timed)


def _ticks(path):
    fields = open(path).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def install():
    from meeple.server import peers, table
    from meeple.store import _sql, postgres
    _wrap(postgres._Listen, "_handle", "listener: a notification")
    _wrap(peers.Peers, "_drain", "engine: read the inbox")
    _wrap(peers.Peers, "refresh", "engine: refresh a table")
    _wrap(_sql.SqlStore, "catch_up", "engine: store.catch_up")
    _wrap(table.Table, "catch_up", "engine: messages of a catch-up")
    _wrap(table.Table, "broadcast", "engine: messages of an own command")
    where = os.path.join(os.environ["MEEPLE_PROBE_DIR"], f"{os.getpid()}.json")

    def dump():
        while True:
            time.sleep(0.25)
            out = {"threads": collections.Counter(), "process": _ticks("/proc/self/stat")}
            for t in threading.enumerate():
                try:
                    out["threads"][t.name] += _ticks(f"/proc/self/task/{t.native_id}/stat")
                except (OSError, TypeError):
                    pass
            with _lock:
                out["steps"] = {k: list(v) for k, v in _acc.items()}
            with open(where + ".tmp", "w") as f:
                json.dump(out, f)
            os.replace(where + ".tmp", where)
    threading.Thread(target=dump, daemon=True, name="probe").start()
'''
HOOK = "    args = parser.parse_args(argv)\n"


def probed_copy(tree: Path, into: Path) -> Path:
    """A copy of ``tree``'s src and examples whose ``meeple.server.run.main`` starts the probe."""
    for part in ("src", "examples"):
        shutil.copytree(tree / part, into / part, ignore=shutil.ignore_patterns("__pycache__"))
    (into / "src" / "_thread_probe.py").write_text(PROBE)
    run = into / "src" / "meeple" / "server" / "run.py"
    text = run.read_text()
    if HOOK not in text:
        raise SystemExit(f"{run}: no place for the probe (its main() changed)")
    run.write_text(text.replace(HOOK, HOOK + "    import _thread_probe\n    _thread_probe.install()\n", 1))
    return into


def role(thread: str) -> str:
    """A thread's part: the event loop, an engine thread, the listening thread, or other."""
    if thread == "MainThread":
        return "event loop"
    if thread.startswith("meeple-engine"):
        return "engine threads"
    if thread.startswith("meeple-listen"):
        return "listener"
    return "probe" if thread == "probe" else "other"


def sample(config: str, game: str, clients: int, copies: dict[str, Path], probes: Path) -> dict[str, Any]:
    """One run of ``config`` (``KIND`` or ``KIND@NAME``) on its probed copy: the benchmark's figures and the
    probe's, per command."""
    for f in probes.glob("*.json"):
        f.unlink()
    kind, _, name = config.partition("@")
    copy = copies[name or "probe"]
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "server_load.py"), "--anchor", "--clients",
                           str(clients), "--servers", f"{kind}@probe", "--baseline", f"probe={copy}", "--games", game],
                          capture_output=True, text=True, env=dict(os.environ, MEEPLE_PROBE_DIR=str(probes)))
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if not rows or "commands" not in rows[0]:
        raise SystemExit(f"{config} {game}: no figures ({(done.stdout + done.stderr)[-400:]})")
    row = rows[0]
    n = row["commands"]
    threads: collections.Counter[str] = collections.Counter()
    steps: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0])
    process = 0.0
    for f in probes.glob("*.json"):
        got = json.loads(f.read_text())
        process += got["process"]
        for name, cpu in got["threads"].items():
            threads[role(re.sub(r"_\d+$", "", name))] += cpu
        for label, (calls, cpu) in got["steps"].items():
            steps[label][0] += calls
            steps[label][1] += cpu
    return {"config": config, "game": game, "commands": n, "commands_per_s": row["commands_per_s"],
            # (processes_model.py reads these lines as it reads server_load.py's, and leaves out a sample with
            # a command unanswered or refused)
            "unanswered": row.get("unanswered"), "refused": row.get("refused"),
            "server_cpu_ms_per_command": row["server_cpu_ms_per_command"],
            "probe_process_ms_per_command": round(1000 * process / n, 3),
            "threads_ms_per_command": {k: round(1000 * v / n, 3) for k, v in sorted(threads.items())},
            "steps": {k: {"calls_per_command": round(c / n, 3), "ms_per_command": round(1000 * t / n, 3)}
                      for k, (c, t) in sorted(steps.items())},
            "load_average": row["load_average"]}


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose server is measured (default: this)")
    parser.add_argument("--servers", default="postgresql,postgresql2")
    parser.add_argument("--games", default="kings")
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--baseline", action="append", default=[], metavar="NAME=PATH",
                        help="another checkout, measured where a server ends in @NAME")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    trees = {"probe": args.tree} | {name: Path(path) for name, _, path in (b.partition("=") for b in args.baseline)}
    with tempfile.TemporaryDirectory(prefix="meeple-probe-") as tmp:
        copies = {name: probed_copy(tree.resolve(), Path(tmp) / f"tree-{name}") for name, tree in trees.items()}
        probes = Path(tmp) / "probes"
        probes.mkdir()
        for _ in range(args.repeat):
            for game in args.games.split(","):
                for config in args.servers.split(","):
                    rows.append(sample(config, game, args.clients, copies, probes))
                    print(json.dumps(rows[-1]), flush=True)
    for game in args.games.split(","):
        for config in args.servers.split(","):
            got = [r for r in rows if r["config"] == config and r["game"] == game]
            loads = [r["load_average"][0] for r in got]
            print(f"\n{config} {game}: {len(got)} samples, load {min(loads):.1f}-{max(loads):.1f}; ms per command, "
                  "median (lowest-highest)")
            def line(label: str, values: list[float]) -> None:
                print(f"  {label:<40}{statistics.median(values):7.3f} ({min(values):.3f}-{max(values):.3f})")
            line("server CPU (the benchmark's)", [r["server_cpu_ms_per_command"] for r in got])
            line("process CPU (whole life)", [r["probe_process_ms_per_command"] for r in got])
            for name in sorted({k for r in got for k in r["threads_ms_per_command"]}):
                line(f"  thread: {name}", [r["threads_ms_per_command"].get(name, 0.0) for r in got])
            for label in sorted({k for r in got for k in r["steps"]}):
                line(f"  {label} ({statistics.median(r['steps'].get(label, {}).get('calls_per_command', 0) for r in got):.2f}/cmd)",
                     [r["steps"].get(label, {}).get("ms_per_command", 0.0) for r in got])
    return 0


if __name__ == "__main__":
    sys.exit(main())
