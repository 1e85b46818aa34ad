"""System checks run at start (`manage.py check`, `runserver`): every board file loads and validates."""

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
