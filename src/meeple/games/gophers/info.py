"""The declared facts of Gophers (:class:`~meeple.engine.GameInfo`), read before any of its rules run."""

from __future__ import annotations

from meeple.engine import GameInfo

from .options import Variant

INFO = GameInfo(
    id="gophers",
    title="Gophers (Проныры)",
    rules_version=3,
    min_seats=2,
    max_seats=4,
    variants=tuple(v.value for v in Variant),
    summary="Ground squirrels walk a six-spread burrow book and collect supplies with signed card sums.",
)
