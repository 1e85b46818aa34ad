"""One-time login links of referees (tournament.people.referee_accounts): the director gives a referee a link
(or its
QR code) instead of a password; it logs him in once, within a limited time. Only the SHA-256 digest of the
link's secret is stored: a copy of the database opens no account."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class LoginLink(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="login_links",
        verbose_name=_("account"),
    )
    digest = models.CharField(_("digest of the secret"), max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("given by"),
    )
    created_at = models.DateTimeField(_("given"), default=timezone.now, editable=False)
    expires_at = models.DateTimeField(_("valid until"))
    used_at = models.DateTimeField(_("used"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("one-time login link")
        verbose_name_plural = _("one-time login links")

    def __str__(self):
        return f"{self.user} {self.created_at:%Y-%m-%d %H:%M}"
