"""Write Saboteur's golden logs (once per rules version; never to 'fix' a failing test).

    python tests/games/saboteur/golden/make_golden.py

Whole matches played by the heuristic bot, so they pass through gold offers,
saboteur pay, Deluxe shares and theft. Each later version must keep loading,
replaying and verifying them byte for byte, or refuse them naming the version.
"""

from __future__ import annotations

from pathlib import Path

import meeple
from meeple.engine import ENGINE
from meeple.games.saboteur.bot import HeuristicBot

HERE = Path(__file__).parent


def write(name: str, seats: int, options: dict[str, object], seed: int) -> None:
    """Play and save one golden match, with its seed and with the seed hidden."""
    m = meeple.Match.start("saboteur", seats, seed=seed, options=options)
    bots = [HeuristicBot(seed + s) for s in range(seats)]
    while not m.is_over:
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    m.save(HERE / f"{name}.meeple")
    m.save(HERE / f"{name}.hidden-seed.meeple", hide_seed=True)
    out = m.outcome
    assert out is not None
    print(f"{name}: {len(m)} records, teams {[r.team for r in m.state.results]}, "
          f"winners {out.winners}, scores {out.scores}")


if __name__ == "__main__":
    write("saboteur-base-v2", 5, {}, 20261129)
    write("saboteur-deluxe-v2", 7, {"edition": "deluxe"}, 20261129)
