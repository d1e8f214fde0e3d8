"""The alternatives, measured in the same run: the floor, eventsourcing, OpenSpiel.

* **floor**: one ``msgpack`` decode plus one ``attrs.evolve`` per event, with
  no rules at all: the least any msgpack + attrs event fold can cost.
* **eventsourcing**: the ``eventsourcing`` library rebuilding an aggregate
  (a Liar's Dice bid history) from its stored events, in its default
  in-memory store, without snapshots or cache.
* **OpenSpiel**: ``liars_dice`` (C++, through ``pyspiel``) and its pure-Python
  games applying actions: both "apply only" (a recorded action sequence,
  chance outcomes included) and random playouts (legal actions, a random
  choice, apply).

A missing optional package gives a figure without a value whose note says
"not installed"; the rest of the suite still runs.
"""

from __future__ import annotations

import contextlib
import random
from importlib import metadata
from typing import Any

import attrs
import msgpack
from harness import Budget, Figure, Report, rate

FLOOR_EVENTS = 1000


@attrs.frozen
class _FloorState:
    seats: int
    turn: int = 0
    quantity: int = 0
    face: int = 0


def floor(report: Report, budget: Budget) -> float:
    """msgpack decode + one attrs evolve per event (events per second)."""
    rnd = random.Random(1)
    frames = [msgpack.packb([1, i % 2, rnd.randint(1, 6), rnd.randint(1, 6)]) for i in range(FLOOR_EVENTS)]
    unpackb = msgpack.unpackb
    evolve = attrs.evolve

    def work() -> int:
        state = _FloorState(2)
        for f in frames:
            _, seat, q, face = unpackb(f)
            state = evolve(state, turn=seat, quantity=q, face=face)
        return len(frames)

    r = rate(work, budget)
    report.works[("floor", "floor")] = work
    report.add(Figure("floor: msgpack decode + attrs.evolve", "floor", r, "events/s"))
    return r


def eventsourcing_rebuild(report: Report, budget: Budget, events: int = 1000) -> float | None:
    """The eventsourcing library's aggregate rebuild rate (events per second)."""
    try:
        from eventsourcing.application import Application
        from eventsourcing.domain import Aggregate, event
    except ImportError:
        report.note("aggregate rebuild", "eventsourcing", "not installed (pip install meeple[bench])")
        return None

    class Cup(Aggregate):  # type: ignore[misc]
        """A Liar's Dice bid history as an eventsourcing aggregate."""

        @event("Opened")  # type: ignore[untyped-decorator]
        def __init__(self, seats: int) -> None:
            self.seats = seats
            self.bids: list[tuple[int, int, int]] = []
            self.turn = 0

        @event("BidMade")  # type: ignore[untyped-decorator]
        def bid(self, seat: int, quantity: int, face: int) -> None:
            self.bids.append((seat, quantity, face))
            self.turn = (seat + 1) % self.seats

    app: Any = Application()
    cup = Cup(2)
    rnd = random.Random(2)
    for i in range(events - 1):
        cup.bid(i % 2, rnd.randint(1, 6), rnd.randint(1, 6))
    app.save(cup)
    get = app.repository.get
    cup_id = cup.id

    def work() -> int:
        got = get(cup_id)
        assert got.version == events
        return events

    r = rate(work, budget)
    report.works[("eventsourcing", "rebuild")] = work
    report.add(Figure("aggregate rebuild", "eventsourcing", r, "events/s",
                      note=f"eventsourcing {_version('eventsourcing')}, in-memory, {events} events"))
    return r


PYTHON_GAMES = ("python_kuhn_poker", "python_tic_tac_toe", "python_liars_poker")


def openspiel(report: Report, budget: Budget) -> dict[str, float]:
    """OpenSpiel: ``liars_dice`` (C++) and pure-Python games, apply-only and random playouts (actions per second)."""
    out: dict[str, float] = {}
    try:
        import pyspiel
    except ImportError:
        for name in ("liars_dice", *PYTHON_GAMES):
            report.note("actions applied/s", f"openspiel {name}", "not installed (pip install meeple[bench])")
        return out
    with contextlib.suppress(ImportError):
        import open_spiel.python.games  # noqa: F401  (registers the pure-Python games)
    names = set(pyspiel.registered_names())
    for name in ("liars_dice", *PYTHON_GAMES):
        subject = f"openspiel {name}"
        if name not in names:
            report.note("actions applied/s", subject, "not in this OpenSpiel version")
            continue
        game = pyspiel.load_game(name)
        rnd = random.Random(3)
        sequences = [_random_actions(game, rnd) for _ in range(budget.matches * 5)]
        total = sum(len(s) for s in sequences)

        def apply_only(game: Any = game, sequences: list[list[int]] = sequences, total: int = total) -> int:
            for seq in sequences:
                state = game.new_initial_state()
                for a in seq:
                    state.apply_action(a)
            return total

        r = rate(apply_only, budget)
        report.works[(name, "apply")] = apply_only
        out[name] = r
        kind = (f"C++ via pyspiel {_version('open_spiel')}" if not name.startswith("python_") else "pure Python")
        report.add(Figure("actions applied/s", subject, r, "actions/s",
                          note=kind, extra={"actions_per_game": round(total / len(sequences), 1)}))

        games = [0, 0]

        def playout(game: Any = game, rnd: random.Random = rnd, games: list[int] = games) -> int:
            n = len(_random_actions(game, rnd))
            games[0] += 1
            games[1] += n
            return n

        r = rate(playout, budget)
        report.works[(name, "playout")] = playout
        out[name + ":playout"] = r
        out[name + ":games"] = r * games[0] / max(games[1], 1)
        report.add(Figure("random playout actions/s", subject, r, "actions/s",
                          note=kind + "; legal actions + choice + apply",
                          extra={"games_per_s": round(out[name + ":games"], 1)}))
    return out


def _random_actions(game: Any, rnd: random.Random) -> list[int]:
    state = game.new_initial_state()
    actions = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            a = rnd.choices(outcomes, probs)[0]
        else:
            a = rnd.choice(state.legal_actions())
        actions.append(a)
        state.apply_action(a)
    return actions


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"
