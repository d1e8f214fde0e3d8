"""Sphinx configuration of the API reference (``sphinx-build -W docs docs/_build``).

Only the reStructuredText pages under ``docs/api/`` are Sphinx sources; the
Markdown pages beside them are read as they are (and run by
``tests/test_docs.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from meeple import __version__  # noqa: E402

project = "meeple"
author = "meeple developers"
copyright = "meeple developers"  # noqa: A001
release = version = __version__

extensions = ["sphinx.ext.autodoc", "sphinx.ext.viewcode"]
root_doc = "api/index"
source_suffix = {".rst": "restructuredtext"}
exclude_patterns = ["_build", "rules", "*.md"]
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_typehints = "description"
autodoc_typehints_format = "short"
html_theme = "alabaster"
html_title = f"meeple {release}: API reference"
