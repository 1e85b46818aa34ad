"""A file uploaded and held until the director confirms what it holds: a past-results workbook is read and
checked at once, its names shown to him (tournament/league/past_views.py), and stored only when he says they
are right — the file, up to ``settings.UPLOAD_MAX_BYTES``, waits here meanwhile (too big to travel back in the
page as a participants' list does). Each director holds one file at a time; a file not confirmed within
``HELD_FOR`` is deleted when the next one is held."""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

HELD_FOR = datetime.timedelta(days=1)
KEY_BYTES = 24


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


class HeldFile(models.Model):
    class Purpose(models.TextChoices):
        PAST_RESULTS = "past_results", _("past results")

    key = models.CharField(_("key"), max_length=64, unique=True, default=new_key, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("held for")
    )
    purpose = models.CharField(_("purpose"), max_length=16, choices=Purpose.choices)
    name = models.CharField(_("file name"), max_length=255)
    data = models.BinaryField(_("contents"))
    held_at = models.DateTimeField(_("held at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("file held for confirmation")
        verbose_name_plural = _("files held for confirmation")
        constraints = [models.UniqueConstraint(fields=["user", "purpose"], name="one_held_file_a_purpose")]

    def __str__(self):
        return self.name

    @classmethod
    def hold(cls, user, purpose: str, name: str, data: bytes) -> HeldFile:
        """Hold ``data`` for ``user`` in place of what he held for that purpose; files held too long go."""
        cls.objects.filter(held_at__lt=timezone.now() - HELD_FOR).delete()
        fields = {"key": new_key(), "name": name[:255], "data": data, "held_at": timezone.now()}
        # two uploads at once (a double tap): Django's update_or_create takes the row made meanwhile
        held, _created = cls.objects.update_or_create(user=user, purpose=purpose, defaults=fields)
        return held

    @classmethod
    def of(cls, user, purpose: str, key: str) -> HeldFile | None:
        """His file held under ``key``, if it is still held."""
        return cls.objects.filter(
            user=user, purpose=purpose, key=key, held_at__gte=timezone.now() - HELD_FOR
        ).first()
