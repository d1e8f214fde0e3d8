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
from ..store import FileStore, MatchNotFound, SqliteStore, StoreError, log_bytes, parse_sqlite

#: Exit code: the command did what was asked.
EXIT_OK = 0
#: Exit code: a log is invalid or forged (it does not verify, its chain or checkpoints are broken, it is torn).
EXIT_INVALID = 1
#: Exit code: bad usage, or input that cannot be read (a missing file, not a meeple log, an unknown game).
EXIT_USAGE = 2
#: Exit code: interrupted (Ctrl-C).
EXIT_INTERRUPTED = 130

SOURCE_HELP = "a log file, or sqlite://PATH#MATCH_ID for a match in a SQLite store"
SQLITE = "sqlite://"


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

    A SQLite source, a path with a directory separator or a ``.meeple``
    suffix, or an existing file that is not named like a game.
    """
    if text.startswith(SQLITE) or os.sep in text or text.endswith(".meeple"):
        return True
    return text not in available() and Path(text).is_file()


@attrs.frozen
class Opened:
    """A match opened for playing on in a store, and the store holding it."""

    match: Match
    store: FileStore | SqliteStore
    path: Path | None

    def close(self) -> None:
        """Release the store (and the file's lock)."""
        if isinstance(self.store, FileStore):
            self.store.close(self.match)
        else:
            self.store.close()


def open_source(source: str) -> Opened:
    """Open a stored match for playing on: every command is in the store before ``play`` returns."""
    target = parse_sqlite(source)
    if target is not None:
        db, mid = target
        if not Path(db).is_file():
            raise CliError(f"no SQLite store at {db}")
        store = SqliteStore(db)
        try:
            return Opened(store.open(mid), store, None)
        except BaseException:
            store.close()
            raise
    path = Path(source)
    if not path.is_file():
        raise CliError(f"no such log file: {source}")
    fstore = FileStore(path.parent)
    return Opened(fstore.open(path), fstore, path)


# -- outputs: where a log is written -----------------------------------------------------------


@attrs.frozen
class Output:
    """A checked place to write a log: a file, or a match id in a SQLite store.

    Made by :func:`output` before any work, so a bad path fails at once.
    """

    text: str
    path: Path | None
    sqlite: tuple[str, str] | None
    force: bool
    hide_seed: bool

    def write(self, match: Match) -> None:
        """Write ``match`` (up to its cursor) here in one go."""
        if self.sqlite is not None:
            with SqliteStore(self.sqlite[0]) as store:
                self._free(store)
                store.add(match, self.sqlite[1])
            return
        assert self.path is not None
        if self.hide_seed:
            write_bytes(self.path, hidden_bytes(match))
        else:
            match.save(self.path)

    def attach(self, match: Match) -> Opened:
        """Write ``match`` here and return it reopened through the store, to be played on with every command kept."""
        if self.sqlite is not None:
            store = SqliteStore(self.sqlite[0])
            try:
                self._free(store)
                store.add(match, self.sqlite[1])
                return Opened(store.open(self.sqlite[1]), store, None)
            except BaseException:
                store.close()
                raise
        assert self.path is not None
        match.save(self.path)  # with its seed while it is played, so it can be continued
        fstore = FileStore(self.path.parent)
        return Opened(fstore.open(self.path), fstore, self.path)

    def _free(self, store: SqliteStore) -> None:
        assert self.sqlite is not None
        try:
            store.info(self.sqlite[1])
        except MatchNotFound:
            return
        if not self.force:
            raise CliError(f"{self.text} exists; pass --force to replace it")
        store.delete(self.sqlite[1])


def output(text: str, *, force: bool = False, hide_seed: bool = False) -> Output:
    """Check an output before any work: its directory exists and is writable, and it is new unless ``force``."""
    target = parse_sqlite(text)
    if target is not None:
        if hide_seed:
            raise CliError("a SQLite store keeps the seed; write a log file to hide it")
        db = Path(target[0])
        _check_dir(db.parent, text)
        if db.exists() and not db.is_file():
            raise CliError(f"cannot write {text}: {db} is not a file")
        if db.is_file() and not force:
            with SqliteStore(db) as store:
                try:
                    store.info(target[1])
                except MatchNotFound:
                    pass
                else:
                    raise CliError(f"{text} exists; pass --force to replace it")
        return Output(text, None, target, force, hide_seed)
    path = Path(text)
    _check_dir(path.parent, text)
    if path.is_dir():
        raise CliError(f"cannot write {text}: it is a directory")
    if path.exists() and not force:
        raise CliError(f"{text} exists; pass --force to overwrite it")
    return Output(text, path, None, force, hide_seed)


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
    """Write ``data`` to ``path`` atomically (a temporary file renamed over it)."""
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
        write_bytes(opened.path, hidden_bytes(match))
        return
    if hide_seed:
        note(f"{opened.path} keeps its seed until the match is over, so that it can be continued")
    data = opened.path.read_bytes()
    log = read_log(data)
    if match.cursor < len(log.records):
        write_bytes(opened.path, data[: log.offsets[match.cursor]])


# -- corpora: many logs at once -------------------------------------------------------------------


def store_sources(text: str) -> Iterator[tuple[str, Any]]:
    """The logs of a corpus: every ``*.meeple`` under a directory, or every match of ``sqlite://PATH``.

    Yields ``(name, read)`` pairs, ``read()`` giving the bytes.
    """
    if text.startswith(SQLITE) and "#" not in text:
        db = Path(text[len(SQLITE):])
        if not db.is_file() or db.stat().st_size == 0:
            raise CliError(f"no SQLite store at {db}")
        with SqliteStore(db) as store:
            ids = [info.id for info in store.find()]
        for mid in ids:
            src = f"{SQLITE}{db}#{mid}"
            yield src, lambda src=src: log_bytes(src)
        return
    root = Path(text)
    for p in sorted(root.rglob("*.meeple")):
        if p.is_file():
            yield str(p), p.read_bytes


def is_corpus(text: str) -> bool:
    """True for a directory or a whole SQLite store (``sqlite://PATH`` without ``#MATCH_ID``)."""
    return (text.startswith(SQLITE) and "#" not in text) or Path(text).is_dir()


def check_config(fn: Any, *args: Any) -> Any:
    """Call ``fn``; a ConfigError becomes a CliError (exit 2)."""
    try:
        return fn(*args)
    except ConfigError as e:
        raise CliError(str(e)) from None

