"""A trade begun from a title deed (tournament/console/deed_trade.py), through Django's test client: the deed
in its owner's card says which trade it opens, the console page asked for with ``?trade=`` (no JavaScript)
comes with that trade form filled in, and the form starts with the player who has the move."""

import lxml.html
import pytest
from django.urls import reverse
from django.utils import translation

from tests.accounts import signed_in_referee  # noqa: F401 (the fixture referee, signed in)
from tests.test_console_views import act, html, start, state
from tournament.console.deed_trade import default_pair

pytestmark = pytest.mark.django_db


def dealt(client, referee):
    """A short game on the Polish board, three players dealt two title deeds each: Anna 1 and 3 (the brown
    group), Bartek 6 and 8, Celina 11 and 13. Anna has the move."""
    game = start(referee, "short", "classic-pl", names=("Anna", "Bartek", "Celina"))
    for pid, squares in zip("ABC", (["1", "3"], ["6", "8"], ["11", "13"]), strict=True):
        act(client, game, action="deal", player=pid, squares=squares)
    return game


def console(client, game, query=""):
    with translation.override("en"):
        response = client.get(reverse("console", args=[game.pk]) + query, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return lxml.html.fromstring(html(response))


def deed_links(page):
    """Each deed that opens a trade: its square and what it fills in."""
    return {
        int(a.get("data-trade-square")): (
            a.get("data-trade-player"),
            a.get("data-trade-with"),
            a.get("data-trade-side"),
            a.get("data-trade-cash"),
            a.get("href"),
        )
        for a in page.xpath("//section[@class='players']//li[contains(@class, 'prop')]/a")
    }


def filled(page):
    """The trade form as the page comes: open or not, the two players chosen, the deeds ticked."""
    form = page.xpath("//form[@data-trade]")[0]
    return (
        form.getparent().get("open") is not None,
        form.xpath(".//select[@name='player']/option[@selected]")[0].get("value"),
        form.xpath(".//select[@name='with']/option[@selected]")[0].get("value"),
        sorted(i.get("value") for i in form.xpath(".//input[@name='give_squares'][@checked]")),
        sorted(i.get("value") for i in form.xpath(".//input[@name='get_squares'][@checked]")),
    )


def test_another_players_deed_opens_the_trade_in_which_the_player_with_the_move_gets_it(client, referee):
    game = dealt(client, referee)
    links = deed_links(console(client, game))
    at = reverse("console", args=[game.pk])
    assert links[6] == ("A", "B", "get", "give_cash", f"{at}?trade=6#trade")  # Anna gets it, pays the cash
    assert links[13] == ("A", "C", "get", "give_cash", f"{at}?trade=13#trade")
    assert links[1] == ("A", "B", "give", "get_cash", f"{at}?trade=1#trade")  # her own: to the next player
    assert set(links) == {1, 3, 6, 8, 11, 13}
    assert filled(console(client, game)) == (False, "A", "B", [], [])


def test_the_trade_form_starts_with_the_player_whose_turn_it_is_and_the_next_one(client, referee):
    game = dealt(client, referee)
    act(client, game, action="roll", player="A", dice="12")  # 3: her own ul. Stalowa
    assert filled(console(client, game))[1:3] == ("A", "B")  # her turn until Bartek rolls
    act(client, game, action="roll", player="B", dice="12")  # 13: Celina's, the rent pending
    assert filled(console(client, game))[1:3] == ("B", "C")
    assert deed_links(console(client, game))[13][:3] == ("B", "C", "get")
    act(client, game, action="rent", player="B", square="13")
    act(client, game, action="roll", player="C", dice="12")  # 15: a railway
    act(client, game, action="decline", player="C", square="15", nobody="1")
    assert filled(console(client, game))[1:3] == ("C", "A")  # the last one's next is the first
    assert deed_links(console(client, game))[11][:3] == ("C", "A", "give")


def test_without_javascript_a_deed_opens_its_trade_filled_in(client, referee):
    game = dealt(client, referee)
    events = game.events.count()
    assert filled(console(client, game, "?trade=8")) == (True, "A", "B", [], ["8"])
    assert filled(console(client, game, "?trade=3")) == (True, "A", "B", ["3"], [])
    assert game.events.count() == events  # opening a form enters nothing
    act(client, game, action="trade", player="A", **{"with": "B"}, get_squares="8", give_cash="150")
    assert state(game).owner_of(8) == "A" and state(game).player("A").cash == 1500 - 60 - 60 - 150 + 0


@pytest.mark.parametrize("asked", ["", "x", "-1", "5", "99", "40", "٣", "1" * 40, "6,8", "6 "])
def test_a_garbled_or_untradable_deed_opens_nothing(client, referee, asked):
    game = dealt(client, referee)
    assert filled(console(client, game, f"?trade={asked}")) == (False, "A", "B", [], [])


def test_a_deed_with_buildings_on_it_opens_no_trade_under_the_tournament_rules(client, referee):
    game = start(referee, "tournament-pl", "classic-pl", names=("Anna", "Bartek", "Celina"))
    act(client, game, action="roll", player="A", dice="12")  # 3: ul. Stalowa
    act(client, game, action="buy", player="A")
    act(client, game, action="build", player="A", square="3")
    assert state(game).holdings[3].level == 1
    assert 3 not in deed_links(console(client, game))
    assert filled(console(client, game, "?trade=3"))[0] is False


def test_no_trade_with_one_player_left(client, referee):
    game = dealt(client, referee)
    s = state(game)
    assert default_pair(s, "A") == ("A", "B")
    for p in s.players[1:]:
        p.bankrupt = True
    assert default_pair(s, "A") is None  # nobody to trade with


def test_a_deed_on_the_page_a_refused_move_answers_with_leads_to_the_console(client, referee):
    """Without JavaScript a refused move is answered with the console page at the move's own address: a
    deed's link there still opens the console with its trade (not the address moves are posted to)."""
    game = dealt(client, referee)
    game.refresh_from_db()
    with translation.override("en"):
        response = client.post(
            reverse("console_act", args=[game.pk]),
            {"version": game.version, "action": "buy", "player": "A"},
            HTTP_ACCEPT_LANGUAGE="en",
        )
    assert 'id="console-error"' in html(response)
    href = deed_links(lxml.html.fromstring(html(response)))[6][4]
    assert href == reverse("console", args=[game.pk]) + "?trade=6#trade"
    assert filled(console(client, game, href.split("#")[0].split("/")[-1]))[0] is True
