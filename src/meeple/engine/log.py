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

import operator
import struct
from collections.abc import Iterator
from typing import Any

import attrs
import msgpack

from ._compiled import speedups
from .codec import digest, maps_sorted, pack, unstructure
from .errors import CorruptLog, ForeignFile, TruncatedLog, UnsupportedLog
from .rng import MASK64
from .seeds import MAX_SEEDS as MAX_SEEDS  # the limit lives with the schedule rules; importable from here too
from .seeds import schedule_problem
from .shapes import field_slots

#: The compiled frame loops (``src/meeple/_speedups_records.c``, ``_speedups_header.c``), or None where the
#: package was built without them or ``MEEPLE_PURE_PYTHON`` is set in the environment.
_speedups: Any = speedups

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
            "meta": unstructure(self.meta),  # maps in sorted order, all the way down
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
        if raw.__class__ is not dict or list(raw) != _SORTED_KEYS:
            return None
        values = _HEADER_VALUES(raw)
        kinds = tuple(map(type, values))  # every field's exact class, checked in one comparison
        if kinds != _HEADER_KINDS and kinds != _HEADER_KINDS_HIDDEN:
            return None
        game, rules, seats, options, seeds_raw, commitment, types_raw, every, engine, fmt, meta = values
        if fmt != FORMAT_VERSION or every < 1 or not _STR.issuperset(map(type, options)) or not _STR.issuperset(
            map(type, meta)
        ) or len(commitment) != HASH_SIZE:
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
        return header if header.seed_problem() is None and header.kind_problem() is None else None

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
                meta=_dict(raw["meta"]),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise bad(f"missing or malformed field ({e})") from None
        if header.checkpoint_every < 1:
            raise bad("checkpoint_every must be positive")
        if any(v < 1 for _, v in types):
            raise bad("type schema versions start at 1")
        if list(raw) != _SORTED_KEYS:
            unknown = sorted(set(raw) - _HEADER_KEYS, key=repr)
            raise bad(f"unknown field {unknown[0]!r}" if unknown else "the fields are not in sorted order")
        problem = header.seed_problem() or header.kind_problem()
        if problem is not None:
            raise bad(problem)
        return header

    def problem(self) -> str | None:
        """What breaks the rules of ``docs/log-format.md`` in this header's fields, or None.

        The rules that the bytes' shape does not show: the seed schedule,
        the commitment's length, no type named twice, and every map in sorted
        order (:meth:`seed_problem`, then :meth:`kind_problem`).
        """
        return self.seed_problem() or self.kind_problem()

    def seed_problem(self) -> str | None:
        """What breaks the rules of the seed schedule or the commitment, or None (the part logs of a kind differ in)."""
        if self.seeds is not None:
            problem = schedule_problem(self.seeds)
            if problem is not None:
                return problem
        if len(self.commitment) != HASH_SIZE:
            return f"the seed commitment is {HASH_SIZE} bytes, not {len(self.commitment)}"
        return None

    def kind_problem(self) -> str | None:
        """What breaks the rules of the other fields (types, options, meta), or None: the same for a kind of log."""
        if len({t for t, _ in self.types}) != len(self.types):
            return "the types table names a type twice"
        if not maps_sorted(self.options):
            return "the options are not in sorted order"
        if not maps_sorted(self.meta):
            return "a map in meta is not in sorted order"
        return None


_HEADER_KEYS = frozenset(attrs.fields_dict(Header))
_SORTED_KEYS = sorted(_HEADER_KEYS)
_HEADER_VALUES = operator.itemgetter(
    "game", "rules", "seats", "options", "seeds", "commitment", "types", "checkpoint_every", "engine", "format", "meta")
_HEADER_KINDS = (str, int, int, dict, list, bytes, list, int, str, int, dict)
_HEADER_KINDS_HIDDEN = (str, int, int, dict, type(None), bytes, list, int, str, int, dict)  # seeds hidden
_STR = frozenset([str])
#: The slots of Header's fields if setting them is all its __init__ does (the compiled reader then sets them)
_header_slots = field_slots(Header)
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


def chain_hash(body: bytes, previous: bytes) -> bytes:
    """The chain rule: a frame's hash is BLAKE2b-128 of the previous hash followed by the frame's body.

    The header frame chains after the magic bytes, each record after the
    hash before it, a reveal frame after the last record
    (``docs/log-format.md``). Everything that writes or checks a chain uses
    this rule (the log reader's scan unrolls it for speed).
    """
    return digest(body, previous)


def state_checkpoint(state: Any) -> bytes:
    """The checkpoint hash of a state: BLAKE2b-128 of its canonical msgpack bytes."""
    return digest(pack(unstructure(state)))


def frame(body: bytes, previous: bytes) -> tuple[bytes, bytes]:
    """Return ``(frame bytes, hash)`` for ``body`` chained after ``previous``."""
    h = chain_hash(body, previous)
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


def iter_frames(data: bytes, start: int = len(MAGIC), index: int = -1) -> Iterator[RawFrame]:
    """Yield the frames of ``data`` from ``start``, the first being record ``index``; raise TruncatedLog at a torn tail.

    The header is record -1 (the default start), records count from 0. The
    hash is *not* checked here; the reader checks the chain.
    """
    pos = start
    n = len(data)
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


class BodyError(ValueError):
    """Why a frame body is not one canonical msgpack value (the reader raises it as a CorruptLog)."""


def decode_body(body: bytes) -> Any:
    """The msgpack value of a frame body, which must be its canonical encoding; else raise :class:`BodyError`.

    Canonical is what the writer produces (``docs/log-format.md``): the
    smallest encoding of every integer, string, binary, array and map length,
    ``str`` for text and ``bin`` for bytes, floats in 64 bits, no extension
    types, no trailing bytes. The body may hold at most :data:`MAX_VALUES`
    msgpack values, which bounds the memory its decoding takes; a body longer
    than that many bytes is counted before anything is built. (Map keys in
    sorted order, and values in their canonical form, are checked where the
    reader knows what a value is.)
    """
    if len(body) > MAX_VALUES:  # a shorter body cannot hold more values than it has bytes
        _count_values(body)
    try:
        value = _unpackb(body, strict_map_key=False, ext_hook=_refuse_ext, max_ext_len=0,
                         max_array_len=MAX_VALUES, max_map_len=MAX_VALUES)
        if pack(value) == body:
            return value
        problem = "the frame is not in the canonical msgpack encoding (docs/log-format.md)"
    except Exception as e:  # msgpack raises several unrelated types
        problem = f"undecodable frame ({type(e).__name__})"
    # raised here, not in the handler: the error keeps no reference to what msgpack decoded
    raise BodyError(problem)


def unpack_body(body: bytes, offset: int, record: int | None) -> Any:
    """:func:`decode_body`, raising CorruptLog (at ``offset``, for ``record``) where the body is not canonical."""
    try:
        return decode_body(body)
    except BodyError as e:
        raise CorruptLog(str(e), offset=offset, record=record) from None


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"msgpack extension type {code}: logs use none")


#: The most msgpack values a frame body may hold (every nil, boolean, number,
#: string, binary, array and map counts one, and so does each key of a map).
#: Real records hold a few hundred; at most ~80 bytes of Python objects are
#: built per value, so decoding any frame takes at most ~5 MiB beyond its bytes.
MAX_VALUES = 1 << 16

_unpackb = msgpack.unpackb  # raw=False and use_list=True by default

# What follows each msgpack type byte, for counting values without decoding them:
# (kind, n): kind 0: n more bytes; 1: n more values; 2: a length of n bytes, then that many bytes;
# 3: a count of n bytes, then that many values (twice as many for a map); 4: not msgpack.
_SKIP: list[tuple[int, int]] = [(0, 0)] * 256
for _t in range(0x80, 0x90):
    _SKIP[_t] = (1, 2 * (_t & 0x0F))  # fixmap
for _t in range(0x90, 0xA0):
    _SKIP[_t] = (1, _t & 0x0F)  # fixarray
for _t in range(0xA0, 0xC0):
    _SKIP[_t] = (0, _t & 0x1F)  # fixstr
_SKIP[0xC1] = (4, 0)
for _t, _k in {0xC4: (2, 1), 0xC5: (2, 2), 0xC6: (2, 4), 0xC7: (2, 1), 0xC8: (2, 2), 0xC9: (2, 4),
               0xCA: (0, 4), 0xCB: (0, 8), 0xCC: (0, 1), 0xCD: (0, 2), 0xCE: (0, 4), 0xCF: (0, 8),
               0xD0: (0, 1), 0xD1: (0, 2), 0xD2: (0, 4), 0xD3: (0, 8), 0xD4: (0, 2), 0xD5: (0, 3),
               0xD6: (0, 5), 0xD7: (0, 9), 0xD8: (0, 17), 0xD9: (2, 1), 0xDA: (2, 2), 0xDB: (2, 4),
               0xDC: (3, 2), 0xDD: (3, 4), 0xDE: (3, 2), 0xDF: (3, 4)}.items():
    _SKIP[_t] = _k
_EXT_TYPE = frozenset([0xC7, 0xC8, 0xC9])  # ext 8/16/32: a type byte after the length
_MAPS = frozenset([0xDE, 0xDF])


def _count_values(body: bytes) -> None:
    """Raise BodyError if ``body`` starts with more than MAX_VALUES msgpack values, without building any.

    Stops at the first byte that is not msgpack or at the end of the body
    (msgpack itself then names the problem): this only bounds the count.
    """
    pos, n, pending, count = 0, len(body), 1, 0
    skip = _SKIP
    while pending:
        if pos >= n:
            return
        t = body[pos]
        pos += 1
        pending -= 1
        count += 1
        if count > MAX_VALUES:
            raise BodyError(f"a frame holds more than {MAX_VALUES} msgpack values (docs/reliability.md)")
        kind, k = skip[t]
        if kind == 0:
            pos += k
        elif kind == 1:
            pending += k
        elif kind == 4:
            return
        else:
            length = int.from_bytes(body[pos : pos + k], "big")
            pos += k
            if kind == 2:
                pos += length + (t in _EXT_TYPE)
            else:
                pending += 2 * length if t in _MAPS else length


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
    if _speedups is not None and _HEADER_SLOTS is not None:
        # the compiled reader checks the header's bytes and shape; Header its rules
        found = _speedups.read_header(data, MAGIC, decode_body, Header, _HEADER_SLOTS, _KNOWN_HEADERS)
        # a header laid out otherwise than the writer lays it out (kind None) is not canonical
        if found is not None and found[3] is not None and found[0].seed_problem() is None:
            header, h, end, kind, known = found
            if known:  # a kind read before, which passed kind_problem (those that did not are forgotten)
                return header, h, end, kind
            if header.kind_problem() is None:
                return header, h, end, kind
            _KNOWN_HEADERS.pop(kind, None)
    else:
        found = _read_header_py(data)
        if found is not None:
            return (*found, None)
    return (*_check_header(data), None)


#: Header kinds read before (filled by the compiled reader, at most 64; a kind that fails
#: :meth:`Header.kind_problem` is taken out again, so the kinds found here passed it)
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
    if chain_hash(body, MAGIC) != h:
        return None
    try:
        raw = decode_body(body)
    except BodyError:
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
    if chain_hash(first.body, MAGIC) != first.hash:
        raise CorruptLog("header hash does not match its bytes", offset=first.offset)
    raw = unpack_body(first.body, first.offset, None)
    header = Header.from_prim(raw, first.offset)
    return header, first.hash, first.offset + 4 + len(first.body) + HASH_SIZE
