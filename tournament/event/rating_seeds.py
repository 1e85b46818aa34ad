"""The seeds round 1 is seated by (rules.seating spreads the seeded players in snake order).

With ``Tournament.seed_by_rating`` (the default) a seed the director typed for a participant
(``Participant.seed``) holds its number; the participants whose linked player has a rating
(``PlayerRating``) fill the seed numbers left free, best rated first (a higher ``ordinal``; then more games
played; then by name); the others — unrated, or not linked to a player — get no seed and are drawn. Without
it only the typed seeds count (as before ratings).

Ratings are read in one query, however many participants.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from tournament.collation import name_key
from tournament.models import Participant, PlayerRating, Tournament


class Seed(NamedTuple):
    number: int
    from_rating: bool  # False: typed by the director


def seeds(tournament: Tournament, participants: Iterable[Participant]) -> dict[int, Seed]:
    """The seed of each of these participants (by pk) who has one in round 1."""
    participants = list(participants)
    out = {p.pk: Seed(p.seed, False) for p in participants if p.seed is not None}
    if not tournament.seed_by_rating:
        return out
    linked = [p for p in participants if p.seed is None and p.player_id is not None]
    if not linked:
        return out
    ratings = {
        player_id: (ordinal, games)
        for player_id, ordinal, games in PlayerRating.objects.filter(
            player_id__in=[p.player_id for p in linked]
        ).values_list("player_id", "ordinal", "games")
    }
    rated = sorted(
        (p for p in linked if p.player_id in ratings),
        key=lambda p: (-ratings[p.player_id][0], -ratings[p.player_id][1], name_key(p.name), p.pk),
    )
    taken = {s.number for s in out.values()}
    number = 0
    for p in rated:
        number += 1
        while number in taken:
            number += 1
        out[p.pk] = Seed(number, True)
    return out


def seed_numbers(tournament: Tournament, participants: Iterable[Participant]) -> dict[int, int]:
    """The seed numbers alone, by participant pk (``seeds``)."""
    return {pk: s.number for pk, s in seeds(tournament, participants).items()}
