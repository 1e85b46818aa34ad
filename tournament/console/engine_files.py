"""What the referee's phone loads to run the rules itself while the Wi-Fi is down:
- the rules, the ledger and the console's view model as Pyodide loads them (``tournament.console.view_model.
  phone``, run by ``static/console/engine-worker.js``): their Python files and the shipped boards in one zip,
  made once a process from the files the server itself runs, so the phone's engine and screen are the
  server's; kept under an ETag (the files' digest): a phone asks again at each console page and gets a 304
  until they change;
- the catalogue in which the phone translates the engine's messages (Django's JSON catalogue of the
  project's words, one address a language: the console's service worker keeps each);
- the words of the console's screen (static/console/screen.js and its wiring: Django's JavaScript catalogue
  of the ``djangojs`` domain, ``gettext``, ``ngettext``, ``pgettext``, ``interpolate``), one address a
  language, kept too."""

from __future__ import annotations

import hashlib
import io
import zipfile
from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.utils import translation
from django.views.decorators.http import require_safe
from django.views.i18n import JavaScriptCatalog, JSONCatalog

import rules

#: Where the server imports the three packages from (a checkout's root, or an installed copy's
#: site-packages), and the files the phone runs of them: the rules with their shipped boards, the ledger, and
#: the console's view model (its two parents only for their ``__init__.py``, which import nothing).
ROOT = Path(rules.__file__).resolve().parent.parent
SHIPPED = (
    "rules/*.py",
    "rules/*/*.py",
    "rules/boards/*.json",
    "ledger/*.py",
    "tournament/__init__.py",
    "tournament/console/__init__.py",
    "tournament/console/view_model/*.py",
)


@cache
def phone_zip() -> tuple[bytes, str]:
    """The zip (``rules/…``, ``ledger/…``, ``tournament/…`` inside; files in a fixed order and time: the same
    files, the same bytes) and its ETag."""
    files = sorted({path for pattern in SHIPPED for path in ROOT.glob(pattern)})
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for path in files:
            info = zipfile.ZipInfo(path.relative_to(ROOT).as_posix(), date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())
    data = out.getvalue()
    return data, f'"{hashlib.blake2b(data, digest_size=12).hexdigest()}"'


@require_safe
def engine_zip(request):
    data, etag = phone_zip()
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(data, content_type="application/zip")
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"  # asked again each time (a 304 while the rules are the same)
    return response


def _in(language: str, catalogue, request):
    """``catalogue`` (one of Django's views) in ``language``, one of the site's; asked again each time (a
    service worker keeps it, and the words change with a release)."""
    if language not in dict(settings.LANGUAGES):
        raise Http404
    with translation.override(language):
        response = catalogue(request)
    response["Cache-Control"] = "no-cache"
    return response


_catalog = JSONCatalog.as_view(domain="django")  # every word the project translates (LOCALE_PATHS too)
_screen_catalog = JavaScriptCatalog.as_view(domain="djangojs")


@require_safe
def engine_catalog(request, language: str):
    """The project's translations into ``language`` (``{"catalog": {msgid: msgstr}, "plural": …}``)."""
    return _in(language, _catalog, request)


@require_safe
def screen_catalog(request, language: str):
    """The console's own words in ``language``, as a script (``window.gettext`` and its kin)."""
    return _in(language, _screen_catalog, request)
