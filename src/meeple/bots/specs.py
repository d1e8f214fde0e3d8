"""Bots every game gets, by name: the bot specs of ``meeple simulate --bots`` and of batch runs.

A spec is a bot name, with arguments after colons for the bots that take
them. Besides a game's own bots (:meth:`Game.bots
<meeple.engine.Game.bots>`), every game has:

* ``random``: a uniformly random legal command;
* ``ismcts[:BUDGET[:ROLLOUT]]``: the search bot (:class:`~meeple.bots.ISMCTS`),
  for games that sample worlds from a view (:meth:`Game.world
  <meeple.engine.Game.world>`). ``BUDGET`` is iterations per decision
  (``200``) or wall-clock time (``0.5s``, ``300ms``), or CPU time of the
  searching thread (``1s-cpu``, ``250ms-cpu``: the same work on a busy
  machine as on an idle one), 500 iterations if left out; ``ROLLOUT`` names the bot that plays the rollouts (a game's own
  bot, such as ``heuristic``), uniformly random if left out;
* ``pimc[:BUDGET[:[OWN/]POLICY[:WIDTH[:CONFIDENCE]]]]``: rollout search over sampled worlds
  (:class:`~meeple.bots.PIMC`), for the same games: it plays the policy's
  move unless playouts show a better one. ``BUDGET`` is playouts per
  decision (``200``, the default) or time (``1s``); ``POLICY`` names the
  bot that proposes the candidates and plays the playouts, the game's
  ``heuristic`` where it has one (uniformly random otherwise) if left out
  (or empty, ``pimc:1s::2``); ``OWN/POLICY`` (``pimc:1s-cpu:fitted/heuristic``)
  names the searching seat's own policy apart: ``OWN`` proposes the
  candidates and plays that seat in the playouts, ``POLICY`` the other
  seats; ``WIDTH`` is how many of the (own) policy's preferred commands are
  searched (4 if left out or empty); ``CONFIDENCE`` is by how many standard
  errors a candidate must beat the policy's move to replace it (a number
  of at least 0; 1 if left out).

>>> import meeple
>>> spec = parse_spec("ismcts:200:heuristic")
>>> spec.name, spec.iterations, spec.seconds, spec.rollout
('ismcts', 200, None, 'heuristic')
>>> parse_spec("ismcts:250ms").seconds
0.25
>>> parse_spec("pimc:1s").seconds, parse_spec("pimc").iterations
(1.0, 200)
>>> parse_spec("pimc:250ms-cpu").seconds, parse_spec("pimc:250ms-cpu").clock
(0.25, 'cpu')
>>> parse_spec("pimc:1s-cpu:heuristic:2").width, parse_spec("pimc:1s-cpu::2").rollout, parse_spec("pimc").width
(2, None, None)
>>> parse_spec("pimc:1s-cpu:fitted/heuristic").own, parse_spec("pimc:1s-cpu:fitted/heuristic").rollout
('fitted', 'heuristic')
>>> parse_spec("pimc:100:heuristic:4:0.5").confidence, parse_spec("pimc:100:::0.5").width
(0.5, None)
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import attrs

from ..engine import ConfigError, Game, RandomBot
from ..engine.bot import Bot
from .ismcts import ISMCTS
from .pimc import CONFIDENCE, PIMC, WIDTH

#: How the names of the bots every game has read in an error message.
GENERIC = ("random", "ismcts[:BUDGET[:ROLLOUT]]", "pimc[:BUDGET[:[OWN/]POLICY[:WIDTH[:CONFIDENCE]]]]")
#: The search bots every game that samples worlds has, by spec name.
SEARCH = ("ismcts", "pimc")
#: Iterations per decision of each search bot when its spec names no budget.
DEFAULT_ITERATIONS = {"ismcts": 500, "pimc": 200}
#: A plain decimal number, as budgets and the confidence are written (no sign, exponent, ``inf`` or ``nan``).
_DECIMAL = r"(\d+(?:\.\d*)?|\.\d+)"
_TIME = re.compile(rf"^{_DECIMAL}(s|ms)(-cpu)?$")
_NUMBER = re.compile(rf"^{_DECIMAL}$")


@attrs.frozen
class BotSpec:
    """A parsed bot spec: its ``name`` and, for a search bot (``ismcts``, ``pimc``), its budget and rollout bot."""

    text: str
    name: str
    iterations: int | None = None
    seconds: float | None = None
    rollout: str | None = None
    #: what a time budget measures: ``wall`` (``1s``) or ``cpu`` (``1s-cpu``: the searching thread's CPU time)
    clock: str = "wall"
    #: ``pimc``: how many of the policy's preferred commands are searched (None: the bot's default)
    width: int | None = None
    #: ``pimc``: the searching seat's own policy (``OWN/POLICY``), None: the policy
    own: str | None = None
    #: ``pimc``: the standard errors by which a candidate must beat the policy's move (None: the bot's default)
    confidence: float | None = None


def parse_spec(text: str) -> BotSpec:
    """Parse ``name[:args]``; :class:`ConfigError` naming the problem for a malformed search bot spec.

    Names without a colon are returned as they are (a game's own bots take no arguments).
    For ``pimc`` the ``rollout`` field holds the policy bot, ``own`` the searching seat's own policy
    where the spec names one apart (``OWN/POLICY``), and ``width`` the candidates searched.
    """
    name, _, rest = text.partition(":")
    if name not in SEARCH:
        if rest:
            raise ConfigError(f"bot {name!r} takes no arguments (only the search bots do: "
                              "ismcts:BUDGET[:ROLLOUT], pimc:BUDGET[:[OWN/]POLICY[:WIDTH[:CONFIDENCE]]])")
        return BotSpec(text, name)
    budget, _, rollout = rest.partition(":")
    iterations: int | None = None
    seconds: float | None = None
    clock = "wall"
    if not rest:
        iterations = DEFAULT_ITERATIONS[name]
    elif not budget:
        raise ConfigError(f"{text!r}: give a budget before the rollout bot ({name}:BUDGET:BOT)")
    elif budget.isdigit():
        iterations = int(budget)
        if iterations < 1:
            raise ConfigError(f"{text!r}: the budget is at least 1 iteration")
    else:
        m = _TIME.match(budget)
        if m is None:
            raise ConfigError(f"{text!r}: a budget is iterations (200) or time (0.5s, 300ms, 1s-cpu), not {budget!r}")
        seconds = float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)
        clock = "cpu" if m.group(3) else "wall"
        if not (seconds > 0 and math.isfinite(seconds)):
            raise ConfigError(f"{text!r}: a time budget is more than 0")
    width: int | None = None
    confidence: float | None = None
    if name == "pimc" and ":" in rollout:
        rollout, _, wide = rollout.partition(":")
        wide, colon, sure = wide.partition(":")
        if wide or not colon:
            if not wide.isdigit() or int(wide) < 1:
                raise ConfigError(f"{text!r}: the width (pimc:BUDGET:POLICY:WIDTH) is a positive integer, not {wide!r}")
            width = int(wide)
        if colon:
            confidence = _confidence(text, sure)
    own: str | None = None
    if name == "pimc" and "/" in rollout:
        own, _, rollout = rollout.partition("/")
        if not own or not rollout:
            raise ConfigError(f"{text!r}: name both policies, the searching seat's and the others' (pimc:BUDGET:OWN/POLICY)")
    for bot in (rollout, own or ""):
        if bot.startswith(SEARCH) or ":" in bot or "/" in bot:
            raise ConfigError(f"{text!r}: the rollout bot is one of the game's own bots or random, not {bot!r}")
    return BotSpec(text, name, iterations, seconds, rollout or None, clock, width, own, confidence)


def _confidence(text: str, given: str) -> float:
    """The ``CONFIDENCE`` of a ``pimc`` spec: a plain decimal number (so at least 0); :class:`ConfigError` otherwise."""
    if not _NUMBER.match(given):
        raise ConfigError(f"{text!r}: the confidence (pimc:BUDGET:POLICY:WIDTH:CONFIDENCE) is a number of at least 0, "
                          f"not {given!r}")
    return float(given)


def generic_factory(game: Game[Any, Any], text: str) -> Callable[[int], Bot] | None:
    """The factory (``factory(seed) -> bot``) of a bot every game has, or None if ``text`` names none.

    :class:`ConfigError` for a malformed spec, an unknown rollout bot, or a
    game that cannot be searched (one with hidden information that does not
    implement :meth:`Game.world <meeple.engine.Game.world>`).
    """
    spec = parse_spec(text)
    if spec.name == "random":
        return RandomBot
    if spec.name not in SEARCH:
        return None
    if not searchable(game):
        raise ConfigError(
            f"{game.info.id} cannot sample a world from a seat's view (Game.world), so the {spec.name} bot cannot play it"
        )
    rollout = _policy(game, text, spec.rollout, spec.name == "pimc")
    iterations, seconds, clock = spec.iterations, spec.seconds, spec.clock
    if spec.name == "pimc":
        width = WIDTH if spec.width is None else spec.width
        confidence = CONFIDENCE if spec.confidence is None else spec.confidence
        own = _policy(game, text, spec.own, True)

        def make_pimc(seed: int) -> Bot:
            return PIMC(game, seed, iterations=iterations, seconds=seconds, policy=rollout, clock=clock, width=width,
                        own=own, confidence=confidence)

        return make_pimc

    def make(seed: int) -> Bot:
        return ISMCTS(game, seed, iterations=iterations, seconds=seconds, rollout=rollout, clock=clock)

    return make


def _policy(game: Game[Any, Any], text: str, name: str | None, random_named: bool) -> Callable[[int], Bot] | None:
    """The factory of the bot ``name`` that a search bot's spec ``text`` names to play for it, or None (its default).

    ``random_named`` (``pimc``): ``random`` is the random bot, not the default; :class:`ConfigError` for a
    bot the game does not have.
    """
    if name is None or name == "random":
        return RandomBot if name == "random" and random_named else None
    bots = dict(game.bots())
    if name not in bots:
        raise ConfigError(f"{text!r}: {game.info.id} has no bot {name!r} to play rollouts; "
                          f"bots: {', '.join(sorted({*bots, 'random'}))}")
    return bots[name]


def searchable(game: Game[Any, Any]) -> bool:
    """True if the search bot can play ``game``: it implements :meth:`Game.world <meeple.engine.Game.world>`.

    The default ``world`` serves a game without hidden information whose
    view is its state (``view_type`` None or the state class); any other
    game must implement ``world``.
    """
    if type(game).world is not Game.world:
        return True
    view = game.view_type
    return not game.info.hidden_information and (view is None or issubclass(view, game.state_type))
