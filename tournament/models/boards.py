"""Board editions an organiser loaded from a file (the Polish Anti-Monopoly edition, whose title cards and
card decks are not public; classic editions other than the shipped ones): found by ``rules.get_board`` like a
shipped board (tournament.boards.editions sets the rules' loader)."""

import hashlib
import json

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

BOARD_ID_LENGTH = 40  # as Game.board and Tournament.board


def data_digest(data: dict) -> str:
    """The SHA-256 of a board's data (as JSON with sorted keys): equal for equal boards only."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


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
    # the board's version: the digest of its data (data_digest). A process keeps a parsed board while the
    # stored one has the same digest (after a replacement, or a delete and a new upload under its id, too)
    digest = models.CharField(_("digest"), max_length=64, editable=False, default="")

    class Meta:
        ordering = ["id"]
        verbose_name = _("board edition")
        verbose_name_plural = _("board editions")
        constraints = [models.CheckConstraint(condition=~Q(id=""), name="board_edition_id_not_blank")]

    def __str__(self):
        return f"{self.name} ({self.id})"
