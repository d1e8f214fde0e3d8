"""``meeple play`` and ``meeple simulate`` (one match): people and bots at a table, written through a store."""

from __future__ import annotations

import argparse
import json
import shutil
import time
from collections.abc import Sequence
from typing import Any

import attrs

from ..catalog import bot_factory
from ..engine import ENGINE, Command, Game, Match, get_game, read_log, readable
from ..engine.records import SeenRecord
from ..store import Durability
from ._base import (
    EXIT_INTERRUPTED,
    CliError,
    Opened,
    Output,
    bot_names,
    check_config,
    default_seats,
    emit,
    finish,
    is_source,
    load_source,
    note,
    open_source,
    output,
    parse_options,
    parse_seed,
    read_source,
    write_bytes,
)

#: A menu longer than this is grouped: commands that differ only at their end share a line.
GROUP_MENU_AT = 12


# -- where the match comes from, and where it goes -------------------------------------------------


def _new_match(args: argparse.Namespace, game: Game[Any, Any]) -> Match:
    seats = default_seats(game, args.players, args.variant)
    options = check_config(parse_options, game, args.variant, args.option)
    match: Match = check_config(lambda: Match.start(game, seats, seed=parse_seed(args.seed), options=options))
    return match


def _refuse_new_match_options(args: argparse.Namespace, source: str) -> None:
    given = [flag for flag, value in (("--players", args.players), ("--seed", args.seed),
                                      ("--variant", args.variant), ("--option", args.option)) if value]
    if given:
        raise CliError(f"{', '.join(given)} set up a new match; {source} is a match already")


def _continue(source: str, out: Output | None, durability: Durability | None) -> Opened:
    """Open a stored match to play on: in place, or copied to ``out`` first (the source stays as it is)."""
    if out is None:
        opened = open_source(source, durability)
    elif out.path is None:  # into a database store
        opened = out.attach(read_log(read_source(source)).to_match(), durability)
    else:
        write_bytes(out.path, read_source(source))  # byte for byte: the copy continues the same chain
        opened = open_source(str(out.path), durability)
    if opened.match.seed_hidden:
        opened.close()
        raise CliError(f"{source} hides its seed: it can be replayed, not continued")
    return opened


@attrs.define
class Table:
    """A match being played by this command: the match, and the store it is written through (if any)."""

    match: Match
    opened: Opened | None
    out_text: str | None
    hide_seed: bool

    @classmethod
    def set_up(cls, args: argparse.Namespace, target: str | None, durability: Durability | None = None,
               seat: int | None = None) -> Table:
        """Start or continue the match of ``play``/``simulate``, checking ``--out`` (and ``seat``) before any work.

        ``durability`` is the store's (None: its default, which for a database is an fsync per command).
        """
        out = output(args.out, force=args.force, hide_seed=args.hide_seed) if args.out else None
        if target is not None and is_source(target):
            _refuse_new_match_options(args, target)
            if out is not None and seat is not None:
                _check_seat(seat, load_source(target).header.seats)
            opened = _continue(target, out, durability)
            if seat is not None:
                try:
                    _check_seat(seat, opened.match.seats)
                except CliError:
                    opened.close()
                    raise
            return cls(opened.match, opened, out.text if out else target, args.hide_seed)
        if target is None:
            raise CliError("name a game (see meeple games), or a log to continue")
        game = check_config(get_game, target)
        match = _new_match(args, game)
        if seat is not None:
            _check_seat(seat, match.seats)
        if out is None:
            if args.hide_seed:
                raise CliError("--hide-seed applies to a log written with --out")
            return cls(match, None, None, False)
        opened = out.attach(match, durability)
        return cls(opened.match, opened, out.text, args.hide_seed)

    def close(self) -> None:
        """Close the store, leaving the log as the match stands."""
        if self.opened is not None:
            finish(self.opened, self.hide_seed)
            self.opened = None


def _check_bots(spec: str | None, target: str | None) -> None:
    """Refuse unknown bot names before anything is written."""
    if not spec or not target:
        return
    game = load_source(target).game if is_source(target) else check_config(get_game, target)
    check_config(bot_names, game, spec, 1)


def _check_seat(seat: int, seats: int) -> None:
    if not 0 <= seat < seats:
        raise CliError(f"--seat must be 0..{seats - 1}")


def _bots(game: Game[Any, Any], spec: str | None, seats: int, base_seed: int) -> list[Any]:
    names = bot_names(game, spec, seats)
    return [bot_factory(game, name)(base_seed + seat) for seat, name in enumerate(names)]


def _result(match: Match, lang: str = "en") -> str:
    out = match.outcome
    if out is None:
        return _word(lang, "not_finished")
    return _word(lang, "result", winners=list(out.winners), scores=list(out.scores),
                 reason=match.game.outcome_text(out, lang))


# -- simulate: bots play one match ---------------------------------------------------------------


def cmd_simulate(args: argparse.Namespace) -> int:
    """Bots play one match to the end (or ``--games N`` matches: see the batch commands)."""
    if args.games is not None:
        from ._batch import simulate_many

        return simulate_many(args)
    if args.workers is not None:
        raise CliError("--workers applies to --games N")
    if args.scheduler:
        raise CliError("--scheduler applies to --games N")
    if args.from_log and args.game:
        raise CliError(f"give a game or --from LOG, not both ({args.game!r} and --from {args.from_log})")
    # bots: each command reaches the operating system before the next (kill -9 loses nothing), unsynced
    _check_bots(args.bots, args.from_log or args.game)
    table = Table.set_up(args, args.from_log or args.game, "flush")
    try:
        match = table.match
        game = match.game
        bots = _bots(game, args.bots, match.seats, parse_seed(args.bot_seed, "a bot seed") or 0)
        t = time.perf_counter()
        steps = _play_out(match, bots)
        dt = time.perf_counter() - t
    except KeyboardInterrupt:
        table.close()
        if table.out_text:
            note(f"interrupted; the match so far is in {table.out_text} (continue it with: "
                 f"meeple simulate --from {table.out_text})")
        return EXIT_INTERRUPTED
    table.close()
    out = match.outcome
    if args.json:
        emit({
            "game": game.info.id, "seats": match.seats,
            "seeds": None if args.hide_seed else [list(s) for s in match.header().seeds or ()],
            "bots": list(bot_names(game, args.bots, match.seats)), "commands": steps,
            "records": len(match), "seconds": dt, "finished": out is not None,
            "winners": None if out is None else list(out.winners), "scores": None if out is None else list(out.scores),
            "reason": None if out is None else out.reason, "out": table.out_text,
        })
        return 0
    if not args.quiet:
        print(match.render(None))
    print(f"{game.info.id}: {match.seats} players, {steps} commands, {len(match)} records in {dt:.3f}s; "
          + _result(match))
    if table.out_text:
        print(f"saved {table.out_text}")
    return 0


def _play_out(match: Match, bots: Sequence[Any], max_steps: int = 100_000) -> int:
    steps = 0
    while not match.is_over and steps < max_steps:
        acting = [s for s in match.to_act if s != ENGINE]
        if not acting:
            break
        seat = acting[0]
        match.play(seat, bots[seat].choose(match.view(seat), match.legal(seat), seat))
        steps += 1
    return steps


# -- play: a person at one seat ----------------------------------------------------------------------

#: The words of the terminal game that are not a game's own, by language (``--lang``).
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "you": "You", "seat": "Seat {seat}", "prompt": "seat {seat}> ", "board": "board", "quit": "quit",
        "undo": "undo", "undone": "Your last command is undone.", "cannot_undo": "cannot undo: {reason}",
        "choose": "type the number of a command (0-{last}), b for the board, q to quit",
        "choose_undo": "type the number of a command (0-{last}), u to undo, b for the board, q to quit",
        "range": "type the number of a command: 0-{last}", "your_turn": "Your turn:",
        "over": "game over: {result}", "continuing": "continuing {source} after record {last} (its {records} records)",
        "continuing_start": "continuing {source} from its start",
        "result": "winners {winners}, scores {scores}: {reason}", "not_finished": "not finished",
    },
    "ru": {
        "you": "Вы", "seat": "Место {seat}", "prompt": "место {seat}> ", "board": "стол", "quit": "выйти",
        "undo": "отменить", "undone": "Ваш последний ход отменён.", "cannot_undo": "отменить нельзя: {reason}",
        "choose": "введите номер хода (0-{last}), b - стол, q - выйти",
        "choose_undo": "введите номер хода (0-{last}), u - отменить, b - стол, q - выйти",
        "range": "введите номер хода: 0-{last}", "your_turn": "Ваш ход:",
        "over": "игра окончена: {result}", "continuing": "продолжение {source} после записи {last} (записей в журнале: {records})",
        "continuing_start": "продолжение {source} с начала",
        "result": "победители {winners}, очки {scores}: {reason}", "not_finished": "не окончена",
    },
}


def _word(lang: str, key: str, **params: Any) -> str:
    return WORDS.get(lang, WORDS["en"])[key].format(**params)


@attrs.define
class Terminal:
    """A person at seat ``me`` of ``match``, in ``lang``: what was told them so far."""

    match: Match
    me: int
    lang: str = "en"
    shown: int = 0

    def tell(self) -> None:
        """Narrate the records after those already told, as sentences seat ``me`` may read."""
        m = self.match
        for r in m.records_for(self.me, start=min(self.shown, len(m))):
            print(narrate(m.game, r, self.me, self.lang))
        self.shown = len(m)

    def board(self) -> None:
        """Print the whole table as seat ``me`` sees it (with its key), in the person's language."""
        print(self.match.render(self.me, self.lang))

    def turn(self) -> bool:
        """Ask for a command and play it (or undo); return True if the person quits."""
        m, me, lang = self.match, self.me, self.lang
        legal = list(m.legal(me))
        undo = bool(m.can_undo(me))
        print()
        print(_word(lang, "your_turn"))
        for line in menu(m.game, legal, lang=lang):
            print(line)
        keys = [f"[b] {_word(lang, 'board')}"] + ([f"[u] {_word(lang, 'undo')}"] if undo else [])
        print("  " + "   ".join([*keys, f"[q] {_word(lang, 'quit')}"]))
        last = len(legal) - 1
        while True:
            try:
                answer = input(_word(lang, "prompt", seat=me)).strip()
            except EOFError:
                print()
                return True
            if answer in ("q", "quit"):
                return True
            if answer in ("b", "board"):
                self.board()
                continue
            if answer in ("u", "undo"):
                check = m.can_undo(me)
                if not check:  # asked where it is not offered
                    print(_word(lang, "cannot_undo", reason=check.reason))
                    continue
                m.undo(me)
                print(_word(lang, "undone"))
                self.shown = min(self.shown, len(m))
                return False
            try:
                choice = int(answer)
            except ValueError:
                print(_word(lang, "choose_undo" if undo else "choose", last=last))
                continue
            if not 0 <= choice < len(legal):
                print(_word(lang, "range", last=last))
                continue
            m.play(me, legal[choice])
            self.tell()
            return False


def cmd_play(args: argparse.Namespace) -> int:
    """A person plays one seat in the terminal, bots the others; with ``--out`` every move is on disk at once.

    Each record is told as a sentence in ``--lang``; the whole table is
    printed when the person first acts, at the end, and on ``b``.
    """
    _check_bots(args.bots, args.target)
    table = Table.set_up(args, args.target, seat=args.seat)
    match = table.match
    me = args.seat
    lang = args.lang
    game = match.game
    bots = _bots(game, args.bots, match.seats, 0)
    continued = args.target is not None and is_source(args.target)
    person = Terminal(match, me, lang, len(match) if continued else 0)
    if continued:
        # records are numbered from 0, as the log, meeple replay and the browser number them
        print(_word(lang, "continuing", source=args.target, last=len(match) - 1, records=len(match)) if len(match)
              else _word(lang, "continuing_start", source=args.target))
    try:
        quit_, drawn = False, False
        while not match.is_over and not quit_:
            acting = [s for s in match.to_act if s != ENGINE]
            if not acting:
                break
            if me not in acting:
                seat = acting[0]
                match.play(seat, bots[seat].choose(match.view(seat), match.legal(seat), seat))
                person.tell()
                continue
            person.tell()
            if not drawn:  # the table once; afterwards what changed, and the table on request
                print()
                person.board()
                drawn = True
            quit_ = person.turn()
    except KeyboardInterrupt:
        table.close()
        if table.out_text:
            note(f"interrupted; the match so far is in {table.out_text} "
                 f"(continue it with: meeple play {table.out_text} --seat {me})")
        else:
            note("interrupted; the match was not saved (give --out FILE to keep every move)")
        return EXIT_INTERRUPTED
    person.tell()
    print()
    person.board()
    if match.is_over:
        print(_word(lang, "over", result=_result(match, lang)))
    table.close()
    if table.out_text:
        print(f"saved {table.out_text}" + ("" if match.is_over else
                                           f" (continue it with: meeple play {table.out_text} --seat {me})"))
    return 0


def narrate(game: Game[Any, Any], record: SeenRecord, me: int | None, lang: str = "en") -> str:
    """A record as a sentence seat ``me`` reads in ``lang``: who acted, and what came of it (``Game.text``).

    Falls back to :func:`describe_record` for a game whose ``text`` cannot take the redacted record.
    """
    try:
        told = game.text(record.command, record.events, lang)
    except Exception:  # a game's text (by default its describe) that expects every field
        return describe_record(game, record, me)
    told = told.strip().rstrip(".")
    if record.actor == ENGINE:
        sentence = told[:1].upper() + told[1:]
    else:
        who = _word(lang, "you") if record.actor == me else _word(lang, "seat", seat=record.actor)
        sentence = f"{who}: {told}" if lang != "en" else f"{who} {told}"
    return sentence + "."


def describe_record(game: Game[Any, Any], record: SeenRecord, me: int | None) -> str:
    """One line for a record as seat ``me`` sees it: who acted, and the (redacted) command."""
    if record.actor == ENGINE:
        who = "engine"
    elif record.actor == me:
        who = f"seat {me} (you)"
    else:
        who = f"seat {record.actor}"
    return f"{who}: {describe(game, record.command)}"


def describe(game: Game[Any, Any], command: Command) -> str:
    """``game.describe(command)``; for a game whose ``describe`` cannot take a redacted command, its fields by name.

    Hidden fields read ``hidden``: a redacted command never shows its secret.
    """
    try:
        return game.describe(command)
    except Exception:  # a game's describe that expects every field (see Game.describe)
        fields = readable(command)
        if not isinstance(fields, dict):
            return type(command).__name__
        kind = fields.pop("type", type(command).__name__)
        parts = [f"{k} {'hidden' if v is None else json.dumps(v, ensure_ascii=False)}" for k, v in fields.items()]
        return f"{kind} ({', '.join(parts)})" if parts else str(kind)


def menu(game: Game[Any, Any], legal: Sequence[Command], width: int | None = None,
         lang: str | None = None) -> list[str]:
    """The numbered lines of a menu of commands; a long one grouped so that it can be read.

    Each command reads as ``game.text`` words it in ``lang`` (None: as
    :func:`describe` has it, for the debugging commands).

    Commands of one kind on one first argument (Kings: one card on every
    mine) share a line: the first with its whole description, the others
    with only the words that differ.
    """
    descriptions = [describe(game, c) if lang is None else _offer(game, c, lang) for c in legal]
    if len(legal) <= GROUP_MENU_AT:
        return [f"  [{i}] {d}" for i, d in enumerate(descriptions)]
    width = width or shutil.get_terminal_size((100, 24)).columns
    groups: dict[Any, list[int]] = {}
    for i, c in enumerate(legal):
        groups.setdefault(_group_key(c), []).append(i)
    lines = []
    for members in groups.values():
        texts = [descriptions[i] for i in members]
        cut = _shared_words(texts) if len(members) > 1 else 0
        items = [f"[{members[0]}] {texts[0]}"]
        items += [f"[{i}] {' '.join(descriptions[i].split(' ')[cut:])}" for i in members[1:]]
        lines.extend(_wrap(items, width))
    return lines


def _offer(game: Game[Any, Any], command: Command, lang: str) -> str:
    try:
        return game.text(command, None, lang)
    except Exception:  # a game's text that cannot word this command: its description
        return describe(game, command)


def _group_key(command: Command) -> Any:
    cls = type(command)
    fields = attrs.fields(cls) if attrs.has(cls) else ()
    first = getattr(command, fields[0].name) if fields else None
    try:
        hash(first)
    except TypeError:
        first = repr(first)
    return cls, first


def _shared_words(texts: Sequence[str]) -> int:
    """How many leading words all ``texts`` share, leaving at least one word of each."""
    words = [t.split(" ") for t in texts]
    n = 0
    shortest = min(len(w) for w in words)
    while n < shortest - 1 and all(w[n] == words[0][n] for w in words):
        n += 1
    return n


def _wrap(items: Sequence[str], width: int) -> list[str]:
    lines: list[str] = []
    line = "  " + items[0]
    for item in items[1:]:
        if len(line) + 3 + len(item) > width:
            lines.append(line)
            line = "      " + item
        else:
            line += "   " + item
    lines.append(line)
    return lines
