"""Files of a package from the npm registry, without node: the tarball a pin names (``package``, ``version``,
``tarball``, ``integrity``: the sha512 the registry published for it, written into the pin by hand), checked,
and the files wanted extracted into a folder. Python's standard library only: the setup scripts run it
before the virtual environment exists. Nothing is fetched when the files are there already."""

from __future__ import annotations

import base64
import hashlib
import io
import tarfile
import urllib.request
from pathlib import Path


class FetchError(RuntimeError):
    pass


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


def download(pin: dict, timeout: float = 120) -> bytes:
    """The pinned tarball, its integrity checked."""
    try:
        with urllib.request.urlopen(pin["tarball"], timeout=timeout) as response:
            data = response.read()
    except OSError as e:
        raise FetchError(f"cannot download {pin['tarball']}: {e}") from e
    check_integrity(data, pin["integrity"])
    return data


def fetch(pin: dict, members: list[str], folder: Path, timeout: float = 120) -> list[Path]:
    """``members`` of the pinned tarball in ``folder`` (each by its name), downloaded and checked first unless
    all of them are there already. A file is written whole or not at all."""
    targets = [folder / Path(member).name for member in members]
    if all(t.is_file() for t in targets):
        return targets
    data = download(pin, timeout)
    folder.mkdir(parents=True, exist_ok=True)
    for member, target in zip(members, targets, strict=True):
        partial = target.with_name(target.name + ".part")
        partial.write_bytes(extract(data, member))
        partial.replace(target)  # never a half-written file
    return targets
