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
from .engine.match import codec_for
from .engine.registry import resolve

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
    """Loading the log (folding its events) gives the live state, at sampled steps; verify passes."""
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


def _any_command(m: Match) -> Command:
    for s in range(m.seats):
        legal = m.legal(s)
        if legal:
            return legal[0]
    return m.game.commands[0].__new__(m.game.commands[0])


def check_views(p: Playout, samples: int = 20, rng_seed: int = 3) -> None:
    """Views hide what they must: unchanged by re-dealing hidden parts; no seed, no RNG position."""
    m = p.match.fork()
    game = m.game
    n = len(m)
    seed_bytes = pack(p.seed)
    rng = Rng(rng_seed)
    for i in range(0, n + 1, max(1, n // samples)):
        m.seek(i)
        st = m.state
        for seat in (*range(m.seats), None):
            v = game.view(st, seat)
            data = pack(unstructure(v))
            if len(seed_bytes) >= 5 and seed_bytes in data:
                raise _fail(p, i, f"the view of seat {seat} contains the seed")
            other = game.determinize(st, seat, rng)
            if game.view(other, seat) != v:
                raise _fail(p, i, f"the view of seat {seat} changed when only hidden information changed")
        for r in m.records[-3:]:
            for e in r.events:
                for seat in range(m.seats):
                    red = game.redact(e, seat)
                    if red is not None and len(seed_bytes) >= 5 and seed_bytes in pack(unstructure(red)):
                        raise _fail(p, i, "a redacted event contains the seed")


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
    check_codec,
    check_undo_redo,
    check_fork,
    check_illegal_atomic,
    check_views,
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
