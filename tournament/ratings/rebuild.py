"""The ratings rebuilt from the results that count, in date order (rules/ratings.py computes them).

The sources: every tournament table's counted result (confirmed, and confirmed twice where the tournament asks
for it), each player at the table his participant's linked player; and the past tournaments' rankings
imported (``PastPlacement``), each entrant his linked player. A participant with no player linked is left
out of the table (the others keep their order among themselves).

Order (``Point``): by date; on one day the past tournaments first, then the tournaments, each by id; within a
tournament by round and table (a player sits at one table a round, so the tables of a round are independent).

A rebuild ``since`` a point keeps the ratings after every event before it and computes the rest again: what a
confirmation in today's tournament costs. From the beginning (``since=None``) it is the full rebuild; both end
in the same figures (tests/test_ratings.py). A change asks for its rebuild with a row (``ask``) written in its
own transaction; ``rebuild_asked`` does all the rows waiting as one rebuild and deletes them in its
transaction, so a rebuild that fails (or a process stopped before it ran) leaves them for the next.

A rebuild reads and computes outside the write lock (on SQLite, one for the whole database: the referees'
moves wait on it) and writes in a short transaction, taking turns on the ``RatingsRebuild`` row. The rows
asked for and the count of rebuilds written are its generation: the same when it began reading and once it
holds the row, nothing it read has changed, and its figures are written; otherwise it reads again
(``_settled``).
"""

from __future__ import annotations

import datetime
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from rules.ratings import League, Rating, Table
from tournament.models import (
    PastPlacement,
    PlayerRating,
    RatingsPending,
    RatingsRebuild,
    RatingStep,
    TableScore,
    counting,
)
from tournament.models.bulk import Rows, insert

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
    counted = TableScore.objects.filter(counting("result__"))
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


def _step(player: int, point: Point, rating: Rating, played: int, change: float) -> tuple:
    """A ``RatingStep``'s values (``STEP_FIELDS``)."""
    return (
        player,
        point.source_id if point.source == SOURCE_TOURNAMENT else None,
        point.source_id if point.source == SOURCE_PAST else None,
        point.date,
        point.source,
        point.source_id,
        rating.mu,
        rating.sigma,
        rating.ordinal,
        rating.games,
        played,
        change,
    )


#: Rebuilds computed outside the lock and found out of date (a change asked for another meanwhile) before one
#: is computed under it, as the changes keep coming.
ATTEMPTS = 3


def rebuild(since: Point | None = None) -> int:
    """Rebuild the ratings from ``since`` on (None: from the beginning); returns the tables rated. The
    rebuilds asked for from ``since`` on are done with it."""

    def done(asked: dict[int, Point | None]) -> list[int]:
        if since is None:
            return list(asked)
        return [pk for pk, point in asked.items() if point is not None and point >= since]

    return _settled(lambda asked: since, done, none_asked=_ANYWAY)


def rebuild_asked() -> int | None:
    """Do every rebuild asked for (``RatingsPending``) as one, from the earliest point asked; None when none
    waits (a rebuild that took its turn before this one did them: at the end of a round, many confirmations
    ask at once and few rebuilds run)."""

    def since(asked: dict[int, Point | None]) -> Point | None:
        points = [point for point in asked.values() if point is not None]
        return None if len(points) < len(asked) else min(points)

    return _settled(since, list, none_asked=None)


_ANYWAY = object()  # ``none_asked``: rebuild even when no rebuild is asked for


def _settled(since_of, done_of, none_asked):
    """A rebuild computed from what is stored outside the write lock, then written in a short transaction if
    nothing changed meanwhile. Every change to what the ratings are made of asks for a rebuild in its own
    transaction (``ask``), and every rebuild written counts itself: the rebuilds asked for and that count,
    the same when the reading began and under the lock, say that what was read is what is stored (they are
    the generation; the rows alone would miss a change asked for and done meanwhile by another rebuild, which
    leaves the same rows — none). Otherwise it is read again; after
    ``ATTEMPTS``, under the lock. ``since_of`` and ``done_of`` take the rebuilds asked for (by pk) and give
    the point to rebuild from and the requests done by it; ``none_asked`` is returned when none is asked
    for."""
    for _attempt in range(ATTEMPTS):
        asked, written = _asked(), _written()
        if not asked and none_asked is not _ANYWAY:
            return none_asked
        plan = _plan(since_of(asked))
        with transaction.atomic():
            _take_turn()
            if _asked() == asked and _written() == written:
                return _write(plan, done_of(asked))
    with transaction.atomic():  # the changes keep coming: read under the lock, as before any of this
        _take_turn()
        asked = _asked()
        if not asked and none_asked is not _ANYWAY:
            return none_asked
        return _write(_plan(since_of(asked)), done_of(asked))


def _written() -> int:
    """How many rebuilds have written their figures: another one meanwhile (a change asked for and done
    while this one read, leaving the same rows asked for — none) makes what was read stale too."""
    return RatingsRebuild.objects.filter(pk=1).values_list("written", flat=True).first() or 0


def _asked() -> dict[int, Point | None]:
    """The rebuilds asked for and not done, by pk: each one's point (None: from the beginning)."""
    rows = RatingsPending.objects.values_list("pk", "date", "source", "source_id")
    return {pk: None if day is None else Point(day, source, source_id) for pk, day, source, source_id in rows}


def ask(since: Point | None) -> None:
    """Ask for a rebuild from ``since`` (None: from the beginning), in the current transaction: done by
    ``rebuild_asked`` once it commits (``tournament.ratings.triggers``), or by any later rebuild."""
    if since is None:
        RatingsPending.objects.create()
    else:
        RatingsPending.objects.create(date=since.date, source=since.source, source_id=since.source_id)


@dataclass
class Plan:
    """A rebuild computed, to be written: the steps from ``since`` on, the ratings of ``changed`` players
    (every player's when ``since`` is None), the tables rated."""

    since: Point | None
    steps: Rows
    ratings: Rows
    changed: set[int]
    rated: int


STEP_FIELDS = (
    "player",
    "tournament",
    "past_event",
    "date",
    "source",
    "source_id",
    "mu",
    "sigma",
    "ordinal",
    "games",
    "played",
    "change",
)
RATING_FIELDS = ("player", "mu", "sigma", "ordinal", "games", "change", "last_played")


def _stale(since: Point | None):
    return RatingStep.objects.all() if since is None else RatingStep.objects.filter(since.q_from())


def _plan(since: Point | None) -> Plan:
    """The rebuild from ``since``, computed from what is stored (reads only)."""
    todo = events(since)
    affected = set(_stale(since).values_list("player_id", flat=True).distinct())
    if since is not None:  # and those whose latest step went with its tournament (deleted: a cascade)
        affected |= set(
            PlayerRating.objects.filter(last_played__gte=since.date).values_list("player_id", flat=True)
        )
    playing = {p for ev in todo for t in ev.tables for p, _r in t.places if p is not None}
    before = {} if since is None else _ratings_before(since, affected | playing)
    league = League({p: Rating(s.mu, s.sigma, s.games) for p, s in before.items()})
    # each player's rating now (``RATING_FIELDS`` but the player): from before, then from each step made
    latest = {p: (s.mu, s.sigma, s.ordinal, s.games, s.change, s.date) for p, s in before.items()}
    stepped: set[int] = set()
    all_steps: list[tuple] = []
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
            change = rating.ordinal - start[p]
            all_steps.append(_step(p, ev.point, rating, n, change))
            latest[p] = (rating.mu, rating.sigma, rating.ordinal, rating.games, change, ev.point.date)
            stepped.add(p)
    changed = affected | stepped
    return Plan(
        since,
        Rows.of(RatingStep, STEP_FIELDS, all_steps),
        Rows.of(
            PlayerRating,
            RATING_FIELDS,
            ((p, *values) for p, values in latest.items() if p in changed or since is None),
        ),
        changed,
        rated,
    )


def _write(plan: Plan, done: list[int]) -> int:
    """The rebuild computed written and the requests it does deleted, in the caller's transaction; returns the
    tables rated."""
    RatingsPending.objects.filter(pk__in=done).delete()
    RatingsRebuild.objects.filter(pk=1).update(written=F("written") + 1)
    _stale(plan.since).delete()
    insert(plan.steps)
    if plan.since is None:
        PlayerRating.objects.all().delete()
    else:
        changed = sorted(plan.changed)
        for start in range(0, len(changed), 5000):
            PlayerRating.objects.filter(player_id__in=changed[start : start + 5000]).delete()
    insert(plan.ratings)
    return plan.rated
