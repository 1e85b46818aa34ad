"""Why a move was taken back, a result reopened or the director changed something: one check for all."""

from django.utils.translation import gettext as _

from tournament.errors import RoundError
from tournament.models.games import REASON_LENGTH


def clean_reason(reason: str | None, *, missing: str, error: type[Exception]) -> str:
    """The reason stripped; ``error(missing)`` when there is none, ``error`` too when it is too long."""
    reason = (reason or "").strip()
    if not reason:
        raise error(missing)
    if len(reason) > REASON_LENGTH:
        raise error(_("Say why in at most %(n)s characters.") % {"n": REASON_LENGTH})
    return reason


def director_reason(reason: str | None) -> str:
    """The reason of a director's change on the day (tournament.event.interventions, tournament.directors)."""
    return clean_reason(reason, missing=_("Say why."), error=RoundError)
