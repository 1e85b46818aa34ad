"""When a referee's phone was last heard of at a game, and how many moves it said were still waiting on it
(the console's outbox, kept while the venue's Wi-Fi is down: tournament/console/sync.py), so that the
director's round page shows the tables whose moves have not reached the server yet, and the phones gone
silent.

One row a game and device, written over at every contact (``record``). It tells how the day goes, not what was
played: it is deleted with its game and is not part of a tournament's backup."""

from datetime import datetime, timedelta

from django.db import models, transaction
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


#: How long a contact written stands for the same phone saying the same: a phone heard of again sooner,
#: with as many moves waiting, is not written again (a referee flat out sends a move a second; the round page
#: calls a phone silent after minutes, ``event.round_overview.SILENT_AFTER``).
FRESH = timedelta(seconds=10)
#: What this process wrote last, by game and device: when, and the moves then waiting (forgotten, all at
#: once, when it grows past ``REMEMBERED``).
_written: dict[tuple[int, str], tuple[datetime, int]] = {}
REMEMBERED = 10_000


def record(game_id: int, device: str, waiting: int) -> None:
    """The phone ``device`` heard of at the game now, with ``waiting`` moves still on it: one statement that
    inserts the row or writes over it (an upsert), so that two requests of the same phone at once never fail
    on the unique (game, device); nothing written when this process wrote the same less than ``FRESH`` ago
    (remembered once the transaction commits)."""
    device, waiting, now = device[:DEVICE_LENGTH], max(0, min(waiting, INTEGER_MAX)), timezone.now()
    key = (game_id, device)
    last = _written.get(key)
    if last is not None and last[1] == waiting and timedelta(0) <= now - last[0] < FRESH:
        return
    ConsoleContact.objects.bulk_create(
        [ConsoleContact(game_id=game_id, device=device, seen_at=now, waiting=waiting)],
        update_conflicts=True,
        unique_fields=["game", "device"],
        update_fields=["seen_at", "waiting"],
    )

    def remember():
        if len(_written) >= REMEMBERED:
            _written.clear()
        _written[key] = (now, waiting)

    transaction.on_commit(remember)
