"""A server process for the tests: ``python serve_child.py --store ... --port ...`` (liars-dice registered)."""

import sys

if __name__ == "__main__":
    import liars_dice  # noqa: F401  (registers "liars-dice", as a user's own game would be)
    from meeple.server.run import main

    sys.exit(main(sys.argv[1:]))
