"""A table's views in wire form, each field encoded once and kept from one position to the next.

Every change of a match sends each seat its view, and most of a view is
what it was: states are frozen values built from the ones before, so a
field that did not change is mostly the very object it was, and a field
that grew by appending (the bids, a log) holds the same items as before.
:class:`ViewCoder` keeps, for each field of a table's views, the last few
values it encoded with their wire values and JSON texts. A field that is a
value met before (the same object) costs nothing; a list or tuple that
extends one met before (its first items the same objects) costs its new
items only, and says so (:attr:`Encoded.grown`), so that the delta to a
connection that was shown the shorter one is the splice that appends them
(:func:`meeple.server.delta.delta_text`); any other field is encoded as
:func:`~meeple.engine.wire.to_wire` encodes it. The result is always
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

import operator
from typing import Any

import attrs

from ..engine.shapes import Kind, shape_of
from ..engine.wire import Json, encoder_for, to_wire
from .messages import dumps

#: How many values of each field a coder keeps (the seats' views of one position differ in a few fields).
KEPT = 4
#: The annotations whose values' wire forms are item by item, so a tail is encoded on its own.
_ITEMWISE = frozenset({Kind.TUPLE, Kind.LIST, Kind.ANY, Kind.UNION})
#: Values a game may hand out again and then change (none should): never taken as the same by identity.
_MUTABLE = frozenset({list, dict, set, bytearray})


class Encoded:
    """One view in wire form: ``wire`` (what :func:`to_wire` gives), ``texts`` (each field's JSON text by name;
    None for a view that is no object) and ``grown``: for each field that extends a value encoded before, the
    wire value it extends (shared, not copied), that value's length and the JSON text of the items appended."""

    __slots__ = ("grown", "texts", "wire")

    def __init__(self, wire: Json, texts: dict[str, str] | None, grown: dict[str, tuple[Json, int, str]]) -> None:
        self.wire = wire
        self.texts = texts
        self.grown = grown


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
        #: (name, encoder, whether its values are encoded item by item, the kept values, newest first)
        self._fields: list[tuple[str, Any, bool, list[_Kept]]] = []
        self._values: Any = None  # a view's field values, in order
        if isinstance(view_type, type) and attrs.has(view_type):
            shape = shape_of(view_type)
            record = shape.record
            if record is not None and shape.kind is not Kind.MESSAGES:
                self._cls, self._tag = view_type, record.own_tag
                self._fields = [(name, encoder_for(tp), shape_of(tp).kind in _ITEMWISE, [])
                                for name, tp in zip(record.names, record.types, strict=True)]
                names = record.names
                self._values = operator.attrgetter(*names) if len(names) > 1 else \
                    (lambda view: (getattr(view, names[0]),) if names else ())

    def encode(self, view: Any) -> Encoded:
        """``view`` in wire form, with its fields' texts (see the module docstring)."""
        if view.__class__ is not self._cls or self._cls is None:
            whole = to_wire(view)
            return Encoded(whole, {k: dumps(v) for k, v in whole.items()} if isinstance(whole, dict) else None, {})
        out: dict[str, Json] = {}
        texts: dict[str, str] = {}
        grown: dict[str, tuple[Json, int, str]] = {}
        if self._tag is not None:
            out["type"], texts["type"] = self._tag, dumps(self._tag)
        for (name, encode, itemwise, kept), value in zip(self._fields, self._values(view), strict=True):
            hit = kept[0] if kept else None
            if hit is None or hit.value is not value or value.__class__ in _MUTABLE:
                hit = self._find(value, encode, itemwise, kept)
            out[name], texts[name] = hit.wire, hit.text
            if hit.grown is not None:
                grown[name] = hit.grown
        return Encoded(out, texts, grown)

    @staticmethod
    def _find(value: Any, encode: Any, itemwise: bool, kept: list[_Kept]) -> _Kept:
        """A field's value that is not the newest kept: another kept one, or it encoded (from the longest kept
        value it extends, else whole); it is the newest kept from now on."""
        if value.__class__ not in _MUTABLE:
            for i, k in enumerate(kept):
                if k.value is value:
                    del kept[i]
                    kept.insert(0, k)
                    return k
        base = None
        kind = value.__class__
        if itemwise and (kind is tuple or kind is list):
            size = len(value)
            for k in kept:
                old = k.value
                if old.__class__ is kind and len(old) <= size and (base is None or len(old) > len(base.value)) \
                        and all(map(operator.is_, old, value)):
                    base = k
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
