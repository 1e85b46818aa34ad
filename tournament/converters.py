"""Path converters: a row id in a URL has at most 18 digits, so a 30-digit id is a 404 like any unknown one
instead of an integer the database cannot hold (SQLite's OverflowError, PostgreSQL's out of range)."""

from django.urls import register_converter


class RowIdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(int(value))


register_converter(RowIdConverter, "id")
