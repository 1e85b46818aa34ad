"""A board's data (as in a JSON file) read from a workbook laid out as the template: a row at a time, each
cell read into its field's kind, every problem with its sheet, row and column."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from openpyxl.utils import get_column_letter

from tournament.boards.files.columns import (
    BOARD_FIELDS,
    BOOL,
    CARD_COLUMNS,
    DECK_FIELDS,
    EFFECT_COLUMNS,
    INT,
    LIST_FIELDS,
    MAX_COLUMNS,
    MAX_LIST_VALUES,
    MAX_ROWS,
    NO,
    ROLE_DECK_COLUMNS,
    SHEETS,
    SQUARE_FIELDS,
    TEXT,
    YES,
    BoardFileError,
)
from tournament.server import uploads
from tournament.server.uploads import (
    MAX_UNPACKED_BYTES,
    NOT_ALLOWED,
    echo,
    megabytes,
)


def _key(text) -> str:
    """A header or sheet name as compared: any case, spaces or underscores."""
    return re.sub(r"[\s_]+", "_", str(text).strip().casefold())


def _unreadable() -> BoardFileError:
    return BoardFileError([_("The file cannot be read as an Excel workbook (.xlsx).")])


def _read_sheets(data: bytes) -> dict[str, list[tuple[int, list]]]:
    """The filled rows (number, values) of the sheets the board is read from, by sheet name."""
    try:
        workbook = uploads.open_workbook(data)
    except uploads.NotAWorkbook:
        raise _unreadable() from None
    except uploads.WorkbookTooLarge:
        raise BoardFileError(
            [_("The workbook unpacks to more than %(size)s MB.") % {"size": megabytes(MAX_UNPACKED_BYTES)}]
        ) from None
    sheets: dict[str, list[tuple[int, list]]] = {}
    try:
        for ws in workbook.worksheets:
            name = _key(ws.title)
            if name not in SHEETS or name in sheets:
                continue
            ws.reset_dimensions()  # rows as they are in the file, not up to a declared last row
            rows = sheets[name] = []
            it = ws.iter_rows(max_col=MAX_COLUMNS, values_only=True)
            number = 0
            while True:
                try:
                    values = next(it)  # parsed now, one row at a time: a broken part shows only here
                except StopIteration:
                    break
                except Exception:
                    raise _unreadable() from None
                number += 1
                if all(v is None or (isinstance(v, str) and not v.strip()) for v in values):
                    continue
                if len(rows) >= MAX_ROWS:
                    raise BoardFileError(
                        [
                            _("Sheet %(sheet)s has more than %(max)s rows.")
                            % {"sheet": ws.title, "max": MAX_ROWS}
                        ]
                    )
                rows.append((number, list(values)))
    finally:
        workbook.close()
    return sheets


class _Cells:
    """Reads a sheet's cells into JSON values, collecting the problems with sheet, row and column."""

    def __init__(self, problems: list[str]):
        self.problems = problems

    def problem(self, sheet: str, row: int, column: str, text: str) -> None:
        self.problems.append(
            _("Sheet %(sheet)s, row %(row)s, column %(column)s: %(problem)s")
            % {"sheet": sheet, "row": row, "column": column, "problem": text}
        )

    def value(self, sheet: str, row: int, column: str, kind: str, v):
        """The cell as the JSON format has it; a bad number is kept as it is (the rules say what is wrong)."""
        if isinstance(v, str):
            v = " ".join(v.split())  # line breaks typed in a cell, doubled spaces
            if NOT_ALLOWED.search(v):
                self.problem(
                    sheet, row, column, _("the text contains a character that is not allowed (such as NUL).")
                )
                return None
            if not v:
                return None
        elif v is not None and not isinstance(v, bool | int | float):
            v = str(v)  # a date, a time: the rules will say it is not a number
        if v is None:
            return None
        if kind == TEXT:
            if isinstance(v, float) and v.is_integer():
                v = int(v)
            return str(v) if not isinstance(v, bool) else v
        if kind == BOOL:
            if isinstance(v, bool):
                return v
            word = _key(v if not isinstance(v, float) or not v.is_integer() else int(v))
            if word in YES or word in NO:
                return word in YES
            self.problem(sheet, row, column, _("“%(value)s” is not yes or no.") % {"value": echo(str(v))})
            return None
        if isinstance(v, float) and v.is_integer():
            return int(v)
        if isinstance(v, str) and re.fullmatch(r"[+-]?\d{1,18}", v):
            return int(v)
        return v

    def records(self, sheet: str, rows: list[tuple[int, list]], columns: dict[str, str], lists=()) -> list:
        """(row number, {column: value}) of the rows after the header; unknown columns are problems."""
        if not rows:
            return []
        header_row, header = rows[0]
        names: list[str | None] = []
        for i, h in enumerate(header):
            name = _key(h) if h is not None else ""
            list_field = re.fullmatch(r"([a-z_]+?)_(\d{1,2})", name)
            if not name:
                names.append(None)
                continue
            if name in names:
                self.problem(
                    sheet,
                    header_row,
                    get_column_letter(i + 1),
                    _("the column %(name)s is there twice.") % {"name": echo(str(h))},
                )
            elif not (
                name in columns
                or (list_field and list_field[1] in lists and int(list_field[2]) < MAX_LIST_VALUES)
            ):
                self.problem(
                    sheet,
                    header_row,
                    get_column_letter(i + 1),
                    _("unknown column “%(name)s”.") % {"name": echo(str(h))},
                )
            names.append(name)
        out = []
        for number, values in rows[1:]:
            record = {}
            for name, v in zip(names, values, strict=False):
                if name is None or name in record:
                    continue
                list_field = re.fullmatch(r"([a-z_]+?)_(\d{1,2})", name)
                kind = columns.get(name, INT if list_field else TEXT)
                value = self.value(sheet, number, name, kind, v)
                if value is not None:
                    record[name] = value
            out.append((number, record))
        return out


def _square(record: dict) -> dict:
    square = {k: v for k, v in record.items() if k in SQUARE_FIELDS and k != "percent_choice"}
    if record.get("percent_choice") is True:
        square["percent_choice"] = True
    for key in LIST_FIELDS:
        values = {int(k.rsplit("_", 1)[1]): v for k, v in record.items() if re.fullmatch(rf"{key}_\d+", k)}
        if values:
            square[key] = [values.get(i) for i in range(max(values) + 1)]
    role_decks = {role: record[c] for c, role in ROLE_DECK_COLUMNS.items() if c in record}
    if role_decks:
        square["role_decks"] = role_decks
    return square


def board_from_workbook(data: bytes) -> dict:
    """The board's data (as in a JSON file) from a workbook laid out as the template; BoardFileError lists
    what is wrong with the sheets themselves (the rules then check the board)."""
    sheets = _read_sheets(data)
    problems: list[str] = []
    cells = _Cells(problems)
    if "squares" not in sheets:
        raise BoardFileError([_("The workbook has no sheet “squares”: start from the template.")])
    board: dict = {}
    for number, values in sheets.get("board", []):
        key = _key(values[0]) if values and values[0] is not None else ""
        if key in ("", "field"):
            continue
        if key not in BOARD_FIELDS:
            cells.problem(
                "board", number, "A", _("unknown field “%(name)s”.") % {"name": echo(str(values[0]))}
            )
            continue
        value = cells.value("board", number, key, TEXT, values[1] if len(values) > 1 else None)
        if value is not None:
            board[key] = value
    square_columns = {**SQUARE_FIELDS, **dict.fromkeys(ROLE_DECK_COLUMNS, TEXT)}
    squares = [
        _square(r) for _n, r in cells.records("squares", sheets["squares"], square_columns, LIST_FIELDS)
    ]
    decks: dict[str, dict] = {}
    for number, r in cells.records("decks", sheets.get("decks", []), DECK_FIELDS):
        deck_id = r.get("id")
        if deck_id is None:
            cells.problem("decks", number, "id", _("the deck's id is missing."))
        elif deck_id in decks:
            cells.problem(
                "decks", number, "id", _("the deck %(deck)s is there twice.") % {"deck": echo(deck_id)}
            )
        else:
            decks[deck_id] = {k: v for k, v in r.items() if k != "id"} | {"cards": None}
    for number, r in cells.records("cards", sheets.get("cards", []), CARD_COLUMNS):
        deck_id = r.get("deck")
        if deck_id not in decks:
            cells.problem(
                "cards",
                number,
                "deck",
                _("the deck “%(deck)s” is not on sheet decks.") % {"deck": echo(str(deck_id or ""))},
            )
            continue
        card = {k: r[k] for k in ("id", "text", "copies", "note") if k in r}
        card["effect"] = {"kind": r.get("effect")} | {k: r[k] for k in EFFECT_COLUMNS if k in r}
        decks[deck_id]["cards"] = [*(decks[deck_id]["cards"] or []), card]
    if problems:
        raise BoardFileError(problems)
    return {**board, "squares": squares, "decks": decks}
