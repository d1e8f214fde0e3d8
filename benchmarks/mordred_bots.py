"""Mordred bot figures: how strong the heuristic bot is, how often Mordred wins, how games end.

Run from the repository root::

    python benchmarks/mordred_bots.py                    # 400 seeds per line
    python benchmarks/mordred_bots.py --seeds 100 --variant short
    python benchmarks/mordred_bots.py --options used_up=next-turn
    python benchmarks/mordred_bots.py --no-random --src /elsewhere/src   # another version's rules and bot

Each line plays ``--seeds`` matches (seeds 0, 1, ...). Lines:

* ``heuristic vs random``: one heuristic bot among random bots (its seat
  rotates with the seed); its share of wins (a shared win counts as a
  fraction; the fair share is 1/players).
* ``heuristic only``: every seat heuristic. How often Mordred won (his
  warriors outnumbered the buildings), how the games ended (and, for end (b),
  which building type was used up), the rows the bots declared, the length
  (turns, and the share of games over by the end of round 3, round 5), the
  share of wins by place in the turn order (the first player is rolled for,
  so a fair game gives every place 1/players), the most money all
  players held at once (the bank's coins are not counted by the rules), and
  the share of sieges on the roller's own buildings (option ``siege``).
* ``--against REV``: the heuristic bot of git revision ``REV`` (its
  ``bot.py``, on today's rules): one of today's bots among its bots, and one
  of its bots among today's; each share of wins against the fair share.
* ``--lookahead N``: one look-ahead bot (it plays out every row N times with
  heuristic bots and declares the best; otherwise it plays as the heuristic
  bot) among heuristic bots: its share of wins, and the rows it declared. A
  heuristic bot that a little search cannot beat by much is strong enough
  for the figures above to mean something.

The Money table's expected values per row are printed first.

``--src PATH`` measures the meeple of another source tree (for example a
``git worktree`` of an older commit): its rules and its heuristic bot, with
this script's statistics. The ``heuristic only`` line works on every rules
version; the look-ahead line needs the rules functions of version 2.
"""

from __future__ import annotations

import argparse
import collections
import functools
import subprocess
import sys
import time
import types
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs


def _source_tree(argv: Sequence[str]) -> Path | None:
    """The ``src`` directory given by ``--src PATH``, read before meeple is imported."""
    for i, arg in enumerate(argv):
        if arg == "--src" and i + 1 < len(argv):
            return Path(argv[i + 1]).resolve()
        if arg.startswith("--src="):
            return Path(arg.partition("=")[2]).resolve()
    return None


_SRC = _source_tree(sys.argv[1:])
if _SRC is not None:
    sys.path.insert(0, str(_SRC))

import meeple  # noqa: E402  (after --src is on the path)
from meeple.engine import Command, RandomBot, Rng  # noqa: E402
from meeple.games.mordred import GAME, Roll, Row, Siege, State, View  # noqa: E402
from meeple.games.mordred.bot import HeuristicBot  # noqa: E402
from meeple.games.mordred.data import MONEY  # noqa: E402
from meeple.games.mordred.rules import buildings_on_map, warriors_on_map  # noqa: E402

Bot = Any


def money_table() -> None:
    """Print each row's expected money and warriors for one roll of two dice."""
    if not hasattr(MONEY[Row.A][0], "money"):  # rules version 1: a black cell paid warriors instead
        return
    for row in Row:
        cells = MONEY[row]
        money = sum(c.money for c in cells) / 3
        warriors = sum(c.warriors for c in cells) / 3
        black = sum(c.black for c in cells)
        p_any = 1 - ((6 - black) / 6) ** 2
        print(f"row {row.value}: £{money:.2f} and {warriors:.2f} warriors per roll; P(some black) {p_any:.0%}")


def bot_at(rev: str) -> Callable[[int], Bot]:
    """The ``HeuristicBot`` class of Mordred's ``bot.py`` at git revision ``rev``, run on today's rules."""
    root = Path(__file__).resolve().parents[1]
    source = subprocess.run(["git", "show", f"{rev}:src/meeple/games/mordred/bot.py"], cwd=root,
                            capture_output=True, text=True, check=True).stdout
    module = types.ModuleType(f"meeple.games.mordred._bot_{rev}")
    module.__package__ = "meeple.games.mordred"
    exec(compile(source, f"{rev}:src/meeple/games/mordred/bot.py", "exec"), module.__dict__)
    factory: Callable[[int], Bot] = module.HeuristicBot
    return factory


def _state_of(view: View) -> State:
    """The position a view shows (Mordred hides nothing, so it is the whole state)."""
    return State(**{f.name: getattr(view, f.name) for f in attrs.fields(State)})


class LookaheadBot:
    """Declares the row whose playouts (heuristic bots in every seat) it wins most; else plays heuristic."""

    def __init__(self, seed: int, playouts: int) -> None:
        self.playouts = playouts
        self.inner = HeuristicBot(seed)
        self.rng = Rng(seed + 1_000_003)

    def choose(self, view: View, legal: Sequence[Command], seat: int) -> Command:
        """Return the chosen command."""
        if not isinstance(legal[0], Roll):
            return self.inner.choose(view, legal, seat)
        state = _state_of(view)
        best: tuple[float, Row] | None = None
        for row in Row:
            score = 0.0
            for k in range(self.playouts):
                score += self._playout(state, seat, Roll(row), self.rng.below(1 << 62) + k)
            if best is None or score > best[0]:
                best = (score, row)
        assert best is not None
        return Roll(best[1])

    def _playout(self, state: State, seat: int, first: Command, seed: int) -> float:
        from meeple.games.mordred.rules import decide, evolve, legal_commands

        rng = Rng(seed)
        bots = [HeuristicBot(seed + s) for s in range(state.seats)]
        command = first
        actor = seat
        while True:
            for e in decide(state, actor, command, rng):
                state = evolve(state, e)
            out = GAME.outcome(state)
            if out is not None:
                return 1 / len(out.winners) if seat in out.winners else 0.0
            (actor,) = GAME.to_act(state)
            command = bots[actor].choose(GAME.view(state, actor), legal_commands(state, actor), actor)


def play(seats: int, seed: int, bots: Sequence[Bot], options: dict[str, Any]) -> tuple[meeple.Match, list[collections.Counter[str]]]:
    """Play one match with ``bots[s]`` in seat ``s``; return it and the rows each seat declared.

    ``rows[0]`` also counts, under ``"£"``, the most money all players held at once, and under
    ``"sieges"`` and ``"own"`` the sieges and those on the roller's own building.
    """
    m = meeple.Match.start(GAME, seats, seed=seed, options=options)
    rows: list[collections.Counter[str]] = [collections.Counter() for _ in range(seats)]
    sieges: collections.Counter[str] = collections.Counter()
    held = 0
    while not m.is_over:
        (seat,) = m.to_act
        cmd = bots[seat].choose(m.view(seat), m.legal(seat), seat)
        if isinstance(cmd, Roll):
            rows[seat][cmd.row.value] += 1
        for e in m.play(seat, cmd):
            if isinstance(e, Siege):
                sieges["sieges"] += 1
                sieges["own"] += e.owner == e.seat
        held = max(held, sum(m.state.money))
    rows[0]["£"] = held
    rows[0].update(sieges)
    return m, rows


def _share(m: meeple.Match, seat: int) -> float:
    out = m.outcome
    assert out is not None
    return 1 / len(out.winners) if seat in out.winners else 0.0


def mixed(seats: int, seeds: int, options: dict[str, Any], hero: Callable[[int], Bot], field: Callable[[int], Bot]
          ) -> tuple[float, collections.Counter[str]]:
    """One ``hero`` bot among ``field`` bots, its seat rotating: its share of wins and its rows."""
    wins = 0.0
    rows: collections.Counter[str] = collections.Counter()
    for seed in range(seeds):
        hseat = seed % seats
        bots = [hero(seed * 10 + s) if s == hseat else field(seed * 10 + s) for s in range(seats)]
        m, r = play(seats, seed, bots, options)
        wins += _share(m, hseat)
        for key in ("£", "sieges", "own"):
            r[0].pop(key, None)
        rows.update(r[hseat])
    return wins / seeds, rows


def _pct(counter: Mapping[str, float], total: float) -> dict[str, str]:
    return {k: f"{v / total:.1%}" for k, v in sorted(counter.items())}


def heuristic_only(seats: int, seeds: int, options: dict[str, Any]) -> dict[str, Any]:
    """Mordred's win rate, the ends, the rows, the length and the wins by place in the turn order."""
    mordred = 0
    ends: collections.Counter[str] = collections.Counter()
    used_up: collections.Counter[str] = collections.Counter()
    rows: collections.Counter[str] = collections.Counter()
    places: dict[str, float] = collections.defaultdict(float)
    turns = 0
    by3 = by5 = 0
    money: list[int] = []
    sieges = own = 0
    for seed in range(seeds):
        m, r = play(seats, seed, [HeuristicBot(seed * 10 + s) for s in range(seats)], options)
        st = m.state
        mordred += warriors_on_map(st) > buildings_on_map(st)
        ends[st.ended.value if st.ended else "?"] += 1
        if st.ended is not None and st.ended.value == "buildings":
            last = m.records[-1].events[-1]
            used_up[next(k for k in ("village", "town", "castle") if k in last.detail)] += 1  # type: ignore[attr-defined]
        money.append(r[0].pop("£"))
        sieges += r[0].pop("sieges", 0)
        own += r[0].pop("own", 0)
        for c in r:
            rows.update(c)
        turns += st.turns
        rounds = -(-st.turns // seats)
        by3 += rounds <= 3
        by5 += rounds <= 5
        for s in range(seats):
            places[str((s - st.first) % seats + 1)] += _share(m, s)
    return {
        "mordred": mordred / seeds,
        "ends": _pct(ends, seeds),
        "used_up": _pct(used_up, max(1, sum(used_up.values()))),
        "rows": _pct(rows, sum(rows.values())),
        "turns": turns / seeds,
        "by3": by3 / seeds,
        "by5": by5 / seeds,
        "places": _pct(places, seeds),
        "money": (max(money), sorted(money)[len(money) * 99 // 100]),
        "own": own / max(1, sieges),
    }


def _options(pairs: Sequence[str], variant: str) -> dict[str, Any]:
    options: dict[str, Any] = dict(GAME.variant_options(variant))
    for pair in pairs:
        key, _, value = pair.partition("=")
        options[key] = int(value) if value.lstrip("-").isdigit() else value
    return options


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=400)
    parser.add_argument("--variant", default="standard", choices=GAME.info.variants)
    parser.add_argument("--options", nargs="*", default=[], metavar="KEY=VALUE", help="game options on top of the variant's")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4])
    parser.add_argument("--against", metavar="REV", help="also: today's heuristic bot against the one of git revision REV")
    parser.add_argument("--lookahead", type=int, default=0, metavar="N", help="also: one look-ahead bot (N playouts per row)")
    parser.add_argument("--no-random", action="store_true", help="skip the heuristic-vs-random lines")
    parser.add_argument("--src", metavar="PATH", help="measure the meeple of this source tree instead")
    args = parser.parse_args()
    options = _options(args.options, args.variant)
    print(f"Mordred bots, variant {args.variant}, options {options}, {args.seeds} seeds per line, "
          f"rules version {GAME.info.rules_version} from {Path(meeple.__file__).parent}")
    money_table()
    for seats in args.players:
        t = time.perf_counter()
        if not args.no_random:
            share, _ = mixed(seats, args.seeds, options, HeuristicBot, RandomBot)
            print(f"{seats} players, heuristic vs {seats - 1} random: heuristic wins {share:.1%} (fair share {1 / seats:.0%})")
        h = heuristic_only(seats, args.seeds, options)
        print(
            f"{seats} players, heuristic only: Mordred wins {h['mordred']:.1%}; ends {h['ends']}; "
            f"end (b) by type {h['used_up']}; rows {h['rows']}; {h['turns']:.1f} turns per game, "
            f"over by round 3 {h['by3']:.1%}, by round 5 {h['by5']:.1%}; wins by turn-order place {h['places']}; "
            f"most money held at once by all players £{h['money'][0]} (99th percentile of games £{h['money'][1]}); "
            f"sieges of the roller's own buildings {h['own']:.1%} "
            f"({time.perf_counter() - t:.1f}s)"
        )
        if args.against:
            t = time.perf_counter()
            old = bot_at(args.against)
            new_share, _ = mixed(seats, args.seeds, options, HeuristicBot, old)
            old_share, _ = mixed(seats, args.seeds, options, old, HeuristicBot)
            print(f"{seats} players, today's heuristic vs {args.against}'s: one of today's among {seats - 1} of "
                  f"{args.against}'s wins {new_share:.1%}; one of {args.against}'s among {seats - 1} of today's wins "
                  f"{old_share:.1%} (fair share {1 / seats:.0%}) ({time.perf_counter() - t:.1f}s)")
        if args.lookahead:
            t = time.perf_counter()
            n = args.lookahead
            share, rows = mixed(seats, args.seeds, options, functools.partial(LookaheadBot, playouts=n), HeuristicBot)
            print(f"{seats} players, one look-ahead bot ({n} playouts per row) vs {seats - 1} heuristic: "
                  f"it wins {share:.1%} (fair share {1 / seats:.0%}); its rows {_pct(rows, sum(rows.values()))} "
                  f"({time.perf_counter() - t:.1f}s)")


if __name__ == "__main__":
    main()
