"""Leagues for the tests: players, and tournaments whose results are stored as confirmed without playing
their games (``results_tournament``), fast enough for hundreds of tables; the rows the ratings derive,
comparable (``snapshot``). The callers need the database."""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence

from rules.standings import DEFAULT_POINTS, placement_points
from tournament.models import (
    Participant,
    Player,
    PlayerRating,
    RatingStep,
    Round,
    Seat,
    Table,
    TableResult,
    Tournament,
)


def make_players(names: Sequence[str], club: str = "") -> list[Player]:
    return [Player.objects.create(name=n, club=club) for n in names]


def results_tournament(
    name: str,
    date: datetime.date,
    rounds: Sequence[Sequence[Sequence[tuple[Player | str, int]]]],
    **fields,
) -> Tournament:
    """A tournament of ``date`` whose rounds are played: ``rounds`` is, for each round, its tables, each a
    list of (player, place): a Player (his participant linked to him) or a name (a participant with no
    player). Each table's result is stored confirmed, entered by hand (no game), with scores of 0 and the
    default placement points."""
    t = Tournament.objects.create(name=name, date=date, rounds=max(1, len(rounds)), **fields)
    participants: dict[str, Participant] = {}

    def participant(who) -> Participant:
        key = who.name if isinstance(who, Player) else who
        if key not in participants:
            participants[key] = Participant.objects.create(
                tournament=t,
                name=key,
                club=who.club if isinstance(who, Player) else "",
                player=who if isinstance(who, Player) else None,
            )
        return participants[key]

    for number, tables in enumerate(rounds, start=1):
        round_ = Round.objects.create(tournament=t, number=number, status=Round.Status.FINISHED)
        for table_number, places in enumerate(tables, start=1):
            table = Table.objects.create(round=round_, number=table_number)
            rows = []
            for order, (who, rank) in enumerate(places):
                p = participant(who)
                Seat.objects.create(table=table, participant=p, order=order)
                rows.append(
                    {
                        "participant": p.pk,
                        "name": p.name,
                        "rank": rank,
                        "score": 0,
                        "points": placement_points(rank, DEFAULT_POINTS),
                    }
                )
            TableResult.objects.create(
                table=table,
                ranking=sorted(rows, key=lambda r: (r["rank"], r["name"])),
                by_hand=True,  # no game played here: as a table played on paper
                hand_reason="played on paper",
            )
    return t


def league_of_three_tournaments(
    days=(datetime.date(2026, 1, 10), datetime.date(2026, 2, 14), datetime.date(2026, 3, 21)),
):
    """Tournaments A, B and C (on ``days``) of 12 players linked to players, 3 rounds of 3 tables of 4 with
    random places, each table's result confirmed."""
    players = make_players([f"P{i:02}" for i in range(12)])
    rng = random.Random(3)
    made = []
    for name, date in zip("ABC", days, strict=True):
        rounds_ = []
        for _r in range(3):
            order = rng.sample(players, 12)
            rounds_.append([[(p, rng.randint(1, 4)) for p in order[i : i + 4]] for i in range(0, 12, 4)])
        made.append(results_tournament(name, date, rounds_))
    return made


def snapshot():
    """Every row the ratings derive (their steps and the ratings), comparable."""
    steps = sorted(
        (
            s.player_id,
            s.date,
            s.source,
            s.source_id,
            round(s.mu, 9),
            round(s.sigma, 9),
            s.games,
            s.played,
            round(s.change, 9),
        )
        for s in RatingStep.objects.all()
    )
    ratings = sorted(
        (r.player_id, round(r.mu, 9), round(r.sigma, 9), r.games, round(r.change, 9), r.last_played)
        for r in PlayerRating.objects.all()
    )
    return steps, ratings
