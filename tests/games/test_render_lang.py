"""The text picture of the table (``Game.render``) in Russian: every bundled game, every seat, all through a match.

Random matches of every bundled game and variant are drawn every few
records for each seat and the referee, in Russian: no English word is left
(the symbols the key explains aside: Mordred's area codes), every line the
picture's catalog used has a Russian text, and a Russian picture of
Saboteur still fits its terminal width. In English the picture is the one
the game always drew (``Match.render`` without a language).
"""

from __future__ import annotations

import importlib
import random
import re

import pytest

from meeple import Match
from meeple.engine.text import Texts
from meeple.games.mordred.data import AREAS
from meeple.games.saboteur.render import WIDTH

GAMES = [("saboteur", 4, {}), ("saboteur", 5, {"edition": "deluxe"}), ("kings", 3, {}), ("gophers", 3, {}),
         ("gophers", 2, {"variant": "beginner"}), ("gophers", 3, {"variant": "advanced"}), ("mordred", 3, {})]
#: An English word: three Latin letters or more (card codes such as A10, squads such as dw9 are symbols).
WORD = re.compile(r"[A-Za-z]{3,}")
#: Symbols a Russian picture keeps: Mordred's area codes, as the map data and the key name them.
SYMBOLS = set(AREAS)


def _pictures(game: str, seats: int, options: dict[str, object], seed: int) -> list[tuple[str, str, str]]:
    """(default, English, Russian) pictures of a random match every five records, for the referee and each seat."""
    m = Match.start(game, seats=seats, seed=seed, options=options)
    rng = random.Random(seed)
    out = []
    while True:
        if m.cursor % 5 == 0 or m.is_over:
            out += [(m.render(seat), m.render(seat, "en"), m.render(seat, "ru")) for seat in (None, *range(seats))]
        if m.is_over:
            return out
        seat = m.to_act[0]
        m.play(seat, rng.choice(list(m.legal(seat))))


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
def test_the_russian_picture_holds_no_english_word(game: str, seats: int, options: dict[str, object]) -> None:
    pictures = [p for seed in (1, 2) for p in _pictures(game, seats, options, seed)]
    assert len(pictures) > 20
    assert all(default == english for default, english, _ in pictures)
    left = sorted({w for _, _, ru in pictures for w in WORD.findall(ru)} - SYMBOLS)
    assert left == []
    assert all(re.search("[А-Яа-яЁё]", ru) for _, _, ru in pictures)
    picture: Texts = importlib.import_module(f"meeple.games.{game}.text").PICTURE
    assert picture.missing("ru") == []
    if game == "saboteur":
        assert max(len(line) for _, _, ru in pictures for line in ru.splitlines()) <= WIDTH


def test_a_game_whose_render_takes_no_language_draws_its_one_picture() -> None:
    m = Match.start("liars-dice", seats=2, seed=1)
    assert m.render(0, "ru") == m.render(0)
