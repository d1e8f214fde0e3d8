"""A match: a game's records, a cursor over them, and everything done with them.

>>> import meeple
>>> m = meeple.Match.start("liars-dice", seats=2, seed=7)
>>> seat = m.to_act[0]
>>> events = m.play(seat, m.legal(seat)[0])
>>> m.undo(); m.redo()   # tooling undo/redo by whole commands
>>> data = m.to_bytes(); meeple.Match.from_bytes(data).state == m.state
True
"""

from __future__ import annotations

import contextlib
import inspect
import os
import secrets
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import attrs

from .._version import __version__
from .codec import Codec, options_from_map, pack, remembered_options, unstructure
from .errors import BadPosition, Code, ConfigError, CorruptLog, DecodeError, IllegalCommand, MeepleError
from .game import ENGINE, Command, Event, Game, Outcome
from .log import Header, chain_hash, frame, framed, header_frame
from .records import Record, SeenRecord, record_body, seen_by
from .registry import resolve
from .rng import MASK64, PyRngCore, Rng
from .seeds import Schedule, derive_salt, reseeded, schedule_problem, schedule_salt, seed_at, seed_commitment
from .versions import checkpoint_of, header_options, options_map, refusal

#: derive_salt, seed_at and seed_commitment live in seeds.py; they are still importable from here.
__all__ = [
    "CHECKPOINT_EVERY", "Loader", "Match", "SeedHidden", "Sink", "UndoCheck", "codec_for", "derive_salt",
    "install_loader", "seed_at", "seed_commitment",
]

#: A snapshot of the state is kept every this many records (and a checkpoint
#: hash written to the log at the same places).
CHECKPOINT_EVERY = 64
#: How many states at recently visited positions a match keeps besides its
#: snapshots (undo, redo and seek near them need no fold).
RECENT_STATES = 32
#: The most engine commands one player command may trigger (a guard against
#: a game whose ``to_act`` never leaves ENGINE).
MAX_ENGINE_STEPS = 100_000

_codecs: dict[int | tuple[int, int | None], Codec] = {}
#: ``Match._acting_state`` before any state was asked about (no state is this object).
_NO_STATE = object()
#: The snapshots of an advance that reached no checkpoint (never written to).
_NO_SNAPSHOTS: dict[int, Any] = {}
#: A command class not looked up yet in ``Codec.command_checks``.
_UNSEEN = object()
_new_record = tuple.__new__  # Record(...) without its Python-level __new__


def _unchecked_rng(seed: int, counter: int) -> Rng:
    """``Rng(seed, counter)`` without the pure-Python core's checks, for a seed the schedule checked."""
    rng = Rng.__new__(Rng)
    rng.seed = seed
    rng.counter = counter
    return rng


#: ``Rng(seed, counter)`` for a seed the schedule checked: the compiled core checks in C, quicker than
#: setting the two words past the check.
_rng_at: Callable[[int, int], Rng] = _unchecked_rng if issubclass(Rng, PyRngCore) else Rng


def codec_for(game: Game[Any, Any], rules: int | None = None) -> Codec:
    """Return the (cached) codec of a game object, of its rules version ``rules`` (None: today's).

    An older version (:class:`~.game.OlderRules`) that lacked some of today's
    message types has a codec of its own, without them: it writes the type
    table and type indices that version wrote.
    """
    older = game.info.older(rules) if rules is not None and rules != game.info.rules_version else None
    without = frozenset(older.types) if older is not None else frozenset()
    key = (id(game), rules) if without else id(game)
    c = _codecs.get(key)
    if c is None or c.game is not game:
        c = Codec(game, without)
        _codecs[key] = c
    return c


def _file_mode(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


#: Option values that compare equal only to values of their own type, so a
#: map of them (with the types) can key a cache of decoded options.
_SCALARS = frozenset({str, int, bool, type(None)})


def _options(codec: Codec, raw: Mapping[str, Any] | None, seats: int) -> Any:
    """``options_from_map``, remembered per game for plain option maps (options are frozen values)."""
    if not raw:
        key: Any = (seats,)
    else:
        try:
            if not all(v.__class__ in _SCALARS for v in raw.values()):
                return options_from_map(codec, raw, seats)
            key = (seats, *sorted((k, v.__class__, v) for k, v in raw.items()))
        except (AttributeError, TypeError):  # not a mapping of str keys: let options_from_map say why
            return options_from_map(codec, raw, seats)
    return remembered_options(codec, "_start_options", key, raw, seats)


class Loader(Protocol):
    """How :meth:`Match.from_bytes` and :meth:`Match.load` read a log into a match.

    The log reader (:mod:`meeple.engine.reader`) sits above this module (it
    builds matches), so it registers itself here with :func:`install_loader`
    when it is imported; importing ``meeple`` or ``meeple.engine`` imports it.
    """

    def from_bytes(self, data: bytes) -> Match:
        """The match of a log's bytes."""
        ...

    def from_path(self, path: str | os.PathLike[str]) -> Match:
        """The match of a log file."""
        ...


_loaders: list[Loader] = []


def install_loader(loader: Loader) -> None:
    """Make ``loader`` the one :meth:`Match.from_bytes` and :meth:`Match.load` use."""
    _loaders[:] = [loader]


def _loader() -> Loader:
    if not _loaders:  # only if this module was loaded without its package
        raise MeepleError("no log reader is installed: import meeple.engine.reader")
    return _loaders[0]


class SeedHidden(MeepleError):
    """The match was loaded from a log that hides its seed: it can be replayed, not continued."""


class Sink(Protocol):
    """Where a match persists its records as they are played (a store).

    ``write(match, start, bodies, snapshots=..., state=...)`` must make the
    record bodies ``bodies`` the records ``start, start+1, ...`` of the
    match's log, dropping any records from ``start`` on (a new branch after an
    undo), all or nothing. If it raises, the match does not change either.
    ``snapshots`` maps each checkpoint position among the new records to the
    state there, and ``state`` is the state after the last body: what the
    match computed already, so a store need not decode and fold the bodies.
    """

    def write(
        self, match: Match, start: int, bodies: Sequence[bytes], *, snapshots: Mapping[int, Any], state: Any
    ) -> None:
        """Persist ``bodies`` as records ``start...``, atomically."""
        ...


@attrs.frozen
class UndoCheck:
    """Whether an undo is allowed, and if not, why. Truthy when allowed."""

    ok: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.ok


class Match:
    """A match of one game: play, undo, redo, seek, fork, save and load.

    Create one with :meth:`start` (or :meth:`load`). ``state`` is the
    referee's full state; give players :meth:`view` instead.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        seats: int,
        options: Any,
        seeds: Schedule | None,
        salt: bytes | None,
        *,
        commitment: bytes | None = None,
        meta: Mapping[str, Any] | None = None,
        checkpoint_every: int = CHECKPOINT_EVERY,
        initial: Any = _NO_STATE,
        rules: int | None = None,
    ) -> None:
        if seeds is not None:
            problem = schedule_problem(seeds)
            if problem is not None:
                raise ConfigError(problem)
        self.game = game
        #: The rules version the match plays and its log names: today's, or an older one the game
        #: still plays (:class:`~.game.OlderRules`; a loaded log keeps its own)
        self.rules: int = game.info.rules_version if rules is None else rules
        if not game.info.plays(self.rules):
            raise ConfigError(refusal(game.info, self.rules, "this library cannot play"))
        self.codec = codec_for(game, self.rules)
        self._checkpoint = checkpoint_of(game, self.rules)
        self.seats = seats
        self.options = options
        self._seeds = seeds
        self._salt_given = salt  # None: the schedule's salt, when first asked for (see _salt)
        self._commitment = commitment  # computed when first asked for (see the property)
        self.meta: dict[str, Any] = dict(meta or {})
        self.checkpoint_every = checkpoint_every
        #: The engine version named in the log header (kept from a loaded log).
        self.engine_version = __version__
        self._records: list[Record] = []
        self._cursor = 0
        if initial is _NO_STATE:
            initial = game.initial_state(seats, options)
        self._snapshots: dict[int, Any] = {0: initial}
        #: states at recently visited positions (bounded): undo and redo near
        #: the head then cost a lookup, not a fold from the last snapshot
        self._recent: dict[int, Any] = {}
        self._state: Any = initial
        self._header_cache: tuple[bool, bytes, bytes] | None = None
        self._bodies: list[bytes] = []  # encoded bodies of _records[:len(_bodies)]
        self._hashes: list[bytes] = []  # chain hashes of _records[:len(_hashes)]
        self._sinks: list[Sink] = []
        #: ``game.to_act(_acting_state)``: states are immutable, so the seats to act are asked of
        #: the game once per position, not once per question (see :attr:`to_act`)
        self._acting_state: Any = _NO_STATE
        self._acting: tuple[int, ...] = ()
        #: ``game.outcome(_outcome_state)``, kept alike (a loop on :attr:`is_over` asks every command)
        self._outcome_state: Any = _NO_STATE
        self._outcome: Outcome | None = None

    @property
    def _salt(self) -> bytes:
        """The commitment salt: given (a loaded log's reveal), else derived from the schedule's last seed."""
        salt = self._salt_given
        if salt is None:
            salt = self._salt_given = schedule_salt(self._seeds) if self._seeds else b""
        return salt

    @property
    def commitment(self) -> bytes:
        """The seed commitment written in the header: BLAKE2b-128(salt || msgpack(seeds)) (docs/rng.md)."""
        c = self._commitment
        if c is None:
            c = self._commitment = seed_commitment(self._seeds or (), self._salt)
        return c

    @commitment.setter
    def commitment(self, value: bytes) -> None:
        self._commitment = value

    # -- creation ------------------------------------------------------------
    @classmethod
    def start(
        cls,
        game: str | Game[Any, Any],
        seats: int,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        rules: int | None = None,
    ) -> Match:
        """Start a new match; set-up steps of the engine seat run at once.

        ``seed`` is drawn from :mod:`secrets` unless given; ``options`` maps
        option names to values and is validated (:class:`ConfigError`).
        ``rules`` plays an older rules version the game still plays
        (:attr:`GameInfo.older_rules <meeple.engine.game.GameInfo.older_rules>`;
        its fixed options are added to ``options``); None plays today's.
        """
        g = resolve(game)
        g.check_seats(seats)
        if rules is not None and rules != g.info.rules_version:
            if not g.info.plays(rules):
                raise ConfigError(refusal(g.info, rules, "this library cannot play"))
            options = options_map(g.info, rules, options)
        codec = codec_for(g)
        opts = _options(codec, options, seats)
        if seed is None:
            seed = secrets.randbits(64)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
            raise ConfigError(f"seed must be an integer in [0, 2**64), not {seed!r}")
        match = cls(g, seats, opts, ((0, seed),), None, meta=meta, rules=rules)  # the salt: derive_salt(seed), when needed
        match._advance_engine()
        return match

    @classmethod
    def _rebuilt(
        cls,
        game: Game[Any, Any],
        seats: int,
        options: Any,
        seeds: Schedule | None,
        salt: bytes | None,
        *,
        commitment: bytes,
        meta: Mapping[str, Any],
        checkpoint_every: int,
        engine_version: str,
        initial: Any,
        records: Sequence[Record],
        state: Any,
        snapshots: Mapping[int, Any],
        bodies: Sequence[bytes] = (),
        hashes: Sequence[bytes] = (),
        rules: int | None = None,
    ) -> Match:
        """A match rebuilt from a log's records, positioned after the last of them.

        For the log reader and the stores, which decode and fold the records
        themselves: ``initial`` is the game's initial state, ``state`` the
        fold of ``records`` from it and ``snapshots`` the states at
        checkpoint positions among them. ``bodies`` and ``hashes`` are the
        stored record bodies and chain hashes, kept so that the chain goes on
        from the bytes actually stored (else both are computed when needed).
        """
        m = cls(game, seats, options, seeds, salt, commitment=commitment, meta=meta,
                checkpoint_every=checkpoint_every, initial=initial, rules=rules)
        m.engine_version = engine_version
        m._records = list(records)
        m._bodies = list(bodies)
        m._hashes = list(hashes)
        m._snapshots.update(snapshots)
        m._cursor = len(m._records)
        m._state = state
        return m

    def _extended(
        self,
        records: Sequence[Record],
        state: Any,
        snapshots: Mapping[int, Any],
        bodies: Sequence[bytes],
        hashes: Sequence[bytes],
    ) -> None:
        """Append records another writer stored after this match's last one; the cursor goes to the new end.

        For the stores, as :meth:`_rebuilt` is, when they catch a match up
        with what another process wrote: they read, check and fold the new
        records themselves. ``records`` continue this match's (the first is
        record ``len(self)``); ``state`` is the fold of all of them from the
        match's last record, ``snapshots`` the states at checkpoint positions
        among them, ``bodies`` and ``hashes`` their stored bytes and chain
        hashes (the chain goes on from the bytes actually stored).
        """
        n = len(self._records)
        if not records or records[0].seq != n or len(bodies) != len(records) or len(hashes) != len(records):
            raise ValueError(f"the records to append start at record {n} and come with their bodies and hashes")
        if n:
            self.body(n - 1)  # both caches complete up to the last record, so the new bytes line up after it
            self.record_hash(n - 1)
        if self._cursor not in self._recent:
            self._remember(self._cursor, self._state)  # coming back (an undo marker, a seek) is a lookup
        self._records.extend(records)
        self._bodies.extend(bodies)
        self._hashes.extend(hashes)
        self._snapshots.update(snapshots)
        self._cursor = len(self._records)
        self._state = state
        self._remember(self._cursor, state)

    def _finish_engine_steps(self) -> None:
        """Run the engine steps due at the cursor of a rebuilt match (for the stores, once their sink is attached).

        A command's records are written together; a crash during that write
        can keep the first of them (a player's command) and lose the engine
        steps the rules run right after it. Those steps are deterministic, so
        they are run again here and written through the attached sinks,
        exactly as the first time. A match without its seed is left as it is.
        A state the rules cannot ask who acts (folded from forged events) is
        :class:`CorruptLog`.
        """
        try:
            acting = self.game.to_act(self._state)
        except Exception as e:
            raise CorruptLog(f"the stored events give a state the rules cannot use ({type(e).__name__}: {e})") from None
        if ENGINE in acting and self._seeds is not None:
            self._advance(ENGINE, self.game.auto_command(self._state))

    # -- reading -------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The full (referee's) state at the cursor."""
        return self._state

    @property
    def records(self) -> tuple[Record, ...]:
        """The records up to the cursor."""
        return tuple(self._records[: self._cursor])

    @property
    def cursor(self) -> int:
        """How many records the current position has folded."""
        return self._cursor

    def __len__(self) -> int:
        return self._cursor

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (``()`` once the match is over)."""
        state = self._state
        if self._acting_state is not state:
            acting = self.game.to_act(state)
            self._acting = acting if type(acting) is tuple else tuple(acting)
            self._acting_state = state
        return self._acting

    def legal(self, seat: int) -> Sequence[Command]:
        """Every command ``seat`` may play now (empty when it may not act; UNKNOWN_SEAT for no such seat)."""
        if type(seat) is not int or not 0 <= seat < self.seats:
            self._check_seat(seat)  # the full check, for what the common case above does not cover
        state = self._state
        if seat not in (self._acting if self._acting_state is state else self.to_act):
            return ()
        return self.game.legal_commands(state, seat)

    def view(self, seat: int | None) -> Any:
        """What ``seat`` may know now (``None``: a spectator)."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.seats):
            self._check_seat(seat)
        return self.game.view(self._state, seat)

    @property
    def outcome(self) -> Outcome | None:
        """The outcome once the match is over, else None."""
        state = self._state
        if self._outcome_state is not state:
            self._outcome = self.game.outcome(state)
            self._outcome_state = state
        return self._outcome

    @property
    def is_over(self) -> bool:
        """True once the game has an outcome."""
        return self.outcome is not None

    @property
    def rng_counter(self) -> int:
        """The RNG counter at the cursor (referee-side information)."""
        return self._records[self._cursor - 1].rng if self._cursor else 0

    @property
    def seeds(self) -> Schedule | None:
        """The seed schedule, ``((from_record, seed), ...)`` (referee-side; None when loaded without it)."""
        return self._seeds

    @property
    def seed_hidden(self) -> bool:
        """True for a match loaded from a log that does not reveal its seed."""
        return self._seeds is None

    def records_for(self, seat: int | None, start: int = 0) -> list[SeenRecord]:
        """The records ``start..cursor`` as ``seat`` sees them (None: a spectator).

        Commands are redacted (:meth:`Game.redact_command`) and events too
        (:meth:`Game.redact`): what a seat may be shown of the past. The
        referee's copy is :attr:`records`.
        """
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.seats):
            self._check_seat(seat)  # the full check, for what the common case above does not cover
        if type(start) is not int or not 0 <= start <= self._cursor:
            raise BadPosition(f"start must be within 0..{self._cursor}, not {start!r}")
        game = self.game
        return [seen_by(game, r, seat) for r in self._records[start : self._cursor]]

    def events_for(self, seat: int | None) -> list[Event]:
        """Every event up to the cursor as ``seat`` sees it (redacted; None: a spectator)."""
        return [e for r in self.records_for(seat) for e in r.events]

    def render(self, seat: int | None = None, lang: str = "en") -> str:
        """A text picture of the position as ``seat`` sees it (None: the referee), in ``lang`` where the game's
        :meth:`~Game.render` takes a ``lang`` (else in the game's one language)."""
        render: Callable[..., str] = self.game.render
        if lang != "en" and "lang" in inspect.signature(render).parameters:
            return render(self._state, seat, lang=lang)
        return render(self._state, seat)

    # -- playing -------------------------------------------------------------
    def play(self, seat: int, command: Command) -> tuple[Event, ...]:
        """Play ``command`` for ``seat``; return its events and those of any engine steps.

        Atomic: on :class:`IllegalCommand` (or any other error) nothing
        changes. A command after an undo drops the redo branch.
        """
        # The checks below run on every command: the common case (a plain int
        # seat, a command of exactly its declared field types) costs one test each.
        if type(seat) is not int or not 0 <= seat < self.seats:
            self._check_seat(seat)
        if self._seeds is None:
            raise SeedHidden("this match was loaded without its seed; it can be replayed, not continued")
        state = self._state
        if seat not in (self._acting if self._acting_state is state else self.to_act):
            # nobody acts once the match is over (Game.to_act), so the outcome is asked only here
            if self.outcome is not None:
                raise IllegalCommand(Code.GAME_OVER, "the match is over", command)
            raise IllegalCommand(Code.NOT_YOUR_TURN, f"seat {seat} may not act now; waiting for {list(self.to_act)}", command)
        check: Any = self.codec.command_checks.get(type(command), _UNSEEN)
        if check is _UNSEEN:
            check = self._command_check(command)
        if check is None or not check(command):
            command = self._well_typed(command)
        new = self._advance(seat, command)
        if len(new) == 1:
            return new[0].events
        return tuple(e for r in new for e in r.events)

    def _command_check(self, command: Command) -> Callable[[Any], bool] | None:
        """The plain check of the command's class (:meth:`Codec.plain_check`), kept; UNKNOWN_COMMAND for a class not the game's."""
        codec = self.codec
        kind = type(command)
        if kind not in codec.index_of or not issubclass(kind, Command):
            raise IllegalCommand(Code.UNKNOWN_COMMAND, f"{kind.__name__} is not a {self.game.info.id} command", command)
        check = codec.command_checks[kind] = codec.plain_check(kind)
        return check

    def _well_typed(self, command: Command) -> Command:
        """The command as the codec reads it back: fields of the declared types, or IllegalCommand.

        For a command its class's plain check did not pass (:meth:`play` has asked it).
        """
        try:
            checked: Command = self.codec.hook(type(command))(unstructure(command))
        except (DecodeError, TypeError) as e:
            raise IllegalCommand(Code.BAD_ARGUMENT, f"malformed {type(command).__name__}: {e}", command) from None
        return checked

    def _advance(self, seat: int, command: Command) -> list[Record]:
        """Play ``command`` of ``seat`` at the cursor, and the engine steps it calls for; return their records.

        In three phases, so that an error in the rules, the engine-step guard
        or a sink changes nothing: work out the records, the state after them
        and its snapshots (:meth:`_decided`); write them to every sink, which
        may refuse (:meth:`_persisted`); only then change the match (the
        commit below, which cannot fail; written out here, as it runs for
        every command played).
        """
        start = self._cursor
        new, snaps, state, acting = self._decided(seat, command)
        bodies = self._persisted(start, new, snaps, state) if self._sinks else None
        # the commit: nothing below raises
        records = self._records
        if start < len(records):
            self._truncate(start)
        records.extend(new)
        if bodies is not None and len(self._bodies) == start:
            self._bodies.extend(bodies)  # what body() would encode again
        if snaps:
            self._snapshots.update(snaps)
        seq = start + len(new)
        self._recent[start] = self._state  # _remember trims the cache for both positions
        self._remember(seq, state)
        self._cursor = seq
        self._state = self._acting_state = state
        self._acting = acting if type(acting) is tuple else tuple(acting)
        return new

    def _decided(self, seat: int, command: Command) -> tuple[list[Record], dict[int, Any], Any, Sequence[int]]:
        """Phase one: the records of ``command`` and its engine steps, the snapshots among them, the state and
        seats to act after them. Changes nothing."""
        game = self.game
        decide_and_fold = game.decide_and_fold
        seeds = self._seeds
        assert seeds is not None  # play and _advance_engine refuse a match without its seed
        seed = seeds[0][1] if len(seeds) == 1 else None
        k = self.checkpoint_every
        seq = self._cursor
        counter = self._records[seq - 1][4] if seq else 0  # Record.rng
        state = self._state
        new: list[Record] = []
        snaps: dict[int, Any] = _NO_SNAPSHOTS  # the states at checkpoint positions among the new records
        while True:
            rng = _rng_at(seed if seed is not None else seed_at(seeds, seq), counter)
            events, state = decide_and_fold(state, seat, command, rng)
            counter = rng.counter
            new.append(_new_record(Record, (seq, seat, command, events, counter)))
            seq += 1
            if not seq % k:
                if snaps is _NO_SNAPSHOTS:
                    snaps = {}
                snaps[seq] = state
            acting = game.to_act(state)
            if ENGINE not in acting:
                return new, snaps, state, acting
            if len(new) > MAX_ENGINE_STEPS:
                raise MeepleError(f"{game.info.id}: the engine seat acted {MAX_ENGINE_STEPS} times in a row")
            seat, command = ENGINE, game.auto_command(state)

    def _persisted(self, start: int, new: list[Record], snaps: dict[int, Any], state: Any) -> list[bytes]:
        """Phase two: write the new records' bodies to every sink (any may raise); return the bodies."""
        bodies = [
            record_body(self.codec, r, self._checkpoint(snaps[r.seq + 1]) if r.seq + 1 in snaps else None)
            for r in new
        ]
        if snaps is _NO_SNAPSHOTS:
            snaps = {}  # a dict of the sinks' own, not the shared empty one
        for sink in self._sinks:
            sink.write(self, start, bodies, snapshots=snaps, state=state)
        return bodies

    def _remember(self, position: int, state: Any) -> None:
        recent = self._recent
        recent[position] = state
        while len(recent) > RECENT_STATES:
            del recent[next(iter(recent))]  # the oldest

    def _advance_engine(self) -> None:
        if self._seeds is not None and ENGINE in self.to_act:
            self._advance(ENGINE, self.game.auto_command(self._state))

    def _truncate(self, n: int) -> None:
        del self._records[n:]
        del self._bodies[n:]
        del self._hashes[n:]
        for k in [k for k in self._snapshots if k > n]:
            del self._snapshots[k]
        for k in [k for k in self._recent if k > n]:
            del self._recent[k]

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise IllegalCommand(Code.UNKNOWN_SEAT, f"there is no seat {seat!r}; seats are 0..{self.seats - 1}")

    # -- moving the cursor -------------------------------------------------------
    def seek(self, n: int) -> None:
        """Move the cursor to just after record ``n`` (0: the initial state); tooling only."""
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= len(self._records):
            raise BadPosition(f"seek position must be within 0..{len(self._records)}, not {n!r}")
        recent = self._recent
        if self._cursor not in recent:
            self._remember(self._cursor, self._state)  # coming back is a lookup
        state = recent.get(n)
        if state is None:
            k = self.checkpoint_every
            base = (n // k) * k
            state = self._snapshots[base]
            fold = self.game.fold
            for r in self._records[base:n]:
                state = fold(state, r.events)
            self._remember(n, state)
        self._state = state
        self._cursor = n

    def _last_player_record(self) -> int:
        j = self._cursor - 1
        while j >= 0 and self._records[j].actor == ENGINE:
            j -= 1
        return j

    def can_undo(self, seat: int | None = None) -> UndoCheck:
        """May the last command be undone, by ``seat`` (a player) or by tooling (None)?

        A player may undo only their own last command, and not once it drew
        randomness or revealed hidden information (an information barrier).
        The outcome is a barrier too: once the match is over no player may
        undo, since a finished match's full log may be shown to everyone.
        Tooling (``seat`` None) may undo anything.
        """
        # asked for every seat after every change (the server's messages): the properties it reads are
        # written out (_last_player_record, is_over, seed_hidden)
        records = self._records
        j = self._cursor - 1
        while j >= 0 and records[j].actor == ENGINE:
            j -= 1
        if j < 0:
            return UndoCheck(False, "there is no command to undo")
        if seat is None:
            return UndoCheck(True)
        if self.outcome is not None:
            return UndoCheck(False, "the match is over (its outcome is an information barrier)")
        rec = records[j]
        if rec.actor != seat:
            return UndoCheck(False, f"the last command was played by seat {rec.actor}, not {seat}")
        before = records[j - 1].rng if j else 0
        for r in records[j : self._cursor]:
            if r.rng != before:
                return UndoCheck(False, "that command drew randomness (an information barrier)")
            if r.command.barrier or any(e.barrier for e in r.events):
                return UndoCheck(False, "that command revealed hidden information (an information barrier)")
        if self._seeds is None:
            return UndoCheck(False, "the match was loaded without its seed")
        return UndoCheck(True)

    def undo(self, seat: int | None = None) -> None:
        """Step back over the last player command and the engine steps after it.

        With ``seat``, act as that player (see :meth:`can_undo`); without, as
        tooling (unrestricted). The undone records stay for :meth:`redo`.
        """
        check = self.can_undo(seat)
        if not check:
            code = Code.NOTHING_TO_UNDO if self._last_player_record() < 0 else Code.UNDO_BARRIER
            raise IllegalCommand(code, f"cannot undo: {check.reason}")
        self.seek(self._last_player_record())

    def can_redo(self) -> bool:
        """True if undone records are waiting to be redone."""
        return self._cursor < len(self._records)

    def redo(self) -> None:
        """Replay the next undone command and its engine steps (the same outcomes)."""
        if self._cursor >= len(self._records):
            raise IllegalCommand(Code.NOTHING_TO_REDO, "cannot redo: nothing was undone")
        k = self._cursor + 1
        while k < len(self._records) and self._records[k].actor == ENGINE:
            k += 1
        self.seek(k)

    def fork(self, at: int | None = None, seed: int | None = None) -> Match:
        """Return a new match whose records are the first ``at`` of this one.

        It continues the same RNG stream unless ``seed`` is given, in which
        case randomness from record ``at`` on comes from the new seed (the
        schedule keeps the seeds of the records before ``at``). The fork's
        header is made anew by the rules of ``docs/rng.md`` (its commitment
        is that of its schedule), so a fork of a match made in memory, loaded
        from a file or opened from a store is the same log, byte for byte.
        """
        at = self._cursor if at is None else at
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(self._records):
            raise BadPosition(f"fork position must be within 0..{len(self._records)}, not {at!r}")
        if self._seeds is None:
            raise SeedHidden("this match was loaded without its seed; it cannot be forked")
        seeds = self._seeds
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
                raise ConfigError(f"seed must be an integer in [0, 2**64), not {seed!r}")
            seeds = reseeded(seeds, at, seed)
        other = Match(self.game, self.seats, self.options, seeds, None, meta=self.meta,
                      checkpoint_every=self.checkpoint_every, rules=self.rules)
        other.engine_version = self.engine_version
        other._records = self._records[:at]
        other._bodies = self._bodies[:at]  # a body does not depend on the header, so a new seed keeps it
        if other._header_frame(False)[1] == self._header_frame(False)[1] and self._own_chain():
            other._hashes = self._hashes[:at]  # the chain starts from the header's hash: same header, same chain
        other._snapshots = {k: v for k, v in self._snapshots.items() if k <= at}
        other._recent = {k: v for k, v in self._recent.items() if k <= at}
        other.seek(at)
        other._advance_engine()
        return other

    # -- saving --------------------------------------------------------------
    def header(self, hide_seed: bool = False) -> Header:
        """The log header of this match."""
        return Header(
            game=self.game.info.id,
            rules=self.rules,
            seats=self.seats,
            options=header_options(self.game.info, self.rules, self.options),
            seeds=None if hide_seed or self._seeds is None else self._seeds,
            commitment=self.commitment,
            types=tuple((t, v) for t, v in self.codec.type_table),
            checkpoint_every=self.checkpoint_every,
            engine=self.engine_version,
            meta=self.meta,
        )

    def _header_frame(self, hide_seed: bool) -> tuple[bytes, bytes]:
        cache = self._header_cache
        if cache is None or cache[0] != hide_seed:
            data, h = header_frame(self.header(hide_seed))
            cache = (hide_seed, data, h)
            self._header_cache = cache
        return cache[1], cache[2]

    def snapshot(self, n: int) -> Any:
        """The state after ``n`` records at a checkpoint position (a multiple of ``checkpoint_every``)."""
        return self._snapshots[n]

    def checkpoint(self, seq: int) -> bytes | None:
        """The checkpoint hash written with record ``seq`` (None where none is due)."""
        n = seq + 1
        if n % self.checkpoint_every:
            return None
        return self._checkpoint(self._snapshots[n])

    def body(self, seq: int) -> bytes:
        """The encoded body of record ``seq`` (cached)."""
        bodies = self._bodies
        while len(bodies) <= seq:
            i = len(bodies)
            bodies.append(record_body(self.codec, self._records[i], self.checkpoint(i)))
        return bodies[seq]

    def to_bytes(self, hide_seed: bool = False) -> bytes:
        """The log of the match up to the cursor, as bytes (see docs/log-format.md).

        With ``hide_seed`` the header keeps only the seed's commitment; a
        finished match then ends with a frame that reveals the seed.
        """
        head, h = self._header_frame(hide_seed)
        parts = [head]
        if not hide_seed and self._own_chain():
            self.record_hash(self._cursor - 1)  # the cached chain, completed up to the cursor
            hashes = self._hashes
            parts.extend(framed(self.body(i), hashes[i]) for i in range(self._cursor))
            return b"".join(parts)
        # a header without the seeds starts another chain than the cached one (and so does the header
        # that shows them, for a match a store read from a file that hides them)
        for i in range(self._cursor):
            data, h = frame(self.body(i), h)
            parts.append(data)
        if hide_seed and self._seeds is not None and self.is_over:
            data, h = frame(pack({"reveal": [[list(s) for s in self._seeds], self._salt]}), h)
            parts.append(data)
        return b"".join(parts)

    def _own_chain(self) -> bool:
        """Whether the cached chain hashes start from this match's header (the one that shows its seeds).

        Not so for a match a store opened from a log that hides its seeds: the
        store keeps the chain of its bytes (see :meth:`record_hash`).
        """
        hashes = self._hashes
        return not hashes or hashes[0] == chain_hash(self.body(0), self._header_frame(False)[1])

    def record_hash(self, seq: int) -> bytes:
        """The chain hash of record ``seq`` (-1: the header's hash)."""
        _, h = self._header_frame(False)
        hashes = self._hashes
        while len(hashes) <= seq:
            i = len(hashes)
            hashes.append(chain_hash(self.body(i), hashes[-1] if hashes else h))
        return hashes[seq] if seq >= 0 else h

    @property
    def head_hash(self) -> bytes:
        """The chain hash of the last record at the cursor (the header's hash if none)."""
        return self.record_hash(self._cursor - 1)

    def attach(self, sink: Sink) -> None:
        """Persist every future change through ``sink`` (see :class:`Sink`)."""
        self._sinks.append(sink)

    def detach(self, sink: Sink) -> None:
        """Stop persisting through ``sink``."""
        self._sinks.remove(sink)

    def state_hash(self) -> bytes:
        """BLAKE2b-128 of the canonical bytes of the state at the cursor (in the form of the match's rules version)."""
        return self._checkpoint(self._state)

    def save(self, path: str | os.PathLike[str], hide_seed: bool = False) -> None:
        """Write the log to ``path`` atomically (a crash leaves the old file or the new one)."""
        data = self.to_bytes(hide_seed)
        target = Path(path)
        fd, tmp = tempfile.mkstemp(prefix=".meeple-", dir=target.parent or ".")
        try:
            os.chmod(tmp, _file_mode(target))
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    @classmethod
    def from_bytes(cls, data: bytes) -> Match:
        """Load a match from log bytes (the chain and checkpoints are checked)."""
        return _loader().from_bytes(data)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Match:
        """Load a match from a log file (see :meth:`from_bytes`)."""
        return _loader().from_path(path)

    def __repr__(self) -> str:
        return f"<Match {self.game.info.id} seats={self.seats} records={self._cursor}/{len(self._records)}>"
