"""Errors of the tournament side, shared by rounds, results and backups."""

from django.utils.translation import gettext_lazy

#: Said when a table asked for is gone: the director seated its round again meanwhile.
SEATED_AGAIN = gettext_lazy("The round was seated again meanwhile: open its new seating.")


class RoundError(Exception):
    """Something the director or referee asked for that cannot be done now (the message says why)."""


class AlreadySeated(RoundError):
    """The round asked for is seated already (two directors, or a double tap, seated it at once)."""

    def __init__(self, message, number: int):
        super().__init__(message)
        self.number = number
