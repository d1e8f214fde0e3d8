"""The heuristic bot for Mordred: sees only its view and the legal commands.

It first asks which side it wants to win. If Mordred won now, the
least-advanced marker on the road would win; if King Arthur won, the most
building points. So a bot whose marker trails the others' (and that is not
ahead on points) is glad to see Mordred win, and the others fight him. Then:

* row: expected money minus weighted expected warriors (a heavier weight the
  likelier a Mordred win it does not want, the further its marker is ahead,
  and the nearer the end of the road);
* warriors: on buildings of the leading opponent where a siege is likely,
  or where they keep Mordred's count low when it fights him;
* spending: points per pound for buildings, attacks on warriors when Mordred
  threatens or its marker must come back, the castle assault only when
  ending the game now would make it win.

>>> import meeple
>>> m = meeple.Match.start("mordred", seats=3, seed=2)
>>> bot = HeuristicBot(seed=1)
>>> seat = m.to_act[0]
>>> bot.choose(m.view(seat), m.legal(seat), seat) in m.legal(seat)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from meeple.engine import Command, Rng

from .commands import Attack, Build, EndTurn, Place, Roll
from .data import AREAS, ASSAULT, ATTACK, BUILDINGS, CASTLE_AREA, MONEY, Row
from .rules import (
    build_cost,
    building_at,
    buildings_on_map,
    has_warrior,
    pieces_left,
    points,
    siege_need,
    warriors_on_map,
)
from .view import View


def _row_stats(row: Row) -> tuple[float, float]:
    """Expected money and expected warriors of one roll of two dice on ``row``."""
    cells = MONEY[row]
    money = sum(c.money for c in cells) / 3
    black = sum(c.warriors for c in cells) / 3
    return money, black


_ROWS = {row: _row_stats(row) for row in Row}

#: Row choice: the weight of one expected warrior against one expected pound.
BASE_WEIGHT = 1.1
#: Extra weight per road space this bot's marker is ahead of the least-advanced other marker.
AHEAD_WEIGHT = 0.1
#: Extra weight per warrior Mordred is closer than ``THREAT_FROM`` to outnumbering the buildings.
THREAT_WEIGHT = 0.2
THREAT_FROM = -4
#: Extra weight when Mordred is near (``FEAR_FROM``) and the marker is not ``FEAR_MARGIN`` spaces behind all others.
FEAR_WEIGHT = 1.0
FEAR_FROM = -4
#: Extra weight when Mordred is winning now (``DOOM_FROM``) and this bot's marker is not the last.
DOOM_WEIGHT = 2.0
DOOM_FROM = 0
#: Worth of a new building next to warriors when the marker must come back (times its attack odds).
BASE_BONUS = 0.3
#: How much more an attack is worth when Mordred wins now and the marker must come back.
RETREAT_URGENCY = 3.0
FEAR_MARGIN = 4


def _p(need: int) -> float:
    """Chance that one die shows ``need`` or more."""
    return max(0, 7 - need) / 6


def threat(view: View) -> int:
    """How close Mordred is: warriors on the map minus buildings (positive: he wins now)."""
    return warriors_on_map(view) - buildings_on_map(view)


def _best_by(seats: Sequence[int], view: View) -> int:
    return max(seats, key=lambda s: (points(view, s), view.money[s], -s))


def mordred_winner(view: View) -> int:
    """The seat that would win if the game ended now with Mordred winning."""
    low = min(view.road)
    return _best_by([s for s in range(view.seats) if view.road[s] == low], view)


def arthur_winner(view: View) -> int:
    """The seat that would win if the game ended now with King Arthur winning."""
    return _best_by(range(view.seats), view)


def leaders(view: View) -> list[int]:
    """Seats that would win if the game ended now (a quick reading of the winner rule)."""
    return [mordred_winner(view) if threat(view) > 0 else arthur_winner(view)]


def wants_mordred(view: View, seat: int) -> bool:
    """True if a Mordred win would be ``seat``'s win and a King Arthur win would not."""
    return mordred_winner(view) == seat and arthur_winner(view) != seat


class HeuristicBot:
    """A rule-of-thumb player; ``seed`` breaks ties between equal choices."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed & ((1 << 64) - 1))

    def choose(self, view: View, legal: Sequence[Command], seat: int) -> Command:
        """Return the legal command this bot likes best."""
        first = legal[0]
        if isinstance(first, Roll):
            return Roll(self._row(view, seat))
        if isinstance(first, Place):
            return self._best(legal, lambda c: self._place_value(view, seat, c))
        return self._spend(view, legal, seat)

    # -- helpers ---------------------------------------------------------------
    def _best(self, legal: Sequence[Command], value: Callable[[Command], float]) -> Command:
        scored = [(value(c), self._rng.below(1000), i) for i, c in enumerate(legal)]
        return legal[max(scored)[2]]

    def _row(self, view: View, seat: int) -> Row:
        """Pick the row with the best money minus weighted warriors."""
        others = [view.road[s] for s in range(view.seats) if s != seat]
        ahead = view.road[seat] - min(others)
        room = view.options.road_forward - view.road[seat]
        weight = BASE_WEIGHT + AHEAD_WEIGHT * max(0, ahead)
        danger = threat(view)
        if danger > THREAT_FROM and ahead >= 0:
            weight += THREAT_WEIGHT * (danger - THREAT_FROM)
        if danger > FEAR_FROM and ahead > -FEAR_MARGIN:
            weight += FEAR_WEIGHT
        if danger >= DOOM_FROM and mordred_winner(view) != seat:
            weight += DOOM_WEIGHT
        if room <= 4:
            weight += 3.0
        scores = {row: money - weight * black for row, (money, black) in _ROWS.items()}
        return max(Row, key=lambda r: (scores[r], r.value))

    def _place_value(self, view: View, seat: int, cmd: Command) -> float:
        assert isinstance(cmd, Place)
        area = cmd.area
        here = building_at(view, area)
        pro = wants_mordred(view, seat)
        target = mordred_winner(view) if pro else arthur_winner(view)
        if here is not None:
            if here.owner == seat:
                return -10.0
            p = _p(siege_need(here.kind, area))
            value = p * BUILDINGS[here.kind].points * (1.5 if here.owner == target else 1.0)
            # a siege adds 2p to Mordred's lead over the buildings, an empty area 1
            return value + (2 * p - 1 if pro else 1 - 2 * p)
        value = 0.0
        for n in AREAS[area].neighbours:
            b = building_at(view, n)
            if b is not None:
                value += -1.0 if b.owner == seat else 0.4
        return value

    def _spend(self, view: View, legal: Sequence[Command], seat: int) -> Command:
        cash = view.money[seat]
        best: tuple[float, int] | None = None
        for i, cmd in enumerate(legal):
            value = -1e9
            if isinstance(cmd, Build):
                value = self._build_value(view, seat, cmd, cash)
            elif isinstance(cmd, Attack):
                value = self._attack_value(view, seat, cmd)
            if best is None or value > best[0]:
                best = (value, i)
        if best is None or best[0] <= 0:
            return next(c for c in legal if isinstance(c, EndTurn))
        return legal[best[1]]

    def _build_value(self, view: View, seat: int, cmd: Build, cash: int) -> float:
        here = building_at(view, cmd.area)
        spec = BUILDINGS[cmd.kind]
        gain = spec.points - (BUILDINGS[here.kind].points if here is not None else 0)
        if gain <= 0:
            return -1.0
        if pieces_left(view, seat, cmd.kind) == 1 and arthur_winner(view) != seat:
            return -1.0  # the last piece of a type would end the game while behind
        cost, _ = build_cost(view, seat, cmd.area, cmd.kind)
        value = gain / max(1, cost)
        near = [n for n in AREAS[cmd.area].neighbours if n != CASTLE_AREA and has_warrior(view, n)]
        if threat(view) >= DOOM_FROM - 2 and mordred_winner(view) != seat:
            value += BASE_BONUS * min(1, len(near)) * _p(ATTACK[cmd.kind])  # a base to attack from
        else:
            value -= 0.06 * len(near)
        if any((b := building_at(view, n)) is not None and b.owner == seat for n in AREAS[cmd.area].neighbours):
            value += 0.05
        if spec.points == 1 and cash >= 5 and pieces_left(view, seat, cmd.kind) < spec.pieces:
            value -= 0.15  # rather save for a town or a castle
        return value

    def _attack_value(self, view: View, seat: int, cmd: Attack) -> float:
        base = building_at(view, cmd.source)
        assert base is not None
        danger = threat(view)
        if cmd.target == CASTLE_AREA:
            return 0.6 * _p(ASSAULT) if arthur_winner(view) == seat and danger < 0 else -1.0
        if wants_mordred(view, seat):
            return -1.0
        p = _p(ATTACK[base.kind])
        if view.road[seat] - 1 < -view.options.road_back:
            return 0.3 * p if leaders(view) == [seat] else -1.0
        urgency = 0.0
        if danger >= -2:
            urgency += 0.4
        if mordred_winner(view) != seat and danger >= -3:
            urgency += 0.4
        if mordred_winner(view) != seat and danger >= 0:
            urgency += RETREAT_URGENCY
        return p * urgency - 0.12
