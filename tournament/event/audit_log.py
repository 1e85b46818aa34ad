"""An entry of the director's log (``AuditEntry``) for a round or one of its tables: what the director changed
by hand (tournament.event.interventions) and the rulings he confirms a result with (results.confirm)."""

from __future__ import annotations

from tournament.models import AuditEntry, Table


def audit(table_or_round, action: str, user, reason: str, participant=None, **details) -> AuditEntry:
    if isinstance(table_or_round, Table):
        round_, table_number = table_or_round.round, table_or_round.number
    else:
        round_, table_number = table_or_round, None
    return AuditEntry.objects.create(
        tournament_id=round_.tournament_id,
        round_number=round_.number,
        table_number=table_number,
        participant=participant,
        action=action,
        reason=reason,
        details=details,
        user=user if user is not None and user.is_authenticated else None,
    )
