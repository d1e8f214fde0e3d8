"""The conformance kit: the engine's generic checks, for any game, in a few lines.

>>> from meeple.testing import check_game
>>> report = check_game("liars-dice", seats=2, seeds=range(3))  # doctest: +SKIP

Each check raises :class:`ConformanceError` naming the seed, the step and what
broke. ``check_game`` runs them all over random playouts; the single checks
are public too, so a game's tests can call them from a hypothesis ``@given``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from .engine import ENGINE, Code, Command, IllegalCommand, Match, RandomBot, Rng, verify
from .engine.codec import options_to_map, pack, unstructure
from .engine.game import Game
from .engine.match import codec_for, derive_salt, seed_at
from .engine.registry import resolve
from .engine.rng import GOLDEN_GAMMA, MASK64

#: A seed whose msgpack form is distinctive, so leak scans find it.
LEAK_SEED = 0xC0FFEE_5EED_0F_AB1E


class ConformanceError(AssertionError):
    """A game broke one of the engine's invariants."""


@attrs.define
class Playout:
    """A random playout: the match and the (seat, command) sequence that made it."""

    match: Match
    moves: list[tuple[int, Command]]
    seed: int
    bot_seed: int


def playout(
    game: str | Game[Any, Any],
    seats: int,
    options: Mapping[str, Any] | None = None,
    seed: int = LEAK_SEED,
    bot_seed: int = 0,
    max_steps: int = 5000,
) -> Playout:
    """Play a match with random bots (one per seat) until it ends or ``max_steps``."""
    m = Match.start(game, seats, seed=seed, options=options)
    bots = [RandomBot(bot_seed * 1000 + s) for s in range(seats)]
    moves: list[tuple[int, Command]] = []
    for _ in range(max_steps):
        acting = [s for s in m.to_act if s != ENGINE]
        if not acting:
            break
        seat = acting[0]
        legal = m.legal(seat)
        if not legal:
            raise ConformanceError(f"seed {seed}: seat {seat} must act but has no legal command (step {len(moves)})")
        cmd = bots[seat].choose(m.view(seat), legal, seat)
        try:
            m.play(seat, cmd)
        except IllegalCommand as e:
            raise ConformanceError(f"seed {seed}: a listed legal command was refused at step {len(moves)}: {cmd!r}: {e}") from e
        moves.append((seat, cmd))
    return Playout(m, moves, seed, bot_seed)


def _fail(p: Playout, step: int | None, what: str) -> ConformanceError:
    at = f", step {step}" if step is not None else ""
    return ConformanceError(f"{p.match.game.info.id} seed {p.seed} bot {p.bot_seed}{at}: {what}")


def check_determinism(p: Playout, options: Mapping[str, Any] | None = None) -> None:
    """The same seed and commands give byte-identical logs.

    The match is started again with ``options`` if given, else with the
    playout's own options (as its log header writes them).
    """
    m = p.match
    again = Match.start(m.game, m.seats, seed=p.seed, options=options_to_map(m.options) if options is None else options)
    for seat, cmd in p.moves:
        again.play(seat, cmd)
    if again.to_bytes() != m.to_bytes():
        raise _fail(p, None, "replaying the same commands from the same seed gave different log bytes")


def check_fold_and_verify(p: Playout, samples: int = 40) -> None:
    """Loading the log (folding its events) gives the live state, at sampled steps; verify passes.

    First, :meth:`Game.fold` of every record's events gives the state that
    evolving them one by one gives (a game's own fold may skip the states
    between them, never change the one after).
    """
    game = p.match.game
    state = game.initial_state(p.match.seats, p.match.options)
    for i, r in enumerate(p.match.records):
        one_by_one = _fold(game, state, r.events)
        if game.fold(state, r.events) != one_by_one:
            raise _fail(p, i, "Game.fold of the record's events differs from evolving them one by one")
        state = one_by_one
    m = p.match.fork()
    n = len(m)
    positions = sorted({n, *range(0, n + 1, max(1, n // samples))})
    for i in positions:
        m.seek(i)
        data = m.to_bytes()
        loaded = Match.from_bytes(data)
        if loaded.state != m.state:
            raise _fail(p, i, "the folded log differs from the live state")
        if loaded.to_bytes() != data:
            raise _fail(p, i, "save -> load -> save changed the bytes")
    m.seek(n)
    report = verify(m.to_bytes())
    if not report.ok:
        raise _fail(p, None, f"verify failed on an honest log: {report.summary()}")


def check_codec(p: Playout) -> None:
    """Every command, event and the state survive unstructure -> structure unchanged."""
    codec = codec_for(p.match.game)
    for r in p.match.records:
        for msg in (r.command, *r.events):
            if codec.structure(unstructure(msg), type(msg)) != msg:
                raise _fail(p, r.seq, f"{type(msg).__name__} does not survive the codec")
    st = p.match.state
    if codec.structure(unstructure(st), type(st)) != st:
        raise _fail(p, None, "the state does not survive the codec")


def check_undo_redo(p: Playout, samples: int = 10) -> None:
    """Undo then redo restores the identical state and head hash; play after undo branches."""
    m = p.match.fork()
    n = len(m)
    records = m.records
    for i in range(max(1, n // samples), n + 1, max(1, n // samples)):
        if i < n and records[i].actor == ENGINE:
            continue  # between a command and its engine steps: undo/redo move by whole commands
        m.seek(i)
        if not m.can_undo():
            continue
        state, head = m.state, m.head_hash
        m.undo()
        m.redo()
        if m.state != state or m.head_hash != head:
            raise _fail(p, i, "undo then redo did not restore the same state and hash")


def check_fork(p: Playout) -> None:
    """A fork evolves independently of its parent."""
    m = p.match
    if len(m) < 2:
        return
    before = m.to_bytes()
    child = m.fork(at=len(m) // 2)
    bot = RandomBot(p.bot_seed + 7)
    for _ in range(5):
        acting = [s for s in child.to_act if s != ENGINE]
        if not acting:
            break
        child.play(acting[0], bot.choose(None, child.legal(acting[0]), acting[0]))
    if m.to_bytes() != before:
        raise _fail(p, None, "playing on a fork changed its parent")


def _mutations(cmd: Any) -> Iterable[Command]:
    for f in attrs.fields(type(cmd)):
        v = getattr(cmd, f.name)
        if isinstance(v, enum.Enum):
            for other in type(v):
                if other is not v:
                    yield attrs.evolve(cmd, **{f.name: other})
        elif isinstance(v, str):
            for text in (v + "?", "", v[:-1]):
                yield attrs.evolve(cmd, **{f.name: text})
        elif isinstance(v, bool):
            yield attrs.evolve(cmd, **{f.name: not v})
        elif isinstance(v, int):
            for w in (v + 1, v - 1, -1, 10_000):
                yield attrs.evolve(cmd, **{f.name: w})
        elif isinstance(v, tuple) and v:
            yield attrs.evolve(cmd, **{f.name: v[:-1]})
            yield attrs.evolve(cmd, **{f.name: (*v, v[-1])})


def check_illegal_atomic(p: Playout, samples: int = 15, rng_seed: int = 1) -> None:
    """Commands outside ``legal`` raise IllegalCommand and leave the match byte-identical."""
    m = p.match.fork()
    n = len(m)
    rng = Rng(rng_seed)
    legal_set: set[Command] = set()
    for i in range(0, n + 1, max(1, n // samples)):
        m.seek(i)
        before, state = m.to_bytes(), m.state
        for seat in range(m.seats):
            legal = list(m.legal(seat))
            try:
                legal_set = set(legal)
            except TypeError:
                legal_set = set()
            candidates: list[Command] = []
            for cmd in legal[: 3] + ([rng.choice(legal)] if legal else []):
                candidates.extend(_mutations(cmd))
            if seat not in m.to_act:
                for other in range(m.seats):
                    if other != seat:
                        candidates.extend(list(m.legal(other))[:2])
            for cmd in candidates[:20]:
                if cmd in legal_set or (not legal_set and cmd in legal):
                    continue
                try:
                    m.play(seat, cmd)
                except IllegalCommand:
                    pass
                except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
                    raise _fail(p, i, f"{cmd!r} by seat {seat} raised {type(e).__name__}: {e}, not IllegalCommand") from e
                else:
                    raise _fail(p, i, f"{cmd!r} by seat {seat} is not listed as legal but was accepted")
                if m.state != state or m.to_bytes() != before:
                    raise _fail(p, i, "a refused command changed the match")
        try:
            m.play(m.seats, _any_command(m))
        except IllegalCommand as e:
            if e.code is not Code.UNKNOWN_SEAT:
                raise _fail(p, i, f"an unknown seat gave {e.code}, not UNKNOWN_SEAT") from e
        else:
            raise _fail(p, i, "a command for a seat that does not exist was accepted")


def _variations(cmd: Any) -> list[Command]:
    """:func:`_mutations` of ``cmd``, leaving out those its class refuses to build."""
    out: list[Command] = []
    it = iter(_mutations(cmd))
    while True:
        try:
            out.append(next(it))
        except StopIteration:
            return out
        except (TypeError, ValueError):  # a validator or converter of the class refused the value
            continue


def check_legal_is_decide(p: Playout, samples: int = 12, per_position: int = 30, rng_seed: int = 6) -> None:
    """``decide`` accepts a command exactly when ``legal_commands`` lists it.

    At sampled positions, for every seat: a seat not to act lists nothing
    (the engine refuses it before ``decide``). For every seat to act, each
    listed command (``per_position`` of them, drawn at random, where there
    are more) must be accepted by ``decide``, and each of these candidates
    that is not listed must be refused with :class:`IllegalCommand`: the
    game's :meth:`Game.command_space` where it gives one; else variations of
    the listed commands (one field changed); and in any case the commands
    listed for the other seats here and for any seat at the positions just
    before and after, the commands of the records around the position (the
    engine's too) and commands the seat played elsewhere in the match
    (another seat's command, a command out of its time).
    """
    m = p.match.fork()
    game = m.game
    rng = Rng(rng_seed)
    n = len(m)
    records = p.match.records
    played: dict[int, list[Command]] = {}
    for seat, cmd in p.moves:
        played.setdefault(seat, []).append(cmd)

    def listed(i: int) -> dict[int, list[Command]]:
        m.seek(i)
        st = m.state
        return {s: list(game.legal_commands(st, s)) for s in range(m.seats)}

    for i in _positions(n, samples):
        nearby = [c for j in (i - 1, i + 1) if 0 <= j <= n for cmds in listed(j).values() for c in cmds[:per_position]]
        here = listed(i)
        st = m.state
        acting = game.to_act(st)
        for seat, legal in here.items():
            if seat not in acting:
                if legal:
                    raise _fail(p, i, f"seat {seat} is not to act, but legal_commands lists {legal[0]!r} for it")
                continue
            try:
                legal_set: set[Command] | list[Command] = set(legal)
            except TypeError:  # unhashable commands: compare by equality
                legal_set = legal
            sample = legal if len(legal) <= per_position else [rng.choice(legal) for _ in range(per_position)]
            for cmd in sample:
                try:
                    game.decide(st, seat, cmd, _rng_before(m, i))
                except IllegalCommand as e:
                    raise _fail(p, i, f"{cmd!r} is listed for seat {seat}, but decide refuses it: {e}") from e
            space = game.command_space(st, seat)
            candidates: list[Command] = []
            if space is not None:
                candidates.extend(space)
            else:
                for cmd in sample:
                    candidates.extend(_variations(cmd))
            candidates += [c for s, cmds in here.items() if s != seat for c in cmds[:per_position]]
            candidates += nearby
            candidates += [records[j].command for j in range(max(0, i - 2), min(n, i + 2))]
            mine = played.get(seat, [])
            candidates += mine if len(mine) <= per_position else [rng.choice(mine) for _ in range(per_position)]
            for cmd in candidates:
                if cmd in legal_set:
                    continue
                try:
                    game.decide(st, seat, cmd, _rng_before(m, i))
                except IllegalCommand:
                    continue
                except Exception as e:
                    raise _fail(p, i, f"{cmd!r} by seat {seat} raised {type(e).__name__}: {e}, "
                                      f"not IllegalCommand") from e
                raise _fail(p, i, f"decide accepts {cmd!r} by seat {seat}, but legal_commands does not list it")


def _any_command(m: Match) -> Command:
    for s in range(m.seats):
        legal = m.legal(s)
        if legal:
            return legal[0]
    return m.game.commands[0].__new__(m.game.commands[0])


def _rng_before(m: Match, seq: int) -> Rng:
    """The RNG that record ``seq`` of ``m`` was decided with (its seed, the counter after record ``seq - 1``).

    ``m`` is at position ``seq`` (the callers have sought it there).
    """
    seeds = m.seeds
    assert seeds is not None, "a playout has its seed"
    assert m.cursor == seq, (m.cursor, seq)
    return Rng(seed_at(seeds, seq), m.rng_counter)


def _fold(game: Game[Any, Any], state: Any, events: Iterable[Any]) -> Any:
    for e in events:
        state = game.evolve(state, e)
    return state


def _redacted(game: Game[Any, Any], events: Iterable[Any], seat: int | None) -> tuple[Any, ...]:
    return tuple(red for e in events if (red := game.redact(e, seat)) is not None)


def _positions(n: int, samples: int) -> list[int]:
    return sorted({n, *range(0, n + 1, max(1, n // samples))})


def _observers(m: Match) -> tuple[int | None, ...]:
    return (*range(m.seats), None)


def check_views(p: Playout, samples: int = 20, worlds: int = 2, rng_seed: int = 3) -> None:
    """Nothing a seat is shown changes when only what it may not know changes.

    At sampled positions, for every seat and the spectator, ``determinize``
    gives worlds the seat cannot tell from the real one. In each, the seat's
    view, who is to act, the seat's legal commands and its picture
    (``render``) must be those of the real position, and the next record's
    command and events as the seat sees them must be too, wherever that
    command can be played in the other world. A record that tells the two
    worlds apart reveals hidden information: that is a rule only where the
    record is an information barrier (it drew randomness, or its command or
    an event declares ``barrier``), and then the view after it must show what
    was revealed. A game that declares hidden information must provide
    ``determinize``, and it must change some state wherever the match's
    options hide something (:meth:`Game.hides_information`); where they
    hide nothing, ``redact`` must show every event whole.
    """
    m = p.match.fork()
    game = m.game
    hidden = game.info.hidden_information
    if hidden and type(game).determinize is Game.determinize:
        raise _fail(p, None, "the game declares hidden information but keeps the default determinize "
                             "(which re-deals nothing, so no leak check can see a leak): provide one")
    records = p.match.records
    n = len(m)
    rng = Rng(rng_seed)
    changed = 0
    if not game.hides_information(m.options):  # then nothing is redacted either: a seat sees each record whole
        for r in records:
            for seat in _observers(m):
                if _redacted(game, r.events, seat) != tuple(r.events):
                    raise _fail(p, r.seq, f"the game says these options hide nothing, but redact hides part of "
                                          f"record {r.seq} from seat {seat}")
    for i in _positions(n, samples):
        m.seek(i)
        st = m.state
        acting = game.to_act(st)
        over = game.outcome(st) is not None
        nxt = records[i] if i < n else None
        after = None
        if nxt is not None:
            m.seek(i + 1)
            after = m.state
            m.seek(i)
        for seat in _observers(m):
            v = game.view(st, seat)
            legal = None
            if seat is not None and seat in acting:
                legal = list(game.legal_commands(st, seat))
            picture = game.render(st, seat) if seat is not None else None
            for _ in range(worlds):
                w = game.determinize(st, seat, rng)
                if w != st:
                    changed += 1
                what = f"when only what seat {seat} may not know changed" if seat is not None else \
                    "for a spectator when only hidden information changed"
                if game.view(w, seat) != v:
                    raise _fail(p, i, f"the view of seat {seat} changed {what}")
                if game.to_act(w) != acting:
                    raise _fail(p, i, f"who is to act changed {what}: {game.to_act(w)} instead of {acting}")
                if (game.outcome(w) is not None) != over:
                    raise _fail(p, i, f"whether the match is over changed {what}")
                if legal is not None and seat is not None and list(game.legal_commands(w, seat)) != legal:
                    raise _fail(p, i, f"the legal commands of seat {seat} changed {what}")
                if picture is not None and game.render(w, seat) != picture:
                    raise _fail(p, i, f"the picture of seat {seat} (render) changed {what}")
                if nxt is not None:
                    _check_next_record(p, m, i, nxt, after, w, seat, what)
    if hidden and changed == 0 and game.hides_information(m.options):
        raise _fail(p, None, "determinize never changed a state: it must re-deal what each seat cannot see")


def _check_next_record(p: Playout, m: Match, i: int, record: Any, after: Any, world: Any, seat: int | None,
                       what: str) -> None:
    """Record ``i`` as ``seat`` sees it is the same in ``world`` wherever it can be played there alike."""
    game = m.game
    actor, command = record.actor, record.command
    if actor == ENGINE:
        try:
            command = game.auto_command(world)
        except Exception as e:  # the engine's command must exist in every world the seat cannot tell apart
            raise _fail(p, i, f"the engine has no command in a world seat {seat} cannot tell apart: {e!r}") from e
        if game.redact_command(command, actor, seat) != game.redact_command(record.command, actor, seat):
            raise _fail(p, i, f"the engine's command as seat {seat} sees it changed {what}")
    try:
        events = tuple(game.decide(world, actor, command, _rng_before(m, i)))
    except IllegalCommand:
        return  # the actor knows more than the seat: its command fits only the real world
    there = _fold(game, world, events)
    same_view = game.view(there, seat) == game.view(after, seat) and game.to_act(there) == game.to_act(after)
    same_events = _redacted(game, events, seat) == _redacted(game, record.events, seat)
    if same_view and same_events:
        return
    if same_view:
        raise _fail(p, i, f"the events of record {i} as seat {seat} sees them changed {what}, "
                          f"though its view after them did not: {_redacted(game, record.events, seat)!r}")
    # The record tells the seat which world it is in: it reveals hidden information,
    # which only an information barrier may do (else a player could look, then undo).
    drew = record.rng != m.rng_counter  # m is at position i: the counter before the record
    if not (drew or record.command.barrier or any(e.barrier for e in record.events)):
        raise _fail(p, i, f"record {i} ({type(record.command).__name__}) reveals hidden information to seat {seat} "
                          f"(its view after it differs between worlds it could not tell apart before), but it is not "
                          f"an information barrier: if the reveal is a rule, declare barrier on the event that "
                          f"reveals; if not, it is a leak")


def check_command_redaction(p: Playout, samples: int = 12, per_position: int = 24, rng_seed: int = 4) -> None:
    """What a seat is shown of another seat's command is a function of what it may know.

    At sampled positions, the acting seats' legal commands are decided side
    by side (with the same RNG). For every other seat and the spectator, the
    record of each command as the seat receives it (the redacted command,
    :meth:`Game.redact_command`, and the redacted events, :meth:`Game.redact`)
    is compared with the others':

    * two commands after which the seat's view and the seats to act are the
      same, and which the seat is shown alike once the fields their classes
      declare ``secret`` are hidden, must give the seat the same events: an
      event that differs where the view does not is ``redact`` passing on the
      actor's secret (an event may differ where the command openly does: a
      public choice that leaves no trace in the state, such as a failed
      attack's target, is shown, not leaked);
    * two commands whose redacted events, view after and seats to act are
      the same must also be the same once redacted: a field that changes
      nothing the seat sees is the actor's secret.
    """
    m = p.match.fork()
    game = m.game
    rng = Rng(rng_seed)
    for i in _positions(len(m), samples):
        m.seek(i)
        st = m.state
        for actor in game.to_act(st):
            if actor == ENGINE:
                continue
            legal = list(game.legal_commands(st, actor))
            if len(legal) > per_position:
                legal = [legal[j] for j in sorted(rng.shuffled(range(len(legal)))[:per_position])]
            decided = []
            for cmd in legal:
                try:
                    events = tuple(game.decide(st, actor, cmd, _rng_before(m, i)))
                except IllegalCommand as e:
                    raise _fail(p, i, f"a listed legal command was refused: {cmd!r}: {e}") from e
                decided.append((cmd, events, _fold(game, st, events)))
            for seat in _observers(m):
                if seat == actor:
                    continue
                by_effect: dict[bytes, tuple[Command, bytes]] = {}
                by_command: dict[bytes, tuple[Command, bytes]] = {}
                for cmd, events, there in decided:
                    after = [game.view(there, seat), list(game.to_act(there))]
                    seen = game.redact_command(cmd, actor, seat)
                    public = Game.redact_command(game, seen, actor, seat)  # declared secrets hidden in any case
                    shown = pack(unstructure(list(_redacted(game, events, seat))))
                    form = pack(unstructure(seen))
                    first = by_command.setdefault(pack(unstructure([*after, public])), (cmd, shown))
                    if first[1] != shown:
                        raise _fail(p, i, f"seat {seat} is shown other events for {first[0]!r} than for {cmd!r}, "
                                          f"though its view after them is the same: redact passes on something "
                                          f"the view hides from it ({_redacted(game, events, seat)!r})")
                    first = by_effect.setdefault(pack(unstructure([*after, shown])), (cmd, form))
                    if first[1] != form:
                        raise _fail(p, i, f"seat {seat} can tell {first[0]!r} from {cmd!r} by the command alone "
                                          f"(their effects look the same to it): declare the secret fields "
                                          f"(Command.secret) or redact them in redact_command")


def check_decide_and_fold(p: Playout, samples: int = 30, commands: int = 6, rng_seed: int = 9) -> None:
    """``Game.decide_and_fold`` is ``decide`` and then the one-by-one fold of its events.

    The engine plays every command through ``decide_and_fold``, which a game
    may override to hand over the state its ``decide`` reached. At sampled
    positions, each record's command and up to ``commands`` legal commands
    of every seat to act are decided both ways, each from a fresh RNG at the
    record's place: the events and the RNG words drawn must be the same, and
    the state handed over must equal evolving the events one by one.
    """
    m = p.match.fork()
    game = m.game
    records = p.match.records
    pick = Rng(rng_seed)
    for i in _positions(len(records) - 1, samples) if records else ():
        m.seek(i)
        state = m.state
        r = records[i]
        tried: list[tuple[int, Command]] = [(r.actor, r.command)]
        for seat in (s for s in game.to_act(state) if s != ENGINE):
            legal = list(game.legal_commands(state, seat))
            while legal and len(tried) < 1 + commands:
                tried.append((seat, legal.pop(pick.below(len(legal)))))
        for seat, cmd in tried:
            plain, folded = _rng_before(m, i), _rng_before(m, i)
            events = tuple(game.decide(state, seat, cmd, plain))
            got, after = game.decide_and_fold(state, seat, cmd, folded)
            if tuple(got) != events or folded.counter != plain.counter:
                raise _fail(p, i, f"decide_and_fold of {cmd!r} by seat {seat} does not decide as decide does")
            if after != _fold(game, state, events):
                raise _fail(p, i, f"decide_and_fold of {cmd!r} by seat {seat} hands over a state other than "
                                  "the fold of its events")


#: The shift of :func:`check_rng_blind`: the same draws from another seed and counter.
_RNG_SHIFT = 0x5EED_0FF5E7


def check_rng_blind(p: Playout, samples: int = 30) -> None:
    """``decide`` uses the RNG only to draw: its events never hold the seed or the RNG position.

    Record by record, the command is decided again with an RNG whose seed
    and counter differ but whose draws are the same (SplitMix64's word ``n``
    of seed ``s`` is word ``n + k`` of seed ``s - k * gamma``); the events and
    the number of words drawn must not change.
    """
    m = p.match.fork()
    game = m.game
    records = p.match.records
    for i in _positions(len(records) - 1, samples) if records else ():
        m.seek(i)
        base = _rng_before(m, i)
        shifted = Rng((base.seed - _RNG_SHIFT * GOLDEN_GAMMA) & MASK64, base.counter + _RNG_SHIFT)
        r = records[i]
        events = tuple(game.decide(m.state, r.actor, r.command, shifted))
        if events != r.events:
            raise _fail(p, i, "the events changed when only the RNG's seed and position changed, not its draws: "
                              "decide writes the seed or the RNG position into its events")
        if shifted.counter - _RNG_SHIFT != r.rng:
            raise _fail(p, i, "decide drew a different number of words from an RNG with the same draws")


def _needles(p: Playout) -> tuple[list[bytes], list[str]]:
    seeds = [s for _, s in (p.match.seeds or ())]
    # a small seed's bytes turn up anywhere (0 is one byte); only distinctive ones are scanned for
    raw = [n for s in seeds if s >= 1 << 32 for n in (pack(s), s.to_bytes(8, "big"))]
    raw += [derive_salt(s) for s in seeds]
    text = [t for s in seeds if s >= 1 << 24 for t in (str(s), f"{s:x}", f"{s:X}")]
    return raw, text


def check_secrets(p: Playout, samples: int = 20) -> None:
    """No seat-facing value holds the seed or the commitment's salt.

    Scanned, for every seat and the spectator: views at sampled positions,
    every record as the seat is shown it (:meth:`Match.records_for`: redacted
    command and events), the seat's picture (``render``) and the
    descriptions of the commands it is shown (``describe``).
    """
    m = p.match.fork()
    game = m.game
    raw, text = _needles(p)

    def scan(value: Any, what: str, at: int | None) -> None:
        data = pack(unstructure(value))
        if any(needle in data for needle in raw):
            raise _fail(p, at, f"{what} holds the seed or its salt")

    def scan_text(value: str, what: str, at: int | None) -> None:
        if any(t in value for t in text):
            raise _fail(p, at, f"{what} shows the seed")

    for seat in _observers(m):
        for r in m.records_for(seat):
            scan(r.command, f"record {r.seq}'s command as seat {seat} sees it", r.seq)
            scan(list(r.events), f"record {r.seq}'s events as seat {seat} sees them", r.seq)
            scan_text(game.describe(r.command), f"the description of record {r.seq} for seat {seat}", r.seq)
    for i in _positions(len(m), samples):
        m.seek(i)
        for seat in _observers(m):
            scan(m.view(seat), f"the view of seat {seat}", i)
            if seat is not None:
                scan_text(m.render(seat), f"the picture of seat {seat}", i)


def check_corruption(p: Playout, flips: int = 8, rng_seed: int = 5) -> None:
    """verify reports a flipped byte anywhere and a truncated tail."""
    data = p.match.to_bytes()
    rng = Rng(rng_seed)
    for _ in range(flips):
        pos = rng.below(len(data))
        bad = bytearray(data)
        bad[pos] ^= 1 << rng.below(8)
        if verify(bytes(bad)).ok:
            raise _fail(p, None, f"verify accepted a log with a flipped bit at byte {pos}")
    if len(data) > 40 and verify(data[:-1]).ok:
        raise _fail(p, None, "verify accepted a truncated log")


ALL_CHECKS = (
    check_determinism,
    check_fold_and_verify,
    check_decide_and_fold,
    check_codec,
    check_undo_redo,
    check_fork,
    check_illegal_atomic,
    check_legal_is_decide,
    check_views,
    check_command_redaction,
    check_rng_blind,
    check_secrets,
    check_corruption,
)


def check_game(
    game: str | Game[Any, Any],
    seats: int,
    options: Mapping[str, Any] | None = None,
    seeds: Sequence[int] | range = range(3),
    max_steps: int = 5000,
    require_end: bool = True,
) -> list[Playout]:
    """Run every conformance check over random playouts (one per seed); return them.

    ``require_end`` asks that random play finishes the game within ``max_steps``.
    """
    g = resolve(game)
    out = []
    for s in seeds:
        p = playout(g, seats, options, seed=(LEAK_SEED + s) & ((1 << 64) - 1), bot_seed=s, max_steps=max_steps)
        if require_end and not p.match.is_over:
            raise _fail(p, len(p.moves), f"random play did not finish within {max_steps} commands")
        if p.match.is_over and p.match.to_act:
            raise _fail(p, None, "the match has an outcome but seats may still act")
        for check in ALL_CHECKS:
            check(p)
        out.append(p)
    return out


def game_params() -> list[Any]:
    """``pytest.param`` for every available game id; a game that does not load is a skip with its reason.

    For suites parametrized over every installed game (bundled or third-party)::

        @pytest.mark.parametrize("game_id", game_params())
        def test_something(game_id): ...
    """
    import pytest

    from .engine.registry import available, get_game

    params = []
    for gid in available():
        try:
            get_game(gid)
        except Exception as e:  # a broken third-party game must not break every suite
            params.append(pytest.param(gid, marks=pytest.mark.skip(reason=f"{gid} does not load: {e}")))
        else:
            params.append(pytest.param(gid))
    return params


def check_worlds(
    p: Playout, samples: int = 12, worlds: int = 16, rng_seed: int = 11, steps: int = 20, commands: int = 8,
) -> None:
    """Worlds sampled from a view (``Game.world``) are states the seat cannot tell from the true one.

    At sampled positions, for every seat, ``worlds`` worlds are sampled from
    the seat's view, each from its own RNG seed, and for each one: its view
    for that seat equals the view it came from; ``to_act`` and the seat's
    legal commands are those of the true state; legal commands of every seat
    to act (all of them, or ``commands`` drawn at random where there are
    more) can be played in it (decide and evolve, the engine's own steps
    after it), and so can a random continuation of ``steps`` commands,
    without an error. Where something is hidden from the seat (a world
    differs from the true state, or ``determinize`` re-deals something), the
    worlds must not all be the same. A game that does not implement
    ``world`` (it raises :class:`~meeple.engine.game.NoWorldSampling`) is not
    checked.
    """
    from .engine.game import NoWorldSampling

    m = p.match.fork()
    game = m.game
    n = len(m)
    for i in sorted({*range(0, n + 1, max(1, n // samples)), n}):
        m.seek(i)
        true = m.state
        for seat in range(m.seats):
            view = game.view(true, seat)
            legal = list(game.legal_commands(true, seat))
            sampled = []
            for k in range(worlds):
                try:
                    w = game.world(view, seat, Rng((rng_seed * 7919 + k) & ((1 << 64) - 1)))
                except NoWorldSampling:
                    return
                if game.view(w, seat) != view:
                    raise _fail(p, i, f"a world sampled from the view of seat {seat} shows that seat another view")
                if game.to_act(w) != game.to_act(true):
                    raise _fail(p, i, f"a world of seat {seat} has {game.to_act(w)} to act, not {game.to_act(true)}")
                if list(game.legal_commands(w, seat)) != legal:
                    raise _fail(p, i, f"a world of seat {seat} gives that seat other legal commands")
                _play_in_world(p, i, game, w, Rng(rng_seed + k), steps, commands)
                sampled.append(w)
            hidden = any(w != true for w in sampled) or any(
                game.determinize(true, seat, Rng(rng_seed + 100 + k)) != true for k in range(4))
            if hidden and all(w == sampled[0] for w in sampled):
                raise _fail(p, i, f"{worlds} worlds of seat {seat} from different seeds are all the same, "
                                  "though something is hidden from it")


def _play_in_world(p: Playout, at: int, game: Game[Any, Any], state: Any, rng: Rng, steps: int, commands: int) -> None:
    """Play legal commands of the seats to act in ``state`` (``commands`` at most each), then a random continuation."""

    def step(s: Any, seat: int, cmd: Command) -> Any:
        try:
            for e in game.decide(s, seat, cmd, rng):
                s = game.evolve(s, e)
            guard = 0
            while ENGINE in game.to_act(s) and guard < 1000:
                for e in game.decide(s, ENGINE, game.auto_command(s), rng):
                    s = game.evolve(s, e)
                guard += 1
        except Exception as e:
            raise _fail(p, at, f"{cmd!r} by seat {seat}, legal in a sampled world, raised {type(e).__name__}: {e}") from e
        return s

    for seat in game.to_act(state):
        if seat != ENGINE:
            choices = list(game.legal_commands(state, seat))
            for cmd in choices if len(choices) <= commands else [rng.choice(choices) for _ in range(commands)]:
                step(state, seat, cmd)
    for _ in range(steps):
        acting = [s for s in game.to_act(state) if s != ENGINE]
        if not acting:
            return
        legal = game.legal_commands(state, acting[0])
        if not legal:
            raise _fail(p, at, f"seat {acting[0]} must act in a sampled world but has no legal command")
        state = step(state, acting[0], rng.choice(legal))


#: check_game runs check_worlds too (it checks nothing for a game that does not sample worlds).
ALL_CHECKS = (*ALL_CHECKS, check_worlds)  # type: ignore[assignment]  # one check longer than the tuple above
