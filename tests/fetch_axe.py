"""Fetches axe-core (the accessibility checker the browser tests inject, tests/axe.py) from the npm registry
without node: the tarball that tests/axe-core.json pins, checked against the sha512 ``dist.integrity`` the
registry published for it (kept in that file), and its ``axe.min.js`` extracted into the git-ignored cache
``.cache/axe-core-<version>/``. Python's standard library only: tests/setup.sh runs it before the virtual
environment exists (``python3 tests/fetch_axe.py``). Nothing is fetched when the file is there already."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script, before the virtual environment: the project's own module

from tournament.server import npm_files  # noqa: E402

FetchError, check_integrity, extract = npm_files.FetchError, npm_files.check_integrity, npm_files.extract

PIN = Path(__file__).resolve().with_name("axe-core.json")
__all__ = ["FetchError", "cached_path", "check_integrity", "extract", "fetch", "pinned"]


def pinned() -> dict:
    return json.loads(PIN.read_text(encoding="utf-8"))


def cached_path(pin: dict | None = None) -> Path:
    pin = pin or pinned()
    return ROOT / ".cache" / f"axe-core-{pin['version']}" / Path(pin["file"]).name


def fetch(pin: dict | None = None, timeout: float = 60) -> Path:
    """The path of axe.min.js, downloaded, checked and extracted first if it is not in the cache."""
    pin = pin or pinned()
    return npm_files.fetch(pin, [pin["file"]], cached_path(pin).parent, timeout)[0]


if __name__ == "__main__":
    try:
        print(fetch())
    except FetchError as e:
        sys.exit(f"axe-core: {e}")
