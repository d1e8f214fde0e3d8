"""Why a match ended, in English and Russian (``Game.outcome_text``): every reason the rules give, in every game.

Finished random matches of every bundled game and variant: the English text
is the rules' reason itself, the Russian one holds no English word (each of
the rules' reasons is one of the game's ``OUTCOMES`` message ids, with a
Russian text). A sentence no id matches stays as it is.
"""

from __future__ import annotations

import importlib
import random
import re

import pytest

from meeple import Match
from meeple.engine import Outcome
from meeple.engine.text import Texts, reword

GAMES = [("saboteur", 3, {}), ("saboteur", 5, {"edition": "deluxe"}), ("kings", 2, {}), ("kings", 3, {}),
         ("gophers", 3, {}), ("gophers", 2, {"variant": "beginner"}), ("mordred", 3, {}), ("mordred", 4, {"warriors": 14})]
LATIN = re.compile(r"[A-Za-z]{2,}")


def _finished(game: str, seats: int, options: dict[str, object], seed: int) -> Match:
    m = Match.start(game, seats=seats, seed=seed, options=options)
    rng = random.Random(seed)
    while not m.is_over:
        seat = m.to_act[0]
        m.play(seat, rng.choice(list(m.legal(seat))))
    return m


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
def test_every_reason_a_match_ends_with_is_said_in_russian(game: str, seats: int, options: dict[str, object]) -> None:
    said = []
    for seed in range(6):
        m = _finished(game, seats, options, seed)
        outcome = m.outcome
        assert outcome is not None
        assert m.game.outcome_text(outcome, "en") == outcome.reason
        said.append((outcome.reason, m.game.outcome_text(outcome, "ru")))
    assert [ru for _, ru in said if LATIN.search(ru)] == []
    assert all(re.findall(r"\d+", en) == re.findall(r"\d+", ru) for en, ru in said), said  # seats, counts kept


def test_a_reason_is_matched_to_its_message_id_and_its_values_said_too() -> None:
    kings = importlib.import_module("meeple.games.kings.text")
    tie = Outcome((0, 2), (9, 4, 9), "the deck ran out; seats 0, 2 tie on 9 points and developed mines")
    assert kings.outcome_text(tie, "ru") == "колода кончилась; у мест 0, 2 поровну очков (9) и разработанных шахт"
    saboteur = importlib.import_module("meeple.games.saboteur.text")
    shared = Outcome((0, 1), (5, 5, 2), "after three rounds seat 0, seat 1 share the most gold (5 nuggets)")
    assert saboteur.outcome_text(shared, "ru") == "после трёх раундов больше всех золота поровну у: место 0, место 1 (самородков: 5)"
    mordred = importlib.import_module("meeple.games.mordred.text")
    why = ("Mordred was beaten in his castle; King Arthur wins (3 warriors against 9 buildings); "
           "seat 1 wins with the most money")
    assert mordred.outcome_text(Outcome((1,), (4, 4, 2), why), "ru") == (
        "Мордред побеждён в своём замке; побеждает король Артур (воинов: 3, построек: 9); побеждает место 1: больше всех денег")
    texts = Texts({"ru": {"{seat} won": "{seat} победило", "seat {n}": "место {n}"}})
    assert reword(texts, "ru", "a draw", ["{seat} won"]) == "a draw"  # no id matches: as it is
    assert reword(texts, "en", "seat 1 won", ["{seat} won"]) == "seat 1 won"
    assert reword(texts, "ru", "seat 1 won", ["{seat} won"]) == "место 1 победило"
    assert texts.used == {"{seat} won", "seat {n}"}  # the values are not ids: Texts.missing stays honest
