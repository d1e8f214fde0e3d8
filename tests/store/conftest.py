"""Fixtures for the store tests: finished and long liars-dice matches."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from meeple import Match


def play_minimal(match: Match, commands: int) -> Match:
    """Play the lowest legal bid ``commands`` times (or until the match ends)."""
    for _ in range(commands):
        if match.is_over:
            break
        seat = match.to_act[0]
        match.play(seat, match.legal(seat)[0])
    return match


def call_liar(match: Match) -> Match:
    """End the match: the seat to act calls the last bid."""
    seat = match.to_act[0]
    match.play(seat, match.legal(seat)[-1])
    return match


LONG = {"dice": 5, "sides": 12}


@pytest.fixture
def minimal() -> Callable[[Match, int], Match]:
    """``play_minimal(match, n)``: n lowest bids."""
    return play_minimal


@pytest.fixture
def finish() -> Callable[[Match], Match]:
    """``call_liar(match)``: end the match."""
    return call_liar


@pytest.fixture
def long_options() -> dict[str, Any]:
    """Options under which a match can run to hundreds of records."""
    return dict(LONG)
