"""Scenario tests: each pins one rule of the rule text (seed 004) on a hand-built position."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs
import pytest

import meeple
from meeple.engine import Code, Command, Event, IllegalCommand, Rng
from meeple.games.mordred import (
    GAME,
    Attack,
    Build,
    Building,
    Built,
    End,
    EndTurn,
    FirstPlayerRolled,
    GameEnded,
    Kind,
    Phase,
    Place,
    Roll,
    Rolled,
    Row,
    Siege,
    SiegeTargets,
    Start,
    TurnEnded,
    UsedUp,
)
from meeple.games.mordred.data import AREA_CODES, AREA_INDEX, BUILDINGS, MONEY, ROAD_FORWARD
from meeple.games.mordred.rules import building_at, has_warrior, pieces_left, placement_targets, warriors_on_map
from meeple.games.mordred.state import MordredOptions, State

# -- hand-built positions and scripted dice ---------------------------------------------

class Dice(Rng):
    """An Rng whose dice show the given faces, in order (and fail loudly if asked for more)."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def die(self, sides: int = 6) -> int:
        assert self.faces, "the scenario rolled more dice than it scripted"
        return self.faces.pop(0)


def position(
    seats: int = 3,
    *,
    phase: Phase = Phase.SPEND,
    turn: int = 0,
    buildings: Mapping[str, tuple[int, Kind]] | None = None,
    warriors: Iterable[str] = (),
    money: tuple[int, ...] | None = None,
    road: tuple[int, ...] | None = None,
    supply: int | None = None,
    hand: int = 0,
    options: MordredOptions | None = None,
) -> State:
    """A position built by hand: ``buildings`` maps area -> (owner, kind)."""
    opts = options or MordredOptions()
    placed = set(warriors)
    b: list[Building | None] = [None] * len(AREA_CODES)
    for area, (owner, kind) in (buildings or {}).items():
        b[AREA_INDEX[area]] = Building(owner, kind)
    return State(
        seats=seats,
        options=opts,
        phase=phase,
        turn=turn,
        buildings=tuple(b),
        warriors=tuple(code in placed for code in AREA_CODES),
        supply=opts.warriors - len(placed) - hand if supply is None else supply,
        hand=hand,
        money=money if money is not None else (10,) * seats,
        road=road if road is not None else (0,) * seats,
        turns=3,
    )


def play(state: State, seat: int, command: Command, *dice: int) -> tuple[tuple[Event, ...], State]:
    """Decide ``command`` with scripted ``dice``, fold the events, and return both."""
    rng = Dice(*dice)
    events = GAME.decide(state, seat, command, rng)
    assert not rng.faces, f"scripted dice left unused: {rng.faces}"
    for e in events:
        state = GAME.evolve(state, e)
    return events, state


def with_money(state: State, seat: int, amount: int) -> State:
    """The same position with ``seat`` holding ``amount`` pounds."""
    money = list(state.money)
    money[seat] = amount
    return attrs.evolve(state, money=tuple(money))


def spending(state: State) -> State:
    """The same position in the spend phase of the player on turn (as after a roll that gave nothing)."""
    return attrs.evolve(state, phase=Phase.SPEND)


def refused(state: State, seat: int, command: object, code: Code = Code.RULE) -> IllegalCommand:
    """Assert that ``command`` is refused with ``code`` and is not listed as legal."""
    assert command not in GAME.legal_commands(state, seat)
    with pytest.raises(IllegalCommand) as info:
        GAME.decide(state, seat, command, Dice())  # type: ignore[arg-type]
    assert info.value.code is code
    return info.value


# -- set-up -----------------------------------------------------------------------------


def test_setup_markers_on_dragon_space_and_mordred_supply_full() -> None:
    st = GAME.initial_state(4, MordredOptions())
    assert st.road == (0, 0, 0, 0) and st.money == (0, 0, 0, 0)
    assert st.supply == MordredOptions().warriors and warriors_on_map(st) == 0
    assert GAME.to_act(st) == (-1,)


def test_first_player_is_the_highest_roll_and_ties_reroll() -> None:
    st = GAME.initial_state(3, MordredOptions())
    # round 1: seats 0 and 1 tie on 12; round 2 (only they re-roll): seat 1 wins 6 to 3
    events, after = play(st, -1, Start(), 6, 6, 6, 6, 1, 1, 1, 2, 3, 3)
    (ev,) = events
    assert isinstance(ev, FirstPlayerRolled)
    assert ev.rounds == (((0, 6, 6), (1, 6, 6), (2, 1, 1)), ((0, 1, 2), (1, 3, 3)))
    assert ev.first == 1 and after.turn == 1 and after.phase is Phase.ROLL


# -- phases 1 and 2: roll and collect ------------------------------------------------------


def test_row_c_is_taken_when_no_row_is_declared() -> None:
    assert Roll() == Roll(Row.C)


def test_money_table_rows_grow_in_money_and_risk_and_row_c_is_half_black() -> None:
    def stats(row: Row) -> tuple[float, float, int]:
        cells = MONEY[row]
        return (
            sum(c.money for c in cells) / 6,
            sum(c.warriors for c in cells) / 6,
            sum(c.black for c in cells),
        )

    a, b, c = stats(Row.A), stats(Row.B), stats(Row.C)
    assert a[0] < b[0] < c[0]  # expected money per die
    assert a[1] < b[1] < c[1]  # expected warriors per die
    assert a[2] < b[2] < c[2] == 3  # black faces; row C: half of each die


def test_each_die_is_read_separately_against_the_declared_row() -> None:
    st = position(phase=Phase.ROLL, money=(0, 0, 0))
    _, after = play(st, 0, Roll(Row.A), 2, 4)
    assert after.money[0] == MONEY[Row.A][1].amount + MONEY[Row.A][3].amount
    assert after.phase is Phase.SPEND and after.hand == 0 and after.road[0] == 0


def test_black_cell_pays_its_money_and_as_many_warriors_and_road_spaces() -> None:
    # seed, phase 2: the cell shows the money to take; a black cell means taking "столько же"
    # (as many) warriors of Mordred too, and moving the marker as many spaces
    st = position(phase=Phase.ROLL, money=(0, 0, 0))
    white, black = MONEY[Row.C][0], MONEY[Row.C][5]
    assert not white.black and black.black
    events, after = play(st, 0, Roll(Row.C), 1, 6)
    assert events == (Rolled(0, Row.C, (1, 6), white.amount + black.amount, black.amount, black.amount),)
    assert after.money[0] == white.amount + black.amount
    assert after.hand == black.amount and after.supply == st.supply - black.amount
    assert after.road[0] == black.amount and after.phase is Phase.PLACE


def test_two_black_cells_pay_both_amounts_in_money_and_in_warriors() -> None:
    st = position(phase=Phase.ROLL, money=(0, 0, 0))
    a, b = MONEY[Row.C][4], MONEY[Row.C][5]
    _, after = play(st, 0, Roll(Row.C), 5, 6)
    assert after.money[0] == a.amount + b.amount == after.hand == after.road[0]


def test_two_black_dice_add_up() -> None:
    st = position(phase=Phase.ROLL)
    _, after = play(st, 0, Roll(Row.B), 5, 6)
    assert after.hand == MONEY[Row.B][4].amount + MONEY[Row.B][5].amount
    assert after.road[0] == after.hand


# -- phase 3: place Mordred's warriors -----------------------------------------------------


def test_warriors_must_be_placed_before_anything_else() -> None:
    st = position(phase=Phase.PLACE, hand=2, warriors=["SNO"])
    legal = GAME.legal_commands(st, 0)
    assert legal and all(isinstance(c, Place) for c in legal)
    refused(st, 0, Build("FLI", Kind.VILLAGE), Code.WRONG_PHASE)
    refused(st, 0, EndTurn(), Code.WRONG_PHASE)


def test_first_warriors_go_next_to_mordreds_castle() -> None:
    st = position(phase=Phase.PLACE, hand=1)
    assert set(placement_targets(st)) == {"HOL", "BEA", "SNO"}
    refused(st, 0, Place("CON"))
    refused(st, 0, Place("CAS"), Code.BAD_ARGUMENT)


def test_warrior_goes_next_to_any_warrior() -> None:
    st = position(phase=Phase.PLACE, hand=1, warriors=["SNO"])
    assert {"LLN", "CON", "HAR"} <= set(placement_targets(st))
    _, after = play(st, 0, Place("HAR"))
    assert has_warrior(after, "HAR") and after.hand == 0 and after.phase is Phase.SPEND


def test_detached_warrior_groups_let_warriors_be_placed_next_to_them() -> None:
    # CHE is cut off from the castle group (after the warriors between were beaten)
    st = position(phase=Phase.PLACE, hand=1, warriors=["SNO", "CHE"])
    assert {"ABG", "CDF"} <= set(placement_targets(st))
    _, after = play(st, 0, Place("CDF"))
    assert has_warrior(after, "CDF")


def test_only_one_warrior_per_area() -> None:
    st = position(phase=Phase.PLACE, hand=1, warriors=["SNO"])
    refused(st, 0, Place("SNO"))


def test_warrior_on_a_building_takes_it_on_a_good_roll_and_returns_the_building() -> None:
    st = position(phase=Phase.PLACE, hand=1, warriors=["SNO"], buildings={"CON": (1, Kind.TOWN)})
    need = 3  # Combat table: a town in the forest falls to 3 or more
    before = pieces_left(st, 1, Kind.TOWN)
    events, after = play(st, 0, Place("CON"), need)
    (ev,) = events
    assert isinstance(ev, Siege) and ev.success and ev.need == need and ev.owner == 1
    assert has_warrior(after, "CON") and building_at(after, "CON") is None
    assert pieces_left(after, 1, Kind.TOWN) == before + 1
    assert after.supply == st.supply


def test_warrior_on_a_building_returns_to_the_supply_on_a_bad_roll() -> None:
    st = position(phase=Phase.PLACE, hand=2, warriors=["SNO"], buildings={"CON": (1, Kind.TOWN)})
    events, after = play(st, 0, Place("CON"), 2)
    assert isinstance(events[0], Siege) and not events[0].success
    assert not has_warrior(after, "CON") and building_at(after, "CON") is not None
    assert after.supply == st.supply + 1 and after.hand == 1 and after.phase is Phase.PLACE
    # with a second warrior the player may try the same building again
    assert Place("CON") in GAME.legal_commands(after, 0)


def test_castle_in_the_mountains_is_hardest_to_take() -> None:
    st = position(phase=Phase.PLACE, hand=1, warriors=["CAS"], buildings={"SNO": (2, Kind.CASTLE)})
    events, _ = play(st, 0, Place("SNO"), 4)
    assert isinstance(events[0], Siege) and events[0].need == 5 and not events[0].success


# -- phase 4: spend money ----------------------------------------------------------------------


def test_first_building_of_the_game_must_go_on_a_black_bordered_area() -> None:
    st = position()
    err = refused(st, 0, Build("CON", Kind.VILLAGE))
    assert "black-bordered" in err.message
    events, after = play(st, 0, Build("FLI", Kind.VILLAGE))
    assert events == (Built(0, "FLI", Kind.VILLAGE, BUILDINGS[Kind.VILLAGE].forest, None),)
    assert after.money[0] == 10 - BUILDINGS[Kind.VILLAGE].forest


def test_after_the_first_building_anyone_may_build_next_to_any_building_with_the_surcharge() -> None:
    st = position(buildings={"FLI": (1, Kind.VILLAGE)})
    events, _ = play(st, 0, Build("DEN", Kind.VILLAGE))
    assert isinstance(events[0], Built) and events[0].cost == BUILDINGS[Kind.VILLAGE].forest + 1


def test_no_surcharge_next_to_your_own_building() -> None:
    st = position(buildings={"FLI": (0, Kind.VILLAGE)})
    events, _ = play(st, 0, Build("DEN", Kind.VILLAGE))
    assert isinstance(events[0], Built) and events[0].cost == BUILDINGS[Kind.VILLAGE].forest


def test_no_surcharge_on_a_black_bordered_area_away_from_your_buildings() -> None:
    st = position(buildings={"CHE": (0, Kind.VILLAGE), "FLI": (1, Kind.VILLAGE)})
    events, _ = play(st, 0, Build("WRX", Kind.VILLAGE))  # border, next to seat 1 only
    assert isinstance(events[0], Built) and events[0].cost == BUILDINGS[Kind.VILLAGE].forest
    events, _ = play(st, 0, Build("KNI", Kind.VILLAGE))  # border, next to nobody, mountains
    assert isinstance(events[0], Built) and events[0].cost == BUILDINGS[Kind.VILLAGE].mountains


def test_cannot_build_away_from_buildings_and_the_border() -> None:
    st = position(buildings={"FLI": (0, Kind.VILLAGE)})
    refused(st, 0, Build("SWA", Kind.VILLAGE))


def test_no_town_in_the_mountains() -> None:
    st = position(buildings={"FLI": (0, Kind.VILLAGE)})
    err = refused(st, 0, Build("KNI", Kind.TOWN))
    assert "mountains" in err.message


def test_cannot_build_on_an_occupied_area() -> None:
    st = position(buildings={"FLI": (1, Kind.VILLAGE)}, warriors=["WRX"])
    refused(st, 0, Build("FLI", Kind.TOWN))
    refused(st, 0, Build("WRX", Kind.VILLAGE))
    refused(st, 0, Build("CAS", Kind.CASTLE))


def test_rebuilding_your_own_building_takes_it_back_and_costs_full_price() -> None:
    st = position(buildings={"FLI": (0, Kind.VILLAGE)})
    events, after = play(st, 0, Build("FLI", Kind.TOWN))
    assert events == (Built(0, "FLI", Kind.TOWN, BUILDINGS[Kind.TOWN].forest, Kind.VILLAGE),)
    assert building_at(after, "FLI") is not None and building_at(after, "FLI").kind is Kind.TOWN  # type: ignore[union-attr]
    assert pieces_left(after, 0, Kind.VILLAGE) == BUILDINGS[Kind.VILLAGE].pieces
    refused(st, 0, Build("FLI", Kind.VILLAGE))  # the same type again is no rebuilding


def test_building_needs_the_money() -> None:
    st = with_money(position(buildings={"FLI": (0, Kind.VILLAGE)}), 0, 2)
    refused(st, 0, Build("WRX", Kind.VILLAGE))


def test_spending_in_any_order_and_keeping_the_rest() -> None:
    st = position(buildings={"FLI": (0, Kind.VILLAGE)})
    _, st = play(st, 0, Build("WRX", Kind.VILLAGE))
    _, st = play(st, 0, Build("DEN", Kind.VILLAGE))
    _, st = play(st, 0, EndTurn())
    assert st.money[0] == 10 - 2 * BUILDINGS[Kind.VILLAGE].forest and st.turn == 1 and st.phase is Phase.ROLL


def test_attack_costs_two_pounds_paid_before_the_roll() -> None:
    st = position(buildings={"FLI": (0, Kind.VILLAGE)}, warriors=["DEN"])
    _, after = play(st, 0, Attack("FLI", "DEN"), 1)
    assert after.money[0] == 8 and has_warrior(after, "DEN") and after.road == st.road
    # a failed attack may be tried again
    assert Attack("FLI", "DEN") in GAME.legal_commands(after, 0)


def test_attack_success_removes_the_warrior_and_moves_the_marker_back() -> None:
    st = position(buildings={"FLI": (0, Kind.CASTLE)}, warriors=["DEN"], road=(4, 0, 0))
    _, after = play(st, 0, Attack("FLI", "DEN"), 3)  # from a castle 3 is enough
    assert not has_warrior(after, "DEN") and after.supply == st.supply + 1
    assert after.road == (3, 0, 0) and after.money[0] == 8


def test_attack_then_build_on_the_freed_area() -> None:
    st = position(buildings={"FLI": (0, Kind.VILLAGE)}, warriors=["DEN"])
    assert Build("DEN", Kind.VILLAGE) not in GAME.legal_commands(st, 0)
    _, st = play(st, 0, Attack("FLI", "DEN"), 6)
    assert Build("DEN", Kind.VILLAGE) in GAME.legal_commands(st, 0)
    _, st = play(st, 0, Build("DEN", Kind.VILLAGE))
    assert building_at(st, "DEN") is not None


def test_attack_needs_your_building_next_to_the_warrior_and_two_pounds() -> None:
    st = position(buildings={"FLI": (1, Kind.VILLAGE), "CHE": (0, Kind.VILLAGE)}, warriors=["DEN"])
    refused(st, 0, Attack("FLI", "DEN"))  # not your building
    refused(st, 0, Attack("CHE", "DEN"))  # not next to it
    refused(st, 1, Attack("FLI", "WRX"))  # no warrior there
    refused(with_money(st, 1, 1), 1, Attack("FLI", "DEN"))


# -- the end -----------------------------------------------------------------------------------


def test_game_ends_when_every_warrior_is_on_the_map() -> None:
    st = position(phase=Phase.PLACE, hand=1, supply=0, warriors=["SNO"])
    events, after = play(st, 0, Place("HAR"))
    assert events[-1] == GameEnded(End.WARRIORS, "every warrior of Mordred is on the map")
    assert after.phase is Phase.OVER and GAME.to_act(after) == ()


def test_failed_siege_with_the_last_warrior_does_not_end_the_game() -> None:
    st = position(phase=Phase.PLACE, hand=1, supply=0, warriors=["SNO"], buildings={"CON": (1, Kind.VILLAGE)})
    _, after = play(st, 0, Place("CON"), 1)
    assert after.phase is Phase.SPEND and after.supply == 1 and after.ended is None


#: Forest areas on the border, enough for every castle of one player (Welshpool among them).
CASTLE_SITES = ("FLI", "WRX", "WEL", "HAY", "CHE")


def _castles(owner: int) -> dict[str, tuple[int, Kind]]:
    """Every castle of ``owner`` on the map."""
    pieces = BUILDINGS[Kind.CASTLE].pieces
    assert 3 <= pieces <= len(CASTLE_SITES)
    return {area: (owner, Kind.CASTLE) for area in CASTLE_SITES[:pieces]}


def test_game_ends_at_the_start_of_a_turn_when_that_player_has_used_up_a_building_type() -> None:
    st = position(buildings=_castles(1))
    events, after = play(st, 0, EndTurn())  # seat 1's turn starts with all its castles on the map
    assert isinstance(events[-1], GameEnded) and events[-1].reason is End.BUILDINGS
    assert "seat 1 has every castle" in events[-1].detail
    assert after.phase is Phase.OVER


def test_a_used_up_type_must_still_hold_at_the_start_of_that_players_own_next_turn() -> None:
    # facts C.2 (the published reading of the seed's end (b)): a player "has used all pieces of one
    # building type and still has done so at the start of his next turn"
    st = position(buildings=_castles(0))
    events, st = play(st, 0, EndTurn())
    assert events == (TurnEnded(0, 1),) and st.phase is Phase.ROLL  # seat 1's turn: no end yet
    _, st = play(spending(st), 1, EndTurn())  # seat 1, then seat 2, roll nothing and pass
    _, st = play(spending(st), 2, EndTurn())
    assert st.phase is Phase.OVER and st.ended is End.BUILDINGS  # still all on the map at seat 0's turn


def test_the_others_get_a_round_to_take_a_used_up_type_back() -> None:
    st = position(buildings=_castles(0), warriors=["NEW"])
    _, st = play(st, 0, EndTurn())
    # seat 1 rolls a warrior and takes the castle on Welshpool (a forest castle falls to 4 or more)
    st = attrs.evolve(st, phase=Phase.PLACE, hand=1, supply=st.supply - 1)
    events, st = play(st, 1, Place("WEL"), 4)
    assert isinstance(events[0], Siege) and events[0].success and pieces_left(st, 0, Kind.CASTLE) == 1
    _, st = play(st, 1, EndTurn())
    _, st = play(spending(st), 2, EndTurn())
    assert st.phase is Phase.ROLL and st.turn == 0 and st.ended is None


def test_a_used_up_type_of_another_player_ends_nothing_at_this_turns_start() -> None:
    st = position(buildings=_castles(2))
    events, after = play(st, 0, EndTurn())  # seat 1's turn starts; seat 2 is checked at its own
    assert events == (TurnEnded(0, 1),) and after.phase is Phase.ROLL


def test_next_turn_option_ends_the_game_at_the_very_next_turn() -> None:
    # the seed read word for word: "в начале хода" (at the start of a turn), whoever's turn it is
    opts = MordredOptions(used_up=UsedUp.NEXT_TURN)
    for owner in (0, 2):
        st = position(buildings=_castles(owner), options=opts)
        events, after = play(st, 0, EndTurn())
        assert isinstance(events[-1], GameEnded) and events[-1].reason is End.BUILDINGS
        assert f"seat {owner} has every castle" in events[-1].detail and after.phase is Phase.OVER


def test_used_up_option_reads_from_its_name() -> None:
    m = meeple.Match.start("mordred", seats=3, seed=1, options={"used_up": "next-turn"})
    assert m.options.used_up is UsedUp.NEXT_TURN
    assert meeple.Match.start("mordred", seats=3, seed=1).options.used_up is UsedUp.OWN_TURN


def test_using_up_a_type_mid_turn_ends_nothing_until_the_next_turn_starts() -> None:
    castles = {area: owned for area, owned in _castles(0).items() if area != "WEL"}
    st = with_money(position(buildings=castles), 0, 20)
    _, st = play(st, 0, Build("WEL", Kind.CASTLE))
    assert st.phase is Phase.SPEND and pieces_left(st, 0, Kind.CASTLE) == 0
    _, st = play(st, 0, Build("WEL", Kind.TOWN))  # rebuilding takes the castle back
    _, st = play(st, 0, EndTurn())
    assert st.phase is Phase.ROLL


def _faces(row: Row) -> tuple[int, int]:
    """A white face and the face of the biggest black cell of ``row``."""
    cells = MONEY[row]
    white = next(f for f in range(1, 7) if not cells[f - 1].black)
    black = max(range(1, 7), key=lambda f: cells[f - 1].warriors)
    return white, black


def test_game_ends_when_a_marker_cannot_move_forward_far_enough() -> None:
    white, black = _faces(Row.C)
    steps = MONEY[Row.C][black - 1].warriors
    st = position(phase=Phase.ROLL, road=(ROAD_FORWARD - steps + 1, 0, 0))  # one space short
    events, after = play(st, 0, Roll(Row.C), black, white)
    assert isinstance(events[-1], GameEnded) and events[-1].reason is End.ROAD
    assert after.road[0] == st.road[0] and after.phase is Phase.OVER
    # the money of both cells is collected (the black one pays too); no warrior is taken
    assert after.money[0] == st.money[0] + MONEY[Row.C][white - 1].money + MONEY[Row.C][black - 1].money
    assert after.hand == 0 and after.supply == st.supply


def test_marker_may_reach_the_last_space_exactly() -> None:
    white, black = _faces(Row.C)
    st = position(phase=Phase.ROLL, road=(ROAD_FORWARD - MONEY[Row.C][black - 1].warriors, 0, 0))
    _, after = play(st, 0, Roll(Row.C), black, white)
    assert after.road[0] == ROAD_FORWARD and after.phase is Phase.PLACE


def test_game_ends_when_a_marker_cannot_move_back() -> None:
    back = MordredOptions().road_back
    st = position(buildings={"FLI": (0, Kind.VILLAGE)}, warriors=["DEN"], road=(-back, 0, 0))
    events, after = play(st, 0, Attack("FLI", "DEN"), 6)
    assert isinstance(events[-1], GameEnded) and events[-1].reason is End.ROAD
    assert after.road[0] == -back and not has_warrior(after, "DEN")


def test_beating_mordred_in_his_castle_ends_the_game() -> None:
    st = position(buildings={"HOL": (0, Kind.VILLAGE)}, warriors=["SNO"])
    assert Attack("HOL", "CAS") in GAME.legal_commands(st, 0)
    _, missed = play(st, 0, Attack("HOL", "CAS"), 5)
    assert missed.phase is Phase.SPEND and missed.money[0] == 8
    events, after = play(st, 0, Attack("HOL", "CAS"), 6)
    assert isinstance(events[-1], GameEnded) and events[-1].reason is End.MORDRED
    assert GAME.outcome(after) is not None


# -- the winner ---------------------------------------------------------------------------------


def over(**kw: object) -> State:
    return attrs.evolve(position(**kw), phase=Phase.OVER, ended=End.WARRIORS)  # type: ignore[arg-type]


MORDRED_BOARD = {"warriors": ["SNO", "HAR", "LLN"], "buildings": {"FLI": (0, Kind.CASTLE), "WRX": (1, Kind.VILLAGE)}}


def test_mordred_wins_and_the_least_advanced_player_wins() -> None:
    out = GAME.outcome(over(road=(5, 2, 3), money=(9, 0, 0), **MORDRED_BOARD))
    assert out is not None and out.winners == (1,)
    assert "Mordred wins" in out.reason and "least advanced" in out.reason


def test_mordred_win_tie_on_the_road_goes_to_building_points() -> None:
    out = GAME.outcome(over(road=(2, 2, 3), money=(0, 9, 0), **MORDRED_BOARD))
    assert out is not None and out.winners == (0,) and "points" in out.reason


def test_mordred_win_tie_on_road_and_points_goes_to_money() -> None:
    board = {"warriors": ["SNO", "HAR", "LLN"], "buildings": {"FLI": (0, Kind.VILLAGE), "WRX": (1, Kind.VILLAGE)}}
    out = GAME.outcome(over(road=(2, 2, 0), money=(3, 4, 0), **board))
    assert out is not None and out.winners == (2,)  # seat 2 is alone at the back
    out = GAME.outcome(over(road=(2, 2, 3), money=(3, 4, 0), **board))
    assert out is not None and out.winners == (1,) and "money" in out.reason


def test_mordred_win_full_tie_is_a_draw() -> None:
    board = {"warriors": ["SNO", "HAR", "LLN"], "buildings": {"FLI": (0, Kind.VILLAGE), "WRX": (1, Kind.VILLAGE)}}
    out = GAME.outcome(over(road=(2, 2, 3), money=(4, 4, 0), **board))
    assert out is not None and out.winners == (0, 1) and "draw" in out.reason


def test_equal_warriors_and_buildings_is_a_win_for_king_arthur() -> None:
    board = {"warriors": ["SNO", "HAR"], "buildings": {"FLI": (0, Kind.VILLAGE), "WRX": (1, Kind.TOWN)}}
    out = GAME.outcome(over(road=(0, 5, 5), **board))
    assert out is not None and out.winners == (1,) and "King Arthur wins" in out.reason
    assert out.scores == (1, 3, 0)


def test_king_arthur_win_tie_on_points_goes_to_money_then_a_draw() -> None:
    board = {"warriors": ["SNO"], "buildings": {"FLI": (0, Kind.TOWN), "WRX": (1, Kind.TOWN)}}
    out = GAME.outcome(over(money=(1, 2, 5), **board))
    assert out is not None and out.winners == (1,) and "money" in out.reason
    out = GAME.outcome(over(money=(2, 2, 5), **board))
    assert out is not None and out.winners == (0, 1) and "draw" in out.reason


def test_no_outcome_while_the_game_goes_on() -> None:
    assert GAME.outcome(position()) is None


# -- more corners of the rules -------------------------------------------------------------------


def test_with_siege_any_a_warrior_may_be_placed_on_the_rollers_own_building() -> None:
    # rules version 2's reading: "a building of some player" includes the roller's own
    st = position(phase=Phase.PLACE, hand=1, warriors=["SNO"], buildings={"CON": (0, Kind.VILLAGE)},
                  options=MordredOptions(siege=SiegeTargets.ANY))
    assert Place("CON") in GAME.legal_commands(st, 0)
    assert set(placement_targets(st, 0)) == {"HOL", "BEA", "LLN", "CON", "HAR"}
    _, after = play(st, 0, Place("CON"), 6)
    assert has_warrior(after, "CON") and pieces_left(after, 0, Kind.VILLAGE) == BUILDINGS[Kind.VILLAGE].pieces


def test_by_default_a_warrior_besieges_only_other_players_buildings() -> None:
    # seed, phase 3: "... he may try to remove another player's building once more"
    st = position(phase=Phase.PLACE, hand=1, warriors=["SNO"],
                  buildings={"CON": (0, Kind.VILLAGE), "HAR": (1, Kind.VILLAGE)})
    assert st.options.siege is SiegeTargets.OTHERS
    assert set(GAME.legal_commands(st, 0)) == {Place("HOL"), Place("BEA"), Place("LLN"), Place("HAR")}
    assert set(placement_targets(st, 0)) == {"HOL", "BEA", "LLN", "HAR"}
    assert set(placement_targets(st)) == {"HOL", "BEA", "LLN", "CON", "HAR"}  # the neighbour rule alone
    err = refused(st, 0, Place("CON"))
    assert "your own village" in err.message and "siege='others'" in err.message
    events, after = play(st, 0, Place("HAR"), 3)  # a village in the mountains falls to 3
    assert events == (Siege(0, "HAR", 1, Kind.VILLAGE, 3, 3, True),) and has_warrior(after, "HAR")
    # the same building is another player's for seat 1's warriors
    assert Place("CON") in GAME.legal_commands(attrs.evolve(st, turn=1), 1)


def test_a_warrior_whose_only_areas_hold_the_rollers_own_buildings_besieges_one_of_them() -> None:
    # designed: a warrior is never kept back, so with nothing else in reach it besieges the roller's own
    st = position(phase=Phase.PLACE, hand=1,
                  buildings={"HOL": (0, Kind.VILLAGE), "BEA": (0, Kind.VILLAGE), "SNO": (0, Kind.CASTLE)})
    assert set(GAME.legal_commands(st, 0)) == {Place("HOL"), Place("BEA"), Place("SNO")}
    assert set(placement_targets(st, 0)) == {"HOL", "BEA", "SNO"}
    events, after = play(st, 0, Place("SNO"), 5)  # a castle in the mountains falls to 5
    assert events == (Siege(0, "SNO", 0, Kind.CASTLE, 5, 5, True),)
    assert has_warrior(after, "SNO") and building_at(after, "SNO") is None
    # one other player's building in reach is enough to spare the roller's own
    other = position(phase=Phase.PLACE, hand=1,
                     buildings={"HOL": (1, Kind.VILLAGE), "BEA": (0, Kind.VILLAGE), "SNO": (0, Kind.CASTLE)})
    assert GAME.legal_commands(other, 0) == (Place("HOL"),)
    refused(other, 0, Place("BEA"))


def test_the_heuristic_bot_besieges_its_own_buildings_only_under_siege_any() -> None:
    from meeple.games.mordred.bot import HeuristicBot

    def own_sieges(options: dict[str, str]) -> tuple[int, int]:
        own = forced = 0
        for seed in range(4):
            m = meeple.Match.start(GAME, 3, seed=seed, options=options)
            bots = [HeuristicBot(s) for s in range(3)]
            while not m.is_over:
                (seat,) = m.to_act
                st = m.state
                for e in m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat)):
                    if isinstance(e, Siege) and e.owner == e.seat:
                        own += 1
                        forced += all((b := building_at(st, a)) is not None and b.owner == seat
                                      for a in placement_targets(st))
        return own, forced

    own, forced = own_sieges({})
    assert own == forced  # by default only when every area in reach held the roller's own building
    assert own_sieges({"siege": "any"})[0] > 0


def test_short_supply_gives_the_warriors_left_but_the_marker_moves_in_full() -> None:
    st = position(phase=Phase.ROLL, supply=1, warriors=["SNO"])
    _, black = _faces(Row.C)
    _, after = play(st, 0, Roll(Row.C), black, black)  # two black cells: more warriors than the supply holds
    assert after.hand == 1 and after.supply == 0 and after.road[0] == 2 * MONEY[Row.C][black - 1].warriors > 1


def test_mordred_can_only_be_attacked_from_a_building_next_to_his_castle() -> None:
    st = position(buildings={"LLN": (0, Kind.CASTLE)})
    refused(st, 0, Attack("LLN", "CAS"))


def test_the_turn_passes_clockwise_and_wraps_round() -> None:
    st = position(seats=4, turn=3)
    _, after = play(st, 3, EndTurn())
    assert after.turn == 0 and after.phase is Phase.ROLL


def test_only_the_player_on_turn_acts() -> None:
    st = position(turn=1)
    assert GAME.to_act(st) == (1,)
    assert GAME.legal_commands(st, 0) == ()


def test_rolling_twice_in_a_turn_is_refused() -> None:
    refused(position(), 0, Roll(Row.A), Code.WRONG_PHASE)
