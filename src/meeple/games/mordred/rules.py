"""Mordred's rules: set-up, the turn (roll, place warriors, spend), the end and the winner.

Pure functions of states, commands and events: the game object
(:mod:`.game`) hands them to the engine. Each rule cites the section of the
rule text it implements (the seed file ``shared/seeds/004_0a5a142feb15eff2.txt``);
``docs/rules/mordred.md`` is the English rulebook of this implementation.

>>> from meeple.engine import Rng
>>> st = initial_state(3, MordredOptions())
>>> to_act(st)
(-1,)
>>> st = evolve(st, decide(st, -1, Start(), Rng(5))[0])
>>> to_act(st) == (st.first,) and legal_commands(st, st.first)[0]
Roll(row=<Row.A: 'A'>)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import compress
from typing import TypeVar

from meeple.engine import ENGINE, Code, Command, Event, IllegalCommand, Outcome, Rng

from .commands import Attack, Build, EndTurn, Place, Roll, Start
from .data import (
    AREA_CODES,
    AREA_INDEX,
    AREAS,
    ASSAULT,
    ATTACK,
    ATTACK_COST,
    BORDER_INDICES,
    BUILDINGS,
    CASTLE_AREA,
    CASTLE_INDEX,
    CHEAPEST,
    KIND_INDEX,
    KINDS,
    NEIGHBOURS,
    SIEGE,
    SURCHARGE,
    Kind,
    Row,
    build_price,
    money_cell,
)
from .events import (
    Assaulted,
    Attacked,
    Built,
    FirstPlayerRolled,
    GameEnded,
    Rolled,
    Siege,
    TurnEnded,
    WarriorPlaced,
)
from .fast import ATTACKS, END_TURN, INDICES, PIECES, PLACES, ROLLS, builds, next_to_warrior, spare_own, targets
from .state import Board, Building, End, LastRoll, MordredOptions, Phase, SiegeTargets, State, UsedUp

_T = TypeVar("_T")

#: Points of each building type, in :data:`~.data.KINDS` order.
_POINTS_IN_ORDER = tuple(BUILDINGS[kind].points for kind in KINDS)


# -- set-up ------------------------------------------------------------------------------


def initial_state(seats: int, options: MordredOptions) -> State:
    """Return the table before the first-player roll: empty map, markers on the dragon."""
    return State(
        seats=seats,
        options=options,
        supply=options.warriors,
        money=(0,) * seats,
        road=(0,) * seats,
    )


def to_act(state: State) -> tuple[int, ...]:
    """The engine at set-up, nobody once over, else the player on turn."""
    phase = state.phase
    if phase is Phase.SETUP:
        return (ENGINE,)
    if phase is Phase.OVER:
        return ()
    return _ON_TURN[state.turn]


_ON_TURN = tuple((seat,) for seat in range(4))


def auto_command(state: State) -> Command:
    """The engine's only command: the first-player roll."""
    return Start()


# -- legal commands ----------------------------------------------------------------------

# The lists are built from the commands made once in :mod:`.fast`, and its whole-map forms of the
# per-area rules below (``targets`` for placement_targets, ``builds`` for build_cost).


def legal_commands(state: State, seat: int) -> tuple[Command, ...]:
    """Every command ``seat`` may play now: a row to roll on, where to place a warrior, or what to spend on."""
    if seat != state.turn or state.phase is Phase.SETUP or state.phase is Phase.OVER:
        return ()
    if state.phase is Phase.ROLL:
        return ROLLS
    if state.phase is Phase.PLACE:
        found = targets(state.warriors)
        if state.options.siege is SiegeTargets.OTHERS:
            found = spare_own(found, state.buildings, seat)
        return tuple(PLACES[i] for i in found)
    cash = state.money[seat]
    out: list[Command] = []
    if cash >= CHEAPEST:
        out.extend(builds(state, seat, cash))
    if cash >= ATTACK_COST:
        out.extend(attack_options(state, seat))
    out.append(END_TURN)
    return tuple(out)


def attack_options(state: State, seat: int) -> list[Command]:
    """Every attack ``seat`` could make: from its building on an area next to a warrior or the castle."""
    buildings, warriors = state.buildings, state.warriors
    out: list[Command] = []
    for i in compress(INDICES, buildings):
        if buildings[i].owner == seat:  # type: ignore[union-attr]  # compress kept the buildings only
            for n in NEIGHBOURS[i]:
                if n == CASTLE_INDEX or warriors[n]:
                    out.append(ATTACKS[(i, n)])
    return out


# -- board queries (pure; they accept a State or a View: phases 3 and 4 asked of one area) ---


def building_at(board: Board, area: str) -> Building | None:
    """Return the building on ``area``, if any."""
    return board.buildings[AREA_INDEX[area]]


def has_warrior(board: Board, area: str) -> bool:
    """True if a warrior of Mordred stands on ``area`` (Mordred himself holds his castle)."""
    return area == CASTLE_AREA or board.warriors[AREA_INDEX[area]]


def warriors_on_map(board: Board) -> int:
    """Count Mordred's warriors on the map (not Mordred himself)."""
    return sum(board.warriors)


def buildings_on_map(board: Board, seat: int | None = None) -> int:
    """Count the buildings on the map (of ``seat`` only, if given)."""
    if seat is None:
        return len(board.buildings) - board.buildings.count(None)
    return sum(board.standing[seat])


def points(board: Board, seat: int) -> int:
    """Return ``seat``'s victory points: the Building-table points of its buildings on the map."""
    return sum(n * p for n, p in zip(board.standing[seat], _POINTS_IN_ORDER))


def standing(board: Board, seat: int) -> tuple[int, int, int]:
    """How many villages, towns and castles of ``seat`` stand on the map (:data:`~.data.KINDS` order)."""
    return board.standing[seat]


def pieces_left(board: Board, seat: int, kind: Kind) -> int:
    """Return how many pieces of ``kind`` ``seat`` still has off the map."""
    return BUILDINGS[kind].pieces - board.standing[seat][KIND_INDEX[kind]]


def used_up(board: Board, seat: int) -> Kind | None:
    """The first building type (in table order) of which ``seat`` has every piece on the map, if any."""
    for kind, on_map, pieces in zip(KINDS, standing(board, seat), PIECES):
        if on_map >= pieces:
            return kind
    return None


def placement_targets(board: Board, seat: int | None = None) -> tuple[str, ...]:
    """Areas a warrior may be placed on: no warrior yet, next to an area holding one.

    Any warrior counts, detached groups included, and so does Mordred in his
    castle (rules, phase 3). With ``seat`` (the roller) and option
    ``siege="others"``, the areas holding ``seat``'s own buildings drop out,
    unless every area left holds one: then the warrior besieges one of them,
    since a warrior is never kept back (designed; ``docs/rules/mordred.md``).
    """
    found = targets(board.warriors)
    if seat is not None and board.options.siege is SiegeTargets.OTHERS:
        found = spare_own(found, board.buildings, seat)
    return tuple(AREA_CODES[i] for i in found)


def next_to_own(board: Board, seat: int, area: str) -> bool:
    """True if an area next to ``area`` holds a building of ``seat``."""
    buildings = board.buildings
    return any((b := buildings[n]) is not None and b.owner == seat for n in NEIGHBOURS[AREA_INDEX[area]])


def next_to_any(board: Board, area: str) -> bool:
    """True if an area next to ``area`` holds anybody's building."""
    buildings = board.buildings
    return any(buildings[n] is not None for n in NEIGHBOURS[AREA_INDEX[area]])


def build_cost(board: Board, seat: int, area: str, kind: Kind) -> tuple[int, str]:
    """Return ``(cost, "")`` if ``seat`` may build ``kind`` on ``area``, else ``(0, reason)``.

    Money and pieces are not checked here. Rules, phase 4: build on a
    black-bordered area or next to anybody's building (so the first building
    of the game goes on the border); never on an occupied area except to
    replace your own building with another type at full price; no town in
    the mountains; £1 more away from your own buildings, except on the border.
    """
    if not _is_area(area) or area == CASTLE_AREA:
        return 0, f"{area!r} is not an area you can build on"
    terrain = AREAS[area].terrain
    price = build_price(kind, terrain)
    if price is None:
        return 0, f"a {kind.value} cannot stand in the {terrain.value}"
    surcharge, why = build_site(board, seat, area)
    if why:
        return 0, why
    here = building_at(board, area)
    if here is not None and here.kind is kind:
        return 0, f"you already have a {kind.value} on {area}"
    return price + surcharge, ""


def build_site(board: Board, seat: int, area: str) -> tuple[int, str]:
    """Return ``(surcharge, "")`` if ``seat`` may build on the land area ``area`` at all, else ``(0, reason)``.

    The checks of :func:`build_cost` that do not depend on the building type.
    """
    if has_warrior(board, area):
        return 0, f"a warrior of Mordred holds {area}; beat it first"
    here = building_at(board, area)
    border = AREA_INDEX[area] in BORDER_INDICES
    if here is not None:
        if here.owner != seat:
            return 0, f"seat {here.owner} already has a building on {area}"
    elif not border and not next_to_any(board, area):
        if buildings_on_map(board) == 0:
            return 0, "with no building on the map (as at the start), build on a black-bordered area"
        return 0, f"{area} is neither black-bordered nor next to a building"
    if not border and not next_to_own(board, seat, area):
        return SURCHARGE, ""
    return 0, ""


def siege_need(kind: Kind, area: str) -> int:
    """The roll a warrior needs to take a ``kind`` standing on ``area`` (Combat table)."""
    return SIEGE[(kind, AREAS[area].terrain)]


# -- decide --------------------------------------------------------------------------------


def decide(state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
    """Check ``command`` against the rules and return its events (dice rolled here)."""
    # the engine passes only this game's command classes: pick the case by exact type, commonest first
    if type(command) is Build:
        _need_phase(state, Phase.SPEND, "build", command)
        return _build(state, seat, command.area, command.kind, command)
    if type(command) is EndTurn:
        _need_phase(state, Phase.SPEND, "end your turn", command)
        return _end_turn(state, seat)
    if type(command) is Roll:
        _need_phase(state, Phase.ROLL, "roll", command)
        if not isinstance(command.row, Row):
            raise _illegal("declare row A, B or C", Code.BAD_ARGUMENT, command)
        return _roll(state, seat, command.row, rng)
    if type(command) is Place:
        _need_phase(state, Phase.PLACE, "place a warrior", command)
        return _place(state, seat, command.area, command, rng)
    if type(command) is Attack:
        _need_phase(state, Phase.SPEND, "attack", command)
        return _attack(state, seat, command.source, command.target, command, rng)
    if type(command) is Start:
        if state.phase is not Phase.SETUP:
            raise _illegal("the first player is already chosen", Code.WRONG_PHASE, command)
        return (_first_player(state, rng),)
    raise _illegal(f"{command!r} is not a mordred command", Code.UNKNOWN_COMMAND, command)


def _illegal(message: str, code: Code, command: Command) -> IllegalCommand:
    return IllegalCommand(code, message, command)


def _need_phase(state: State, phase: Phase, what: str, command: Command) -> None:
    if state.phase is phase:
        return
    todo = {
        Phase.SETUP: "wait for the first-player roll",
        Phase.ROLL: "declare a row and roll first",
        Phase.PLACE: f"place your {state.hand} warrior(s) first",
        Phase.SPEND: "you have rolled already: build, attack or end your turn",
        Phase.OVER: "the game is over",
    }[state.phase]
    raise _illegal(f"you cannot {what} now: {todo}", Code.WRONG_PHASE, command)


def _first_player(state: State, rng: Rng) -> FirstPlayerRolled:
    """Set-up: everybody rolls both dice; the highest total starts; tied leaders re-roll."""
    rolling = list(range(state.seats))
    rounds: list[tuple[tuple[int, int, int], ...]] = []
    while True:
        this = tuple((s, rng.die(), rng.die()) for s in rolling)
        rounds.append(this)
        best = max(a + b for _, a, b in this)
        rolling = [s for s, a, b in this if a + b == best]
        if len(rolling) == 1:
            return FirstPlayerRolled(tuple(rounds), rolling[0])


def _roll(state: State, seat: int, row: Row, rng: Rng) -> tuple[Event, ...]:
    """Phases 1-2: roll two dice, read each against ``row``: every cell pays its money, black cells bring
    as many warriors too and move the marker as many spaces along the road."""
    dice = (rng.die(), rng.die())
    first, second = money_cell(row, dice[0]), money_cell(row, dice[1])
    money = first.money + second.money
    black = first.warriors + second.warriors
    if state.road[seat] + black > state.options.road_forward:
        # end (c): the money is collected, but the marker cannot move, so the game ends
        # before any warrior is placed (they stay in Mordred's supply)
        detail = f"seat {seat}'s marker cannot move {black} space(s) forward along Mordred's road"
        return (Rolled(seat, row, dice, money, 0, 0), GameEnded(End.ROAD, detail))
    return (Rolled(seat, row, dice, money, min(black, state.supply), black),)


def _place(state: State, seat: int, area: str, command: Command, rng: Rng) -> tuple[Event, ...]:
    """Phase 3: a warrior goes next to a warrior; on a building it must win a roll.

    With ``siege="others"`` not on the roller's own building while another area is in reach.
    """
    i = AREA_INDEX.get(area) if isinstance(area, str) else None
    if i is None or i == CASTLE_INDEX:
        raise _illegal(f"{area!r} is not an area a warrior can stand on", Code.BAD_ARGUMENT, command)
    if state.warriors[i]:
        raise _illegal(f"a warrior already stands on {area}: one warrior per area", Code.RULE, command)
    if not next_to_warrior(state.warriors, i):
        raise _illegal(f"{area} is not next to an area holding a warrior", Code.RULE, command)
    here = state.buildings[i]
    if (here is not None and here.owner == seat and state.options.siege is SiegeTargets.OTHERS
            and i not in spare_own(targets(state.warriors), state.buildings, seat)):
        raise _illegal(f"{area} holds your own {here.kind.value}: besiege another player's building or "
                       "an empty area (option siege='others')", Code.RULE, command)
    event: Event
    back = 0
    if here is None:
        event = WarriorPlaced(seat, area)
    else:
        need = siege_need(here.kind, area)
        die = rng.die()
        event = Siege(seat, area, here.owner, here.kind, die, need, die >= need)
        back = 0 if die >= need else 1
    if state.hand == 1 and state.supply + back == 0:
        return (event, GameEnded(End.WARRIORS, "every warrior of Mordred is on the map"))
    return (event,)


def _build(state: State, seat: int, area: str, kind: Kind, command: Command) -> tuple[Event, ...]:
    """Phase 4: build where the rules allow, paying the Building-table price (+£1 away from home)."""
    if not isinstance(kind, Kind):
        raise _illegal("build a village, a town or a castle", Code.BAD_ARGUMENT, command)
    cost, why = build_cost(state, seat, area, kind)
    if why:
        raise _illegal(f"you cannot build there: {why}", Code.RULE, command)
    if pieces_left(state, seat, kind) <= 0:
        raise _illegal(f"all your {kind.value} pieces are on the map", Code.RULE, command)
    if state.money[seat] < cost:
        raise _illegal(f"a {kind.value} on {area} costs £{cost}; you have £{state.money[seat]}", Code.RULE, command)
    here = building_at(state, area)
    return (Built(seat, area, kind, cost, here.kind if here is not None else None),)


def _attack(state: State, seat: int, source: str, target: str, command: Command, rng: Rng) -> tuple[Event, ...]:
    """Phase 4: pay £2, then roll from your building against an adjacent warrior or the castle."""
    if not (_is_area(source) and _is_area(target)):
        raise _illegal("name a source and a target area by code", Code.BAD_ARGUMENT, command)
    base = building_at(state, source)
    if base is None or base.owner != seat:
        raise _illegal(f"you have no building on {source} to attack from", Code.RULE, command)
    if target not in AREAS[source].neighbours:
        raise _illegal(f"{target} is not next to {source}", Code.RULE, command)
    if not has_warrior(state, target):
        raise _illegal(f"no warrior of Mordred stands on {target}", Code.RULE, command)
    if state.money[seat] < ATTACK_COST:
        raise _illegal(f"an attack costs £{ATTACK_COST}; you have £{state.money[seat]}", Code.RULE, command)
    die = rng.die()
    if target == CASTLE_AREA:
        won = die >= ASSAULT
        assault = Assaulted(seat, source, die, ASSAULT, won)
        if won:
            return (assault, GameEnded(End.MORDRED, f"seat {seat} beat Mordred in his castle on Anglesey"))
        return (assault,)
    need = ATTACK[base.kind]
    won = die >= need
    fits = state.road[seat] - 1 >= -state.options.road_back
    attacked = Attacked(seat, source, target, die, need, won, 1 if won and fits else 0)
    if won and not fits:
        detail = f"seat {seat}'s marker cannot move back along Mordred's road"
        return (attacked, GameEnded(End.ROAD, detail))
    return (attacked,)


def _end_turn(state: State, seat: int) -> tuple[Event, ...]:
    """Pass the turn clockwise; at the start of the next turn check end (b), a used-up building type.

    By default only the player now on turn is checked: a type used up in a
    player's turn ends the game if it is still used up when that player's
    next turn starts (``UsedUp.OWN_TURN``); with ``UsedUp.NEXT_TURN`` every
    player is checked at every turn's start.
    """
    nxt = (seat + 1) % state.seats
    ended = TurnEnded(seat, nxt)
    watched = (nxt,) if state.options.used_up is UsedUp.OWN_TURN else range(state.seats)
    for s in watched:
        kind = used_up(state, s)
        if kind is not None:
            detail = f"at the start of seat {nxt}'s turn seat {s} has every {kind.value} on the map"
            return (ended, GameEnded(End.BUILDINGS, detail))
    return (ended,)


# -- evolve ----------------------------------------------------------------------------------

# evolve runs for every event played, replayed or verified, so it picks the case by exact
# type, commonest first, and builds each new State directly, its fields in declaration order:
#   State(seats, options, phase, turn, first,
#         buildings, standing, warriors, supply, hand,
#         money, road, turns, last_roll, ended)


def evolve(state: State, event: Event) -> State:
    """Fold one event into the state (never draws, never fails on a decided event)."""
    s = state
    if type(event) is Built:
        i, seat, replaced = AREA_INDEX[event.area], event.seat, event.replaced
        standing = _count(s.standing, seat, event.kind, 1)
        if replaced is not None:
            standing = _count(standing, seat, replaced, -1)
        return State(s.seats, s.options, s.phase, s.turn, s.first,
                     _put(s.buildings, i, _BUILDING[seat, event.kind]), standing, s.warriors, s.supply, s.hand,
                     _bump(s.money, seat, -event.cost), s.road, s.turns, s.last_roll, s.ended)  # fmt: skip
    if type(event) is TurnEnded:
        return State(s.seats, s.options, Phase.ROLL, event.next, s.first,
                     s.buildings, s.standing, s.warriors, s.supply, s.hand,
                     s.money, s.road, s.turns + 1, s.last_roll, s.ended)  # fmt: skip
    if type(event) is Rolled:
        seat, w = event.seat, event.warriors
        roll = LastRoll(seat, event.row, event.dice, event.money, w)
        return State(s.seats, s.options, Phase.PLACE if w else Phase.SPEND, s.turn, s.first,
                     s.buildings, s.standing, s.warriors, s.supply - w, w,
                     _bump(s.money, seat, event.money), _bump(s.road, seat, event.steps), s.turns, roll, s.ended)  # fmt: skip
    if type(event) is WarriorPlaced:
        return _placed(s, AREA_INDEX[event.area], stays=True)
    if type(event) is Siege:
        if not event.success:
            return _placed(s, AREA_INDEX[event.area], stays=False)
        return _placed(s, AREA_INDEX[event.area], stays=True, lost=_count(s.standing, event.owner, event.kind, -1))
    if type(event) is Attacked:
        seat = event.seat
        money = _bump(s.money, seat, -ATTACK_COST)
        if not event.success:
            return State(s.seats, s.options, s.phase, s.turn, s.first,
                         s.buildings, s.standing, s.warriors, s.supply, s.hand,
                         money, s.road, s.turns, s.last_roll, s.ended)  # fmt: skip
        return State(s.seats, s.options, s.phase, s.turn, s.first,
                     s.buildings, s.standing, _put(s.warriors, AREA_INDEX[event.target], False), s.supply + 1, s.hand,
                     money, _bump(s.road, seat, -event.steps), s.turns, s.last_roll, s.ended)  # fmt: skip
    if type(event) is Assaulted:
        return State(s.seats, s.options, s.phase, s.turn, s.first,
                     s.buildings, s.standing, s.warriors, s.supply, s.hand,
                     _bump(s.money, event.seat, -ATTACK_COST), s.road, s.turns, s.last_roll, s.ended)  # fmt: skip
    if type(event) is FirstPlayerRolled:
        first = event.first
        return State(s.seats, s.options, Phase.ROLL, first, first,
                     s.buildings, s.standing, s.warriors, s.supply, s.hand,
                     s.money, s.road, 1, s.last_roll, s.ended)  # fmt: skip
    if type(event) is GameEnded:
        return State(s.seats, s.options, Phase.OVER, s.turn, s.first,
                     s.buildings, s.standing, s.warriors, s.supply, s.hand,
                     s.money, s.road, s.turns, s.last_roll, event.reason)  # fmt: skip
    raise TypeError(f"unknown mordred event {event!r}")


def _placed(s: State, i: int, *, stays: bool, lost: tuple[tuple[int, int, int], ...] | None = None) -> State:
    """A warrior left the hand: it stands on area ``i`` or returns to the supply.

    ``lost``: the counts of ``standing`` once the building on area ``i`` (if any) went home.
    """
    hand = s.hand - 1
    phase = Phase.PLACE if hand else Phase.SPEND
    if not stays:
        return State(s.seats, s.options, phase, s.turn, s.first,
                     s.buildings, s.standing, s.warriors, s.supply + 1, hand,
                     s.money, s.road, s.turns, s.last_roll, s.ended)  # fmt: skip
    return State(s.seats, s.options, phase, s.turn, s.first,
                 _put(s.buildings, i, None), s.standing if lost is None else lost, _put(s.warriors, i, True),
                 s.supply, hand,
                 s.money, s.road, s.turns, s.last_roll, s.ended)  # fmt: skip


#: One instance of each building a seat can stand on the map (they are frozen values).
_BUILDING: Mapping[tuple[int, Kind], Building] = {(seat, kind): Building(seat, kind) for seat in range(4) for kind in KINDS}


def _count(standing: tuple[tuple[int, int, int], ...], seat: int, kind: Kind, delta: int) -> tuple[tuple[int, int, int], ...]:
    """``standing`` with ``delta`` buildings of ``kind`` for ``seat``."""
    v, t, c = standing[seat]
    k = KIND_INDEX[kind]
    mine = (v + delta, t, c) if k == 0 else (v, t + delta, c) if k == 1 else (v, t, c + delta)
    return (*standing[:seat], mine, *standing[seat + 1 :])


def _bump(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    """``values`` (one per seat) with ``delta`` added to ``seat``'s."""
    changed = list(values)
    changed[seat] += delta
    return tuple(changed)


def _put(per_area: tuple[_T, ...], i: int, value: _T) -> tuple[_T, ...]:
    """``per_area`` (a tuple in map order) with ``value`` for area ``i``."""
    return (*per_area[:i], value, *per_area[i + 1 :])


# -- the end ---------------------------------------------------------------------------------


def outcome(state: State) -> Outcome | None:
    """Once over: Mordred or King Arthur wins, then the rules pick the winning player(s)."""
    if state.ended is None:
        return None
    return decide_winner(state)


def decide_winner(state: State) -> Outcome:
    """Apply "Конец игры": Mordred wins if his warriors outnumber all buildings.

    Then the least-advanced player on the road wins, ties broken by building
    points, then money; otherwise (King Arthur wins) most building points,
    then money. Players still tied share the result (a draw between them).
    """
    seats = range(state.seats)
    scores = tuple(points(state, s) for s in seats)
    warriors, buildings = warriors_on_map(state), buildings_on_map(state)
    why = _END_TEXT[state.ended] if state.ended is not None else "the game ended"
    if warriors > buildings:
        low = min(state.road)
        tied = [s for s in seats if state.road[s] == low]
        head = f"{why}; Mordred wins ({warriors} warriors against {buildings} buildings)"
        keys: list[tuple[str, Callable[[int], int]]] = [
            ("least advanced on the road", lambda s: -state.road[s]),
            ("most building points", lambda s: scores[s]),
            ("most money", lambda s: state.money[s]),
        ]
    else:
        tied = list(seats)
        head = f"{why}; King Arthur wins ({warriors} warriors against {buildings} buildings)"
        keys = [("most building points", lambda s: scores[s]), ("most money", lambda s: state.money[s])]
    reason = ""
    for label, key in keys:
        best = max(key(s) for s in tied)
        tied = [s for s in tied if key(s) == best]
        if len(tied) == 1:
            reason = f"{head}; seat {tied[0]} wins with the {label}"
            break
    else:
        reason = f"{head}; a draw between seats {', '.join(map(str, tied))}"
    return Outcome(tuple(tied), scores, reason)


_END_TEXT: Mapping[End, str] = {
    End.WARRIORS: "every warrior of Mordred is on the map",
    End.BUILDINGS: "a player has every building of one type on the map",
    End.ROAD: "a marker could not move along Mordred's road",
    End.MORDRED: "Mordred was beaten in his castle",
}


def _is_area(area: object) -> bool:
    return isinstance(area, str) and area in AREA_INDEX
