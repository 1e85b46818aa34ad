"""Many rows written in a short write: what the league's big writes (past results imported, the ratings
rebuilt) use so that SQLite's one write lock is held briefly while the referees' moves wait.

Django's ``bulk_create`` builds a model instance and compiles its SQL for every row inside the transaction:
for 100,000 rows, seconds under the lock. Here the values are made ready for the database first (``Rows``,
before the transaction: each field's own conversion, as ``bulk_create`` would make it) and written in the
transaction by ``insert``, hundreds of rows a statement (on SQLite three times as fast as one statement
executed for each row)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import connection
from django.db.models import Model

BATCH = 500  # rows a statement, at most (fewer where the database takes fewer parameters)


@dataclass(frozen=True)
class Rows:
    """Rows of one model ready to be inserted: the columns of ``fields`` and each row's values, converted."""

    model: type[Model]
    fields: tuple[str, ...]
    values: list[tuple]

    @classmethod
    def of(cls, model: type[Model], fields: Sequence[str], rows: Iterable[Sequence]) -> Rows:
        """``rows`` (values of ``fields`` in order, as the model's attributes hold them) converted as the
        fields convert them for the database (a date as the database takes it, a float as a float)."""
        model_fields = [model._meta.get_field(name) for name in fields]
        prepare = [f.get_db_prep_save for f in model_fields]
        plain = all(f.get_internal_type() in _AS_THEY_ARE for f in model_fields)
        values = (
            [tuple(row) for row in rows]
            if plain
            else [tuple(p(v, connection) for p, v in zip(prepare, row, strict=True)) for row in rows]
        )
        return cls(model, tuple(f.column for f in model_fields), values)


#: Fields whose Python values the database takes as they are (no conversion to make).
_AS_THEY_ARE = frozenset(
    {
        "AutoField",
        "BigAutoField",
        "BigIntegerField",
        "CharField",
        "FloatField",
        "ForeignKey",
        "IntegerField",
        "PositiveIntegerField",
        "PositiveSmallIntegerField",
        "SmallIntegerField",
    }
)


def insert(rows: Rows) -> int:
    """Insert the rows (in the current transaction: the caller holds one), many in one statement; returns how
    many."""
    if not rows.values:
        return 0
    quote = connection.ops.quote_name
    width = len(rows.fields)
    most = min(BATCH, (connection.features.max_query_params or BATCH * width) // width)
    head = "INSERT INTO {} ({}) VALUES ".format(
        quote(rows.model._meta.db_table), ", ".join(quote(c) for c in rows.fields)
    )
    one = "({})".format(", ".join(["%s"] * width))
    with connection.cursor() as cursor:
        for start in range(0, len(rows.values), most):
            batch = rows.values[start : start + most]
            cursor.execute(head + ", ".join([one] * len(batch)), [v for row in batch for v in row])
    return len(rows.values)
