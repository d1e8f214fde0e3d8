"""Bots that play any game through the public protocol alone: the search bot and the bots every game has.

* :class:`ISMCTS`: information-set Monte Carlo tree search over worlds
  sampled from the bot's own view (:meth:`Game.world
  <meeple.engine.Game.world>`); plain MCTS for games without hidden
  information.
* :class:`PIMC`: rollout search over sampled worlds, the game's
  heuristic bot proposing candidates and playing the playouts; it plays
  the heuristic's move unless the playouts show a better one.
* :func:`parse_spec` and :func:`generic_factory`: the bot specs
  (``ismcts:200``, ``ismcts:0.5s:heuristic``, ``pimc:1s``) that ``meeple simulate
  --bots`` and batch runs take, for every game.

Bots see what a player sees, ``choose(view, legal, seat)``, and never the
true state or the match's RNG (DESIGN invariant 9). ``docs/bots.md`` shows
how to play against, evaluate and tune them.
"""

from ..engine.game import NoWorldSampling
from .ismcts import EXPLORATION, ISMCTS, MAX_ROLLOUT, Factory, win_share
from .pimc import PIMC, margin
from .specs import GENERIC, BotSpec, generic_factory, parse_spec, searchable

__all__ = [
    "EXPLORATION", "GENERIC", "ISMCTS", "MAX_ROLLOUT", "PIMC", "BotSpec", "Factory", "NoWorldSampling",
    "generic_factory", "margin", "parse_spec", "searchable", "win_share",
]
