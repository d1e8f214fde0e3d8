"""Time budgets on the searching thread's CPU clock: the spec, the option, and which clock the search reads."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from meeple.bots import ISMCTS, PIMC, parse_spec
from meeple.bots import ismcts as ismcts_module
from meeple.catalog import bot_factory
from meeple.engine import ConfigError

from .test_ismcts import LD, _position


class _Ticks:
    """A fake clock that advances one second each time it is read."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return float(self.reads)


@pytest.fixture
def cpu_ticks(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Ticks]:
    ticks = _Ticks()
    monkeypatch.setitem(ismcts_module.CLOCKS, "cpu", ticks)
    yield ticks


def test_the_spec_names_a_cpu_budget() -> None:
    spec = parse_spec("pimc:250ms-cpu:heuristic")
    assert (spec.seconds, spec.clock, spec.rollout) == (0.25, "cpu", "heuristic")
    assert parse_spec("ismcts:1s").clock == "wall" and parse_spec("ismcts:2s-cpu").clock == "cpu"
    assert parse_spec("pimc:100").clock == "wall"
    for bad in ("pimc:1s-gpu", "pimc:1-cpu", "ismcts:cpu", "pimc:0s-cpu"):
        with pytest.raises(ConfigError):
            parse_spec(bad)


def test_the_factory_passes_the_clock_on() -> None:
    pimc = bot_factory(LD, "pimc:1s-cpu")(1)
    ismcts = bot_factory(LD, "ismcts:500ms-cpu")(1)
    assert isinstance(pimc, PIMC) and (pimc.seconds, pimc.clock) == (1.0, "cpu")
    assert isinstance(ismcts, ISMCTS) and (ismcts.seconds, ismcts.clock) == (0.5, "cpu")
    assert "clock='cpu'" in repr(pimc) and "clock" not in repr(bot_factory(LD, "pimc:1s")(1))


def test_an_unknown_clock_is_refused() -> None:
    with pytest.raises(ConfigError, match="clock"):
        PIMC(LD, seconds=1.0, clock="sundial")
    with pytest.raises(ConfigError, match="clock"):
        ISMCTS(LD, seconds=1.0, clock="sundial")


def test_ismcts_stops_by_the_cpu_clock(cpu_ticks: _Ticks) -> None:
    # the clock reads 1 at the start and one more at each check: a 3-second budget ends after 3 iterations
    state = _position(mine=(3, 4), theirs=(1, 1), bids=((0, 1, 2),))
    bot = ISMCTS(LD, seed=1, seconds=3.0, clock="cpu")
    legal = LD.legal_commands(state, 1)
    assert bot.choose(LD.view(state, 1), legal, 1) in legal
    assert bot.last_iterations == 3 and cpu_ticks.reads == 4


def test_pimc_stops_by_the_cpu_clock(cpu_ticks: _Ticks) -> None:
    # one second a round of two playouts by the fake clock: a budget of 2.5 plays two rounds
    state = _position(mine=(3, 4), theirs=(1, 1), bids=((0, 1, 2),))
    bot = PIMC(LD, seed=1, seconds=2.5, clock="cpu", width=2)
    legal = LD.legal_commands(state, 1)
    assert bot.choose(LD.view(state, 1), legal, 1) in legal
    assert cpu_ticks.reads > 0 and bot.last_iterations == 4


def test_a_wall_budget_does_not_read_the_cpu_clock(cpu_ticks: _Ticks) -> None:
    state = _position(mine=(3, 4), theirs=(1, 1), bids=((0, 1, 2),))
    bot = PIMC(LD, seed=1, seconds=0.05, width=2)
    bot.choose(LD.view(state, 1), LD.legal_commands(state, 1), 1)
    assert cpu_ticks.reads == 0 and bot.last_iterations >= 2
