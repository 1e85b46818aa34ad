"""The build section's "A house on each" through Django's test client: offered for a colour group only when
the whole batch is legal now (cash, the bank's houses, even building, the hotel at its step), its cost what
the engine takes, entered as one batch of ``build`` events, all or nothing, once for a resent request; the
section open for the player whose turn it is. The tournament rules on the Polish board, the classic on the
English one, Anti-Monopoly's monopolist (his apartment after three houses, his third street)."""

import re
from html import unescape

import pytest
from django.urls import reverse

from rules.legal import legal_actions
from tests.accounts import signed_in_referee  # noqa: F401 (the fixture referee, signed in)
from tests.debts import own
from tournament.console.building import group_builds
from tournament.games import recording
from tournament.models import GameEvent

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}
LIGHT_BLUE = (6, 8, 9)  # 50 a house on both boards


def start(referee, variant="tournament-pl", board="classic-pl", players=("Anna", "Bartek"), **options):
    return recording.create_game(
        variant=variant,
        board=board,
        players=[{"name": n, **({"role": r} if r else {})} for n, r in map(_name_role, players)],
        referees=[referee],
        options=options,
    )


def _name_role(player):
    return player if isinstance(player, tuple) else (player, None)


def holding(game, lots, cash=1500, player="A", houses=None, hotels=None):
    """``player`` owns ``lots`` ([(squares, level)…]) and has ``cash``; the bank's stock as told."""
    state = recording.current_state(game)
    for squares, level in lots:
        own(state, player, squares, level)
    state.player(player).cash = cash
    if houses is not None:
        state.houses = houses
    if hotels is not None:
        state.hotels = hotels
    game.state = recording.dump_state(state)
    game.save()
    return state


def state(game):
    game.refresh_from_db()
    return recording.current_state(game)


def offered(game, player="A"):
    s = state(game)
    return group_builds(s, player, legal_actions(s).players[player])


def page(client, game):
    response = client.get(reverse("console", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    return unescape(response.content.decode())


def post(client, game, htmx=True, **fields):
    game.refresh_from_db()
    data = {"version": game.version, "player": "A", **fields}
    response = client.post(reverse("console_act", args=[game.pk]), data, **(HX if htmx else {}))
    assert response.status_code == 200
    return unescape(response.content.decode())


def levels(game, squares=LIGHT_BLUE):
    s = state(game)
    return [s.holdings[sq].level for sq in squares]


def group_buttons(html):
    return re.findall(r'<button name="build_each" value="([^"]+)" class="each[^"]*">([^<]+)</button>', html)


def test_the_polish_board_a_house_on_each_street_of_a_group_in_one_tap(client, referee):
    game = start(referee)
    holding(game, [(LIGHT_BLUE, 0), ((1,), 0)])
    html = page(client, game)
    assert group_buttons(html) == [
        ("6,8,9", "A house on each: Ulica Radzymińska, Ulica Jagiellońska, Ulica Targowa (150)")
    ]  # Ulica Konopacka alone: its own button is the one tap
    assert 'value="build:1"' in html

    before = game.events.count()
    post(client, game, build_each="6,8,9")
    assert levels(game) == [1, 1, 1]
    assert state(game).player("A").cash == 1500 - 150
    assert state(game).houses == 32 - 3
    entered = [e.data for e in game.events.order_by("seq")[before:]]
    assert [(e["type"], e["square"], e.get("count", 1)) for e in entered] == [
        ("build", 6, 1),
        ("build", 8, 1),
        ("build", 9, 1),
    ]


def test_without_a_whole_group_the_streets_owned_and_unmortgaged_only(client, referee):
    """tournament-pl builds without a set: the group's button takes the player's streets of it that can take a
    house — not another's, not a mortgaged one."""
    game = start(referee)
    s = holding(game, [((6, 8), 2)])
    own(s, "A", (9,), 0, mortgaged=True)
    game.state = recording.dump_state(s)
    game.save()
    assert [(g["value"], g["cost"]) for g in offered(game)] == [("6,8", 100)]

    game = start(referee)
    holding(game, [((6,), 0)])
    holding(game, [((8, 9), 0)], player="B")
    assert offered(game) == []  # one street of his: its own button


def test_the_hotel_step_gets_the_hotel_and_the_label_says_so(client, referee):
    game = start(referee)
    holding(game, [(LIGHT_BLUE, 4)])
    (group,) = offered(game)
    assert group["label"] == "A hotel on each: Ulica Radzymińska, Ulica Jagiellońska, Ulica Targowa (150)"
    post(client, game, build_each=group["value"])
    assert levels(game) == [5, 5, 5]
    assert state(game).hotels == 12 - 3

    game = start(referee)
    holding(game, [((6, 9), 4), ((8,), 5)])
    assert [g["label"] for g in offered(game)] == [
        "A hotel on each: Ulica Radzymińska, Ulica Targowa (100)"
    ]  # the street with its hotel takes nothing more
    game = start(referee)
    holding(game, [((6, 8), 4), ((9,), 3)])
    assert [g["label"] for g in offered(game)] == [
        "A house or a hotel on each: Ulica Targowa, Ulica Radzymińska, Ulica Jagiellońska (150)"
    ]


def test_offered_only_when_the_cash_and_the_banks_houses_reach_every_street(client, referee):
    game = start(referee)
    holding(game, [(LIGHT_BLUE, 0)], cash=149)
    assert offered(game) == []
    assert 'value="build:6"' in page(client, game)  # a house at a time is still there

    game = start(referee)
    holding(game, [(LIGHT_BLUE, 0)], houses=2)
    assert offered(game) == []

    game = start(referee)
    holding(game, [(LIGHT_BLUE, 0)], cash=150)
    assert [g["cost"] for g in offered(game)] == [150]


def test_the_english_board_builds_evenly_the_lowest_streets_first(client, referee):
    game = start(referee, variant="classic", board="classic-us")
    s = holding(game, [((6, 9), 1), ((8,), 2)])
    assert legal_actions(s).players["A"].build == [6, 9]  # one house at a time: the lower ones only
    (group,) = offered(game)
    assert group["value"] == "6,9,8"
    assert group["label"] == "A house on each: Oriental Avenue, Connecticut Avenue, Vermont Avenue (150)"
    post(client, game, build_each="6,9,8")
    assert levels(game) == [2, 3, 2]

    game = start(referee, variant="classic", board="classic-us")
    holding(game, [((6, 8), 0)])
    holding(game, [((9,), 0)], player="B")
    assert offered(game) == []  # the classic rules build on a whole colour group only


def test_a_resent_request_is_entered_once(client, referee):
    game = start(referee)
    holding(game, [(LIGHT_BLUE, 0)])
    game.refresh_from_db()
    version, before = game.version, game.events.count()
    fields = {"version": version, "player": "A", "build_each": "6,8,9", "client_key": "k" * 32}
    for _ in range(2):
        response = client.post(reverse("console_act", args=[game.pk]), fields, **HX)
        assert response.status_code == 200
        assert 'id="console-error"' not in response.content.decode()
    assert game.events.count() == before + 3
    assert levels(game) == [1, 1, 1]
    assert state(game).player("A").cash == 1500 - 150


@pytest.mark.parametrize("htmx", [True, False])
def test_a_refused_batch_names_the_move_and_changes_nothing(client, referee, htmx):
    game = start(referee)
    holding(game, [(LIGHT_BLUE, 0)], cash=120)
    game.refresh_from_db()
    version, before = game.version, game.events.count()
    html = post(client, game, htmx=htmx, build_each="6,8,9")
    assert "Nothing was entered: move 3 of 3 (building on Ulica Targowa) was refused." in html
    assert "cannot pay 50" in html
    game.refresh_from_db()
    assert (game.version, game.events.count()) == (version, before)
    assert levels(game) == [0, 0, 0]
    assert state(game).player("A").cash == 120


@pytest.mark.parametrize(
    "fields",
    [
        {"build_each": "6:3,8"},  # a count smuggled in
        {"build_each": ""},
        {"build_each": "6,8,x"},
        {"build_each": ",".join(["6"] * 41)},
        {"build_each": ["6,8", "9"]},
        {"build_each": "6,8", "do": "build:9"},
        {"build_each": "6,8", "action": "raise", "raise": "mortgage:9"},
    ],
)
def test_a_damaged_group_post_is_refused_and_enters_nothing(client, referee, fields):
    game = start(referee)
    holding(game, [(LIGHT_BLUE, 0)])
    before = game.events.count()
    html = post(client, game, **fields)
    assert "This form is damaged: reload the page and enter the move again." in html
    assert game.events.count() == before
    assert levels(game) == [0, 0, 0]


def test_the_section_is_open_for_the_player_whose_turn_it_is_when_he_can_build(client, referee):
    game = start(referee)
    holding(game, [(LIGHT_BLUE, 0)])
    holding(game, [((11, 13, 14), 0)], player="B")
    html = page(client, game)
    cards = re.findall(r'<article class="player[^"]*">.*?</article>', html, re.S)
    assert ['<details class="actions" open>' in c for c in cards] == [True, False]  # Anna rolls next

    game = start(referee)
    holding(game, [(LIGHT_BLUE, 0)], cash=40)  # nothing to build: mortgages only, folded
    assert '<details class="actions">' in page(client, game)


def test_anti_monopoly_a_monopolists_apartment_on_each_street_of_his_city(client, referee):
    players = (("Anna", "monopolist"), ("Bartek", "competitor"))
    game = start(referee, variant="anti-monopoly", board="anti-monopoly-us", players=players)
    holding(game, [((6, 8), 3)])
    (group,) = offered(game)  # a monopolist's apartment comes after three houses
    assert group["label"] == "An apartment on each: Sunset Blvd., Wilshire Blvd. (100)"
    post(client, game, build_each=group["value"])
    assert levels(game, (6, 8)) == [4, 4]

    game = start(referee, variant="anti-monopoly", board="anti-monopoly-us", players=players)
    holding(game, [((6, 8, 9), 0)])
    assert [g["value"] for g in offered(game)] == ["6,8,9"]


def test_anti_monopoly_the_polish_edition_leaves_the_monopolists_third_street_out(client, referee):
    players = (("Anna", "monopolist"), ("Bartek", "competitor"))
    game = start(
        referee,
        variant="anti-monopoly",
        board="anti-monopoly-us",
        players=players,
        monopolist_builds_on_third_street=False,
    )
    holding(game, [((6, 8), 1), ((9,), 0)])
    (group,) = offered(game)
    assert group["value"] == "6,8"
    assert group["label"] == "A house on each: Sunset Blvd., Wilshire Blvd. (100)"
    assert GameEvent.objects.filter(game=game).count() == 0
