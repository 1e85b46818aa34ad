"""The league's public pages through Django's test client: the players by rating (places, search, pages, an
empty league), a player's page (his rating after every tournament, his tables — tournaments' and past
tournaments' —, only the results that count), the ratings' workbook; the page, the workbook and the stored
ratings hold the same figures; Polish; no hostile query string makes a 500."""

from __future__ import annotations

import datetime
import re
from decimal import ROUND_HALF_UP, Decimal
from io import BytesIO

import lxml.html
import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from openpyxl import load_workbook

from tests.league import make_players, results_tournament
from tournament.league.views import PER_PAGE
from tournament.models import (
    PastEntrant,
    PastEvent,
    PastPlacement,
    Player,
    PlayerRating,
    RatingStep,
    TableResult,
)
from tournament.models.players import name_key
from tournament.ratings.rebuild import rebuild

pytestmark = pytest.mark.django_db

D0, D1, D2 = datetime.date(2025, 11, 8), datetime.date(2026, 1, 10), datetime.date(2026, 2, 14)


def figure(x: float, places: int = 1) -> str:
    """A figure as the page shows it in English (rounded half away from zero, as Excel shows it)."""
    shown = Decimal(repr(x)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return str(abs(shown) if shown == 0 else shown)


@pytest.fixture
def league():
    """Six players: a past tournament (Old cup), a tournament (Winter) with a participant linked to nobody,
    and a tournament asking for second confirmations (Spring) with one table seconded and one not."""
    ada, bob, cyd, dan, eve, lukasz = make_players(["Ada", "Bob", "Cyd", "Dan", "Eve", "Łukasz"], club="Klub")
    past = PastEvent.objects.create(name="Old cup", date=D0)
    for who, rank in [(ada, 2), (bob, 1), (lukasz, 3)]:
        entrant = PastEntrant.objects.create(event=past, name=who.name, player=who)
        PastPlacement.objects.create(entrant=entrant, round_number=1, table_number=2, rank=rank)
    winter = results_tournament(
        "Winter",
        D1,
        [
            [[(ada, 1), (bob, 2), (cyd, 3), ("Nobody", 4)], [(dan, 1), (eve, 2), (lukasz, 3)]],
            [[(ada, 2), (dan, 1), (eve, 3)], [(bob, 1), (cyd, 2), (lukasz, 2)]],
        ],
    )
    spring = results_tournament(
        "Spring",
        D2,
        [[[(ada, 1), (eve, 2), (lukasz, 3)], [(bob, 2), (cyd, 1), (dan, 3)]]],
        second_confirmation=True,
    )
    director = User.objects.create_user("second", password="pw")
    seconded, waiting = TableResult.objects.filter(table__round__tournament=spring).order_by("table__number")
    seconded.second_by = director
    seconded.save()
    rebuild()
    return {
        "players": {p.name: p for p in (ada, bob, cyd, dan, eve, lukasz)},
        "past": past,
        "winter": winter,
        "spring": spring,
        "waiting": waiting,
    }


def page(client, url, **params):
    response = client.get(url, params)
    assert response.status_code == 200, (url, params)
    return lxml.html.fromstring(response.content.decode())


_STEP = re.compile(r"([a-z0-9]*)((?:\.[\w-]+)*)(?:\[(\w+)=([^\]]+)\])?")


def select(element, selector: str) -> list:
    """The elements under ``element`` matching a simple CSS selector: descendants (``a b``) of a tag, classes
    and one attribute each (``td.name``, ``a[rel=prev]``): what cssselect would do (not installed here)."""
    path = "."
    for step in selector.split():
        tag, classes, attr, value = _STEP.fullmatch(step).groups()
        tests = [
            f"contains(concat(' ', normalize-space(@class), ' '), ' {c} ')" for c in classes.split(".")[1:]
        ]
        if attr:
            tests.append(f"@{attr}='{value.strip(chr(34))}'")
        path += f"//{tag or '*'}" + "".join(f"[{t}]" for t in tests)
    return element.xpath(path)


def league_rows(doc) -> list[dict]:
    rows = []
    for tr in select(doc, "table.league tbody tr"):
        link = select(tr, "td.name a")[0]
        cells = [td.text_content().strip() for td in select(tr, "td")]
        rows.append(
            {
                "place": int(cells[0]),
                "pk": int(link.get("href").rstrip("/").rsplit("/", 1)[1]),
                "name": link.text_content(),
                "club": cells[2],
                "rating": cells[3],
                "mu": cells[4],
                "sigma": cells[5],
                "games": int(cells[6]),
                "change": select(tr, "td.trend .change")[0].text_content().strip(),
                "when": select(tr, "td.trend .when")[0].text_content().strip(),
            }
        )
    return rows


def tables_on(doc) -> list[list[str]]:
    """A player's tables as his page lists them: [event, round, table, place, score, points], each event's
    name over its tables."""
    rows = []
    for body in select(doc, "table.results tbody"):
        head = select(body, "tr.event th")[0]
        links = head.xpath("./a")
        event = (links[0].text_content() if links else head.text).strip()
        for tr in body.xpath("./tr[not(@class)]"):
            rows.append([event, *(td.text_content().strip() for td in tr.xpath("./td"))])
    return rows


def stored_order() -> list[PlayerRating]:
    return list(PlayerRating.objects.select_related("player").order_by("-ordinal", "player_id"))


def signed(x: float) -> str:
    shown = figure(x)
    return f"▲ +{shown}" if Decimal(shown) > 0 else f"▼ {shown}" if Decimal(shown) < 0 else f"= {shown}"


# -- the league --------------------------------------------------------------------------------------------


def test_the_league_lists_the_players_by_rating(client, league):
    doc = page(client, reverse("league"))
    rows = league_rows(doc)
    want = stored_order()
    assert [r["pk"] for r in rows] == [r.player_id for r in want]
    assert [r["place"] for r in rows] == list(range(1, 7))
    for row, rating in zip(rows, want, strict=True):
        assert row["name"] == rating.player.name and row["club"] == "Klub"
        assert row["rating"] == figure(rating.ordinal)
        assert (row["mu"], row["sigma"]) == (figure(rating.mu, 2), figure(rating.sigma, 2))
        assert row["games"] == rating.games
        assert row["change"] == signed(rating.change)
        assert row["when"] == rating.last_played.strftime("%m/%d/%Y")
    text = doc.text_content()
    assert "6 players rated" in text
    assert "μ − 3σ" in text  # how the rating is computed
    assert "Ratings computed" in text  # when
    assert select(doc, f'a[href="{reverse("league_workbook")}"]')


def test_the_results_that_do_not_count_are_left_out(league):
    """Spring's second table waits for its second confirmation: Bob, Cyd and Dan played Spring's only in
    it, so Spring is not in their history; Ada, Eve and Łukasz's table counted."""
    spring = league["spring"]
    in_spring = set(RatingStep.objects.filter(tournament=spring).values_list("player__name", flat=True))
    assert in_spring == {"Ada", "Eve", "Łukasz"}


def test_equal_ratings_share_a_place(client, db):
    players = Player.objects.bulk_create(
        Player(name=n, name_key=name_key(n)) for n in ["Ann", "Ben", "Cid", "Don"]
    )
    for p, ordinal in zip(players, [5.0, 3.0, 3.0, 1.0], strict=True):
        PlayerRating.objects.create(
            player=p, mu=ordinal + 3, sigma=1, ordinal=ordinal, games=1, change=0, last_played=D1
        )
    rows = league_rows(page(client, reverse("league")))
    assert [(r["name"], r["place"]) for r in rows] == [("Ann", 1), ("Ben", 2), ("Cid", 2), ("Don", 4)]
    assert [r["change"] for r in rows] == ["= 0.0"] * 4
    found = league_rows(page(client, reverse("league"), q="cid"))
    assert [(r["name"], r["place"]) for r in found] == [("Cid", 2)]  # his place in the whole league


def test_a_search_by_name_keeps_the_places(client, league):
    everyone = {r["name"]: r["place"] for r in league_rows(page(client, reverse("league")))}
    for q, names in [
        ("ada", {"Ada"}),
        ("  ADA ", {"Ada"}),
        ("ŁUK", {"Łukasz"}),
        ("d", {"Ada", "Cyd", "Dan"}),
        ("zzz", set()),
        ("%", set()),
        ("_", set()),
    ]:
        doc = page(client, reverse("league"), q=q)
        rows = league_rows(doc)
        assert {r["name"] for r in rows} == names, q
        assert all(r["place"] == everyone[r["name"]] for r in rows)
        assert select(doc, "input[name=q]")[0].get("value") == q.strip()
        if not names:
            assert "No rated player's name contains" in doc.text_content()
        else:
            assert f"{len(names)} player" in doc.text_content()


def many_players(n: int) -> list[Player]:
    names = [f"Gracz {i:04}" for i in range(n)]
    players = Player.objects.bulk_create(Player(name=x, name_key=name_key(x)) for x in names)
    PlayerRating.objects.bulk_create(
        PlayerRating(
            player=p, mu=30 - i / 100, sigma=2, ordinal=24 - i / 100, games=7, change=0.5, last_played=D1
        )
        for i, p in enumerate(players)
    )
    return players


def test_a_hundred_players_a_page(client, db):
    players = many_players(2 * PER_PAGE + 50)
    url = reverse("league")
    first = page(client, url)
    assert len(league_rows(first)) == PER_PAGE
    assert "page 1 of 3" in first.text_content()
    third = page(client, url, page="3")
    rows = league_rows(third)
    assert [r["place"] for r in rows] == list(range(2 * PER_PAGE + 1, 2 * PER_PAGE + 51))
    assert rows[-1]["pk"] == players[-1].pk
    assert select(third, "a[rel=prev]")[0].get("href") == "?page=2"
    assert not select(third, "a[rel=next]")
    # out of range, or no number: the nearest page
    for value, number in [("abc", 1), ("-1", 1), ("0", 1), ("4", 3), ("9" * 30, 1), ("1.5", 1), ("²", 1)]:
        assert f"page {number} of 3" in page(client, url, page=value).text_content(), value
    # a search over several pages keeps its words in the pages' links
    found = page(client, url, q="gracz 0", page="2")
    assert select(found, "a[rel=next]")[0].get("href") == "?q=gracz+0&page=3"
    assert league_rows(found)[0]["place"] == PER_PAGE + 1


def test_an_empty_league_says_so(client, db):
    doc = page(client, reverse("league"))
    assert not select(doc, "table.league")
    assert "No player is rated yet" in doc.text_content()
    assert not select(doc, "input[name=q]")
    workbook = load_workbook(BytesIO(client.get(reverse("league_workbook")).content))
    assert [list(r) for r in workbook["Ratings"].iter_rows(values_only=True)][1:] == []


@pytest.mark.parametrize(
    "query",
    [
        "?q=%00",
        "?q=a%00b",
        "?q=" + "x" * 5000,
        "?q=%ff%fe",
        "?q=<script>",
        "?page=-1",
        "?page=abc",
        "?page=99999999999999999999999",
        "?page=%00",
        "?page=1&page=2",
        "?q=%e2%80%ae&page=0",
        "?q[]=a",
    ],
)
def test_a_hostile_query_string_is_no_error(client, league, query):
    response = client.get(reverse("league") + query)
    assert response.status_code == (400 if "%00" in query else 200)  # a NUL: the site's guard refuses it
    assert b"<script>" not in response.content


# -- a player's page ---------------------------------------------------------------------------------------


def test_a_players_page_shows_his_rating_after_every_tournament_and_his_tables(client, league):
    ada = league["players"]["Ada"]
    doc = page(client, reverse("league_player", args=[ada.pk]))
    text = doc.text_content()
    assert f"#{ada.pk}" in select(doc, "h1")[0].text_content()
    rating = PlayerRating.objects.get(player=ada)
    assert select(doc, ".rating-now .rating")[0].text_content() == figure(rating.ordinal)
    assert f"{rating.games} games" in text
    place = 1 + PlayerRating.objects.filter(ordinal__gt=rating.ordinal).count()
    assert f"place {place} of 6" in text
    # his rating after each event, the newest first: Spring, Winter, the Old cup (plain, no link)
    history = select(doc, "table.history tbody tr")
    steps = list(RatingStep.objects.filter(player=ada).order_by("-date"))
    assert [select(tr, "td.name")[0].text_content() for tr in history] == ["Spring", "Winter", "Old cup"]
    for tr, step in zip(history, steps, strict=True):
        assert select(tr, "td.rating")[0].text_content() == figure(step.ordinal)
    links = [a.get("href") for a in select(doc, "table.history td.name a")]
    assert links == [
        reverse("standings", args=[league["spring"].pk]),
        reverse("standings", args=[league["winter"].pk]),
    ]
    assert len(select(doc, ".rating-chart circle")) == 3
    # every table he played, the newest first, with his place among the players at it
    results = tables_on(doc)
    assert [r[:4] for r in results] == [
        ["Spring", "1", "1", "1 of 3"],
        ["Winter", "2", "1", "2 of 3"],
        ["Winter", "1", "1", "1 of 4"],  # Nobody, linked to no player, sat at the table
        ["Old cup", "1", "2", "2 of 3"],
    ]
    assert [h.text_content().split()[0] for h in select(doc, "table.results tr.event th")] == [
        "Spring",
        "Winter",
        "Old",
    ]  # each event once, over its tables
    assert [a.get("href") for a in select(doc, "table.results tr.event a")] == links  # the past: no link
    assert results[0][5] == "4" and results[3][4:] == ["—", "—"]  # no score nor points from the past


def test_a_result_waiting_for_its_second_confirmation_is_not_on_his_page(client, league):
    bob = league["players"]["Bob"]
    doc = page(client, reverse("league_player", args=[bob.pk]))
    events = [r[0] for r in tables_on(doc)]
    assert "Spring" not in events and events.count("Winter") == 2
    league["waiting"].second_by = User.objects.get(username="second")
    league["waiting"].save()
    rebuild()
    doc = page(client, reverse("league_player", args=[bob.pk]))
    assert tables_on(doc)[0][0] == "Spring"
    assert select(doc, "table.history tbody tr td.name")[0].text_content() == "Spring"


def test_a_reopened_result_is_not_on_his_page(client, league):
    winter = league["winter"]
    TableResult.objects.filter(table__round__tournament=winter, table__round__number=2).update(
        status=TableResult.Status.REOPENED,
        reopened_at=datetime.datetime(2026, 1, 11, tzinfo=datetime.UTC),
        reason="x",
    )
    doc = page(client, reverse("league_player", args=[league["players"]["Ada"].pk]))
    rounds = [r[:2] for r in tables_on(doc)]
    assert ["Winter", "2"] not in rounds and ["Winter", "1"] in rounds


def test_a_player_not_rated_yet(client, db):
    (newcomer,) = make_players(["Zoe"])
    doc = page(client, reverse("league_player", args=[newcomer.pk]))
    assert "Not rated yet" in doc.text_content()
    assert not select(doc, "table.history") and not select(doc, ".rating-chart")
    assert "No table played yet." in doc.text_content()


def test_an_unknown_player_is_not_found(client, league):
    assert (
        client.get(
            reverse("league_player", args=[max(p.pk for p in league["players"].values()) + 1])
        ).status_code
        == 404
    )
    assert client.get("/league/players/" + "9" * 30 + "/").status_code == 404
    assert client.post(reverse("league_player", args=[league["players"]["Ada"].pk])).status_code == 405


# -- the workbook: the same figures --------------------------------------------------------------------------


def workbook(client):
    response = client.get(reverse("league_workbook"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert response["Content-Disposition"].startswith("attachment;")
    return load_workbook(BytesIO(response.content))


def test_the_page_the_workbook_and_the_stored_ratings_hold_the_same_figures(client, league):
    book = workbook(client)
    assert book.sheetnames == ["Ratings", "Rating history"]  # not "History": Excel keeps it for itself
    sheet = book["Ratings"]
    assert sheet.freeze_panes == "A2"
    header, *lines = list(sheet.iter_rows(values_only=True))
    assert header == (
        "Place", "Player number", "Player", "Club / school", "Rating", "μ", "σ", "Games", "Last change",
        "Last played",
    )  # fmt: skip
    shown = league_rows(page(client, reverse("league")))
    stored = stored_order()
    assert len(lines) == len(shown) == len(stored) == 6
    for line, row, rating in zip(lines, shown, stored, strict=True):
        place, pk, name, club, ordinal, mu, sigma, games, change, last = line
        assert (place, pk, name, club) == (row["place"], row["pk"], row["name"], row["club"])
        assert pk == rating.player_id
        # to the 16 digits openpyxl writes (Excel's own precision is 15)
        assert (ordinal, mu, sigma, change) == pytest.approx(
            (rating.ordinal, rating.mu, rating.sigma, rating.change), rel=1e-15, abs=1e-15
        )
        assert games == rating.games
        assert last.date() == rating.last_played
        assert (figure(ordinal), games) == (row["rating"], row["games"])
    formats = [c.number_format for c in sheet[2]]
    assert formats[4:7] == ["0.0", "0.00", "0.00"] and formats[8] == "+0.0;-0.0;0.0"
    # the history: every step, in the players' order, each one's by date
    history = book["Rating history"]
    header, *steps = list(history.iter_rows(values_only=True))
    assert header == (
        "Player number", "Player", "Date", "Tournament", "Games in it", "Rating", "Change", "μ", "σ",
    )  # fmt: skip
    assert len(steps) == RatingStep.objects.count()
    order = {r.player_id: i for i, r in enumerate(stored)}
    assert [s[0] for s in steps] == sorted((s[0] for s in steps), key=order.get)
    ada = league["players"]["Ada"]
    mine = [s for s in steps if s[0] == ada.pk]
    want = RatingStep.objects.filter(player=ada).order_by("date", "source")
    assert [(s[3], s[4]) for s in mine] == [("Old cup", 1), ("Winter", 2), ("Spring", 1)]
    for s, w in zip(mine, want, strict=True):
        assert s[5:] == pytest.approx((w.ordinal, w.change, w.mu, w.sigma), rel=1e-15, abs=1e-15)


def test_names_in_the_workbook_are_never_formulas(client, db):
    (p,) = make_players(['=HYPERLINK("http://x")'])
    PlayerRating.objects.create(player=p, mu=25, sigma=8, ordinal=1, games=1, change=1, last_played=D1)
    cell = workbook(client)["Ratings"]["C2"]
    assert cell.value == '=HYPERLINK("http://x")' and cell.data_type == "s" and cell.quotePrefix


def test_the_workbook_kept_is_written_again_when_what_it_shows_changes(client, league):
    """Kept in the cache for what it shows: a name changed (no rebuild) or a rebuild gives a new one."""
    first = workbook(client)["Ratings"]
    best = stored_order()[0]
    assert first["C2"].value == best.player.name
    Player.objects.filter(pk=best.player_id).update(name="Renamed")
    assert workbook(client)["Ratings"]["C2"].value == "Renamed"
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "pl"
    assert workbook(client).sheetnames != ["Ratings", "Rating history"]


# -- Polish, and the way in ----------------------------------------------------------------------------


def test_the_league_in_polish(client, league):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "pl"
    response = client.get(reverse("league"))
    doc = lxml.html.fromstring(response.content.decode())
    assert doc.get("lang") == "pl"
    rows = league_rows(doc)
    best = stored_order()[0]
    assert rows[0]["rating"] == figure(best.ordinal).replace(".", ",")  # the Polish decimal comma
    assert rows[0]["when"] == best.last_played.strftime("%d-%m-%Y")
    assert "Klub / szkoła" in select(doc, "table.league thead")[0].text_content()
    ada = league["players"]["Ada"]
    player = lxml.html.fromstring(client.get(reverse("league_player", args=[ada.pk])).content.decode())
    assert player.get("lang") == "pl"
    assert select(player, ".rating-now .rating")[0].text_content() == figure(
        PlayerRating.objects.get(player=ada).ordinal
    ).replace(".", ",")
    # the chart's coordinates are numbers SVG reads, never written the Polish way ("40,5")
    chart = select(player, ".rating-chart svg")[0]
    numbers = [chart.get("viewbox")] + [
        e.get(a) for e in chart.iter() for a in ("x", "y", "x1", "x2", "y1", "y2", "cx", "cy") if e.get(a)
    ]
    assert len(numbers) > 10 and not any("," in n for n in numbers)
    assert all(re.fullmatch(r"-?[0-9.]+", n) for n in numbers[1:])
    assert "Runda" in select(player, "table.results thead")[0].text_content()
    book = load_workbook(BytesIO(client.get(reverse("league_workbook")).content))
    assert book.worksheets[0]["D1"].value == "Klub / szkoła"


def test_the_league_is_linked_from_every_page(client, db):
    doc = lxml.html.fromstring(client.get(reverse("home")).content.decode())
    assert select(doc, f'header.topbar a[href="{reverse("league")}"]')
