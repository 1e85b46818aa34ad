"""Fetches axe-core (the accessibility checker the browser tests inject, tests/axe.py) from the npm registry
without node: the tarball that tests/axe-core.json pins, checked against the sha512 ``dist.integrity`` the
registry published for it (kept in that file), and its ``axe.min.js`` extracted into the git-ignored cache
``.cache/axe-core-<version>/``. Python's standard library only: tests/setup.sh runs it before the virtual
environment exists (``python3 tests/fetch_axe.py``). Nothing is fetched when the file is there already."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import sys
import tarfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN = Path(__file__).resolve().with_name("axe-core.json")


class FetchError(RuntimeError):
    pass


def pinned() -> dict:
    return json.loads(PIN.read_text(encoding="utf-8"))


def cached_path(pin: dict | None = None) -> Path:
    pin = pin or pinned()
    return ROOT / ".cache" / f"axe-core-{pin['version']}" / Path(pin["file"]).name


def check_integrity(data: bytes, integrity: str) -> None:
    """``integrity`` as npm writes it (``sha512-<base64>``): the download must have exactly that digest."""
    algorithm, _, expected = integrity.partition("-")
    if algorithm != "sha512":
        raise FetchError(f"unsupported integrity {integrity!r} (sha512 expected)")
    actual = base64.b64encode(hashlib.sha512(data).digest()).decode()
    if actual != expected:
        raise FetchError(f"the downloaded tarball's sha512 is {actual}, the pinned integrity says {expected}")


def extract(data: bytes, member: str) -> bytes:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        try:
            found = tar.extractfile(member)
        except KeyError:
            found = None
        if found is None:
            raise FetchError(f"{member} is not in the tarball")
        return found.read()


def fetch(pin: dict | None = None, timeout: float = 60) -> Path:
    """The path of axe.min.js, downloaded, checked and extracted first if it is not in the cache."""
    pin = pin or pinned()
    target = cached_path(pin)
    if target.is_file():
        return target
    try:
        with urllib.request.urlopen(pin["tarball"], timeout=timeout) as response:
            data = response.read()
    except OSError as e:
        raise FetchError(f"cannot download {pin['tarball']}: {e}") from e
    check_integrity(data, pin["integrity"])
    script = extract(data, pin["file"])
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".part")
    partial.write_bytes(script)
    partial.replace(target)  # never a half-written file in the cache
    return target


if __name__ == "__main__":
    try:
        print(fetch())
    except FetchError as e:
        sys.exit(f"axe-core: {e}")
