"""Generic checks (the conformance kit) and properties over random Mordred play."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeple
from meeple.engine import ENGINE, Command, ConfigError, IllegalCommand
from meeple.games.mordred import GAME, Attack, Build, EndTurn, Kind, Phase, Place, SiegeTargets, State
from meeple.games.mordred.data import AREAS, ATTACK_COST, LAND
from meeple.games.mordred.rules import build_cost, building_at, has_warrior, pieces_left, warriors_on_map
from meeple.games.mordred.state import count_standing
from meeple.testing import check_game


@pytest.mark.slow
@pytest.mark.parametrize("seats", [3, 4])
def test_conformance_standard(seats: int) -> None:
    check_game(GAME, seats=seats, seeds=range(3), max_steps=3000)


@pytest.mark.parametrize("seats", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_conformance_short_variant(seats: int) -> None:
    check_game(GAME, seats=seats, options=GAME.variant_options("short"), seeds=range(2), max_steps=3000)


def test_conformance_custom_options() -> None:
    check_game(GAME, seats=3, options={"warriors": 6, "road_forward": 4, "road_back": 0}, seeds=range(2))


def _invariants(m: meeple.Match) -> None:
    s = m.state
    opts = s.options
    assert warriors_on_map(s) + s.supply + s.hand == opts.warriors  # no warrior is lost or made
    assert all(v >= 0 for v in s.money)
    assert all(-opts.road_back <= r <= opts.road_forward for r in s.road)
    for seat in range(s.seats):
        assert all(pieces_left(s, seat, k) >= 0 for k in Kind)
    for i, b in enumerate(s.buildings):
        assert not (b is not None and s.warriors[i])  # a warrior never shares an area with a building
    assert (s.phase is Phase.PLACE) == (s.hand > 0)
    assert s.standing == count_standing(s)  # the derived counts evolve keeps match the map


@given(seed=st.integers(0, 2**64 - 1), picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=400))
def test_every_listed_command_is_accepted_and_the_pieces_add_up(seed: int, picks: list[int]) -> None:
    m = meeple.Match.start("mordred", seats=3 + seed % 2, seed=seed, options={"siege": ("others", "any")[seed >> 1 & 1]})
    for pick in picks:
        if m.is_over:
            break
        (seat,) = m.to_act
        assert seat != ENGINE
        legal = m.legal(seat)
        assert legal, "a seat to act must have a legal command"
        m.play(seat, legal[pick % len(legal)])
        _invariants(m)
        for other in range(m.seats):
            if other != seat and other not in m.to_act:
                assert m.legal(other) == ()


@given(seed=st.integers(0, 2**32), area=st.text(max_size=4))
def test_unknown_areas_are_refused_as_illegal(seed: int, area: str) -> None:
    from meeple.games.mordred import Attack, Build, Place
    from meeple.games.mordred.data import AREAS

    m = meeple.Match.start("mordred", seats=3, seed=seed)
    (seat,) = m.to_act
    if area in AREAS:
        return
    for cmd in (Place(area), Build(area, Kind.VILLAGE), Attack(area, "SNO"), Attack("SNO", area)):
        with pytest.raises(IllegalCommand):
            m.play(seat, cmd)


def test_views_hold_everything_but_the_seed() -> None:
    m = meeple.Match.start("mordred", seats=4, seed=123456789)
    v = m.view(2)
    assert v.seat == 2 and v.buildings == m.state.buildings and v.road == m.state.road
    assert m.view(None).seat is None
    assert not hasattr(v, "seed")


@pytest.mark.parametrize(
    "options",
    [{"warriors": 3}, {"warriors": 33}, {"road_forward": 2}, {"road_back": 11}, {"dragon": 1}, {"used_up": "never"}],
)
def test_bad_options_are_refused(options: dict[str, int]) -> None:
    with pytest.raises(ConfigError):
        meeple.Match.start("mordred", seats=3, options=options)


def test_two_or_five_players_are_refused() -> None:
    for seats in (2, 5):
        with pytest.raises(ConfigError):
            meeple.Match.start("mordred", seats=seats)


def test_variants_map_to_options() -> None:
    assert GAME.variant_options("standard") == {}
    assert GAME.variant_options("short") == {"warriors": 14, "road_forward": 10}
    with pytest.raises(ConfigError):
        GAME.variant_options("long")


def _listed_by_the_rule(state: State, seat: int) -> list[Command]:
    """Every command the readable rule functions allow, in map and table order (what legal must list)."""
    if state.phase is Phase.PLACE:
        near = [a for a in LAND if not has_warrior(state, a) and any(has_warrior(state, n) for n in AREAS[a].neighbours)]
        if state.options.siege is SiegeTargets.OTHERS:  # not the roller's own building while another area is near
            near = [a for a in near if (b := building_at(state, a)) is None or b.owner != seat] or near
        return [Place(a) for a in near]
    out: list[Command] = []
    cash = state.money[seat]
    for area in LAND:
        for kind in Kind:
            cost, why = build_cost(state, seat, area, kind)
            if not why and cost <= cash and pieces_left(state, seat, kind) > 0:
                out.append(Build(area, kind))
    if cash >= ATTACK_COST:
        for area in LAND:
            b = building_at(state, area)
            if b is not None and b.owner == seat:
                out.extend(Attack(area, n) for n in AREAS[area].neighbours if has_warrior(state, n))
    out.append(EndTurn())
    return out


@given(seed=st.integers(0, 2**64 - 1), picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=300))
def test_legal_commands_list_exactly_what_the_rules_allow_in_order(seed: int, picks: list[int]) -> None:
    m = meeple.Match.start("mordred", seats=3 + seed % 2, seed=seed, options={"siege": ("others", "any")[seed >> 1 & 1]})
    for pick in picks:
        if m.is_over:
            break
        (seat,) = m.to_act
        legal = m.legal(seat)
        if m.state.phase is not Phase.ROLL:
            assert list(legal) == _listed_by_the_rule(m.state, seat)
        m.play(seat, legal[pick % len(legal)])


def test_the_world_of_a_view_is_the_state_itself_at_every_position() -> None:
    from meeple.engine import Rng
    from meeple.testing import playout

    m = playout(GAME, 4, None, seed=12, bot_seed=3, max_steps=3000).match
    for i in range(0, len(m) + 1, 5):
        m.seek(i)
        for seat in (0, 3, None):
            assert GAME.world(GAME.view(m.state, seat), seat, Rng(i)) == m.state
