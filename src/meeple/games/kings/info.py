"""The declared facts of Underground Kings (:class:`~meeple.engine.GameInfo`) and the options of its variants."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.engine import GameInfo, OlderRules

#: The named variants and the options that select them (the first is the plain game).
VARIANTS: Mapping[str, Mapping[str, Any]] = {
    "standard": {},
    "discard": {"developed_cards": "discard"},
}

INFO = GameInfo(
    id="kings",
    title="Underground Kings",
    rules_version=3,
    min_seats=2,
    max_seats=4,
    variants=tuple(VARIANTS),
    summary="Send squads to capture mines, then work them with foreign prisoners.",
    # version 3 added option end (its "card" is version 2's only end) and the TurnEnded event it needs
    older_rules=(OlderRules(2, {"end": "card"}, types=("turn_ended",),
                            changes="option end ('round' finishes the round after the deck runs out)"),),
)
