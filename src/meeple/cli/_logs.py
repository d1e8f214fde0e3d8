"""Commands on stored logs: replay, inspect, fork, repair, diff, export and list."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..diff import diff_logs
from ..engine import ENGINE, LoadedLog, MeepleError, readable
from ..export import seat_log_lines
from ..store import FileStore, StoreError, list_matches, parse_sqlite, parse_store, repair
from ..store.backends import forms
from ._base import (
    CliError,
    emit,
    is_database,
    load_source,
    output,
    parse_seed,
    write_bytes,
)
from ._play import describe, describe_record


def _seat(log: LoadedLog, seat: int | None) -> int | None:
    if seat is not None and not 0 <= seat < log.header.seats:
        raise CliError(f"--seat must be 0..{log.header.seats - 1}")
    return seat


def _outcome_json(out: Any) -> dict[str, Any] | None:
    return None if out is None else {"winners": list(out.winners), "scores": list(out.scores), "reason": out.reason}


def _outcome_text(out: Any) -> str:
    return "in progress" if out is None else f"winners {list(out.winners)}, scores {list(out.scores)}: {out.reason}"


def cmd_replay(args: argparse.Namespace) -> int:
    """Print a match record by record (as one seat sees it, with ``--seat``), or position N (after records 0..N-1)."""
    log = load_source(args.file)
    game = log.game
    match = log.to_match()
    seat = _seat(log, args.seat)
    if args.to is not None:
        if not 0 <= args.to <= len(match):
            raise CliError(f"--to must be 0..{len(match)}")
        match.seek(args.to)
        print(f"{game.info.id}, position after {args.to} of {len(log.records)} records")
        print(match.render(seat))
        return 0
    if seat is None:  # the referee's view: every record as it is in the log
        for r in log.records:
            who = "engine" if r.actor == ENGINE else f"seat {r.actor}"
            print(f"#{r.seq:<5} {who:8} {describe(game, r.command)}")
            for e in r.events:
                print(f"         - {e!r}")
    else:
        for seen in match.records_for(seat):
            print(f"#{seen.seq:<5} {describe_record(game, seen, seat)}")
            for e in seen.events:
                print(f"         - {e!r}")
    out = match.outcome
    if out:
        print(f"result: {_outcome_text(out)}")
    return 0


def inspect_json(source: str, log: LoadedLog) -> dict[str, Any]:
    """The fields of ``meeple inspect --json``."""
    h = log.header
    out = log.to_match().outcome
    seeds = log.seeds
    return {
        "source": source, "bytes": log.size, "game": h.game, "rules": h.rules, "engine": h.engine,
        "format": h.format, "seats": h.seats, "options": readable(h.options), "meta": readable(h.meta),
        "seed": {
            "hidden": h.seeds is None, "revealed": log.reveal is not None,
            "schedule": None if seeds is None else [{"from_record": a, "seed": s} for a, s in seeds],
            "commitment": h.commitment.hex(),
        },
        "checkpoint_every": h.checkpoint_every,
        "records": len(log.records), "events": sum(len(r.events) for r in log.records),
        "head_hash": (log.hashes[-1] if log.hashes else b"").hex(),
        "status": "in_progress" if out is None else "over", "outcome": _outcome_json(out),
    }


def cmd_inspect(args: argparse.Namespace) -> int:
    """Show a log's header, seed schedule and summary."""
    log = load_source(args.file)
    doc = inspect_json(args.file, log)
    if args.json:
        emit(doc)
        return 0
    seed = doc["seed"]
    if seed["schedule"] is None:
        seeds = "hidden behind the commitment"
    else:
        seeds = ", ".join(f"{s['seed']} from record {s['from_record']}" for s in seed["schedule"])
        seeds = ("hidden, revealed at the end: " if seed["revealed"] else "in header: ") + seeds
    print(f"file:       {args.file} ({doc['bytes']} bytes)")
    print(f"game:       {doc['game']} (rules {doc['rules']}), engine {doc['engine']}, format {doc['format']}")
    print(f"seats:      {doc['seats']}")
    print(f"options:    {json.dumps(doc['options'], sort_keys=True, default=repr)}")
    print(f"seed:       {seeds}")
    print(f"commitment: {seed['commitment']}")
    print(f"records:    {doc['records']}, {doc['events']} events")
    if doc["records"]:
        print(f"bytes/rec:  {doc['bytes'] / doc['records']:.1f}")
    print(f"head hash:  {doc['head_hash']}")
    print(f"outcome:    {_outcome_text(log.to_match().outcome)}")
    return 0


def cmd_fork(args: argparse.Namespace) -> int:
    """Write a new log holding the first N records of a log (optionally drawing from a new seed after them)."""
    out = output(args.out, force=args.force, hide_seed=args.hide_seed)
    match = load_source(args.file).to_match()
    if not 0 <= args.at <= len(match):
        raise CliError(f"--at must be 0..{len(match)}")
    child = match.fork(at=args.at, seed=parse_seed(args.seed))
    out.write(child)
    print(f"wrote {args.out}: {len(child)} records")
    return 0


def cmd_repair(args: argparse.Namespace) -> int:
    """Cut a torn tail (from a crash) off a log file, keeping every intact record."""
    if parse_sqlite(args.file) is not None:
        log = load_source(args.file)
        print(f"{args.file}: intact, {len(log.records)} records; "
              "a SQLite store commits whole transactions and never has a torn tail")
        return 0
    if not Path(args.file).is_file():
        raise CliError(f"no such log file: {args.file}")
    print(repair(args.file).summary())
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    """Compare two logs: the first record where they differ, their headers, and whether one descends from the other."""
    a, b = load_source(args.a), load_source(args.b)
    d = diff_logs(a, b)
    if args.json:
        doc = d.to_json()
        doc["a"], doc["b"] = args.a, args.b
        emit(doc)
        return 0
    print(f"a: {args.a} ({a.header.game}, {len(a.records)} records)")
    print(f"b: {args.b} ({b.header.game}, {len(b.records)} records)")
    print(d.summary())
    for h in d.header:
        print(f"header {h.field}: a {json.dumps(h.a, default=repr)}, b {json.dumps(h.b, default=repr)}")
    print(f"common records: {d.common}")
    if d.first_difference is not None:
        n = d.first_difference
        for name, log in (("a", a), ("b", b)):
            if n < len(log.records):
                r = log.records[n]
                who = "engine" if r.actor == ENGINE else f"seat {r.actor}"
                print(f"first difference, record {n} in {name}: {who} {describe(log.game, r.command)}")
            else:
                print(f"first difference, record {n}: {name} ends before it")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Write a log as one seat may see it (its redacted records, view and outcome; no seed), in JSON lines."""
    out = output(args.out, force=args.force) if args.out else None
    if out is not None and out.path is None:
        raise CliError("a seat log is JSON lines: write it to a file, not a store")
    log = load_source(args.file)
    seat = _seat(log, args.seat)
    lines = seat_log_lines(log.to_match(), seat)
    if out is None:
        for line in lines:
            print(line)
        return 0
    assert out.path is not None
    write_bytes(out.path, "".join(line + "\n" for line in lines).encode("utf-8"))
    print(f"wrote {args.out}: the match as {'a spectator' if seat is None else f'seat {seat}'} sees it",
          file=sys.stderr)
    return 0


def _row(info: Any, source: str, error: str | None = None) -> dict[str, Any]:
    if info is None:
        return {"id": source.rsplit("#", 1)[-1], "source": source, "game": None, "seats": None, "records": None,
                "status": None, "winners": None, "created": None, "updated": None, "error": error}
    return {"id": info.id, "source": source, "game": info.game, "seats": info.seats, "records": info.records,
            "status": info.status.value, "winners": None if info.winners is None else list(info.winners),
            "created": info.created.isoformat(), "updated": info.updated.isoformat(), "error": None}


def _list_rows(address: str) -> list[dict[str, Any]]:
    if Path(address).is_dir():  # a file store: one row per file, a damaged file named with its error
        store = FileStore(address)
        rows = []
        for mid in store.ids():
            path = str(store.path(mid))
            try:
                rows.append(_row(store.info(mid), path))
            except MeepleError as e:
                rows.append(_row(None, path, str(e)) | {"id": mid})
        return rows
    if not is_database(address):
        raise CliError(f"no store at {address}: give a directory of log files, {forms()}")
    try:
        src = parse_store(address)
        infos = list_matches(address)
    except StoreError as e:
        raise CliError(str(e)) from None
    base = address if src.kind != "sqlite" else f"sqlite:{src.location}"
    return [_row(i, f"{base}#{i.id}") for i in infos]


def cmd_list(args: argparse.Namespace) -> int:
    """List the matches of a store: a directory of log files, or sqlite:PATH."""
    rows = _list_rows(args.store)
    if args.json:
        for row in rows:
            emit(row)
        return 0
    for r in rows:
        if r["error"]:
            print(f"{r['id']:32}  unreadable: {r['error']}")
            continue
        result = "in progress" if r["status"] == "in_progress" else f"over, winners {r['winners']}"
        print(f"{r['id']:32}  {r['game']:10} {r['seats']:>2} seats {r['records']:>6} records  {result}")
    if not rows:
        print(f"no matches in {args.store}", file=sys.stderr)
    return 0
