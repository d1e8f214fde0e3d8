"""The printed material of the bundled games as JSON, for their boards: card faces, the burrow book, the map.

Views name cards by id and areas by code; a board draws them from these
tables. Everything here is printed on the box's cards and boards, the same
for every match and every seat: no catalog holds a fact of a match.

>>> saboteur()["kinds"][0]["name"]
'crossroads'
>>> kings()["cards"][79]["people"]
'giants'
>>> words("saboteur", "ru")["crossroads"], words("saboteur", "en")
('перекрёсток', {})
>>> about("saboteur", "en")["map"]
'Map: look at one face-down goal card in secret.'
>>> about("saboteur", "ru")["map"]
'Карта: тайно посмотрите одну закрытую карту-цель.'
"""

from __future__ import annotations

import importlib
from typing import Any

from ..engine.text import language
from ..engine.wire import to_wire

Json = Any


def saboteur() -> Json:
    """Saboteur's card kinds (edges as N=1, E=2, S=4, W=8 bit masks), goals, start and goal places."""
    from ..games.saboteur import data

    return {
        "kinds": to_wire(data.KINDS),
        "goal_edges": {k.value: e for k, e in data.GOAL_EDGES.items()},
        "goal_positions": [list(p) for p in data.GOAL_POSITIONS],
        "start": list(data.START_POSITION),
        "start_edges": data.START_EDGES,
        "rounds": data.ROUNDS,
    }


def kings() -> Json:
    """Underground Kings' 80 double-sided cards (squad side and mine side) and the peoples."""
    from ..games.kings import data

    return {
        "cards": to_wire(data.CARDS),
        "peoples": [p.value for p in data.PEOPLES],
        "hand_size": data.HAND_SIZE,
    }


def gophers() -> Json:
    """The burrow book of Gophers: its grid, and every spread's tunnels and hole labels."""
    from ..games.gophers import data

    return {
        "rows": data.ROWS,
        "cols": data.COLS,
        "spreads": [
            {"number": s.number, "tunnels": sorted([a, b] for a, b in s.tunnels), "labels": to_wire(s.labels)}
            for s in data.SPREADS
        ],
    }


def mordred() -> Json:
    """Mordred's map of Wales, the Money, Building and Combat tables."""
    from ..games.mordred import data

    return {
        "areas": to_wire(tuple(data.AREAS.values())),
        "castle_area": data.CASTLE_AREA,
        "money": {row.value: to_wire(cells) for row, cells in data.MONEY.items()},
        "buildings": {kind.value: to_wire(spec) for kind, spec in data.BUILDINGS.items()},
        "siege": [[kind.value, terrain.value, roll] for (kind, terrain), roll in data.SIEGE.items()],
        "attack": {kind.value: roll for kind, roll in data.ATTACK.items()},
        "assault": data.ASSAULT,
        "attack_cost": data.ATTACK_COST,
        "surcharge": data.SURCHARGE,
    }


def _texts(game: str) -> Any:
    try:
        return importlib.import_module(f"meeple.games.{game.replace('-', '_')}.text")
    except ImportError:
        return None


def words(game: str, lang: str) -> dict[str, str]:
    """A bundled game's own words in ``lang`` (card, people, place and role names): its text catalog less its sentences.

    Keyed by the English word as the catalog and the views spell it
    (``"dead-curve-a"``, ``"orcs"``, ``"Holyhead"``); empty for English, for a
    language the game does not speak, and for a game without a text catalog.
    """
    lang = language(lang)
    module = _texts(game)
    texts = getattr(module, "TEXTS", None)
    if texts is None:
        return {}
    sentences = set(getattr(module, "ABOUT", {}).values())
    table: dict[str, str] = texts.catalogs.get(lang, {})
    return {k: v for k, v in table.items() if "{" not in k and k not in sentences}


def about(game: str, lang: str) -> dict[str, str]:
    """What each card, square or piece of a bundled game does, one sentence each in ``lang``: the board's zoom.

    Keyed by the name the game's board knows a thing by (a card kind, a
    hole's label, ``"start"``); the sentences are the game's text catalog's
    ``ABOUT`` (English) and their translations in the catalog, so they are
    kept in one place with the game's other words. Empty for a game
    without them.
    """
    lang = language(lang)
    module = _texts(game)
    sentences: dict[str, str] = getattr(module, "ABOUT", {})
    if not sentences:
        return {}
    return {k: module.TEXTS.word(lang, v) for k, v in sentences.items()}
