"""Older rules versions: how the library reads, verifies and continues a log of an earlier version.

A game declares in :attr:`GameInfo.older_rules <meeple.engine.game.GameInfo.older_rules>`
the older versions it still plays, each as an
:class:`~meeple.engine.game.OlderRules`: the options that reproduce it under
today's rules, and the message types it did not have. A match of such a
version plays today's rules with those options; what it writes (the header's
version, options and type table, the record bodies and the state
checkpoints) is what that version wrote, so its old logs verify and re-save
byte for byte, and commands appended to them continue under the old rules.
Any other version is refused by name (:func:`refusal`).

>>> import meeple
>>> info = meeple.get_game("kings").info
>>> options_map(info, 2, {"developed_cards": "camp"})
{'developed_cards': 'camp', 'end': 'card'}
>>> refusal(info, 99)
'the log was written for kings rules version 99; this library has version 3 and plays version 2 too'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from .codec import Prim, digest, options_to_map, pack, unstructure
from .errors import ConfigError
from .game import Game, GameInfo
from .log import state_checkpoint

__all__ = ["checkpoint_of", "header_options", "options_map", "refusal"]


def refusal(info: GameInfo, version: int, lead: str = "the log was written for") -> str:
    """Why rules version ``version`` cannot be played (of a log, unless ``lead`` says otherwise), naming the versions played."""
    older = sorted(o.version for o in info.older_rules)
    also = ""
    if older:
        also = f" and plays version{'s' if len(older) > 1 else ''} {', '.join(map(str, older))} too"
    return (f"{lead} {info.id} rules version {version}; "
            f"this library has version {info.rules_version}{also}")


def options_map(info: GameInfo, version: int, raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options of a match of ``version`` as today's rules read them: ``raw`` plus the version's fixed options.

    ``raw`` is what that version's header (or its caller) names; an option the
    version did not have is refused (:class:`ConfigError`).
    """
    out = dict(raw or {})
    older = info.older(version)
    if older is None or version == info.rules_version:
        return out
    for name, value in older.options:
        if name in out:
            raise ConfigError(f"{info.id}: rules version {version} has no option {name!r} (it plays as {value!r})")
        out[name] = value
    return out


def header_options(info: GameInfo, version: int, options: Any) -> dict[str, Prim]:
    """The options map a header of ``version`` writes: every option but those the version fixes."""
    out = options_to_map(options)
    older = info.older(version)
    if older is not None and version != info.rules_version:
        for name, _ in older.options:
            out.pop(name, None)
    return out


_checkpoints: dict[tuple[int, int], tuple[Game[Any, Any], Callable[[Any], bytes]]] = {}


def checkpoint_of(game: Game[Any, Any], version: int) -> Callable[[Any], bytes]:
    """The state checkpoint function of ``version`` of ``game`` (today's: :func:`~.log.state_checkpoint`).

    For an older version: the hash of the state's canonical form with the
    fixed options left out of its ``options`` field, which is the form that
    version's states had.
    """
    older = game.info.older(version)
    if older is None or version == game.info.rules_version or not older.options:
        return state_checkpoint
    found = _checkpoints.get((id(game), version))
    if found is not None and found[0] is game:
        return found[1]
    state_fields = [f.name for f in attrs.fields(game.state_type)]
    at = state_fields.index("options")
    keep = [f.name not in older.fixed for f in attrs.fields(game.options_type)]

    def checkpoint(state: Any) -> bytes:
        prim = unstructure(state)
        prim[at] = [v for v, k in zip(prim[at], keep) if k]
        return digest(pack(prim))

    _checkpoints[(id(game), version)] = (game, checkpoint)
    return checkpoint
