"""A player's word on his table's figures, from his private link, once the game is over and before the result
is confirmed (tournament.event.signatures): he agrees, or disputes them saying why. Every tap is kept (who,
when, from which link, on which version of the game); the latest on the game's current version counts."""

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.bounds import INTEGER_MAX, at_most
from tournament.models.games import REASON_LENGTH
from tournament.models.tournaments import LINK_KEY_LENGTH


class Signature(models.Model):
    table = models.ForeignKey(
        "tournament.Table", on_delete=models.CASCADE, related_name="signatures", verbose_name=_("table")
    )
    participant = models.ForeignKey(
        "tournament.Participant",
        on_delete=models.CASCADE,
        related_name="signatures",
        verbose_name=_("participant"),
    )
    # the game's version whose figures he read: a later change of the game (a move undone) voids it
    game_version = models.PositiveIntegerField(_("version of the game"), validators=at_most(INTEGER_MAX))
    agrees = models.BooleanField(_("agrees"))
    reason = models.CharField(_("why they dispute"), max_length=REASON_LENGTH, blank=True)
    # the move he disputes, by its number in the game's log (the replay opens at it), when he names one
    disputed_move = models.PositiveIntegerField(
        _("the move disputed"), null=True, blank=True, validators=at_most(INTEGER_MAX)
    )
    link_key = models.CharField(_("from the private link"), max_length=LINK_KEY_LENGTH)
    at = models.DateTimeField(_("when"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["table", "at", "pk"]
        verbose_name = _("signature of a result")
        verbose_name_plural = _("signatures of results")
        constraints = [
            models.CheckConstraint(condition=Q(agrees=True) | ~Q(reason=""), name="a_dispute_says_why"),
        ]

    def __str__(self):
        return f"{self.participant} · {'✓' if self.agrees else '✗'}"
