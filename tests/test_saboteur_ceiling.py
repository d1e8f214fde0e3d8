"""The Saboteur ceiling benchmark's oracle: its worlds are the match's true state, and only its own."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

from meeple.bots import PIMC
from meeple.engine import ENGINE, Match, Rng
from meeple.games.saboteur.data import Role

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def _ceiling() -> Any:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    return importlib.import_module("saboteur_ceiling")


def test_the_oracle_searches_the_true_state_and_follows_the_match() -> None:
    m = Match.start("saboteur", 3, seed=4)
    bot = _ceiling().see_truth(PIMC("saboteur", seed=1, iterations=8), m)
    seat = m.to_act[0]
    view = m.view(seat)
    world = bot.game.world(view, seat, Rng(2))
    assert world is m.state
    # a sampled world deals the hidden part anew; the true state is not among the few it draws here
    shared = m.game
    assert shared.world is not bot.game.world
    assert all(shared.world(view, seat, Rng(k)) != m.state for k in range(3))
    m.play(seat, bot.choose(view, m.legal(seat), seat))
    nxt = m.to_act[0]
    assert bot.game.world(m.view(nxt), nxt, Rng(2)) is m.state


def test_the_oracle_refuses_a_view_that_is_not_the_matchs() -> None:
    m = Match.start("saboteur", 3, seed=4)
    other = Match.start("saboteur", 3, seed=5)
    bot = _ceiling().see_truth(PIMC("saboteur", seed=1, iterations=8), m)
    seat = m.to_act[0]
    with pytest.raises(AssertionError):
        bot.game.world(other.view(seat), seat, Rng(2))


def test_the_told_heuristic_sees_every_role_and_goal() -> None:
    m = Match.start("saboteur", 3, seed=4)
    seen: list[Any] = []

    class Spy:
        def choose(self, view: Any, legal: Any, seat: int) -> Any:
            seen.append(view)
            return legal[0]

    seat = m.to_act[0]
    own = m.view(seat)
    _ceiling().Told(Spy(), m).choose(own, m.legal(seat), seat)
    view, deal = seen[0], m.state.deal
    assert own.inspected == () and own.known_goals == ()  # what the seat knows alone at the first turn
    assert dict(view.inspected) == {t: r for t, r in enumerate(deal.roles) if t != seat}
    assert dict(view.known_goals) == dict(enumerate(deal.goal_kinds))
    assert (view.hand, view.board, view.deeds) == (own.hand, own.board, own.deeds)


def test_by_role_plays_the_digger_bot_while_a_miner_and_the_other_while_a_saboteur() -> None:
    ceiling = _ceiling()
    m = Match.start("saboteur", 3, seed=4)
    while not m.state.deal.roles:  # the first deal is the engine's
        m.play(ENGINE, m.game.auto_command(m.state))
    asked: list[str] = []

    class Named:
        def __init__(self, name: str) -> None:
            self.name, self.last_iterations = name, 7 if name == "digger" else 0

        def choose(self, view: Any, legal: Any, seat: int) -> Any:
            asked.append(self.name)
            return legal[0]

    bot = ceiling.ByRole(Named("digger"), Named("saboteur"))
    for seat, role in enumerate(m.state.deal.roles):
        bot.choose(m.view(seat), m.legal(seat) or [None], seat)
        assert asked[-1] == ("digger" if role is Role.MINER else "saboteur")
        assert bot.last_iterations == (7 if role is Role.MINER else 0)


def test_a_team_run_stops_after_its_rounds_and_counts_every_seat_as_the_bot() -> None:
    row = _ceiling().run("4ms-cpu", 3, 2, 11, team=True, rounds=1)
    assert row["bot"] == "team-oracle-pimc:4ms-cpu" and row["finished"] == 0 and row["opponent_rate"] is None
    roles = row["rounds_by_role"]
    assert not any(key.startswith("others:") for key in roles)  # every seat is the team's bot
    assert roles["bot:miner"]["rounds"] + roles.get("bot:saboteur", {"rounds": 0})["rounds"] == 2 * 3  # one round each
    assert row["decisions"] > 0
    team = roles["bot:miners' team"]  # each round once: its diggers share one result
    assert team["rounds"] == 2 and team["won"] * 2 <= roles["bot:miner"]["won"] <= team["won"] * 3
    split = [roles.get(f"bot:miners' team, {d}", {"rounds": 0})["rounds"] for d in ("a saboteur dealt", "no saboteur dealt")]
    assert sum(split) == 2
    seats = roles.get("bot:miner, a saboteur dealt", {"rounds": 0})["rounds"]
    assert seats == 2 * split[0]  # two digger seats in a round with a saboteur, at three seats


def test_a_search_told_the_gold_sees_the_goals_but_no_role() -> None:
    m = Match.start("saboteur", 3, seed=4)
    seen: list[Any] = []

    class Spy:
        last_iterations = 5

        def choose(self, view: Any, legal: Any, seat: int) -> Any:
            seen.append(view)
            return legal[0]

    seat = m.to_act[0]
    told = _ceiling().Told(Spy(), m, roles=False)
    told.choose(m.view(seat), m.legal(seat), seat)
    assert dict(seen[0].known_goals) == dict(enumerate(m.state.deal.goal_kinds))
    assert seen[0].inspected == () and told.last_iterations == 5


def test_a_run_of_first_roles_plays_only_the_matches_that_deal_the_search_seat_that_role() -> None:
    row = _ceiling().run("4", 3, 8, 5, gold=True, rounds=1, first_role=Role.SABOTEUR)
    assert row["bot"] == "gold-pimc:4" and 0 < row["matches"] < 8  # a quarter of first deals, give or take
    roles = row["rounds_by_role"]
    assert roles["bot:saboteur"]["rounds"] == row["matches"] and "bot:miner" not in roles
