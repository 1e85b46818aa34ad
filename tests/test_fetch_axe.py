"""tests/fetch_axe.py (through tournament/server/npm_files.py) takes axe-core from the npm registry only as
pinned: a tarball whose sha512 is not the
pinned integrity is refused and nothing is written to the cache (no network in these tests)."""

import base64
import hashlib
import io
import json
import tarfile

import pytest

from tests import fetch_axe
from tournament.server import npm_files


def tarball(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def test_the_pin_names_a_sha512_of_the_registry():
    pin = json.loads(fetch_axe.PIN.read_text())
    assert pin["tarball"] == f"https://registry.npmjs.org/axe-core/-/axe-core-{pin['version']}.tgz"
    assert pin["integrity"].startswith("sha512-") and len(base64.b64decode(pin["integrity"][7:])) == 64


@pytest.fixture
def registry(monkeypatch, tmp_path):
    """The registry answering with ``served["data"]``; the cache in tmp_path."""
    served = {}

    class Response(io.BytesIO):
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(npm_files.urllib.request, "urlopen", lambda url, timeout: Response(served["data"]))
    monkeypatch.setattr(fetch_axe, "ROOT", tmp_path)
    return served


def pin_for(data: bytes, version: str = "9.9.9") -> dict:
    return {
        "version": version,
        "tarball": "https://registry.example/axe.tgz",
        "integrity": integrity(data),
        "file": "package/axe.min.js",
    }


def test_a_checked_tarball_is_extracted_into_the_cache(registry):
    data = tarball({"package/axe.min.js": b"window.axe = {};", "package/README.md": b"axe"})
    registry["data"] = data
    path = fetch_axe.fetch(pin_for(data))
    assert path.read_bytes() == b"window.axe = {};" and path.parent.name == "axe-core-9.9.9"
    registry["data"] = b"never asked again"
    assert fetch_axe.fetch(pin_for(data)) == path  # cached


def test_a_tarball_that_is_not_the_pinned_one_is_refused(registry):
    good = tarball({"package/axe.min.js": b"window.axe = {};"})
    registry["data"] = tarball({"package/axe.min.js": b"window.axe = {evil: true};"})
    with pytest.raises(fetch_axe.FetchError, match="sha512"):
        fetch_axe.fetch(pin_for(good))
    assert not fetch_axe.cached_path(pin_for(good)).exists()


def test_a_tarball_without_the_script_is_refused(registry):
    data = tarball({"package/README.md": b"axe"})
    registry["data"] = data
    with pytest.raises(fetch_axe.FetchError, match="not in the tarball"):
        fetch_axe.fetch(pin_for(data))
