"""``python -m meeple.server``: serve matches (the same as ``meeple serve``)."""

import sys

from .run import main

sys.exit(main())
