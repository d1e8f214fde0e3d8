"""A hosted match: the ``Match``, its seats, its connected clients, and what each of them is sent.

A table lives in the engine worker that hosts its match: everything here runs
there, one operation at a time, so a table needs no locks. What a client is sent is
built only from the public ``Match`` API as its seat may see it:
``records_for(seat, start)`` (redacted commands and events), ``view(seat)``,
``legal(seat)`` and ``can_undo(seat)``; seat None is a spectator.
"""

from __future__ import annotations

import hashlib
import operator
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.codec import pack
from ..engine.game import ENGINE, Command, Event, Game, Outcome
from ..engine.match import Match
from ..engine.wire import Json, Wire, to_wire, wire_for
from . import messages
from .connection import Client
from .delta import Shown, delta_text
from .lobby import Marker, MatchRow, SeatRow
from .messages import answer, dumps
from .protocol import DELTAS_SINCE, CloseCode
from .texts import Kept
from .views import Encoded, ViewCoder

#: What a hosted match holds in memory besides its records, in bytes: the match, its seats, bots, hashes
#: (measured with tracemalloc: 14-20 KB for Liar's Dice, Kings and Saboteur tables of 21 records).
TABLE_BYTES = 12_000
#: And per record (its command, events, body and chain hash).
RECORD_BYTES = 500


#: The most legal commands' JSON texts a table keeps (they repeat from one position to the next).
LEGAL_KEPT = 4096
#: The most whole lists of legal commands kept as JSON texts, for all tables (see :func:`_joined`).
JOINED_KEPT = 512
#: (id of a tuple of legal commands, game, language or "" for the commands) -> (the tuple, its list's JSON text)
_joined_texts: dict[tuple[int, int, str], tuple[Sequence[Command], Game[Any, Any], str]] = {}


#: game -> the JSON texts of its commands, and of what a player reads for them by language (see Table)
_game_texts: dict[Game[Any, Any], tuple[dict[Command, str], dict[tuple[Command, str], str]]] = {}


def _command_texts(game: Game[Any, Any]) -> tuple[dict[Command, str], dict[tuple[Command, str], str]]:
    """The texts of ``game``'s legal commands met so far, kept for all its tables (each dict emptied when it
    holds :data:`LEGAL_KEPT`)."""
    kept = _game_texts.get(game)
    if kept is None:
        kept = _game_texts[game] = ({}, {})
    return kept


def _joined(legal: Sequence[Command], game: Game[Any, Any], lang: str, build: Callable[[], str]) -> str:
    """The JSON text of a list of legal commands (``lang`` ""), or of their texts in ``lang``: ``build()``, kept.

    A game that hands out the same tuple for the same choices (Liar's Dice's bids above a bid) has its list
    built once for every table of it; a list that is not a tuple, or a tuple met for the first time, is built.
    """
    if legal.__class__ is not tuple:
        return build()
    key = (id(legal), id(game), lang)
    kept = _joined_texts.get(key)
    if kept is not None and kept[0] is legal and kept[1] is game:
        return kept[2]
    text = build()
    if len(_joined_texts) >= JOINED_KEPT:
        _joined_texts.clear()
    _joined_texts[key] = (legal, game, text)  # both are held, so their ids name no others while kept
    return text


#: (game, a command's wire form as its (name, value) items, the values' classes) -> the command (see Table.command)
_decoded: dict[tuple[Any, ...], Command] = {}
#: The classes of the values a kept command may have (immutable, and compared by value alone once the class is known).
_PLAIN = frozenset({str, int, bool, type(None)})

#: The legal lists of a seat that may not act, as texts.
_NO_LEGAL = ("[]", "[]")

#: The JSON texts of small values that repeat (an undo answer, the seats to act), by a key naming the value.
SMALL_KEPT = 1024
_small_texts = Kept(SMALL_KEPT)
#: What a position says of undo, by (ok, reason), with its text: the same dict for every state that says it (no
#: one changes a state's values once it is built)
_undo_answers: dict[tuple[Any, Any], tuple[dict[str, Json], str]] = {}
#: What a spectator's position says of undo, and its text.
_SPECTATOR_UNDO: Json = {"ok": False, "reason": "spectators do not undo"}
_SPECTATOR_UNDO_TEXT = dumps(_SPECTATOR_UNDO)


def text_of(game: Game[Any, Any], command: Command, events: Sequence[Event] | None, lang: str) -> str:
    """What a player reads for a legal command (``events`` None) or a record seen by its seat, in ``lang``.

    Built by :meth:`Game.text <meeple.engine.game.Game.text>` from the redacted
    command and events the seat is sent anyway, so it adds nothing the seat
    may not know; a game whose text fails gets the command's plain form.
    """
    try:
        return str(game.text(command, events, lang))
    except Exception:
        wire = to_wire(command)
        fields = ", ".join(f"{k} {'hidden' if v is None else v}" for k, v in wire.items() if k != "type")
        return f"{wire.get('type', type(command).__name__)}{' ' + fields if fields else ''}"


def outcome_json(game: Game[Any, Any], outcome: Outcome | None, lang: str) -> Json:
    """An outcome in wire form with its ``text``: why the match ended, in ``lang`` (:meth:`Game.outcome_text`).

    A game whose text fails reads its English reason.
    """
    if outcome is None:
        return None
    try:
        text = str(game.outcome_text(outcome, lang))
    except Exception:
        text = outcome.reason
    return {**to_wire(outcome), "text": text}


class Table:
    """One hosted match (engine thread only)."""

    def __init__(self, row: MatchRow, seats: list[SeatRow], match: Match, bots: dict[str, Callable[[int], Any]]) -> None:
        self.row = row
        self.id = row.id
        self.seats = seats
        self.match = match
        self.game = match.game
        self.wire: Wire = wire_for(match.game)
        self.clients: set[Client] = set()
        #: Bumped by every change of position; a bot move or a clock decided at another version is dropped.
        self.version = 0
        #: What the store holds: its record count and the chain hash at its end.
        self.stored = (match.cursor, match.head_hash)
        #: This process's commits not yet heard back from the store's notifications, as (start, stop).
        self.own: list[tuple[int, int]] = []
        seeds = match.header().seeds or ()
        # the key that masks chain hashes for clients: derived from the seeds, which no client knows
        self._head_key = hashlib.blake2b(pack([list(s) for s in seeds]), key=b"meeple-server-head",
                                         digest_size=16).digest()
        self._head_hasher = hashlib.blake2b(key=self._head_key, digest_size=16)  # copied for each hash (see masked)
        self._factories = bots
        self._bots: dict[tuple[int, str], Any] = {}
        #: seat -> (monotonic deadline, key) for every taken human seat to act, when the match has a clock
        self.deadlines: dict[int, tuple[float, int]] = {}
        #: seat -> the version a bot move (or a clock's fallback move) is under way for
        self.pending: dict[int, int] = {}
        self.redo_actor: int | None = None
        #: The seqs of the records the fallback bot played for a seat out of time (this process's memory only)
        self.by_clock: set[int] = set()
        #: Whether the lobby holds an undo marker for this match (so a play at the store's end need not look)
        self.marked = False
        #: the JSON text of each legal command met so far (see :meth:`legal_entry`), and of what a player reads
        #: for it by language: the game's, shared by all its tables (a command's texts depend on nothing else)
        self._legal_texts, self._legal_said = _command_texts(match.game)
        #: the views' fields, encoded once (see meeple.server.views)
        self._views = ViewCoder(match.game.view_type)
        self._note_redo()

    def footprint(self) -> int:
        """An estimate of the bytes this table holds (for the hub's memory budget)."""
        return TABLE_BYTES + RECORD_BYTES * len(self.match.records)

    def idle(self) -> bool:
        """Whether nothing needs the table in memory: no connection, no clock running, no bot to move."""
        return not self.clients and not self.deadlines and (self.match.is_over or not self.bots_to_act())

    # -- seats ----------------------------------------------------------------------
    def bot_name(self, seat: int) -> str | None:
        """The bot playing ``seat``, or None for a person's seat."""
        row = self.seats[seat]
        return row.bot if row.kind == "bot" else None

    def bot(self, seat: int, name: str) -> Any:
        """The bot instance ``name`` for ``seat`` (kept, so a bot with memory keeps it)."""
        key = (seat, name)
        bot = self._bots.get(key)
        if bot is None:
            row = self.seats[seat]
            seed = (row.bot_seed or 0) if row.kind == "bot" else int.from_bytes(
                hashlib.blake2b(f"{self.id}/{seat}/{name}".encode(), digest_size=8).digest(), "big")
            bot = self._bots[key] = self._factories[name](seed)
        return bot

    def humans_to_act(self) -> list[int]:
        """Seats of people (joined) that may act now."""
        return [s for s in self.match.to_act if s != ENGINE and self.seats[s].kind == "human" and self.seats[s].taken]

    def bots_to_act(self) -> list[int]:
        """Seats of bots that may act now."""
        return [s for s in self.match.to_act if s != ENGINE and self.seats[s].kind == "bot"]

    # -- position ----------------------------------------------------------------------
    def raw_head(self, cursor: int | None = None) -> bytes:
        """The chain hash after record ``cursor - 1`` (referee-side; never sent)."""
        m = self.match
        return m.record_hash((m.cursor if cursor is None else cursor) - 1)

    def masked(self, raw: bytes) -> str:
        """What clients are shown of a chain hash: BLAKE2b-128 keyed by a secret of the match, in hex.

        A raw chain hash commits to every hidden card and die: a seat that
        knows all but a few of them could find those few by trying each. The
        masked hash names the position just as well (it changes with every
        record and every branch) and reveals nothing.
        """
        hasher = self._head_hasher.copy()  # the key's block compressed once, not for every hash
        hasher.update(raw)
        return hasher.hexdigest()

    def marker(self) -> Marker | None:
        """The lobby's undo marker for the current position (None when the cursor is at the store's end)."""
        count, head = self.stored
        if self.match.cursor == count:
            return None
        return Marker(self.match.cursor, count, head)

    def _note_redo(self) -> None:
        m = self.match
        self.redo_actor = None
        if m.can_redo():
            here = m.cursor
            m.redo()
            self.redo_actor = m.records[here].actor
            m.seek(here)

    def moved(self) -> None:
        """Record that the position changed (after play, undo, redo or a reload)."""
        self.version += 1
        if self.by_clock:  # an undo took back records the clock played
            self.by_clock = {seq for seq in self.by_clock if seq < self.match.cursor}
        self._note_redo()

    def next_undone(self) -> tuple[int, Command] | None:
        """The (actor, command) a redo would replay now, or None."""
        m = self.match
        if not m.can_redo():
            return None
        here = m.cursor
        m.redo()
        rec = m.records[here]
        m.seek(here)
        return rec.actor, rec.command

    def command(self, data: Json) -> Command:
        """A client's command (its wire form) decoded, as ``Wire.command`` decodes it (DecodeError if it does not).

        A command whose fields are strings, integers, booleans or null is decoded once for every table of the game and
        kept (commands are frozen values; the legal lists share them too), by its fields, their order and their
        values' classes (``1`` and ``true`` are different keys).
        """
        if data.__class__ is not dict:
            return self.wire.command(data)
        assert isinstance(data, dict)
        classes = (*map(type, data.values()),)
        if not _PLAIN.issuperset(classes):
            return self.wire.command(data)
        key = (self.game, (*data.items(),), classes)
        command = _decoded.get(key)
        if command is None:
            command = self.wire.command(data)
            if len(_decoded) >= LEGAL_KEPT:
                _decoded.clear()
            _decoded[key] = command
        return command

    # -- what clients are sent ---------------------------------------------------------
    def legal_entry(self, command: Command) -> Json:
        """What a position message says of one legal command (its wire form)."""
        return to_wire(command)

    def legal_json(self, seat: int | None) -> str:
        """The JSON text of ``seat``'s legal commands: each command's text is built once and kept."""
        if seat is None:
            return "[]"
        legal = self.match.legal(seat)
        return _joined(legal, self.game, "", lambda: self._legal_list(legal)) if legal else "[]"

    def _legal_list(self, legal: Sequence[Command]) -> str:
        texts = self._legal_texts
        out = []
        for c in legal:
            text = texts.get(c)
            if text is None:
                if len(texts) >= LEGAL_KEPT:
                    texts.clear()
                text = texts[c] = dumps(self.legal_entry(c))
            out.append(text)
        return f"[{','.join(out)}]"

    def legal_text_json(self, seat: int | None, lang: str) -> str:
        """The JSON text of what a player reads for each of ``seat``'s legal commands, in ``lang``, kept too."""
        if seat is None:
            return "[]"
        legal = self.match.legal(seat)
        return _joined(legal, self.game, lang, lambda: self._legal_texts_list(legal, lang)) if legal else "[]"

    def _legal_pair(self, seat: int | None, lang: str) -> tuple[str, str]:
        """:meth:`legal_json` and :meth:`legal_text_json` of ``seat``, from one call of ``Match.legal``."""
        if seat is None:
            return _NO_LEGAL
        legal = self.match.legal(seat)
        if not legal:
            return _NO_LEGAL
        game = self.game
        return (_joined(legal, game, "", lambda: self._legal_list(legal)),
                _joined(legal, game, lang, lambda: self._legal_texts_list(legal, lang)))

    def _legal_texts_list(self, legal: Sequence[Command], lang: str) -> str:
        said = self._legal_said
        out = []
        for c in legal:
            text = said.get((c, lang))
            if text is None:
                if len(said) >= LEGAL_KEPT:
                    said.clear()
                text = said[(c, lang)] = dumps(text_of(self.game, c, None, lang))
            out.append(text)
        return f"[{','.join(out)}]"

    def seat_state(self, seat: int | None, lang: str = "en", picture: bool = False) -> dict[str, Json]:
        """The part of every position message that depends on the seat (see :meth:`seat_state_encoded`)."""
        return self.seat_state_encoded(seat, lang, picture)[0]

    def seat_state_encoded(self, seat: int | None, lang: str = "en",
                           picture: bool = False) -> tuple[dict[str, Json], Encoded]:
        """The part of every position message that depends on the seat: view, undo, redo, clock, outcome (its
        ``text`` in ``lang``), the seats to act (the same for every seat: who may act is public, as the lobby's
        ``to_act``), and with ``picture`` the seat's text picture (:meth:`picture`).

        The legal commands and their texts are added from texts kept from one message to the next
        (:meth:`legal_json`, :meth:`legal_text_json`). The view comes with its fields' texts
        (:class:`~meeple.server.views.Encoded`).
        """
        state, view, _ = self._seat_state(seat, lang, picture)
        return state, view

    def _seat_state(self, seat: int | None, lang: str, picture: bool,
                    common: dict[Any, tuple[Json, str]] | None = None) -> tuple[dict[str, Json], Encoded, dict[str, str]]:
        """:meth:`seat_state_encoded`, and the JSON texts of its fields other than the view (kept where they
        repeat: the undo answers, the seats to act), then of the legal commands and their texts.

        ``common`` (one per change of position, for all its clients) keeps what is the same for every seat: the
        outcome by language and the seats to act, with their texts.
        """
        m = self.match
        view = self._views.encode(m.view(seat), seat)
        if seat is None:
            undo: Json = _SPECTATOR_UNDO
            undo_text = _SPECTATOR_UNDO_TEXT
            redo = False
        else:
            check = m.can_undo(seat)
            ok, reason = check.ok, check.reason
            kept_undo = _undo_answers.get((ok, reason))
            if kept_undo is None or kept_undo[0]["ok"] is not ok:  # (1 and True are one key: never both)
                if len(_undo_answers) >= SMALL_KEPT:
                    _undo_answers.clear()
                answer_ = {"ok": ok, "reason": reason}
                kept_undo = _undo_answers[(ok, reason)] = (answer_, dumps(answer_))
            undo, undo_text = kept_undo
            redo = self.redo_actor == seat
        clock = None if self.row.clock is None else self.clock_for(seat)
        if common is None:
            common = {}
        shared = common.get(lang)
        if shared is None:
            outcome = outcome_json(self.game, m.outcome, lang)
            shared = common[lang] = (outcome, "null" if outcome is None else dumps(outcome))
        outcome, outcome_text = shared
        acting = common.get(None)
        if acting is None:
            to_act = [s for s in m.to_act if s != ENGINE]
            acting = common[None] = (to_act, _small_texts.text(("to_act", *to_act), to_act))
        state: dict[str, Json] = {"view": view.wire, "undo": undo, "redo": redo, "clock": clock, "outcome": outcome,
                                  "to_act": acting[0]}
        texts = {"undo": undo_text, "redo": "true" if redo else "false",
                 "clock": "null" if clock is None else dumps(clock), "outcome": outcome_text, "to_act": acting[1]}
        if picture:
            state["picture"] = self.picture(seat, lang)
            texts["picture"] = dumps(state["picture"])
        texts["legal"], texts["legal_text"] = self._legal_pair(seat, lang)
        return state, view, texts

    def picture(self, seat: int | None, lang: str) -> str | None:
        """The game's text picture of the position as ``seat`` sees it (``Game.render``), in ``lang`` where the game
        draws in it; None for a spectator (the game's picture for no seat is the referee's) and where the game's
        render fails.
        """
        if seat is None:
            return None
        try:
            return str(self.match.render(seat, lang))
        except Exception:
            return None

    def clock_for(self, seat: int | None) -> Json:
        """``{"limit", "remaining", "running"}`` under a clock, else None.

        ``remaining`` is this seat's time (None unless it is to act),
        ``running`` every seat's whose clock runs, as ``{"seat", "remaining"}``.
        """
        if self.row.clock is None:
            return None
        now = time.monotonic()
        left = {s: round(max(0.0, d[0] - now), 3) for s, d in sorted(self.deadlines.items())}
        running: list[Json] = [{"seat": s, "remaining": r} for s, r in left.items()]
        return {"limit": self.row.clock, "remaining": None if seat is None else left.get(seat), "running": running}

    def records(self, seat: int | None, start: int, lang: str = "en",
                seen: dict[tuple[int, str], list[tuple[Any, Json]]] | None = None) -> list[Json]:
        """The records ``start..cursor`` as ``seat`` sees them, in wire form, each with its ``text`` in ``lang``.

        A record the fallback bot played for a seat out of time says so (``"by_clock": true``). With ``seen``
        (one per change, for all its clients), a record another seat sees as this one does (the same command
        and event objects: nothing of it hidden from either) is built once.
        """
        out: list[Json] = []
        for r in self.match.records_for(seat, start):
            built = None
            alike: list[tuple[Any, Json]] = []
            if seen is not None:
                known = seen.get((r.seq, lang))
                if known is None:
                    seen[(r.seq, lang)] = alike
                else:
                    alike = known
                    command, events = r.command, r.events
                    for s, record in alike:
                        if s.command is command and len(s.events) == len(events) and \
                                all(map(operator.is_, s.events, events)):
                            built = record
                            break
            if built is None:
                built = self.wire.record(r)  # a new dict: its text is added in place
                built["text"] = text_of(self.game, r.command, r.events, lang)
                if r.seq in self.by_clock:
                    built["by_clock"] = True
                alike.append((r, built))  # the record is held: its objects' ids stay theirs
            out.append(built)
        return out

    def position(self) -> dict[str, Json]:
        """The fields every position message carries: cursor and masked head hash."""
        return {"cursor": self.match.cursor, "head": self.masked(self.raw_head())}

    def shown(self, seat: int | None, lang: str, picture: bool = False,
              common: dict[Any, tuple[Json, str]] | None = None) -> Shown:
        """What a position message shows ``seat`` now, in ``lang``: its state (with its text picture where
        ``picture``), legal commands and their texts. ``common``: as for :meth:`_seat_state`."""
        state, view, texts = self._seat_state(seat, lang, picture, common)
        return Shown(state, texts["legal"], texts["legal_text"], view.texts, view.grown, texts, view.since)

    def sync(self, client: Client, start: int = 0, ref: Json = None) -> None:
        """Send ``client`` the whole position: its records from ``start``, view, legal commands."""
        seat, lang = client.seat, client.lang
        shown = self.shown(seat, lang, client.picture)
        text = messages.sync(match=self.id, game=self.game.info.id, seats=self.match.seats, seat=seat,
                             where=self.position(), start=start, records=self.records(seat, start, lang),
                             state=shown.members, players=self.players(), protocol=client.protocol)
        self._sent(client, shown, self.raw_head())
        client.send(answer(text, ref))

    def _sent(self, client: Client, shown: Shown, head: bytes) -> None:
        client.cursor = self.match.cursor
        client.head = head
        client.shown = shown if client.protocol >= DELTAS_SINCE else None

    def broadcast(self, kind: str, cause: str, by: int | None, before: tuple[int, bytes],
                  requester: Client | None = None, ref: Json = None) -> None:
        """Bring every client from position ``before`` (cursor, raw head) to the current one.

        ``kind`` is ``update`` (records were added after ``before``) or
        ``rewind`` (the cursor went back: clients drop the records after it).
        A client that is not at ``before`` (it never should be) gets a full sync.
        """
        changes = _Changes(self, kind, cause, by)
        for client in list(self.clients):
            if (client.cursor, client.head) != before:
                self.sync(client)
                continue
            client.send(changes.text(client, before[0], None if client is not requester or ref is None else dumps(ref)))

    def catch_up(self, cause: str) -> None:
        """Bring every client to the current position after the match was read again from the store.

        A client whose position is still on the match's branch gets the
        records after it (an ``update``); any other a whole ``sync``.
        """
        m = self.match
        changes = _Changes(self, "update", cause, None)
        for client in list(self.clients):
            if client.cursor > m.cursor or self.raw_head(client.cursor) != client.head:
                self.sync(client)
                continue
            if client.cursor == m.cursor:
                continue
            client.send(changes.text(client, client.cursor))

    def players(self) -> list[Json]:
        """The seats as everyone may see them: kind, bot, name, whether taken, how many connections."""
        online: dict[int, int] = {}
        for c in self.clients:
            if c.seat is not None:
                online[c.seat] = online.get(c.seat, 0) + 1
        return [
            {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name, "taken": s.taken,
             "online": online.get(s.seat, 0)}
            for s in self.seats
        ]

    def tell_players(self) -> None:
        """Send every client the seats (after a join, a connect or a disconnect)."""
        text = messages.players(self.players())
        for client in self.clients:
            client.send(text)

    def close_all(self, code: int = CloseCode.GOING_AWAY, reason: str = "server shutting down") -> None:
        """Close every client's socket."""
        for client in self.clients:
            client.close(code, reason)


class _Changes:
    """The messages of one change of a table, to each of its clients: each built once and shared.

    A seat's whole message is built once per language (and record start); a
    delta once per position it starts from (the connections of a seat that were
    sent the same message hold the same :class:`Shown`). A client of protocol 2
    that holds a position gets the delta when it is shorter than the whole.
    What is the same for every seat is built once for all: the message's
    opening, cursor and head, the outcome and the seats to act, and the JSON
    text of the records where seats see them alike (the same objects).
    """

    def __init__(self, table: Table, kind: str, cause: str, by: int | None) -> None:
        self.table, self.kind = table, kind
        self.head = table.raw_head()
        # (by's class too: a text of True would not be one of 1)
        self._opening = _small_texts.built(("opening", kind, cause, by.__class__, by),
                                           lambda: messages.change_opening(kind, cause, by))
        self._where = messages.where_members(table.match.cursor, table.masked(self.head))
        #: (seat, lang, picture, start) -> what that seat is sent (see _Built)
        self._built: dict[tuple[int | None, str, bool, int], _Built] = {}
        self._seen: dict[tuple[int, str], list[tuple[Any, Json]]] = {}  # records built, for the seats that see them alike
        self._records: list[tuple[list[Json], str]] = []  # lists of records built, and their JSON texts
        self._common: dict[Any, tuple[Json, str]] = {}  # what every seat's state shares (see Table._seat_state)

    def text(self, client: Client, start: int, ref: str | None = None) -> str:
        """The message that brings ``client`` from ``start`` to the table's position; noted as sent to it.

        With ``ref`` (a JSON text) it answers the request whose ``id`` that is.
        """
        table, seat, lang = self.table, client.seat, client.lang
        key = (seat, lang, client.picture, start)
        built = self._built.get(key)
        if built is None:
            built = self._built[key] = self._build(seat, lang, client.picture, start)
        shown = built.shown
        base = client.shown if client.protocol >= DELTAS_SINCE else None
        delta = None
        if base is not None:
            for b, d in built.deltas:
                if b is base:
                    delta = d
                    break
            else:
                delta = delta_text(base, shown)
                if not shown.longer_than(len(delta) + 8):  # ,"delta":[...] in place of ,<the members>: not shorter
                    delta = ""
                built.deltas.append((base, delta))
        table._sent(client, shown, self.head)
        if delta:
            return messages.change(self._opening, self._where, start=built.start, records=built.records, delta=delta,
                                   ref=ref)
        if ref is not None:
            return messages.change(self._opening, self._where, start=built.start, records=built.records,
                                   state=shown.members, ref=ref)
        if not built.whole:
            built.whole = messages.change(self._opening, self._where, start=built.start, records=built.records,
                                          state=shown.members)
        return built.whole

    def _build(self, seat: int | None, lang: str, picture: bool, start: int) -> _Built:
        table = self.table
        records_text = None
        if self.kind == "update":
            records = table.records(seat, start, lang, self._seen)
            for alike, text in self._records:
                if len(alike) == len(records) and all(map(operator.is_, alike, records)):
                    records_text = text
                    break
            else:
                records_text = dumps(records)
                self._records.append((records, records_text))
        return _Built(table.shown(seat, lang, picture, self._common), records_text, start)


class _Built:
    """What one seat (language, picture, record start) is sent of a change: its :class:`Shown`, the JSON text of
    its records (None for a ``rewind``), its whole message once built, and its deltas by the base they start from
    ("" where the whole message is not longer)."""

    __slots__ = ("deltas", "records", "shown", "start", "whole")

    def __init__(self, shown: Shown, records: str | None, start: int) -> None:
        self.shown, self.records, self.start = shown, records, start
        self.whole = ""
        self.deltas: list[tuple[Shown, str]] = []
