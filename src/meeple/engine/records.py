"""Records: one command with the events it produced, and their encoding in a log."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from .codec import Codec, maps_sorted, pack, unstructure
from .errors import DecodeError, UnsupportedLog
from .game import Command, Event, Game, Message


class Record(NamedTuple):
    """One step of a match: ``actor`` played ``command``; ``events`` followed.

    ``rng`` is the RNG counter after the command; the counter before is the
    previous record's (0 for the first). ``seq`` counts records from 0.
    An immutable named tuple: a log holds one per command, so it is kept
    as cheap to build as Python allows.
    """

    seq: int
    actor: int
    command: Command
    events: tuple[Event, ...]
    rng: int


class SeenRecord(NamedTuple):
    """A record as one seat sees it: the command redacted for that seat, the events it sees.

    Built by :func:`seen_by` from :meth:`Game.redact_command` and
    :meth:`Game.redact`; everything a seat is shown of the past is made of these.
    """

    seq: int
    actor: int
    command: Command
    events: tuple[Event, ...]


def seen_by(game: Game[Any, Any], record: Record, seat: int | None) -> SeenRecord:
    """``record`` as ``seat`` sees it (``None``: a spectator); the referee reads the record itself."""
    redact = game.redact
    events = tuple([red for e in record.events if (red := redact(e, seat)) is not None])  # a list: no generator
    return SeenRecord(record.seq, record.actor, game.redact_command(record.command, record.actor, seat), events)


def encode_message(codec: Codec, message: Message) -> list[Any]:
    """The file form of a command or event: its type index, then its fields."""
    prim: list[Any] = unstructure(message)
    prim[0] = codec.index_of[type(message)]
    return prim


def record_body(codec: Codec, record: Record, checkpoint: bytes | None) -> bytes:
    """The msgpack body of a record frame."""
    return pack(
        [
            record.seq,
            record.actor,
            encode_message(codec, record.command),
            [encode_message(codec, e) for e in record.events],
            record.rng,
            checkpoint,
        ]
    )


class TypeTable:
    """Decodes the messages of one log, by the ``types`` table of its header.

    Types written at an older schema version pass through the game's
    upcasters, one version step at a time, before they are structured.
    """

    @classmethod
    def of(cls, codec: Codec, types: tuple[tuple[str, int], ...]) -> TypeTable:
        """The (cached) table of ``codec`` for a header's ``types``: logs of one game share it."""
        cache: dict[tuple[tuple[str, int], ...], TypeTable] = codec.__dict__.setdefault("_type_tables", {})
        table = cache.get(types)
        if table is None:
            table = cls(codec, types)
            if len(cache) < 64:  # a guard against hostile logs with ever new tables
                cache[types] = table
        return table

    def __init__(self, codec: Codec, types: tuple[tuple[str, int], ...]) -> None:
        game = codec.game
        self._decoders: list[Callable[[list[Any]], Message]] = []
        self._kinds: list[type] = []
        specs: list[Any] = []  # what the compiled reader builds each message with
        for tag, version in types:
            cls = codec.by_tag.get(tag)
            if cls is None:
                raise UnsupportedLog(f"the log uses type {tag!r}, unknown to {game.info.id} rules")
            if version > cls.schema:
                raise UnsupportedLog(
                    f"the log writes {tag!r} at schema {version}, newer than this library's {cls.schema}"
                )
            hook = codec.hook(cls)
            steps = [game.upcasters.get((tag, v)) for v in range(version, cls.schema)]
            if any(s is None for s in steps):
                raise UnsupportedLog(f"no upcaster for {tag!r} from schema {version} to {cls.schema}")
            if steps:
                self._decoders.append(_decoder(tag, hook, steps))  # type: ignore[arg-type]
                specs.append(self._decoders[-1])
            elif not codec.one_form(cls):  # several file forms decode alike: only the canonical one is taken
                self._decoders.append(_canonical(cls, codec.message_builder(cls)))
                specs.append(self._decoders[-1])
            else:  # the index is checked by decode; build straight from the file form
                self._decoders.append(codec.message_builder(cls))
                specs.append(codec.message_spec(cls) or self._decoders[-1])
            self._kinds.append(Command if issubclass(cls, Command) else Event)
        #: the decoders by type index, None where the index names the other kind
        self.commands: tuple[Callable[[list[Any]], Any] | None, ...] = tuple(
            d if k is Command else None for d, k in zip(self._decoders, self._kinds))
        self.events: tuple[Callable[[list[Any]], Any] | None, ...] = tuple(
            d if k is Event else None for d, k in zip(self._decoders, self._kinds))
        #: the same for the compiled reader: a decoder, or a message spec (:meth:`Codec.message_spec`)
        self.compiled_commands: tuple[Any, ...] = tuple(d if k is Command else None for d, k in zip(specs, self._kinds))
        self.compiled_events: tuple[Any, ...] = tuple(d if k is Event else None for d, k in zip(specs, self._kinds))

    def decode(self, prim: Any, kind: type) -> Any:
        """Decode one message of ``kind`` (Command or Event) from its file form."""
        if prim.__class__ is not list or not prim or prim[0].__class__ is not int:
            raise DecodeError("expected a message array starting with a type index")
        i = prim[0]
        if not 0 <= i < len(self._decoders) or self._kinds[i] is not kind:
            raise DecodeError(f"type index {i} is not a {kind.__name__.lower()} of this log")
        return self._decoders[i](prim)


def _decoder(tag: str, hook: Callable[[Any], Any], steps: list[Callable[[list[Any]], list[Any]]]) -> Callable[[list[Any]], Any]:
    def upcast(prim: list[Any]) -> Any:
        # written at an older schema: the library that wrote it knew the fields' canonical form; this one
        # knows that of msgpack (checked for every body) and that its maps are in sorted order
        if not maps_sorted(prim):
            raise DecodeError(f"a map in a {tag!r} message is not in sorted order")
        fields = prim[1:]
        for step in steps:
            fields = step(fields)
        return hook([tag, *fields])

    return upcast


def _canonical(cls: type[Message], build: Callable[[list[Any]], Any]) -> Callable[[list[Any]], Any]:
    """A builder of ``cls`` (see :meth:`Codec.message_builder`) that refuses all but the canonical file form.

    For a message some of whose fields decode alike from several forms (a
    frozenset from its items in any order, a map from its keys in any
    order, a float from an int): the decoded message is encoded again and
    must give the same primitives, so two byte-different logs never read as
    one match.
    """
    def canonical(prim: list[Any]) -> Any:
        message = build(prim)
        again: list[Any] = unstructure(message)
        again[0] = prim[0]
        if pack(again) != pack(prim):
            raise DecodeError(f"{cls.tag!r} is not in its canonical form (sets and maps sorted, as the writer writes them)")
        return message

    return canonical

