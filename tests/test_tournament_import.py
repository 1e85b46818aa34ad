"""Importing participants from CSV and Excel: good files; bad rows reported by line, nothing imported."""

import html
import io
import re
import time
import zipfile

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation
from openpyxl import Workbook

from tournament.director.forms import ParticipantForm
from tournament.files.participants_import import (
    MAX_PROBLEMS_SHOWN,
    MAX_ROWS,
    MAX_UNPACKED_BYTES,
    ParticipantFileError,
    import_participants,
    problem_lines,
    read_participants,
)
from tournament.models import Participant, Tournament
from tournament.models.games import NAME_LENGTH
from tournament.server.uploads import FORM_OVERHEAD_BYTES

pytestmark = pytest.mark.django_db


def xlsx(rows):
    wb = Workbook()
    for r in rows:
        wb.active.append(r)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


@pytest.fixture
def tournament():
    return Tournament.objects.create(name="Cup")


def test_csv_with_header_semicolons_and_polish_letters(tournament):
    data = "Imię;Klub;Rozstawienie\nŻaneta Łęcka;SP 12 Łódź;1\nBartek Kos;;\n".encode()
    assert import_participants(tournament, "lista.csv", data) == 2
    z = Participant.objects.get(name="Żaneta Łęcka")
    assert (z.club, z.seed) == ("SP 12 Łódź", 1)


def test_csv_without_header_in_windows_1250(tournament):
    data = "Paweł Źdźbło,Klub Szachowy\nAnna Nowak,Klub Szachowy,3\n".encode("cp1250")
    assert import_participants(tournament, "lista.csv", data) == 2
    assert Participant.objects.filter(name="Paweł Źdźbło").exists()


def test_a_utf8_file_with_one_damaged_byte_is_refused_naming_its_line_not_read_as_windows_1250(tournament):
    """Read as Windows-1250 (which takes almost any byte), every Polish name of it would be stored garbled:
    "Żaneta Kołodziej" as "Ĺ»aneta KoĹ‚odziej"."""
    data = "Imię;Klub\nŻaneta Kołodziej;SP 12\nBartek Kos;Łódź\n".encode() + b"Anna \xb3 Nowak;X\n"
    with pytest.raises(ParticipantFileError) as e:
        import_participants(tournament, "lista.csv", data)
    assert "Line 4 is not UTF-8" in str(e.value) and "save the file as UTF-8" in str(e.value)
    assert not Participant.objects.exists()


def test_a_windows_1250_file_in_capitals_is_still_read_as_windows_1250(tournament):
    data = "GÓŹDŹ ANNA;ŁÓDŹ\nĆWIK JAN;KRAKÓW\n".encode("cp1250")  # Ó Ź: D3 8F, as UTF-8 would write a letter
    assert import_participants(tournament, "lista.csv", data) == 2
    assert Participant.objects.filter(name="GÓŹDŹ ANNA", club="ŁÓDŹ").exists()


def test_excel_file(tournament):
    data = xlsx(
        [["Name", "Club", "Seed"], ["Anna", "Warszawa", 2], ["Bartek", None, None], [None, None, None]]
    )
    assert import_participants(tournament, "players.xlsx", data) == 2
    assert Participant.objects.get(name="Anna").seed == 2


def test_bad_rows_are_reported_by_line_and_nothing_is_imported(tournament):
    data = b"name,club,seed\nAnna,X,1\n,Y,\nBartek,Z,first\nanna,x,\nCelina,V,0\n"
    with pytest.raises(ParticipantFileError) as e:
        import_participants(tournament, "p.csv", data)
    lines = [line for line, _ in e.value.problems]
    assert lines == [3, 4, 5, 6]
    assert "missing" in e.value.problems[0][1] and "first" in e.value.problems[1][1]
    assert "line 2" in e.value.problems[2][1]
    assert not Participant.objects.exists()


def test_names_already_registered_are_reported(tournament):
    Participant.objects.create(tournament=tournament, name="Anna")
    with pytest.raises(ParticipantFileError) as e:
        import_participants(tournament, "p.csv", b"Anna\nBartek\n")
    assert e.value.problems == [
        (
            1,
            "Anna is already registered. If this is another person of that name, give their club or school "
            "(or a note in its place) to tell them apart.",
        )
    ]
    assert Participant.objects.count() == 1


def test_namesakes_of_two_clubs_are_two_people_told_apart_by_their_clubs(tournament):
    Participant.objects.create(tournament=tournament, name="Jan Kowalski", club="SP 12")
    with pytest.raises(ParticipantFileError) as e:
        import_participants(tournament, "p.csv", b"jan kowalski,sp 12\n")
    assert e.value.problems == [(1, "jan kowalski of sp 12 is already registered.")]
    assert import_participants(tournament, "p.csv", b"Jan Kowalski,LO 3\nAnna Nowak,SP 12\n") == 2
    shown = sorted(p.shown_name for p in tournament.participants.all())
    assert shown == ["Anna Nowak", "Jan Kowalski (LO 3)", "Jan Kowalski (SP 12)"]
    lo = tournament.participants.get(club="LO 3")
    lo.delete()  # left alone: his name only again
    assert [p.shown_name for p in tournament.participants.filter(name="Jan Kowalski")] == ["Jan Kowalski"]


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("p.pdf", b"%PDF"),
        ("p.xlsx", b"not a zip"),
        ("p.csv", b""),
        ("p.csv", b"\n;;\n"),
        ("p.csv", b"\xff\xfe\x00\x00garbage\x81"),
    ],
)
def test_unusable_files(name, data):
    with pytest.raises(ParticipantFileError) as e:
        read_participants(name, data)
    assert e.value.problems and e.value.problems[0][1]


# Bad input: refused with a clear message, nothing imported, never a 500, and cheaply.


@pytest.fixture(autouse=True)
def english():
    """The messages are compared in English (the site's default language is Polish)."""
    with translation.override("en"):
        yield


@pytest.fixture
def director_client(client):
    client.force_login(User.objects.create_user("director", password="pw", is_staff=True))
    return client


def post_file(client, tournament, filename, data, follow=True, confirm=True):
    """The file uploaded on the tournament's page; the names it shows confirmed (``confirm``), as the director
    taps "Import" under them."""
    upload = io.BytesIO(data)
    upload.name = filename
    url = reverse("participant_import", args=[tournament.pk])
    response = client.post(url, {"file": upload}, follow=follow)
    shown = preview_of(response)
    if confirm and shown is not None:
        return client.post(url, {"rows": shown}, follow=follow)
    return response


def preview_of(response) -> str | None:
    """The signed names of the preview page ``response`` is, or None (a refusal: no preview)."""
    if response.status_code != 200:
        return None
    found = re.search(r'name="rows" value="([^"]+)"', response.content.decode())
    return html.unescape(found.group(1)) if found else None


def page(response):
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def problems(filename, data):
    with pytest.raises(ParticipantFileError) as e:
        read_participants(filename, data)
    return e.value.problems


def with_sheet_xml(data, old: bytes, new: bytes):
    """The workbook ``data`` with ``old`` replaced by ``new`` in its worksheet's XML (what openpyxl won't
    write: a NUL, a character reference)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            part = zin.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                assert old in part
                part = part.replace(old, new)
            zout.writestr(info, part)
    return out.getvalue()


CSV_TOO_LONG = (
    "The file cannot be read as CSV from line 3: a field is too long (is a quotation mark not closed?)."
)


@pytest.mark.parametrize(
    "data",
    [
        b"name,club\nAnna,X\n" + b"B" * 140_000 + b",Y\n",  # over csv.field_size_limit() (131,072)
        b'name,club\nAnna,X\n"Bartek,Y\n' + b"Celina,Z\n" * 20_000,  # an unclosed quotation mark
    ],
    ids=["long field", "unclosed quotation mark"],
)
def test_csv_field_over_the_csv_limit_is_a_problem_not_a_500(director_client, tournament, data):
    assert problems("p.csv", data) == [(None, CSV_TOO_LONG)]
    text = page(post_file(director_client, tournament, "p.csv", data))
    assert "Nothing was imported" in text and CSV_TOO_LONG in text
    assert not Participant.objects.exists()


NOT_ALLOWED = "a name, club or seed contains a character that is not allowed"


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"name,club,seed\nAnna,X,1\nBar\x00tek,Y,2\n", 3),
        (b"name,club,seed\nAnna,X,1\nBartek,Y\x00,2\n", 3),
        (b"Anna\nBartek,,2\x00\n", 2),
    ],
)
def test_nul_in_a_csv_line_is_refused_by_line(director_client, tournament, data, line):
    [(found_line, message)] = problems("p.csv", data)
    assert found_line == line and message.startswith(NOT_ALLOWED)
    text = page(post_file(director_client, tournament, "p.csv", data))
    assert f"line {line}: {NOT_ALLOWED}" in text
    assert not Participant.objects.exists()


def test_control_characters_in_a_workbook_are_refused_by_line(director_client, tournament):
    data = xlsx(
        [["Name", "Club"], ["Anna", "X"], ["Jan\nKowalski", "Y"], ["Celina", "Z\tZ"], ["Do\x85rota", "W"]]
    )
    assert [line for line, _ in problems("p.xlsx", data)] == [3, 4, 5]
    text = page(post_file(director_client, tournament, "p.xlsx", data))
    assert f"line 3: {NOT_ALLOWED}" in text and f"line 5: {NOT_ALLOWED}" in text
    assert not Participant.objects.exists()


@pytest.mark.parametrize("nul", [b"&#0;", b"\x00"])
def test_nul_in_a_workbook_is_refused(director_client, tournament, nul):
    """XML cannot carry a NUL: the parser refuses the workbook (per line if another parser let it through)."""
    data = with_sheet_xml(xlsx([["Name"], ["Anna"], ["BarMARKtek"]]), b"MARK", nul)
    text = page(post_file(director_client, tournament, "p.xlsx", data))
    assert "cannot be read as an Excel workbook" in text
    assert not Participant.objects.exists()


@pytest.mark.postgres
def test_names_and_clubs_are_bounded_by_name_length(director_client, tournament):
    fits, long = "N" * NAME_LENGTH, "L" * (NAME_LENGTH + 1)
    assert (
        NAME_LENGTH
        == Participant._meta.get_field("name").max_length
        == ParticipantForm().fields["name"].max_length
    )
    message = f"a name or club is longer than {NAME_LENGTH} characters"
    assert problems("p.csv", f"{long},X\nBartek,{long}\n".encode()) == [(1, message), (2, message)]
    text = page(post_file(director_client, tournament, "p.xlsx", xlsx([["Name", "Club"], [long, "X"]])))
    assert f"line 2: {message}" in text and not Participant.objects.exists()
    text = page(post_file(director_client, tournament, "p.csv", f"{fits},{fits}\n".encode()))
    assert "1 participants imported" in text
    assert Participant.objects.get().club == fits


@pytest.mark.postgres
def test_a_seed_beyond_the_database_integer_is_refused(director_client, tournament):
    data = b"Anna,X,100000000000000000000\nBartek,Y," + b"9" * 5000 + b"\n"
    found = problems("p.csv", data)
    assert [line for line, _ in found] == [1, 2]
    assert "100000000000000000000" in found[0][1] and len(found[1][1]) < 120  # a long value is shortened
    page(post_file(director_client, tournament, "p.csv", data))
    assert not Participant.objects.exists()


def test_a_request_over_the_limit_is_stopped_at_the_file_and_refused(director_client, tournament, settings):
    settings.UPLOAD_MAX_BYTES = 1024 * 1024
    data = b"Anna,X\n" * ((settings.UPLOAD_MAX_BYTES + FORM_OVERHEAD_BYTES) // 7 + 1)
    response = post_file(director_client, tournament, "p.csv", data, follow=False)
    assert response.status_code == 302
    unread = len(response.wsgi_request.environ["wsgi.input"])  # the test client's payload: what is left
    assert unread > len(data) - 2 * FORM_OVERHEAD_BYTES  # the handler stopped at the file's first bytes
    text = page(director_client.get(response.url))
    assert "The file is larger than 1 MB." in text and "Choose a file" not in text
    assert not Participant.objects.exists()


def test_a_file_over_the_limit_is_refused_before_it_is_read(
    director_client, tournament, settings, monkeypatch
):
    """Just over the limit: the request is let through (room for the form), the view refuses the file by its
    size without reading it."""
    from tournament.director import views

    def read(*args):
        raise AssertionError("read")

    monkeypatch.setattr(views, "read_participants", read)
    data = b"Anna,X\n" * (settings.UPLOAD_MAX_BYTES // 7 + 1)
    assert settings.UPLOAD_MAX_BYTES < len(data) < settings.UPLOAD_MAX_BYTES + FORM_OVERHEAD_BYTES // 2
    text = page(post_file(director_client, tournament, "p.csv", data))
    assert "The file is larger than 5 MB." in text and not Participant.objects.exists()
    assert problems("p.csv", data) == [(None, "The file is larger than 5 MB.")]  # the reader's own check


@pytest.fixture(scope="module")
def zip_bomb(tmp_path_factory):
    """200,000 rows of one short string: about 1 MB on disk, 16 MB unpacked."""
    path = tmp_path_factory.mktemp("bomb") / "bomb.xlsx"
    wb = Workbook(write_only=True)
    sheet = wb.create_sheet()
    for _ in range(200_000):
        sheet.append(["Anna Nowak"])
    wb.save(path)
    return path.read_bytes()


def test_a_zip_bomb_workbook_is_refused_quickly_on_a_small_page(director_client, tournament, zip_bomb):
    with zipfile.ZipFile(io.BytesIO(zip_bomb)) as archive:
        assert sum(i.file_size for i in archive.infolist()) > MAX_UNPACKED_BYTES > 10 * len(zip_bomb)
    start = time.perf_counter()
    response = post_file(director_client, tournament, "bomb.xlsx", zip_bomb)
    elapsed = time.perf_counter() - start
    text = page(response)
    assert "The workbook unpacks to more than 10 MB" in text
    assert elapsed < 3 and len(response.content) < 50_000, (elapsed, len(response.content))
    assert not Participant.objects.exists()


def test_rows_are_read_up_to_the_limit_only(director_client, tournament):
    wb = Workbook(write_only=True)
    sheet = wb.create_sheet()
    for i in range(MAX_ROWS + 1000):
        sheet.append([f"P{i}"])
    out = io.BytesIO()
    wb.save(out)
    limit = f"The file has more than {MAX_ROWS} rows: split it."
    text = page(post_file(director_client, tournament, "p.xlsx", out.getvalue()))
    assert limit in text and len(text) < 50_000
    # CSV: the line after the limit would fail to parse; it is never read.
    data = b"".join(b"P%d\n" % i for i in range(MAX_ROWS)) + b"Q\n" + b"x" * 140_000 + b"\n"
    assert problems("p.csv", data) == [(None, limit)]
    assert len(read_participants("p.csv", data[: data.index(b"Q\n")])) == MAX_ROWS
    assert not Participant.objects.exists()


def test_a_file_that_is_not_a_workbook_says_so(director_client, tournament):
    for data in (b"not a zip", b"PK\x03\x04" + bytes(100), xlsx([["Anna"]])[:-30]):
        assert problems("p.xlsx", data) == [(None, "The file cannot be read as an Excel workbook (.xlsx).")]


def test_at_most_the_first_problems_are_listed(director_client, tournament):
    data = b"name,club\n" + b",no name\n" * 100
    assert len(problems("p.csv", data)) == 100
    text = page(post_file(director_client, tournament, "p.csv", data))
    assert text.count("the name is missing") == MAX_PROBLEMS_SHOWN
    assert f"line {MAX_PROBLEMS_SHOWN + 1}: the name is missing" in text
    assert f"line {MAX_PROBLEMS_SHOWN + 2}: the name" not in text
    assert f"… and {100 - MAX_PROBLEMS_SHOWN} more problems." in text
    assert problem_lines([(1, "a"), (None, "b"), (3, "c")], limit=2) == [
        "line 1: a",
        "b",
        "… and 1 more problem.",
    ]
    assert not Participant.objects.exists()


def test_random_files_never_fail_and_are_imported_whole_or_not_at_all(director_client):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tests.fuzzing import examples

    good = xlsx([["Name", "Club", "Seed"], ["Anna", "X", 1], ["Bartek", "Y", 2]])
    cell = st.one_of(
        st.text(max_size=12),
        st.sampled_from(["Anna", "anna", '"', "1", "0", "-3", "", " ", "A\x00", "99999999999", "N" * 121]),
    )
    text_file = st.tuples(
        st.lists(st.lists(cell, max_size=4), max_size=8),
        st.sampled_from([",", ";", "\t"]),
        st.sampled_from(["\n", "\r\n", "\r"]),
        st.sampled_from(["utf-8", "utf-8-sig", "cp1250"]),
    ).map(lambda t: t[2].join(t[1].join(row) for row in t[0]).encode(t[3], errors="replace"))
    spoilt_workbook = st.lists(st.tuples(st.integers(0, len(good) - 1), st.integers(0, 255)), max_size=4).map(
        lambda changes: bytes(_spoil(good, changes))
    )
    files = st.one_of(
        st.tuples(st.sampled_from(["p.csv", "p.txt"]), st.one_of(text_file, st.binary(max_size=300))),
        st.tuples(st.just("p.xlsx"), st.one_of(spoilt_workbook, st.binary(max_size=300))),
    )

    @settings(max_examples=examples(100), suppress_health_check=list(HealthCheck))
    @given(file=files)
    def check(file):
        filename, data = file
        tournament = Tournament.objects.create(name="Cup")
        try:
            expected = len(read_participants(filename, data))
        except ParticipantFileError:
            expected = 0
        text = page(post_file(director_client, tournament, filename, data))  # a 500 raises here
        stored = list(tournament.participants.all())
        assert len(stored) == expected  # all rows of a clean file, nothing of another
        refused = "Nothing was imported" in text or "Choose a file" in text  # (an empty file)
        assert ("participants imported" in text) == bool(expected) != refused
        for p in stored:
            assert p.name and len(p.name) <= NAME_LENGTH and len(p.club) <= NAME_LENGTH
            assert not CONTROL.search(p.name + p.club) and (p.seed is None or p.seed >= 1)

    check()


CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def _spoil(data, changes):
    out = bytearray(data)
    for position, value in changes:
        out[position] = value
    return out


def test_the_names_are_shown_before_anything_is_stored_and_stored_as_shown(director_client, tournament):
    data = "Imię;Klub;Rozstawienie\nŻaneta Łęcka;SP 12 Łódź;1\nBartek Kos;;\n".encode()
    shown = post_file(director_client, tournament, "lista.csv", data, confirm=False)
    text = page(shown)
    assert "Check the names before they are imported" in text and "Import these 2 participants" in text
    assert '<td class="title">Żaneta Łęcka</td>' in text and "SP 12 Łódź" in text
    assert "Windows-1250" not in text  # read as UTF-8: nothing to check there
    assert not Participant.objects.exists()  # nothing stored yet
    url = reverse("participant_import", args=[tournament.pk])
    done = director_client.post(url, {"rows": preview_of(shown)}, follow=True)
    assert "2 participants imported" in page(done)
    assert Participant.objects.get(name="Żaneta Łęcka").seed == 1


def test_a_windows_1250_file_is_shown_read_so_for_the_director_to_check(director_client, tournament):
    data = "Paweł Źdźbło;Klub Szachowy\n".encode("cp1250")
    text = page(post_file(director_client, tournament, "lista.csv", data, confirm=False))
    assert "it was read as Windows-1250" in text and "Paweł Źdźbło" in text
    assert not Participant.objects.exists()


def test_names_not_shown_by_this_page_are_refused(director_client, tournament):
    url = reverse("participant_import", args=[tournament.pk])
    other = Tournament.objects.create(name="Other")
    for token in (
        "forged",
        preview_of(post_file(director_client, other, "p.csv", b"name\nAnna\n", confirm=False)),  # another's
    ):
        text = page(director_client.post(url, {"rows": token}, follow=True))
        assert "The names shown are out of date: import the file again." in text
    assert not Participant.objects.exists()


@pytest.mark.parametrize(
    ("language", "imported", "of_them"),
    [
        ("en", "2 participants imported.", "1 of them has the name of a player of the league"),
        ("pl", "Zaimportowano uczestników: 2.", "1 z nich nosi nazwisko gracza ligi"),
    ],
)
def test_of_them_counts_the_participants_imported_not_those_entered_before(
    director_client, tournament, language, imported, of_them
):
    """Ada, entered by hand before, has a league player's name (her link left unset); the file brings Bob (a
    league player's name too) and Cyd: one of the two imported has a player's name, not two."""
    from tournament.models import Player

    for name in ("Ada", "Bob"):
        Player.objects.create(name=name)
    Participant.objects.create(tournament=tournament, name="Ada")
    director_client.cookies["django_language"] = language
    shown = page(post_file(director_client, tournament, "lista.csv", b"name\nBob\nCyd\n"))
    assert imported in shown and of_them in shown


def test_the_language_menu_on_a_page_a_post_answered_goes_back_to_the_form_s_page(
    director_client, tournament
):
    """The preview is the answer to a POST: switching the language there goes back to the page the file was
    sent from (the POST's referer), not to the import's address, which answers only a POST (405)."""
    form_page = f"http://testserver{reverse('tournament', args=[tournament.pk])}"
    url = reverse("participant_import", args=[tournament.pk])
    upload = io.BytesIO(b"name,club\nAnna,X\n")
    upload.name = "p.csv"
    response = director_client.post(url, {"file": upload}, HTTP_REFERER=form_page)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'name="next" type="hidden" value="{form_page}"' in html
    switched = director_client.post(reverse("set_language"), {"language": "pl", "next": form_page})
    assert switched.status_code == 302 and switched["Location"] == form_page
