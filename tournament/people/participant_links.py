"""A participant's private link: ``/tournaments/<pk>/me/<key>/`` opens his page without logging in.

The key (``Participant.link_key``) is 144 random bits, drawn when he is entered: unguessable, so the link is
his alone. It is kept as it is (not as a digest, unlike a referee's one-time login link) so that his slip can
be printed again; the director revokes it (the link finds nobody: 404) and gives a new one, each change in the
director's log with its reason. A key of another tournament, a revoked one and a forged one all get the same
404: none says whether the other exists."""

from __future__ import annotations

import re

from django.db import transaction
from django.http import Http404
from django.urls import reverse

from tournament.models import AuditEntry, Participant
from tournament.models.tournaments import LINK_KEY_LENGTH, new_link_key

#: A key's shape (URL-safe base64): anything else is refused before the database is asked.
KEY_SHAPE = re.compile(rf"[A-Za-z0-9_-]{{{LINK_KEY_LENGTH}}}\Z")


def participant_by_link(pk: int, key: str) -> Participant:
    """The participant of tournament ``pk`` whose link has this key, his tournament read with him; 404 for
    none."""
    if not KEY_SHAPE.match(key):
        raise Http404
    try:
        return Participant.objects.select_related("tournament").get(tournament_id=pk, link_key=key)
    except Participant.DoesNotExist:
        raise Http404 from None


def link_path(participant: Participant) -> str | None:
    """His link's path (None once revoked)."""
    if not participant.link_key:
        return None
    return reverse("participant_page", args=[participant.tournament_id, participant.link_key])


def reissue(participant: Participant, user, reason: str) -> None:
    """A new link for him: the old one finds nobody from now on."""
    _change(participant, new_link_key(), AuditEntry.Action.LINK_NEW, user, reason)


def revoke(participant: Participant, user, reason: str) -> None:
    """No link for him until a new one is given."""
    _change(participant, None, AuditEntry.Action.LINK_REVOKE, user, reason)


def _change(participant: Participant, key: str | None, action: str, user, reason: str) -> None:
    """The key changed (``update``: his standings do not change) and the change logged, together."""
    with transaction.atomic():
        Participant.objects.filter(pk=participant.pk).update(link_key=key)
        AuditEntry.objects.create(
            tournament_id=participant.tournament_id,
            participant=participant,
            action=action,
            reason=reason,
            user=user,
        )
    participant.link_key = key
