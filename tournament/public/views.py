"""For everyone (read-only, no login): the standings — a sortable table and a self-refreshing projector view
that pages through them — and who sits at which table in a round. After a round everyone reloads them: each
is kept rendered under a version of what it shows, and a browser that has the page gets a 304 (its ETag)."""

import hashlib
from urllib.parse import urlencode

import django_tables2 as tables
from django.conf import settings
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils import translation
from django.utils.cache import get_conditional_response
from django.utils.functional import SimpleLazyObject
from django.utils.http import quote_etag
from django.utils.translation import gettext_lazy as _
from django.views.decorators.gzip import gzip_page

from tournament.collation import name_key
from tournament.models import Round, Table, Tournament, standings_changes
from tournament.models.tournaments import shown_name
from tournament.reports import standings as standings_reports

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
    stored results (``reports.standings.standings_rows``, as the standings PDF): a few queries, whatever the
    number of moves played — a thousand phones reload this page when a round ends."""
    rows = [
        {
            "rank": r.rank,
            "name": r.participant.shown_name,
            "name_key": name_key(r.participant.name),
            "club": r.participant.club,
            "points": r.points,
            "total_score": r.total_score,
            "best_score": r.best_score,
            "games": r.games,
            "withdrawn": not r.participant.active,
        }
        for r in standings_reports.standings_rows(tournament)
    ]
    return sorted(rows, key=lambda row: (row["rank"], row["name_key"]))


#: How long a rendered public page is kept (its key holds the version of what it shows: never stale).
KEPT_SECONDS = 600


def _etag(request, kept: str, personal: bool = True) -> str:
    """The page as this browser has it: the version of what it shows, the language, the address (sorting,
    page), and — ``personal``: a page with the site's top bar — the browser's own session and CSRF cookies
    (the top bar says who is logged in and carries a CSRF token)."""
    seen = [kept, translation.get_language(), request.get_full_path()]
    if personal:
        seen += [
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
    asking for the standings anew; ``?rows=`` sets fewer rows a page for another screen.

    What it shows is the standings', so it is kept and answered as the standings page is: under the standings'
    version (one short query), the page and rows a page being in the address (its ETag and the kept page's
    key). A projector that reloads an unchanged page gets a 304 (projector.js and the meta refresh navigate:
    the browser asks with the ETag it has)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    kept = standings_changes.version(tournament)
    etag = _etag(request, kept, personal=False)  # nobody's own: no top bar, no form
    unchanged = get_conditional_response(request, etag=etag)
    if unchanged is not None:
        return _revalidated(unchanged, etag)

    def shown() -> dict:  # read only when the rendered page is not kept
        rows = shown_rows(tournament)
        most = _bounded(request, "rows", 5, ROWS_PER_PAGE, ROWS_PER_PAGE)
        pages, per_page = projector_pages(len(rows), most)
        page = _bounded(request, "page", 1, pages, 1)
        following = {"page": page % pages + 1}
        if most != ROWS_PER_PAGE:
            following["rows"] = most
        return {
            "columns": in_columns(rows[(page - 1) * per_page : page * per_page]),
            "page": page,
            "pages": pages,
            "refresh": settings.PROJECTOR_PAGE_SECONDS if pages > 1 else REFRESH_SECONDS,
            "next_url": f"{request.path}?{urlencode(following)}",
        }

    response = render(
        request,
        "public/projector.html",
        {
            "tournament": tournament,
            "shown": SimpleLazyObject(shown),
            "kept": kept,
            "kept_seconds": KEPT_SECONDS,
        },
    )
    return _revalidated(response, etag)


def _seating_rows(round_: Round | None) -> list[tuple]:
    """(table number, name, club, role) of every seat of the round, by table and order of play, and (table
    number, None, None, None) of a table left without players: all the seating page shows of its tables, in
    one query."""
    if round_ is None:
        return []
    tables = Table.objects.filter(round=round_).order_by("number", "seats__order", "seats__pk")
    return list(
        tables.values_list(
            "number",
            "seats__participant__name",
            "seats__participant__club",
            "seats__role",
            "seats__participant__namesake",
        )
    )


def seating_version(tournament: Tournament, rounds: list[Round], round_: Round | None, rows: list) -> str:
    """What the seating page shows, digested: the tournament (its id and name), the rounds' numbers, the round
    shown and its tables and seats as read (``_seating_rows``: names, clubs and roles with them). Not a count
    of changes, nor counts and highest ids: a seat is moved (``QuerySet.update``), renumbered and given its
    role (``bulk_update``) in place, a round is seated and seated again (``bulk_create``), none of them with a
    model's signal; a reseat may give back as many rows as it took; an id may come again after a rollback.
    What is shown, read, misses none of them, however it was written."""
    shown = (
        tournament.pk,
        tournament.name,
        tournament.live_boards,  # the tables' links to their live boards
        [r.number for r in rounds],
        round_.number if round_ is not None else None,
        rows,
    )
    return hashlib.blake2b(repr(shown).encode(), digest_size=16).hexdigest()


@gzip_page  # a thousand participants: twice a thousand names, a tenth of it compressed
def seating(request, pk: int, number: int | None = None):
    """Who sits at which table in a round (the latest, unless one is named): by table, and by name so that a
    player finds his table at a glance — on a phone, and on a projector (``?refresh=30``, which reloads it).

    When a round is seated everyone looks: the page is kept, rendered, under the digest of what it shows
    (``seating_version``: three short queries, the seats' one returning a row a seat, reused to render), and a
    browser that has it gets a 304 (its ETag)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    rounds = list(tournament.round_set.order_by("number"))
    if number is None:
        round_ = rounds[-1] if rounds else None
    else:
        round_ = next((r for r in rounds if r.number == number), None)
        if round_ is None:
            raise Http404("No such round.")
    rows = _seating_rows(round_)
    kept = seating_version(tournament, rounds, round_, rows)
    etag = _etag(request, kept)
    unchanged = get_conditional_response(request, etag=etag)
    if unchanged is not None:
        return _revalidated(unchanged, etag)

    def seated() -> dict:  # made only when the rendered page is not kept: sorting a thousand names costs
        tables: dict[int, list[dict]] = {}
        for table, name, club, role, namesake in rows:
            players = tables.setdefault(table, [])
            if name is not None:  # else a table left without players (a namesake: with his club)
                told_apart = namesake and club  # his club printed in his name, not again beside it
                shown = shown_name(name, club, namesake)
                players.append({"name": shown, "club": "" if told_apart else club, "role": role})
        people = [{**p, "table": table} for table, players in tables.items() for p in players]
        people.sort(key=lambda p: name_key(p["name"]))
        return {
            "tables": [{"number": table, "seated": players} for table, players in tables.items()],
            "people": people,
        }

    response = render(
        request,
        "public/seating.html",
        {
            "tournament": tournament,
            "round": round_,
            "rounds": rounds,
            "seated": SimpleLazyObject(seated),
            "refresh": _bounded(request, "refresh", 10, 600, None),
            "kept": kept,
            "kept_seconds": KEPT_SECONDS,
        },
    )
    return _revalidated(response, _etag(request, kept))  # with the CSRF cookie it may have been given now
