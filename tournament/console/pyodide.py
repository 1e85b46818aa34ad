"""Pyodide (CPython compiled to WebAssembly, MPL-2.0), with which the referee's phone runs the rules package
itself (``tournament.console.view_model.phone``, ``static/console/engine-worker.js``): the files of
its npm package that ``pyodide.json`` pins, checked against the sha512 the registry published, in the
git-ignored ``static/vendor/pyodide-<version>/`` (served as static files; the console's service worker keeps
them). ``python3 -m tournament.console.pyodide``: tests/venv.sh runs it, Python's standard library only; the
wheel's build runs it too (``wheel_hook.py``), so that an installed copy carries them; in an installed copy it
writes where that copy serves its static files from (``tournament/site/static/``, as settings.py says).
Whether the app serves them is a system check (``engine_check.py``: ``check --deploy`` and ``serve``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tournament.server import site_files
from tournament.server.npm_files import FetchError, fetch

PIN = Path(__file__).resolve().with_name("pyodide.json")


def static_folder(package: Path = site_files.PACKAGE_DIR) -> Path:
    """The static files' source folder: a checkout's ``static/``, an installed copy's
    ``tournament/site/static/`` (as settings.py finds them)."""
    return site_files.site_folder(package) / "static"


def pinned() -> dict:
    return json.loads(PIN.read_text(encoding="utf-8"))


def folder_name(pin: dict | None = None) -> str:
    """The folder under ``static/`` (its static path)."""
    return f"vendor/pyodide-{(pin or pinned())['version']}"


def file_names(pin: dict | None = None) -> list[str]:
    """The files' names in their folder (the package's paths without their folders)."""
    return [member.rsplit("/", 1)[-1] for member in (pin or pinned())["files"]]


def fetch_pyodide(pin: dict | None = None, static: Path | None = None) -> list[Path]:
    pin = pin or pinned()
    return fetch(pin, pin["files"], (static or static_folder()) / folder_name(pin))


if __name__ == "__main__":
    try:
        for path in fetch_pyodide():
            print(path)
    except FetchError as e:
        sys.exit(f"pyodide: {e}")
