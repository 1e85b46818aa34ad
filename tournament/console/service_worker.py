"""The console's service worker (``templates/console/service-worker.js``), served from the site's root so that
it may keep what a referee's phone needs for a reload without network: the console pages (the latest answer
of each, taken from the network first), the site's and the console's static files (from the cache first: their
production names carry their digest), Pyodide, the rules zip, the catalogues of the engine's and the
screen's words (from the network first: they answer 304 while unchanged). Only the console page registers it:
a participant's or a spectator's phone never gets it. Its list of files is written with their served names, so
a new release is a new worker, which replaces the old one and its cache."""

from __future__ import annotations

import hashlib
import json
import os

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_safe

from tournament.console import pyodide

#: The static files of the console page (base.html's and page.html's, and every module console.js imports, and
#: those they import: screen.js's parts in console/screen/), kept from the first visit. (Served with hashed
#: names, a module imports the others by theirs: tournament/server/static_storage.py.)
STATIC = (
    "site/favicon.svg",
    "site/site.css",
    "console/console.css",
    "site/site.js",
    "site/live.js",
    "console/console.js",
    "console/clocks.js",
    "console/connection.js",
    "console/engine.js",
    "console/engine-worker.js",
    "console/moves.js",
    "console/outbox.js",
    "console/press.js",
    "console/refused.js",
    "console/screen.js",
    "console/screen/bank.js",
    "console/screen/cards.js",
    "console/screen/debts.js",
    "console/screen/elements.js",
    "console/screen/finished.js",
    "console/screen/kept.js",
    "console/screen/log.js",
    "console/screen/now.js",
    "console/screen/players.js",
    "console/screen/status.js",
    "console/screen/time-up.js",
    "console/screen/trade.js",
    "console/screen/undo.js",
)


def kept_files() -> list[str]:
    """The addresses the worker fetches when it is installed."""
    folder = f"{settings.STATIC_URL}{pyodide.folder_name()}/"
    engine = [folder + name for name in pyodide.file_names()]
    words = [
        reverse(name, args=[code])
        for code, _ in settings.LANGUAGES
        for name in ("console_engine_words", "console_screen_words")
    ]
    return [*(static(name) for name in STATIC), *engine, reverse("console_engine"), *words]


def release(files: list[str]) -> str:
    """What names this release of the worker: its files' addresses and, for a development server whose static
    names carry no digest, the files' sizes and times (an edited script is a new release)."""
    found = [finders.find(name) for name in STATIC]
    stamps = [(os.stat(path).st_size, os.stat(path).st_mtime_ns) for path in found if path]
    return hashlib.blake2b(json.dumps([files, stamps]).encode(), digest_size=6).hexdigest()


@require_safe
def service_worker(request):
    files = kept_files()
    script = render_to_string(
        "console/service-worker.js",
        {"files": json.dumps(files), "release": release(files), "static": json.dumps(settings.STATIC_URL)},
    )
    response = HttpResponse(script, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"  # the browser checks for a new release at each console page
    response["Service-Worker-Allowed"] = "/"
    return response
