"""The league, for everyone (no login): the players by rating (``league``: a name search, a hundred a page),
a player's page (``player``: his rating now, after every tournament and past tournament he played, and every
table he played), and the ratings' Excel workbook (``workbook``).

Every figure is the stored one (``PlayerRating``, ``RatingStep``: tournament/ratings/rebuild.py derives them
from the confirmed results), in the workbook's order and places (tournament/exports/league_workbook.py) and
rounded as its number formats show them: one truth on the page, in the workbook and in the database."""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from itertools import groupby
from urllib.parse import urlencode

from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import Count, OuterRef, Q, Subquery
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

from tournament.converters import is_id
from tournament.exports.downloads import file_response
from tournament.exports.league_workbook import ORDER, league_workbook
from tournament.models import (
    LeagueChange,
    PastEvent,
    PastPlacement,
    Player,
    PlayerRating,
    RatingsRebuild,
    RatingStep,
    TableScore,
    Tournament,
    counting,
)
from tournament.models.players import name_key
from tournament.people.access import is_director

PER_PAGE = 100  # players a page: 2,000 players are 20 pages
SEARCH_LENGTH = 100  # characters of a name searched for (more are cut)
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
ARROWS = {"up": "▲", "down": "▼", "same": "="}


# -- the figures as shown ----------------------------------------------------------------------------------


def _rounded(value: float, places: int) -> Decimal:
    """Rounded half away from zero, as Excel's number formats show a figure (the workbook's), never -0."""
    rounded = Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return abs(rounded) if rounded == 0 else rounded


def fixed(value: float, places: int = 1) -> str:
    """A rating (one decimal) or μ, σ (two) in the active language's form: "12.3", "12,3"."""
    return number_format(_rounded(value, places), places)


@dataclass(frozen=True)
class Trend:
    """A rating's change as shown: its direction ("up", "down", "same") and its figure with a sign."""

    direction: str
    text: str

    @property
    def arrow(self) -> str:
        return ARROWS[self.direction]


def trend(change: float) -> Trend:
    rounded = _rounded(change, 1)
    if rounded > 0:
        return Trend("up", "+" + number_format(rounded, 1))
    if rounded < 0:
        return Trend("down", number_format(rounded, 1))
    return Trend("same", number_format(rounded, 1))


# -- the league --------------------------------------------------------------------------------------------


def _search(request) -> str:
    """The name searched for: printable characters only (no NUL, which PostgreSQL refuses), bounded."""
    text = request.GET.get("q", "")
    return "".join(c for c in text[: SEARCH_LENGTH * 4] if c.isprintable())[:SEARCH_LENGTH].strip()


def _page_number(request) -> int:
    value = request.GET.get("page", "")
    return max(1, int(value)) if is_id(value) else 1


def _places(ordinals: list[float]) -> list[int]:
    """The league places of these ratings (best first, as a page lists them): one more than the number of
    better ratings in the whole league (equal ratings share a place), counted in one query of the ratings
    at least as good as the page's last."""
    if not ordinals:
        return []
    better = sorted(PlayerRating.objects.filter(ordinal__gte=ordinals[-1]).values_list("ordinal", flat=True))
    return [1 + len(better) - bisect_right(better, o) for o in ordinals]


@require_safe
@gzip_page
def league(request):
    """The players by rating: place, name, club, rating (μ and σ beside), games, the last change and when.
    A hundred a page; a search by name keeps every player's place in the whole league."""
    q = _search(request)
    ratings = PlayerRating.objects.order_by(*ORDER).values_list(
        "player_id",
        "player__name",
        "player__club",
        "ordinal",
        "mu",
        "sigma",
        "games",
        "change",
        "last_played",
    )
    found = ratings.filter(player__name_key__contains=name_key(q)) if q else ratings
    paginator = Paginator(found, PER_PAGE)
    page = paginator.get_page(min(_page_number(request), paginator.num_pages))
    shown = list(page.object_list)
    rows = [
        {
            "place": place,
            "pk": pk,
            "name": name,
            "club": club,
            "rating": fixed(ordinal),
            "mu": fixed(mu, 2),
            "sigma": fixed(sigma, 2),
            "games": games,
            "trend": trend(change),
            "last_played": last_played,
        }
        for place, (pk, name, club, ordinal, mu, sigma, games, change, last_played) in zip(
            _places([r[3] for r in shown]), shown, strict=True
        )
    ]

    def page_url(number: int) -> str:
        return "?" + urlencode({**({"q": q} if q else {}), "page": number})

    return render(
        request,
        "league/league.html",
        {
            "rows": rows,
            "q": q,
            "rated": paginator.count if not q else PlayerRating.objects.count(),
            "found": paginator.count,
            "page": page,
            "pages": [
                {"number": n, "url": page_url(n) if n != paginator.ELLIPSIS else None}
                for n in paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1)
            ],
            "previous_url": page_url(page.previous_page_number()) if page.has_previous() else None,
            "next_url": page_url(page.next_page_number()) if page.has_next() else None,
            "rebuilt_at": RatingsRebuild.objects.filter(pk=1).values_list("rebuilt_at", flat=True).first(),
        },
    )


# -- a player's page ---------------------------------------------------------------------------------------


def _tournament_results(player: Player) -> list[dict]:
    """Every table he played in a tournament whose result counts (confirmed, and confirmed twice where the
    tournament asks for it: the ratings' own rule), with how many sat at it."""
    seated = (
        TableScore.objects.filter(result=OuterRef("result"))
        .order_by()
        .values("result")
        .annotate(n=Count("pk"))
        .values("n")
    )
    t = "result__table__round__tournament__"
    scores = (
        TableScore.objects.filter(counting("result__"), participant__player=player)
        .annotate(seated=Subquery(seated))
        .values_list(
            f"{t}id",
            f"{t}name",
            f"{t}date",
            "result__table__round__number",
            "result__table__number",
            "rank",
            "seated",
            "score",
            "points",
        )
    )
    return [
        {
            "key": (date, 1, tid, round_number, table),
            "date": date,
            "event": name,
            "url": reverse("standings", args=[tid]),
            "round": round_number,
            "table": table,
            "rank": rank,
            "seated": n,
            "score": score,
            "points": points,
        }
        for tid, name, date, round_number, table, rank, n, score, points in scores
    ]


def _past_results(player: Player) -> list[dict]:
    """Every table he played in a past tournament imported, with how many sat at it."""
    seated = (
        PastPlacement.objects.filter(
            entrant__event=OuterRef("entrant__event"),
            round_number=OuterRef("round_number"),
            table_number=OuterRef("table_number"),
        )
        .order_by()
        .values("table_number")
        .annotate(n=Count("pk"))
        .values("n")
    )
    placements = (
        PastPlacement.objects.filter(entrant__player=player)
        .annotate(seated=Subquery(seated))
        .values_list(
            "entrant__event_id",
            "entrant__event__name",
            "entrant__event__date",
            "round_number",
            "table_number",
            "rank",
            "seated",
        )
    )
    return [
        {
            "key": (date, 0, eid, round_number, table),
            "date": date,
            "event": name,
            "url": None,
            "round": round_number,
            "table": table,
            "rank": rank,
            "seated": n,
            "score": None,
            "points": None,
        }
        for eid, name, date, round_number, table, rank, n in placements
    ]


CHART_WIDTH, CHART_HEIGHT = 400, 120
CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 40, 8, 10, 10


def _chart(steps: list[RatingStep]) -> dict | None:
    """His rating after each tournament as a line (an inline SVG's coordinates), oldest on the left; none
    before his second tournament. The coordinates are text, never localized ("40.5", not "40,5")."""
    if len(steps) < 2:
        return None
    values = [s.ordinal for s in steps]
    low, high = min(values), max(values)
    if high - low < 1:  # a flat line in the middle, not a magnified wobble
        low, high = (low + high) / 2 - 0.5, (low + high) / 2 + 0.5
    width = CHART_WIDTH - CHART_LEFT - CHART_RIGHT
    height = CHART_HEIGHT - CHART_TOP - CHART_BOTTOM

    def x(i: int) -> str:
        return f"{CHART_LEFT + i * width / (len(steps) - 1):.1f}"

    def y(value: float) -> str:
        return f"{CHART_TOP + (high - value) / (high - low) * height:.1f}"

    dots = [
        {
            "x": x(i),
            "y": y(s.ordinal),
            "title": f"{date_format(s.date, 'SHORT_DATE_FORMAT')} {_event_name(s)}: {fixed(s.ordinal)}",
        }
        for i, s in enumerate(steps)
    ]
    return {
        "box": f"0 0 {CHART_WIDTH} {CHART_HEIGHT}",
        "points": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "dots": dots,
        "left": str(CHART_LEFT),
        "right": str(CHART_WIDTH - CHART_RIGHT),
        "label_x": str(CHART_LEFT - 4),
        "high": fixed(high),
        "high_y": y(high),
        "low": fixed(low),
        "low_y": y(low),
        "zero_y": y(0) if low < 0 < high else None,
    }


def _event_name(step: RatingStep) -> str:
    return step.tournament.name if step.tournament_id is not None else step.past_event.name


@require_safe
@gzip_page
def player(request, pk: int):
    """A player's page: his number (the director merges players by it), his rating now and his place in the
    league, his rating after every tournament he played (a line and a table), and every table he played,
    under each tournament's name, the newest first."""
    p = get_object_or_404(Player, pk=pk)
    rating = PlayerRating.objects.filter(player=p).first()
    now = None
    if rating is not None:
        now = {
            "rating": fixed(rating.ordinal),
            "mu": fixed(rating.mu, 2),
            "sigma": fixed(rating.sigma, 2),
            "games": rating.games,
            "trend": trend(rating.change),
            "last_played": rating.last_played,
            "place": _places([rating.ordinal])[0],
            "rated": PlayerRating.objects.count(),
        }
    steps = list(
        RatingStep.objects.filter(player=p)
        .select_related("tournament", "past_event")
        .order_by("date", "source", "source_id")
    )
    history = [
        {
            "date": s.date,
            "event": _event_name(s),
            "url": reverse("standings", args=[s.tournament_id]) if s.tournament_id is not None else None,
            "played": s.played,
            "rating": fixed(s.ordinal),
            "trend": trend(s.change),
            "mu": fixed(s.mu, 2),
            "sigma": fixed(s.sigma, 2),
        }
        for s in reversed(steps)
    ]
    results = sorted(_tournament_results(p) + _past_results(p), key=lambda r: r["key"], reverse=True)
    events = [
        {"event": rows[0]["event"], "date": rows[0]["date"], "url": rows[0]["url"], "rows": rows}
        for rows in (list(g) for _key, g in groupby(results, key=lambda r: r["key"][:3]))
    ]
    return render(
        request,
        "league/player.html",
        {
            "player": p,
            "now": now,
            "history": history,
            "chart": _chart(steps),
            "events": events,
            # the league's log of him, for those who may change the league (it names who did)
            "changes": (
                LeagueChange.objects.filter(Q(player=p) | Q(other=p)).select_related("user")
                if is_director(request.user)
                else None
            ),
        },
    )


# -- the workbook ------------------------------------------------------------------------------------------


@require_safe
def workbook(request):
    """The ratings' workbook: the league's table and every player's history (tournament.exports). Written
    once for what it shows (``_workbook_key``) and kept in the process's cache, the last one only: a public
    download of 2,000 players costs openpyxl some 2 s of CPU."""
    key = _workbook_key()
    kept = cache.get(WORKBOOK_CACHE_KEY)  # one workbook a process (and language): the last one written
    if kept is not None and kept[0] == key:
        data = kept[1]
    else:
        data = league_workbook()
        cache.set(WORKBOOK_CACHE_KEY, (key, data), WORKBOOK_KEPT)
    named = _("league ratings")  # (not inside the f-string: makemessages would not find it)
    name = f"{named} {timezone.localdate()}.xlsx"
    return file_response(data, name, XLSX, inline=False)


WORKBOOK_KEPT = 24 * 3600  # seconds; the key changes with every figure and name the workbook shows
WORKBOOK_CACHE_KEY = "league-workbook"


def _workbook_key() -> str:
    """What the workbook shows, as a key: the last rebuild, the language, and the names it prints (players,
    tournaments, past tournaments: a name changed without a rebuild)."""
    digest = hashlib.sha256()
    rebuilt = RatingsRebuild.objects.filter(pk=1).values_list("rebuilt_at", flat=True).first()
    digest.update(f"{rebuilt}|{get_language()}".encode())
    rated = Player.objects.filter(rating__isnull=False).order_by("pk").values_list("pk", "name", "club")
    events = Tournament.objects.order_by("pk").values_list("pk", "name")
    past = PastEvent.objects.order_by("pk").values_list("pk", "name")
    for rows in (rated, events, past):
        for row in rows:
            digest.update(repr(row).encode())
        digest.update(b"|")
    return "league-workbook:" + digest.hexdigest()
