"""A file as the browser receives it: its response and its name."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.http import content_disposition_header
from django.utils.text import slugify

from tournament.models import Tournament


def file_response(data: bytes, name: str, content_type: str = "application/pdf", *, inline: bool = True):
    """A PDF opens in the browser (to print it); a workbook downloads. The file keeps its Polish letters."""
    response = HttpResponse(data, content_type=content_type)
    stem, _dot, ext = name.rpartition(".")
    filename = f"{slugify(stem, allow_unicode=True) or 'export'}.{ext}"
    response["Content-Disposition"] = content_disposition_header(not inline, filename)
    return response


def file_name(tournament: Tournament, *parts) -> str:
    """A tournament's file's name: the tournament's, then what the file holds."""
    return "-".join([tournament.name, *map(str, parts)])
