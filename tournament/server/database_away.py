"""The database away — SQLite's disk full or its file unreadable, PostgreSQL restarting or unreachable — said
for what it is: a 503 in the user's language that nothing was changed and to tap again in a moment (JSON to
the phone's outbox, which keeps the move and sends it again), never the generic "something went wrong" 500.
Django's ``handler500`` (tournament/urls.py) is asked for every uncaught exception, wherever it was raised (a
session read, a view, a template): it answers this one so and leaves the others to the usual 500 page. A
write that failed so was one transaction: nothing of it is stored."""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.views import defaults

#: What a client that cannot read a page is sent (the phone's outbox, a page's fetch): its JSON.
JSON_PATHS = ("/sync/", "/contact/", "/state/")
#: Seconds a browser or the outbox is told to wait before asking again.
RETRY_SECONDS = 5


def database_away(error: BaseException | None) -> bool:
    """Whether ``error`` is the database not answering (Django's OperationalError: a disk full, a file that
    cannot be opened, a connection refused or ended by a restart; InterfaceError: a connection gone), rather
    than a fault of the app (a ProgrammingError, an IntegrityError, …)."""
    return isinstance(error, (OperationalError, InterfaceError))


def server_error(request, template_name: str = "500.html"):
    """``handler500``: the database away answered 503, anything else the usual 500 page."""
    if database_away(sys.exc_info()[1]):
        return unavailable(request)
    return defaults.server_error(request, template_name)


def unavailable(request) -> HttpResponse:
    message = _("The database is not answering just now: nothing was changed. Tap again in a moment.")
    if request.path.endswith(JSON_PATHS) or "application/json" in request.headers.get("Accept", ""):
        response = JsonResponse({"ok": False, "why": "unavailable", "message": message}, status=503)
    else:  # rendered without the request: its user and session would ask the database
        response = HttpResponse(loader.render_to_string("503.html", {"message": message}), status=503)
    response["Retry-After"] = str(RETRY_SECONDS)
    return response
