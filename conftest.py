"""Root test set-up: registers the example game for doctests and tests alike."""

import liars_dice  # noqa: F401  (registers "liars-dice")
