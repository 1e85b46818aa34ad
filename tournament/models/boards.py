"""Board editions an organiser loaded from a file (the Polish Anti-Monopoly edition, whose title cards and
card decks are not public; classic editions other than the shipped ones): found by ``rules.get_board`` like a
shipped board (tournament.boards sets the rules' loader)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

BOARD_ID_LENGTH = 40  # as Game.board and Tournament.board


class BoardEdition(models.Model):
    id = models.CharField(_("board id"), max_length=BOARD_ID_LENGTH, primary_key=True)
    name = models.CharField(_("name"), max_length=200)
    language = models.CharField(_("language"), max_length=10, blank=True)
    # the board as rules.board.parse_board reads it, validated before it was stored
    data = models.JSONField(_("board data"))
    file_name = models.CharField(_("file"), max_length=200, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("uploaded by"),
    )
    uploaded_at = models.DateTimeField(_("uploaded at"), default=timezone.now)
    # one more at every replacement: a process keeps a parsed board only as long as its version is current
    version = models.PositiveIntegerField(_("version"), default=1)

    class Meta:
        ordering = ["id"]
        verbose_name = _("board edition")
        verbose_name_plural = _("board editions")
        constraints = [models.CheckConstraint(condition=~Q(id=""), name="board_edition_id_not_blank")]

    def __str__(self):
        return f"{self.name} ({self.id})"
