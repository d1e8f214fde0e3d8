"""The declared facts of Mordred (:class:`~meeple.engine.GameInfo`) and the options of its variants."""

from __future__ import annotations

from collections.abc import Mapping

from meeple.engine import GameInfo, OlderRules

#: The options each variant selects (the first is the plain game).
VARIANTS: Mapping[str, Mapping[str, int]] = {
    "standard": {},
    "short": {"warriors": 14, "road_forward": 10},
}

INFO = GameInfo(
    id="mordred",
    title="Mordred",
    rules_version=3,
    min_seats=3,
    max_seats=4,
    variants=tuple(VARIANTS),
    has_chance=True,
    hidden_information=False,
    summary="Build in Wales, hold back Mordred's warriors, and help him as little as you can.",
    # version 3 added option siege (default "others"); version 2 let a warrior besiege any building
    older_rules=(OlderRules(2, {"siege": "any"},
                            changes="a warrior besieges only other players' buildings (option siege)"),),
)
