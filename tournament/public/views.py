"""For everyone (read-only, no login): the standings — a sortable table and a self-refreshing projector view
that pages through them — and who sits at which table in a round."""

import hashlib
from urllib.parse import urlencode

import django_tables2 as tables
from django.conf import settings
from django.shortcuts import get_object_or_404, render
from django.utils import translation
from django.utils.cache import get_conditional_response
from django.utils.functional import SimpleLazyObject
from django.utils.http import quote_etag
from django.utils.translation import gettext_lazy as _
from django.views.decorators.gzip import gzip_page

from tournament import reports
from tournament.collation import name_key
from tournament.models import Tournament, standings_changes

ROWS_PER_COLUMN = 16  # projector rows one above another (projector.css: a row is 5 % of the screen's height)
ROWS_PER_PAGE = 2 * ROWS_PER_COLUMN  # a 16:9 screen holds two columns of them side by side
REFRESH_SECONDS = 20  # when they fit on one page: how often it is read anew


#: Columns a phone leaves out (site.css hides them below 40rem): the rank, the name and the points stay.
WIDE_ONLY = {"th": {"class": "wide-only"}, "td": {"class": "wide-only"}}


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name="#")
    name = tables.Column(verbose_name=_("Participant"), order_by=("name_key",))  # Ł after L, not after Z
    club = tables.Column(verbose_name=_("Club / school"), attrs=WIDE_ONLY)
    points = tables.Column(verbose_name=_("Points"))
    total_score = tables.Column(verbose_name=_("Total score"))
    best_score = tables.Column(verbose_name=_("Best score"), default="—", attrs=WIDE_ONLY)
    games = tables.Column(verbose_name=_("Games"), attrs=WIDE_ONLY)

    class Meta:
        attrs = {"class": "standings"}
        order_by = "rank"
        template_name = "public/standings_table.html"  # its rows written straight: a thousand of them


def shown_rows(tournament: Tournament) -> list[dict]:
    """The standings best first; participants sharing a rank in Polish alphabetical order. Read from the
    stored results (``reports.standings_rows``, as the standings PDF): a few queries, whatever the number of
    moves played — a thousand phones reload this page when a round ends."""
    rows = [
        {
            "rank": r.rank,
            "name": r.participant.name,
            "name_key": name_key(r.participant.name),
            "club": r.participant.club,
            "points": r.points,
            "total_score": r.total_score,
            "best_score": r.best_score,
            "games": r.games,
            "withdrawn": not r.participant.active,
        }
        for r in reports.standings_rows(tournament)
    ]
    return sorted(rows, key=lambda row: (row["rank"], row["name_key"]))


#: How long a rendered standings page is kept (its key holds the standings' version: never stale).
KEPT_SECONDS = 600


def _etag(request, kept: str) -> str:
    """The page as this browser has it: the standings' version, the language, the address (sorting), and the
    browser's own session and CSRF cookies (the top bar says who is logged in and carries a CSRF token)."""
    seen = [
        kept,
        translation.get_language(),
        request.get_full_path(),
        request.COOKIES.get(settings.SESSION_COOKIE_NAME, ""),
        request.META.get("CSRF_COOKIE", ""),  # the cookie's secret, or the one this answer gives it
    ]
    return quote_etag(hashlib.blake2b("\n".join(seen).encode(), digest_size=16).hexdigest())


@gzip_page  # a phone on the venue's Wi-Fi: 172 KB for 1,000 participants, a tenth of it compressed
def standings(request, pk: int):
    """The standings, sortable. A thousand phones reload this page when a round ends, so what it shows is
    kept, rendered, under the standings' version (``standings_changes.version``, one short query): the
    standings are read and the table rendered (its rows written straight, public/standings_table.html) once a
    version, a language and a sorting. A browser that has the page already gets a 304 (its ETag)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    kept = standings_changes.version(tournament)
    etag = _etag(request, kept)
    unchanged = get_conditional_response(request, etag=etag)
    if unchanged is not None:
        return _revalidated(unchanged, etag)

    def table():  # made only when the rendered page is not kept: reading and sorting a thousand rows costs
        table = StandingsTable(shown_rows(tournament))
        tables.RequestConfig(request, paginate=False).configure(table)
        return table

    response = render(
        request,
        "public/standings.html",
        {
            "tournament": tournament,
            "table": SimpleLazyObject(table),
            "kept": kept,
            "kept_seconds": KEPT_SECONDS,
        },
    )
    return _revalidated(response, _etag(request, kept))  # with the CSRF cookie it may have been given now


def _revalidated(response, etag: str):
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"  # asked again at every reload: a 304 while unchanged
    return response


def _bounded(request, name: str, low: int, high: int, default: int | None) -> int | None:
    try:
        return min(max(int(request.GET.get(name, "")), low), high)
    except ValueError:
        return default


def projector_pages(count: int, most: int) -> tuple[int, int]:
    """How many pages ``count`` rows take at ``most`` rows a page, and how many rows each page then shows:
    the rows shared evenly (40 at 32 a page: two pages of 20, not 32 and 8)."""
    pages = max(1, -(-count // most))
    return pages, max(1, -(-count // pages))


def in_columns(rows: list, per_column: int = ROWS_PER_COLUMN) -> list[list]:
    """A page's rows in side-by-side columns of at most ``per_column``, shared evenly (20: two of 10)."""
    columns = max(1, -(-len(rows) // per_column))
    height = max(1, -(-len(rows) // columns))
    return [rows[i : i + height] for i in range(0, len(rows), height)] or [[]]


def projector(request, pk: int):
    """The standings on a projector, a page at a time: up to ``ROWS_PER_PAGE`` rows, in two columns when they
    do not fit in one, fill a 16:9 screen (1920×1080 or any other: projector.css sizes everything by the
    screen's height), so that a tournament of 32 is on one page. With more rows the page turns itself to the
    next every ``settings.PROJECTOR_PAGE_SECONDS`` (``?page=``; from the last back to the first), each load
    reading the standings anew; ``?rows=`` sets fewer rows a page for another screen."""
    tournament = get_object_or_404(Tournament, pk=pk)
    rows = shown_rows(tournament)
    most = _bounded(request, "rows", 5, ROWS_PER_PAGE, ROWS_PER_PAGE)
    pages, per_page = projector_pages(len(rows), most)
    page = _bounded(request, "page", 1, pages, 1)
    following = {"page": page % pages + 1}
    if most != ROWS_PER_PAGE:
        following["rows"] = most
    return render(
        request,
        "public/projector.html",
        {
            "tournament": tournament,
            "columns": in_columns(rows[(page - 1) * per_page : page * per_page]),
            "page": page,
            "pages": pages,
            "refresh": settings.PROJECTOR_PAGE_SECONDS if pages > 1 else REFRESH_SECONDS,
            "next_url": f"{request.path}?{urlencode(following)}",
        },
    )


def seating(request, pk: int, number: int | None = None):
    """Who sits at which table in a round (the latest, unless one is named): by table, and by name so that a
    player finds his table at a glance — on a phone, and on a projector (``?refresh=30``)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    rounds = tournament.round_set.order_by("number")
    round_ = get_object_or_404(rounds, number=number) if number is not None else rounds.last()
    tables, people = [], []
    if round_ is not None:
        for table in round_.tables.prefetch_related("seats__participant").order_by("number"):
            seated = [
                {"name": s.participant.name, "club": s.participant.club, "role": s.role}
                for s in table.seats.all()
            ]
            tables.append({"number": table.number, "seated": seated})
            people += [{**p, "table": table.number} for p in seated]
    people.sort(key=lambda p: name_key(p["name"]))
    refresh = _bounded(request, "refresh", 10, 600, None)
    return render(
        request,
        "public/seating.html",
        {
            "tournament": tournament,
            "round": round_,
            "rounds": list(rounds),
            "tables": tables,
            "people": people,
            "refresh": refresh,
        },
    )
