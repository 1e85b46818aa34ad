"""The largest number each kind of integer column holds on every database the app runs on.

SQLite stores 64-bit integers in any integer column, PostgreSQL's ``integer`` holds 32 bits and ``smallint``
16, and Django's own range validators follow the database in use: a number typed on SQLite could make a
backup that PostgreSQL refuses. The model fields carry these bounds as validators, so that the forms
(``full_clean``), the participants import (``run_validators``) and the backup import (``field_maximum``)
refuse the same numbers on both databases, in one place.
"""

import datetime

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.utils import timezone
from django.utils.translation import gettext as _

SMALL_MAX = 32_767  # PositiveSmallIntegerField: a round, a table, a seat, minutes, seconds
INTEGER_MAX = 2_147_483_647  # PositiveIntegerField: a seed, a version, a move's sequence number
#: A tournament's seed: each round is seated with ``seed × 1000 + its number`` (one more at each reseat),
#: which must fit in the round's integer column too.
TOURNAMENT_SEED_MAX = 2_000_000


def at_most(maximum: int) -> list:
    return [MaxValueValidator(maximum)]


def field_maximum(model, field: str) -> int:
    """The largest value the model's integer field accepts on every database (its validators)."""
    limits = [
        v.limit_value for v in model._meta.get_field(field).validators if isinstance(v, MaxValueValidator)
    ]
    return min(limits)


#: The dates a tournament (or a past one, imported for the ratings) may have: a date outside is a typing error
#: (1900 for 2026, 2206 for 2026), and it would move the event in the league's history, whose ratings are
#: computed in date order. From Monopoly's first edition (1935) to this many years after today (a tournament
#: entered ahead of its day).
EARLIEST_EVENT_DATE = datetime.date(1935, 1, 1)
EVENT_YEARS_AHEAD = 2


def latest_event_date() -> datetime.date:
    today = timezone.localdate()
    return datetime.date(today.year + EVENT_YEARS_AHEAD, 12, 31)


def check_event_date(day: datetime.date) -> None:
    """ValidationError, saying the dates taken, when ``day`` is no date an event may have."""
    first, last = EARLIEST_EVENT_DATE, latest_event_date()
    if not first <= day <= last:
        raise ValidationError(
            _("Enter a date from %(first)s to %(last)s (not %(date)s).")
            % {"first": first.isoformat(), "last": last.isoformat(), "date": day.isoformat()},
            code="event_date",
        )
