"""JSON texts kept because their values recur: object keys of views, undo answers, the seats to act.

A speed structure of the server, apart from the code that builds messages:
each :class:`Kept` encodes a value once under a key that names it (the same
key only for values of the same text) and forgets every text at once when
it holds its limit, so a stream of new values costs memory up to that limit
and no more. Engine threads share them: a text read while another thread
empties the table is encoded again, never wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from ..engine.wire import Json
from .messages import dumps


class Kept:
    """The JSON texts of recurring values by key, at most ``limit`` of them."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._texts: dict[Hashable, str] = {}
        #: The text kept under a key, or None: the table's own ``get`` (no call of Python's more; the table is
        #: emptied in place, never replaced)
        self.lookup: Callable[[Hashable], str | None] = self._texts.get

    def text(self, key: Hashable, value: Json) -> str:
        """The JSON text of ``value``, which ``key`` names: encoded the first time, kept after."""
        text = self._texts.get(key)
        if text is None:
            if len(self._texts) >= self.limit:
                self._texts.clear()
            text = self._texts[key] = dumps(value)
        return text

    def built(self, key: Hashable, build: Callable[[], str]) -> str:
        """The text ``build()`` makes, which ``key`` names wholly (every input of it): built the first time."""
        text = self._texts.get(key)
        if text is None:
            if len(self._texts) >= self.limit:
                self._texts.clear()
            text = self._texts[key] = build()
        return text

    def __len__(self) -> int:
        return len(self._texts)
