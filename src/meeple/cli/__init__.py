"""The ``meeple`` command: a thin layer over the public API (docs/cli.md documents every command).

Exit codes, the same for every command:

* 0: done;
* 1: a log is invalid or forged (it does not verify; its hash chain or
  checkpoints are broken; it is torn);
* 2: bad usage, or input that cannot be read (a missing file, not a meeple
  log, an unknown game or rules version, an output that cannot be written);
* 130: interrupted (Ctrl-C).

Every failure is one line on stderr, never a traceback. A closed pipe
(``meeple replay game.meeple | head``) is a normal end: exit 0, nothing
printed. Wherever a command reads a log it takes a log file or
``sqlite:PATH#MATCH_ID``, a match in a SQLite store (see :mod:`meeple.store`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .. import __version__, serving
from ..engine import MeepleError
from ..engine.text import LANGUAGES
from ._base import (
    EXIT_INTERRUPTED,
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    SOURCE_HELP,
    CliError,
    Parser,
    exit_code,
)
from ._batch import cmd_tournament, cmd_verify
from ._demo import cmd_demo
from ._games import cmd_games
from ._logs import cmd_diff, cmd_export, cmd_fork, cmd_inspect, cmd_list, cmd_repair, cmd_replay
from ._play import cmd_play, cmd_simulate
from ._serve import cmd_serve

__all__ = ["EXIT_INTERRUPTED", "EXIT_INVALID", "EXIT_OK", "EXIT_USAGE", "build_parser", "main", "run"]

_JSON = "print one JSON document instead of text (field names in docs/cli.md)"
_FORCE = "replace an existing output instead of refusing"
_HIDE = ("write the log with the seed hidden behind its commitment (revealed in the last frame once the match "
         "is over), for publishing")


def _new_match_args(s: argparse.ArgumentParser) -> None:
    s.add_argument("--players", type=int, metavar="N",
                   help="seats at the table (default: the fewest the variant allows)")
    s.add_argument("--seed", metavar="SEED", help="the match's seed, decimal or 0x-hex (default: a fresh random one)")
    s.add_argument("--variant", metavar="NAME", help="a variant of the game (see meeple games GAME)")
    s.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="set a game option, VALUE read as JSON where it can be (repeatable; see meeple games GAME)")


def _out_args(s: argparse.ArgumentParser, what: str) -> None:
    s.add_argument("--out", metavar="FILE", help=f"write {what} here: a log file, or sqlite:PATH#MATCH_ID")
    s.add_argument("--force", action="store_true", help=_FORCE)
    s.add_argument("--hide-seed", action="store_true", help=_HIDE)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``meeple`` command."""
    p = Parser(prog="meeple", description="Play, replay, fork, verify and compare tabletop game matches.",
               epilog="exit codes: 0 ok, 1 a log is invalid or forged, 2 usage or unreadable input, 130 interrupted")
    p.add_argument("--version", action="version", version=f"meeple {__version__}", help="print the version and exit")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser, metavar="COMMAND")

    s = sub.add_parser("games", help="list the games, or describe one: variants, seats, options, bots")
    s.add_argument("game", nargs="?", help="a game id: describe its variants, seat ranges, options and bots")
    s.add_argument("--json", action="store_true", help=_JSON)
    s.set_defaults(fn=cmd_games)

    s = sub.add_parser("simulate", help="bots play a match, or --games N matches with statistics")
    s.add_argument("game", nargs="?", help="the game id (not with --from)")
    _new_match_args(s)
    s.add_argument("--from", dest="from_log", metavar="LOG",
                   help="continue the match of this log instead of starting one (" + SOURCE_HELP + "); "
                        "without --out the log grows in place")
    s.add_argument("--bots", metavar="A,B,...", help="bot names by seat, repeated over the seats (default: heuristic)")
    s.add_argument("--bot-seed", metavar="SEED", help="one match: seat s's bot is seeded with SEED+s (default 0)")
    s.add_argument("--games", type=int, metavar="N",
                   help="play N matches, seeds derived from --seed, and print their statistics")
    s.add_argument("--workers", type=int, metavar="K", help="with --games: run on K local processes (default 1)")
    s.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --games: run on the Dask cluster of this scheduler (tcp://HOST:PORT; needs the dask "
                        "extra) instead of local processes")
    s.add_argument("--rotate-bots", action="store_true",
                   help="with --games: match i shifts the bots by i seats, so each bot sits everywhere")
    s.add_argument("--out", metavar="PATH",
                   help="write the log here: a log file or sqlite:PATH#MATCH_ID; with --games, a directory "
                        "(one GAME-NNNNN.meeple per match) or sqlite:PATH")
    s.add_argument("--force", action="store_true", help=_FORCE)
    s.add_argument("--hide-seed", action="store_true", help=_HIDE)
    s.add_argument("--quiet", action="store_true", help="one match: do not draw the final position")
    s.add_argument("--json", action="store_true", help=_JSON)
    s.set_defaults(fn=cmd_simulate)

    s = sub.add_parser("tournament", help="every pair of bots in every seating on shared seeds, rated (Elo scale)")
    s.add_argument("game", help="the game id")
    s.add_argument("--bots", required=True, metavar="A,B,...",
                   help="two or more bot specs (random, heuristic, ismcts:200, ...; see meeple games GAME)")
    s.add_argument("--rounds", type=int, default=10, metavar="N",
                   help="rounds: each plays every pair in every seating on one match seed (default 10)")
    s.add_argument("--players", type=int, metavar="N",
                   help="seats at the table (default: the fewest the variant allows)")
    s.add_argument("--seed", metavar="SEED", help="the tournament seed, decimal or 0x-hex (default: a fresh one)")
    s.add_argument("--variant", metavar="NAME", help="a variant of the game (see meeple games GAME)")
    s.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="set a game option, VALUE read as JSON where it can be (repeatable)")
    s.add_argument("--resamples", type=int, default=200, metavar="B",
                   help="bootstrap resamples of the rating intervals (default 200)")
    s.add_argument("--workers", type=int, metavar="K", help="run on K local processes (default 1)")
    s.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on the Dask cluster of this scheduler (tcp://HOST:PORT; needs the dask extra)")
    s.add_argument("--json", action="store_true", help=_JSON)
    s.set_defaults(fn=cmd_tournament)

    s = sub.add_parser("play", help="play one seat in the terminal against bots, or continue a saved match")
    s.add_argument("target", metavar="GAME|LOG",
                   help="a game id to start a match, or a log to continue (" + SOURCE_HELP + "); a game id wins "
                        "over a file of the same name: write ./NAME for the file")
    _new_match_args(s)
    s.add_argument("--seat", type=int, default=0, metavar="N", help="the seat you play (default 0)")
    s.add_argument("--bots", metavar="A,B,...", help="bot names by seat for the other seats (default: heuristic)")
    s.add_argument("--lang", choices=LANGUAGES, default=LANGUAGES[0],
                   help="the language of the moves, the menu and the prompts (default en; the table picture is "
                        "in English)")
    _out_args(s, "the match as it is played, every move at once (a log to continue: a copy of it, played on)")
    s.set_defaults(fn=cmd_play)

    s = sub.add_parser("replay", help="print a match record by record, or position N (after its first N records)")
    s.add_argument("file", metavar="LOG", help=SOURCE_HELP)
    s.add_argument("--to", type=int, metavar="N", help="draw position N instead: the table after records 0 to N-1")
    s.add_argument("--seat", type=int, metavar="N",
                   help="show the match as seat N may see it (redacted); without it, the referee's full view")
    s.set_defaults(fn=cmd_replay)

    s = sub.add_parser("verify", help="re-decide every command of logs from their seeds")
    s.add_argument("files", nargs="+", metavar="LOG|DIR|STORE",
                   help=SOURCE_HELP + "; a directory (every *.meeple in it) or sqlite:PATH (every match)")
    s.add_argument("--workers", type=int, metavar="K", help="verify on K local processes (default 1)")
    s.add_argument("--scheduler", metavar="ADDRESS",
                   help="verify on the Dask cluster of this scheduler (tcp://HOST:PORT; needs the dask extra)")
    s.add_argument("--json", action="store_true", help="print JSON lines: one per log, then a summary")
    s.set_defaults(fn=cmd_verify)

    s = sub.add_parser("inspect", help="show a log's header, seed schedule and summary")
    s.add_argument("file", metavar="LOG", help=SOURCE_HELP)
    s.add_argument("--json", action="store_true", help=_JSON)
    s.set_defaults(fn=cmd_inspect)

    s = sub.add_parser("fork", help="write a new log from the first N records of a log")
    s.add_argument("file", metavar="LOG", help=SOURCE_HELP)
    s.add_argument("--at", type=int, required=True, metavar="N", help="keep the first N records")
    s.add_argument("--out", required=True, metavar="FILE", help="the new log: a file, or sqlite:PATH#MATCH_ID")
    s.add_argument("--seed", metavar="SEED", help="draw randomness from this new seed after the fork point")
    s.add_argument("--force", action="store_true", help=_FORCE)
    s.add_argument("--hide-seed", action="store_true", help=_HIDE)
    s.set_defaults(fn=cmd_fork)

    s = sub.add_parser("diff", help="compare two logs: where they part, header differences, fork or continuation")
    s.add_argument("a", metavar="A", help="the first log (" + SOURCE_HELP + ")")
    s.add_argument("b", metavar="B", help="the second log")
    s.add_argument("--json", action="store_true", help=_JSON)
    s.set_defaults(fn=cmd_diff)

    s = sub.add_parser("export", help="write a log as one seat may see it (JSON lines, no seed), to publish")
    s.add_argument("file", metavar="LOG", help=SOURCE_HELP)
    s.add_argument("--seat", type=int, metavar="N", help="the seat whose view to export (default: a spectator's)")
    s.add_argument("--out", metavar="FILE", help="write to this file instead of stdout")
    s.add_argument("--force", action="store_true", help=_FORCE)
    s.set_defaults(fn=cmd_export)

    s = sub.add_parser("list", aliases=["ls"], help="list the matches of a store")
    s.add_argument("store", metavar="STORE", help="a directory of log files, sqlite:PATH or postgresql://...")
    s.add_argument("--json", action="store_true", help="print JSON lines, one per match")
    s.set_defaults(fn=cmd_list)

    s = sub.add_parser("repair", help="cut a torn tail (from a crash) off a log file, keeping intact records")
    s.add_argument("file", metavar="LOG", help=SOURCE_HELP)
    s.set_defaults(fn=cmd_repair)

    s = sub.add_parser("serve", help="serve matches over HTTP and WebSockets (needs the server extra)")
    s.add_argument("--store", metavar="URL", help="where matches live, e.g. sqlite:PATH (default: the server's)")
    s.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1, loopback)")
    s.add_argument("--port", type=_port, default=8000, help="the TCP port to listen on (default 8000)")
    s.add_argument("--game", action="append", default=[], metavar="MODULE[:ATTRIBUTE]",
                   help="also serve the game this module defines (its GAME, or ATTRIBUTE), imported from here or "
                        "the Python path, e.g. meeple.examples.liars_dice (repeatable; exit 2 if it does not "
                        "import or is not a meeple Game)")
    serving.add_arguments(s)
    s.set_defaults(fn=cmd_serve)

    s = sub.add_parser("demo", help="play, save, replay and verify a match of every game and variant")
    s.add_argument("--out", metavar="DIR", help="keep the logs in this directory (default: a new temporary one)")
    s.add_argument("--games", metavar="IDS", help="comma-separated game ids (default: all)")
    s.set_defaults(fn=cmd_demo)
    return p


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a number, not {text!r}") from None
    if not 0 < port < 65536:
        raise argparse.ArgumentTypeError(f"a port is 1..65535, not {port}")
    return port


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (see the module docstring)."""
    try:
        args = build_parser().parse_args(argv)
        code: int = args.fn(args)
        sys.stdout.flush()
        return code
    except CliError as e:
        print(f"meeple: {e}", file=sys.stderr)
        return e.code
    except MeepleError as e:
        print(f"meeple: error: {e}", file=sys.stderr)
        return exit_code(e)
    except BrokenPipeError:
        return _closed_pipe()
    except OSError as e:
        name = getattr(e, "filename", None)
        print(f"meeple: error: {e.strerror or e}" + (f": {name}" if name else ""), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("meeple: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as e:  # a bug, here or in a game: one line, the traceback on request
        if os.environ.get("MEEPLE_DEBUG"):
            raise
        print(f"meeple: internal error: {type(e).__name__}: {e} (MEEPLE_DEBUG=1 shows the traceback)",
              file=sys.stderr)
        return EXIT_USAGE


def _closed_pipe() -> int:
    """The reader of stdout went away (``| head``): a normal end. Later writes go nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is not a real file (a test's capture): nothing to redirect
        pass
    return EXIT_OK


def run() -> None:  # pragma: no cover - console entry
    """Console-script entry point."""
    sys.exit(main())
