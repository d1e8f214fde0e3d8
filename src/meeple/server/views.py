"""A table's views in wire form, each field encoded once and kept from one position to the next.

Every change of a match sends each seat its view, and most of a view is
what it was: states are frozen values built from the ones before, so a
field that did not change is mostly the very object it was, and a field
that grew by appending (the bids, a log) holds the same items as before.
:class:`ViewCoder` keeps, for each field of a table's views, the last few
values it encoded with their wire values and JSON texts, and each seat's
last view. A field that is the very object of the seat's last view is not
looked at; one that is a value met before costs nothing; a tuple that
extends the newest one met before (its first items the same objects)
costs its new items only, and says so (:attr:`Encoded.grown`), so that the
delta to a connection that was shown the shorter one is the splice that
appends them (:func:`meeple.server.delta.delta_text`); in a tuple changed
in places, the items still at their places keep their wire values (the
very objects, which the delta then passes over at once). Any other field, and
a list (which might have changed in place), is encoded as
:func:`~meeple.engine.wire.to_wire` encodes it: the result is always
:func:`~meeple.engine.wire.to_wire`'s, field for field.

>>> import attrs
>>> @attrs.frozen
... class V:
...     bids: tuple[tuple[int, int], ...]
...     turn: int
>>> coder = ViewCoder(V)
>>> a = V(((1, 2),), 0)
>>> b = V((*a.bids, (2, 2)), 1)
>>> coder.encode(a).texts
{'bids': '[[1,2]]', 'turn': '0'}
>>> e = coder.encode(b)
>>> e.wire, e.texts["bids"], e.grown["bids"][1:]
({'bids': [[1, 2], [2, 2]], 'turn': 1}, '[[1,2],[2,2]]', (1, '[[2,2]]'))
"""

from __future__ import annotations

import itertools
import operator
import typing
from typing import Any

import attrs

from ..engine.shapes import Kind, shape_of
from ..engine.wire import Json, encoder_for, to_wire
from .messages import dumps

#: How many values of each field a coder keeps (the seats' views of one position differ in a few fields).
KEPT = 4
#: How many seats' last views a coder keeps (a spectator's is one more).
KEPT_SEATS = 16
#: The annotations whose values' wire forms are item by item, so a tail is encoded on its own.
_ITEMWISE = frozenset({Kind.TUPLE, Kind.LIST, Kind.ANY, Kind.UNION})
#: Values a game may hand out again and then change (none should): never taken as the same by identity.
_MUTABLE = frozenset({list, dict, set, bytearray})


class Encoded:
    """One view in wire form: ``wire`` (what :func:`to_wire` gives), ``texts`` (each field's JSON text by name;
    None for a view that is no object) and ``grown``: for each field that extends a value encoded before, the
    wire value it extends (shared, not copied), that value's length and the JSON text of the items appended.

    ``since``, where known, is ``(texts, names)``: the ``texts`` of the seat's view encoded before this one, and
    the names of the only fields whose texts may differ from those (the others are the very same strings).
    """

    __slots__ = ("grown", "since", "texts", "wire")

    def __init__(self, wire: Json, texts: dict[str, str] | None, grown: dict[str, tuple[Json, int, str]],
                 since: tuple[dict[str, str], list[str]] | None = None) -> None:
        self.wire = wire
        self.texts = texts
        self.grown = grown
        self.since = since


class _Kept:
    """A field's value met before: its wire value, its text, and what it grew from (as in :attr:`Encoded.grown`)."""

    __slots__ = ("grown", "text", "value", "wire")

    def __init__(self, value: Any, wire: Json, text: str, grown: tuple[Json, int, str] | None = None) -> None:
        self.value, self.wire, self.text, self.grown = value, wire, text, grown


class ViewCoder:
    """Encodes the views of one game (its ``view_type``, an attrs class; anything else is encoded whole)."""

    def __init__(self, view_type: Any) -> None:
        self._cls: type | None = None
        self._tag: str | None = None
        self._names: tuple[str, ...] = ()
        #: (name, encoder, whether its values are encoded item by item, the kept values, newest first)
        self._fields: list[tuple[str, Any, bool, list[_Kept]]] = []
        #: the fields whose values may be of a class that changes in place (looked at every time)
        self._always: list[int] = []
        self._values: Any = None  # a view's field values, in order
        #: by seat: the field values of its last view, and its wire value and fields' texts (as Encoded has them)
        self._last: dict[Any, tuple[tuple[Any, ...], dict[str, Json], dict[str, str]]] = {}
        #: the wire value and texts of a view before its fields are filled in (their keys in order)
        self._blank: tuple[dict[str, Json], dict[str, str]] = ({}, {})
        if isinstance(view_type, type) and attrs.has(view_type):
            shape = shape_of(view_type)
            record = shape.record
            if record is not None and shape.kind is not Kind.MESSAGES and record.names:
                self._cls, self._tag, self._names = view_type, record.own_tag, record.names
                self._fields = [(name, encoder_for(tp), shape_of(tp).kind in _ITEMWISE, [])
                                for name, tp in zip(record.names, record.types, strict=True)]
                self._always = [i for i, tp in enumerate(record.types) if not _frozen(tp)]
                getter = operator.attrgetter(*record.names)
                self._values = getter if len(record.names) > 1 else (lambda view: (getter(view),))
                tag = {} if self._tag is None else {"type": self._tag}
                self._blank = ({**tag, **dict.fromkeys(self._names)},
                               {**{k: dumps(v) for k, v in tag.items()}, **dict.fromkeys(self._names, "")})

    def encode(self, view: Any, seat: Any = None) -> Encoded:
        """``view`` (``seat``'s) in wire form, with its fields' texts (see the module docstring).

        The fields that are the very objects of ``seat``'s last view are not looked at again.
        """
        if view.__class__ is not self._cls or self._cls is None:
            whole = to_wire(view)
            return Encoded(whole, {k: dumps(v) for k, v in whole.items()} if isinstance(whole, dict) else None, {})
        values = self._values(view)
        fields = self._fields
        last = self._last.get(seat)
        since = None
        if last is None:  # every field, into dicts whose keys are in order already
            out, out_texts = dict(self._blank[0]), dict(self._blank[1])
            changed: Any = range(len(fields))
        else:  # the fields that are not the very objects of the seat's last view, into copies of its dicts
            out, out_texts = last[1].copy(), last[2].copy()
            changed = [*itertools.compress(range(len(fields)), map(operator.is_not, values, last[0]))]
            if self._always:  # in the fields' order, each once (a delta patches them in that order)
                changed = sorted({*changed, *self._always})
            since = (last[2], [fields[i][0] for i in changed])
        grown: dict[str, tuple[Json, int, str]] = {}
        for i in changed:
            name, encode, itemwise, kept = fields[i]
            value = values[i]
            hit = kept[0] if kept else None
            if hit is None or hit.value is not value or value.__class__ in _MUTABLE:
                hit = self._find(value, encode, itemwise, kept)
            out[name], out_texts[name] = hit.wire, hit.text
            if hit.grown is not None:
                grown[name] = hit.grown
        if len(self._last) >= KEPT_SEATS and seat not in self._last:
            self._last.clear()
        self._last[seat] = (values, out, out_texts)  # copied before the next view changes them
        return Encoded(out, out_texts, grown, since)

    @staticmethod
    def _find(value: Any, encode: Any, itemwise: bool, kept: list[_Kept]) -> _Kept:
        """A field's value that is not the newest kept: another kept one, or it encoded (from the newest kept
        value it extends, else whole); it is the newest kept from now on."""
        if value.__class__ not in _MUTABLE:
            for i, k in enumerate(kept):
                if k.value is value:
                    del kept[i]
                    kept.insert(0, k)
                    return k
        base = None
        kind = value.__class__
        if itemwise and kind is tuple:  # a list may have changed in place since: encoded whole
            size = len(value)
            for k in kept:  # newest first: the one the connections hold, mostly
                old = k.value
                if old.__class__ is not kind:
                    continue
                n = len(old)
                if n <= size and (not n or old[-1] is value[n - 1]) and all(map(operator.is_, old, value)):
                    base = k
                    break
        if base is None and itemwise and kind is tuple and kept and kept[0].value.__class__ is tuple:
            # a tuple changed in places (a mine of the table): the items still at their places keep their wire
            old, wires = kept[0].value, kept[0].wire
            if old and value and (old[0] is value[0] or old[-1] is value[-1]):
                size = len(old)
                wire = [wires[i] if i < size and old[i] is x else encode((x,))[0] for i, x in enumerate(value)]
                new = _Kept(value, wire, dumps(wire))
                kept.insert(0, new)
                del kept[KEPT:]
                return new
        if base is None:
            wire = encode(value)
            new = _Kept(value, wire, dumps(wire))
        else:
            n = len(base.value)
            if n == len(value):  # the same items in another container
                new = _Kept(value, base.wire, base.text)
            else:
                tail = encode(value[n:])
                tail_text = dumps(tail)
                text = tail_text if n == 0 else f"{base.text[:-1]},{tail_text[1:]}"
                new = _Kept(value, [*base.wire, *tail], text, (base.wire, n, tail_text))
        kept.insert(0, new)
        del kept[KEPT:]
        return new


def _frozen(tp: Any) -> bool:
    """Whether every value of the annotation ``tp`` is immutable (so one that is the same object is the same value).

    Lists, sets, dicts, ``Any`` and what the shapes do not name are not; attrs classes are taken to be frozen,
    as a game's views and options are.
    """
    shape = shape_of(tp)
    kind = shape.kind
    if kind in (Kind.SCALAR, Kind.LITERAL, Kind.ENUM, Kind.RECORD, Kind.MESSAGES):
        return True
    if kind in (Kind.TUPLE, Kind.FIXED, Kind.UNION):
        return bool(shape.parts) and all(_frozen(p) for p in shape.parts)
    if kind is Kind.SET:
        return typing.get_origin(tp) is frozenset and bool(shape.parts) and _frozen(shape.parts[0])
    return False
