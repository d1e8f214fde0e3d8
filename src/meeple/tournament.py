"""Bots against bots: seat-rotated, paired matches between bot specs, rated on the Elo scale.

A :class:`Tournament` names the bots (any specs :func:`meeple.catalog.bot_factory`
takes: ``random``, ``heuristic``, ``ismcts:200``), the game and its seats, how
many ``rounds`` and one seed. Every pair of bots meets in every *seating*: each
distinct arrangement of the two over the seats, alternating and rotated, so
each sits in each seat equally often (two seats: ``A,B`` and ``B,A``; three:
``A,B,A`` and ``B,A,B`` rotated, six seatings). Round ``r`` plays every seating
of every pair on the same match seed (:func:`meeple.batch.match_seed` of the
tournament seed and ``r``), so the luck of a deal is shared: paired matches.

The matches run through :mod:`meeple.batch` (one :class:`~meeple.batch.Plan`
per pair and seating, all with the tournament seed, shipped in chunks), so a
tournament runs in this process, on local processes or on a Dask cluster,
with the same results.

Ratings (:func:`rate`): every finished match counts, for each two seats held
by different bots, as a win of a winning seat over a losing one, or a draw
when both won or both lost. The ratings are the maximum-likelihood
Bradley–Terry strengths of those pairwise results on the Elo scale (400 ×
log10, a 200-point gap meaning about 76 % expected score), centred on a mean
of 0, with one virtual draw per pair of bots that met so a bot that won
everything stays finite. Each 95 % interval is the wider, on each side, of
two: the normal approximation from the likelihood's curvature at its
maximum (:func:`laplace_sd`; it stays honest when one bot won every match)
and the bootstrap percentiles over whole rounds resampled with replacement
(which keeps each round's paired matches together, so it also sees how
correlated they are). Per pair, each bot's win rate per match and per seat it
held come with 95 % Wilson intervals (:func:`meeple.batch.wilson`).

>>> t = Tournament(game="kings", seats=2, bots=("random", "heuristic"), rounds=2, seed=1)
>>> [p.bots for p in t.plans()]
[('random', 'heuristic'), ('heuristic', 'random')]
>>> report = rate(t, run_tournament(t), seconds=1.0, resamples=20)
>>> report.matches, sorted(r.bot for r in report.ratings)
(4, ['heuristic', 'random'])
"""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from .batch import Z95, MatchResult, Plan, Rate, run_plans

#: Bootstrap resamples of the rating intervals.
RESAMPLES = 200
#: Elo points per factor of 10 in the odds.
ELO = 400.0


def seatings(a: str, b: str, seats: int) -> list[tuple[str, ...]]:
    """Every distinct arrangement of bots ``a`` and ``b`` alternating over ``seats``, rotated, each side first.

    >>> seatings("a", "b", 2)
    [('a', 'b'), ('b', 'a')]
    >>> len(seatings("a", "b", 3)), len(seatings("a", "b", 4))
    (6, 2)
    """
    out: list[tuple[str, ...]] = []
    for first, second in ((a, b), (b, a)):
        base = [first if s % 2 == 0 else second for s in range(seats)]
        for shift in range(seats):
            lineup = tuple(base[(s - shift) % seats] for s in range(seats))
            if lineup not in out:
                out.append(lineup)
    return out


@attrs.frozen
class Tournament:
    """Every pair of ``bots`` in every seating, ``rounds`` times, each round on one shared match seed."""

    game: str
    seats: int
    bots: tuple[str, ...]
    rounds: int
    seed: int
    options: Mapping[str, Any] = attrs.field(factory=dict)

    def pairs(self) -> list[tuple[str, str]]:
        """Every pair of distinct bots, in the order given."""
        return list(itertools.combinations(dict.fromkeys(self.bots), 2))

    def plans(self) -> list[Plan]:
        """One corpus per pair and seating, all of ``rounds`` matches from the tournament seed (paired by index)."""
        return [Plan(game=self.game, seats=self.seats, bots=lineup, games=self.rounds, seed=self.seed,
                     options=self.options)
                for a, b in self.pairs() for lineup in seatings(a, b, self.seats)]

    @property
    def matches(self) -> int:
        """How many matches the tournament plays."""
        return self.rounds * len(self.plans())


def run_tournament(
    tournament: Tournament,
    executor: cf.Executor | None = None,
    *,
    chunk_size: int | None = None,
    window: int | None = None,
) -> Iterator[MatchResult]:
    """Play every match of ``tournament``; yield each result as its chunk finishes (in any order).

    As :func:`meeple.batch.run_plan`: in this process without ``executor``,
    else chunks of ``chunk_size`` matches of one seating, ``window`` in flight.
    """
    return run_plans(tournament.plans(), executor, chunk_size=chunk_size, window=window)


@attrs.frozen
class Rating:
    """A bot's Elo-scale rating, its 95 % bootstrap interval and the finished matches it played."""

    bot: str
    elo: float
    low: float
    high: float
    matches: int

    def to_json(self) -> dict[str, Any]:
        """``{"bot", "elo", "ci95": [low, high], "matches"}``."""
        return {"bot": self.bot, "elo": self.elo, "ci95": [self.low, self.high], "matches": self.matches}


@attrs.frozen
class PairResult:
    """Two bots' meetings: finished matches, draws (no bot or both won), each bot's matches won and seats won.

    ``wins[bot]`` counts matches with a winning seat held by ``bot`` out of
    ``matches``; ``seat_wins[bot]`` its winning seats out of the seats it held.
    ``share`` is a bot's seat win rate times the seats: 1.0 is a fair share.
    """

    bots: tuple[str, str]
    matches: int
    unfinished: int
    draws: int
    wins: Mapping[str, Rate]
    seat_wins: Mapping[str, Rate]
    seats: int

    def share(self, bot: str) -> float:
        """``bot``'s seat win rate as a multiple of a fair share (1 / seats)."""
        return self.seat_wins[bot].rate * self.seats

    def to_json(self) -> dict[str, Any]:
        """``{"bots", "matches", "unfinished", "draws", "wins": {BOT: rate}, "seat_wins": {BOT: rate}, "share"}``."""
        return {"bots": list(self.bots), "matches": self.matches, "unfinished": self.unfinished,
                "draws": self.draws, "wins": {b: self.wins[b].to_json() for b in self.bots},
                "seat_wins": {b: self.seat_wins[b].to_json() for b in self.bots},
                "share": {b: self.share(b) for b in self.bots}}


@attrs.frozen
class Report:
    """A tournament's results: ratings (best first) and every pair's results."""

    tournament: Tournament
    matches: int
    finished: int
    seconds: float
    resamples: int
    ratings: tuple[Rating, ...]
    pairs: tuple[PairResult, ...]

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data (the fields of ``meeple tournament --json``)."""
        t = self.tournament
        return {
            "game": t.game, "seats": t.seats, "options": dict(t.options), "seed": t.seed, "rounds": t.rounds,
            "bots": list(dict.fromkeys(t.bots)), "matches": self.matches, "finished": self.finished,
            "seconds": self.seconds,
            "ratings": {"scale": "elo", "model": "bradley-terry", "interval": "95: laplace or round bootstrap, the wider",
                        "resamples": self.resamples, "by_bot": [r.to_json() for r in self.ratings]},
            "pairs": [p.to_json() for p in self.pairs],
        }


#: Pairwise scores: (bot a, bot b) -> [a's score against b, games between them]; a draw scores 1/2.
_Scores = dict[tuple[str, str], list[float]]


def _pairwise(r: MatchResult) -> Iterator[tuple[str, str, float]]:
    """``(a, b, a's score)`` for each two seats of ``r`` held by different bots (a finished match)."""
    assert r.winners is not None
    won = set(r.winners)
    for i, j in itertools.combinations(range(len(r.bots)), 2):
        a, b = r.bots[i], r.bots[j]
        if a != b:
            yield a, b, 0.5 if (i in won) == (j in won) else float(i in won)


def _add(scores: _Scores, round_scores: _Scores, times: int = 1) -> None:
    for (a, b), (s, n) in round_scores.items():
        total = scores.setdefault((a, b), [0.0, 0.0])
        total[0] += s * times
        total[1] += n * times


def bradley_terry(bots: Sequence[str], scores: Mapping[tuple[str, str], Sequence[float]]) -> dict[str, float]:
    """Elo-scale ratings (mean 0) maximising the Bradley–Terry likelihood of ``scores``, one virtual draw per pair.

    ``scores[(a, b)]`` is ``(a's score against b, games)``; minorisation–maximisation (Hunter, 2004).

    >>> r = bradley_terry(["a", "b"], {("a", "b"): (3.0, 4.0)})
    >>> round(r["a"] - r["b"])  # (3 + 0.5) / (1 + 0.5) = odds 7:3
    147
    """
    won: dict[str, float] = dict.fromkeys(bots, 0.0)
    games: dict[tuple[str, str], float] = {}
    for (a, b), (s, n) in scores.items():
        if n <= 0:
            continue
        won[a] += s + 0.5
        won[b] += n - s + 0.5
        key = (a, b) if a < b else (b, a)
        games[key] = games.get(key, 0.0) + n + 1
    strength = dict.fromkeys(bots, 1.0)
    for _ in range(1000):
        denom = dict.fromkeys(bots, 0.0)
        for (a, b), n in games.items():
            d = n / (strength[a] + strength[b])
            denom[a] += d
            denom[b] += d
        new = {k: won[k] / denom[k] if denom[k] > 0 else 1.0 for k in bots}
        mean_log = sum(math.log(v) for v in new.values()) / len(new)
        new = {k: v / math.exp(mean_log) for k, v in new.items()}
        change = max(abs(math.log(new[k] / strength[k])) for k in bots)
        strength = new
        if change < 1e-10:
            break
    return {k: ELO * math.log10(v) for k, v in strength.items()}


def laplace_sd(bots: Sequence[str], scores: Mapping[tuple[str, str], Sequence[float]],
               ratings: Mapping[str, float]) -> dict[str, float]:
    """Standard errors (Elo points) of mean-0 ``ratings`` from the curvature of their likelihood at its maximum.

    The information matrix is a weighted graph Laplacian ``L`` (one virtual
    draw per pair included); the covariance of centred ratings is its
    pseudo-inverse, ``(L + J/k)^-1 - J/k``.

    >>> sd = laplace_sd(["a", "b"], {("a", "b"): (2.0, 4.0)}, {"a": 0.0, "b": 0.0})
    >>> round(sd["a"], 1)  # 4 + 1 games at p = 1/2: var(a - b) = 1/1.25, var(a) = var(a - b)/4, in Elo points
    77.7
    """
    k = len(bots)
    index = {b: i for i, b in enumerate(bots)}
    scale = ELO / math.log(10)
    info = [[1.0 / k] * k for _ in range(k)]  # + J/k
    for (a, b), (_, n) in scores.items():
        if n <= 0:
            continue
        p = 1.0 / (1.0 + 10 ** ((ratings[b] - ratings[a]) / ELO))
        w = (n + 1) * p * (1 - p)
        i, j = index[a], index[b]
        info[i][i] += w
        info[j][j] += w
        info[i][j] -= w
        info[j][i] -= w
    cov = _inverse(info)
    return {b: scale * math.sqrt(max(0.0, cov[i][i] - 1.0 / k)) for b, i in index.items()}


def _inverse(m: list[list[float]]) -> list[list[float]]:
    """The inverse of a small non-singular matrix (Gauss–Jordan with partial pivoting)."""
    n = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[pivot] = a[pivot], a[c]
        d = a[c][c]
        a[c] = [x / d for x in a[c]]
        for r in range(n):
            if r != c and a[r][c] != 0.0:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c], strict=True)]
    return [row[n:] for row in a]


def rate(
    tournament: Tournament, results: Iterable[MatchResult], seconds: float, *, resamples: int = RESAMPLES,
) -> Report:
    """Ratings and pair results of ``results`` (matches of ``tournament``), which took ``seconds``.

    The bootstrap draws its resamples from a generator seeded by the
    tournament seed, so the same results give the same intervals.
    """
    done = list(results)
    bots = list(dict.fromkeys(tournament.bots))
    by_round: dict[int, _Scores] = defaultdict(dict)
    played: Counter[str] = Counter()
    for r in done:
        if r.winners is None:
            continue
        for name in set(r.bots):
            played[name] += 1
        for a, b, s in _pairwise(r):
            cell = by_round[r.index].setdefault((a, b), [0.0, 0.0])
            cell[0] += s
            cell[1] += 1
    total: _Scores = {}
    for sc in by_round.values():
        _add(total, sc)
    point = bradley_terry(bots, total)
    rounds = sorted(by_round)
    rng = random.Random(tournament.seed)
    samples: dict[str, list[float]] = {b: [] for b in bots}
    for _ in range(resamples if rounds else 0):
        drawn = Counter(rng.choice(rounds) for _ in rounds)
        scores: _Scores = {}
        for i, times in drawn.items():
            _add(scores, by_round[i], times)
        for b, v in bradley_terry(bots, scores).items():
            samples[b].append(v)
    sd = laplace_sd(bots, total, point)
    ratings = []
    for b in bots:
        low, high = point[b] - Z95 * sd[b], point[b] + Z95 * sd[b]
        if samples[b]:
            blow, bhigh = _percentiles(samples[b])
            low, high = min(low, blow), max(high, bhigh)
        ratings.append(Rating(b, point[b], low, high, played[b]))
    ratings.sort(key=lambda x: (-x.elo, x.bot))
    pairs = tuple(_pair(tournament, a, b, done) for a, b in tournament.pairs())
    finished = sum(r.winners is not None for r in done)
    return Report(tournament, len(done), finished, seconds, resamples, tuple(ratings), pairs)


def _percentiles(values: list[float]) -> tuple[float, float]:
    xs = sorted(values)

    def at(q: float) -> float:
        pos = q * (len(xs) - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, len(xs) - 1)
        return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)

    return at(0.025), at(0.975)


def _pair(tournament: Tournament, a: str, b: str, results: Sequence[MatchResult]) -> PairResult:
    mine = [r for r in results if set(r.bots) == {a, b}]
    finished = [r for r in mine if r.winners is not None]
    wins: Counter[str] = Counter()
    seat_wins: Counter[str] = Counter()
    seats_held: Counter[str] = Counter()
    draws = 0
    for r in finished:
        assert r.winners is not None
        winners = {r.bots[s] for s in r.winners}
        if len(winners) != 1:
            draws += 1
        for name in winners:
            wins[name] += 1
        for seat, name in enumerate(r.bots):
            seats_held[name] += 1
            seat_wins[name] += seat in r.winners
    n = len(finished)
    return PairResult((a, b), n, len(mine) - n, draws, {x: Rate.of(wins[x], n) for x in (a, b)},
                      {x: Rate.of(seat_wins[x], seats_held[x]) for x in (a, b)}, tournament.seats)
