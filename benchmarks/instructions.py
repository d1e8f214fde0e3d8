"""Count the CPU instructions of a game's playouts or bot matches with callgrind: figures the load does not move.

    python benchmarks/instructions.py playout saboteur 3 --matches 6
    python benchmarks/instructions.py heuristic gophers 2 --matches 3 --variant simplified
    python benchmarks/instructions.py heuristic saboteur 10 --matches 2 --src /elsewhere/src
    python benchmarks/instructions.py server liars-dice 2 --matches 10 --commands 40
    python benchmarks/instructions.py server liars-dice 2 --matches 10 --commands 40 --profile

Wall-clock figures on a shared machine move by up to 2x between runs; the
number of instructions a program executes does not. This runs a fresh
Python under ``valgrind --tool=callgrind`` twice, once playing the matches
of seeds 0 to N-1 and once playing none, and prints the difference per
match and per record: the cost of the matches alone, without the start-up.

* ``playout``: random playouts as ``run.py`` plays them (``Match.start``,
  ``legal``, a random pick, ``Match.play``), after one ``Match.start`` that
  both runs make;
* ``heuristic``: whole matches with the game's heuristic bot in every seat,
  as ``game_figures.play_match`` plays them (each bot sees its view only);
* ``server``: the server's side of ``--commands`` commands in each of
  ``--matches`` Liar's Dice tables (5 dice of 12 faces, as
  ``server_load.py --anchor`` plays them), in process: a :class:`Hub` on a
  SQLite file (durability fsync: the syscalls cost no instructions), two
  protocol-2 connections a table, every table's seat to act sending the
  lowest bid at once (so group commits take up to 8 commands, as under
  load). It counts the engine thread's work (``Match.play`` and its writes,
  the group commit, every connection's message) and the event loop's
  hand-over of requests and messages, without the sockets. Per command, not
  per match (``game`` and ``seats`` must be ``liars-dice 2``), and split by
  thread: the main thread's (the event loop and the clients), the engine
  thread's, and the SQLite feed's poll (whose count follows the run's
  length, not its commands). With
  ``--cpu`` it runs without callgrind and prints the engine thread's CPU
  time per command (``time.thread_time``; the machine's load moves it), with
  ``--profile`` that and the engine thread's cProfile (in CPU time).

Both runs get ``PYTHONHASHSEED=0`` and ``PYTHONDONTWRITEBYTECODE=1``, so that
they find the same bytecode cache and hash alike; to compare two trees, run
each from a clean copy (``git archive COMMIT src | tar -x -C DIR``), as a
tree whose cache is stale compiles some modules in every process. Needs
``valgrind`` (Debian: ``apt-get install valgrind``); a run takes a minute or
two.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def inner(kind: str, gid: str, seats: int, variant: str | None, matches: int) -> int:
    """Play the matches (in the process callgrind watches) and print how many records they made."""
    from game_figures import play_match, random_playout  # both runs import them: only the matches differ

    import meeple
    from meeple.engine import Match

    game = meeple.get_game(gid)
    options = game.variant_options(variant) if variant else {}
    records = 0
    if kind == "playout":
        Match.start(game, seats, seed=999, options=options)
        for seed in range(matches):
            records += len(random_playout(game, seats, options, seed))
    else:  # both runs build the bot factory too
        factory = game.bots()["heuristic"]
        for seed in range(matches):
            records += len(play_match(game, seats, options, seed, factory))
    print(f"records {records}")
    return 0


#: The tables of ``server``: Liar's Dice as server_load.py --anchor plays it.
SERVER_OPTIONS = {"dice": 5, "sides": 12}


def serve(tables: int, commands: int, profile: bool = False) -> int:
    """The ``server`` run (see the module docstring): play, and print how many commands were acknowledged."""
    import asyncio
    import tempfile

    async def run(db: str) -> int:
        import meeple.examples.liars_dice  # noqa: F401  (registers the game)
        from meeple.server.hub import Hub
        from meeple.server.messages import NewMatch

        hub = Hub(db, durability="fsync")
        await hub.start()
        worker = hub.workers[0]
        seats: list[list[Any]] = []
        cursors = []
        for _ in range(tables):
            new = NewMatch("liars-dice", options=dict(SERVER_OPTIONS))
            await hub.create(new)
            pair = []
            for seat in range(2):
                token = (await hub.join(new.id, seat, None))["token"]
                client = hub.client(new.id, lambda c: None)
                client.protocol = 2
                await hub.hello(client, token, None, None, None)
                pair.append(client)
            seats.append(pair)
            await asyncio.sleep(0)  # the hand-over of the syncs
            first = pair[0].queue._items[0]
            assert isinstance(first, str)
            cursors.append(json.loads(first)["cursor"])
        profiler = None
        if profile:
            import cProfile
            profiler = cProfile.Profile(time.thread_time)  # CPU time: waits for the disk and the GIL left out
            await worker.call(profiler.enable)  # the engine thread's calls only
        spent = await worker.call(time.thread_time)
        done = 0
        for k in range(commands):  # the lowest bid each turn: bid rank k, seat k % 2 to act (seat 0 bids first)
            q, f = divmod(k, SERVER_OPTIONS["sides"])
            command = {"type": "bid", "quantity": q + 1, "face": f + 1}
            await asyncio.gather(*(hub.request(pair[k % 2], "play", cursor + k, command, k)
                                   for pair, cursor in zip(seats, cursors, strict=True)))
            for pair in seats:
                for client in pair:
                    items = client.queue._items
                    done += sum(1 for t in items if isinstance(t, str) and '"ref":' in t)
                    assert not any(isinstance(t, str) and t.startswith('{"type":"error"') for t in items), items
                    items.clear()
        spent = await worker.call(time.thread_time) - spent
        if profiler is not None:
            await worker.call(profiler.disable)
        await hub.close()
        if done:
            print(f"engine thread: {1e6 * spent / done:.0f} us CPU per command ({done} commands"
                  f"{', profiled' if profiler else ''}; load average {os.getloadavg()[0]:.2f})")
        if profiler is not None and done:
            import pstats
            stats = pstats.Stats(profiler)
            stats.sort_stats("tottime").print_stats(45)
            stats.sort_stats("cumulative").print_stats(45)
        return done

    with tempfile.TemporaryDirectory(prefix="meeple-instructions-") as tmp:
        done = asyncio.run(run(str(Path(tmp) / "server.db")))
    if commands:
        assert done == tables * commands, (done, tables * commands)
    print(f"records {done}")
    return 0


def _count(src: Path, args: Sequence[str], threads: dict[int, int] | None = None) -> tuple[int, int]:
    """Instructions and records of one run under callgrind; with ``threads``, each thread's instructions put in it
    (by callgrind's thread number: 1 the main thread, then in the order they started)."""
    import tempfile

    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1",
               PYTHONPATH=os.pathsep.join([str(src), str(HERE)]))
    with tempfile.TemporaryDirectory(prefix="meeple-callgrind-") as tmp:
        out = ["--callgrind-out-file=/dev/null"] if threads is None else \
            ["--separate-threads=yes", "--dump-instr=no", f"--callgrind-out-file={tmp}/run"]
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", *out, sys.executable, str(Path(__file__).resolve()), "--inner", *args],
            capture_output=True, text=True, env=env, cwd=ROOT,
        )
        for f in Path(tmp).glob("run-*"):
            text = f.read_text(errors="replace")
            total = re.search(r"^(?:summary|totals):\s*(\d+)", text, re.MULTILINE)
            number = re.search(r"^thread:\s*(\d+)", text, re.MULTILINE)
            if threads is not None and total and number:
                threads[int(number.group(1))] = int(total.group(1))
    found = _COLLECTED.search(done.stderr)
    records = re.search(r"^records (\d+)$", done.stdout, re.MULTILINE)
    if done.returncode != 0 or found is None or records is None:
        raise SystemExit(f"instructions: the run under callgrind failed:\n{done.stderr[-2000:]}")
    return int(found.group(1)), int(records.group(1))


def main(argv: Sequence[str] | None = None) -> int:
    """Print instructions per match and per record."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["playout", "heuristic", "server"])
    ap.add_argument("game")
    ap.add_argument("seats", type=int)
    ap.add_argument("--matches", type=int, default=3, help="matches of seeds 0..N-1 (default 3); server: tables")
    ap.add_argument("--commands", type=int, default=40, help="server: commands per table (default 40, at most 120)")
    ap.add_argument("--cpu", action="store_true", help="server: no callgrind; print the engine thread's CPU per command")
    ap.add_argument("--profile", action="store_true", help="server: --cpu, and the engine thread's cProfile")
    ap.add_argument("--variant", help="the game's variant (default: its first)")
    ap.add_argument("--src", type=Path, default=ROOT / "src", help="the src directory of the meeple to count")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.kind == "server" and (args.game, args.seats) != ("liars-dice", 2):
        ap.error("server: the tables are liars-dice 2 (as server_load.py --anchor plays)")
    if not 0 <= args.commands <= 120:
        ap.error("--commands: 0..120 (a table of 10 dice of 12 faces has 120 bids)")
    if args.inner or args.profile or args.cpu:
        if args.kind == "server":
            return serve(args.matches, args.commands, args.profile)
        return inner(args.kind, args.game, args.seats, args.variant, args.matches)
    if args.matches < 1:
        ap.error("--matches must be at least 1")
    if shutil.which("valgrind") is None:
        print("instructions: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    src = args.src.resolve()
    rest = [args.kind, args.game, str(args.seats), *(["--variant", args.variant] if args.variant else [])]
    if args.kind == "server":  # the same tables and connections; only the commands differ
        before: dict[int, int] = {}
        after: dict[int, int] = {}
        idle, _ = _count(src, [*rest, "--matches", str(args.matches), "--commands", "0"], before)
        busy, played = _count(src, [*rest, "--matches", str(args.matches), "--commands", str(args.commands)], after)
        print(f"server liars-dice 2, {args.matches} tables, {args.commands} commands each, meeple from {src}: "
              f"{(busy - idle) / max(played, 1):,.0f} instructions per command ({played} commands)")
        names = {1: "main thread (event loop, clients)", 2: "engine thread", 3: "store's feed (polls by time)"}
        for number in sorted(after):
            print(f"  {names.get(number, f'thread {number}')}: "
                  f"{(after[number] - before.get(number, 0)) / max(played, 1):,.0f} per command")
        return 0
    idle, _ = _count(src, [*rest, "--matches", "0"])
    busy, records = _count(src, [*rest, "--matches", str(args.matches)])
    spent = busy - idle
    variant = f" {args.variant}" if args.variant else ""
    print(f"{args.kind} {args.game}{variant}, {args.seats} seats, seeds 0-{args.matches - 1}, meeple from {src}: "
          f"{spent / args.matches:,.0f} instructions per match, {spent / max(records, 1):,.0f} per record "
          f"({records} records)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
