"""The ``meeple`` command: a thin layer over the public API.

Every failure prints one line on stderr and exits non-zero; no traceback.
Wherever a command reads a log FILE it also takes ``sqlite://PATH#MATCH_ID``,
a match in a SQLite store (see :mod:`meeple.store`).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import __version__
from .engine import (
    ENGINE,
    ConfigError,
    Match,
    MeepleError,
    RandomBot,
    available,
    get_game,
    verify,
)
from .engine.game import Game
from .store import SqliteStore, StoreError, load_log, log_bytes, parse_sqlite, repair

SOURCE_HELP = "a log file, or sqlite://PATH#MATCH_ID for a match in a SQLite store"
EXIT_ERROR = 2
EXIT_FAILED = 1


class CliError(Exception):
    """A user-facing failure: printed as one line, exit code ``code``."""

    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.code = code


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see {self.prog} --help)")


# -- helpers ---------------------------------------------------------------------


def _options(game: Game[Any, Any], variant: str | None, pairs: Sequence[str]) -> dict[str, Any]:
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


def _bot_factory(game: Game[Any, Any], name: str) -> Callable[[int], Any]:
    bots = dict(game.bots())
    bots.setdefault("random", lambda seed: RandomBot(seed))
    if name not in bots:
        raise CliError(f"{game.info.id} has no bot {name!r}; bots: {', '.join(sorted(bots))}")
    return bots[name]


def _players(game: Game[Any, Any], n: int | None, variant: str | None = None) -> int:
    return game.info.seat_range(variant or game.info.variants[0])[0] if n is None else n


def _seed(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        seed = int(value, 0)
    except ValueError:
        raise CliError(f"a seed is an integer, not {value!r}") from None
    if not 0 <= seed < 1 << 64:
        raise CliError("a seed is an integer in [0, 2**64)")
    return seed


def play_out(match: Match, bots: Sequence[Any], max_steps: int = 100_000) -> int:
    """Let ``bots`` (one per seat) play ``match`` to the end; return the commands played."""
    steps = 0
    while not match.is_over and steps < max_steps:
        acting = [s for s in match.to_act if s != ENGINE]
        if not acting:
            break
        seat = acting[0]
        cmd = bots[seat].choose(match.view(seat), match.legal(seat), seat)
        match.play(seat, cmd)
        steps += 1
    return steps


def _write(match: Match, out: str | None, hide_seed: bool = False) -> None:
    if out:
        target = parse_sqlite(out)
        if target is not None:
            if hide_seed:
                raise CliError("a SQLite store keeps the seed; write a log file to hide it")
            with SqliteStore(target[0]) as store:
                store.add(match, target[1])
            return
        try:
            match.save(out, hide_seed=hide_seed)
        except OSError as e:
            raise CliError(f"cannot write {out}: {e.strerror or e}") from None


def _load(path: str) -> Match:
    return load_log(path).to_match()


# -- commands -------------------------------------------------------------------------


def cmd_games(args: argparse.Namespace) -> int:
    """List the games with their player counts and variants."""
    for gid in available():
        try:
            info = get_game(gid).info
        except ConfigError as e:
            print(f"{gid:12} (unavailable: {e})")
            continue
        variants = []
        for v in info.variants:
            low, high = info.seat_range(v)
            variants.append(v if (low, high) == (info.min_seats, info.max_seats) else f"{v} ({low}-{high})")
        print(f"{gid:12} {info.title:30} {info.min_seats}-{info.max_seats} players  variants: {', '.join(variants)}")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Bots play a whole match."""
    game = get_game(args.game)
    seats = _players(game, args.players, args.variant)
    match = Match.start(game, seats, seed=_seed(args.seed), options=_options(game, args.variant, args.option))
    names = (args.bots or "heuristic").split(",")
    base = _seed(args.bot_seed) or 0
    bots = []
    for s in range(seats):
        name = names[s % len(names)]
        if name == "heuristic" and "heuristic" not in game.bots():
            name = "random"
        bots.append(_bot_factory(game, name)(base + s))
    t = time.perf_counter()
    steps = play_out(match, bots)
    dt = time.perf_counter() - t
    if not args.quiet:
        print(match.render(None))
    out = match.outcome
    print(f"{game.info.id}: {seats} players, {steps} commands, {len(match)} records in {dt:.3f}s; "
          + (f"winners {list(out.winners)}, scores {list(out.scores)}: {out.reason}" if out else "not finished"))
    _write(match, args.out)
    if args.out:
        print(f"saved {args.out}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """A human at one seat, bots at the others, in the terminal."""
    game = get_game(args.game)
    seats = _players(game, args.players, args.variant)
    if not 0 <= args.seat < seats:
        raise CliError(f"--seat must be 0..{seats - 1}")
    match = Match.start(game, seats, seed=_seed(args.seed), options=_options(game, args.variant, args.option))
    bot_name = "heuristic" if "heuristic" in game.bots() else "random"
    bots = [_bot_factory(game, bot_name)(s) for s in range(seats)]
    me = args.seat
    while not match.is_over:
        acting = [s for s in match.to_act if s != ENGINE]
        if not acting:
            break
        seat = me if me in acting else acting[0]
        legal = list(match.legal(seat))
        if seat != me:
            cmd = bots[seat].choose(match.view(seat), legal, seat)
            match.play(seat, cmd)
            print(f"seat {seat}: {game.describe(cmd)}")
            continue
        print()
        print(match.render(me))
        for i, c in enumerate(legal):
            print(f"  [{i}] {game.describe(c)}")
        print("  [u] undo   [q] quit")
        try:
            answer = input(f"seat {me}> ").strip()
        except EOFError:
            answer = "q"
        if answer == "q":
            break
        if answer == "u":
            check = match.can_undo(me)
            if check:
                match.undo(me)
            else:
                print(f"cannot undo: {check.reason}")
            continue
        try:
            cmd = legal[int(answer)]
        except (ValueError, IndexError):
            print("type the number of a command")
            continue
        match.play(me, cmd)
    print(match.render(me))
    out = match.outcome
    if out:
        print(f"game over: winners {list(out.winners)}, scores {list(out.scores)}: {out.reason}")
    _write(match, args.out)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Print a match step by step, or the position at record N."""
    log = load_log(args.file)
    game = log.game
    match = log.to_match()
    seat = args.seat
    if seat is not None and not 0 <= seat < match.seats:
        raise CliError(f"--seat must be 0..{match.seats - 1}")
    if args.to is not None:
        if not 0 <= args.to <= len(match):
            raise CliError(f"--to must be 0..{len(match)}")
        match.seek(args.to)
        print(f"{game.info.id}, position after {args.to} of {len(log.records)} records")
        print(match.render(seat))
        return 0
    for r in log.records:
        who = "engine" if r.actor == ENGINE else f"seat {r.actor}"
        print(f"#{r.seq:<5} {who:8} {game.describe(r.command)}")
        for e in r.events:
            red = game.redact(e, seat) if seat is not None else e
            if red is not None:
                print(f"         - {red!r}")
    out = match.outcome
    if out:
        print(f"result: winners {list(out.winners)}, scores {list(out.scores)}: {out.reason}")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Re-decide every command of each log from its seed."""
    failed = 0
    for path in args.files:
        if parse_sqlite(path) is None:
            report = verify(path)
        else:
            try:
                report = verify(log_bytes(path))
            except StoreError as e:
                print(f"{path}: FAILED: {e}")
                failed += 1
                continue
        print(f"{path}: {report.summary()}")
        failed += not report.ok
    return EXIT_FAILED if failed else 0


def cmd_inspect(args: argparse.Namespace) -> int:
    """Show a log's header and summary."""
    log = load_log(args.file)
    h = log.header
    match = log.to_match()
    out = match.outcome
    print(f"file:       {args.file} ({log.size} bytes)")
    print(f"game:       {h.game} (rules {h.rules}), engine {h.engine}, format {h.format}")
    print(f"seats:      {h.seats}")
    print(f"options:    {json.dumps(h.options, sort_keys=True, default=repr)}")
    print(f"seed:       {'hidden' if h.seeds is None else 'in header'}"
          + (", revealed at the end" if log.reveal else ""))
    print(f"records:    {len(log.records)}, {sum(len(r.events) for r in log.records)} events")
    if log.records:
        print(f"bytes/rec:  {log.size / len(log.records):.1f}")
    print(f"head hash:  {(log.hashes[-1] if log.hashes else b'').hex()}")
    print(f"outcome:    {'in progress' if out is None else f'winners {list(out.winners)}, scores {list(out.scores)}: {out.reason}'}")
    return 0


def cmd_fork(args: argparse.Namespace) -> int:
    """Write a new log holding the first N records of FILE."""
    match = _load(args.file)
    if not 0 <= args.at <= len(match):
        raise CliError(f"--at must be 0..{len(match)}")
    child = match.fork(at=args.at, seed=_seed(args.seed))
    _write(child, args.out)
    print(f"wrote {args.out}: {len(child)} records")
    return 0


def _loadable(ids: Sequence[str]) -> list[str]:
    out = []
    for gid in ids:
        try:
            get_game(gid)
        except ConfigError as e:
            print(f"skipping {gid}: {e}", file=sys.stderr)
            continue
        out.append(gid)
    return out


def cmd_repair(args: argparse.Namespace) -> int:
    """Cut a torn tail (from a crash) off a log file, keeping every intact record."""
    if parse_sqlite(args.file) is not None:
        log = load_log(args.file)
        print(f"{args.file}: intact, {len(log.records)} records; "
              "a SQLite store commits whole transactions and never has a torn tail")
        return 0
    print(repair(args.file).summary())
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """Play, save, replay and verify a match of every bundled game."""
    out_dir = Path(args.out or tempfile.mkdtemp(prefix="meeple-demo-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    games = args.games.split(",") if args.games else _loadable(available())
    failed = 0
    for gid in games:
        game = get_game(gid)
        for variant in game.info.variants:
            low, high = game.info.seat_range(variant)
            seats = max(low, min(4, high))
            seed = 1000 + len(gid) + seats
            match = Match.start(game, seats, seed=seed, options=game.variant_options(variant))
            bot = "heuristic" if "heuristic" in game.bots() else "random"
            bots = [_bot_factory(game, bot)(s) for s in range(seats)]
            t = time.perf_counter()
            play_out(match, bots)
            path = out_dir / f"{gid}-{variant}.meeple"
            match.save(path)
            loaded = Match.load(path)
            same = loaded.state == match.state
            report = verify(path)
            dt = time.perf_counter() - t
            ok = same and report.ok
            failed += not ok
            out = match.outcome
            result = f"winners {list(out.winners)}" if out else "unfinished"
            print(f"{'ok ' if ok else 'BAD'} {gid:11} {variant:11} {seats}p {len(match):5} records "
                  f"{path.stat().st_size:7} bytes  {result:16} replayed={same} verified={report.ok} ({dt:.2f}s)")
    print(f"logs in {out_dir}")
    return EXIT_FAILED if failed else 0


# -- wiring ---------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``meeple`` command."""
    p = _Parser(prog="meeple", description="Play, replay, fork and verify tabletop game matches.")
    p.add_argument("--version", action="version", version=f"meeple {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("games", help="list the games")
    s.set_defaults(fn=cmd_games)

    def game_args(s: argparse.ArgumentParser) -> None:
        s.add_argument("game")
        s.add_argument("--players", type=int)
        s.add_argument("--seed")
        s.add_argument("--variant")
        s.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
        s.add_argument("--out", metavar="FILE", help="write the log here (a file, or sqlite://PATH#MATCH_ID)")

    s = sub.add_parser("simulate", help="bots play a whole match")
    game_args(s)
    s.add_argument("--bots", help="comma-separated bot names by seat (default: heuristic)")
    s.add_argument("--bot-seed")
    s.add_argument("--quiet", action="store_true", help="do not draw the final position")
    s.set_defaults(fn=cmd_simulate)

    s = sub.add_parser("play", help="play in the terminal against bots")
    game_args(s)
    s.add_argument("--seat", type=int, default=0)
    s.set_defaults(fn=cmd_play)

    s = sub.add_parser("replay", help="print a match step by step, or the position at record N")
    s.add_argument("file", help=SOURCE_HELP)
    s.add_argument("--to", type=int)
    s.add_argument("--seat", type=int, help="show the match as this seat sees it")
    s.set_defaults(fn=cmd_replay)

    s = sub.add_parser("verify", help="re-decide every command of logs from their seeds")
    s.add_argument("files", nargs="+", help=SOURCE_HELP)
    s.set_defaults(fn=cmd_verify)

    s = sub.add_parser("inspect", help="show a log's header and summary")
    s.add_argument("file", help=SOURCE_HELP)
    s.set_defaults(fn=cmd_inspect)

    s = sub.add_parser("fork", help="write a new log from the first N records of a log")
    s.add_argument("file", help=SOURCE_HELP)
    s.add_argument("--at", type=int, required=True)
    s.add_argument("--out", required=True, help="a log file, or sqlite://PATH#MATCH_ID")
    s.add_argument("--seed", help="draw randomness from a new seed after the fork point")
    s.set_defaults(fn=cmd_fork)

    s = sub.add_parser("repair", help="cut a torn tail (from a crash) off a log file, keeping intact records")
    s.add_argument("file", help=SOURCE_HELP)
    s.set_defaults(fn=cmd_repair)

    s = sub.add_parser("demo", help="play, save, replay and verify a match of every game")
    s.add_argument("--out", metavar="DIR")
    s.add_argument("--games", help="comma-separated game ids (default: all)")
    s.set_defaults(fn=cmd_demo)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    try:
        args = build_parser().parse_args(argv)
        code: int = args.fn(args)
        return code
    except CliError as e:
        print(f"meeple: {e}", file=sys.stderr)
        return e.code
    except MeepleError as e:
        print(f"meeple: error: {e}", file=sys.stderr)
        return EXIT_ERROR
    except OSError as e:
        print(f"meeple: error: {e.strerror or e}: {getattr(e, 'filename', '') or ''}".rstrip(": "), file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("meeple: interrupted", file=sys.stderr)
        return 130


def run() -> None:  # pragma: no cover - console entry
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
