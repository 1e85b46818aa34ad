"""Who directs a tournament: its creator, and the co-directors its directors add from the accounts with the
director's role (tournament.people.access). Each addition and removal is kept in the director's log, with who,
when and why; the last director is not removed (staff direct every tournament all the same)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.errors import RoundError
from tournament.models import AuditEntry, Tournament
from tournament.people.access import DIRECTORS_GROUP
from tournament.reasons import director_reason


def _shown(username: str) -> str:
    """The name typed, as it can be shown in a message (bounded, printable)."""
    limit = get_user_model()._meta.get_field("username").max_length
    text = "".join(c for c in str(username) if c.isprintable())
    return text[:limit] + ("…" if len(text) > limit else "")


def _account(username: str):
    """The account named ``username`` that may become a director, or RoundError saying why not."""
    model = get_user_model()
    limit = model._meta.get_field("username").max_length
    user = None
    if username and len(username) <= limit and username.isprintable():
        user = model.objects.filter(username=username).first()
    if user is None:
        raise RoundError(_("There is no account %(name)s.") % {"name": _shown(username)})
    if not user.is_active:
        raise RoundError(_("The account %(name)s is not active.") % {"name": user.get_username()})
    if not user.groups.filter(name=DIRECTORS_GROUP).exists():
        raise RoundError(
            _(
                "%(name)s is not a director's account: an administrator gives the director's role "
                "(Django admin, group “directors”)."
            )
            % {"name": user.get_username()}
        )
    return user


def _log(tournament: Tournament, action: str, user, reason: str, director) -> None:
    AuditEntry.objects.create(
        tournament=tournament,
        action=action,
        reason=reason,
        details={"director": director.get_username()},
        user=user if user is not None and user.is_authenticated else None,
    )


@transaction.atomic
def add_director(tournament: Tournament, username: str, user, reason: str):
    """Make the account ``username`` a director of ``tournament`` too; returns the account."""
    reason = director_reason(reason)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)  # one change at a time
    director = _account(username)
    if tournament.directors.filter(pk=director.pk).exists():
        raise RoundError(_("%(name)s already directs this tournament.") % {"name": director.get_username()})
    tournament.directors.add(director)
    _log(tournament, AuditEntry.Action.DIRECTOR_ADD, user, reason, director)
    return director


@transaction.atomic
def remove_director(tournament: Tournament, username: str, user, reason: str):
    """``username`` no longer directs ``tournament`` (refused for its last director); returns the account."""
    reason = director_reason(reason)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)  # the count, one at a time
    director = tournament.directors.filter(username=username).first() if isinstance(username, str) else None
    if director is None:
        raise RoundError(_("%(name)s does not direct this tournament.") % {"name": _shown(username)})
    if tournament.directors.count() == 1:
        raise RoundError(
            _("%(name)s is this tournament's only director: add another director first.")
            % {"name": director.get_username()}
        )
    tournament.directors.remove(director)
    _log(tournament, AuditEntry.Action.DIRECTOR_DEL, user, reason, director)
    return director
