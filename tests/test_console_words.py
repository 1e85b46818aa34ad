"""What people read, in Polish and in English: no internal names (an event's or a variant's id, an option's
key) on the console, in the log, on the sheets and the PDFs; an English board's words in Polish on Polish
pages; one Polish name for Anti-Monopoly; the standings PDF's header wraps at spaces only (not "rund ach")."""

import html
import json
import re
from pathlib import Path

import polib
import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation

from rules.board import get_board
from rules.engine import new_game
from rules.final_steps import refusal_of
from rules.variants import make_variant
from tests.accounts import signed_in_referee  # noqa: F401 (the fixture referee, signed in)
from tests.pdf_pages import assert_pages, pages_text, save
from tests.tournaments import make_tournament, play_round
from tournament.exports.ledger_cards import game_entries, ledger_cards_pdf
from tournament.exports.result_sheets import result_sheets_pdf
from tournament.exports.standings_pdf import standings_pdf
from tournament.games import recording
from tournament.games.messages import error_text
from tournament.reports.rounds import tournament_report

pytestmark = pytest.mark.django_db
CATALOGUE = Path(__file__).resolve().parents[1] / "tournament/locale/pl/LC_MESSAGES/django.po"
#: Ids the code keeps that a person must never read: the final steps' event types, the variants', the
#: boards' and the Anti-Monopoly endings' ids.
RAW_IDS = re.compile(
    r"\b(final_keep|final_tour|final_roll|tournament-pl|polish-table|anti-monopoly-us|classic-pl|classic-us"
    r"|game_a|game_b|two_hour|sell_building|transfer_fee|jail_fine)\b"
)


def visible(page: str) -> str:
    """The text of a page as read: tags, their attributes and the scripts left out."""
    page = re.sub(r"<script.*?</script>|<style.*?</style>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def am_game(referee, ending="two_hour"):
    return recording.create_game(
        variant="anti-monopoly",
        board="anti-monopoly-us",
        players=[{"name": "Irena", "role": "competitor"}, {"name": "Marek", "role": "monopolist"}],
        options={"ending": ending},
        referees=[referee],
    )


def act(client, game, language, *events) -> str:
    """The events of one tap sent as the phone's outbox sends them; what the referee reads of the answer: the
    moves' words in the log, or the refusal."""
    game.refresh_from_db()
    body = {
        "client_key": f"dev.{game.version}",
        "version": game.version,
        "events": list(events),
        "waiting": 1,
    }
    response = client.post(
        reverse("console_sync", args=[game.pk]),
        json.dumps({**body, "full": True}),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    answer = response.json()
    if not answer["ok"]:
        return answer["message"]
    return " ".join(note for row in answer["position"]["log"] for note in row["notes"])


@pytest.mark.parametrize("language", ["pl", "en"])
def test_the_console_and_its_log_show_no_internal_names(client, referee, language):
    """An Anti-Monopoly two-hour game to its final steps and its end, every move's words and refusal read,
    and the pages of the game (the screen's own words: the catalogue, tests/test_i18n.py)."""
    game = am_game(referee)
    pages = [act(client, game, language, {"type": "roll", "player": "A", "dice": [1, 3]})]  # 4: Income Tax
    pages.append(act(client, game, language, {"type": "income_tax", "player": "A", "choice": "fixed"}))
    pages.append(act(client, game, language, {"type": "time_up"}))
    pages.append(
        act(client, game, language, {"type": "roll", "player": "B", "dice": [2, 3]})
    )  # the round ends
    pages.append(act(client, game, language, {"type": "decline", "player": "B"}))
    pages.append(act(client, game, language, {"type": "roll", "player": "A", "dice": [1, 2]}))  # refused
    pages.append(act(client, game, language, {"type": "final_tour"}))  # refused: first each keeps a share
    pages.append(act(client, game, language, {"type": "final_keep"}))
    pages.append(act(client, game, language, {"type": "roll", "player": "A", "dice": [1, 2]}))  # refused
    pages.append(act(client, game, language, {"type": "final_tour"}))
    url = reverse("console", args=[game.pk])
    pages.append(client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode())
    pages.append(
        client.get(reverse("console_moves", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    )
    pages.append(
        client.get(reverse("game_cards", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    )
    game.refresh_from_db()
    assert recording.current_state(game).finished
    for page in pages:
        text = visible(page)
        assert not RAW_IDS.search(text), RAW_IDS.search(text).group(0)
    text = " ".join(visible(p) for p in pages)
    if language == "pl":
        assert "Irena staje na polu Podatek dochodowy." in text
        for english in ("Income Tax", "Competitor", "Monopolist ", "Anti-Monopoly"):
            assert english not in text, english
        assert "Anty-Monopol " not in text and "Anty-Monopolu" not in text  # one name: Anty-Monopoly
    else:
        assert "Irena lands on Income Tax." in text


@pytest.mark.parametrize("language", ["pl", "en"])
def test_the_final_steps_refusals_name_no_event(language):
    s = new_game(
        get_board("anti-monopoly-us"),
        make_variant("anti-monopoly", {"ending": "two_hour"}),
        [
            ("A", "Irena", "competitor"),
            ("B", "Marek", "monopolist"),
        ],
    )
    with translation.override(language):
        for step in ("dealings", "tour"):
            s.final_step = step
            text = error_text(refusal_of(s, "roll"))
            assert text and not RAW_IDS.search(text), text


def test_an_auction_refusal_names_the_variant_not_its_id(client, referee):
    game = recording.create_game(
        variant="tournament-pl",
        board="classic-pl",
        players=[{"name": "Irena"}, {"name": "Marek"}],
        referees=[referee],
    )
    act(client, game, "pl", {"type": "roll", "player": "A", "dice": [1, 2]})  # 3: ul. Stalowa, 60
    decline = {"type": "decline", "player": "A"}
    page = act(client, game, "pl", decline, {"type": "auction", "square": 3, "price": 10, "winner": "B"})
    assert "poniżej kwoty wywoławczej" in page or "wywoławcz" in page, page[:2000]
    assert not RAW_IDS.search(page), RAW_IDS.search(page).group(0)


def test_the_catalogue_has_one_name_for_anti_monopoly_and_no_ids():
    po = polib.pofile(str(CATALOGUE))
    assert not [e.msgid for e in po if "fuzzy" in e.flags]
    for e in po:
        for text in (e.msgid, e.msgstr):
            assert not re.search(r"\bfinal_(keep|tour|roll)\b", text), text
        assert not re.search(r"Anty-Monopol\b|Anty-Monopolu|Antymonopoly|Anti-Monopoly", e.msgstr), e.msgstr


@pytest.fixture
def tournament():
    """One round played: the standings' "Points per round" spans one narrow column."""
    names = [f"Uczestnik {i + 1}" for i in range(8)]
    t = make_tournament(names, "Klub „Śnieżka”", name="Puchar Łodzi", rounds=3, game_rounds=2, seed=5)
    play_round(t, User.objects.create_user("sedzia", password="pw"), seed=1)
    return t


@pytest.mark.parametrize("language", ["pl", "en"])
def test_the_standings_pdf_header_wraps_at_spaces_only(tournament, language):
    with translation.override(language):
        pdf = standings_pdf(tournament_report(tournament))
        head = [
            str(w)
            for w in (
                translation.gettext("Points per round"),
                translation.gettext("Total score"),
                translation.gettext("Best score"),
                translation.gettext("Club / school"),
            )
        ]
    save(pdf, f"standings-header-{language}")
    text = pages_text(pdf)[0]
    words = set(text.split())
    for label in head:
        for word in label.split():
            assert word in words, (word, text[:600])
    assert not RAW_IDS.search(text)


@pytest.mark.parametrize("language", ["pl", "en"])
def test_sheets_and_cards_show_no_internal_names(tournament, language):
    with translation.override(language):
        report = tournament_report(tournament)
        first = report.rounds[0]
        sheets = result_sheets_pdf(tournament, first.tables)
        cards = ledger_cards_pdf(tournament, game_entries(first.tables[0].game), "Karty")
    for pdf in (sheets, cards):
        for text in assert_pages(pdf, tournament.name):
            assert not RAW_IDS.search(text), RAW_IDS.search(text).group(0)
