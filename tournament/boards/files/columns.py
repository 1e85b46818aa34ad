"""A board file's sheets and columns (the JSON format's fields, each with its kind), the bounds of what is
read of them, and the error that lists what is wrong with a file."""

from __future__ import annotations

from rules.roles import ROLES

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
