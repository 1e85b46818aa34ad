"""Building the wheel (hatchling runs this hook: pyproject.toml): Pyodide's files fetched into the checkout's
``static/`` first when they are not there (``pyodide.py``: pinned, checked), so that the wheel always carries
the phones' engine; a wheel built from a fresh checkout would otherwise install a copy whose phones cannot
run the rules when the Wi-Fi goes. Not imported by the app."""

import sys
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class PhoneEngineHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version, build_data):
        sys.path.insert(0, self.root)  # the checkout's own packages (pyodide.py: the standard library only)
        try:
            from tournament.console import pyodide
        finally:
            sys.path.remove(self.root)
        pyodide.fetch_pyodide(static=Path(self.root) / "static")
