"""``python -m meeple``: the command line."""

from .cli import run

run()
