"""One template for a game object: its parts, each written in a module of its own, named once and put together.

A game keeps its rules, what each seat sees, its worlds for search bots,
its text and its bots apart, so that the rules import none of the others.
:func:`assemble` builds the :class:`~meeple.engine.game.Game` the engine
runs from those parts, declared by keyword, with no method written to
forward a call::

    Kings = assemble(
        "Kings", rules, module=__name__, info=INFO, options=KingsOptions, state=State,
        commands=(SetUp, Play), events=(Dealt, Played), variants=VARIANTS,
        view_type=KingsView, view=view.view, redact=view.redact, determinize=view.determinize,
        world=world.world, render=render.render, describe=render.describe,
        bots={"random": RandomBot, "heuristic": HeuristicBot},
    )
    GAME = Kings()

``rules`` is either a module whose functions carry the protocol's names
(``initial_state``, ``to_act``, ``auto_command``, ``legal_commands``,
``decide``, ``decide_and_fold``, ``evolve``, ``fold``, ``outcome``,
``hides_information``;
the game's facts and classes are then given by keyword), or a ``Game``
subclass that already holds the rules and those facts. Each part is bound
as it is (a static method): the engine calls it without a call in between.

>>> import meeple
>>> from meeple.games.kings.game import GAME
>>> type(GAME).__name__, GAME.view.__module__, sorted(GAME.bots())
('KingsGame', 'meeple.games.kings.view', ['heuristic', 'random'])
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from typing import Any, cast

from .errors import ConfigError
from .game import Command, Event, Game, GameInfo, Options

#: The protocol's rule functions that a rules module may define, bound by name.
RULES = ("initial_state", "to_act", "auto_command", "legal_commands", "decide", "decide_and_fold", "evolve", "fold",
         "outcome", "hides_information")
#: The parts given by keyword, bound as they are: the names of the protocol's methods.
PARTS = ("view", "redact", "determinize", "world", "render", "describe", "text", "outcome_text", "fold",
         "decide_and_fold")


def assemble(name: str, rules: type[Any] | types.ModuleType, *, module: str, doc: str | None = None,
             info: GameInfo | None = None, options: type[Options] | None = None, state: type[Any] | None = None,
             commands: tuple[type[Command], ...] | None = None, events: tuple[type[Event], ...] | None = None,
             variants: Mapping[str, Mapping[str, Any]] | None = None, view_type: type[Any] | None = None,
             bots: Mapping[str, Callable[[int], Any]] | None = None,
             **parts: Callable[..., Any]) -> type[Game[Any, Any]]:
    """Build the game class ``name`` (of module ``module``) from its rules and its parts.

    ``rules`` is a rules module or a ``Game`` subclass (see the module
    docstring). ``info``, ``options``, ``state``, ``commands``, ``events``
    and ``view_type`` set the class's declared facts (a rules class may
    already hold them). ``variants`` maps each of ``info.variants`` to the
    options it selects. ``parts`` are the functions of the protocol's
    other methods, by their names (:data:`PARTS`); ``bots`` maps a bot's
    name to its factory (``factory(seed) -> bot``). A part the game lacks is
    left out: the protocol's default serves. A missing rule leaves the class
    abstract, so making the game object fails and names it.
    """
    unknown = set(parts) - set(PARTS)
    if unknown:
        raise ConfigError(f"{name}: no part of a game is called {', '.join(sorted(unknown))}; parts: {', '.join(PARTS)}")
    namespace: dict[str, Any] = {"__module__": module, "__qualname__": name, "__doc__": doc}
    if isinstance(rules, types.ModuleType):
        base: type[Any] = Game
        for rule in RULES:
            if hasattr(rules, rule):
                namespace[rule] = staticmethod(getattr(rules, rule))
    elif isinstance(rules, type) and issubclass(rules, Game):
        base = rules
    else:
        raise ConfigError(f"{name}: the rules are a module or a Game subclass, not {rules!r}")
    facts = {"info": info, "options_type": options, "state_type": state, "commands": commands, "events": events,
             "view_type": view_type}
    namespace.update({k: v for k, v in facts.items() if v is not None})
    namespace.update({k: staticmethod(f) for k, f in parts.items()})
    if bots is not None:
        namespace["bots"] = _bots(dict(bots))
    if variants is not None:
        namespace["variant_options"] = _variant_options({k: dict(v) for k, v in variants.items()})
    made = types.new_class(name, (base,), exec_body=lambda ns: ns.update(namespace))
    declared = made.__dict__.get("info") or getattr(made, "info", None)
    if variants is not None and declared is not None and tuple(variants) != declared.variants:
        raise ConfigError(f"{name}: variants {tuple(variants)} are not the declared {declared.variants}")
    return cast("type[Game[Any, Any]]", made)


def _bots(bots: dict[str, Callable[[int], Any]]) -> Callable[[Game[Any, Any]], Mapping[str, Callable[[int], Any]]]:
    def bots_of(self: Game[Any, Any]) -> Mapping[str, Callable[[int], Any]]:
        """The game's bot factories by name (``factory(seed) -> bot``)."""
        return dict(bots)

    return bots_of


def _variant_options(variants: dict[str, dict[str, Any]]) -> Callable[[Game[Any, Any], str], dict[str, Any]]:
    def variant_options(self: Game[Any, Any], variant: str) -> dict[str, Any]:
        """The options that select ``variant``; a :class:`ConfigError` for a name the game does not have."""
        if variant not in variants:
            raise ConfigError(f"{self.info.id} has no variant {variant!r}; variants: {', '.join(self.info.variants)}")
        return dict(variants[variant])

    return variant_options


__all__ = ["PARTS", "RULES", "assemble"]
