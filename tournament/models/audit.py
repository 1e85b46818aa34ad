"""What the tournament director changed by hand on the day, with who, when and why: a player absent from his
table, withdrawn, moved; a round seated again; a game stopped; a table's result entered from paper; a
co-director added or removed (``details``: his username); a participant's private link given anew
or revoked; a result confirmed over a dispute or missing signatures (the director's ruling)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.bounds import SMALL_MAX, at_most
from tournament.models.games import REASON_LENGTH


class AuditAction(models.TextChoices):
    ABSENT = "absent", _("absent from the table")
    WITHDRAW = "withdraw", _("withdrawn from the tournament")
    MOVE = "move", _("moved to another table")
    RESEAT = "reseat", _("round seated again")
    END_GAME = "end_game", _("game stopped by the director")
    HAND_RESULT = "hand_result", _("result entered by hand")
    DIRECTOR_ADD = "director_add", _("director added")
    DIRECTOR_DEL = "director_del", _("director removed")
    LINK_NEW = "link_new", _("participant's private link given anew")
    LINK_REVOKE = "link_revoke", _("participant's private link revoked")
    RULING = "ruling", _("result confirmed by the director's ruling")


class AuditEntry(models.Model):
    Action = AuditAction

    tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.CASCADE, related_name="audit", verbose_name=_("tournament")
    )
    round_number = models.PositiveSmallIntegerField(
        _("round"), null=True, blank=True, validators=at_most(SMALL_MAX)
    )
    table_number = models.PositiveSmallIntegerField(
        _("table"), null=True, blank=True, validators=at_most(SMALL_MAX)
    )
    participant = models.ForeignKey(
        "tournament.Participant",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("participant"),
    )
    action = models.CharField(_("action"), max_length=12, choices=AuditAction.choices)
    reason = models.CharField(_("reason"), max_length=REASON_LENGTH)
    # e.g. {"to_table": 3}, {"director": "anna"}
    details = models.JSONField(_("details"), default=dict, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("by")
    )
    at = models.DateTimeField(_("when"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["tournament", "-at", "-pk"]
        verbose_name = _("director's change")
        verbose_name_plural = _("director's changes")
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="audit_entry_has_reason"),
            models.CheckConstraint(condition=Q(action__in=AuditAction.values), name="audit_action_valid"),
        ]

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()}"
