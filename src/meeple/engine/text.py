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

import functools
import re
from collections.abc import Callable, Mapping, Sequence
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


def told(command: Any, events: Sequence[Any] | None, lang: str, offer: Callable[[Any, str], str],
         tell: Callable[[Any, str], str | None]) -> str:
    """A legal command as ``offer`` words it (``events`` None), or a record as the clauses ``tell`` makes of its events.

    Events ``tell`` leaves out (None or empty: bookkeeping nobody needs to
    read) are skipped; a record none of whose events is told reads as its
    command's offer.

    >>> told("bid", ["rolled", "passed"], "en", lambda c, lang: f"say {c}", lambda e, lang: e if e != "passed" else None)
    'rolled'
    >>> told("bid", None, "en", lambda c, lang: f"say {c}", lambda e, lang: e)
    'say bid'
    """
    if events is None:
        return offer(command, lang)
    clauses = [c for c in (tell(e, lang) for e in events) if c]
    return "; ".join(clauses) if clauses else offer(command, lang)


_SEAT = re.compile(r"\bseat (-?\d+)\b")


@functools.cache
def _pattern(msgid: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", msgid)
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts)))


def reword(texts: Texts, lang: str, sentence: str, msgids: Sequence[str]) -> str:
    """``sentence``, an English sentence the rules built from one of ``msgids``, in ``lang``.

    The first message id whose text, its placeholders filled, is the whole
    sentence gives the words; each placeholder's value is said in ``lang``
    too (the catalog's word for it, each ``seat N`` in it as the catalog
    says ``seat {n}``; numbers as they are). A sentence none matches stays
    as it is.

    >>> _ = Texts({"ru": {"{seat} wins with {n} {what}": "{seat} побеждает: {n} {what}", "gold": "золото",
    ...                   "seat {n}": "место {n}"}})
    >>> reword(_, "ru", "seat 2 wins with 7 gold", ["{seat} wins with {n} {what}"])
    'место 2 побеждает: 7 золото'
    >>> reword(_, "ru", "a draw", ["{seat} wins with {n} {what}"])
    'a draw'
    """
    if lang == LANGUAGES[0]:
        return sentence
    for msgid in msgids:
        found = _pattern(msgid).fullmatch(sentence)
        if found is None:
            continue
        table = texts.catalogs.get(lang, {})  # a value is a word of the catalog or not: not an id to count as used
        values = {name: _SEAT.sub(lambda m: texts(lang, "seat {n}", n=m.group(1)), table.get(value, value))
                  for name, value in found.groupdict().items()}
        return texts(lang, msgid, **values)
    return sentence




def rewording(texts: Texts, msgids: Sequence[str]) -> Callable[[Any, str], str]:
    """A game's ``outcome_text``: why a match ended (its outcome's English ``reason``, which the rules built from
    one of ``msgids``) in a language, by :func:`reword`.

    >>> from types import SimpleNamespace
    >>> said = rewording(Texts({"ru": {"{seat} won": "{seat} победило", "seat {n}": "место {n}"}}), ["{seat} won"])
    >>> said(SimpleNamespace(reason="seat 1 won"), "ru")
    'место 1 победило'
    """
    def outcome_text(outcome: Any, lang: str = "en") -> str:
        return reword(texts, lang, outcome.reason, msgids)

    return outcome_text

__all__ = ["LANGUAGES", "Texts", "language", "reword", "rewording", "told"]
