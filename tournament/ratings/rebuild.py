"""The ratings rebuilt from the results that count, in date order (rules/ratings.py computes them).

The sources: every tournament table's counted result (confirmed, and confirmed twice where the tournament asks
for it), each player at the table his participant's linked player; and the past tournaments' rankings
imported (``PastPlacement``), each entrant his linked player. A participant with no player linked is left
out of the table (the others keep their order among themselves).

Order (``Point``): by date; on one day the past tournaments first, then the tournaments, each by id; within a
tournament by round and table (a player sits at one table a round, so the tables of a round are independent).

A rebuild ``since`` a point keeps the ratings after every event before it and computes the rest again: what a
confirmation in today's tournament costs. From the beginning (``since=None``) it is the full rebuild; both end
in the same figures (tests/test_ratings.py). Rebuilds take turns on the ``RatingsRebuild`` row: each reads
the results only once it holds it, so the last one to run has seen every result committed before it. A
change asks for its rebuild with a row (``ask``) written in its own transaction; ``rebuild_asked`` does all
the rows waiting as one rebuild and deletes them in its transaction, so a rebuild that fails (or a process
stopped before it ran) leaves them for the next.
"""

from __future__ import annotations

import datetime
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from rules.ratings import League, Rating, Table
from tournament.models import (
    PastPlacement,
    PlayerRating,
    RatingsPending,
    RatingsRebuild,
    RatingStep,
    TableResult,
    TableScore,
)

SOURCE_PAST = 0  # a past tournament imported (PastEvent)
SOURCE_TOURNAMENT = 1  # a tournament played here


@dataclass(frozen=True, order=True)
class Point:
    """Where an event stands in the ratings' order: (date, source, id)."""

    date: datetime.date
    source: int
    source_id: int

    @classmethod
    def of_tournament(cls, tournament) -> Point:
        return cls(tournament.date, SOURCE_TOURNAMENT, tournament.pk)

    @classmethod
    def of_past_event(cls, event) -> Point:
        return cls(event.date, SOURCE_PAST, event.pk)

    def q_from(self, prefix: str = "") -> Q:
        """Rows at or after this point (fields ``date``, ``source``, ``source_id``)."""
        d, s, i = f"{prefix}date", f"{prefix}source", f"{prefix}source_id"
        return (
            Q(**{f"{d}__gt": self.date})
            | Q(**{d: self.date, f"{s}__gt": self.source})
            | Q(**{d: self.date, s: self.source, f"{i}__gte": self.source_id})
        )


@dataclass
class Event:
    point: Point
    tables: list[Table]


def _tournament_events(since: Point | None) -> Iterator[Event]:
    """The tournaments' counted results from ``since`` on, as events of tables."""
    counted = TableScore.objects.filter(result__status=TableResult.Status.CONFIRMED).filter(
        Q(result__table__round__tournament__second_confirmation=False) | Q(result__second_by__isnull=False)
    )
    t = "result__table__round__tournament__"
    if since is not None:
        if since.source > SOURCE_TOURNAMENT:
            return
        after = Q(**{f"{t}date__gt": since.date})
        if since.source == SOURCE_TOURNAMENT:
            after |= Q(**{f"{t}date": since.date, f"{t}id__gte": since.source_id})
        else:
            after |= Q(**{f"{t}date": since.date})
        counted = counted.filter(after)
    rows = counted.order_by(
        f"{t}date", f"{t}id", "result__table__round__number", "result__table__number", "result_id", "position"
    ).values_list(f"{t}date", f"{t}id", "result_id", "participant__player_id", "rank")
    for (date, tid), event_rows in itertools.groupby(rows.iterator(chunk_size=5000), key=lambda r: r[:2]):
        tables = [
            Table([(r[3], r[4]) for r in table_rows])
            for _result, table_rows in itertools.groupby(event_rows, key=lambda r: r[2])
        ]
        yield Event(Point(date, SOURCE_TOURNAMENT, tid), tables)


def _past_events(since: Point | None) -> Iterator[Event]:
    """The past tournaments' placements from ``since`` on, as events of tables."""
    placements = PastPlacement.objects.all()
    e = "entrant__event__"
    if since is not None:
        after = Q(**{f"{e}date__gt": since.date})
        if since.source == SOURCE_PAST:
            after |= Q(**{f"{e}date": since.date, f"{e}id__gte": since.source_id})
        placements = placements.filter(after)
    rows = placements.order_by(
        f"{e}date", f"{e}id", "round_number", "table_number", "rank", "entrant_id"
    ).values_list(f"{e}date", f"{e}id", "round_number", "table_number", "entrant__player_id", "rank")
    for (date, eid), event_rows in itertools.groupby(rows.iterator(chunk_size=5000), key=lambda r: r[:2]):
        tables = [
            Table([(r[4], r[5]) for r in table_rows])
            for _table, table_rows in itertools.groupby(event_rows, key=lambda r: r[2:4])
        ]
        yield Event(Point(date, SOURCE_PAST, eid), tables)


def events(since: Point | None = None) -> list[Event]:
    """Every event from ``since`` on (None: all), in the ratings' order."""
    return sorted(itertools.chain(_past_events(since), _tournament_events(since)), key=lambda ev: ev.point)


def _take_turn() -> None:
    """Hold the rebuilds' row until this transaction ends (a write: SQLite's lock and PostgreSQL's row lock
    both), made the first time."""
    now = timezone.now()
    if RatingsRebuild.objects.filter(pk=1).update(rebuilt_at=now):
        return
    try:
        with transaction.atomic():
            RatingsRebuild.objects.create(pk=1, rebuilt_at=now)
    except IntegrityError:  # another rebuild made it meanwhile: wait for it
        RatingsRebuild.objects.filter(pk=1).update(rebuilt_at=now)


def _ratings_before(point: Point, players: Iterable[int]) -> dict[int, RatingStep]:
    """Each of these players' latest step before ``point``."""
    latest: dict[int, RatingStep] = {}
    players = list(players)
    for start in range(0, len(players), 5000):
        chunk = players[start : start + 5000]
        steps = (
            RatingStep.objects.filter(player_id__in=chunk)
            .exclude(point.q_from())
            .order_by("player_id", "date", "source", "source_id")
        )
        for step in steps:
            latest[step.player_id] = step
    return latest


def _step(player: int, point: Point, rating: Rating, played: int, change: float) -> RatingStep:
    return RatingStep(
        player_id=player,
        tournament_id=point.source_id if point.source == SOURCE_TOURNAMENT else None,
        past_event_id=point.source_id if point.source == SOURCE_PAST else None,
        date=point.date,
        source=point.source,
        source_id=point.source_id,
        mu=rating.mu,
        sigma=rating.sigma,
        ordinal=rating.ordinal,
        games=rating.games,
        played=played,
        change=change,
    )


@transaction.atomic
def rebuild(since: Point | None = None) -> int:
    """Rebuild the ratings from ``since`` on (None: from the beginning); returns the tables rated. The
    rebuilds asked for from ``since`` on are done with it."""
    _take_turn()
    asked = RatingsPending.objects.all()
    if since is not None:
        asked = asked.filter(date__isnull=False).filter(since.q_from())
    asked.delete()
    return _rebuild(since)


@transaction.atomic
def rebuild_asked() -> int | None:
    """Do every rebuild asked for (``RatingsPending``) as one, from the earliest point asked; None when none
    waits (a rebuild that took its turn before this one did them: at the end of a round, many confirmations
    ask at once and few rebuilds run)."""
    _take_turn()
    asked = list(RatingsPending.objects.values_list("pk", "date", "source", "source_id"))
    if not asked:
        return None
    points = [Point(d, s, i) for _pk, d, s, i in asked if d is not None]
    since = None if len(points) < len(asked) else min(points)
    RatingsPending.objects.filter(pk__in=[pk for pk, *_rest in asked]).delete()
    return _rebuild(since)


def ask(since: Point | None) -> None:
    """Ask for a rebuild from ``since`` (None: from the beginning), in the current transaction: done by
    ``rebuild_asked`` once it commits (``tournament.ratings.triggers``), or by any later rebuild."""
    if since is None:
        RatingsPending.objects.create()
    else:
        RatingsPending.objects.create(date=since.date, source=since.source, source_id=since.source_id)


def _rebuild(since: Point | None) -> int:
    todo = events(since)
    stale = RatingStep.objects.all() if since is None else RatingStep.objects.filter(since.q_from())
    affected = set(stale.values_list("player_id", flat=True).distinct())
    if since is not None:  # and those whose latest step went with its tournament (deleted: a cascade)
        affected |= set(
            PlayerRating.objects.filter(last_played__gte=since.date).values_list("player_id", flat=True)
        )
    playing = {p for ev in todo for t in ev.tables for p, _r in t.places if p is not None}
    before = {} if since is None else _ratings_before(since, affected | playing)
    league = League({p: Rating(s.mu, s.sigma, s.games) for p, s in before.items()})
    new_steps: dict[int, RatingStep] = {}  # each player's latest
    all_steps: list[RatingStep] = []
    rated = 0
    for ev in todo:
        played: Counter = Counter()
        start: dict[int, float] = {}
        for table in ev.tables:
            players = [p for p, _r in table.places if p is not None]
            for p in players:
                start.setdefault(p, league.rating(p).ordinal)
            if league.play(table):
                rated += 1
                played.update(players)
        for p, n in played.items():
            rating = league.ratings[p]
            step = _step(p, ev.point, rating, n, rating.ordinal - start[p])
            all_steps.append(step)
            new_steps[p] = step
    stale.delete()
    RatingStep.objects.bulk_create(all_steps, batch_size=2000)
    latest = {**before, **new_steps}
    changed = affected | set(new_steps)
    if since is None:
        PlayerRating.objects.all().delete()
    else:
        PlayerRating.objects.filter(player_id__in=changed).delete()
    PlayerRating.objects.bulk_create(
        (
            PlayerRating(
                player_id=p,
                mu=s.mu,
                sigma=s.sigma,
                ordinal=s.ordinal,
                games=s.games,
                change=s.change,
                last_played=s.date,
            )
            for p, s in latest.items()
            if p in changed or since is None
        ),
        batch_size=2000,
    )
    return rated
