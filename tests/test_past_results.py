"""Past results imported to start the ratings (tournament/files/past_results.py) and the director's page of
them (tournament/league/past_views.py): a good workbook stored whole, nothing linked to players until the
director confirms; every bad file refused by line with nothing stored; the page for directors only; a past
tournament deleted takes its ratings with it."""

from __future__ import annotations

import datetime
import html
import io

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from openpyxl import Workbook, load_workbook

from tournament.files.participants_import import MAX_PROBLEMS_SHOWN
from tournament.files.past_results import reading as past_results
from tournament.files.past_results.reading import read_past_results
from tournament.files.past_results.rows import PastResultsError
from tournament.files.past_results.storing import import_past_results
from tournament.models import HeldFile, PastEntrant, PastEvent, PastPlacement, Player, PlayerRating
from tournament.models.bounds import SMALL_MAX
from tournament.models.games import NAME_LENGTH
from tournament.people.access import DIRECTORS_GROUP
from tournament.ratings import identities
from tournament.ratings.identities import NEW, NONE

pytestmark = pytest.mark.django_db

HEAD = ["Tournament", "Date", "Round", "Table", "Place", "Player", "Club"]
D1, D2 = datetime.date(2024, 11, 9), datetime.date(2025, 2, 1)


def xlsx(rows) -> bytes:
    wb = Workbook()
    for r in rows:
        wb.active.append(r)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def good_rows():
    """Two tournaments: Autumn (two rounds of two tables) and Winter (one table); dates as Excel dates, ISO
    text and DD.MM.YYYY."""
    return [
        HEAD,
        ["Autumn Cup", D1, 1, 1, 1, "Anna Nowak", "SP 1"],
        ["Autumn Cup", D1, 1, 1, 2, "Jan Kos", None],
        ["Autumn Cup", D1, 1, 1, 2, "Ewa Lis", "KS"],  # a tie
        ["Autumn Cup", "2024-11-09", 1, 2, 1, "Olek Żak", None],
        ["autumn cup", "09.11.2024", 1, 2, 2, "Piotr Ryś", None],  # the name as compared: one tournament
        [None, None, None, None, None, None, None],  # blank rows are skipped
        ["Autumn Cup", D1, 2, 1, 1, "anna  nowak", None],  # one player: the first spelling, his club kept
        ["Autumn Cup", D1, 2, 1, 2, "Olek Żak", None],
        ["Autumn Cup", D1, 2, 2, 1, "Piotr Ryś", None],
        ["Autumn Cup", D1, 2, 2, 2, "Ewa Lis", "ks"],  # the same club, spelt otherwise
        ["Autumn Cup", D1, 2, 2, 3, "Jan Kos", None],
        ["Winter Cup", "2025-02-01", 1, 1, 2, "Anna Nowak", "SP 1"],
        ["Winter Cup", "2025-02-01", 1, 1, 1, "Jan Kos", "KS"],
    ]


@pytest.fixture
def director_client(director, client):
    client.force_login(director)
    return client


def post(client, filename, data, **extra):
    upload = io.BytesIO(data)
    upload.name = filename
    return client.post(reverse("past_events"), {"file": upload}, **extra)


def text(response) -> str:
    return html.unescape(response.content.decode())


def problems(filename, data) -> list[tuple[int | None, str]]:
    with pytest.raises(PastResultsError) as e:
        read_past_results(filename, data)
    return e.value.problems


def nothing_stored():
    return not (PastEvent.objects.exists() or PastEntrant.objects.exists() or PastPlacement.objects.exists())


# -- a good file ---------------------------------------------------------------------------------------------


def test_a_good_workbook_is_stored_and_nothing_is_linked(director, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        imported = import_past_results("results.xlsx", xlsx(good_rows()), director)
    assert len(callbacks) == 1  # the rebuild asked for once, after the commit
    assert [(e.name, e.date) for e in imported.events] == [("Autumn Cup", D1), ("Winter Cup", D2)]
    assert (imported.tables, imported.placements) == (5, 12)
    autumn, winter = imported.events
    assert autumn.imported_by == director and autumn.imported_at is not None
    entrants = {e.name: e.club for e in autumn.entrants.all()}
    assert entrants == {
        "Anna Nowak": "SP 1",
        "Jan Kos": "",
        "Ewa Lis": "KS",
        "Olek Żak": "",
        "Piotr Ryś": "",
    }
    assert {e.name: e.club for e in winter.entrants.all()} == {"Anna Nowak": "SP 1", "Jan Kos": "KS"}
    placements = {
        (p.entrant.name, p.round_number, p.table_number, p.rank)
        for p in PastPlacement.objects.filter(entrant__event=autumn).select_related("entrant")
    }
    assert placements == {
        ("Anna Nowak", 1, 1, 1),
        ("Jan Kos", 1, 1, 2),
        ("Ewa Lis", 1, 1, 2),
        ("Olek Żak", 1, 2, 1),
        ("Piotr Ryś", 1, 2, 2),
        ("Anna Nowak", 2, 1, 1),
        ("Olek Żak", 2, 1, 2),
        ("Piotr Ryś", 2, 2, 1),
        ("Ewa Lis", 2, 2, 2),
        ("Jan Kos", 2, 2, 3),
    }
    assert not PastEntrant.objects.filter(player__isnull=False).exists()
    assert not Player.objects.exists() and not PlayerRating.objects.exists()


def test_ratings_come_only_for_the_entrants_linked(director, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        autumn, winter = import_past_results("results.xlsx", xlsx(good_rows()), director).events
    ada = Player.objects.create(name="Anna Nowak", club="SP 1")
    entrants = list(autumn.entrants.all())
    by_name = {e.name: e for e in entrants}
    choices = {e.pk: NEW for e in entrants}
    choices[by_name["Anna Nowak"].pk] = str(ada.pk)
    choices[by_name["Piotr Ryś"].pk] = NONE
    with django_capture_on_commit_callbacks(execute=True):
        identities.link(entrants, choices)
    rated = {r.player.name: r for r in PlayerRating.objects.select_related("player")}
    assert set(rated) == {"Anna Nowak", "Jan Kos", "Ewa Lis", "Olek Żak"}  # Piotr Ryś is not linked
    assert rated["Anna Nowak"].games == 2 and rated["Anna Nowak"].last_played == D1
    assert rated["Anna Nowak"].ordinal > rated["Jan Kos"].ordinal
    jan = Player.objects.get(name="Jan Kos")
    winter_entrants = {e.name: e for e in winter.entrants.all()}
    with django_capture_on_commit_callbacks(execute=True):  # a table counts with two players linked
        identities.link([winter_entrants["Anna Nowak"]], {winter_entrants["Anna Nowak"].pk: str(ada.pk)})
    assert PlayerRating.objects.get(player=ada).games == 2
    with django_capture_on_commit_callbacks(execute=True):
        identities.link([winter_entrants["Jan Kos"]], {winter_entrants["Jan Kos"].pk: str(jan.pk)})
    for player in (ada, jan):
        rating = PlayerRating.objects.get(player=player)
        assert (rating.games, rating.last_played) == (3, D2)


def checked(client, filename, data, **extra):
    """The file uploaded: the page it is held on for the director to check its names (nothing stored yet)."""
    response = post(client, filename, data, **extra)
    assert response.status_code == 302 and response.url.startswith("/league/past/check/"), response
    assert nothing_stored()
    return response.url


def test_the_page_shows_the_names_then_imports_and_sends_the_director_to_who_is_who(
    director_client, director
):
    check = checked(director_client, "results.xlsx", xlsx(good_rows()))
    page = text(director_client.get(check, HTTP_ACCEPT_LANGUAGE="en"))
    assert "Check the names before they are imported" in page and "results.xlsx · 12 rows" in page
    assert "Import these 2 tournaments" in page
    for name in ("Anna Nowak", "Olek Żak", "Piotr Ryś", "Ewa Lis", "Jan Kos"):
        assert f'<td class="title">{name}</td>' in page
    assert "Autumn Cup" in page and "Winter Cup" in page and "2024-11-09" in page
    assert "Windows-1250" not in page
    assert nothing_stored()
    response = director_client.post(check, {"import": ""})
    autumn = PastEvent.objects.get(name="Autumn Cup")
    assert response.status_code == 302
    assert response.url == reverse("past_event_players", kwargs={"pk": autumn.pk})
    assert not HeldFile.objects.exists()
    page = text(director_client.get(reverse("past_events")))
    assert "Imported 2 tournaments, 5 tables: confirm who is who." in page
    assert "Autumn Cup" in page and "Winter Cup" in page and "2024-11-09" in page
    assert "0 of 5: who is who" in page and "0 of 2: who is who" in page
    assert director.get_username() in page
    assert 'accept=".xlsx,.csv"' in page and "required" in page
    assert reverse("past_results_template") in page


def test_the_page_counts_the_entrants_linked(director_client, director):
    (event,) = import_past_results(
        "r.csv",
        b"Tournament,Date,Round,Table,Place,Player\n"
        b"Cup,2025-01-04,1,1,1,Ada\nCup,2025-01-04,1,1,2,Bob\n"
        b"Cup,2025-01-04,1,2,1,Cyd\nCup,2025-01-04,1,2,2,Dan\n",
        director,
    ).events
    ada = event.entrants.get(name="Ada")
    identities.link([ada], {ada.pk: NEW})
    page = text(director_client.get(reverse("past_events")))
    assert "1 of 4: who is who" in page
    assert ">2<" in page.replace(" ", "")  # two tables


def test_csv_with_polish_headers_and_windows_1250(director):
    data = (
        "Turniej;Data;Runda;Stół;Miejsce;Nazwisko;Klub\n"
        "Puchar Łodzi;18.01.2025;1;1;1;Żaneta Łęcka;SP 12 Łódź\n"
        "Puchar Łodzi;18.01.2025;1;1;2;Paweł Źdźbło;\n"
    ).encode("cp1250")
    (event,) = import_past_results("wyniki.csv", data, director).events
    assert (event.name, event.date) == ("Puchar Łodzi", datetime.date(2025, 1, 18))
    assert {e.name: e.club for e in event.entrants.all()} == {
        "Żaneta Łęcka": "SP 12 Łódź",
        "Paweł Źdźbło": "",
    }


def test_a_utf8_file_with_one_damaged_byte_is_refused_naming_its_line(director):
    data = (
        "Turniej;Data;Runda;Stół;Miejsce;Nazwisko;Klub\n"
        "Puchar Łodzi;18.01.2025;1;1;1;Żaneta Łęcka;SP 12 Łódź\n"
    ).encode() + b"Puchar;18.01.2025;1;1;2;Pawe\xb3;\n"
    found = problems("wyniki.csv", data)
    assert any("Line 3 is not UTF-8" in text for _at, text in found), found
    assert nothing_stored()


def test_two_long_tournament_names_alike_at_first_are_two_tournaments(director):
    a, b = "A" * 150 + " spring", "A" * 150 + " autumn"  # alike beyond a player's name's length
    rows = [HEAD] + [
        [name, D1, 1, 1, place, who, None] for name in (a, b) for place, who in ((1, "X"), (2, "Y"))
    ]
    assert sorted(e.name for e in import_past_results("r.xlsx", xlsx(rows), director).events) == [b, a]


def test_polish_headers_in_a_workbook_in_any_order_and_case(director):
    rows = [
        ["GRACZ", "miejsce", "Stolik", "Runda", "Data", "Turniej"],
        ["Ala", 1, 1, 1, D1, "Liga"],
        ["Ola", 2, 1, 1, D1, "Liga"],
    ]
    (event,) = import_past_results("wyniki.xlsx", xlsx(rows), director).events
    assert event.name == "Liga" and event.entrants.count() == 2
    assert sorted(PastPlacement.objects.values_list("rank", flat=True)) == [1, 2]


def test_the_template_downloads_and_imports(director_client, director):
    response = director_client.get(reverse("past_results_template"))
    assert response.status_code == 200
    assert response["Content-Type"] == past_results.XLSX
    assert "attachment" in response["Content-Disposition"]
    data = b"".join(response)
    sheet = load_workbook(io.BytesIO(data)).active
    rows = list(sheet.values)
    assert list(rows[0]) == HEAD and len(rows) == 3
    (event,) = import_past_results("template.xlsx", data, director).events
    assert event.entrants.count() == 2 and PastPlacement.objects.count() == 2
    pl = Client(HTTP_ACCEPT_LANGUAGE="pl")
    pl.force_login(director)
    polish = load_workbook(io.BytesIO(b"".join(pl.get(reverse("past_results_template"))))).active
    assert next(polish.values)[0] == "Turniej"


# -- bad files: refused by line, nothing stored --------------------------------------------------------------


def row(**changes):
    r = dict(zip(HEAD, ["Cup", D1, 1, 1, 1, "Ada", "X"], strict=True))
    r.update(changes)
    return [r[h] for h in HEAD]


def with_partner(*rows):
    """The rows, and a second player at each of their tables (so that no table has one player)."""
    out = [HEAD]
    for i, r in enumerate(rows):
        out.append(r)
        out.append([r[0], r[1], r[2], r[3], 2, f"Partner {i}", None])
    return out


LONG = "N" * (NAME_LENGTH + 1)
FUTURE = datetime.date.today() + datetime.timedelta(days=3)


@pytest.mark.parametrize(
    ("rows", "line", "message"),
    [
        ([["Tournament", "Date", "Player"], row()], 1, "Round, Table, Place not found"),
        ([[*HEAD, "Name"], row()], 1, "Columns 6 and 8 are both the column Player: keep one."),
        (with_partner(row(Player=" ")), 2, "Player is missing"),
        (with_partner(row(Tournament=None)), 2, "Tournament is missing"),
        (with_partner(row(Player=LONG)), 2, f"a name or club is longer than {NAME_LENGTH} characters"),
        (with_partner(row(Club=LONG)), 2, f"a name or club is longer than {NAME_LENGTH} characters"),
        (with_partner(row(Tournament="T" * 201)), 2, "the tournament's name is longer than 200 characters"),
        (with_partner(row(Player="Jan\nKos")), 2, "Player contains a character that is not allowed"),
        (with_partner(row(Round=0)), 2, f"Round must be a whole number from 1 to {SMALL_MAX}, not “0”"),
        (with_partner(row(Round=-2)), 2, "Round must be a whole number from 1"),
        (with_partner(row(Table="first")), 2, "Table must be a whole number from 1 to 32767, not “first”"),
        (with_partner(row(Table=SMALL_MAX + 1)), 2, f"not “{SMALL_MAX + 1}”"),
        (with_partner(row(Place=1.5)), 2, "Place must be a whole number from 1 to 32767, not “1.5”"),
        (with_partner(row(Place=None)), 2, "Place is missing"),
        (with_partner(row(Place=True)), 2, "Place must be a whole number"),
        (with_partner(row(Date=None)), 2, "Date is missing"),
        (with_partner(row(Date="2024-02-30")), 2, "the date must be YYYY-MM-DD or DD.MM.YYYY"),
        (with_partner(row(Date="9 Nov 2024")), 2, "not “9 Nov 2024”"),
        (with_partner(row(Date=FUTURE)), 2, "is in the future"),
        (with_partner(row(Date="1900-11-09")), 2, "the date 1900-11-09 is before 1935-01-01"),  # (for 2000)
        (
            with_partner(row(), row(Date=D2, Round=2)),
            4,
            "Cup is dated 2024-11-09 on line 2: one tournament has one date",
        ),
        (
            with_partner(row(), row(Table=2, Player="ADA")),
            4,
            "ADA already has a place in round 1 of Cup, on line 2",
        ),
        (with_partner(row(), row(Round=2, Club="Y")), 4, "Ada plays for X on line 2"),
        ([HEAD, row(), row(Table=2, Player="Bob")], 2, "table 1 of round 1 of Cup has only one player"),
        ([HEAD, row(), row(Place=3, Player="Bob")], 3, "place 3 at table 1 of round 1, which has 2 players"),
    ],
)
def test_a_bad_row_is_refused_by_line_and_nothing_is_stored(director_client, rows, line, message):
    found = problems("p.xlsx", xlsx(rows))
    assert any(at == line and message in text for at, text in found), found
    response = post(director_client, "p.xlsx", xlsx(rows))
    assert response.status_code == 400
    page = text(response)
    assert "Nothing was imported" in page and message in page
    assert nothing_stored()


@pytest.mark.parametrize(
    ("filename", "data", "message"),
    [
        ("p.pdf", b"%PDF", "Upload an Excel (.xlsx) or CSV file."),
        ("p.xlsx", b"not a zip", "The file cannot be read as an Excel workbook (.xlsx)."),
        ("p.xlsx", b"PK\x03\x04" + bytes(100), "The file cannot be read as an Excel workbook (.xlsx)."),
        ("p.csv", b"", "The file lists no results."),
        ("p.csv", b"\n;;\n", "The file lists no results."),
        ("p.csv", b"Tournament,Date,Round,Table,Place,Player\n", "The file lists no results."),
        ("p.csv", b"\xff\xfe\x00\x00garbage\x81", "Line 1 is not text (UTF-8 or Windows-1250)."),
        ("p.csv", b'Tournament,Date,Round,Table,Place,Player\n"Cup,' + b"A" * 140_000, "a field is too long"),
    ],
)
def test_an_unusable_file_is_refused(director_client, filename, data, message):
    found = problems(filename, data)
    assert any(message in text for _at, text in found), found
    response = post(director_client, filename, data)
    on_the_page = message if data else "The submitted file is empty."  # the form's own check
    assert response.status_code == 400 and on_the_page in text(response)
    assert nothing_stored()


@pytest.mark.postgres
def test_a_tournament_already_imported_is_refused_by_name(director_client, director):
    import_past_results("r.xlsx", xlsx(good_rows()), director)
    before = PastPlacement.objects.count()
    again = [HEAD, ["Winter Cup", D2, 1, 1, 1, "Zoe", None], ["Winter Cup", D2, 1, 1, 2, "Yan", None]]
    again += [["Spring Cup", D2, 1, 1, 1, "Zoe", None], ["Spring Cup", D2, 1, 1, 2, "Yan", None]]
    with pytest.raises(PastResultsError) as e:
        import_past_results("r.xlsx", xlsx(again), director)
    assert e.value.problems == [
        (2, "Winter Cup of 2025-02-01 is already imported: delete it first to import it again")
    ]
    response = post(director_client, "r.xlsx", xlsx(good_rows()))
    assert response.status_code == 400
    assert "line 2: Autumn Cup of 2024-11-09 is already imported" in text(response)
    assert PastEvent.objects.count() == 2 and PastPlacement.objects.count() == before
    assert not PastEvent.objects.filter(name="Spring Cup").exists()  # all or nothing


def test_rows_are_read_up_to_the_limit_only(director_client, monkeypatch):
    assert past_results.MAX_ROWS == 100_000
    monkeypatch.setattr(past_results, "MAX_ROWS", 10)
    rows = [HEAD] + [row(Table=i // 2 + 1, Player=f"P{i}", Place=i % 2 + 1) for i in range(10)]
    found = problems("p.xlsx", xlsx(rows))
    assert found == [(None, "The file has more than 10 rows: split it.")]
    assert "The file has more than 10 rows: split it." in text(post(director_client, "p.xlsx", xlsx(rows)))
    assert len(read_past_results("p.xlsx", xlsx(rows[:9]))[0].rows) == 8
    assert nothing_stored()


def test_at_most_the_first_problems_are_listed(director_client):
    rows = [HEAD] + [row(Player=None) for _ in range(50)]
    assert len(problems("p.xlsx", xlsx(rows))) == 50
    page = text(post(director_client, "p.xlsx", xlsx(rows)))
    assert page.count("Player is missing") == MAX_PROBLEMS_SHOWN
    assert f"… and {50 - MAX_PROBLEMS_SHOWN} more problems." in page


def test_a_workbook_unpacking_too_large_is_refused(director_client):
    wb = Workbook(write_only=True)
    sheet = wb.create_sheet()
    sheet.append(HEAD)
    for i in range(400):
        sheet.append(["Cup", D1, 1, 1, 1, "A" * 30_000 + str(i), None])
    out = io.BytesIO()
    wb.save(out)
    found = problems("p.xlsx", out.getvalue())
    assert len(found) == 1 and "split the results into smaller workbooks" in found[0][1]
    assert nothing_stored()


def test_a_file_over_the_upload_limit_is_refused(director_client, settings):
    settings.UPLOAD_MAX_BYTES = 1000
    data = b"Tournament,Date,Round,Table,Place,Player\n" + b"Cup,2024-01-01,1,1,1,Ada\n" * 100
    response = post(director_client, "p.csv", data)
    assert response.status_code == 400 and "The file is larger than" in text(response)
    assert nothing_stored()


def test_no_file_is_refused(director_client):
    response = director_client.post(reverse("past_events"), {})
    assert response.status_code == 400 and "Choose a file to import." in text(response)


def test_the_polish_page_says_the_problem_in_polish(director):
    pl = Client(HTTP_ACCEPT_LANGUAGE="pl")
    pl.force_login(director)
    response = post(pl, "p.xlsx", xlsx(with_partner(row(Player=LONG))))
    assert response.status_code == 400
    page = text(response)
    assert "Niczego nie zaimportowano" in page
    assert f"wiersz 2: imię i nazwisko lub klub ma więcej niż {NAME_LENGTH} znaków" in page
    assert nothing_stored()


@pytest.mark.postgres
def test_random_files_never_fail_and_are_imported_whole_or_not_at_all(director_client, director):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tests.fuzzing import examples

    cell = st.one_of(
        st.sampled_from(["Cup", "cup", "Ada", "ADA", "Bob", "", " ", "1", "2", "0", "-1", "1.5", "A\x00"]),
        st.sampled_from(["2024-01-01", "01.01.2024", "2024-13-01", "99999", "N" * 201]),
        st.text(max_size=6),
    )
    lines = st.lists(st.lists(cell, min_size=0, max_size=8), max_size=8)

    @settings(max_examples=examples(60), suppress_health_check=list(HealthCheck))
    @given(body=lines, header=st.permutations(HEAD))
    def check(body, header):
        PastEvent.objects.all().delete()
        data = "\n".join(",".join(c.replace(",", " ").replace('"', "") for c in r) for r in [header, *body])
        try:
            expected = read_past_results("p.csv", data.encode("utf-8", "surrogatepass"))
        except PastResultsError:
            expected = []
        response = post(director_client, "p.csv", data.encode("utf-8", "surrogatepass"))  # a 500 raises here
        assert response.status_code == (302 if expected else 400)
        assert PastEvent.objects.count() == len(expected)
        assert PastPlacement.objects.count() == sum(len(e.rows) for e in expected)

    check()


# -- who may, and deleting ---------------------------------------------------------------------------------


def test_anonymous_is_sent_to_log_in(client, director):
    (event,) = import_past_results("t.xlsx", xlsx(with_partner(row())), director).events
    for response in (
        client.get(reverse("past_events")),
        client.get(reverse("past_results_template")),
        post(client, "p.xlsx", xlsx(good_rows())),
        client.post(reverse("past_event_delete", args=[event.pk])),
    ):
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert PastEvent.objects.count() == 1


def test_a_referee_is_refused(client, referee, director):
    (event,) = import_past_results("t.xlsx", xlsx(with_partner(row())), director).events
    client.force_login(referee)
    assert client.get(reverse("past_events")).status_code == 403
    assert client.get(reverse("past_results_template")).status_code == 403
    assert post(client, "p.xlsx", xlsx(good_rows())).status_code == 403
    assert client.post(reverse("past_event_delete", args=[event.pk])).status_code == 403
    assert PastEvent.objects.count() == 1


def test_any_account_with_the_directors_role_may(client):
    user = User.objects.create_user("organiser", password="pw")
    user.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
    client.force_login(user)
    assert client.get(reverse("past_events")).status_code == 200
    assert client.post(checked(client, "p.xlsx", xlsx(good_rows())), {"import": ""}).status_code == 302
    assert PastEvent.objects.filter(imported_by=user).count() == 2


def test_delete_takes_the_results_and_the_ratings(
    director_client, director, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        autumn, winter = import_past_results("r.xlsx", xlsx(good_rows()), director).events
    with django_capture_on_commit_callbacks(execute=True):
        identities.link(list(winter.entrants.all()), {e.pk: NEW for e in winter.entrants.all()})
    assert PlayerRating.objects.count() == 2
    url = reverse("past_event_delete", args=[winter.pk])
    assert director_client.get(url).status_code == 405
    with django_capture_on_commit_callbacks(execute=True):
        response = director_client.post(url)
    assert response.status_code == 302 and response.url == reverse("past_events")
    assert list(PastEvent.objects.all()) == [autumn]
    assert not PastEntrant.objects.filter(event_id=winter.pk).exists()
    assert PastPlacement.objects.count() == 10
    assert not PlayerRating.objects.exists()  # the players' only games went with it
    assert Player.objects.count() == 2  # the players stay
    page = text(director_client.get(reverse("past_events")))
    assert "Winter Cup (2025-02-01) deleted: the ratings are rebuilt without it." in page
    assert director_client.post(url).status_code == 404


# -- the names checked before they are stored -------------------------------------------------------------


def test_a_windows_1250_file_is_said_so_with_its_names_and_cancel_stores_nothing(director_client):
    data = b"Turniej;Data;Runda;Stolik;Miejsce;Gracz\n" + (
        "Puchar Łodzi;2025-01-04;1;1;1;Żaneta Kołodziej\nPuchar Łodzi;2025-01-04;1;1;2;Łukasz Wójcik\n"
    ).encode("cp1250")
    check = checked(director_client, "wyniki.csv", data)
    page = text(director_client.get(check, HTTP_ACCEPT_LANGUAGE="en"))
    assert "it was read as Windows-1250" in page
    assert "Żaneta Kołodziej" in page and "Łukasz Wójcik" in page and "Puchar Łodzi" in page
    response = director_client.post(check, {"cancel": ""})
    assert response.status_code == 302 and response.url == reverse("past_events")
    assert nothing_stored() and not HeldFile.objects.exists()
    again = director_client.get(check, HTTP_ACCEPT_LANGUAGE="en", follow=True)
    assert "That file is no longer waiting to be imported: choose it again." in text(again)


def test_a_file_confirmed_twice_is_imported_once(director_client):
    check = checked(director_client, "results.xlsx", xlsx(good_rows()))
    assert director_client.post(check, {"import": ""}).status_code == 302
    placements = PastPlacement.objects.count()
    second = director_client.post(check, {"import": ""}, HTTP_ACCEPT_LANGUAGE="en", follow=True)
    assert "That file is imported already, or was let go: see the list." in text(second)
    assert PastEvent.objects.count() == 2 and PastPlacement.objects.count() == placements


def test_a_file_held_is_his_own_and_one_imported_meanwhile_is_refused_on_its_page(director_client, director):
    check = checked(director_client, "results.xlsx", xlsx(good_rows()))
    other = User.objects.create_user("organiser", password="pw")
    other.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
    stranger = Client()
    stranger.force_login(other)
    assert stranger.get(check).status_code == 302  # not his: "no longer waiting"
    assert stranger.post(check, {"import": ""}).status_code == 302 and nothing_stored()
    import_past_results("same.xlsx", xlsx(good_rows()), other)  # the same file, by another director
    response = director_client.post(check, {"import": ""}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "Autumn Cup of 2024-11-09 is already imported" in text(response)
    assert PastEvent.objects.filter(imported_by=director).count() == 0 and not HeldFile.objects.exists()


def test_one_file_held_a_director_and_those_left_a_day_go(director_client, director):
    from tournament.models.held_files import HELD_FOR

    first = checked(director_client, "a.xlsx", xlsx(good_rows()))
    second = checked(director_client, "b.xlsx", xlsx(good_rows()))
    assert HeldFile.objects.count() == 1 and first != second
    HeldFile.objects.update(held_at=timezone.now() - HELD_FOR - datetime.timedelta(minutes=1))
    assert director_client.get(second).status_code == 302  # too old to import
    checked(director_client, "c.xlsx", xlsx(good_rows()))
    assert HeldFile.objects.count() == 1  # the old one deleted
