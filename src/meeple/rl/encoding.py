"""How a game declares its encodings for reinforcement learning: a fixed action space and observation tensors.

Plain data and pure functions, with no NumPy, so a game module can declare
them without the ``rl`` extra. An :class:`Encoding` has two parts:

* :class:`Actions`, a **fixed action space**: ``size`` integers, each
  standing for one command whatever the position (a bid of three fives is
  the same action id in every turn of every match), and ``index(command,
  view, seat)`` giving the id of a legal command. The environment's action
  mask is built from ``legal_commands`` through it. The position of a
  command in ``legal()`` is not an action id: its meaning changes every
  step. Where every command of the game fits one table, :meth:`Actions.table`
  builds the space from that table; where commands name things only the
  view tells apart (a card by the slot of the hand it sits in), ``index``
  reads the view.
* :class:`Observation`, a **tensor layout**: named :class:`Segment`\\ s
  (shape and bounds each) concatenated, in order, into one flat vector, and
  ``encode(view, seat)`` filling them from the seat's view alone.

A game declares a factory ``encoding(seats, options) -> Encoding`` (sizes
may depend on the seat count and the options) and makes it known in one of
three ways, looked up in this order:

1. :func:`register_encoding` (``register_encoding("liars-dice", encoding)``);
2. the ``meeple.encodings`` entry-point group of a package
   (``liars-dice = "liars_dice:encoding"``);
3. for a bundled game, a module ``meeple.rl.encodings.<game>`` (the id
   with ``-`` as ``_``) with a function ``encoding``.

>>> acts = Actions.table(["fold", "call", "raise"])
>>> acts.size, acts.index("call", None, 0), acts.label(2)
(3, 1, "'raise'")
>>> obs = Observation((Segment("hand", (2, 3)), Segment("pot", (), high=10)), lambda view, seat: {})
>>> obs.size, [(s.name, s.offset) for s in obs.segments_at()]
(7, [('hand', 0), ('pot', 6)])
"""

from __future__ import annotations

import importlib
import importlib.util
import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from importlib import metadata
from typing import Any, Generic, TypeVar

import attrs

from ..engine import ConfigError, Game, MeepleError
from ..engine.registry import resolve

#: ``encode(view, seat)``: every segment's values by name (numbers, nested sequences or arrays of its shape).
Encoder = Callable[[Any, int], Mapping[str, Any]]
#: ``index(command, view, seat)``: the action id of a legal command.
Indexer = Callable[[Any, Any, int], int]
#: ``index_all(commands, view, seat)``: the action ids of the legal commands, in their order.
ManyIndexer = Callable[[Sequence[Any], Any, int], list[int]]
#: ``fill(view, seat, out)``: write the observation into ``out``, a zeroed ``bytearray`` of the layout's size,
#: each segment at its offset; return the values that are not whole numbers 0..255 as ``(index, value)`` pairs.
Filler = Callable[[Any, int, bytearray], "Iterable[tuple[int, float]] | None"]
_T = TypeVar("_T")


class ByIdentity(Generic[_T]):
    """What ``make(seat, *values)`` gives, remembered by the seat and the identity of each value: for fills.

    A game's views share the tuples a move leaves alone (the piles, the
    scores, the board), so a fill asks about the same objects again and
    again: what it makes of them (some segments' bytes, say) is made once
    per seat and set of objects. Look up with ``memo.get((seat, id(a),
    id(b)))`` (a dict's own ``get``, no call of Python code when the answer
    is known) and, on None, ``memo.add(seat, a, b)`` makes and keeps it.
    The objects are held while their entry lives, so their ids name no
    other objects meanwhile (a key of ids is enough); at ``limit`` entries
    the memo starts afresh. ``make`` must read nothing but its arguments.
    """

    __slots__ = ("_answers", "_held", "_limit", "_make", "get")

    def __init__(self, make: Callable[..., _T], limit: int = 512) -> None:
        self._answers: dict[tuple[int, ...], _T] = {}
        self._held: list[tuple[Any, ...]] = []
        self._make = make
        self._limit = limit
        self.get = self._answers.get

    def add(self, seat: int, *values: Any) -> _T:
        """Make the answer for ``seat`` and ``values``, remember it under ``(seat, *ids)``, and return it."""
        if len(self._answers) >= self._limit:
            self._answers.clear()
            self._held.clear()
        made = self._make(seat, *values)
        self._answers[(seat, *map(id, values))] = made
        self._held.append(values)
        return made


class NoEncoding(ConfigError):
    """The game declares no encodings for ``meeple.rl`` (no action space, no observation layout).

    ``game`` is its id.
    """

    def __init__(self, game: str) -> None:
        super().__init__(
            f"{game} declares no encodings for meeple.rl (a fixed action space and an observation layout); "
            "see docs/rl.md for how a game declares them"
        )
        self.game = game


class EncodingError(MeepleError, ValueError):
    """A game's encodings broke their own declaration: a command without an id, two commands on one id,
    a segment of the wrong size or out of its bounds."""


def _shape(value: Iterable[int] | int) -> tuple[int, ...]:
    return (value,) if isinstance(value, int) else tuple(value)


def _segments(value: Iterable[Segment]) -> tuple[Segment, ...]:
    return tuple(value)


@attrs.frozen
class Segment:
    """One named part of an observation: its ``shape`` (``()`` for one number), its bounds and what it means.

    ``low`` and ``high`` bound every value of the segment (the environment's
    ``Box`` takes them); ``doc`` says what the values mean, for the layout
    table of the game's documentation.
    """

    name: str
    shape: tuple[int, ...] = attrs.field(converter=_shape)
    low: float = 0.0
    high: float = 1.0
    doc: str = ""

    def __attrs_post_init__(self) -> None:
        if any(n < 1 for n in self.shape):
            raise ConfigError(f"segment {self.name!r}: every dimension is at least 1, not {self.shape}")
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low <= self.high):
            raise ConfigError(f"segment {self.name!r}: bounds must be finite with low <= high, not "
                              f"[{self.low}, {self.high}]")

    @property
    def size(self) -> int:
        """How many numbers the segment holds."""
        return math.prod(self.shape)


@attrs.frozen
class Placed:
    """A segment and where it starts in the flat observation vector."""

    name: str
    offset: int
    segment: Segment


@attrs.frozen
class Observation:
    """An observation layout: ``segments`` concatenated in order into one flat vector, filled by ``encode``.

    ``encode(view, seat)`` receives the seat's view only and returns each
    segment's values by name; a segment it leaves out is all zeros.
    ``fill(view, seat, out)``, where given, writes the same values straight
    into ``out``, a zeroed ``bytearray`` of :attr:`size` bytes, each
    segment at its offset in :meth:`segments_at` (row-major within a
    segment), and returns the values a byte cannot hold (negative, above
    255 or fractional) as ``(index, value)`` pairs, or None: the
    environment's fast path, one byte written per value that is not 0 and
    one conversion to ``float32`` for the whole vector, with no dict, lists
    or concatenation per observation. :meth:`filled` declares a layout by
    its ``fill`` alone and derives ``encode`` from it, so the two cannot
    disagree.
    """

    segments: tuple[Segment, ...] = attrs.field(converter=_segments)
    encode: Encoder
    fill: Filler | None = attrs.field(default=None, kw_only=True)

    @classmethod
    def filled(cls, segments: Iterable[Segment], fill: Filler) -> Observation:
        """A layout declared by ``fill`` alone: ``encode`` gives each segment's slice of what ``fill`` writes."""
        segs = tuple(segments)
        size = sum(s.size for s in segs)
        cuts: list[tuple[str, int, int]] = []
        offset = 0
        for s in segs:
            cuts.append((s.name, offset, offset + s.size))
            offset += s.size

        def encode(view: Any, seat: int) -> dict[str, Any]:
            out = bytearray(size)
            extra = fill(view, seat, out)
            flat: list[float] = [float(x) for x in out]
            for i, v in extra or ():
                flat[i] = float(v)
            return {name: flat[a:b] for name, a, b in cuts}

        return cls(segs, encode, fill=fill)

    def __attrs_post_init__(self) -> None:
        names = [s.name for s in self.segments]
        if not names:
            raise ConfigError("an observation has at least one segment")
        if len(set(names)) != len(names):
            raise ConfigError(f"segment names must differ: {names}")

    @property
    def size(self) -> int:
        """The length of the flat observation vector."""
        return sum(s.size for s in self.segments)

    def segments_at(self) -> list[Placed]:
        """Each segment with its offset in the flat vector."""
        out, offset = [], 0
        for s in self.segments:
            out.append(Placed(s.name, offset, s))
            offset += s.size
        return out

    def layout(self) -> str:
        """The layout as a Markdown table: segment, offset, shape, bounds, meaning."""
        rows = ["| segment | offset | shape | values | meaning |", "|---|---:|---|---|---|"]
        for p in self.segments_at():
            s = p.segment
            shape = " x ".join(map(str, s.shape)) or "1"
            rows.append(f"| `{s.name}` | {p.offset} | {shape} | {s.low:g}..{s.high:g} | {s.doc} |")
        return "\n".join(rows)


@attrs.frozen
class Actions:
    """A fixed action space: ``size`` action ids, ``index`` mapping a legal command to its id, ``label`` naming an id.

    ``index(command, view, seat)`` must give every legal command an id in
    ``range(size)``, distinct among the commands legal at once; it may read
    the view (a card by its slot in the hand), never anything else.
    ``index_all(commands, view, seat)``, where given, gives the ids of all
    the legal commands at once, as ``index`` does one by one (what it reads
    of the view it may then work out once); the environment uses it.
    """

    size: int
    index: Indexer
    label: Callable[[int], str] = repr
    index_all: ManyIndexer | None = attrs.field(default=None, kw_only=True)

    def __attrs_post_init__(self) -> None:
        if isinstance(self.size, bool) or not isinstance(self.size, int) or self.size < 1:
            raise ConfigError(f"an action space has at least one action, not {self.size!r}")

    @classmethod
    def table(cls, commands: Sequence[Hashable], describe: Callable[[Any], str] = repr) -> Actions:
        """The action space of a fixed table of every command the game has: an action id is a position in it.

        ``describe`` names a command (a game's ``describe``) for :attr:`label`.
        """
        table = tuple(commands)
        ids = {c: i for i, c in enumerate(table)}
        if len(ids) != len(table):
            raise ConfigError("an action table lists each command once")

        def index(command: Any, view: Any, seat: int) -> int:
            try:
                return ids[command]
            except KeyError:
                raise EncodingError(f"{command!r} has no action id: it is not in the action table") from None

        def label(action: int) -> str:
            return describe(table[action])

        # the id of each command object seen (the entry holds it, so its id names no other object): a game
        # hands out the same command objects again and again, and a hash of one is Python code (attrs)
        by_object: dict[int, tuple[Any, int]] = {}

        def index_all(commands: Sequence[Any], view: Any, seat: int) -> list[int]:
            out: list[int] = []
            get = by_object.get
            for command in commands:
                hit = get(id(command))
                if hit is None:
                    if command not in ids:
                        raise EncodingError(f"{command!r} has no action id: it is not in the action table")
                    if len(by_object) >= 1 << 16:
                        by_object.clear()
                    hit = by_object[id(command)] = (command, ids[command])
                out.append(hit[1])
            return out

        return cls(len(table), index, label, index_all=index_all)


@attrs.frozen
class Steps:
    """A second action space, where a command is given in steps: ``size`` step ids, fixed in meaning.

    ``tokens(command, view, seat)`` gives the step ids of a legal command,
    in the order they are chosen (a card's slot, then a board cell, then a
    turn, say). The commands legal at once must have distinct token
    sequences, none the beginning of another, so that each step's legal
    ids are exactly the next tokens of the commands that begin with the
    steps chosen so far, and the last step names one command. ``label``
    names a step id.
    """

    size: int
    tokens: Callable[[Any, Any, int], tuple[int, ...]]
    label: Callable[[int], str] = repr

    def __attrs_post_init__(self) -> None:
        if isinstance(self.size, bool) or not isinstance(self.size, int) or self.size < 1:
            raise ConfigError(f"a step space has at least one step id, not {self.size!r}")


@attrs.frozen
class Encoding:
    """What ``meeple.rl`` needs of a game: its fixed action space and its observation layout.

    ``steps``, where the game declares it, is a second action space in which
    a command is chosen in several steps (:class:`Steps`), for games whose
    flat space is large and sparse; ``meeple.rl.env(..., actions="steps")``
    uses it.
    """

    actions: Actions
    observation: Observation
    steps: Steps | None = attrs.field(default=None, kw_only=True)


#: ``encoding(seats, options) -> Encoding``: how a game declares its encodings for a table of ``seats``.
EncodingFactory = Callable[[int, Any], Encoding]

_registered: dict[str, EncodingFactory] = {}

#: The entry-point group through which a package declares a game's encodings.
ENTRY_POINTS = "meeple.encodings"


def register_encoding(game_id: str, factory: EncodingFactory) -> None:
    """Declare the encodings of game ``game_id`` (replacing any earlier declaration)."""
    _registered[game_id] = factory


def encoding_factory(game: str | Game[Any, Any]) -> EncodingFactory:
    """The encoding factory of a game (see the module docstring for where it is looked up); :class:`NoEncoding` if none."""
    g = resolve(game)
    gid = g.info.id
    found = _registered.get(gid)
    if found is not None:
        return found
    try:
        eps = {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINTS)}
    except Exception:  # pragma: no cover - broken environments
        eps = {}
    if gid in eps:
        try:
            obj = eps[gid].load()
        except Exception as e:
            raise ConfigError(f"the encodings of entry point {gid!r} could not be loaded: {e}") from None
        _registered[gid] = obj
        return obj  # type: ignore[no-any-return]
    module = f"{__package__}.encodings.{gid.replace('-', '_')}"
    if gid.replace("-", "_").isidentifier() and importlib.util.find_spec(module) is not None:
        obj = getattr(importlib.import_module(module), "encoding", None)
        if not callable(obj):
            raise ConfigError(f"{module} has no function encoding(seats, options)")
        _registered[gid] = obj
        return obj  # type: ignore[no-any-return]
    raise NoEncoding(gid)


def encoding_for(game: str | Game[Any, Any], seats: int, options: Any) -> Encoding:
    """The encodings of ``game`` for ``seats`` and ``options`` (an options object, as a match holds them)."""
    made = encoding_factory(game)(seats, options)
    if not isinstance(made, Encoding):
        raise ConfigError(f"the encoding factory of {resolve(game).info.id} returned {type(made).__name__}, "
                          "not an Encoding")
    return made
