"""A board file uploaded, read: a workbook or JSON, its size checked first and every text's characters
after."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from tournament.boards.files.columns import BoardFileError
from tournament.boards.files.workbook import board_from_workbook
from tournament.server import uploads
from tournament.server.uploads import (
    NotJSON,
    json_object,
    too_large_message,
)


def _not_json(reason: str) -> BoardFileError:
    return BoardFileError([_("The file is not a board in JSON: %(reason)s") % {"reason": reason}])


def board_from_json(data: bytes) -> dict:
    try:
        return json_object(data)
    except NotJSON as e:
        raise _not_json(str(e)) from None


def check_characters(board: dict) -> None:
    """No text of the board holds a control character (see ``tournament.server.uploads.check_characters``)."""
    try:
        uploads.check_characters(board)
    except NotJSON as e:
        raise BoardFileError([str(e)]) from None


def read_board_file(filename: str, data: bytes) -> dict:
    """The board's data from an uploaded file (.xlsx or .json), or BoardFileError saying what is wrong."""
    if len(data) > settings.UPLOAD_MAX_BYTES:
        raise BoardFileError([too_large_message()])
    lower = filename.lower()
    if lower.endswith(".xlsx"):
        board = board_from_workbook(data)
    elif lower.endswith(".json"):
        board = board_from_json(data)
    else:
        raise BoardFileError([_("Upload an Excel workbook (.xlsx) or a JSON file (.json).")])
    check_characters(board)
    return board
