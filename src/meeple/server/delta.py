"""Position deltas: what changed between two positions one connection was shown, as a small patch.

A client that speaks protocol 2 is sent, after the first whole position, the
change from the position it holds to the new one instead of the whole again
(docs/protocol.md, "Deltas"). The patch is computed here from two values the
seat was shown (its own previous and new views, legal commands, undo,
clock...), never from the referee's state, so it cannot carry anything the
new position does not: every value in it is a part of the new position.

A patch is a list of operations, each a JSON array whose first item names it
and whose second is a *path*, a list of object keys (strings) and list
indices (integers) from the top of the value:

* ``["r", path, value]``: the value at ``path`` becomes ``value`` (an object
  gets the key if it lacks it; the empty path replaces the whole);
* ``["d", path]``: the object holding the last key of ``path`` loses it;
* ``["s", path, index, count, items]``: the list at ``path`` loses ``count``
  items from ``index`` and gets ``items`` in their place.

Operations apply in order. Arrays of keys rather than RFC 6901 pointer strings
need no escaping and no parsing; a splice says "append a bid", "drop the first
three" or "replace the middle" in one operation where RFC 6902 JSON Patch
needs one ``add`` or ``remove`` per item. ``src/meeple/web/static/js/delta.js``
applies the same patches in the browser.

>>> old = {"bids": [[1, 2]], "phase": "bid", "loser": None}
>>> new = {"bids": [[1, 2], [2, 2]], "phase": "bid"}
>>> diff(old, new)
[['s', ['bids'], 1, 0, [[2, 2]]], ['d', ['loser']]]
>>> patched(old, diff(old, new)) == new
True
"""

from __future__ import annotations

import marshal
import operator
from collections.abc import Sequence
from typing import Any

from ..engine.wire import Json
from .messages import dumps
from .texts import Kept

#: One operation of a patch (see the module docstring).
Op = list[Any]


class PatchError(ValueError):
    """A patch that does not apply to the value it was given (a path that is not there, a splice out of range)."""


def same(a: Json, b: Json) -> bool:
    """Whether two JSON values are the same JSON text's value: ``True`` is not ``1``, ``1`` is not ``1.0``.

    Python's ``==`` holds for both pairs; the wire does not. Equal lists and
    objects (and floats, for the sign of zero) are compared once more by their
    text (orjson's, or without it their marshal bytes in format 2: no sharing,
    no interning marks), which keeps the types apart; objects whose keys come
    in another order count as different here (the caller then looks inside).

    >>> same([1, {"a": True}], [1, {"a": True}]), same([1], [True]), same(1, 1.0), same(0.0, -0.0)
    (True, False, False, False)
    """
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is list and len(a) == len(b) and all(map(operator.is_, a, b)):
        return True  # the same items (a view's wire values share what did not change)
    if a != b:
        return False
    if kind is str or kind is int or kind is bool:
        return True
    return _exactly(a, b)


def _marshalled(a: Json, b: Json) -> bool:
    return marshal.dumps(a, 2) == marshal.dumps(b, 2)


try:  # orjson's texts are made several times faster than marshal's bytes
    import orjson

    def _exactly(a: Json, b: Json) -> bool:
        try:
            return orjson.dumps(a) == orjson.dumps(b)
        except TypeError:  # an integer beyond 64 bits: marshal keeps it
            return _marshalled(a, b)
except ImportError:  # pragma: no cover - without the server extra
    _exactly = _marshalled


def diff(old: Json, new: Json, path: Sequence[str | int] = ()) -> list[Op]:
    """The operations that turn ``old`` into ``new`` (values of the wire form), at ``path`` below the top.

    The operations' values are parts of ``new`` (shared, not copied: encode
    them before either value changes). Objects are compared key by key, lists
    by their common beginning and end; what differs in between is one splice,
    or, between lists of the same length whose differing items are objects or
    lists, a patch inside each.
    """
    ops: list[Op] = []
    if not same(old, new):
        _diff(old, new, list(path), ops)
    return ops


def _diff(old: Json, new: Json, path: list[str | int], ops: list[Op]) -> None:
    """Append to ``ops`` the patch at ``path`` from ``old`` to ``new``, which are not :func:`same`."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in new.items():
            if key not in old:
                ops.append(["r", [*path, key], value])
            else:
                was = old[key]
                if not same(was, value):
                    _diff(was, value, [*path, key], ops)
        for key in old:
            if key not in new:
                ops.append(["d", [*path, key]])
        return
    if isinstance(old, list) and isinstance(new, list):
        n, m = len(old), len(new)
        start = min(n, m)  # the common beginning: all of the shorter list, as when items were appended ...
        if not same(old[:start], new[:start]):  # ... or item by item
            start = 0
            while start < n and start < m and same(old[start], new[start]):
                start += 1
        end = min(n, m) - start  # the common end, likewise
        if end and not same(old[n - end:], new[m - end:]):
            end = 0
            while end < n - start and end < m - start and same(old[n - 1 - end], new[m - 1 - end]):
                end += 1
        before, after = old[start:n - end], new[start:m - end]
        if len(before) == len(after) and all(
                (isinstance(a, dict) and isinstance(b, dict)) or (isinstance(a, list) and isinstance(b, list))
                for a, b in zip(before, after, strict=True)):
            for i, (a, b) in enumerate(zip(before, after, strict=True)):
                if not same(a, b):
                    _diff(a, b, [*path, start + i], ops)
            return
        ops.append(["s", path, start, len(before), after])
        return
    ops.append(["r", path, new])


def patched(value: Json, ops: Sequence[Op]) -> Json:
    """``value`` with the operations ``ops`` applied, in order; ``value`` itself is left as it was.

    Only the objects and lists on the operations' paths are copied: the
    result shares everything else with ``value``. Raises :class:`PatchError`
    when an operation does not fit the value.
    """
    for op in ops:
        if not isinstance(op, list) or len(op) < 2 or not isinstance(op[1], list):
            raise PatchError(f"not an operation: {op!r}")
        kind, path = op[0], op[1]
        arity = {"r": 3, "d": 2, "s": 5}.get(kind)
        if arity is None or len(op) != arity:
            raise PatchError(f"not an operation: {op!r}")
        if kind == "r" and not path:
            value = op[2]
            continue
        if kind == "d" and not path:
            raise PatchError("a delete needs a path")
        value = _copied(value, path, op)
    return value


def _copied(value: Json, path: list[Any], op: Op) -> Json:
    """``value`` with ``op`` applied at ``path`` (non-empty for ``r`` and ``d``), copying along the way."""
    top = _shallow(value, op)
    node = top
    last = len(path) if op[0] == "s" else len(path) - 1
    for step in path[:last]:
        child = _shallow(_get(node, step, op), op)
        node[step] = child
        node = child
    if op[0] == "s":
        index, count, items = op[2], op[3], op[4]
        if not (isinstance(node, list) and type(index) is int and type(count) is int and isinstance(items, list)
                and index >= 0 and count >= 0 and index + count <= len(node)):
            raise PatchError(f"a splice that does not fit: {op!r}")
        node[index:index + count] = items
        return top
    key: Any = path[-1]
    if op[0] == "d":
        if not isinstance(node, dict) or key not in node:
            raise PatchError(f"nothing to delete at {path!r}")
        del node[key]
    elif _settable(node, key):
        node[key] = op[2]
    else:
        raise PatchError(f"nothing to replace at {path!r}")
    return top


def _settable(node: Any, key: Any) -> bool:
    """Whether ``node[key] = ...`` replaces (or adds) an object's key or replaces an item of a list."""
    if isinstance(node, dict):
        return isinstance(key, str)
    return isinstance(node, list) and type(key) is int and 0 <= key < len(node)


def _shallow(value: Json, op: Op) -> Any:
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return list(value)
    raise PatchError(f"the path of {op!r} goes through a value that is neither an object nor a list")


def _get(node: Any, key: Any, op: Op) -> Json:
    if isinstance(node, dict) and isinstance(key, str) and key in node:
        return node[key]
    if isinstance(node, list) and type(key) is int and 0 <= key < len(node):
        return node[key]
    raise PatchError(f"the path of {op!r} is not in the value")


class Shown:
    """What one connection was last shown of a position: its state fields, as the next delta's base.

    ``state`` holds ``view``, ``undo``, ``redo``, ``clock`` and ``outcome`` as
    wire values; ``legal`` and ``legal_text`` are the JSON texts of those
    lists; ``rest``, where given, the JSON texts of the state's fields other
    than the view (each ``dumps`` of its value), in the state's order; where
    it has ``legal`` and ``legal_text`` too (last, and the same texts), it is
    taken as it is, not copied. A connection keeps one (the
    last it was sent); connections of one seat and language that were sent the
    same message share it.
    """

    __slots__ = ("_members", "_parts", "_rest", "_texts", "grown", "legal", "legal_text", "since", "state")

    def __init__(self, state: dict[str, Json], legal: str, legal_text: str, texts: dict[str, str] | None = None,
                 grown: dict[str, tuple[Json, int, str]] | None = None, rest: dict[str, str] | None = None,
                 since: tuple[dict[str, str], list[str]] | None = None) -> None:
        self.state = state
        #: where ``texts`` is a copy of another view's texts with a few fields set: that view's texts and the names
        #: of those fields (:attr:`meeple.server.views.Encoded.since`); a delta from it looks at those alone
        self.since = since
        self.legal = legal
        self.legal_text = legal_text
        #: the view's fields' JSON texts where they are known already (meeple.server.views)
        self._texts = texts
        self._rest = rest
        #: the view's fields that extend a list shown before: (that list's wire value, its length, the items' text)
        self.grown = grown or {}
        self._parts: tuple[dict[str, str] | None, dict[str, str]] | None = None
        self._members = ""

    def parts(self) -> tuple[dict[str, str] | None, dict[str, str]]:
        """The JSON texts of the view's fields (None if the view is not an object) and of the other fields.

        Each is encoded once, when first asked for: the whole message is made
        of them (:attr:`members`), and a delta compares them before it looks
        inside any (two values of the same text are the same JSON value).
        """
        if self._parts is None:
            view = self.state["view"]
            fields = self._texts
            if fields is None and isinstance(view, dict):
                fields = {k: dumps(v) for k, v in view.items()}
            rest = self._rest
            if rest is None:
                rest = {k: dumps(v) for k, v in self.state.items() if k != "view"}
            elif "legal" not in rest:
                rest = dict(rest)
            else:  # the texts of every field, the legal lists' last (Table.shown): taken as they are
                self._parts = (fields, rest)
                return self._parts
            rest["legal"], rest["legal_text"] = self.legal, self.legal_text
            self._parts = (fields, rest)
        return self._parts

    @property
    def members(self) -> str:
        """The JSON text of the whole position's fields, as members of a message (``"view":{...},...``)."""
        if not self._members:
            fields, rest = self.parts()
            view_text = dumps(self.state["view"]) if fields is None else \
                "{" + ",".join(f"{_key(k)}:{t}" for k, t in fields.items()) + "}"
            self._members = f'"view":{view_text}' + "".join(f',"{k}":{t}' for k, t in rest.items())
        return self._members

    def size(self) -> int:
        """The length of :attr:`members`, without building it where it is not built yet."""
        if self._members:
            return len(self._members)
        fields, rest = self.parts()
        if fields is None:
            return len(self.members)
        # "view":{ + "key":text, each but the last without its comma + } + each ,"name":text; what does not
        # depend on the texts is the same for every view of the same field names (kept by them)
        names = (*fields, None, *rest)
        frame = _frames.get(names)
        if frame is None:
            if len(_frames) >= KEYS_KEPT:
                _frames.clear()
            frame = _frames[names] = (8 + sum(map(len, map(_key, fields))) + (2 * len(fields) or 1)
                                      + sum(map(len, rest)) + 4 * len(rest))
        return frame + sum(map(len, fields.values())) + sum(map(len, rest.values()))

    def longer_than(self, n: int) -> bool:
        """Whether :attr:`members` is longer than ``n`` characters: ``size() > n``, mostly told from the lengths
        of the fields' texts alone (a part of it), without the names'."""
        if not self._members:
            fields, rest = self.parts()
            if fields is not None and sum(map(len, fields.values())) + sum(map(len, rest.values())) > n:
                return True
        return self.size() > n


#: A field of a view whose JSON text is at most this long is replaced whole when it changes, not looked into.
SMALL = 64


def delta_text(old: Shown, new: Shown) -> str:
    """The JSON text of the patch from ``old`` to ``new``.

    The position fields are patched as one object: ``{"view", "legal",
    "legal_text", "undo", "redo", "clock", "outcome"}``. A field of the view
    whose text changed is patched inside (:func:`diff`), or replaced whole if
    its text is :data:`SMALL`; one that extends the list ``old`` holds
    (:attr:`Shown.grown`) is the splice that appends the new items, with no
    comparison. The other fields, small or (the legal lists) seldom alike,
    are replaced whole when they differ.

    >>> a = Shown({"view": {"bids": list(range(30)), "turn": 0}, "undo": None}, "[]", "[]")
    >>> b = Shown({"view": {"bids": list(range(31)), "turn": 1}, "undo": None}, '[{"type":"call"}]', '["call"]')
    >>> delta_text(a, b)
    '[["s",["view","bids"],30,0,[30]],["r",["view","turn"],1],["r",["legal"],[{"type":"call"}]],["r",["legal_text"],["call"]]]'
    """
    old_fields, old_rest = old.parts()
    new_fields, new_rest = new.parts()
    inside: list[str] = []  # the patches inside fields, first
    raw: list[str] = []
    if old_fields is None or new_fields is None:
        ops = diff(old.state["view"], new.state["view"], ["view"])
        if ops:
            inside.append(dumps(ops)[1:-1])
    else:
        old_view, new_view = old.state["view"], new.state["view"]
        assert isinstance(old_view, dict) and isinstance(new_view, dict)
        grown = new.grown
        since = new.since
        alike = since is not None and since[0] is old_fields  # the other fields' texts are old's very strings
        for key in since[1] if alike else new_fields:  # type: ignore[index]
            text = new_fields[key]
            was = old_fields.get(key)
            if was == text:
                continue
            if was is None or len(text) <= SMALL:  # a new field, or a small one: replaced whole
                raw.append(f'["r",["view",{_key(key)}],{text}]')
                continue
            appended = grown.get(key)
            if appended is not None and appended[0] is old_view[key]:  # the items appended to the list it holds
                inside.append(f'["s",["view",{_key(key)}],{appended[1]},0,{appended[2]}]')
                continue
            ops = []
            _diff(old_view[key], new_view[key], ["view", key], ops)
            if ops:
                inside.append(dumps(ops)[1:-1])
        if not alike:  # else both have the same fields
            raw.extend(f'["d",["view",{_key(key)}]]' for key in old_fields if key not in new_fields)
    for name, text in new_rest.items():
        was = old_rest.get(name)
        if was is not text and was != text:  # mostly the very texts kept from one position to the next
            raw.append(f'["r",["{name}"],{text}]')
    return f"[{','.join(inside + raw)}]"


#: The JSON text of object keys met so far (the field names of views, mostly); emptied when it holds this many.
KEYS_KEPT = 4096
_keys = Kept(KEYS_KEPT)
_keys_seen = _keys.lookup
#: The part of :meth:`Shown.size` that the names of a view's fields and of the other fields make, by those names
#: (the view's, None, the others'); emptied when it holds KEYS_KEPT.
_frames: dict[tuple[str | None, ...], int] = {}


def _key(key: str) -> str:
    """An object key as JSON text."""
    text = _keys_seen(key)  # (Kept.text, without a call more for every key of every delta)
    return _keys.text(key, key) if text is None else text
