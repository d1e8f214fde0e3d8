"""The declared facts of Gophers (:class:`~meeple.engine.GameInfo`), read before any of its rules run."""

from __future__ import annotations

from meeple.engine import GameInfo, OlderRules

from .options import Variant

INFO = GameInfo(
    id="gophers",
    title="Gophers (Проныры)",
    rules_version=3,
    min_seats=2,
    max_seats=4,
    variants=tuple(v.value for v in Variant),
    summary="Ground squirrels walk a six-spread burrow book and collect supplies with signed card sums.",
    # version 3 added options bank (default "full": all 60 cards) and end (default "round"); version 2
    # played the 48-card bank and checked the end after every turn
    older_rules=(OlderRules(2, {"bank": "harder", "end": "turn"},
                            changes="the full 60-card beginner bank and the end checked after the last seat's turn"),),
)
