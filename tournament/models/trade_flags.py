"""The director's review of a trade flagged for collusion (tournament.reports.trade_flags finds the flags in
the record; a flag is never a verdict): he marks it seen, with a note. A flag is named by its ``key``, made
from what it flags (the table and the trade's move, or the pair of participants), so that the review stays
with it however often the flags are read again."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.games import REASON_LENGTH

FLAG_KEY_LENGTH = 64


class TradeFlagReview(models.Model):
    tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.CASCADE, related_name="+", verbose_name=_("tournament")
    )
    key = models.CharField(_("flag"), max_length=FLAG_KEY_LENGTH)
    note = models.CharField(_("note"), max_length=REASON_LENGTH, blank=True)
    seen_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("seen by"),
    )
    at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        verbose_name = _("review of a flagged trade")
        verbose_name_plural = _("reviews of flagged trades")
        constraints = [models.UniqueConstraint(fields=["tournament", "key"], name="one_review_a_flag")]

    def __str__(self):
        return self.key
