"""Importing participants from CSV and Excel: good files; bad rows reported by line, nothing imported."""

import io

import pytest
from openpyxl import Workbook

from tournament.models import Participant, Tournament
from tournament.participants_import import ParticipantFileError, import_participants, read_participants

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


def test_excel_file(tournament):
    data = xlsx(
        [["Name", "Club", "Seed"], ["Anna", "Warszawa", 2], ["Bartek", None, None], [None, None, None]]
    )
    assert import_participants(tournament, "players.xlsx", data) == 2
    assert Participant.objects.get(name="Anna").seed == 2


def test_bad_rows_are_reported_by_line_and_nothing_is_imported(tournament):
    data = b"name,club,seed\nAnna,X,1\n,Y,\nBartek,Z,first\nanna,W,\nCelina,V,0\n"
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
    assert e.value.problems == [(1, "Anna is already registered")]
    assert Participant.objects.count() == 1


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
