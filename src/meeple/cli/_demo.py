"""``meeple demo``: play, save, replay and verify a match of every bundled game and variant."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from ..catalog import bot_factory
from ..engine import ConfigError, Match, available, get_game, verify
from ..store import FileStore, SqliteStore
from ._base import EXIT_INVALID, CliError, check_config
from ._play import _play_out


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


def cmd_demo(args: argparse.Namespace) -> int:
    """Play, store, replay and verify a match of every bundled game and variant.

    Each match is played through a :class:`~meeple.store.FileStore` (every
    command on disk before ``play`` returns), then added to a SQLite store
    in the same directory; both copies are loaded, replayed and verified
    from their seeds.
    """
    out_dir = Path(args.out or tempfile.mkdtemp(prefix="meeple-demo-"))
    if out_dir.exists() and not out_dir.is_dir():
        raise CliError(f"cannot write {out_dir}: it is not a directory")
    out_dir.mkdir(parents=True, exist_ok=True)
    games = args.games.split(",") if args.games else _loadable(available())
    failed = 0
    files = FileStore(out_dir)
    with SqliteStore(out_dir / "matches.db") as db:
        for gid in games:
            game = check_config(get_game, gid)
            for variant in game.info.variants:
                low, high = game.info.seat_range(variant)
                seats = max(low, min(4, high))
                seed = 1000 + len(gid) + seats
                match_id = f"{gid}-{variant}"
                t = time.perf_counter()
                if files.path(match_id).exists():  # a demo run again into the same directory
                    files.delete(match_id)
                match = files.create(game, seats, seed=seed, options=game.variant_options(variant), match_id=match_id)
                bot = "heuristic" if "heuristic" in game.bots() else "random"
                bots = [bot_factory(game, bot)(s) for s in range(seats)]
                _play_out(match, bots)
                files.close(match)
                db.add(match, match_id, replace=True)
                path = files.path(match_id)
                same = Match.load(path).state == match.state and db.open(match_id).state == match.state
                report = verify(path)
                stored = verify(db.log_bytes(match_id))
                dt = time.perf_counter() - t
                ok = same and report.ok and stored.ok
                failed += not ok
                out = match.outcome
                result = f"winners {list(out.winners)}" if out else "unfinished"
                print(f"{'ok ' if ok else 'BAD'} {gid:11} {variant:11} {seats}p {len(match):5} records "
                      f"{path.stat().st_size:7} bytes  {result:16} replayed={same} verified={report.ok and stored.ok} "
                      f"({dt:.2f}s)")
    print(f"logs in {out_dir} (one file per match, and all of them in {out_dir / 'matches.db'})")
    return EXIT_INVALID if failed else 0
