"""A board edition as a file an organiser fills in: an Excel workbook (the template the app gives him, filled
in from the physical title cards) or JSON in the format of ``rules/boards/*.json``.

The workbook has a sheet per part of the board, a header row naming the columns by the fields of the JSON
format (``rules.board.parse_board`` reads them), so that a workbook and a JSON file are the same board:

- ``board``: rows of field and value (id, name, language, source);
- ``squares``: a row per square 0–39; a list field is one column per value (``rents_0`` … ``rents_5``:
  ``rents`` in JSON), the decks of the two roles' card squares are ``competitor_deck`` and ``monopolist_deck``
  (``role_decks``);
- ``decks``: id and name of each card deck;
- ``cards``: a row per card (deck, id, text, copies, the effect's kind and fields); a deck without cards is
  known by name only and its cards are recorded by their effect;
- ``help``: what each column means (not read back).

Reading costs little whatever is uploaded: the size is checked before anything is read, a workbook is refused
before it is opened when its parts unpack to more than ``MAX_UNPACKED_BYTES``, rows are read one at a time
(at most ``MAX_ROWS`` filled ones per sheet, ``MAX_COLUMNS`` cells each), a JSON file too deep or with
numbers JSON does not have is refused. A control character (NUL …) or a lone surrogate in any text refuses the
file, naming where. Problems are :class:`BoardFileError`, each a line of text for the director.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable

from django.conf import settings
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from rules.board import EFFECT_FIELDS, SQUARE_KINDS
from rules.roles import ROLES
from tournament.server import uploads
from tournament.server.uploads import (
    MAX_UNPACKED_BYTES,
    NOT_ALLOWED,
    NotJSON,
    echo,
    json_object,
    megabytes,
    too_large_message,
)

MAX_ROWS = 500  # filled rows read from a sheet
MAX_COLUMNS = 80  # cells read from each row
MAX_LIST_VALUES = 12  # rents_0 … rents_11 at most
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

INT, TEXT, BOOL = "int", "text", "bool"
#: the square fields that are one value, in the template's order (the lists and role decks come between)
SQUARE_FIELDS = {
    "index": INT,
    "name": TEXT,
    "kind": TEXT,
    "group": TEXT,
    "price": INT,
    "mortgage": INT,
    "unmortgage": INT,
    "house_cost": INT,
    "amount": INT,
    "percent_choice": BOOL,
    "deck": TEXT,
    "monopolist_pays": INT,
    "note": TEXT,
}
#: list fields and how many columns the template gives each (a workbook may add more: ``rents_6`` …)
LIST_FIELDS = {
    "rents": 6,
    "monopolist_rents": 6,
    "multipliers": 4,
    "monopolist_multipliers": 4,
    "die_grants": 6,
}
ROLE_DECK_COLUMNS = {f"{role}_deck": role for role in ROLES}
DECK_FIELDS = {"id": TEXT, "name": TEXT, "note": TEXT}
#: a card's columns: its own, then the effect's kind ("effect") and its fields (rules.board.EFFECT_FIELDS)
CARD_FIELDS = {"deck": TEXT, "id": TEXT, "text": TEXT, "copies": INT, "effect": TEXT}
EFFECT_COLUMNS = {
    "amount": INT,
    "square": INT,
    "steps": INT,
    "square_kind": TEXT,
    "per_house": INT,
    "per_hotel": INT,
    "rent_multiplier": INT,
    "utility_multiplier": INT,
    "salary": BOOL,
}
CARD_COLUMNS = {**CARD_FIELDS, **EFFECT_COLUMNS, "note": TEXT}
BOARD_FIELDS = ("id", "name", "language", "source")
SHEETS = ("board", "squares", "decks", "cards")
YES = {"yes", "y", "true", "1", "tak", "t", "x"}
NO = {"no", "n", "false", "0", "nie"}


class BoardFileError(Exception):
    """A board file that cannot be stored: ``problems`` are lines of text saying where and why."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


# -- the template ------------------------------------------------------------------------------------------

#: first characters that would make a spreadsheet read text as a formula or an error value
FORMULA_START = frozenset("=+-@\t\r\n#")


def _put(ws, row: int, column: int, value):
    """A cell; text is never written as a formula (quote-prefixed when it could be one)."""
    if isinstance(value, str):
        value = ILLEGAL_CHARACTERS_RE.sub("", value)
    cell = ws.cell(row=row, column=column, value=value)
    if isinstance(value, str) and value[:1] in FORMULA_START:
        cell.data_type = "s"
        cell.quotePrefix = True
    return cell


def _table(ws, headers: list[str], rows: Iterable[list], widths: dict[str, int] | None = None) -> int:
    bold = Font(bold=True)
    for c, h in enumerate(headers, start=1):
        _put(ws, 1, c, h).font = bold
        ws.column_dimensions[get_column_letter(c)].width = (widths or {}).get(h, max(len(h) + 2, 8))
    n = 1
    for n, values in enumerate(rows, start=2):
        for c, v in enumerate(values, start=1):
            if v is not None and v != "":
                _put(ws, n, c, v)
    ws.freeze_panes = "B2"
    return n


def _choice_list(ws, column: int, values: Iterable[str], last_row: int) -> None:
    """A drop-down of the allowed values in a column (Excel and LibreOffice show it; nothing relies on it)."""
    dv = DataValidation(type="list", formula1='"' + ",".join(values) + '"', allow_blank=True)
    letter = get_column_letter(column)
    dv.add(f"{letter}2:{letter}{max(last_row, 2) + 20}")
    ws.add_data_validation(dv)


def _list_columns(data: dict) -> dict[str, int]:
    """How many columns each list field gets: the template's number, more if the board needs them."""
    counts = dict(LIST_FIELDS)
    for s in data.get("squares") or []:
        for key in LIST_FIELDS:
            if isinstance(s.get(key), list):
                counts[key] = min(max(counts[key], len(s[key])), MAX_LIST_VALUES)
    return counts


def square_headers(data: dict) -> list[str]:
    lists = _list_columns(data)
    head = ["index", "name", "kind", "group", "price", "mortgage", "unmortgage", "house_cost"]
    for key in ("rents", "monopolist_rents", "multipliers", "monopolist_multipliers"):
        head += [f"{key}_{i}" for i in range(lists[key])]
    head += ["amount", "percent_choice", "deck", *ROLE_DECK_COLUMNS, "monopolist_pays"]
    head += [f"die_grants_{i}" for i in range(lists["die_grants"])]
    return [*head, "note"]


def _square_row(s: dict, headers: list[str]) -> list:
    values = {k: v for k, v in s.items() if not isinstance(v, list | dict)}
    for key in LIST_FIELDS:
        for i, v in enumerate(s.get(key) or []):
            values[f"{key}_{i}"] = v
    for column, role in ROLE_DECK_COLUMNS.items():
        values[column] = (s.get("role_decks") or {}).get(role)
    values["percent_choice"] = "yes" if s.get("percent_choice") is True else None
    return [values.get(h) for h in headers]


def _card_row(deck_id: str, c: dict) -> list:
    effect = c.get("effect") or {}
    row = [deck_id, c.get("id"), c.get("text"), c.get("copies"), effect.get("kind")]
    for key in EFFECT_COLUMNS:
        v = effect.get(key)
        row.append(("yes" if v else "no") if isinstance(v, bool) else v)
    return [*row, c.get("note")]


def template_workbook(data: dict) -> bytes:
    """The workbook of a board (shipped or stored), to be edited into another one: its id left blank."""
    wb = Workbook()
    ws = wb.active
    ws.title = "board"
    board_rows = [
        ["id", "", _("Lower-case letters, digits and hyphens, e.g. anti-monopoly-pl; unique.")],
        ["name", data.get("name"), _("The edition's name as the pages show it.")],
        ["language", data.get("language"), _("The language of the names: pl, en …")],
        ["source", data.get("source"), _("Where the figures come from (optional).")],
    ]
    _table(ws, ["field", "value", "explanation"], board_rows, {"value": 40, "explanation": 70})

    ws = wb.create_sheet("squares")
    headers = square_headers(data)
    widths = {"name": 28, "kind": 12, "group": 14, "deck": 16, "note": 40, "percent_choice": 15}
    widths |= {c: 18 for c in ROLE_DECK_COLUMNS}
    last = _table(ws, headers, (_square_row(s, headers) for s in data.get("squares") or []), widths)
    _choice_list(ws, headers.index("kind") + 1, sorted(SQUARE_KINDS), last)

    decks = data.get("decks") or {}
    ws = wb.create_sheet("decks")
    _table(
        ws,
        list(DECK_FIELDS),
        ([d_id, d.get("name"), d.get("note")] for d_id, d in decks.items()),
        {"name": 30},
    )

    ws = wb.create_sheet("cards")
    rows = [_card_row(d_id, c) for d_id, d in decks.items() for c in d.get("cards") or []]
    last = _table(ws, list(CARD_COLUMNS), rows, {"id": 24, "text": 60, "deck": 16, "note": 40})
    _choice_list(ws, list(CARD_COLUMNS).index("effect") + 1, EFFECT_FIELDS, last)

    ws = wb.create_sheet("help")
    _table(ws, [_("sheet"), _("column"), _("meaning")], _help_rows(), {_("meaning"): 100})
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _help_rows() -> list[list[str]]:
    kinds = ", ".join(sorted(SQUARE_KINDS))
    effects = "; ".join(f"{k} ({', '.join(f) or '—'})" for k, f in EFFECT_FIELDS.items())
    return [
        ["squares", "index", _("0 is the start square, then in the direction of play, to 39.")],
        ["squares", "kind", _("One of: %(kinds)s.") % {"kinds": kinds}],
        ["squares", "group", _("Streets of one colour (city), the railroads, the utilities share a group.")],
        ["squares", "price, mortgage", _("Printed price and mortgage value (street, railroad, utility).")],
        ["squares", "unmortgage", _("What lifting the mortgage costs when the card prints it (optional).")],
        ["squares", "house_cost", _("The price of a house (street).")],
        ["squares", "rents_0 … rents_5", _("Street: rent without houses, with 1–4 houses, with a hotel.")],
        ["squares", "rents_0 …", _("Railroad: rent with 1, 2, 3 … railroads owned.")],
        ["squares", "multipliers_0 …", _("Utility: dice multiplier with 1, 2 … utilities owned.")],
        ["squares", "monopolist_…", _("Anti-Monopoly: the monopolist's rents or multipliers.")],
        [
            "squares",
            "amount, percent_choice",
            _("Tax square: the amount; yes if a percentage may be chosen."),
        ],
        ["squares", "deck", _("Card square: the id of its deck (sheet decks).")],
        ["squares", "competitor_deck, monopolist_deck", _("Anti-Monopoly: the deck of each role.")],
        [
            "squares",
            "monopolist_pays, die_grants_0 … 5",
            _("Foundation: a monopolist pays; grant for a die of 1–6."),
        ],
        ["decks", "id, name", _("Each card deck; a deck with no cards on sheet cards: cards by effect.")],
        [
            "cards",
            "deck, id, text, copies",
            _("A card: its deck, a unique id, its text, copies (1 if blank)."),
        ],
        ["cards", "effect, …", _("The effect and its fields: %(effects)s.") % {"effects": effects}],
        ["cards", "salary", _("move_to: no if the card forbids collecting the salary at the start.")],
        ["", "", _("Blank cells are left out. Numbers are whole numbers; upload the file on the same page.")],
    ]


# -- reading a workbook ------------------------------------------------------------------------------------


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


# -- reading JSON ------------------------------------------------------------------------------------------


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
