"""When a referee's phone was last heard of at a game, and how many moves it said were still waiting on it
(the console's outbox, kept while the venue's Wi-Fi is down: tournament/console/sync.py), so that the
director's round page shows the tables whose moves have not reached the server yet, and the phones gone
silent.

One row a game and device, written over at every contact (``record``). It tells how the day goes, not what was
played: it is deleted with its game and is not part of a tournament's backup."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.bounds import INTEGER_MAX, at_most

DEVICE_LENGTH = 16  # a console's device token (tournament.console.devices: 8 random bytes in hex)


class ConsoleContact(models.Model):
    game = models.ForeignKey(
        "tournament.Game", on_delete=models.CASCADE, related_name="console_contacts", verbose_name=_("game")
    )
    device = models.CharField(_("device"), max_length=DEVICE_LENGTH)
    seen_at = models.DateTimeField(_("last contact"))
    waiting = models.PositiveIntegerField(_("moves waiting"), validators=at_most(INTEGER_MAX))

    class Meta:
        ordering = ["game", "device"]
        verbose_name = _("contact from a referee's phone")
        verbose_name_plural = _("contacts from referees' phones")
        constraints = [
            models.UniqueConstraint(fields=["game", "device"], name="one_contact_a_device"),
        ]

    def __str__(self):
        return f"{self.game_id} · {self.device} · {self.waiting}"


def record(game_id: int, device: str, waiting: int) -> None:
    """The phone ``device`` heard of at the game now, with ``waiting`` moves still on it: one statement that
    inserts the row or writes over it (an upsert), so that two requests of the same phone at once never fail
    on the unique (game, device)."""
    ConsoleContact.objects.bulk_create(
        [
            ConsoleContact(
                game_id=game_id,
                device=device[:DEVICE_LENGTH],
                seen_at=timezone.now(),
                waiting=max(0, min(waiting, INTEGER_MAX)),
            )
        ],
        update_conflicts=True,
        unique_fields=["game", "device"],
        update_fields=["seen_at", "waiting"],
    )
