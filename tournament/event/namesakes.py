"""Namesakes: two people of one name in a tournament are real (a second "Jan Kowalski" of another club plays
too). The database refuses two of one name and one club (``unique_participant_name_and_club``); each
participant who shares his name with another is marked (``Participant.namesake``), and wherever a name is
printed — pages, the console, the games' records, slips, sheets and the workbook — his club is printed with it
(``Participant.shown_name``: "Jan Kowalski (SP 12)").

The marks are set again for the whole tournament whenever a participant is added or renamed (the model's
signal) or participants are added in bulk (``mark``, called by the imports and the restore), the tournament's
row held first so that two namesakes added at once both end marked; a participant deleted unmarks his
namesake if he is left alone."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.db.models.functions import Lower
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext as _

from tournament.models import Participant, Tournament
from tournament.models.standings_changes import with_its_tournament


def mark(tournament_id: int) -> None:
    """Mark the tournament's participants who share their name (as compared) with another, and only them;
    in the caller's transaction. Only the marks that change are written (most times none: no row held)."""
    with transaction.atomic():  # (a participant saved outside a transaction: its own)
        Tournament.objects.select_for_update().filter(pk=tournament_id).exists()  # one marking at a time
        others = Participant.objects.filter(tournament_id=tournament_id).exclude(pk=OuterRef("pk"))
        them = Participant.objects.filter(tournament_id=tournament_id).annotate(
            shared=Exists(others.annotate(key=Lower("name")).filter(key=Lower(OuterRef("name"))))
        )
        them.filter(shared=True, namesake=False).update(namesake=True)
        them.filter(shared=False, namesake=True).update(namesake=False)


def _saved(sender, instance: Participant, created: bool, **kwargs) -> None:
    if kwargs.get("raw"):
        return
    if created or instance.name != getattr(instance, "_stored_name", None):  # his name is new or changed
        mark(instance.tournament_id)
        instance._stored_name = instance.name
        instance.namesake = Participant.objects.filter(pk=instance.pk).values_list("namesake", flat=True)[0]


def _deleted(sender, instance: Participant, origin=None, **kwargs) -> None:
    """His namesake, left alone, is no longer marked; nothing to mark for a participant deleted with his
    tournament."""
    if not with_its_tournament(origin):
        mark(instance.tournament_id)


def connect() -> None:
    """Called once, when the app is ready (tournament/apps.py)."""
    post_save.connect(_saved, sender=Participant, dispatch_uid="participant_namesakes_saved")
    post_delete.connect(_deleted, sender=Participant, dispatch_uid="participant_namesakes_deleted")


def registered_already(name: str, club: str) -> str:
    """Why a participant of this name and club is refused: he is registered (a namesake needs his club)."""
    if club:
        return _("%(name)s of %(club)s is already registered.") % {"name": name, "club": club}
    return _(
        "%(name)s is already registered. If this is another person of that name, give their club or school "
        "(or a note in its place) to tell them apart."
    ) % {"name": name}
