"""The statuses of a round and of a table's result: the models' choices, read by their named filters and
by the conditions every move asks (``game_conditions``)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class RoundStatus(models.TextChoices):
    SEATED = "seated", _("seated")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")


class ResultStatus(models.TextChoices):
    CONFIRMED = "confirmed", _("confirmed")
    REOPENED = "reopened", _("reopened")
