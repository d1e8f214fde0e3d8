"""The example game under its short name: ``import liars_dice`` is :mod:`meeple.examples.liars_dice`.

The game itself ships inside the package (``src/meeple/examples/liars_dice.py``),
so ``from meeple.examples import liars_dice`` works wherever meeple is
installed; this module keeps the short name for scripts run with
``examples/`` on their path. Both names give the one module object, so the
game registers once.
"""

import sys

from meeple.examples import liars_dice as _game

sys.modules[__name__] = _game
