"""The console's forms through Django's test client: the trade form per side, a trade's log line, every move
voidable from the page of all moves, the poll that never warns."""

import lxml.html
import pytest
from django.urls import reverse
from django.utils import translation

from tests.accounts import signed_in_referee  # noqa: F401 (the fixture referee, signed in)
from tests.test_console_views import act, html, start, state
from tournament.console.panel import LOG_LENGTH, MOVES_PER_PAGE
from tournament.games import recording
from tournament.models import GameEvent

pytestmark = pytest.mark.django_db


def dealt(client, referee, names=("Anna", "Bartek")):
    """A short game whose players were dealt two title deeds each (Anna 1 and 3, Bartek 6 and 8, ...)."""
    game = start(referee, "short", "classic-us", names=names)
    for pid, squares in zip("ABC", (["1", "3"], ["6", "8"], ["11", "13"]), strict=False):
        act(client, game, action="deal", player=pid, squares=squares)
    return game


def trade_form(client, game):
    with translation.override("en"):
        page = lxml.html.fromstring(
            html(client.get(reverse("console", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en"))
        )
    return page.xpath("//form[@data-trade]")[0]


def test_each_side_of_the_trade_form_lists_each_players_own_deeds_by_owner(client, referee):
    game = dealt(client, referee, names=("Anna", "Bartek", "Celina"))
    s = state(game)
    assert all(s.owned_by(p.id) for p in s.players)
    form = trade_form(client, game)
    for side, select in (("give", "player"), ("get", "with")):
        fieldset = form.xpath(f".//fieldset[@data-side-of='{select}']")[0]
        for p in s.players:
            group = fieldset.xpath(f".//*[@data-owner='{p.id}']")[0]
            assert p.name in group.xpath(".//p[contains(@class, 'owner')]")[0].text_content()
            listed = {int(i.get("value")) for i in group.xpath(f".//input[@name='{side}_squares']")}
            assert listed == set(s.owned_by(p.id))
    assert form.xpath(".//select[@name='player']/option[@selected]")[0].get("value") == "A"
    assert form.xpath(".//select[@name='with']/option[@selected]")[0].get("value") == "B"


def test_a_square_that_is_not_the_givers_is_refused_clearly_and_nothing_changes(client, referee):
    game = dealt(client, referee)
    events = game.events.count()
    theirs = state(game).owned_by("B")[0]
    name = state(game).board.square(theirs).name
    with translation.override("en"):
        page = html(act(client, game, action="trade", player="A", **{"with": "B"}, give_squares=theirs))
    assert f"Anna does not own {name}." in page
    assert state(game).owner_of(theirs) == "B" and game.events.count() == events


def refused_without_javascript(client, game, **fields):
    """A move posted the way a browser without JavaScript posts it: the page it answers with, parsed."""
    game.refresh_from_db()
    with translation.override("en"):
        response = client.post(
            reverse("console_act", args=[game.pk]),
            {"version": game.version, **fields},
            HTTP_ACCEPT_LANGUAGE="en",
        )
    assert response.status_code == 200 and 'id="console-error"' in html(response)
    return lxml.html.fromstring(html(response))


def test_without_javascript_a_refused_trade_comes_back_open_and_filled(client, referee):
    game = dealt(client, referee, names=("Anna", "Bartek", "Celina"))
    events = game.events.count()
    page = refused_without_javascript(
        client, game, action="trade", player="B", **{"with": "C"}, give_squares=["6", "8"], give_cash="9999"
    )
    assert game.events.count() == events
    form = page.xpath("//form[@data-trade]")[0]
    assert form.getparent().get("open") is not None  # the details around it
    assert form.xpath(".//select[@name='player']/option[@selected]")[0].get("value") == "B"
    assert form.xpath(".//select[@name='with']/option[@selected]")[0].get("value") == "C"
    ticked = {i.get("value") for i in form.xpath(".//input[@name='give_squares'][@checked]")}
    assert ticked == {"6", "8"} and not form.xpath(".//input[@name='get_squares'][@checked]")
    assert form.xpath(".//input[@name='give_cash']")[0].get("value") == "9999"
    assert trade_form(client, game).xpath(".//input[@name='give_cash']")[0].get("value") == ""  # once only


def test_without_javascript_a_refused_bid_keeps_its_price_and_a_card_its_amount(client, referee):
    game = start(referee)
    act(client, game, action="roll", player="A", dice="12")  # ul. Targowa: bought, or auctioned from 30
    page = refused_without_javascript(
        client, game, action="decline", player="A", square="3", price="29", winner="B"
    )
    assert "below the opening bid 30" in page.xpath("//*[@id='console-error']")[0].text_content()
    assert page.xpath("//form[contains(@class, 'auction')]//input[@name='price']")[0].get("value") == "29"
    act(client, game, action="decline", player="A", square="3", nobody="1")
    act(client, game, action="roll", player="B", dice="34")  # Szansa, by effect on the Polish board
    page = refused_without_javascript(
        client, game, action="card", player="B", effect_kind="pay", effect_amount="15x"
    )
    form = page.xpath("//form[.//input[@name='effect_kind'][@value='pay']]")[0]
    assert form.xpath(".//input[@name='effect_amount']")[0].get("value") == "15x"
    other = page.xpath(
        "//form[.//input[@name='effect_kind'][@value='collect']]//input[@name='effect_amount']"
    )
    assert other[0].get("value") == ""  # only the refused form gets its typing back


def test_the_log_of_a_trade_says_what_changed_hands(client, referee):
    game = dealt(client, referee)
    s = state(game)
    mine, theirs = s.owned_by("A")[0], s.owned_by("B")[0]
    names = s.board.square(mine).name, s.board.square(theirs).name
    with translation.override("en"):
        fields = {"with": "B", "give_squares": mine, "give_cash": "200", "get_squares": theirs}
        page = html(act(client, game, action="trade", player="A", **fields))
    assert f"Anna gives {names[0]} and 200 to Bartek for {names[1]}." in page


def test_any_move_can_be_voided_from_the_page_of_all_moves(client, referee):
    game = start(referee, "short", "classic-us")
    act(client, game, action="deal", player="A", squares=["1", "3"])
    act(client, game, action="mortgage", player="A", square=3)  # move #2: voided below
    for n in range(LOG_LENGTH):  # moves that need no dice
        act(client, game, action="unmortgage" if n % 2 else "mortgage", player="A", square=1)
    assert game.events.count() == LOG_LENGTH + 2
    panel = html(client.get(reverse("console", args=[game.pk])))
    moves_url = reverse("console_moves", args=[game.pk])
    assert moves_url in panel
    page = html(client.get(moves_url))
    assert page.count('action="' + reverse("console_void", args=[game.pk, 2])) == 1
    assert f"#{LOG_LENGTH + 2}" in page and "hx-post" not in page  # a plain page: no htmx needed
    game.refresh_from_db()
    response = client.post(
        reverse("console_void", args=[game.pk, 2]),
        {"version": game.version, "reason": "wrong square", "next": "moves"},
    )
    assert response.status_code == 302 and response["Location"] == moves_url
    assert GameEvent.objects.get(game=game, seq=2).status == GameEvent.Status.VOIDED
    assert "wrong square" in html(client.get(moves_url))
    assert not state(game).holdings[3].mortgaged


def test_the_panel_log_links_to_all_moves_only_when_some_are_not_shown(client, referee):
    game = start(referee, "short", "classic-us")
    act(client, game, action="deal", player="A", squares=["1", "3"])
    assert reverse("console_moves", args=[game.pk]) not in html(
        client.get(reverse("console", args=[game.pk]))
    )


def test_the_poll_disables_nothing(client, referee):
    """htmx warned "hx-disabled-elt returned no matches" for the poll's 'none': 'unset' disables nothing."""
    game = start(referee)
    page = lxml.html.fromstring(html(client.get(reverse("console", args=[game.pk]))))
    (poll,) = page.xpath("//*[@data-poll]")
    assert poll.get("hx-disabled-elt") == "unset"
    assert 'hx-disabled-elt="none"' not in html(client.get(reverse("console_panel", args=[game.pk])))


def test_a_refused_move_shows_the_state_of_the_version_its_forms_carry(client, referee, monkeypatch):
    """A move refused while another device's move is saved: the panel's forms carry the version of the state
    it shows (read together), so the referee's next tap is not refused as stale for a state he has seen."""
    from tournament.console import views

    game = start(referee)
    real = views._game_for

    def then_another_device_moves(request, pk):
        g = real(request, pk)  # read without its state, as for every move
        recording.submit(pk, {"type": "roll", "player": "A", "dice": [1, 2]}, version=g.version)
        return g

    monkeypatch.setattr(views, "_game_for", then_another_device_moves)
    page = lxml.html.fromstring(html(act(client, game, action="roll", player="A", d1="9", d2="1")))
    assert page.xpath("//input[@name='version']/@value")[0] == str(game.version)
    assert page.xpath("//*[@id='console-error']") and game.version == 1
    assert "Ulica Stalowa" in page.text_content()  # where the other device's roll took Anna


def test_the_page_of_all_moves_is_paged_whatever_the_log_holds(client, referee):
    """A crafted log of many voided moves (a record imported again and again) still gives pages of
    MOVES_PER_PAGE moves, the latest first, and a page asked for wrongly gives the nearest one."""
    game = start(referee, "short", "classic-us")
    act(client, game, action="deal", player="A", squares=["1", "3"])
    game.refresh_from_db()
    GameEvent.objects.bulk_create(
        GameEvent(
            game=game,
            seq=game.next_seq + i,
            data={"type": "mortgage", "player": "A", "square": 1},
            status=GameEvent.Status.VOIDED,
            changed_by=referee,
            changed_at=game.created_at,
            reason=f"crafted {i}",
        )
        for i in range(2 * MOVES_PER_PAGE + 5)
    )
    url = reverse("console_moves", args=[game.pk])
    first = html(client.get(url))
    assert first.count('<span class="muted">#') == MOVES_PER_PAGE
    assert f"crafted {2 * MOVES_PER_PAGE + 4}" in first and "crafted 0<" not in first
    assert "page 1 of 3" in first
    last = html(client.get(url, {"page": "3"}))
    assert "crafted 0" in last and "page 3 of 3" in last
    assert '<span class="muted">#1</span>' in last  # the deal, the last active move: undone from the panel
    for wrong in ("abc", "0", "-1", "3.5", "9" * 5000):
        assert "page 1 of 3" in html(client.get(url, {"page": wrong}))
    assert "page 3 of 3" in html(client.get(url, {"page": "9" * 30}))
