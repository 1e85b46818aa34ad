"""Path converters: a row id in a URL has at most 18 digits, so a 30-digit id is a 404 like any unknown one
instead of an integer the database cannot hold (SQLite's OverflowError, PostgreSQL's out of range)."""

import re

from django.urls import register_converter

ROW_ID = re.compile("[0-9]{1,18}")


def is_id(value: str) -> bool:
    """A row id as a query string may carry one (``?table=12``): ASCII digits, at most 18 (not ``²``)."""
    return ROW_ID.fullmatch(value) is not None


class RowIdConverter:
    regex = ROW_ID.pattern

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(int(value))


register_converter(RowIdConverter, "id")
