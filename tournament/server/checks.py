"""System checks run at start (`manage.py check`, `runserver`, `migrate`, `serve`): every board file loads and
validates; an installed copy says where its SQLite database is when there is none yet."""

import os
from pathlib import Path

from django.conf import settings
from django.core import checks

from rules.board import BOARDS_DIR, load_board_file
from rules.errors import BoardError


@checks.register()
def board_files(app_configs=None, **kwargs):
    errors = []
    for path in sorted(BOARDS_DIR.glob("*.json")):
        try:
            board = load_board_file(path)
        except BoardError as e:
            errors.append(checks.Error(e.message, obj=str(path), id="tournament.E001"))
            continue
        if board.id != path.stem:
            errors.append(
                checks.Error(
                    f"board id {board.id!r} differs from the file name", obj=str(path), id="tournament.E002"
                )
            )
    return errors


@checks.register()
def database_place(app_configs=None, **kwargs):
    """An installed copy keeps SQLite's file in the directory it is run from: run from another one, it would
    quietly make a new, empty database there. Said, with where, until the file exists."""
    db = settings.DATABASES["default"]
    if not db["ENGINE"].endswith("sqlite3") or settings.IN_CHECKOUT or os.environ.get("DJANGO_SQLITE_PATH"):
        return []
    path = Path(db["NAME"])
    if path.exists():
        return []
    return [
        checks.Warning(
            f"No database at {path}: the first command that writes to it makes a new, empty one there.",
            hint="Run monopoly-tournament from the folder that holds the event's db.sqlite3, "
            "or set DJANGO_SQLITE_PATH to its file.",
            id="tournament.W001",
        )
    ]
