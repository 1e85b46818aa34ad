"""The largest number each kind of integer column holds on every database the app runs on.

SQLite stores 64-bit integers in any integer column, PostgreSQL's ``integer`` holds 32 bits and ``smallint``
16, and Django's own range validators follow the database in use: a number typed on SQLite could make a
backup that PostgreSQL refuses. The model fields carry these bounds as validators, so that the forms
(``full_clean``), the participants import (``run_validators``) and the backup import (``field_maximum``)
refuse the same numbers on both databases, in one place.
"""

from django.core.validators import MaxValueValidator

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
