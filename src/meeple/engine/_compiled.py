"""The compiled module ``meeple._speedups``, chosen once for the whole engine.

``speedups`` is the module, or None where the package was built without a C
compiler or ``MEEPLE_PURE_PYTHON`` is set in the environment: then every
part that has a compiled path (the log reader, the RNG's draws, the slot
builder) takes its Python one, with the same results.
"""

from __future__ import annotations

import os
from typing import Any


def _load() -> Any:
    if os.environ.get("MEEPLE_PURE_PYTHON"):
        return None
    try:
        from .. import _speedups
    except ImportError:
        return None
    return _speedups


speedups: Any = _load()
