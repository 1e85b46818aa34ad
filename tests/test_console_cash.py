"""The console's players section beside the banknotes on the table: what a player owes or is owed, what he
should hold, and the cash count (issue 20), through Django's test client."""

import re
from html import unescape

import pytest
from django.urls import reverse

from rules import replay
from tests.accounts import signed_in_referee  # noqa: F401 (the fixture referee, signed in)
from tests.test_console_views import HX, act, start
from tournament.games import recording
from tournament.models import GameEvent

pytestmark = pytest.mark.django_db


def text(response) -> str:
    """The page as the referee reads it: tags gone, spaces folded."""
    page = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", unescape(page))


def player_card(response, name: str) -> str:
    """The text of one player's card in the players section."""
    section = response.content.decode().split('class="players"', 1)[1]
    for card in section.split("<article")[1:]:
        if f"<strong>{name}</strong>" in card:
            return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", card)))
    raise AssertionError(f"no card for {name}")


def in_debt(client, referee):  # noqa: F811
    """Anna buys Reading Railroad (#1–2), Bartek gives away all but 10 (#3), lands there (#4) and pays the
    rent of 25 (#5): Anna is credited 25, 15 of it still owed."""
    game = start(referee, "classic", "classic-us", names=("Anna", "Bartek", "Celina"))
    act(client, game, action="roll", player="A", dice="23")
    act(client, game, action="buy", player="A")
    act(client, game, action="trade", player="B", **{"with": "C"}, give_cash="1490")
    act(client, game, action="roll", player="B", dice="23")
    response = act(client, game, action="rent", player="B")
    assert game.events.count() == 5 and recording.current_state(game).players[1].cash == -15
    return game, response


def test_the_creditor_is_shown_what_he_holds_on_the_table(client, referee):  # noqa: F811
    _game, response = in_debt(client, referee)
    anna, bartek, celina = (player_card(response, n) for n in ("Anna", "Bartek", "Celina"))
    assert " 1325 " in anna and "Owed 15 by Bartek · in banknotes: 1310" in anna
    assert "Owes 15 to Anna · in banknotes: 0" in bartek
    assert "banknotes:" not in celina and "Owed" not in celina  # no debt: his cash is his banknotes


def test_a_count_with_a_difference_shows_it_and_the_moves_since(client, referee):  # noqa: F811
    game, _response = in_debt(client, referee)
    response = act(client, game, action="cash_count", player="A", counted="1300")
    anna = player_card(response, "Anna")
    assert "Counted 1300, expected 1310: difference −10 (move #6)" in anna
    assert "What changed his banknotes since the start" in anna
    moved = re.findall(r"#(\d+) ([^#]*?) ([+−]\d+)", anna.split("since the start", 1)[1])
    assert [(seq, amount) for seq, _words, amount in moved] == [("5", "+10"), ("2", "−200")]
    assert "Anna buys Reading Railroad for 200." in moved[1][1]
    assert "Anna's cash counted: 1300, expected 1310: 10 missing." in text(response)  # the log says it
    assert game.events.last().data == {"type": "cash_count", "player": "A", "counted": 1300}

    response = act(client, game, action="cash_count", player="A", counted="1310")  # counted again: right
    anna = player_card(response, "Anna")
    assert "Counted 1310, as expected (move #7)" in anna and "What changed" not in anna
    act(client, game, action="trade", player="C", **{"with": "B"}, give_cash="100")  # Bartek pays Anna
    response = act(client, game, action="cash_count", player="A", counted="1320")
    anna = player_card(response, "Anna")
    assert "expected 1325: difference −5" in anna and "since the count at #7" in anna
    assert re.search(r"#8 [^#]* \+15", anna)


def test_a_count_follows_a_move_taken_back(client, referee):  # noqa: F811
    game, _response = in_debt(client, referee)
    act(client, game, action="cash_count", player="A", counted="1310")
    act(client, game, action="cash_count", player="C", counted="2990")
    url = reverse("console_undo", args=[game.pk])
    response = client.post(url, {"version": game.version, "reason": "counted twice"}, **HX)
    game.refresh_from_db()
    assert "Counted 1310, as expected (move #6)" in player_card(response, "Anna")
    assert "Counted" not in player_card(response, "Celina")
    assert replay(recording.record_of(game)).ok


@pytest.mark.parametrize(
    ("counted", "message"),
    [
        ("", "Enter the counted cash."),
        ("-5", "The counted cash must be at least 0."),
        ("12.5", "The counted cash must be a whole number."),
        ("abc", "The counted cash must be a whole number."),
        ("99999999", "The counted cash must be at most 1000000."),
    ],
)
def test_a_bad_count_is_refused_and_changes_nothing(client, referee, counted, message):  # noqa: F811
    game = start(referee)
    response = act(client, game, action="cash_count", player="A", counted=counted)
    assert response.status_code == 200 and message in text(response)
    assert game.version == 0 and not GameEvent.objects.exists()


def test_a_count_of_a_stranger_or_a_bankrupt_is_refused(client, referee):  # noqa: F811
    game = start(referee)
    response = act(client, game, action="cash_count", player="Z", counted="10")
    assert "must be one of the players" in text(response) and not GameEvent.objects.exists()
    client.post(reverse("set_language"), {"language": "pl"})
    response = act(client, game, action="cash_count", player="A", counted="-1")
    assert "musi wynosić co najmniej 0" in text(response) and not GameEvent.objects.exists()


def test_without_javascript_a_refused_count_keeps_what_was_typed(client, referee):  # noqa: F811
    game = start(referee)
    url = reverse("console_act", args=[game.pk])
    response = client.post(url, {"version": 0, "action": "cash_count", "player": "B", "counted": "-40"})
    page = response.content.decode()
    assert response.status_code == 200 and "<title>" in page
    bartek = page.split("<strong>Bartek</strong>", 1)[1]
    assert 'name="counted" min="0" inputmode="numeric" value="-40"' in bartek
    anna = page.split("<strong>Anna</strong>", 1)[1].split("<article", 1)[0]
    assert 'name="counted" min="0" inputmode="numeric" value=""' in anna


def test_a_count_after_the_game_ended(client, referee):  # noqa: F811
    game = start(referee, "classic", "classic-us", names=("Anna", "Bartek"))
    act(client, game, action="trade", player="A", **{"with": "B"}, give_cash="1400")
    act(client, game, action="roll", player="A", dice="13")  # Income Tax: 200 with 100 in hand
    response = act(client, game, action="bankrupt", player="A")
    assert "Game over" in text(response)
    response = act(client, game, action="cash_count", player="B", counted="2900")
    assert "Counted 2900, as expected (move #4)" in player_card(response, "Bartek")
    assert "Banknotes counted" not in player_card(response, "Anna")  # bankrupt: nothing to count


def test_a_count_fades_once_a_move_changes_the_players_banknotes(client, referee):  # noqa: F811
    game, _response = in_debt(client, referee)
    response = act(client, game, action="cash_count", player="A", counted="1300")
    assert 'class="count-result off"' in response.content.decode().split("<strong>Anna</strong>", 1)[1]
    response = act(client, game, action="cash_count", player="C", counted="2990")  # Anna's unchanged
    anna = response.content.decode().split("<strong>Anna</strong>", 1)[1].split("<article", 1)[0]
    assert 'class="count-result off"' in anna and '<details class="since">' in anna  # folded: not the latest
    response = act(client, game, action="trade", player="C", **{"with": "A"}, give_cash="5")
    anna = response.content.decode().split("<strong>Anna</strong>", 1)[1].split("<article", 1)[0]
    assert 'class="count-result muted"' in anna  # his banknotes changed since: the count is history


def test_the_games_chart_page_shows_each_players_last_count(client, referee):  # noqa: F811
    game, _response = in_debt(client, referee)
    act(client, game, action="cash_count", player="A", counted="1300")
    act(client, game, action="cash_count", player="B", counted="0")
    page = text(client.get(reverse("game_cards", args=[game.pk])))
    assert "Anna Counted 1300, expected 1310: difference −10 (move #6)" in page
    assert "Bartek Counted 0, as expected (move #7)" in page
    assert "Celina Counted" not in page
