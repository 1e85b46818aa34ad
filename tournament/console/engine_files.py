"""The rules package as the referee's phone loads it into Pyodide (``rules.offline``, run by
``static/console/engine-worker.js`` while the Wi-Fi is down): its Python files and shipped boards in one zip,
made once a process from the files the server itself runs, so the phone's engine is the server's. Kept under
an ETag (the files' digest): a phone asks again at each console page and gets a 304 until the rules change."""

from __future__ import annotations

import hashlib
import io
import zipfile
from functools import cache
from pathlib import Path

from django.http import HttpResponse, HttpResponseNotModified
from django.views.decorators.http import require_safe

import rules

PACKAGE = Path(rules.__file__).resolve().parent
SHIPPED = ("*.py", "*/*.py", "boards/*.json")


@cache
def rules_zip() -> tuple[bytes, str]:
    """The zip (``rules/…`` inside; files in a fixed order and time: the same files, the same bytes) and its
    ETag."""
    files = sorted({p for pattern in SHIPPED for p in PACKAGE.glob(pattern)})
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for path in files:
            info = zipfile.ZipInfo(
                f"rules/{path.relative_to(PACKAGE).as_posix()}", date_time=(2020, 1, 1, 0, 0, 0)
            )
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())
    data = out.getvalue()
    return data, f'"{hashlib.blake2b(data, digest_size=12).hexdigest()}"'


@require_safe
def engine_zip(request):
    data, etag = rules_zip()
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(data, content_type="application/zip")
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"  # asked again each time (a 304 while the rules are the same)
    return response
