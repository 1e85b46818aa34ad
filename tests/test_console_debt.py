"""The debt card's way out through Django's test client: the choices offered (the engine's, with the cash the
engine pays), "Raise and pay" entering the ticked ones together, all or nothing, a refusal naming the move,
a resent request answered once, bankruptcy when nothing is left; a player's build buttons apart from his
sales and mortgages."""

import re
from html import unescape

import pytest
from django.urls import reverse

from rules.legal import legal_actions
from tests.accounts import signed_in_referee  # noqa: F401 (the fixture referee, signed in)
from tests.debts import about_to_owe, own
from tournament.console.raising import raising_choices
from tournament.games import recording
from tournament.models import GameEvent

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}


def start(referee, variant="tournament-pl", board="classic-pl", players=("Anna", "Bartek", "Celina")):
    return recording.create_game(
        variant=variant,
        board=board,
        players=[{"name": n, **({"role": r} if r else {})} for n, r in map(_name_role, players)],
        referees=[referee],
    )


def _name_role(player):
    return player if isinstance(player, tuple) else (player, None)


def act(client, game, htmx=True, **fields):
    game.refresh_from_db()
    data = {"version": game.version, **fields}
    response = client.post(reverse("console_act", args=[game.pk]), data, **(HX if htmx else {}))
    game.refresh_from_db()
    assert response.status_code == 200
    return unescape(response.content.decode())


def state(game):
    game.refresh_from_db()
    return recording.current_state(game)


def in_debt(client, referee, **setup):
    """Anna rolls onto Bartek's Ulica Targowa (3 houses: rent 300) with 150 and claims the rent: she owes
    150 to Bartek. The panel's page after it."""
    game = start(referee)
    about_to_owe(game, **setup)
    act(client, game, action="roll", player="A", dice="12")
    return game, act(client, game, action="rent", player="A", square=9)


def card(page):
    """The debt card's choices: (value, label, raises, needs)."""
    debt = page[page.index('class="card debt"') : page.index("</div>", page.index('class="card debt"'))]
    return [
        (value, label, int(raises), needs)
        for value, needs, label, raises in re.findall(
            r'name="raise" value="([^"]+)" data-raises="-?\d+"(?: data-needs="([^"]+)")?[^>]*>'
            r"<span>([^<]+)</span><b>\+(\d+)</b>",
            debt,
        )
    ]


def test_the_card_offers_what_the_engine_takes_with_what_each_raises(client, referee):
    game, page = in_debt(client, referee)
    assert "Anna owes 150 to Bartek" in page and "Still owed: <output>150</output>" in page
    assert card(page) == [
        ("sell_building:16:1", "Sell a house on Ulica Obozowa", 50, ""),
        ("mortgage:16", "Then mortgage Ulica Obozowa", 90, "sell_building:16:1"),
        ("sell_building:18:1", "Sell a house on Ulica Górczewska", 50, ""),
        (
            "mortgage:18",
            "Then mortgage Ulica Górczewska",
            90,
            "sell_building:18:1",
        ),
        ("sell_building:19:1", "Sell a house on Ulica Wolska", 50, ""),
        ("mortgage:19", "Then mortgage Ulica Wolska", 100, "sell_building:19:1"),
        ("mortgage:1", "Mortgage Ulica Konopacka", 30, ""),
        ("mortgage:3", "Mortgage Ulica Stalowa", 30, ""),
        ("mortgage:5", "Mortgage Dworzec Zachodni", 100, ""),
    ]
    # the tournament rules let a player in debt go bankrupt only when nothing can pay it
    assert "Declare bankruptcy" not in page and 'href="#trade"' in page


def test_a_mortgaged_square_and_a_bare_square_of_another_owner_are_not_offered(client, referee):
    game, page = in_debt(
        client, referee, holdings={"A": [((5,), 0, True), ((1,), 0, False)], "B": [((9,), 3, False)]}
    )
    assert [c[0] for c in card(page)] == ["mortgage:1"]


def test_raise_and_pay_enters_the_ticked_moves_together_sales_first(client, referee):
    game, page = in_debt(client, referee)
    version, events = game.version, game.events.count()
    # ticked in any order: the house on Obozowa is sold before the street is mortgaged
    page = act(
        client,
        game,
        action="raise",
        player="A",
        **{"raise": ["mortgage:16", "sell_building:16:1", "mortgage:1"]},
    )
    s = state(game)
    assert s.player("A").cash == -150 + 50 + 90 + 30 and s.player("A").debt_to is None
    assert s.holdings[16].level == 0 and s.holdings[16].mortgaged and s.holdings[1].mortgaged
    assert game.version == version + 1 and game.events.count() == events + 3
    assert [e.data["type"] for e in game.events.order_by("seq")][-3:] == [
        "sell_building",
        "mortgage",
        "mortgage",
    ]
    assert 'class="card debt"' not in page and "error" not in page.split('class="status"')[1][:800]


def test_a_batch_short_of_the_debt_leaves_the_rest_owed_with_the_new_choices(client, referee):
    game, page = in_debt(client, referee)
    page = act(client, game, action="raise", player="A", **{"raise": ["sell_building:19:1"]})
    assert "Anna owes 100 to Bartek" in page and "Still owed: <output>100</output>" in page
    assert "sell_building:19:1" not in [c[0] for c in card(page)]
    assert ("mortgage:19", "Mortgage Ulica Wolska", 100, "") in card(page)


def test_a_refused_move_of_a_batch_changes_nothing_and_is_named(client, referee):
    game, page = in_debt(client, referee)
    before, version, events = game.state, game.version, game.events.count()
    page = act(
        client, game, action="raise", player="A", **{"raise": ["mortgage:5", "mortgage:1", "mortgage:5"]}
    )
    assert (
        "Nothing was entered: move 3 of 3 (mortgaging Dworzec Zachodni) was refused. "
        "Dworzec Zachodni is already mortgaged." in page
    )
    assert game.state == before and game.version == version and game.events.count() == events
    # a street mortgaged with its house still on it: the engine's reason
    page = act(client, game, action="raise", player="A", **{"raise": ["mortgage:1", "mortgage:16"]})
    assert "move 2 of 2 (mortgaging Ulica Obozowa) was refused" in page
    assert game.state == before and game.events.count() == events


def test_a_refused_batch_without_javascript_keeps_the_ticks(client, referee):
    game, page = in_debt(client, referee)
    page = act(
        client, game, htmx=False, action="raise", player="A", **{"raise": ["mortgage:1", "mortgage:16"]}
    )
    assert "move 2 of 2" in page
    ticked = re.findall(r'name="raise" value="([^"]+)"[^>]* checked', page)
    assert ticked == ["mortgage:16", "mortgage:1"]


def test_a_resent_batch_is_entered_once(client, referee):
    game, page = in_debt(client, referee)
    fields = {
        "action": "raise",
        "player": "A",
        "raise": ["sell_building:16:1", "mortgage:5"],
        "client_key": "k1",
    }
    version = game.version
    for _ in range(2):  # a double tap, or a retry after the answer was lost: the same form, version and key
        response = client.post(reverse("console_act", args=[game.pk]), {"version": version, **fields}, **HX)
        assert response.status_code == 200 and "entered a move meanwhile" not in response.content.decode()
    s = state(game)
    assert s.player("A").cash == 0 and s.holdings[16].level == 0
    assert game.version == version + 1
    assert game.events.filter(status=GameEvent.Status.ACTIVE, data__type="mortgage").count() == 1


@pytest.mark.parametrize(
    "fields, message",
    [
        ({}, "Tick what the player sells or mortgages."),
        ({"raise": ["build:16"]}, "This form is damaged"),
        ({"raise": ["unmortgage:5"]}, "This form is damaged"),
        ({"raise": ["mortgage:x"]}, "The square must be a whole number."),
        ({"raise": ["nonsense"]}, "Unknown action."),
        ({"raise": ["mortgage:99"]}, "square"),
    ],
)
def test_bad_choices_are_refused_and_change_nothing(client, referee, fields, message):
    game, page = in_debt(client, referee)
    before = game.state
    page = act(client, game, action="raise", player="A", **fields)
    assert message in page and game.state == before


def test_nothing_left_offers_bankruptcy(client, referee):
    game, page = in_debt(client, referee, holdings={"B": [((9,), 3, False)]})
    assert "Nothing is left to sell or mortgage." in page and card(page) == []
    assert 'name="action" value="bankrupt"' in page and "Raise and pay" not in page
    act(client, game, action="bankrupt", player="A")
    assert state(game).player("A").bankrupt


def test_the_build_buttons_sit_apart_from_selling_and_mortgaging(client, referee):
    game = start(referee)
    about_to_owe(game, cash=1000, holdings={"A": [((16, 18, 19), 1, False), ((5,), 0, True)]})
    page = unescape(
        client.get(reverse("console", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )
    anna = page[page.index("<strong>Anna</strong>") : page.index("<strong>Bartek</strong>")]
    build = anna[
        anna.index('class="chips build"') : anna.index("</fieldset>", anna.index('class="chips build"'))
    ]
    sell = anna[
        anna.index('class="chips sell"') : anna.index("</fieldset>", anna.index('class="chips sell"'))
    ]
    lift = anna[
        anna.index('class="chips lift"') : anna.index("</fieldset>", anna.index('class="chips lift"'))
    ]
    assert "Build on Ulica Obozowa" in build and "Sell" not in build and "Mortgage" not in build
    assert "Sell a house on Ulica Obozowa" in sell and "Build" not in sell
    assert "Lift the mortgage on Dworzec Zachodni" in lift and "Sell" not in lift


def test_anti_monopoly_amounts_are_what_the_engine_pays(client, referee):
    """A monopolist's apartment (4 levels) sold gives back half the upgrade; a competitor's house half its
    price; each amount on the card is the cash the batch then pays."""
    game = start(
        referee, "anti-monopoly", "anti-monopoly-us", (("Celina", "competitor"), ("Marek", "monopolist"))
    )
    s = recording.current_state(game)
    own(s, "B", (6, 8, 9), 4)  # Marek's apartments in Los Angeles
    own(s, "A", (1,), 2)  # Celina's two houses on Basin St.
    s.player("A").cash, s.player("B").cash = -10, -300
    s.player("A").debt_to = s.player("B").debt_to = "bank"
    choices = {pid: raising_choices(s, pid, legal_actions(s).players[pid]) for pid in ("A", "B")}
    game.state = recording.dump_state(s)
    game.save()
    page = unescape(
        client.get(reverse("console", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )
    assert "Sell the apartment on Sunset Blvd." in page and "Sell a house on Basin St." in page
    for pid, offered in choices.items():
        for c in offered:
            if c["needs"]:
                continue
            before = state(game).player(pid).cash
            act(client, game, action="raise", player=pid, **{"raise": [c["value"]]})
            assert state(game).player(pid).cash - before == c["raises"], c
            game.state = recording.dump_state(s)  # back to the debts, for the next choice
            game.save()
    assert [c["raises"] for c in choices["A"]] == [25]  # a house on Basin St.: half of 50
    assert [c["raises"] for c in choices["B"]] == [25, 25, 25]  # an apartment: half the upgrade (50)


def test_the_choices_name_an_english_boards_squares_in_the_pages_language(referee):
    """The debt card names a square as the rest of the console does (``board_words``): Electric Company is
    "Elektrownia" on a Polish page, a street as printed."""
    from django.utils import translation

    game = start(referee, variant="classic", board="classic-us")
    s = recording.current_state(game)
    own(s, "A", (12, 1))  # Electric Company, Mediterranean Avenue
    s.player("A").cash, s.player("A").debt_to = -10, "bank"
    with translation.override("pl"):
        labels = [c["label"] for c in raising_choices(s, "A", legal_actions(s).players["A"])]
    assert "Zastaw: Elektrownia" in labels and "Zastaw: Mediterranean Avenue" in labels
