"""Environment actions per CPU-second, side by side with PettingZoo's ``tictactoe_v3``, in one run.

Every environment plays the same workload: a masked random agent in the
AEC loop every PettingZoo user writes (``env.last()``, a uniform choice
among the actions whose mask is 1, ``env.step``), ``--actions`` actions a
sample, resetting with the next seed when a match ends. The legal actions
are found as Gymnasium's ``Discrete.sample(mask)`` finds them, the
indices where ``mask == 1`` (a ``bool`` array, which NumPy scans in bulk;
``np.flatnonzero`` of the ``int8`` mask itself calls the dtype's test once
per entry), and one is drawn with ``random.Random`` (the sampler's own
``np.random.Generator.choice`` costs about as much as a whole action of
``tictactoe_v3``, whatever the space: the agent's cost, not the
environment's). The samples are
interleaved (one of each environment, then the next round), so load on the
machine moves them together; every sample is kept and printed. The ratio to
``tictactoe_v3`` is taken per round, then its median and range reported.
``raw`` is the engine alone, the same random play through ``Match`` with
no environment, for what the environment costs on top of it: where the
engine alone is slower than ``tictactoe_v3``'s whole environment, no
environment over it can match that. ``saboteur steps`` is Saboteur with
``actions="steps"``, where an action is one step of a command.

    python benchmarks/rl_env.py --rounds 5 --actions 2000
    python benchmarks/rl_env.py --rounds 21 --actions 2000 --only gophers
    python benchmarks/rl_env.py --instructions --actions 1000

One JSON line per sample, then a Markdown table. ``--instructions`` counts
the instructions per action of each workload under ``valgrind
--tool=callgrind`` instead (a run of the actions less a run of none, each
in a fresh Python with ``PYTHONHASHSEED=0``): a figure the load on a shared
machine does not move.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))



def _anchor() -> Any:
    """PettingZoo's ``tictactoe_v3``, installing pygame (which its module imports) into this interpreter if missing."""
    try:
        from pettingzoo.classic import tictactoe_v3
    except ModuleNotFoundError as e:
        if e.name != "pygame":
            raise
        print("rl_env: installing pygame, which PettingZoo's tictactoe_v3 imports", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "pygame"], check=True)
        from pettingzoo.classic import tictactoe_v3
    return tictactoe_v3


tictactoe_v3 = _anchor()

import meeple.rl  # noqa: E402
from meeple.engine import ENGINE, Match  # noqa: E402
from meeple.examples import liars_dice  # noqa: E402, F401  (registers "liars-dice")

#: (label, game, seats, options, action space) of every environment measured.
TABLES: list[tuple[str, str, int, dict[str, Any], str]] = [
    ("saboteur", "saboteur", 4, {}, "flat"),
    ("saboteur steps", "saboteur", 4, {}, "steps"),
    ("kings", "kings", 2, {}, "flat"),
    ("gophers", "gophers", 2, {}, "flat"),
    ("mordred", "mordred", 3, {}, "flat"),
    ("liars-dice", "liars-dice", 2, {}, "flat"),
]


def aec_loop(make: Callable[[], Any], seed: int) -> Callable[[int], int]:
    """A workload: ``n`` actions of a masked random agent in the AEC loop, resetting when a match ends."""
    env = make()
    rng = random.Random(seed)
    state = {"seed": seed}
    env.reset(seed=seed)

    def run(n: int) -> int:
        done = 0
        while done < n:
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                if not env.agents:
                    state["seed"] += 1
                    env.reset(seed=state["seed"])
                continue
            legal = (obs["action_mask"] == 1).nonzero()[0]  # as Discrete.sample(mask) reads the mask
            env.step(int(legal[rng.randrange(len(legal))]))
            done += 1
        return done

    return run


def raw_loop(game: str, seats: int, options: dict[str, Any], seed: int) -> Callable[[int], int]:
    """The same random play through ``Match`` alone: legal commands, a uniform choice, play."""
    rng = random.Random(seed)
    seeds = [seed]
    matches = [Match.start(game, seats, seed=seed, options=options)]

    def run(n: int) -> int:
        done = 0
        while done < n:
            m = matches[0]
            acting = [s for s in m.to_act if s != ENGINE]
            if m.outcome is not None or not acting:
                seeds[0] += 1
                matches[0] = Match.start(game, seats, seed=seeds[0], options=options)
                continue
            legal = m.legal(acting[0])
            m.play(acting[0], legal[rng.randrange(len(legal))])
            done += 1
        return done

    return run


def workload(label: str, view: bool) -> Callable[[int], int]:
    """The workload of ``label``: ``tictactoe_v3``, an environment of :data:`TABLES`, or ``"<game> raw"``."""
    if label == "tictactoe_v3":
        return aec_loop(tictactoe_v3.env, 1)
    kw: dict[str, Any] = {} if view else {"view": False}  # the default keeps the view
    for name, game, seats, options, actions in TABLES:
        if label == name:
            return aec_loop(functools.partial(meeple.rl.env, game, seats=seats, options=options, actions=actions, **kw),
                            1)
        if label == f"{name} raw":
            return raw_loop(game, seats, options, 1)
    raise SystemExit(f"rl_env: no workload {label!r}")


def labels() -> list[str]:
    """Every workload's label, in the order measured."""
    out = ["tictactoe_v3"]
    for name, _game, _seats, _options, actions in TABLES:
        out.append(name)
        if actions == "flat":  # the engine alone is the same whatever the action space
            out.append(f"{name} raw")
    return out


def workloads(view: bool) -> dict[str, Callable[[int], int]]:
    """Every workload by its label."""
    return {label: workload(label, view) for label in labels()}


def inner(label: str, actions: int, view: bool) -> int:
    """Run one workload's warm-up and ``actions`` actions (in the process callgrind watches)."""
    work = workload(label, view)
    work(50)
    if actions:
        work(actions)
    return 0


def instructions(labels: list[str], actions: int, view: bool) -> int:
    """Instructions per action of each workload under callgrind: the run of ``actions`` less the run of none."""
    if shutil.which("valgrind") is None:
        print("rl_env: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")

    def count(label: str, n: int) -> int:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__,
             "--inner", label, "--actions", str(n), *(["--view"] if view else [])],
            capture_output=True, text=True, env=env)
        found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
        if done.returncode != 0 or found is None:
            raise SystemExit(f"rl_env: the run under callgrind failed:\n{done.stderr[-2000:]}")
        return int(found.group(1))

    per: dict[str, float] = {}
    for label in labels:
        per[label] = (count(label, actions) - count(label, 0)) / actions
        print(json.dumps({"workload": label, "actions": actions, "instructions_per_action": round(per[label])}),
              flush=True)
    base = per.get("tictactoe_v3")
    print(f"\n{actions} actions per workload under callgrind; view={'on' if view else 'off'}\n")
    print("| environment | instructions / action | / tictactoe_v3 (actions per instruction) |")
    print("|---|---:|---:|")
    for label, n in per.items():
        print(f"| {label} | {n:,.0f} | {base / n:.2f}x |" if base else f"| {label} | {n:,.0f} | |")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Measure every workload, interleaved, and print every sample and the table."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="samples of each workload")
    ap.add_argument("--actions", type=int, default=2000, help="actions per sample")
    ap.add_argument("--view", action="store_true", help="keep the 'view' entry in the observations (default: left out)")
    ap.add_argument("--instructions", nargs="*", metavar="WORKLOAD",
                    help="count instructions per action under callgrind instead (load does not move them): "
                         "of the workloads named, or of all")
    ap.add_argument("--only", nargs="+", metavar="WORKLOAD",
                    help="time only the workloads named (tictactoe_v3, the base of the ratios, is always timed)")
    ap.add_argument("--inner", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.inner:
        return inner(args.inner, args.actions, args.view)
    if args.instructions is not None:
        return instructions(args.instructions or labels(), args.actions, args.view)
    works = workloads(args.view) if not args.only else {
        label: workload(label, args.view) for label in dict.fromkeys(["tictactoe_v3", *args.only])}
    for w in works.values():
        w(50)  # warm caches outside the timing
    samples: dict[str, list[float]] = {k: [] for k in works}
    cpu: dict[str, float] = dict.fromkeys(works, 0.0)
    load_before = os.getloadavg()
    for r in range(args.rounds):
        for label, work in works.items():
            start = time.process_time()
            n = work(args.actions)
            spent = time.process_time() - start
            samples[label].append(n / spent)
            cpu[label] += spent
            print(json.dumps({"round": r, "workload": label, "actions": n, "cpu_s": round(spent, 4),
                              "actions_per_cpu_s": round(n / spent)}), flush=True)
    load_after = os.getloadavg()
    base = samples["tictactoe_v3"]
    print(f"\nload average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
          f"after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}; view={'on' if args.view else 'off'}; "
          f"{args.rounds} rounds x {args.actions} actions\n")
    print("| environment | actions / CPU-s (median) | range | CPU s | / tictactoe_v3 (median, range) "
          "| engine alone, actions / CPU-s (median) | env cost / raw |")
    print("|---|---:|---|---:|---|---:|---:|")
    for label, xs in samples.items():
        if label.endswith(" raw"):
            continue
        ratios = [x / b for x, b in zip(xs, base)]
        raw = samples.get(f"{label.split()[0]} raw")
        alone = f"{statistics.median(raw):,.0f}" if raw else ""
        # a step is not a command: the cost on top of the engine is given for the flat spaces only
        cost = f"{statistics.median(r / x for r, x in zip(raw, xs)):.1f}x" if raw and label == label.split()[0] else ""
        print(f"| {label} | {statistics.median(xs):,.0f} | {min(xs):,.0f}-{max(xs):,.0f} | {cpu[label]:.2f} | "
              f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f}) | {alone} | {cost} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
