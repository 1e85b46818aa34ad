"""Files only their owner may read (mode 0600), written whole: the secret key ``serve`` keeps, the venue's
certificate authority and the laptop's certificate (``serving``, ``venue_authority``). Python's standard
library only: they are made before Django starts."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_private(path: Path, data: bytes, *, replace: bool) -> bool:
    """``data`` in ``path``, readable by its owner alone, written whole: into a temporary file first, then
    moved there (``replace``) or linked there (not: of two processes at once the first wins, and the other,
    told False, reads what the first wrote — never a file still empty)."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if replace:
            os.replace(temporary, path)
            return True
        try:
            os.link(temporary, path)
        except FileExistsError:
            return False
        return True
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
