"""A game that cannot be searched: Liar's Dice under another id, keeping the default ``Game.world``."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import liars_dice as ld
from meeple.engine import Game, registry


class BlindDice(ld.LiarsDice):
    """Liar's Dice whose worlds cannot be sampled (the default ``world``), registered as ``blind-dice``."""

    info = attrs.evolve(ld.LiarsDice.info, id="blind-dice")
    world = Game.world


@pytest.fixture
def blind_dice(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The ``blind-dice`` game, findable by id for the length of one test."""
    game = BlindDice()
    monkeypatch.setitem(registry._registered, "blind-dice", game)
    return game
