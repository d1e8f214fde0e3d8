"""The Mordred game object: where the rules, the view, the worlds, the renderer and the bots meet.

The rules (:mod:`.rules`) know nothing of bots or text; this module hands
them, with the view, the renderer and the bots, to the engine as one
:class:`~meeple.engine.Game`. Mordred hides nothing, so it keeps the
protocol's ``redact`` and ``determinize``.

>>> GAME.info.id, GAME.info.hidden_information
('mordred', False)
"""

from __future__ import annotations

from meeple.engine import RandomBot, assemble

from . import commands, events, render, rules, text, view, world
from .bot import FittedBot, HeuristicBot
from .info import INFO, VARIANTS
from .state import MordredOptions, State

#: Mordred (Martin Wallace) on the meeple protocol: 3-4 players defend Wales.
Mordred = assemble(
    "Mordred", rules, module=__name__,
    doc="Mordred (Martin Wallace) on the meeple protocol: 3-4 players defend Wales.",
    info=INFO, options=MordredOptions, state=State, variants=VARIANTS,
    commands=commands.COMMANDS,
    events=events.EVENTS,
    view_type=view.View, view=view.make_view, world=world.world, render=render.render, describe=render.describe, text=text.text, outcome_text=text.outcome_text,
    bots={"random": RandomBot, "heuristic": HeuristicBot, "fitted": FittedBot},
)

#: The game object the registry finds (``meeple.get_game("mordred")``).
GAME = Mordred()
