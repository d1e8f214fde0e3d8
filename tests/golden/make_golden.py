"""Write the golden logs (run once per new game; never to 'fix' a failing golden test).

    python tests/golden/make_golden.py [game-id ...]

A golden log pins the file format and the rules: every later version must
keep loading, replaying and verifying it byte for byte.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

import liars_dice  # noqa: F401
import meeple
from meeple import testing

HERE = Path(__file__).parent


def write(game_id: str, seats: int, options: dict[str, object], name: str) -> None:
    p = testing.playout(game_id, seats, options, seed=20261129, bot_seed=1)
    p.match.save(HERE / f"{name}.meeple")
    p.match.save(HERE / f"{name}.hidden-seed.meeple", hide_seed=True)
    print(f"{name}: {len(p.match)} records")


def main(ids: list[str]) -> None:
    for gid in ids or ["liars-dice"]:
        game = meeple.get_game(gid)
        seats = max(game.info.min_seats, min(4, game.info.max_seats))
        for variant in game.info.variants:
            write(gid, seats, game.variant_options(variant), f"{gid}-{variant}-v{game.info.rules_version}")


if __name__ == "__main__":
    main(sys.argv[1:])
