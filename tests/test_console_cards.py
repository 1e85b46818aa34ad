"""A card whose deck texts are not listed (the Polish board), on the console: one tap for the usual cards, the
kind with its own field(s) for any other, the same `card` events as before, and the log in words."""

import json
import re
from html import unescape

import pytest
from django.utils import translation

from rules.cards import NEAREST_MULTIPLIERS, classic_effects
from tests.accounts import signed_in_referee  # noqa: F401 (the fixture referee, signed in)
from tests.test_console_views import act, html, start, state
from tournament.models import GameEvent

pytestmark = pytest.mark.django_db


def one_taps(page):
    """The effects of the page's one-tap card buttons, and the kinds offered with fields to type."""
    effects = [json.loads(unescape(v)) for v in re.findall(r'name="effect" value="([^"]+)"', page)]
    return effects, re.findall(r'name="effect_kind" value="([a-z_]+)"', page)


def to_szansa(client, game, player="A"):
    return html(act(client, game, action="roll", player=player, d1=3, d2=4))  # from Start: 7, Szansa


def test_the_usual_cards_are_one_tap_each_and_the_others_typed_by_kind(client, referee):  # noqa: F811
    game = start(referee)
    effects, typed = one_taps(to_szansa(client, game))
    nearest = [{"kind": "nearest", "square_kind": k, **m} for k, m in NEAREST_MULTIPLIERS.items()]
    assert effects[:4] == [*nearest, {"kind": "go_to_jail"}, {"kind": "jail_card"}]  # no amount: one tap
    assert effects[4:] == [e for e in classic_effects() if e["kind"] in typed]  # the classic cards' amounts
    assert typed == [
        "collect",
        "pay",
        "move_to",
        "move_back",
        "repairs",
        "pay_each_player",
        "collect_from_each_player",
    ]


def test_a_one_tap_card_is_recorded_as_its_effect_and_logged_in_words(client, referee):  # noqa: F811
    game = start(referee)
    to_szansa(client, game)
    page = html(act(client, game, action="card", player="A", effect='{"kind": "pay", "amount": 15}'))
    assert GameEvent.objects.get(seq=2).data == {
        "type": "card",
        "player": "A",
        "effect": {"kind": "pay", "amount": 15},
    }
    assert state(game).player("A").cash == 1485
    assert "Anna pays 15 to the bank (Szansa)." in page and "kind=" not in page


def test_a_typed_card_reads_the_fields_of_its_kind_only(client, referee):  # noqa: F811
    game = start(referee)
    to_szansa(client, game)
    # the form of "pay" sends its kind and its amount; a stray field of another kind is not read
    act(client, game, action="card", player="A", effect_kind="pay", effect_amount="1500", effect_steps="x")
    assert GameEvent.objects.get(seq=2).data["effect"] == {"kind": "pay", "amount": 1500}


@pytest.mark.parametrize(
    "value, message",
    [
        ("{not json", "Choose what the card does."),
        ('["pay", 15]', "Choose what the card does."),
        ('{"kind": "fly"}', "Choose what the card does."),
        ('{"kind": "pay"}', "Enter the amount."),
        ('{"kind": "pay", "amount": -5}', "The amount must be at least 0."),
        ('{"kind": "pay", "amount": 1.5}', "The amount must be a whole number."),
        ('{"kind": "move_back", "steps": 0}', "The number of squares must be at least 1."),
    ],
)
def test_a_damaged_one_tap_button_says_why_and_changes_nothing(client, referee, value, message):  # noqa: F811
    game = start(referee)
    to_szansa(client, game)
    response = act(client, game, action="card", player="A", effect=value)
    assert response.status_code == 200 and message in html(response)
    assert game.version == 1 and state(game).decision is not None


def test_the_jail_card_of_a_deck_is_not_offered_while_a_player_holds_it(client, referee):  # noqa: F811
    game = start(referee)
    to_szansa(client, game)
    act(client, game, action="card", player="A", effect='{"kind": "jail_card"}')
    assert state(game).player("A").jail_cards == ["chance"]
    effects, _typed = one_taps(to_szansa(client, game, "B"))
    assert {"kind": "jail_card"} not in effects and {"kind": "go_to_jail"} in effects


def test_the_dice_come_with_the_one_tap_card_that_needs_them(client, referee):  # noqa: F811
    game = start(referee)
    act(client, game, action="roll", player="A", d1=6, d2=6)  # Anna: 12, Elektrownia; buys; rolls again
    act(client, game, action="buy", player="A")
    act(client, game, action="roll", player="A", d1=1, d2=2)  # 15, Dworzec Gdański: declined, not sold
    act(client, game, action="decline", player="A")
    act(client, game, action="auction", square=15, nobody="1")
    page = to_szansa(client, game, "B")  # the nearest utility is Anna's
    assert "<details open>" in page and "advance to the nearest utility</p>" in page
    utility = json.dumps({"kind": "nearest", "square_kind": "utility", **NEAREST_MULTIPLIERS["utility"]})
    page = html(act(client, game, action="card", player="B", effect=utility))
    assert "record the dice Bartek throws for the rent" in page
    act(client, game, action="card", player="B", effect=utility, d1=2, d2=3)
    assert GameEvent.objects.filter(status="active").count() == 7 and state(game).rents[0].amount == 50


def test_anti_monopoly_decks_get_amounts_and_their_roles_jail_card():
    """Quick amounts like the classic decks' (amounts only: not the classic board's squares nor its repairs);
    a competitor's deck sends to Price War, a monopolist's to Prison, neither to "jail"."""
    from rules.board import get_board
    from rules.engine import new_game
    from rules.variants import make_variant
    from tournament.console.card_panel import _by_effect
    from tournament.console.view_model.cards import card_offer

    players = [("A", "Celina", "competitor"), ("B", "Marek", "monopolist")]
    s = new_game(get_board("anti-monopoly-us"), make_variant("anti-monopoly"), players)
    for player, jail, not_offered in (
        ("A", "go_to_price_war", "go_to_prison"),
        ("B", "go_to_prison", "go_to_price_war"),
    ):
        deck = "competitor" if player == "A" else "monopolist"
        offered = _by_effect(s, player, card_offer(s, {"player": player, "deck": deck, "cards": None}))
        quick = {t["kind"]: [json.loads(o["value"]) for o in t["one_tap"]] for t in offered["typed"]}
        assert {"kind": "collect", "amount": 50} in quick["collect"] and {
            "kind": "pay",
            "amount": 15,
        } in quick["pay"]
        assert quick["move_to"] == [] and quick["repairs"] == []
        one_tap = [json.loads(o["value"])["kind"] for o in offered["one_tap"]]
        assert jail in one_tap and not_offered not in one_tap and "go_to_jail" not in one_tap
        with translation.override("en"):
            labels = {json.loads(o["value"])["kind"]: str(o["label"]) for o in offered["one_tap"]}
            assert labels["jail_card"] == (
                "get out of Price War free" if player == "A" else "get out of Prison free"
            )  # his own jail's name, not "jail"
            repairs = next(t for t in offered["typed"] if t["kind"] == "repairs")
            assert str(repairs["label"]) == "repairs: pay per house and apartment"
