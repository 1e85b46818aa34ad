"""Several building levels on one street in one tap, through Django's test client: the build section's row
for each street offers exactly the counts the engine accepts now as one ``build`` event (tournament-pl, the
classic rules with even building, Anti-Monopoly's competitor and monopolist), limited by the cash and the
bank's stock, each at the cost the engine takes; the tap enters one event (one move to undo), narrated in
English and Polish; a count the engine refuses is refused with its message and changes nothing."""

import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils import translation

from rules import RulesError, apply
from rules.legal import legal_actions
from tests.debts import own
from tests.test_console_build import holding, start, state
from tests.test_console_flow import Screen, phone
from tournament.console.building import street_builds
from tournament.models import GameEvent

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
TARGOWA, KONOPACKA, UJAZDOWSKIE = 9, 1, 39  # classic-pl: 50, 50 and 200 a house
LIGHT_BLUE = (6, 8, 9)
AM = {"variant": "anti-monopoly", "board": "anti-monopoly-us"}


def offered(s, player="A") -> dict[int, dict[int, int]]:
    """Square -> {count: cost} of the build section's rows."""
    rows = street_builds(s, player, legal_actions(s).players[player])
    return {row["index"]: {c["count"]: c["cost"] for c in row["counts"]} for row in rows}


def accepted(s, player, square) -> dict[int, int]:
    """{count: cost} of the ``build`` events the engine takes now on ``square`` (applied to copies)."""
    out = {}
    for count in range(1, 9):
        event = {"type": "build", "player": player, "square": square, "count": count}
        try:
            after = apply(s, event, narrate=False).state
        except RulesError:
            continue
        out[count] = s.player(player).cash - after.player(player).cash
    return out


def assert_offered_is_accepted(s, player="A"):
    """Every street of ``player``: its row's counts and costs are the engine's, no more, no fewer."""
    rows = offered(s, player)
    for sq in [sq for sq, h in s.holdings.items() if h.owner == player]:
        assert rows.get(sq, {}) == accepted(s, player, sq), (sq, rows.get(sq), accepted(s, player, sq))
    return rows


def page(client, game, language="en"):
    response = client.get(reverse("console", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return unescape(response.content.decode())


def post(client, game, htmx=True, language="en", **fields):
    game.refresh_from_db()
    data = {"version": game.version, "player": "A", **fields}
    headers = {"HTTP_ACCEPT_LANGUAGE": language, **(HX if htmx else {})}
    response = client.post(reverse("console_act", args=[game.pk]), data, follow=True, **headers)
    assert response.status_code == 200  # without htmx: the console again, after its redirect
    return unescape(response.content.decode())


def chips(html, square):
    """The row's buttons for ``square``: (value, "levels · cost" as shown)."""
    found = re.findall(
        rf'<button name="do" value="(build:{square}(?::\d+)?)"[^>]*>'
        r'<span class="visually-hidden">[^<]*</span><span class="n">([^<]*)</span>'
        r'<span class="visually-hidden"> · </span><span class="cost">([^<]*)</span></button>',
        html,
    )
    return [(value, f"{label} · {cost}") for value, label, cost in found]


def levels(game, squares):
    s = state(game)
    return [s.holdings[sq].level for sq in squares]


# -- what is offered: the engine's own answer ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("lots", "cash", "bank", "expected"),
    [
        # tournament-pl builds on any street he owns, unevenly: one street up to its hotel in one tap
        ([((TARGOWA,), 0)], 1500, {}, {TARGOWA: {1: 50, 2: 100, 3: 150, 4: 200, 5: 250}}),
        (
            [((TARGOWA,), 2), ((UJAZDOWSKIE,), 0)],
            500,
            {},
            {TARGOWA: {1: 50, 2: 100, 3: 150}, UJAZDOWSKIE: {1: 200, 2: 400}},
        ),
        # the cash limits the count (a voluntary spend must be covered)
        ([((TARGOWA,), 0)], 149, {}, {TARGOWA: {1: 50, 2: 100}}),
        ([((TARGOWA,), 0)], 150, {}, {TARGOWA: {1: 50, 2: 100, 3: 150}}),
        ([((TARGOWA,), 0)], 49, {}, {}),
        # the bank's stock limits it: two houses left; no hotel left; no house but a hotel (it gives 4 back)
        ([((TARGOWA,), 0)], 1500, {"houses": 2}, {TARGOWA: {1: 50, 2: 100}}),
        ([((TARGOWA,), 0)], 1500, {"hotels": 0}, {TARGOWA: {1: 50, 2: 100, 3: 150, 4: 200}}),
        ([((TARGOWA,), 3)], 1500, {"houses": 0}, {}),
        ([((TARGOWA,), 4), ((KONOPACKA,), 3)], 1500, {"houses": 0}, {TARGOWA: {1: 50}}),
        ([((TARGOWA,), 5)], 1500, {}, {}),  # the hotel stands: nothing more
    ],
)
def test_tournament_pl_offers_the_counts_the_engine_accepts(referee, lots, cash, bank, expected):
    game = start(referee)
    s = holding(game, lots, cash=cash, **bank)
    assert assert_offered_is_accepted(s) == expected


def test_a_mortgaged_street_has_no_row(referee):
    game = start(referee)
    s = holding(game, [((TARGOWA,), 0)])
    own(s, "A", (KONOPACKA,), 0, mortgaged=True)
    assert set(assert_offered_is_accepted(s)) == {TARGOWA}


@pytest.mark.parametrize(
    ("lots", "expected"),
    [
        # building evenly, a count above one is seldom legal: then only the one level is offered
        ([(LIGHT_BLUE, 0)], {6: {1: 50}, 8: {1: 50}, 9: {1: 50}}),
        ([((6, 9), 1), ((8,), 2)], {6: {1: 50}, 9: {1: 50}}),
        # ... and where it is (the other streets ahead), it is
        ([((6,), 0), ((8, 9), 2)], {6: {1: 50, 2: 100, 3: 150}}),
        ([((6,), 2), ((8, 9), 4)], {6: {1: 50, 2: 100, 3: 150}}),  # up to the hotel
        ([((6,), 4), ((8, 9), 5)], {6: {1: 50}}),
    ],
)
def test_the_classic_rules_build_evenly(referee, lots, expected):
    game = start(referee, variant="classic", board="classic-us")
    s = holding(game, lots)
    assert assert_offered_is_accepted(s) == expected


def test_the_classic_rules_without_the_whole_group_offer_nothing(referee):
    game = start(referee, variant="classic", board="classic-us")
    holding(game, [((8, 9), 0)], player="B")
    s = holding(game, [((6,), 0)])
    assert assert_offered_is_accepted(s) == {}


def test_anti_monopoly_a_competitor_builds_up_to_his_apartment_on_any_street(referee):
    players = (("Anna", "competitor"), ("Bartek", "monopolist"))
    game = start(referee, **AM, players=players)
    s = holding(game, [((9,), 0)])
    assert assert_offered_is_accepted(s) == {9: {1: 50, 2: 100, 3: 150, 4: 200, 5: 250}}
    with translation.override("en"):
        (row,) = street_builds(s, "A", legal_actions(s).players["A"])
    assert [c["label"] for c in row["counts"]] == ["+1", "+2", "+3", "+4", "apartment"]
    # in his own turn only: Bartek's street offers nothing while Anna is to roll
    s = holding(game, [((11,), 0)], player="B")
    assert assert_offered_is_accepted(s, "B") == {}


def test_anti_monopoly_a_monopolists_apartment_comes_after_three_houses(referee):
    players = (("Anna", "monopolist"), ("Bartek", "competitor"))
    game = start(referee, **AM, players=players)
    s = holding(game, [((6, 8), 0)])
    assert assert_offered_is_accepted(s) == {
        6: {1: 50, 2: 100, 3: 150, 4: 200},
        8: {1: 50, 2: 100, 3: 150, 4: 200},
    }
    with translation.override("en"):
        rows = street_builds(s, "A", legal_actions(s).players["A"])
    assert [c["label"] for c in rows[0]["counts"]] == ["+1", "+2", "+3", "apartment"]

    game = start(referee, **AM, players=players)
    s = holding(game, [((6,), 0)])  # one street of the city: not monopolised, no building
    assert assert_offered_is_accepted(s) == {}

    game = start(referee, **AM, players=players, monopolist_builds_on_third_street=False)
    s = holding(game, [((6, 8), 1), ((9,), 0)])  # the Polish edition: not on the third street
    assert assert_offered_is_accepted(s) == {6: {1: 50, 2: 100, 3: 150}, 8: {1: 50, 2: 100, 3: 150}}


# -- the page: a row a street ------------------------------------------------------------------------------
def test_the_row_of_a_street_in_english_and_polish(client, referee):
    client.force_login(referee)
    game = start(referee)
    holding(game, [((TARGOWA,), 1), ((KONOPACKA,), 0)], cash=180)
    html = page(client, game)
    assert chips(html, TARGOWA) == [
        ("build:9", "+1 · 50"),
        ("build:9:2", "+2 · 100"),
        ("build:9:3", "+3 · 150"),
    ]  # the hotel (four levels, 200) is beyond her cash
    assert chips(html, KONOPACKA) == [
        ("build:1", "+1 · 50"),
        ("build:1:2", "+2 · 100"),
        ("build:1:3", "+3 · 150"),
    ]
    row = re.search(r'<div class="levels g-light-blue"><span class="street">(.*?)</span>', html).group(1)
    assert row == "Ulica Targowa <b>⌂</b>"  # what stands on it now
    assert 'Build on Ulica Targowa: </span><span class="n">+2</span>' in html  # for a screen reader

    holding(game, [((TARGOWA,), 1)], cash=1500)
    html = page(client, game, "pl")
    assert chips(html, TARGOWA)[-1] == ("build:9:4", "hotel · 200")
    assert 'Buduj na polu Ulica Targowa: </span><span class="n">+2</span>' in html


def test_the_group_button_and_the_sales_stay_apart(client, referee):
    client.force_login(referee)
    game = start(referee)
    holding(game, [(LIGHT_BLUE, 1)])
    html = page(client, game)
    build = re.search(r'<fieldset class="chips build">.*?</fieldset>', html, re.S).group(0)
    assert 'name="build_each"' in build and "Sell" not in build
    assert build.index('name="build_each"') < build.index('class="levels')
    sell = re.search(r'<fieldset class="chips sell">.*?</fieldset>', html, re.S).group(0)
    assert "build:" not in sell


# -- the tap: one event, narrated, one move to undo ---------------------------------------------------------
@pytest.mark.parametrize("htmx", [True, False])
def test_three_houses_in_one_tap_are_one_event(client, referee, htmx):
    client.force_login(referee)
    game = start(referee)
    holding(game, [((TARGOWA,), 0)])
    before = game.events.count()
    html = post(client, game, htmx=htmx, do="build:9:3")
    assert 'id="console-error"' not in html
    (event,) = [e.data for e in game.events.order_by("seq")[before:]]
    assert (event["type"], event["square"], event["count"]) == ("build", TARGOWA, 3)
    s = state(game)
    assert (s.holdings[TARGOWA].level, s.player("A").cash, s.houses) == (3, 1500 - 150, 32 - 3)
    if htmx:  # the move just made and the log
        assert html.count("Anna builds 3 levels on Ulica Targowa (now 3 houses) for 150.") == 2


def test_the_hotel_in_one_tap_narrated_in_polish(client, referee):
    client.force_login(referee)
    game = start(referee)
    holding(game, [((TARGOWA,), 0)])
    html = post(client, game, language="pl", do="build:9:5")
    assert html.count("Anna buduje na polu Ulica Targowa (poziomów: 5, teraz hotel) za 250.") == 2
    s = state(game)
    assert (s.holdings[TARGOWA].level, s.houses, s.hotels) == (5, 32, 12 - 1)
    assert "Anna buduje na polu Ulica Targowa (poziomów: 5, teraz hotel) za 250." in page(client, game, "pl")


def test_one_level_is_narrated_as_before(client, referee):
    client.force_login(referee)
    game = start(referee)
    holding(game, [((TARGOWA,), 2)])
    html = post(client, game, do="build:9")
    assert "Anna builds on Ulica Targowa (3 houses) for 50." in html


def test_undo_takes_the_levels_back_as_one_move(referee):
    """In the record from the start (an undo replays it): Anna lands on ul. Targowa, buys it, builds four
    houses in one tap; one undo takes the four back, and nothing else."""
    game = start(referee)
    screen = Screen(phone(referee), game)
    screen = screen.act(player="A", action="roll", dice="45")
    screen = screen.act(player="A", action="buy")
    assert ("build:9:4", "+4 · 200") in chips(screen.html, TARGOWA)
    screen = screen.act(player="A", do="build:9:4")
    assert "Anna builds 4 levels on Ulica Targowa (now 4 houses) for 200." in screen.html
    cash = state(game).player("A").cash
    assert levels(game, (TARGOWA,)) == [4]
    after = screen.undo(quick="tap")
    assert "The last move was undone." in after.html
    s = state(game)
    assert (s.holdings[TARGOWA].owner, s.holdings[TARGOWA].level) == ("A", 0)
    assert (s.player("A").cash, s.houses) == (cash + 200, 32)
    statuses = list(game.events.order_by("seq").values_list("status", flat=True))
    assert statuses == [GameEvent.Status.ACTIVE, GameEvent.Status.ACTIVE, GameEvent.Status.UNDONE]


def test_a_resent_request_is_entered_once(client, referee):
    client.force_login(referee)
    game = start(referee)
    holding(game, [((TARGOWA,), 0)])
    game.refresh_from_db()
    fields = {"version": game.version, "player": "A", "do": "build:9:3", "client_key": "k" * 32}
    for _ in range(2):
        response = client.post(reverse("console_act", args=[game.pk]), fields, **HX)
        assert response.status_code == 200
        assert 'id="console-error"' not in response.content.decode()
    assert game.events.count() == 1
    assert levels(game, (TARGOWA,)) == [3]


# -- refused: the engine's message, nothing changed ---------------------------------------------------------
@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize(
    ("variant", "lots", "cash", "do", "message"),
    [
        ("tournament-pl", [((TARGOWA,), 0)], 120, "build:9:3", "Anna has 120 in cash and cannot pay 150"),
        (
            "tournament-pl",
            [((TARGOWA,), 2)],
            1500,
            "build:9:4",
            "Ulica Targowa can take 3 more building levels",
        ),
        ("tournament-pl", [((TARGOWA,), 0)], 1500, "build:9:" + "9" * 6, "can take 5 more building levels"),
        ("classic", [((6, 8, 9), 0)], 1500, "build:9:2", "Build evenly"),
        ("tournament-pl", [((TARGOWA,), 0)], 1500, "build:9:0", "The number of levels must be at least 1."),
        (
            "tournament-pl",
            [((TARGOWA,), 0)],
            1500,
            "build:9:x",
            "The number of levels must be a whole number.",
        ),
        ("tournament-pl", [((TARGOWA,), 0)], 1500, "build:9:-2", "The number of levels must be at least 1."),
    ],
)
def test_a_count_the_engine_refuses_is_refused_with_its_message(
    client, referee, htmx, variant, lots, cash, do, message
):
    client.force_login(referee)
    board = "classic-us" if variant == "classic" else "classic-pl"
    game = start(referee, variant=variant, board=board)
    holding(game, lots, cash=cash)
    game.refresh_from_db()
    version, before = game.version, game.events.count()
    html = post(client, game, htmx=htmx, do=do)
    assert message in html, html[html.find("console-error") - 100 :][:600]
    game.refresh_from_db()
    assert (game.version, game.events.count()) == (version, before)
    s = state(game)
    assert s.player("A").cash == cash
    assert [s.holdings[sq].level for squares, _level in lots for sq in squares] == [
        level for squares, level in lots for _sq in squares
    ]
