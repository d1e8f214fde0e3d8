"""The log file format: a header and hash-chained, length-prefixed record frames.

``docs/log-format.md`` specifies every byte. In short::

    log    = MAGIC frame(header) frame(record)* frame(reveal)?
    MAGIC  = b"MEEPLE\\x00\\x01"                (8 bytes; the last is the format major)
    frame  = u32-be length  body  hash16       (length counts body + hash)
    hash16 = BLAKE2b-128(previous hash16 || body); the header's "previous" is MAGIC

The header body is a msgpack map; a record body is the array
``[seq, actor, command, events, rng, checkpoint]``; a reveal body is the map
``{"reveal": [seeds, salt]}``. Commands and events are arrays whose first
element is the index of their type in the header's ``types`` table.
"""

from __future__ import annotations

import contextlib
import operator
import os
import struct
from collections.abc import Iterator
from typing import Any

import attrs
import msgpack

from .codec import _field_slots, digest, pack
from .errors import CorruptLog, ForeignFile, TruncatedLog, UnsupportedLog
from .rng import MASK64
from .seeds import MAX_SEEDS as MAX_SEEDS  # the limit lives with the schedule rules; importable from here too
from .seeds import schedule_problem

#: The compiled frame loops (``src/meeple/_speedups.c``), or None where the
#: package was built without them or ``MEEPLE_PURE_PYTHON`` is set in the environment.
_speedups: Any = None
if not os.environ.get("MEEPLE_PURE_PYTHON"):
    with contextlib.suppress(ImportError):
        from .. import _speedups

MAGIC = b"MEEPLE\x00\x01"
FORMAT_VERSION = 1
HASH_SIZE = 16
#: The largest frame a reader accepts; a longer length prefix is corruption.
MAX_FRAME = 16 * 1024 * 1024
#: The frame length prefix: an unsigned 32-bit big-endian integer.
LENGTH = struct.Struct(">I")


@attrs.frozen
class Header:
    """The first frame of a log: what game, which rules, which seats, which seed."""

    game: str
    rules: int
    seats: int
    options: dict[str, Any]
    seeds: tuple[tuple[int, int], ...] | None
    commitment: bytes
    types: tuple[tuple[str, int], ...]
    checkpoint_every: int
    engine: str
    format: int = FORMAT_VERSION
    meta: dict[str, Any] = attrs.field(factory=dict)

    def to_prim(self) -> dict[str, Any]:
        """The header as the msgpack map written to the file (sorted keys)."""
        return {
            "checkpoint_every": self.checkpoint_every,
            "commitment": self.commitment,
            "engine": self.engine,
            "format": self.format,
            "game": self.game,
            "meta": dict(sorted(self.meta.items())),
            "options": self.options,
            "rules": self.rules,
            "seats": self.seats,
            "seeds": None if self.seeds is None else [list(s) for s in self.seeds],
            "types": [list(t) for t in self.types],
        }

    @classmethod
    def from_known(cls, raw: Any) -> Header | None:
        """The header of a well-formed map with exactly the known keys, or None.

        The fast path of :meth:`from_prim` (every log read starts here): the
        same checks, inline, without naming what is wrong; where it returns
        None, ``from_prim`` raises the error.
        """
        if raw.__class__ is not dict or raw.keys() != _HEADER_KEYS:
            return None
        values = _HEADER_VALUES(raw)
        kinds = tuple(map(type, values))  # every field's exact class, checked in one comparison
        if kinds != _HEADER_KINDS and kinds != _HEADER_KINDS_HIDDEN:
            return None
        game, rules, seats, options, seeds_raw, commitment, types_raw, every, engine, fmt, meta = values
        if fmt != FORMAT_VERSION or every < 1 or not _STR.issuperset(map(type, options)) or not _STR.issuperset(
            map(type, meta)
        ):
            return None
        seeds = None
        if seeds_raw is not None:
            if not 1 <= len(seeds_raw) <= MAX_SEEDS:
                return None
            for pair in seeds_raw:
                if pair.__class__ is not list or len(pair) != 2:
                    return None
                a, b = pair
                if a.__class__ is not int or b.__class__ is not int or not 0 <= b <= MASK64:
                    return None
            seeds = tuple(map(tuple, seeds_raw))
        for pair in types_raw:
            if pair.__class__ is not list or len(pair) != 2:
                return None
            t, v = pair
            if t.__class__ is not str or v.__class__ is not int or v < 1:
                return None
        header = cls(game, rules, seats, options, seeds, commitment, tuple(map(tuple, types_raw)),
                     every, engine, fmt, meta)
        return header if header.problem() is None else None

    @classmethod
    def from_prim(cls, raw: Any, offset: int) -> Header:
        """Check and build a header from its decoded map."""

        def bad(why: str) -> CorruptLog:
            return CorruptLog(f"bad log header: {why}", offset=offset)

        if not isinstance(raw, dict):
            raise bad("not a map")
        fmt = raw.get("format")
        if fmt != FORMAT_VERSION:
            raise UnsupportedLog(f"log format {fmt!r} is not supported (this library reads {FORMAT_VERSION})")
        try:
            seeds_raw = raw["seeds"]
            seeds = None
            if seeds_raw is not None:
                seeds = tuple((_int(a), _int(b)) for a, b in seeds_raw)
            types = tuple((_str(t), _int(v)) for t, v in raw["types"])
            header = cls(
                game=_str(raw["game"]),
                rules=_int(raw["rules"]),
                seats=_int(raw["seats"]),
                options=_dict(raw["options"]),
                seeds=seeds,
                commitment=_bytes(raw["commitment"]),
                types=types,
                checkpoint_every=_int(raw["checkpoint_every"]),
                engine=_str(raw["engine"]),
                format=fmt,
                meta=_dict(raw.get("meta", {})),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise bad(f"missing or malformed field ({e})") from None
        if header.checkpoint_every < 1:
            raise bad("checkpoint_every must be positive")
        if any(v < 1 for _, v in types):
            raise bad("type schema versions start at 1")
        problem = header.problem()
        if problem is not None:
            raise bad(problem)
        return header

    def problem(self) -> str | None:
        """What breaks the rules of ``docs/log-format.md`` in this header's seeds, commitment or types, or None."""
        if self.seeds is not None:
            problem = schedule_problem(self.seeds)
            if problem is not None:
                return problem
        if len(self.commitment) != HASH_SIZE:
            return f"the seed commitment is {HASH_SIZE} bytes, not {len(self.commitment)}"
        if len({t for t, _ in self.types}) != len(self.types):
            return "the types table names a type twice"
        return None


_HEADER_KEYS = frozenset(attrs.fields_dict(Header))
_HEADER_VALUES = operator.itemgetter(
    "game", "rules", "seats", "options", "seeds", "commitment", "types", "checkpoint_every", "engine", "format", "meta")
_HEADER_KINDS = (str, int, int, dict, list, bytes, list, int, str, int, dict)
_HEADER_KINDS_HIDDEN = (str, int, int, dict, type(None), bytes, list, int, str, int, dict)  # seeds hidden
_STR = frozenset([str])
#: The slots of Header's fields if setting them is all its __init__ does (the compiled reader then sets them)
_header_slots = _field_slots(Header)
_HEADER_SLOTS = None if _header_slots is None else tuple(_header_slots)


def _int(v: Any) -> int:
    if type(v) is not int:
        raise TypeError(f"expected an integer, got {type(v).__name__}")
    return v


def _str(v: Any) -> str:
    if type(v) is not str:
        raise TypeError(f"expected a string, got {type(v).__name__}")
    return v


def _bytes(v: Any) -> bytes:
    if type(v) is not bytes:
        raise TypeError(f"expected bytes, got {type(v).__name__}")
    return v


def _dict(v: Any) -> dict[str, Any]:
    if type(v) is not dict or not all(type(k) is str for k in v):
        raise TypeError("expected a map with string keys")
    return v


def frame(body: bytes, previous: bytes) -> tuple[bytes, bytes]:
    """Return ``(frame bytes, hash)`` for ``body`` chained after ``previous``."""
    h = digest(body, previous)
    return framed(body, h), h


def framed(body: bytes, chain_hash: bytes) -> bytes:
    """One frame from its body and its (already computed) chain hash."""
    return LENGTH.pack(len(body) + HASH_SIZE) + body + chain_hash


def header_frame(header: Header) -> tuple[bytes, bytes]:
    """Return the magic plus the header frame, and the header's hash."""
    data, h = frame(pack(header.to_prim()), MAGIC)
    return MAGIC + data, h


@attrs.frozen
class RawFrame:
    """One frame as read: where it starts, its body bytes and its stored hash."""

    offset: int
    body: bytes
    hash: bytes


def iter_frames(data: bytes, start: int = len(MAGIC)) -> Iterator[RawFrame]:
    """Yield the frames of ``data`` from ``start``; raise TruncatedLog at a torn tail.

    The hash is *not* checked here; the reader checks the chain.
    """
    pos = start
    n = len(data)
    index = -1  # the header is frame -1, records count from 0
    while pos < n:
        if pos + 4 > n:
            raise TruncatedLog("log ends inside a frame length", offset=pos, record=max(index, 0),
                               intact=max(index, 0), intact_bytes=pos)
        (length,) = LENGTH.unpack_from(data, pos)
        if length < HASH_SIZE + 1 or length > MAX_FRAME:
            raise CorruptLog(f"impossible frame length {length}", offset=pos, record=index if index >= 0 else None)
        end = pos + 4 + length
        if end > n:
            raise TruncatedLog(
                f"log ends inside a frame ({n - pos - 4} of {length} bytes present)",
                offset=pos, record=max(index, 0), intact=max(index, 0), intact_bytes=pos,
            )
        yield RawFrame(pos, data[pos + 4 : end - HASH_SIZE], data[end - HASH_SIZE : end])
        pos = end
        index += 1


def check_magic(data: bytes) -> None:
    """Raise ForeignFile or UnsupportedLog unless ``data`` starts with a meeple log magic."""
    if len(data) < len(MAGIC) or data[:6] != MAGIC[:6]:
        raise ForeignFile("not a meeple log (bad magic bytes)", offset=0)
    if data[: len(MAGIC)] != MAGIC:
        raise UnsupportedLog(f"log format major {data[7]} is not supported", offset=7)


def unpack_body(body: bytes, offset: int, record: int | None) -> Any:
    """Decode a frame body with msgpack; raise CorruptLog on any malformation."""
    try:
        return msgpack.unpackb(body, raw=False, use_list=True, strict_map_key=False)
    except Exception as e:  # msgpack raises several unrelated types
        raise CorruptLog(f"undecodable frame ({type(e).__name__})", offset=offset, record=record) from None


def read_header(data: bytes) -> tuple[Header, bytes, int]:
    """Return the header, its hash, and the offset after its frame."""
    header, h, end, _ = read_header_kind(data)
    return header, h, end


def read_header_kind(data: bytes) -> tuple[Header, bytes, int, bytes | None]:
    """:func:`read_header`, and the header's kind where the compiled reader tells it, else None.

    The kind is the header's bytes but the seed commitment and seeds: logs of
    one game, rules version, seat count, options, engine and type list share
    it, so what follows from those can be remembered by it.
    """
    if _speedups is not None:  # the compiled reader checks the header's shape; problem() its rules
        if _HEADER_SLOTS is None:
            found = _speedups.read_header(data, MAGIC, msgpack.unpackb)
            if found is not None:
                found = (Header(*found[0]), found[1], found[2], None)
        else:
            found = _speedups.read_header(data, MAGIC, msgpack.unpackb, Header, _HEADER_SLOTS, _KNOWN_HEADERS)
        if found is not None and found[0].problem() is None:
            return found  # type: ignore[no-any-return]
    else:
        found = _read_header_py(data)
        if found is not None:
            return (*found, None)
    return (*_check_header(data), None)


#: Header kinds read before (filled by the compiled reader, at most 64)
_KNOWN_HEADERS: dict[bytes, Any] = {}


def _read_header_py(data: bytes) -> tuple[Header, bytes, int] | None:
    """:func:`read_header` for a well-formed header, or None (then :func:`_check_header` names the problem)."""
    start = len(MAGIC)
    if data[:start] != MAGIC or len(data) < start + 4:
        return None
    (length,) = LENGTH.unpack_from(data, start)
    end = start + 4 + length
    if not HASH_SIZE < length <= MAX_FRAME or end > len(data):
        return None
    body = data[start + 4 : end - HASH_SIZE]
    h = data[end - HASH_SIZE : end]
    if digest(body, MAGIC) != h:
        return None
    try:
        raw = msgpack.unpackb(body)
    except Exception:  # msgpack raises several unrelated types
        return None
    header = Header.from_known(raw)
    return None if header is None else (header, h, end)


def _check_header(data: bytes) -> tuple[Header, bytes, int]:
    """:func:`read_header` step by step, raising the error that names what is wrong."""
    check_magic(data)
    frames = iter_frames(data)
    try:
        first = next(frames)
    except StopIteration:
        raise TruncatedLog("log has no header", offset=len(MAGIC), record=0, intact=0, intact_bytes=0) from None
    except TruncatedLog as e:
        raise TruncatedLog("log ends inside its header", offset=e.offset or 0, record=0, intact=0, intact_bytes=0) from None
    if digest(first.body, MAGIC) != first.hash:
        raise CorruptLog("header hash does not match its bytes", offset=first.offset)
    raw = unpack_body(first.body, first.offset, None)
    header = Header.from_prim(raw, first.offset)
    return header, first.hash, first.offset + 4 + len(first.body) + HASH_SIZE
