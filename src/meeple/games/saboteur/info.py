"""Saboteur's declared facts (:class:`~meeple.engine.GameInfo`), read before any of its rules run."""

from __future__ import annotations

from meeple.engine import GameInfo

INFO = GameInfo(
    id="saboteur",
    title="Saboteur",
    rules_version=2,
    min_seats=2,
    max_seats=12,
    variants=("standard", "deluxe"),
    variant_seats=(("standard", 3, 10), ("deluxe", 2, 12)),
    summary="Dwarves dig for gold; hidden saboteurs dig against them. Base game 3-10, Deluxe 2-12.",
)
