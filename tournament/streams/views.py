"""The event streams' addresses: a table's (its console on a second device) and a tournament's (the standings,
the projector, the seating, a participant's page with his table, the director's round page with the moves).
Open to everyone, like the public pages: an event says only that something changed and the game's version,
never a name or a figure; the page then reads itself anew with its own permission."""

from __future__ import annotations

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import Http404, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from tournament.converters import is_id
from tournament.models import Table, Tournament
from tournament.streams import hub, topics
from tournament.streams.topics import Topic


@require_safe
def table_events(request, pk: int):
    """A table's stream: its game's moves, its players' signatures, its result."""
    get_object_or_404(Table, pk=pk)
    return _stream(request, frozenset({("table", pk)}), settings.CONSOLE_POLL_SECONDS)


@require_safe
def tournament_events(request, pk: int):
    """A tournament's stream: its standings, rounds, seating and check-ins; with ``?table=`` one of its tables
    too (a participant's page: one stream), with ``?play=1`` the moves at all of them (the round page); with
    ``?follow=standings`` its standings alone (the standings page, the projector)."""
    get_object_or_404(Tournament, pk=pk)
    followed: set[Topic] = {("standings" if request.GET.get("follow") == "standings" else "tournament", pk)}
    table = request.GET.get("table")
    if table is not None:
        if not is_id(table) or not Table.objects.filter(pk=table, round__tournament=pk).exists():
            raise Http404
        followed.add(("table", int(table)))
    if request.GET.get("play") == "1":
        followed.add(("play", pk))
    return _stream(request, frozenset(followed), settings.PARTICIPANT_POLL_SECONDS)


def _stream(request, followed: frozenset[Topic], every: int):
    # a reconnection's Last-Event-ID; else the position a page kept across its own reload (projector.js)
    last = request.headers.get("Last-Event-ID") or request.GET.get("last", "")
    if isinstance(request, ASGIRequest):
        # the stream reads through its process's hub: this request's own connection is not kept for hours
        # (nor left open when the browser goes: the ASGI server cancels the stream without closing it)
        connection.close()
        content = hub.stream(followed, last)
    else:
        content = _once(followed, last, every)
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on as it comes
    return response


def _once(followed: frozenset[Topic], last: str, every: int):
    """Under WSGI (runserver, gunicorn's workers) a stream would hold a worker: it answers what changed since
    ``last`` and ends, and the browser asks again ``every`` seconds later (the page's poll interval)."""
    yield f"retry: {every * 1000}\n\n"
    shown = topics.read(followed)
    now = topics.stream_id(shown, followed)
    if now != last:
        yield hub.message(now, topics.changed_since(last, shown, followed), shown)
