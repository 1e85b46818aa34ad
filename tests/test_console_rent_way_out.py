"""A rent its payer cannot pay, through Django's test client: its card says so at once and offers the payer's
way out before the claim — the debt card's choices and amounts for the state after the rent (tournament-pl,
classic, Anti-Monopoly), "Still owed" — and enters the rent with the choices ticked, or with the bankruptcy,
as one batch: all or nothing (a refused choice named, the rent not entered either), once for a resent
request, undone together. A rent the payer can pay, or a utility's rent still to be thrown, shows the card
of today; the plain "Rent claimed" stays, the debt card following."""

import re
from html import unescape

import pytest
from django.urls import reverse

from rules import apply
from rules.legal import legal_actions
from tests.accounts import signed_in_referee  # noqa: F401 (the fixture referee, signed in)
from tests.debts import about_to_owe, own
from tests.test_console_debt import HX, act, card, start, state
from tournament.console.raising import raising_choices, rent_way_out
from tournament.games import recording
from tournament.models import GameEvent

pytestmark = pytest.mark.django_db
WAY_OUT = {"action": "rent", "then": "raise", "player": "A", "square": 9}


def way_out(page):
    """The rent card's choices: (value, label, raises, needs), read as the debt card's are (``card``)."""
    short = page[page.index('class="card rent short"') :]
    return card('class="card debt"' + short[: short.index("claim-alone")])


def lands(client, referee, variant="tournament-pl", board="classic-pl", players=None, **setup):
    """Anna rolls onto Bartek's street (a fixed rent she cannot pay, by default): the rent pending; the
    page."""
    game = start(referee, variant, board, players or ("Anna", "Bartek", "Celina"))
    about_to_owe(game, **setup)
    return game, act(client, game, action="roll", player="A", dice="12")


def the_engines_way_out(game):
    """The debt card's choices once the pending rent is claimed (a copy of the state): the engine's."""
    s = state(game)
    rent = legal_actions(s).rents[0]
    after = apply(s, {"type": "rent", "player": rent["payer"], "square": rent["square"]}).state
    legal = legal_actions(after)
    return raising_choices(after, rent["payer"], legal.players[rent["payer"]]), legal.players[rent["payer"]]


def as_shown(choices):
    return [(c["value"], c["label"], c["raises"], c["needs"]) for c in choices]


def test_the_card_says_the_payer_is_short_and_offers_the_debt_cards_way_out(client, referee):
    game, page = lands(client, referee)
    assert "Rent 300: Anna → Bartek (Ulica Targowa)" in page and "Anna has 150: 150 short" in page
    assert 'data-debt="150"' in page and "Still owed: <output>150</output>" in page
    assert "Rent claimed, raise and pay" in page
    engine, options = the_engines_way_out(game)
    assert way_out(page) == as_shown(engine) and len(engine) == 9
    assert "goes bankrupt" not in page and not options.bankrupt  # she can raise enough: no bankruptcy
    # the plain claim stays; the debt card that follows it offers the very same choices and amounts
    assert 'name="action" value="rent">Rent claimed</button>' in page
    after = act(client, game, action="rent", player="A", square=9)
    assert "Anna owes 150 to Bartek" in after and card(after) == way_out(page)


@pytest.mark.parametrize(
    "variant, board, players, setup",
    [
        ("tournament-pl", "classic-pl", ("Anna", "Bartek", "Celina"), {}),
        ("classic", "classic-us", ("Alice", "Bob", "Carol"), {}),
        (
            "anti-monopoly",
            "anti-monopoly-us",
            (("Celina", "competitor"), ("Marek", "monopolist")),
            {
                "cash": 20,
                "holdings": {"A": [((1, 3), 2, False), ((5,), 0, False)], "B": [((6, 8, 9), 4, False)]},
            },
        ),
    ],
)
def test_the_choices_and_amounts_are_the_engines_after_the_rent(
    client, referee, variant, board, players, setup
):
    """Each amount on the card is what the engine then pays: the rent and that one choice entered together
    leave the payer's cash where the rent and the amount say."""
    game, page = lands(client, referee, variant, board, players, **setup)
    engine, _options = the_engines_way_out(game)
    assert engine and way_out(page) == as_shown(engine)
    s = state(game)
    rent = legal_actions(s).rents[0]
    before = s.player("A").cash
    for c in engine:
        if c["needs"]:
            continue
        act(client, game, **{**WAY_OUT, "square": rent["square"], "raise": [c["value"]]})
        assert state(game).player("A").cash == before - rent["amount"] + c["raises"], c
        game.state = recording.dump_state(s)  # back to the rent pending, for the next choice
        game.save()


def test_rent_claimed_raise_and_pay_enters_the_rent_and_the_ticks_as_one_batch(client, referee):
    game, page = lands(client, referee)
    version, events = game.version, game.events.count()
    # ticked in any order: the rent first, then the house on Ulica Obozowa sold before the street is mortgaged
    ticked = {"raise": ["mortgage:16", "sell_building:16:1", "mortgage:1"], "client_key": "k1"}
    page = act(client, game, **WAY_OUT, **ticked)
    s = state(game)
    assert s.player("A").cash == 150 - 300 + 50 + 90 + 30 and s.player("A").debt_to is None
    assert s.player("B").cash == 1500 + 300 and not s.rents
    assert s.holdings[16].level == 0 and s.holdings[16].mortgaged and s.holdings[1].mortgaged
    assert game.version == version + 1 and game.events.count() == events + 4
    assert [e.data["type"] for e in game.events.order_by("seq")][-4:] == [
        "rent",
        "sell_building",
        "mortgage",
        "mortgage",
    ]
    assert 'class="card debt"' not in page and 'class="card rent' not in page
    assert "#2–#5" in page and "Undo moves #2–#5 (one tap entered them)" in page


def test_ticks_short_of_the_debt_leave_the_rest_to_the_debt_card(client, referee):
    game, page = lands(client, referee)
    page = act(client, game, **WAY_OUT, **{"raise": ["sell_building:19:1"]})
    assert "Anna owes 100 to Bartek" in page and "Still owed: <output>100</output>" in page
    assert ("mortgage:19", "Mortgage Ulica Wolska", 100, "") in card(page)


def test_a_refused_choice_refuses_the_rent_too_and_is_named(client, referee):
    game, page = lands(client, referee)
    before, version, events = game.state, game.version, game.events.count()
    # a street mortgaged with its house still on it
    page = act(client, game, **WAY_OUT, **{"raise": ["mortgage:1", "mortgage:16"]})
    assert "Nothing was entered: move 3 of 3 (mortgaging Ulica Obozowa) was refused." in page
    assert game.state == before and game.version == version and game.events.count() == events
    assert state(game).rents  # the rent is still pending, its card still offering the way out
    assert "Anna has 150: 150 short" in page


def test_a_refused_batch_without_javascript_keeps_the_ticks_on_the_rent_card(client, referee):
    game, page = lands(client, referee)
    page = act(client, game, htmx=False, **WAY_OUT, **{"raise": ["mortgage:1", "mortgage:16"]})
    assert "move 3 of 3" in page
    short = page[page.index('class="card rent short"') :]
    ticked = re.findall(r'name="raise" value="([^"]+)"[^>]* checked', short[: short.index("claim-alone")])
    assert ticked == ["mortgage:16", "mortgage:1"]


def test_without_javascript_the_way_out_is_a_plain_post(client, referee):
    game, _page = lands(client, referee)
    game.refresh_from_db()
    response = client.post(
        reverse("console_act", args=[game.pk]),
        {"version": game.version, **WAY_OUT, "raise": ["sell_building:16:1", "mortgage:5"]},
    )
    assert response.status_code == 302
    s = state(game)
    assert s.player("A").cash == 0 and not s.rents and s.holdings[5].mortgaged


def test_a_resent_way_out_is_entered_once(client, referee):
    game, _page = lands(client, referee)
    game.refresh_from_db()
    version = game.version
    fields = {**WAY_OUT, "raise": ["sell_building:16:1", "mortgage:5"], "client_key": "k1"}
    for _ in range(2):  # a double tap, or a retry after the answer was lost: the same form, version and key
        response = client.post(reverse("console_act", args=[game.pk]), {"version": version, **fields}, **HX)
        assert response.status_code == 200 and "entered a move meanwhile" not in response.content.decode()
    s = state(game)
    assert s.player("A").cash == 0 and s.player("B").cash == 1800 and game.version == version + 1
    active = game.events.filter(status=GameEvent.Status.ACTIVE)
    assert active.filter(data__type="rent").count() == 1 and active.filter(data__type="mortgage").count() == 1


def played_short(referee):
    """A game played to a rent its payer cannot pay, every step an event (an undo replays the record): Anna
    buys Dworzec Zachodni, Bartek ul. Stalowa, Bartek gives Anna all his cash but 20 (a trade), Anna buys
    ul. Jagiellońska, Bartek's double lands on her station: rent 25, he has 20."""
    game = start(referee, players=("Anna", "Bartek"))
    for event in (
        {"type": "roll", "player": "A", "dice": [2, 3]},
        {"type": "buy", "player": "A"},
        {"type": "roll", "player": "B", "dice": [1, 2]},
        {"type": "buy", "player": "B"},
        {"type": "trade", "player": "B", "with": "A", "give": {"cash": 1420}, "get": {}},
        {"type": "roll", "player": "A", "dice": [1, 2]},
        {"type": "buy", "player": "A"},
        {"type": "roll", "player": "B", "dice": [1, 1]},
    ):
        game.refresh_from_db()
        recording.submit(game.pk, event, version=game.version)
    return game


def test_the_rent_and_its_way_out_are_undone_together(client, referee):
    game = played_short(referee)
    page = unescape(
        client.get(reverse("console", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )
    assert "Bartek has 20: 5 short" in page and way_out(page) == [
        ("mortgage:3", "Mortgage Ulica Stalowa", 30, "")
    ]
    pending, events = state(game), game.events.count()
    key = re.search(r'name="client_key" value="([^"]*)"', page).group(1)  # this phone's form
    way = {"action": "rent", "then": "raise", "player": "B", "square": 5, "raise": ["mortgage:3"]}
    page = act(client, game, **way, client_key=key)
    assert state(game).player("B").cash == 20 - 25 + 30 and state(game).holdings[3].mortgaged
    first = events + 1
    assert f"Undo moves #{first}–#{first + 1} (one tap entered them)" in page
    fixed = {n: re.search(rf'name="{n}" value="([^"]*)"', page).group(1) for n in ("version", "client_key")}
    response = client.post(reverse("console_undo", args=[game.pk]), {**fixed, "quick": "tap"}, **HX)
    page = unescape(response.content.decode())
    assert "The last move was undone." in page
    statuses = list(game.events.order_by("seq").values_list("status", flat=True))
    assert statuses == [GameEvent.Status.ACTIVE] * events + [GameEvent.Status.UNDONE] * 2
    s = state(game)
    assert s.player("B").cash == 20 and s.rents == pending.rents and not s.holdings[3].mortgaged
    assert "Bartek has 20: 5 short" in page  # the rent pending again, with its way out


def test_a_rent_the_payer_can_pay_shows_the_card_of_today(client, referee):
    game, page = lands(client, referee, cash=300)  # the rent is 300: paid in full
    assert "Rent 300: Anna → Bartek (Ulica Targowa)" in page and 'class="card rent"' in page
    assert "short" not in page and 'name="then"' not in page and 'name="raise"' not in page
    assert "Rent claimed, raise and pay" not in page


def test_a_utilitys_rent_still_to_be_thrown_keeps_todays_flow(client, referee):
    game = start(
        referee, "anti-monopoly", "anti-monopoly-us", (("Celina", "competitor"), ("Marek", "monopolist"))
    )
    s = recording.current_state(game)
    utility = next(q.index for q in s.board.squares if q.kind == "utility")
    own(s, "B", (utility,))
    from rules.state import RentDue

    s.rents = (RentDue("A", "B", utility, 0, times=4),)
    s.player("A").cash = 0
    game.state = recording.dump_state(s)
    game.save()
    assert rent_way_out(s, legal_actions(s).rents[0]) is None
    page = unescape(
        client.get(reverse("console", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )
    assert "× the dice" in page and 'name="then"' not in page


def test_nothing_left_offers_the_rent_with_the_bankruptcy(client, referee):
    game, page = lands(client, referee, holdings={"B": [((9,), 3, False)]})
    assert "Anna has 150: 150 short" in page and "Nothing is left to sell or mortgage." in page
    assert "Rent claimed, raise and pay" not in page
    bankrupt = page[page.index('class="bankrupt"') - 200 : page.index("goes bankrupt") + 30]
    assert 'hx-confirm="Claim the rent and declare this player bankrupt?"' in bankrupt
    assert "Rent claimed: Anna goes bankrupt" in bankrupt
    version, events = game.version, game.events.count()
    page = act(client, game, action="rent", then="bankrupt", player="A", square=9)
    s = state(game)
    assert s.player("A").bankrupt and not s.rents and s.holdings[9].owner == "B"
    assert [e.data["type"] for e in game.events.order_by("seq")][-2:] == ["rent", "bankrupt"]
    assert game.version == version + 1 and game.events.count() == events + 2
    assert game.events.get(data__type="rent").data["square"] == 9


def test_too_little_left_offers_the_choices_and_the_bankruptcy_as_the_debt_card_does(client, referee):
    """Her brown street raises 30 of the 150 she would owe: the rules let her go bankrupt, and the debt card
    would offer both; so does the rent's card."""
    game, page = lands(client, referee, holdings={"A": [((1,), 0, False)], "B": [((9,), 3, False)]})
    assert way_out(page) == [("mortgage:1", "Mortgage Ulica Konopacka", 30, "")]
    assert "Rent claimed, raise and pay" in page and "Rent claimed: Anna goes bankrupt" in page
    after = act(client, game, action="rent", player="A", square=9)
    assert card(after) == way_out(page) and "Declare bankruptcy" in after


def test_a_bankruptcy_the_rules_refuse_refuses_the_rent_too(client, referee):
    """She could raise the rent (tournament rules: bankrupt only when nothing can pay it): a bankruptcy
    posted all the same is refused, named, and the rent is not entered either."""
    game, page = lands(client, referee)
    assert "goes bankrupt" not in page
    before = game.state
    page = act(client, game, action="rent", then="bankrupt", player="A", square=9)
    assert "Nothing was entered: move 2 of 2 (the bankruptcy) was refused." in page
    assert game.state == before


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"then": "raise"}, "Tick what the player sells or mortgages."),
        ({"then": "nonsense", "raise": ["mortgage:5"]}, "This form is damaged"),
        ({"then": ["raise", "bankrupt"], "raise": ["mortgage:5"]}, "This form is damaged"),
        ({"then": "bankrupt", "raise": ["mortgage:5"]}, "This form is damaged"),
        ({"then": "raise", "raise": ["build:16"]}, "This form is damaged"),
        ({"then": "raise", "raise": ["mortgage:x"]}, "The square must be a whole number."),
        ({"then": "raise", "action": "roll", "raise": ["mortgage:5"]}, "This form is damaged"),
        ({"then": "raise", "square": "x", "raise": ["mortgage:5"]}, "The square must be a whole number."),
        ({"then": "raise", "do": "mortgage:5", "raise": ["mortgage:5"]}, "This form is damaged"),
    ],
)
def test_bad_way_outs_are_refused_and_change_nothing(client, referee, fields, message):
    game, _page = lands(client, referee)
    before = game.state
    page = act(client, game, **{**WAY_OUT, **fields})
    assert message in page and game.state == before


def test_the_roll_cards_lapse_warning_still_claims_the_rent_first(client, referee):
    """The roll card's warning keeps its one button: the rent claimed alone (the way out is on the rent's
    card just above; the debt card follows the plain claim)."""
    game, page = lands(client, referee)
    roll_card = page[page.index('class="card roll-card"') :]
    assert "With this roll the rent lapses: Anna → Bartek (Ulica Targowa), 300." in roll_card
    assert "Claim the rent 300 first" in roll_card
    page = act(client, game, action="rent", player="A", square=9)
    assert "Anna owes 150 to Bartek" in page


def test_rent_way_out_is_none_when_the_cash_covers_the_rent(referee):
    game = start(referee)
    about_to_owe(game, cash=300)
    s = recording.current_state(game)
    s = apply(s, {"type": "roll", "player": "A", "dice": [1, 2]}).state
    assert rent_way_out(s, legal_actions(s).rents[0]) is None
    s.player("A").cash = 299
    short = rent_way_out(s, legal_actions(s).rents[0])
    assert short["cash"] == 299 and short["owed"] == 1 and short["choices"] and not short["can_go_bankrupt"]
    s.player("A").cash = -50  # in debt already (a tax meanwhile): the debt card is up, the rent adds to it
    assert rent_way_out(s, legal_actions(s).rents[0]) is None


def test_the_card_and_its_refusals_in_polish(client, referee):
    game, _page = lands(client, referee, holdings={"B": [((9,), 3, False)]})
    page = unescape(
        client.get(reverse("console", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    )
    assert "Anna ma 150: brakuje 150" in page and "Czynsz pobrany: Anna bankrutuje" in page
    assert 'hx-confirm="Pobrać czynsz i ogłosić bankructwo tego gracza?"' in page
    assert "Czynsz pobrany</button>" in page and "(potem karta długu)" in page


def test_the_refusals_name_the_move_in_polish(client, referee):
    game, _page = lands(client, referee)
    url, pl = reverse("console_act", args=[game.pk]), {**HX, "HTTP_ACCEPT_LANGUAGE": "pl"}
    before = game.state
    for fields, refused in (
        ({"raise": ["mortgage:16"]}, "ruch 2 z 2 (zastaw: Ulica Obozowa) został odrzucony."),  # its house
        ({"then": "bankrupt"}, "ruch 2 z 2 (bankructwo) został odrzucony."),  # she could raise the rent
    ):
        page = unescape(
            client.post(url, {"version": game.version, **WAY_OUT, **fields}, **pl).content.decode()
        )
        assert f"Nic nie zostało zapisane: {refused}" in page
        game.refresh_from_db()
        assert "Czynsz pobrany, zbierz pieniądze i spłać" in page and game.state == before
