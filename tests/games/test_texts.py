"""The texts a player reads (``Game.text``) exist in English and Russian for every command and event met in play.

Random matches of every bundled game (each variant) are played; every legal
command offered and every record, as each seat saw it, is told in both
languages. The Russian texts must hold no English word (every message id met
has a translation) and the English ones no Cyrillic.
"""

from __future__ import annotations

import importlib
import random
import re

import pytest

from meeple import Match
from meeple.engine import seen_by
from meeple.engine.text import Texts, language

GAMES = [("saboteur", 4, {}), ("saboteur", 5, {"edition": "deluxe"}), ("kings", 3, {}), ("gophers", 3, {}),
         ("gophers", 2, {"variant": "beginner"}), ("mordred", 3, {}), ("mordred", 4, {"warriors": 14})]
#: Latin words a Russian text may hold: the Money table's rows and Gophers' nothing else.
LATIN = re.compile(r"[A-Za-z]{2,}|\b[D-Zd-z]\b")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def _texts(game: str) -> Texts:
    texts: Texts = importlib.import_module(f"meeple.games.{game}.text").TEXTS
    return texts


def _told(game: str, seats: int, options: dict[str, object], seed: int) -> list[tuple[str, str]]:
    """Every (English, Russian) text of a random match: legal commands of the seat to act, records seen by each seat."""
    m = Match.start(game, seats=seats, seed=seed, options=options)
    rng = random.Random(seed)
    said: list[tuple[str, str]] = []
    for _ in range(400):
        if m.is_over:
            break
        seat = m.to_act[0]
        legal = list(m.legal(seat))
        said += [(m.game.text(c, None, "en"), m.game.text(c, None, "ru")) for c in legal[:30]]
        m.play(seat, rng.choice(legal))
    for seat in [None, *range(seats)]:
        for r in m.records_for(seat):
            said.append((m.game.text(r.command, r.events, "en"), m.game.text(r.command, r.events, "ru")))
    return said


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
def test_every_text_met_in_play_is_in_russian(game: str, seats: int, options: dict[str, object]) -> None:
    said = [pair for seed in (1, 2) for pair in _told(game, seats, options, seed)]
    assert len(said) > 50
    assert _texts(game).missing("ru") == []
    english = [en for en, _ in said if CYRILLIC.search(en)]
    russian = [ru for _, ru in said if LATIN.search(ru.replace("£", ""))]
    assert not english, english[:5]
    assert not russian, russian[:5]
    assert all(en != ru for en, ru in said if re.search("[a-z]{3}", en))


def test_a_record_is_told_as_a_sentence_not_its_tags() -> None:
    m = Match.start("saboteur", seats=4, seed=3)
    m.play(m.to_act[0], next(c for c in m.legal(m.to_act[0]) if type(c).__name__ == "Discard"))
    sentence = m.game.text(m.records[-1].command, m.records[-1].events, "en")
    assert sentence == "passed, discarding a card face down"
    assert "turn_ended" not in sentence and "drawn" not in sentence


def test_a_record_tells_a_seat_only_what_it_saw() -> None:
    from meeple.games.saboteur.commands import PeekGoal

    for seed in range(40):
        m = Match.start("saboteur", seats=4, seed=seed)
        for _ in range(60):
            seat = m.to_act[0]
            peek = [c for c in m.legal(seat) if isinstance(c, PeekGoal)]
            if peek:
                m.play(seat, peek[0])
                record = m.records[-1]
                own = seen_by(m.game, record, seat)
                other = seen_by(m.game, record, (seat + 1) % 4)
                mine = m.game.text(own.command, own.events, "en")
                theirs = m.game.text(other.command, other.events, "en")
                assert re.search("goal: (gold|coal)", mine)
                assert "gold" not in theirs and "coal" not in theirs
                return
            m.play(seat, m.legal(seat)[-1])
    pytest.fail("no map was played")


def test_language_tags_choose_english_or_russian() -> None:
    assert [language(t) for t in ("ru", "RU-ru", "ru_RU", "en-GB", "uk", "", None)] == \
        ["ru", "ru", "ru", "en", "en", "en", "en"]
