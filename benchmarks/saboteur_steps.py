"""MaskablePPO on Saboteur with the flat action space and with the step space, at one budget, side by side.

The learner sits at seat 0 of a 4-seat table against three random bots,
through :func:`meeple.rl.single_agent`; sb3-contrib's ``MaskablePPO``
(``MlpPolicy``, its defaults but for ``n_steps``) trains for ``--steps``
environment steps with each action space, then plays ``--matches``
matches (greedy, masked) from fresh seeds. A match's reward is seat 0's
share of the win (:func:`meeple.rl.win_share`: 1 split among the winners);
"untrained" is the same policy before training. Printed: the mean reward with its 95% interval,
the CPU time of training, and the load average.

    python benchmarks/saboteur_steps.py --steps 20000 --matches 200
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402

import meeple.rl  # noqa: E402


def evaluate(model: Any, env: Any, matches: int, seed: int) -> list[float]:
    """The learner's reward in each of ``matches`` matches, masked greedy actions."""
    out = []
    for m in range(matches):
        obs, _ = env.reset(seed=seed + m)
        done, total = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            total += reward
            done = terminated or truncated
        out.append(total)
    return out


def spread(xs: list[float]) -> str:
    """Mean and 95% interval (normal approximation)."""
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0.0
    return f"{m:+.3f} [{m - half:+.3f}, {m + half:+.3f}]"


def main(argv: list[str] | None = None) -> int:
    """Train and evaluate with each action space; print one JSON line each, then a table."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--steps", type=int, default=20_000, help="training steps per action space")
    ap.add_argument("--matches", type=int, default=200, help="evaluation matches")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)  # one core: CPU time is the time spent, not threads waiting on each other
    rows = []
    load_before = os.getloadavg()
    for actions in ("flat", "steps"):
        env = meeple.rl.single_agent("saboteur", seats=4, seat=0, opponents="random", actions=actions,
                                     reward=meeple.rl.win_share)
        model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=64, seed=0, verbose=0)
        before = evaluate(model, env, args.matches, 10_000)
        start = time.process_time()
        model.learn(total_timesteps=args.steps)
        cpu = time.process_time() - start
        after = evaluate(model, env, args.matches, 10_000)
        row = {"actions": actions, "ids": int(env.action_space.n), "train_cpu_s": round(cpu, 1),
               "untrained": spread(before), "trained": spread(after), "load": [round(x, 2) for x in os.getloadavg()]}
        print(json.dumps(row), flush=True)
        rows.append(row)
    print(f"\nload average before {' '.join(f'{x:.2f}' for x in load_before)}, after "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; {args.steps} training steps, {args.matches} matches\n")
    print("| actions | ids | training CPU s | reward untrained (mean, 95%) | reward trained (mean, 95%) |")
    print("|---|---:|---:|---|---|")
    for r in rows:
        print(f"| {r['actions']} | {r['ids']:,} | {r['train_cpu_s']} | {r['untrained']} | {r['trained']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
