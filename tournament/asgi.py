"""The app for an ASGI server (uvicorn): the event streams (``tournament/streams``), held open by the phones
(an idle thread each, the database read once a change for all of them); every other page too, though
gunicorn's workers (``wsgi.py``) serve those faster (README: the production recipe routes ``/events/``
here)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
application = get_asgi_application()


def without_kept_connections() -> None:
    """No database connection kept after a request: under ASGI each request's Django part runs in a thread of
    its own, and a connection kept for reuse would stay open with nobody to reuse it (Django's persistent
    connections are for WSGI's long-lived workers). The streams read through their hub's own connection."""
    from django.db import connections

    for alias in connections.settings:
        connections.settings[alias]["CONN_MAX_AGE"] = 0


without_kept_connections()
