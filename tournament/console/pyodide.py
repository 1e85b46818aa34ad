"""Pyodide (CPython compiled to WebAssembly, MPL-2.0), with which the referee's phone runs the rules package
itself (``tournament.console.view_model.phone``, ``static/console/engine-worker.js``): the files of
its npm package that ``pyodide.json`` pins, checked against the sha512 the registry published, in the
git-ignored ``static/vendor/pyodide-<version>/`` (served as static files; the console's service worker keeps
them). ``python3 -m tournament.console.pyodide``: tests/venv.sh runs it, Python's standard library only."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tournament.server.npm_files import FetchError, fetch

PIN = Path(__file__).resolve().with_name("pyodide.json")
STATIC = Path(__file__).resolve().parents[2] / "static"


def pinned() -> dict:
    return json.loads(PIN.read_text(encoding="utf-8"))


def folder_name(pin: dict | None = None) -> str:
    """The folder under ``static/`` (its static path)."""
    return f"vendor/pyodide-{(pin or pinned())['version']}"


def fetch_pyodide(pin: dict | None = None) -> list[Path]:
    pin = pin or pinned()
    return fetch(pin, pin["files"], STATIC / folder_name(pin))


if __name__ == "__main__":
    try:
        for path in fetch_pyodide():
            print(path)
    except FetchError as e:
        sys.exit(f"pyodide: {e}")
