"""What a game offers before a match starts: its variants, their seat ranges, and every option.

Read from a game's declared facts (:class:`~meeple.engine.GameInfo`), its
``variant_options`` and the fields of its options class, so a third-party game
is described as fully as a bundled one. An option's help text is the
``"help"`` entry of its attrs field's metadata::

    @attrs.frozen
    class MyOptions(Options):
        dice: int = attrs.field(default=1, metadata={"help": "dice per player, 1..5"})

>>> info = describe_game("kings")
>>> [(v.name, v.min_seats, v.max_seats) for v in info.variants]
[('standard', 2, 4), ('discard', 2, 4)]
>>> opt = info.options[0]
>>> opt.name, opt.type, opt.default, opt.choices
('developed_cards', 'str', 'camp', ('camp', 'discard'))
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Mapping
from typing import Any

import attrs

from .bots import GENERIC, generic_factory, searchable
from .engine import ConfigError, Game, RandomBot, available, codec_for, get_game, readable, resolve
from .engine.codec import options_from_map

#: The metadata key of an options field that holds its help text.
HELP = "help"


@attrs.frozen
class OptionInfo:
    """One option of a game: its name, type, default, allowed values (None: any of the type) and help."""

    name: str
    type: str
    default: Any
    choices: tuple[Any, ...] | None
    help: str

    def to_json(self) -> dict[str, Any]:
        """The option as JSON-ready data (the field names of ``meeple games GAME --json``)."""
        return {"name": self.name, "type": self.type, "default": self.default,
                "choices": None if self.choices is None else list(self.choices), "help": self.help}


@attrs.frozen
class VariantInfo:
    """A variant: its name, its seat range, the options that select it and whether its matches hide anything."""

    name: str
    min_seats: int
    max_seats: int
    options: Mapping[str, Any]
    hidden_information: bool = True

    def to_json(self) -> dict[str, Any]:
        """The variant as JSON-ready data."""
        return {"name": self.name, "min_seats": self.min_seats, "max_seats": self.max_seats,
                "options": readable(dict(self.options)), "hidden_information": self.hidden_information}


@attrs.frozen
class GameDescription:
    """Everything :func:`describe_game` tells about a game."""

    id: str
    title: str
    summary: str
    rules_version: int
    min_seats: int
    max_seats: int
    has_chance: bool
    hidden_information: bool
    variants: tuple[VariantInfo, ...]
    options: tuple[OptionInfo, ...]
    bots: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The description as JSON-ready data (the field names of ``meeple games --json``)."""
        return {
            "id": self.id, "title": self.title, "summary": self.summary, "rules_version": self.rules_version,
            "min_seats": self.min_seats, "max_seats": self.max_seats, "has_chance": self.has_chance,
            "hidden_information": self.hidden_information,
            "variants": [v.to_json() for v in self.variants],
            "options": [o.to_json() for o in self.options],
            "bots": list(self.bots),
        }


def describe_game(game: str | Game[Any, Any]) -> GameDescription:
    """Describe a game by id or object: variants with seat ranges, options with help, bots.

    Raises :class:`~meeple.engine.UnknownGame` or :class:`~meeple.engine.ConfigError`
    as :func:`~meeple.engine.get_game` does.
    """
    g = resolve(game)
    info = g.info
    variants = []
    for name in info.variants:
        low, high = info.seat_range(name)
        variants.append(VariantInfo(name, low, high, dict(g.variant_options(name)), variant_hides_information(g, name)))
    return GameDescription(
        id=info.id, title=info.title, summary=info.summary, rules_version=info.rules_version,
        min_seats=info.min_seats, max_seats=info.max_seats, has_chance=info.has_chance,
        hidden_information=info.hidden_information, variants=tuple(variants),
        options=describe_options(g), bots=bot_names(g),
    )


def variant_hides_information(game: Game[Any, Any], variant: str) -> bool:
    """Whether matches of ``variant`` hide anything from some seat (:meth:`Game.hides_information` of its options).

    A game's ``hidden_information`` is true when any of its variants hides
    something; a variant may hide nothing (Gophers' beginner rules play with
    an open bank).

    >>> variant_hides_information(get_game("gophers"), "beginner"), variant_hides_information(get_game("gophers"), "standard")
    (False, True)
    """
    low, _ = game.info.seat_range(variant)
    try:
        options = options_from_map(codec_for(game), game.variant_options(variant), low)
    except ConfigError:  # options that need more than the fewest seats: the game-wide fact
        return bool(game.info.hidden_information)
    return bool(game.hides_information(options))


def describe_options(game: Game[Any, Any]) -> tuple[OptionInfo, ...]:
    """Every field of the game's options class, in declaration order."""
    cls = game.options_type
    if not attrs.has(cls):
        return ()
    hints = typing.get_type_hints(cls)
    out = []
    for f in attrs.fields(cls):
        kind, choices = _kind(hints.get(f.name, f.type))
        default = f.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = default.factory()
        help_text = f.metadata.get(HELP, "")
        out.append(OptionInfo(f.name, kind, readable(default), choices, str(help_text)))
    return tuple(out)


def bot_names(game: Game[Any, Any]) -> tuple[str, ...]:
    """The names of the bots a game offers, sorted: its own, ``random``, and ``ismcts`` and ``pimc`` where it can be searched."""
    generic = {"random", "ismcts", "pimc"} if searchable(game) else {"random"}
    return tuple(sorted({*game.bots(), *generic}))


def bot_factory(game: Game[Any, Any], name: str) -> Any:
    """The factory (``factory(seed) -> bot``) of bot ``name``; :class:`ConfigError` naming the choices if none.

    ``name`` is one of the game's own bots, or a bot every game has
    (:mod:`meeple.bots.specs`): ``random``, ``ismcts[:BUDGET[:ROLLOUT]]``
    such as ``ismcts:200`` or ``ismcts:0.5s:heuristic``, or
    ``pimc[:BUDGET[:[OWN/]POLICY[:WIDTH[:CONFIDENCE]]]]`` such as ``pimc:1s``, ``pimc:1s-cpu::2`` or
    ``pimc:1s-cpu:fitted/heuristic``.
    """
    bots = dict(game.bots())
    bots.setdefault("random", RandomBot)
    if name in bots:
        return bots[name]
    found = generic_factory(game, name)
    if found is None:
        choices = sorted(bots) + (list(GENERIC[1:]) if searchable(game) else [])  # the search bots' specs
        raise ConfigError(f"{game.info.id} has no bot {name!r}; bots: {', '.join(choices)}")
    return found


def catalog() -> list[GameDescription | tuple[str, str]]:
    """Every available game described, or ``(id, reason)`` for one that cannot be loaded."""
    out: list[GameDescription | tuple[str, str]] = []
    for gid in available():
        try:
            out.append(describe_game(get_game(gid)))
        except ConfigError as e:
            out.append((gid, str(e)))
    return out


def _kind(tp: Any) -> tuple[str, tuple[Any, ...] | None]:
    """A type's name for people and scripts, and its allowed values when the type names them."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is bool:
        return "bool", (False, True)
    if tp in (int, str, float):
        return tp.__name__, None
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        values = tuple(readable(m.value) for m in tp)
        return _common(values), values
    if origin is typing.Literal:
        return _common(args), tuple(args)
    if origin in (tuple, list, frozenset, set):
        inner = args[0] if args else Any
        name, _ = _kind(inner)
        return f"list of {name}", None
    if origin in (typing.Union, types.UnionType):
        parts = [a for a in args if a is not type(None)]
        if len(parts) == 1 and len(args) == 2:
            name, choices = _kind(parts[0])
            return f"{name} or null", None if choices is None else (*choices, None)
        return " or ".join(_kind(a)[0] for a in args), None
    if origin is dict or tp is dict:
        return "map", None
    return getattr(tp, "__name__", str(tp)), None


def _common(values: tuple[Any, ...]) -> str:
    kinds = {type(v).__name__ for v in values}
    return kinds.pop() if len(kinds) == 1 else "value"
