"""The workbook an organiser fills in for a board edition: a sheet per part of the board laid out with a
board's data (the classic board's, or a stored edition's), the choices offered in lists, and a help sheet."""

from __future__ import annotations

import io
from collections.abc import Iterable

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from rules.board import EFFECT_FIELDS, SQUARE_KINDS
from tournament.boards.files.columns import (
    CARD_COLUMNS,
    DECK_FIELDS,
    EFFECT_COLUMNS,
    LIST_FIELDS,
    MAX_LIST_VALUES,
    ROLE_DECK_COLUMNS,
)

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
