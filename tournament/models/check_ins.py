"""A participant here for a round, before it is seated (tournament.event.check_in): from his private link, or
ticked by the director. A tournament that asks for it (``Tournament.check_in``) seats these only."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.bounds import SMALL_MAX, at_most


class CheckInVia(models.TextChoices):
    LINK = "link", _("their private link")
    DIRECTOR = "director", _("the director")


class CheckIn(models.Model):
    Via = CheckInVia

    participant = models.ForeignKey(
        "tournament.Participant",
        on_delete=models.CASCADE,
        related_name="check_ins",
        verbose_name=_("participant"),
    )
    round_number = models.PositiveSmallIntegerField(_("round"), validators=at_most(SMALL_MAX))
    via = models.CharField(_("checked in by"), max_length=8, choices=CheckInVia.choices)
    # the director who ticked him (None: from his own link)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("by")
    )
    at = models.DateTimeField(_("when"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["round_number", "at", "pk"]
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        constraints = [
            # once a round: a double tap, or the link and the director at once, check him in once
            models.UniqueConstraint(fields=["participant", "round_number"], name="one_check_in_a_round"),
            models.CheckConstraint(condition=Q(via__in=CheckInVia.values), name="check_in_via_valid"),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="check_in_round_from_1"),
        ]

    def __str__(self):
        return f"{self.participant} · {self.round_number}"
