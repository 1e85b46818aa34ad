"""Parts of the console's panel kept from one answer to the next: a player's card and a row of the log are
rendered again only when what they show has changed (``{% cache %}`` in console/panel/_players.html and
console/_move.html, keyed by the game, the language and the very data they show). A move changes one or two
players' cards and adds one row: the rest is the answer before's.

What differs from one answer to the next whatever the game, the hidden fields of every form (the CSRF token,
the version, the request key, what the screen has seen), is never kept in them: the templates write
``HIDDEN`` where they go, and ``page`` writes the request's own in its place.

The cache is each process's memory (settings.CACHES): an entry is found only by the data it shows, so a
process that does not have it renders it, and none can show another's stale part."""

from __future__ import annotations

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

#: How long a part is kept unused (its data shown no more: an older state of the game).
KEPT_SECONDS = 3600

#: Where a form's hidden fields go, in the panel's templates (``hidden`` in their context).
HIDDEN = mark_safe("<!--the form's hidden fields-->")


def page(request, template: str, context: dict, hidden_fields: str) -> HttpResponse:
    """``template`` rendered, each form given ``hidden_fields`` where the templates wrote ``HIDDEN``."""
    context["hidden"], context["fragment_seconds"] = HIDDEN, KEPT_SECONDS
    return HttpResponse(render_to_string(template, context, request).replace(HIDDEN, hidden_fields))
