"""What every command shares: exit codes, one-line errors, JSON output, sources, outputs and options."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

import attrs

from ..catalog import bot_factory
from ..engine import ConfigError, CorruptLog, Game, LoadedLog, Match, TruncatedLog, available, read_log
from ..export import dumps
from ..store import (
    Durability,
    FileStore,
    MatchNotFound,
    Source,
    Store,
    StoreError,
    is_held,
    log_bytes,
    open_store,
    parse_source,
    parse_store,
    save_log,
    save_match,
)
from ..store.backends import backend, backend_for
from ..store.sources import missing_local

#: Exit code: the command did what was asked.
EXIT_OK = 0
#: Exit code: a log is invalid or forged (it does not verify, its chain or checkpoints are broken, it is torn).
EXIT_INVALID = 1
#: Exit code: bad usage, or input that cannot be read (a missing file, not a meeple log, an unknown game).
EXIT_USAGE = 2
#: Exit code: interrupted (Ctrl-C).
EXIT_INTERRUPTED = 130

SOURCE_HELP = "a log file, or sqlite:PATH#MATCH_ID (postgresql://...#MATCH_ID) for a match in a store"


def is_database(text: str) -> bool:
    """True if ``text`` starts with the scheme of a registered store backend (``sqlite:``, ``postgresql://``)."""
    return backend_for(text) is not None


class CliError(Exception):
    """A user-facing failure: printed as one line on stderr, exit code ``code``."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see {self.prog} --help)")


def exit_code(err: BaseException) -> int:
    """The exit code of a library error: 1 for an invalid or forged log, 2 for everything else."""
    return EXIT_INVALID if isinstance(err, (CorruptLog, TruncatedLog)) else EXIT_USAGE


def emit(value: Any) -> None:
    """Print one JSON document on one line (UTF-8, byte strings as hex)."""
    print(dumps(value))


def note(message: str) -> None:
    """Print a remark for the person at the terminal on stderr (never mixed into data on stdout)."""
    print(f"meeple: {message}", file=sys.stderr)


# -- parsing values ------------------------------------------------------------------


def parse_seed(value: str | None, what: str = "a seed") -> int | None:
    """An optional seed given as decimal or 0x-hex; CliError for anything else."""
    if value is None:
        return None
    try:
        seed = int(value, 0)
    except ValueError:
        raise CliError(f"{what} is an integer, not {value!r}") from None
    if not 0 <= seed < 1 << 64:
        raise CliError(f"{what} is an integer in [0, 2**64)")
    return seed


def parse_options(game: Game[Any, Any], variant: str | None, pairs: Sequence[str]) -> dict[str, Any]:
    """The options of ``variant`` with each ``key=value`` of ``pairs`` over them (values read as JSON if they can be)."""
    opts: dict[str, Any] = dict(game.variant_options(variant)) if variant else {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise CliError(f"--option takes key=value, not {pair!r}")
        try:
            opts[key] = json.loads(raw)
        except json.JSONDecodeError:
            opts[key] = raw
    return opts


def default_seats(game: Game[Any, Any], n: int | None, variant: str | None = None) -> int:
    """``n``, or the fewest seats of the variant."""
    return game.info.seat_range(variant or game.info.variants[0])[0] if n is None else n


def bot_names(game: Game[Any, Any], spec: str | None, seats: int) -> tuple[str, ...]:
    """Bot names by seat from a comma-separated list (repeated over the seats); the heuristic bot by default."""
    if spec:
        names = [n.strip() for n in spec.split(",")]
        if not all(names):
            raise CliError(f"--bots takes comma-separated bot names, not {spec!r}")
    else:
        names = ["heuristic" if "heuristic" in game.bots() else "random"]
    for name in set(names):
        bot_factory(game, name)  # ConfigError naming the bots there are
    return tuple(names[s % len(names)] for s in range(seats))


# -- sources: where a log is read from -------------------------------------------------------


def read_source(source: str) -> bytes:
    """The bytes of a log file or a SQLite match; CliError (exit 2) if there is none or it cannot be read."""
    try:
        return log_bytes(source)
    except StoreError as e:  # MatchNotFound among them
        raise CliError(str(e)) from None


def load_source(source: str) -> LoadedLog:
    """The decoded log of a source (errors: exit 2 unreadable, exit 1 invalid)."""
    return read_log(read_source(source))


def is_source(text: str) -> bool:
    """True if ``text`` names a stored match rather than a game id.

    A database source (``sqlite:...``, ``postgresql://...``), a path with a
    directory separator or a ``.meeple`` suffix, or an existing file that is
    not named like a game.
    """
    if is_database(text) or os.sep in text or text.endswith(".meeple"):
        return True
    return text not in available() and Path(text).is_file()


@attrs.frozen
class Opened:
    """A match opened for playing on in a store, the store holding it, and its file (for a log file)."""

    match: Match
    store: Store
    path: Path | None

    def close(self) -> None:
        """Release the store (and the file's lock)."""
        self.store.close()


def _source(text: str) -> Source:
    try:
        return parse_source(text)
    except StoreError as e:
        raise CliError(str(e)) from None


def open_source(source: str, durability: Durability | None = None) -> Opened:
    """Open a stored match for playing on: every command is in the store before ``play`` returns.

    ``durability`` as the stores take it (None: each store's default).
    """
    src = _source(source)
    if src.kind == "file":
        path = Path(src.location)
        if not path.is_file():
            raise CliError(f"no such log file: {source}")
        fstore = FileStore(path.parent, durability or "flush")
        return Opened(fstore.open_path(path), fstore, path)
    assert src.match_id is not None
    if missing_local(src):
        raise CliError(f"no {backend(src.kind).title} store at {src.location}")
    store = src.open_store(durability=durability)
    try:
        return Opened(store.open(src.match_id), store, None)
    except BaseException:
        store.close()
        raise


# -- outputs: where a log is written -----------------------------------------------------------


@attrs.frozen
class Output:
    """A checked place to write a log: a file, or a match id in a database store.

    Made by :func:`output` before any work, so a bad path fails at once.
    """

    text: str
    path: Path | None
    source: Source
    force: bool
    hide_seed: bool

    def write(self, match: Match) -> None:
        """Write ``match`` (up to its cursor) here in one go (refusing a file another writer holds)."""
        save_match(match, self.text, overwrite=self.force, hide_seed=self.hide_seed)

    def attach(self, match: Match, durability: Durability | None = None) -> Opened:
        """Write ``match`` here and return it reopened through the store, to be played on with every command kept."""
        if self.path is None:
            store = self.source.open_store(durability=durability)
            try:
                assert self.source.match_id is not None
                store.add(match, self.source.match_id, replace=self.force)
                return Opened(store.open(self.source.match_id), store, None)
            except BaseException:
                store.close()
                raise
        save_log(match, self.path, overwrite=self.force)  # with its seed while it is played: it can be continued
        fstore = FileStore(self.path.parent, durability or "flush")
        return Opened(fstore.open_path(self.path), fstore, self.path)


def output(text: str, *, force: bool = False, hide_seed: bool = False) -> Output:
    """Check an output before any work: its directory exists and is writable, and it is new unless ``force``."""
    src = _source(text)
    if src.kind != "file":
        if hide_seed:
            raise CliError(f"a {src.kind} store keeps the seed; write a log file to hide it")
        assert src.match_id is not None
        if src.kind == "sqlite":
            db = Path(src.location)
            _check_dir(db.parent, text)
            if db.exists() and not db.is_file():
                raise CliError(f"cannot write {text}: {db} is not a file")
            if not db.is_file():
                return Output(text, None, src, force, hide_seed)
        if not force:
            store = src.open_store(readonly=True)
            try:
                store.info(src.match_id)
            except MatchNotFound:
                pass
            else:
                raise CliError(f"{text} exists; pass --force to replace it")
            finally:
                store.close()
        return Output(text, None, src, force, hide_seed)
    path = Path(text)
    _check_dir(path.parent, text)
    if path.is_dir():
        raise CliError(f"cannot write {text}: it is a directory")
    if path.exists() and not force:
        raise CliError(f"{text} exists; pass --force to overwrite it")
    return Output(text, path, src, force, hide_seed)


def _check_dir(directory: Path, text: str) -> None:
    d = directory if str(directory) else Path(".")
    if not d.is_dir():
        raise CliError(f"cannot write {text}: no directory {d}")
    if not os.access(d, os.W_OK | os.X_OK):
        raise CliError(f"cannot write {text}: {d} is not writable")


def hidden_bytes(match: Match) -> bytes:
    """The log of ``match`` with its seed hidden behind the commitment (revealed at the end of a finished match).

    Made from a fork at the cursor, whose header and reveal frame are
    computed together, so a match reopened from a store hides its seed as
    well as one played in memory.
    """
    return match.fork(at=match.cursor).to_bytes(hide_seed=True)


def write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (a temporary file renamed over it); never over a file a writer holds."""
    if path.exists() and is_held(path):
        raise CliError(f"{path} is open for writing elsewhere; close it there first")
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def finish(opened: Opened, hide_seed: bool) -> None:
    """Close a match played through a store; drop undone records from its file; hide the seed if asked.

    A player's undo moves the match back, but the store drops the undone
    records only with the next command: a file left right after an undo is
    cut back to the position the player left, frame for frame.
    """
    match = opened.match
    opened.close()
    if opened.path is None:
        return
    if hide_seed and match.is_over:
        save_log(match.fork(at=match.cursor), opened.path, overwrite=True, hide_seed=True)  # see hidden_bytes
        return
    if hide_seed:
        note(f"{opened.path} keeps its seed until the match is over, so that it can be continued")
    data = opened.path.read_bytes()
    log = read_log(data)
    if match.cursor < len(log.records):
        write_bytes(opened.path, data[: log.offsets[match.cursor]])


# -- corpora: many logs at once -------------------------------------------------------------------


def store_sources(text: str) -> Iterator[tuple[str, Any]]:
    """The logs of a corpus: every ``*.meeple`` under a directory, or every match of a database store.

    Yields ``(source, read)`` pairs, ``read()`` giving the bytes; the store is opened read-only.
    """
    if Path(text).is_dir():
        for p in sorted(Path(text).rglob("*.meeple")):
            if p.is_file():
                yield str(p), p.read_bytes
        return
    src = _store(text)
    store = open_store(text, readonly=True)
    try:
        ids = store.ids()
    finally:
        store.close()
    base = text if src.kind == "file" or not backend(src.kind).local else f"{backend(src.kind).schemes[0]}{src.location}"
    for mid in ids:
        source = f"{base}#{mid}"
        yield source, lambda source=source: log_bytes(source)


def _store(text: str) -> Source:
    try:
        return parse_store(text)
    except StoreError as e:
        raise CliError(str(e)) from None


def is_corpus(text: str) -> bool:
    """True for a directory or a whole database store (``sqlite:PATH``, ``postgresql://...``, without ``#ID``)."""
    if Path(text).is_dir():
        return True
    return is_database(text) and "#" not in text


def check_config(fn: Any, *args: Any) -> Any:
    """Call ``fn``; a ConfigError becomes a CliError (exit 2)."""
    try:
        return fn(*args)
    except ConfigError as e:
        raise CliError(str(e)) from None

