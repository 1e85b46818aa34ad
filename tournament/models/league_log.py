"""The league's log: who changed the league's players and past tournaments, when, what and why — a player
renamed, merged into another or split in two, a past tournament deleted (any director may: the league is every
organiser's, so each change leaves its trace). Shown on the player's page and the past tournaments' page."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.games import NAME_LENGTH, REASON_LENGTH


class LeagueChange(models.Model):
    class Action(models.TextChoices):
        RENAMED = "renamed", _("renamed")
        MERGED = "merged", _("merged into another player")
        SPLIT = "split", _("split in two")
        PAST_DELETED = "past_deleted", _("past tournament deleted")

    at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("by")
    )
    action = models.CharField(_("what"), max_length=16, choices=Action.choices)
    # the players it concerns, while they are (a player merged into another is no more: his name stays below)
    player = models.ForeignKey(
        "tournament.Player",
        null=True,
        on_delete=models.SET_NULL,
        related_name="league_changes",
        verbose_name=_("player"),
    )
    other = models.ForeignKey(
        "tournament.Player",
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("the other player"),
    )
    # what was, and what became, as they read then: "Jan Kowalski (Łódź)", "#12 Jan Kowalski", "Puchar Łodzi"
    before = models.CharField(_("before"), max_length=2 * NAME_LENGTH + 20, blank=True)
    after = models.CharField(_("after"), max_length=2 * NAME_LENGTH + 20, blank=True)
    reason = models.CharField(_("why"), max_length=REASON_LENGTH, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("change in the league's log")
        verbose_name_plural = _("the league's log")

    def __str__(self):
        return f"{self.get_action_display()}: {self.before} → {self.after}"
