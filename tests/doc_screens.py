"""The guides' screenshots (docs/screens/) are the browser tests' own: a run that made one of them again
(out/screens/NAME.png, newer than the run's start) and passed copies it over the guide's, so the guides
show the pages as they are. Which test makes each, and that each exists: tests/test_docs.py."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC_SCREENS = ROOT / "docs" / "screens"
TEST_SCREENS = ROOT / "out" / "screens"


def refresh(since: float) -> list[str]:
    """Copy each guide's screenshot that a test made after ``since`` (a time stamp); the names copied."""
    copied = []
    for kept in sorted(DOC_SCREENS.glob("*.png")):
        made = TEST_SCREENS / kept.name
        if made.exists() and made.stat().st_mtime > since:
            shutil.copyfile(made, kept)
            copied.append(kept.name)
    return copied
