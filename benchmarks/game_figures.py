"""The figures measured for every game: matches, commands, legal moves, replay, verify, size, undo, memory.

Each function takes a game, a seat count and options, measures through the
public API (``Match``, ``replay``, ``verify``) or the game protocol itself
(``decide``/``evolve``/``legal_commands``), and adds figures to a
:class:`~harness.Report`.
"""

from __future__ import annotations

import contextlib
import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable, Mapping
from typing import Any

from harness import Budget, Figure, Report, latency, rate

import meeple
from meeple.engine import ENGINE, Game, Match, RandomBot, Rng
from meeple.engine.log import read_header

#: A match that has not ended after this many commands is abandoned (a guard
#: against a game under construction that never ends).
MAX_STEPS = 20_000

BotFactory = Callable[[int], Any]


def bot_factories(game: Game[Any, Any]) -> dict[str, BotFactory]:
    """The bots to time: the engine's random bot, and the game's own (heuristic first)."""
    out: dict[str, BotFactory] = {"random": lambda seed: RandomBot(seed)}
    with contextlib.suppress(Exception):  # a game under construction: time the random bot only
        out.update(game.bots())
    return out


def play_match(game: Game[Any, Any], seats: int, options: Mapping[str, Any], seed: int, factory: BotFactory) -> Match:
    """Play one match to its end, one bot per seat, each seeing only its view."""
    m = Match.start(game, seats, seed=seed, options=options)
    bots = [factory(seed * 16 + s) for s in range(seats)]
    for _ in range(MAX_STEPS):
        acting = [s for s in m.to_act if s != ENGINE]
        if not acting:
            return m
        seat = acting[0]
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    raise RuntimeError(f"{game.info.id}: a match with {seats} seats did not end within {MAX_STEPS} commands")


def random_playout(game: Game[Any, Any], seats: int, options: Mapping[str, Any], seed: int) -> Match:
    """Play one match to its end as OpenSpiel's random simulation does: legal commands, a random pick, play; no views.

    The picks come from ``Rng(seed + 7919)``, so two libraries given the same
    seed make the same picks wherever their legal lists agree.
    """
    m = Match.start(game, seats, seed=seed, options=options)
    pick = Rng(seed + 7919)
    while True:
        acting = m.to_act
        if not acting:
            return m
        seat = acting[0] if acting[0] != ENGINE else acting[1]
        legal = m.legal(seat)
        m.play(seat, legal[pick.below(len(legal))])


def match_rate(report: Report, game: Game[Any, Any], seats: int, options: Mapping[str, Any], bot: str,
               factory: BotFactory, budget: Budget, label: str = "") -> None:
    """Full matches per second with ``bot`` in every seat (and commands per second within them).

    Batch ``b`` plays the ``budget.bot_matches`` seeds from ``b *
    bot_matches``: one batch to warm up, then ``budget.repeats`` timed
    batches, the figure their median rate. Two libraries compared side by
    side so time the same matches, and never the same match twice (a replay
    of a match finds every cache of the first one warm, which no tournament
    does).
    """
    k = budget.bot_matches
    records = 0
    rates: list[float] = []
    for batch in range(budget.repeats + 1):
        start = time.process_time()
        for seed in range(batch * k, (batch + 1) * k):
            records += len(play_match(game, seats, options, seed, factory))
        if batch:  # batch 0 warms up (codecs, generated hooks, tables built on first use)
            rates.append(k / max(time.process_time() - start, 1e-9))
    r = statistics.median(rates)
    per_match = records / (k * (budget.repeats + 1))
    report.add(Figure(f"matches/s, {bot} bots{label}", game.info.id, r, "matches/s", seats,
                      extra={"records_per_match": round(per_match, 1), "commands_per_s": round(r * per_match)}))


class Corpus:
    """Random-bot matches of one configuration, with their logs and the states before each record."""

    def __init__(self, game: Game[Any, Any], seats: int, options: Mapping[str, Any], n: int) -> None:
        self.game = game
        self.seats = seats
        self.options = dict(options)
        self.matches = [play_match(game, seats, options, seed, lambda s: RandomBot(s)) for seed in range(n)]
        self.logs = [m.to_bytes() for m in self.matches]
        self.records = sum(len(m) for m in self.matches)
        self.events = sum(len(r.events) for m in self.matches for r in m.records)
        # (state before, actor, command, seed, counter before) for every record
        self.steps: list[tuple[Any, int, Any, int, int]] = []
        for seed, m in enumerate(self.matches):
            state = game.initial_state(seats, m.options)
            counter = 0
            for r in m.records:
                self.steps.append((state, r.actor, r.command, seed, counter))
                for e in r.events:
                    state = game.evolve(state, e)
                counter = r.rng
        self.player_steps = [(s, a) for s, a, _, _, _ in self.steps if a != ENGINE]

    @property
    def longest(self) -> Match:
        """The longest match of the corpus."""
        return max(self.matches, key=len)


def rule_figures(report: Report, corpus: Corpus, budget: Budget) -> None:
    """Commands applied per second (decide + evolve) and legal-move enumeration, on the protocol itself."""
    game, gid, seats = corpus.game, corpus.game.info.id, corpus.seats
    decide, evolve, legal = game.decide, game.evolve, game.legal_commands
    steps = corpus.steps

    def apply_all() -> int:
        for state, actor, command, seed, counter in steps:
            for e in decide(state, actor, command, Rng(seed, counter)):
                state = evolve(state, e)
        return len(steps)

    report.works[(gid, "apply")] = apply_all
    report.add(Figure("commands applied/s (decide+evolve)", gid, rate(apply_all, budget), "commands/s", seats))

    player_steps = corpus.player_steps
    sizes = [0]

    def legal_all() -> int:
        n = 0
        for state, seat in player_steps:
            n += len(legal(state, seat))
        sizes[0] = n
        return len(player_steps)

    r = rate(legal_all, budget)
    report.add(Figure("legal_commands/s", gid, r, "calls/s", seats,
                      extra={"mean_legal": round(sizes[0] / max(len(player_steps), 1), 1)}))

    moves = [[(r.actor, r.command) for r in m.records if r.actor != ENGINE] for m in corpus.matches]

    def play_all() -> int:
        n = 0
        for seed, mv in enumerate(moves):
            again = Match.start(game, seats, seed=seed, options=corpus.options)
            for seat, cmd in mv:
                again.play(seat, cmd)
            n += len(again)
        return n

    report.add(Figure("commands played/s (Match.play)", gid, rate(play_all, budget), "commands/s", seats,
                      note="turn checks, records, engine steps"))

    n_matches = len(corpus.matches)
    played = [0, 0]

    def playout_all() -> int:
        n = 0
        for seed in range(n_matches):
            n += len(random_playout(game, seats, corpus.options, seed))
        played[0] += n_matches
        played[1] += n
        return n

    r = rate(playout_all, budget)
    report.works[(gid, "playout")] = playout_all
    report.add(Figure("random playout commands/s", gid, r, "commands/s", seats,
                      note="Match.start, legal, random pick, Match.play",
                      extra={"matches_per_s": round(r * played[0] / max(played[1], 1), 1)}))


#: Candidate first moves a search decision tries, each with its own determinized world and playout.
SEARCH_CANDIDATES = 8


def _random_playout(game: Game[Any, Any], state: Any, pick: Rng, seed: int) -> tuple[Any, int]:
    """Play ``state`` to its end with uniformly random legal commands, through the protocol alone.

    Returns the final state and the number of commands played. Engine steps
    (``auto_command``) draw from an RNG of ``seed``, as a search bot's own
    simulation would: it never sees the match's RNG.
    """
    decide, evolve, to_act, legal = game.decide, game.evolve, game.to_act, game.legal_commands
    rng = Rng(seed)
    for n in range(MAX_STEPS):
        acting = to_act(state)
        if not acting:
            return state, n
        seat = acting[0]
        if seat == ENGINE:
            command = game.auto_command(state)
        else:
            options = legal(state, seat)
            command = options[pick.below(len(options))]
        for e in decide(state, seat, command, rng):
            state = evolve(state, e)
    raise RuntimeError(f"{game.info.id}: a random playout did not end within {MAX_STEPS} commands")


def search_decision(game: Game[Any, Any], state: Any, seat: int, rng: Rng) -> tuple[Any, int, int]:
    """One decision of a flat Monte Carlo search bot, as a search bot of any game would make it.

    Up to :data:`SEARCH_CANDIDATES` legal commands are tried; for each, a
    world the seat cannot tell from the real one is drawn with
    ``determinize(state, seat, rng)`` (the seat's knowledge only: the game's
    contract), the command is played there and the world is played out at
    random to the end. The command whose playout scored best for the seat
    (a win, then its score) is chosen. Returns (command, playouts, commands
    played in them).
    """
    legal = list(game.legal_commands(state, seat))
    if len(legal) > SEARCH_CANDIDATES:
        legal = [legal[i] for i in sorted(rng.shuffled(range(len(legal)))[:SEARCH_CANDIDATES])]
    best, best_key, commands = legal[0], None, 0
    for command in legal:
        world = game.determinize(state, seat, rng)
        try:
            events = game.decide(world, seat, command, Rng(rng.next64()))
        except meeple.IllegalCommand:
            continue  # legal in the real world only (it shows the seat's hidden hand); not in this sample
        for e in events:
            world = game.evolve(world, e)
        world, n = _random_playout(game, world, rng, rng.next64())
        commands += n + 1
        outcome = game.outcome(world)
        key = (0, 0) if outcome is None else (seat in outcome.winners, outcome.scores[seat])
        if best_key is None or key > best_key:
            best, best_key = command, key
    return best, len(legal), commands


def search_figures(report: Report, corpus: Corpus, budget: Budget) -> None:
    """Decisions and playouts per second of a flat Monte Carlo search bot, at positions of the corpus.

    Each decision determinizes the position for the acting seat and plays a
    random playout to the end for each of up to :data:`SEARCH_CANDIDATES`
    legal commands (see :func:`search_decision`): the work a search bot
    does, and the figure its users feel.
    """
    game, gid, seats = corpus.game, corpus.game.info.id, corpus.seats
    step = max(1, len(corpus.player_steps) // 64)
    positions = corpus.player_steps[::step]  # spread over the matches, from set-up to the end
    at = [0]
    totals = [0, 0, 0]  # decisions, playouts, commands

    def work() -> int:
        state, seat = positions[at[0] % len(positions)]
        _, playouts, commands = search_decision(game, state, seat, Rng(at[0]))
        at[0] += 1
        totals[0] += 1
        totals[1] += playouts
        totals[2] += commands
        return 1

    r = rate(work, budget)
    per_decision = totals[1] / max(totals[0], 1)
    per_playout = totals[2] / max(totals[1], 1)
    report.works[(gid, "search")] = work
    report.add(Figure("search bot decisions/s (determinize + playouts)", gid, r, "decisions/s", seats,
                      note=f"up to {SEARCH_CANDIDATES} candidates, each a determinized world played out at random",
                      extra={"playouts_per_decision": round(per_decision, 2),
                             "commands_per_playout": round(per_playout, 1)}))
    report.add(Figure("search bot playouts/s", gid, r * per_decision, "playouts/s", seats,
                      extra={"commands_per_s": round(r * per_decision * per_playout)}))


def log_figures(report: Report, corpus: Corpus, budget: Budget) -> tuple[float, float, float]:
    """Replay, load and verify rates of the corpus logs; log sizes. Returns (replay events/s, replay records/s, verify records/s)."""
    gid, seats = corpus.game.info.id, corpus.seats
    logs = corpus.logs

    events = corpus.events

    def replay_all() -> int:
        for data in logs:
            for _step in meeple.replay(data):
                pass
        return events

    replay_rate = rate(replay_all, budget)
    report.works[(gid, "replay")] = replay_all
    records_rate = replay_rate * corpus.records / max(corpus.events, 1)
    report.add(Figure("replay events/s (decode+fold)", gid, replay_rate, "events/s", seats,
                      extra={"records_per_s": round(records_rate), "events_per_record": round(corpus.events / max(corpus.records, 1), 2)}))

    def load_all() -> int:
        for data in logs:
            Match.from_bytes(data)
        return corpus.records

    report.add(Figure("load records/s (Match.from_bytes)", gid, rate(load_all, budget), "records/s", seats))

    def verify_all() -> int:
        for data in logs:
            if not meeple.verify(data).ok:
                raise RuntimeError(f"{gid}: a log of the corpus does not verify")
        return corpus.records

    verify_rate = rate(verify_all, budget)
    report.works[(gid, "verify")] = verify_all
    report.add(Figure("verify records/s (re-decide)", gid, verify_rate, "records/s", seats))

    total = sum(len(d) for d in logs)
    head = sum(_header_bytes(d) for d in logs)
    report.add(Figure("log bytes/record", gid, (total - head) / max(corpus.records, 1), "bytes", seats,
                      note="frame + body + 16-byte chain hash"))
    report.add(Figure("log bytes/match", gid, total / len(logs), "bytes", seats,
                      extra={"header_bytes": round(head / len(logs))}))
    return replay_rate, records_rate, verify_rate


def _header_bytes(data: bytes) -> int:
    return read_header(data)[2]


def cursor_figures(report: Report, m: Match, budget: Budget, label: str) -> dict[str, float]:
    """Undo, redo and seek latency at the end of ``m``, and memory per record held in a Match.

    "Cold" figures first drop the match's cache of recently visited states,
    so the position is folded from the nearest snapshot: the cost of the
    first undo after a load, or of a seek far away.
    """
    gid, seats = m.game.info.id, m.seats
    n = len(m)
    out: dict[str, float] = {}

    def forget() -> None:
        recent = getattr(m, "_recent", None)  # the engine's cache of recent states, where it has one
        if recent is not None:
            recent.clear()

    def at_head() -> None:
        if m.cursor != n:
            m.seek(n)

    def undone() -> None:
        if m.cursor == n:
            m.undo()

    # undo (timed) alternates with redo (untimed setup) and the other way round
    out["undo"] = latency(m.undo, budget, setup=at_head)
    out["redo"] = latency(m.redo, budget, setup=undone)
    out["undo_cold"] = latency(m.undo, budget, setup=lambda: (at_head(), forget()))
    out["redo_cold"] = latency(m.redo, budget, setup=lambda: (undone(), forget()))
    k = m.checkpoint_every
    worst = max(0, ((n // k) * k) - 1)  # folds k - 1 records after the nearest snapshot
    out["seek"] = latency(lambda: m.seek(worst), budget, setup=lambda: (m.seek(n), forget()))
    m.seek(n)
    where = f"at record {n}{label}"
    report.add(Figure("undo latency", gid, out["undo"] * 1e3, "ms", seats, note=where))
    report.add(Figure("redo latency", gid, out["redo"] * 1e3, "ms", seats, note=where))
    report.add(Figure("undo latency, cold", gid, out["undo_cold"] * 1e3, "ms", seats, note=where + ", folded from a snapshot"))
    report.add(Figure("redo latency, cold", gid, out["redo_cold"] * 1e3, "ms", seats, note=where + ", folded from a snapshot"))
    report.add(Figure("seek latency, worst case", gid, out["seek"] * 1e3, "ms", seats,
                      note=f"seek {n} -> {worst}: {worst % k} records folded after a snapshot"))
    data = m.to_bytes()
    out["memory"] = memory_per_record(data)
    report.add(Figure("memory/record in a Match", gid, out["memory"], "bytes", seats,
                      note=f"tracemalloc, a loaded match of {n} records"))
    return out


def memory_per_record(data: bytes) -> float:
    """Bytes allocated per record by a Match loaded from ``data`` (records, snapshots, state)."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        m = Match.from_bytes(data)
        m.to_bytes()  # the cached bodies and hashes count too
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return (after - before) / max(len(m), 1)
