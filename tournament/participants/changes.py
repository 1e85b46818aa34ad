"""Whether what a participant's page shows has changed since it was read: a fingerprint of everything the
page reads, from a few small queries (not the page itself, whose games are replayed). His page sends it back
when it polls (``views.page``'s ``since``): the same fingerprint, nothing to show (204)."""

from __future__ import annotations

import hashlib

from tournament.models import CheckIn, Game, Participant, Round, Seat, Signature, Table, standings_changes


def fingerprint(participant: Participant) -> str:
    """The participant's row itself, the standings' version (results, participants, the settings), the rounds
    and their status, his seats and their tables' referees, his games' versions (their moves), his check-ins
    and the signatures at his tables."""
    tournament = participant.tournament
    his_tables = Seat.objects.filter(participant=participant).values("table_id")
    parts = [
        (participant.name, participant.club, participant.withdrawn_after, participant.link_key),
        standings_changes.version(tournament),
        list(Round.objects.filter(tournament=tournament).values_list("pk", "status")),
        list(Seat.objects.filter(table__in=his_tables).values_list("pk", "table_id", "order", "role")),
        list(Table.referees.through.objects.filter(table__in=his_tables).values_list("pk")),
        list(Game.objects.filter(players__participant=participant).values_list("pk", "version")),
        list(CheckIn.objects.filter(participant=participant).values_list("pk")),
        list(Signature.objects.filter(table__in=his_tables).values_list("pk")),
    ]
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()
