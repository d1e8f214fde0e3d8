"""Texts a player reads, in English and Russian: a game's message catalog, looked up gettext-style.

A game writes its sentences in English, with ``{name}`` placeholders; the
English text is the message id, and each other language maps ids to its own
text. A missing translation falls back to the English text, so a new
sentence is never lost, only untranslated (the games' tests check that every
id they use has a Russian text).

>>> _ = Texts({"ru": {"lay {card}": "выложить {card}", "cart": "тележка"}})
>>> _("ru", "lay {card}", card=_.word("ru", "cart"))
'выложить тележка'
>>> _("en", "lay {card}", card="cart")
'lay cart'
>>> language("ru-RU"), language("de"), language(None)
('ru', 'en', 'en')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The languages the bundled games and the browser client speak; the first is the default.
LANGUAGES = ("en", "ru")


def language(tag: str | None) -> str:
    """The supported language of a language tag (``ru-RU`` -> ``ru``); English for anything else."""
    if not isinstance(tag, str):
        return LANGUAGES[0]
    primary = tag.strip().lower().replace("_", "-").split("-")[0]
    return primary if primary in LANGUAGES else LANGUAGES[0]


class Texts:
    """A message catalog: ``{language: {english id: text}}``; calling it looks up and fills a sentence."""

    def __init__(self, catalogs: Mapping[str, Mapping[str, str]]) -> None:
        self.catalogs = {lang: dict(table) for lang, table in catalogs.items()}
        #: Every id looked up so far, for the tests that check each has a translation.
        self.used: set[str] = set()

    def word(self, lang: str, msgid: str) -> str:
        """``msgid`` in ``lang`` (the id itself where there is no translation)."""
        self.used.add(msgid)
        return self.catalogs.get(lang, {}).get(msgid, msgid)

    def __call__(self, lang: str, msgid: str, /, **params: Any) -> str:
        """``msgid`` in ``lang`` with its ``{placeholders}`` filled from ``params``."""
        return self.word(lang, msgid).format(**params)

    def missing(self, lang: str) -> list[str]:
        """The ids used so far that have no text in ``lang``, sorted."""
        table = self.catalogs.get(lang, {})
        return sorted(m for m in self.used if m not in table)


__all__ = ["LANGUAGES", "Texts", "language"]
