"""The heuristic bot for Mordred: one step of look-ahead on an estimate of every player's chance to win.

The bot sees only its view and the legal commands. It reads the position as
a few numbers (an :class:`Outlook`): each player's building points, money and
road marker, Mordred's lead of warriors over buildings, the pieces each
player has left, and so how soon the game is likely to end. From them it
estimates each player's chance to win (:meth:`Outlook.chances`): Mordred's
chance to outnumber the buildings times the chance to be least advanced on
his road, plus King Arthur's chance times the chance to have the most points
(money counting as points still to be built while there is time to build).
The nearer the end, the sharper the estimates: a position that would end the
game is scored by the rules' own winner.

Every decision takes the command whose expected outcome, over its dice, gives
the bot the best chance:

* the row: every pair of faces, with the money and warriors it brings (and
  the road end it may cause);
* each warrior: an empty area, or a siege of a building at its odds, with
  what the warrior then threatens next to it;
* spending, one command at a time: a building (its points against the
  chance that a warrior takes it), an attack, the castle, or ending the turn.

So the bot takes back a building type that a rival has used up when that
rival would win the end it brings, saves when money is worth more later,
and declares the riskier rows when it needs warriors or money more than a
place at the back of the road. What the estimate weighs is a :class:`Weights`
record; ``docs/rules/mordred.md`` gives the figures its defaults were tuned on.

>>> import meeple
>>> m = meeple.Match.start("mordred", seats=3, seed=2)
>>> bot = HeuristicBot(seed=1)
>>> seat = m.to_act[0]
>>> bot.choose(m.view(seat), m.legal(seat), seat) in m.legal(seat)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from meeple.engine import Command, Rng

from .commands import Attack, Build, EndTurn, Place, Roll
from .data import (
    AREA_CODES,
    AREA_INDEX,
    ASSAULT,
    ATTACK,
    ATTACK_COST,
    BUILDINGS,
    CASTLE_AREA,
    CASTLE_INDEX,
    KINDS,
    MONEY,
    NEIGHBOURS,
    PRICES,
    Kind,
    Row,
)
from .fast import build_sites
from .rules import siege_need, warriors_on_map
from .view import View

# -- what the estimate weighs ----------------------------------------------------------------


@attrs.frozen
class Weights:
    """What the bot's estimate weighs; the defaults were tuned by self-play (``docs/rules/mordred.md``).

    >>> Weights().money_worth
    0.7
    """

    #: Spread of Mordred's lead (warriors minus buildings) per square root of a round still to play.
    threat_spread: float = 1.6
    #: How much Mordred's lead grows, on average, per round still to play.
    threat_drift: float = 0.3
    #: Spread of building points per square root of a round still to play.
    points_spread: float = 2.2
    #: Spread of road markers per square root of a round still to play.
    road_spread: float = 1.0
    #: Rounds added to the estimate of what is left (no estimate is certain before the end).
    horizon_floor: float = 0.35
    #: What a pound is worth, as a share of the points it buys in the best type a player has
    #: left, while there are rounds left to build with it.
    money_worth: float = 0.7
    #: The rounds over which a pound loses that worth as the end nears.
    money_rounds: float = 2.0
    #: A pound at the very end: it only breaks ties.
    money_tie: float = 0.02
    #: Pounds a player spends on building per turn (to read how soon a type can be used up).
    income: float = 5.5
    #: Warriors that come onto the map per turn (to read how soon the supply runs out).
    warriors_per_turn: float = 0.8
    #: Road spaces a marker moves per turn (to read how soon a marker reaches the end).
    steps_per_turn: float = 0.8
    #: Of a warrior still to be placed, how much it adds to Mordred's lead (some sieges fail).
    placed_lead: float = 0.9
    #: Chance per round that a rival places a warrior on a building next to a warrior
    #: (times its siege odds).
    exposure: float = 0.35


DEFAULT = Weights()

#: The weights :meth:`HeuristicBot.estimate` reads a position with, fitted to predict the winner.
#: Fitted by coordinate search on the log-loss of the estimate of the seat about to roll, at the start
#: of every turn of 1,500 matches of heuristic bots at 3 seats (corpus seeds 100000-101499), against the
#: winner: on 1,000 other matches (seeds 200000-200999, 26,642 positions) the log-loss fell from 0.582
#: with :data:`DEFAULT` to 0.558 (a constant 1/3 scores 0.635), and from 0.476 to 0.464 in the last two
#: rounds. :data:`DEFAULT` was too sure: positions it gave 4 % won 12 % of the time. The fit spreads
#: Mordred's lead and the points more widely and counts money for more, while the bot's own choices keep
#: :data:`DEFAULT` (so a search's playouts still model the bundled bot).
LEAF = Weights(
    threat_spread=5.6,
    threat_drift=0.05,
    points_spread=5.0,
    road_spread=1.25,
    horizon_floor=0.42,
    money_worth=1.05,
    money_rounds=1.4,
    income=9.9,
    warriors_per_turn=0.43,
    steps_per_turn=1.8,
)


#: The weights of :class:`FittedBot`, a player fitted to beat :data:`DEFAULT`'s bots: :data:`LEAF` with
#: the points and the road spread less widely, so it plays for a lead sooner. Found by coordinate search
#: (steps of x0.7 and x1.4) on its share of wins at 3 seats, one fitted bot among two heuristic bots,
#: seats rotated, seeds 910000-911199: :data:`LEAF` won 39.8 % there, these 44.5 %. On 2,400 other
#: matches (seeds 930000-932399) :data:`LEAF` won 41.7 % and these 43.2 %, against a fair share of 33.3 %.
FITTED = attrs.evolve(LEAF, points_spread=3.5, road_spread=0.875)


def _p(need: int) -> float:
    """The chance that one die shows ``need`` or more."""
    return max(0, 7 - need) / 6


def _row_outcomes(row: Row) -> list[tuple[float, float, int]]:
    """``(probability, mean money, warriors)`` of two dice on ``row``, by the number of warriors they bring.

    The estimate changes smoothly with money, so the results that bring as
    many warriors are weighed at their mean money.
    """
    chance: dict[int, float] = {}
    money: dict[int, float] = {}
    for a in MONEY[row]:
        for b in MONEY[row]:
            w = a.warriors + b.warriors
            chance[w] = chance.get(w, 0.0) + 1 / 36
            money[w] = money.get(w, 0.0) + (a.money + b.money) / 36
    return [(chance[w], money[w] / chance[w], w) for w in sorted(chance)]


_OUTCOMES = {row: _row_outcomes(row) for row in Row}
_POINTS = {kind: BUILDINGS[kind].points for kind in KINDS}
_KIND_AT = {kind: k for k, kind in enumerate(KINDS)}
_POINTS_IN_ORDER = tuple(BUILDINGS[k].points for k in KINDS)
_PIECES = tuple(BUILDINGS[k].pieces for k in KINDS)
#: The cheapest price of each type anywhere (what finishing a type costs at least, per piece).
_LOW_PRICE = tuple(min(p for p in (BUILDINGS[k].forest, BUILDINGS[k].mountains) if p is not None) for k in KINDS)


#: Points a pound buys in each type, at its cheapest.
_RATE = tuple(BUILDINGS[k].points / low for k, low in zip(KINDS, _LOW_PRICE))


def _softmax(scores: Sequence[float]) -> list[float]:
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def _logistic(x: float) -> float:
    if x < -30:
        return 0.0
    return 1 / (1 + math.exp(-1.7 * x))


class Outlook:
    """The position as the bot weighs it: a few numbers per player, changed by each command it considers."""

    __slots__ = ("finish", "left", "me", "money", "points", "rate", "road", "room", "seats", "supply", "threat", "w", "wait")

    def __init__(self, view: View, me: int, weights: Weights = DEFAULT) -> None:
        seats = view.seats
        self.w = weights
        self.seats = seats
        self.me = me
        self.points = [float(sum(n * p for n, p in zip(counts, _POINTS_IN_ORDER))) for counts in view.standing]
        self.left = [[pieces - n for pieces, n in zip(_PIECES, counts)] for counts in view.standing]
        self.money: list[float] = list(view.money)
        self.road = list(view.road)
        self.threat: float = warriors_on_map(view) - (len(view.buildings) - view.buildings.count(None))
        self.supply = view.supply
        self.room = (view.options.road_forward, view.options.road_back)
        #: rounds until each seat's next turn starts (end (b) is checked then)
        self.wait = tuple(((s - view.turn) % seats or seats) / seats for s in range(seats))
        #: per seat: the pounds it still needs to use up a type (0: it has), the points a pound buys it
        self.finish = [0] * seats
        self.rate = [0.0] * seats
        for s in range(seats):
            self._refresh(s)

    def _refresh(self, seat: int) -> None:
        left = self.left[seat]
        self.finish[seat] = min(n * price for n, price in zip(left, _LOW_PRICE))
        self.rate[seat] = max((_RATE[k] for k in range(len(KINDS)) if left[k]), default=0.0)

    def copy(self) -> Outlook:
        """An independent copy to change."""
        o = Outlook.__new__(Outlook)
        o.w, o.seats, o.me, o.wait, o.room = self.w, self.seats, self.me, self.wait, self.room
        o.supply, o.threat = self.supply, self.threat
        o.points, o.money, o.road = self.points[:], self.money[:], self.road[:]
        o.left = [row[:] for row in self.left]
        o.finish, o.rate = self.finish[:], self.rate[:]
        return o

    # -- how soon the game ends ------------------------------------------------------
    def horizon(self) -> float:
        """About how many rounds are left, from the clock that runs out first.

        Mordred's supply at the pace warriors come onto the map; each marker's
        room on the road; for each player, the start of its next turn if it
        has used up a type (end (b)), else the turns its income needs to.
        """
        w = self.w
        rounds = self.supply / (w.warriors_per_turn * self.seats)
        rounds = min(rounds, (self.room[0] - max(self.road)) / w.steps_per_turn)
        for wait, finish, money in zip(self.wait, self.finish, self.money):
            need = finish - money
            rounds = min(rounds, wait + need / w.income if need > 0 else wait)
        return rounds if rounds > 0 else 0.0

    # -- chances ------------------------------------------------------------------------
    def chances(self) -> list[float]:
        """Each seat's estimated chance to win from here."""
        w = self.w
        h = self.horizon()
        spread = math.sqrt(h + w.horizon_floor)
        mordred = _logistic((self.threat - 0.5 + w.threat_drift * h) / (w.threat_spread * spread))
        later = w.money_worth * (h / w.money_rounds if h < w.money_rounds else 1.0)
        tie = w.money_tie
        scale = 1 / (w.points_spread * spread)
        arthur = _softmax([(p + (tie + later * r) * m) * scale for p, m, r in zip(self.points, self.money, self.rate)])
        scale = 1 / (w.road_spread * spread)
        behind = _softmax([(0.02 * p - r) * scale for r, p in zip(self.road, self.points)])
        return [mordred * b + (1 - mordred) * a for a, b in zip(arthur, behind)]

    def mine(self) -> float:
        """The bot's own estimated chance."""
        return self.chances()[self.me]

    def final(self) -> float:
        """The bot's share of the win if the game ended now (the rules' winner, ``rules.decide_winner``)."""
        seats = range(self.seats)
        keys: tuple[Sequence[float], ...] = (self.points, self.money)
        if self.threat > 0:
            low = min(self.road)
            tied = [s for s in seats if self.road[s] == low]
        else:
            tied = list(seats)
        for key in keys:
            best = max(key[s] for s in tied)
            tied = [s for s in tied if key[s] == best]
        return 1 / len(tied) if self.me in tied else 0.0

    # -- changes ---------------------------------------------------------------------------
    def built(self, seat: int, kind: Kind, replaced: Kind | None, cost: int, worth: float) -> None:
        """``seat`` paid ``cost`` for a ``kind`` worth ``worth`` points (on top of what it replaced)."""
        self.money[seat] -= cost
        self.points[seat] += worth
        self.left[seat][_KIND_AT[kind]] -= 1
        if replaced is None:
            self.threat -= 1
        else:
            self.points[seat] -= _POINTS[replaced]
            self.left[seat][_KIND_AT[replaced]] += 1
        self._refresh(seat)

    def lost(self, owner: int, kind: Kind) -> None:
        """A warrior took ``owner``'s ``kind`` (and stands in its place)."""
        self.points[owner] -= _POINTS[kind]
        self.left[owner][_KIND_AT[kind]] += 1
        self._refresh(owner)
        self.threat += 2


class HeuristicBot:
    """A one-step look-ahead player on :class:`Outlook` estimates.

    ``seed`` breaks ties between equal choices; ``weights`` are what the estimate
    behind its choices weighs; ``leaf`` what :meth:`estimate` weighs (:data:`LEAF`,
    fitted to predict the winner).
    """

    def __init__(self, seed: int = 0, weights: Weights = DEFAULT, leaf: Weights = LEAF) -> None:
        self._rng = Rng(seed & ((1 << 64) - 1))
        self.weights = weights
        self.leaf = leaf

    def choose(self, view: View, legal: Sequence[Command], seat: int) -> Command:
        """Return the legal command with the best expected chance to win."""
        first = legal[0]
        outlook = Outlook(view, seat, self.weights)
        if isinstance(first, Roll):
            return self._best(legal, [self._roll(outlook, c) for c in legal])
        if isinstance(first, Place):
            return self._best(legal, [self._place(view, outlook, c) for c in legal])
        sites = dict(build_sites(view, seat))
        return self._best(legal, [self._spend(view, outlook, sites, c) for c in legal])

    def estimate(self, view: View, seat: int) -> float:
        """``seat``'s estimated chance to win from ``view`` (:meth:`Outlook.mine` on :attr:`leaf`), the worth a search cuts a playout at.

        >>> import meeple
        >>> m = meeple.Match.start("mordred", seats=3, seed=2)
        >>> round(sum(HeuristicBot().estimate(m.view(s), s) for s in range(3)), 6)
        1.0
        """
        return Outlook(view, seat, self.leaf).mine()

    def margin(self, view: View, seat: int) -> float:
        """How far ``seat`` is from the next seat in a finished match, in [-1, 1], by what the rules decide it on.

        Where Mordred wins (his warriors outnumber the buildings) the least
        advanced marker on the road wins, so the margin is the spaces
        between ``seat``'s marker and the least advanced other, a sixth of
        the road's length ahead of the dragon counting fully; otherwise
        (King Arthur wins) building points decide, and the margin is
        ``seat``'s points less the best other's, over their sum. A search
        adds it to a playout's win or loss (``PIMC``), so that it separates
        two wins by how safe they were, on the right count.

        >>> import meeple
        >>> m = meeple.Match.start("mordred", seats=3, seed=2)
        >>> HeuristicBot().margin(m.view(0), 0)
        0.0
        """
        others = [s for s in range(view.seats) if s != seat]
        if not others:
            return 0.0
        buildings = len(view.buildings) - view.buildings.count(None)
        if warriors_on_map(view) > buildings:
            ahead = min(view.road[s] for s in others) - view.road[seat]
            return max(-1.0, min(1.0, 6 * ahead / view.options.road_forward))
        points = [sum(n * p for n, p in zip(counts, _POINTS_IN_ORDER)) for counts in view.standing]
        mine, best = points[seat], max(points[s] for s in others)
        return (mine - best) / (mine + best) if mine + best else 0.0

    def _best(self, legal: Sequence[Command], values: list[float]) -> Command:
        top = max(values)
        best = [i for i, v in enumerate(values) if v >= top - 1e-12]
        return legal[best[self._rng.below(len(best))] if len(best) > 1 else best[0]]

    # -- the row ---------------------------------------------------------------------------
    def _roll(self, o: Outlook, cmd: Command) -> float:
        assert isinstance(cmd, Roll)
        me = o.me
        value = 0.0
        for p, money, warriors in _OUTCOMES[cmd.row]:
            after = o.copy()
            after.money[me] += money
            if o.road[me] + warriors > o.room[0]:
                value += p * after.final()  # end (c): the game ends as the marker cannot move
                continue
            taken = min(warriors, o.supply)
            after.road[me] += warriors
            after.supply -= taken
            after.threat += o.w.placed_lead * taken
            value += p * after.mine()
        return value

    # -- a warrior -------------------------------------------------------------------------
    def _place(self, view: View, o: Outlook, cmd: Command) -> float:
        assert isinstance(cmd, Place)
        i = AREA_INDEX[cmd.area]
        last = view.hand == 1 and view.supply == 0
        here = view.buildings[i]
        stands = o.copy()
        if here is None:
            stands.threat += 1
        else:
            stands.lost(here.owner, here.kind)
        if last:
            value = stands.final()  # end (a): the last warrior is on the map
        else:
            stands.points = [p - d for p, d in zip(stands.points, self._exposure(view, i))]
            value = stands.mine()
        if here is None:
            return value
        p = _p(siege_need(here.kind, cmd.area))
        back = o.copy()
        back.supply += 1  # the warrior goes back to Mordred's supply; nothing ends
        return p * value + (1 - p) * back.mine()

    def _exposure(self, view: View, i: int) -> list[float]:
        """Points each seat may lose to later sieges once a warrior stands on area ``i``."""
        loss = [0.0] * view.seats
        buildings, warriors = view.buildings, view.warriors
        for n in NEIGHBOURS[i]:
            b = buildings[n]
            if b is None:
                continue
            # a building already next to a warrior (or the castle) is exposed anyway
            if any(m == CASTLE_INDEX or warriors[m] for m in NEIGHBOURS[n]):
                continue
            loss[b.owner] += self.weights.exposure * _p(siege_need(b.kind, AREA_CODES[n])) * _POINTS[b.kind]
        return loss

    # -- spending --------------------------------------------------------------------------
    def _spend(self, view: View, o: Outlook, sites: dict[int, int], cmd: Command) -> float:
        me = o.me
        if isinstance(cmd, EndTurn):
            return o.mine()
        if isinstance(cmd, Build):
            return self._build(view, o, sites, cmd)
        assert isinstance(cmd, Attack)
        after = o.copy()
        after.money[me] -= ATTACK_COST
        missed = after.mine()
        if cmd.target == CASTLE_AREA:
            return _p(ASSAULT) * after.final() + (1 - _p(ASSAULT)) * missed
        base = view.buildings[AREA_INDEX[cmd.source]]
        assert base is not None
        won = after.copy()
        won.threat -= 1
        if o.road[me] - 1 < -o.room[1]:
            hit = won.final()  # end (c) backwards: the game ends at once
        else:
            won.road[me] -= 1
            hit = won.mine() + self._relief(view, AREA_INDEX[cmd.target], me)
        p = _p(ATTACK[base.kind])
        return p * hit + (1 - p) * missed

    def _relief(self, view: View, i: int, me: int) -> float:
        """A little worth in beating the warrior on area ``i`` for the own buildings it exposed."""
        return 0.004 * sum(1 for n in NEIGHBOURS[i] if (b := view.buildings[n]) is not None and b.owner == me)

    def _build(self, view: View, o: Outlook, sites: dict[int, int], cmd: Build) -> float:
        me = o.me
        i = AREA_INDEX[cmd.area]
        here = view.buildings[i]
        price = PRICES[i][_KIND_AT[cmd.kind]]
        assert price is not None
        cost = price + sites[i]
        exposed = any(n == CASTLE_INDEX or view.warriors[n] for n in NEIGHBOURS[i])
        worth = float(_POINTS[cmd.kind])
        if exposed:
            worth -= o.w.exposure * min(2.0, o.horizon()) * _p(siege_need(cmd.kind, cmd.area)) * worth
        after = o.copy()
        after.built(me, cmd.kind, here.kind if here is not None else None, cost, worth)
        return after.mine()


class FittedBot(HeuristicBot):
    """The heuristic bot on :data:`FITTED`: its choices weigh the position as fitted to beat the bundled bot.

    One among two :class:`HeuristicBot` players it wins about 1.3 times the fair share; a search
    (``pimc:1s-cpu:fitted/heuristic``) plays it as its own policy and models the others as the bundled bot.

    >>> FittedBot(seed=1).weights == FITTED
    True
    """

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed, weights=FITTED)
