"""The PDF tests' pages: a PDF's text page by page (pages_text), checked for what every page carries
(assert_pages: the tournament's name, "page X of Y", DejaVu fonts only, Polish letters whole), and saved to
out/pdf/ with its pages as PNG when Debian's pdftoppm (poppler-utils) is there (save). A pytest plugin
(tests/conftest.py): its fixture ``tournament`` (a Polish tournament of nine, two rounds played and the third
in play) reaches every test without an import; a test module with a tournament of its own overrides it."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest
from pypdf import PdfReader

from rules.simulate import simulate
from tests.tournaments import make_tournament, play_round

OUT = Path(__file__).resolve().parent.parent / "out" / "pdf"
NAMES = [
    "Łukasz Żółć",
    "Ścibor Bąćęłńóśźż",
    "Gra\u0328\u017cyna Bęc",  # "ą" typed as "a" + combining ogonek: must print as one "ą"
    "Małgorzata Źdźbło-Nowakowska",
    "Zofia Ge\u0328ś",  # the decomposed "ę" of the brief
    "Jan Kowalski",
    "Anna Ńańska",
    "Óskar Ślązak",
    "Ewa Ęklund",
]


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def pages_text(pdf: bytes) -> list[str]:
    """Each page's text as laid out (a table's row on one line), runs of spaces made one."""
    pages = PdfReader(io.BytesIO(pdf)).pages
    return [
        "\n".join(" ".join(line.split()) for line in p.extract_text(extraction_mode="layout").splitlines())
        for p in pages
    ]


def flat(text: str) -> str:
    """Whitespace removed: a wrapped name reads as one."""
    return re.sub(r"\s+", "", text)


def save(pdf: bytes, name: str) -> Path:
    """Write the PDF to out/pdf/ and its pages as PNG (if pdftoppm is installed), for a look."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.pdf"
    path.write_bytes(pdf)
    if shutil.which("pdftoppm"):
        for old in OUT.glob(f"{name}-*.png"):
            old.unlink()
        subprocess.run(["pdftoppm", "-png", "-r", "90", str(path), str(OUT / name)], check=True)
    return path


def assert_pages(pdf: bytes, name: str, count: int | None = None) -> list[str]:
    """Every page has the tournament's name and "page X of Y"; only DejaVu fonts are used."""
    texts = pages_text(pdf)
    assert all(unicodedata.is_normalized("NFC", text) for text in texts)
    if count is not None:
        assert len(texts) == count
    for i, text in enumerate(texts, 1):
        assert flat(name) in flat(text), f"page {i}: no {name!r}"
        assert f"page {i} of {len(texts)}" in text or f"strona {i} z {len(texts)}" in text, text[-200:]
    for page in PdfReader(io.BytesIO(pdf)).pages:
        fonts = page["/Resources"]["/Font"]
        assert fonts and all("DejaVu" in str(f.get_object()["/BaseFont"]) for f in fonts.values())
    return texts


@pytest.fixture
def tournament():
    """ "Puchar Łodzi — Zażółć gęślą jaźń": NAMES in three clubs, rounds 1 and 2 played (referee "ref"), round
    3's first table in play (25 moves), its other not started."""
    from django.contrib.auth.models import User

    from tournament.event import rounds
    from tournament.games import recording

    t = make_tournament(
        NAMES,
        lambda i: f"Klub „Śnieżka” {i % 3}",
        name="Puchar Łodzi — Zażółć gęślą jaźń",
        rounds=3,
        game_rounds=3,
        seed=5,
    )
    referee = User.objects.create_user("ref", password="pw", first_name="Sędzia", last_name="Głównoń")
    play_round(t, referee, seed=1)
    play_round(t, referee, seed=2)
    # round 3: one table in play (a few moves), the other not started
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.order_by("number").first()
    table.referees.add(referee)
    order = [s.participant_id for s in table.seats.all()]
    game = rounds.start_table_game(table, order, user=referee)
    record = simulate(t.variant, t.board, len(order), seed=3, rounds=t.game_rounds)
    for ev in record["events"][:25]:
        game = recording.submit(game.pk, ev, version=game.version).game
    return t
