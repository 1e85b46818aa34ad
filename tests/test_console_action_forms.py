"""The console's form of each action (tournament.console.action_forms), read from a POST by
tournament.console.actions: the events they make, and for each action bad input refused with one clear
message in the referee's language, never an exception."""

import re
from html import unescape

import pytest
from django.http import QueryDict
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.board import EFFECT_FIELDS
from rules.cards import NEAREST_MULTIPLIERS
from rules.record import EVENT_TYPES
from tests.accounts import signed_in_referee  # noqa: F401 (the fixture referee, signed in)
from tests.console_posts import post_form
from tests.fuzzing import examples
from tests.test_console_views import act, html, start, state
from tournament.console.action_forms import ACTION_FORMS, ActionForm, EffectForm
from tournament.console.actions import ActionError, event_from_post, events_from_post
from tournament.models import GameEvent

DAMAGED = "This form is damaged: reload the page and enter the move again."


def post(**fields) -> QueryDict:
    """A POST as the browser sends it: a list is one name posted several times."""
    data = QueryDict(mutable=True)
    for name, value in fields.items():
        data.setlist(name, [str(v) for v in value] if isinstance(value, list) else [str(value)])
    return data


def refusal(data: QueryDict) -> str:
    with pytest.raises(ActionError) as refused:
        events_from_post(data)
    return str(refused.value)


def test_each_action_of_the_record_has_its_form():
    assert list(ACTION_FORMS) == list(EVENT_TYPES)
    assert all(issubclass(form, ActionForm) for form in ACTION_FORMS.values())


def test_each_field_of_a_card_effect_has_its_form_field():
    fields = {name for names in EFFECT_FIELDS.values() for name in names}
    assert {f"effect_{name}" for name in fields} | {"effect_kind"} == set(EffectForm.base_fields)


UTILITY = NEAREST_MULTIPLIERS["utility"]
EVENTS = [
    {"type": "deal", "player": "A", "squares": [1, 3]},
    {"type": "roll", "player": "A", "dice": [3, 5]},
    {"type": "buy", "player": "A"},
    {"type": "decline", "player": "A"},
    {"type": "auction", "square": 3, "winner": "B", "price": 45},
    {"type": "auction", "square": 3, "winner": None, "price": 0},
    {"type": "rent", "player": "A"},
    {"type": "rent", "player": "A", "square": 12, "dice": [2, 3]},
    {"type": "card", "player": "A", "card": "chance:bank-dividend"},
    {"type": "card", "player": "A", "effect": {"kind": "pay", "amount": 15}},
    {"type": "card", "player": "A", "effect": {"kind": "repairs", "per_house": 25, "per_hotel": 100}},
    {"type": "card", "player": "A", "effect": {"kind": "move_to", "square": 39}, "dice": [1, 2]},
    {"type": "card", "player": "A", "effect": {"kind": "move_back", "steps": 3}},
    {"type": "card", "player": "A", "effect": {"kind": "jail_card"}},
    {"type": "card", "player": "A", "effect": {"kind": "nearest", "square_kind": "utility", **UTILITY}},
    {"type": "build", "player": "A", "square": 6, "count": 1},
    {"type": "sell_building", "player": "A", "square": 6, "count": 2},
    {"type": "mortgage", "player": "A", "square": 6},
    {"type": "unmortgage", "player": "A", "square": 6},
    {
        "type": "trade",
        "player": "A",
        "with": "B",
        "give": {"squares": [6, 8], "cash": 0, "jail_cards": 1},
        "get": {"squares": [], "cash": 150, "jail_cards": 0},
    },
    {"type": "jail_fine", "player": "A"},
    {"type": "jail_card", "player": "A"},
    {"type": "timeout", "player": "A"},
    {"type": "bankrupt", "player": "A"},
    {"type": "time_up"},
    {"type": "final_roll", "player": "A", "square": 5, "dice": [6, 6]},
    {"type": "income_tax", "player": "A", "choice": "percent"},
    {"type": "foundation", "player": "A", "die": 4},
    {"type": "final_keep"},
    {"type": "final_tour"},
    {"type": "cash_count", "player": "A", "counted": 1310},
]  # fmt: skip


@pytest.mark.parametrize("event", EVENTS, ids=[e["type"] for e in EVENTS])
def test_the_console_fields_of_an_event_make_that_event(event):
    assert event_from_post(post(**post_form(event))) == event


def test_what_is_not_posted_takes_its_default():
    assert event_from_post(post(do="build:6", player="A")) == {
        "type": "build",
        "player": "A",
        "square": 6,
        "count": 1,
    }
    assert event_from_post(post(action="trade", player="A", **{"with": "B"}, give_squares="6")) == {
        "type": "trade",
        "player": "A",
        "with": "B",
        "give": {"squares": [6], "cash": 0, "jail_cards": 0},
        "get": {"squares": [], "cash": 0, "jail_cards": 0},
    }
    railroad = {"kind": "nearest", "square_kind": "railroad", **NEAREST_MULTIPLIERS["railroad"]}
    assert event_from_post(post(action="card", player="A", effect_kind="nearest"))["effect"] == railroad


def test_a_one_tap_card_and_a_typed_one_are_the_same_event():
    one_tap = event_from_post(post(action="card", player="A", effect='{"kind": "pay", "amount": 15}'))
    typed = event_from_post(post(action="card", player="A", effect_kind="pay", effect_amount="15"))
    assert one_tap == typed == {"type": "card", "player": "A", "effect": {"kind": "pay", "amount": 15}}


def test_a_decline_and_its_auction_in_one_tap():
    fields = {"action": "decline", "player": "A", "square": "3", "price": "40"}
    assert events_from_post(post(**fields, winner="B")) == [
        {"type": "decline", "player": "A"},
        {"type": "auction", "square": 3, "winner": "B", "price": 40},
    ]
    assert events_from_post(post(**fields, nobody="1"))[1] == {
        "type": "auction",
        "square": 3,
        "winner": None,
        "price": 0,
    }
    assert refusal(post(action="decline", player="A", square="3", winner="B")) == "Enter the price."
    assert events_from_post(post(**fields)) == [{"type": "decline", "player": "A"}]  # the buy panel's Decline


def test_fields_of_another_action_or_another_card_kind_are_not_read():
    assert event_from_post(post(action="buy", player="A", square="x", d1="9", count="-1")) == {
        "type": "buy",
        "player": "A",
    }
    assert event_from_post(post(action="time_up", player="Z", dice="99")) == {"type": "time_up"}
    assert event_from_post(post(action="auction", square="3", nobody="1", price="x", winner="")) == {
        "type": "auction",
        "square": 3,
        "winner": None,
        "price": 0,
    }
    card = post(action="card", player="A", effect_kind="pay", effect_amount="5", effect_steps="x")
    assert event_from_post(card)["effect"] == {"kind": "pay", "amount": 5}
    named = post(action="card", player="A", card="chance:x", effect_kind="fly", effect="{")
    assert event_from_post(named) == {"type": "card", "player": "A", "card": "chance:x"}


#: (the POST as a query string, the message): for each action, what a broken phone, a stale tab or a prankster
#: may send. A name twice is a list where one value is expected.
BAD = [
    # deal
    ("action=deal&player=A", "Choose the title deeds dealt."),
    ("action=deal&player=A&squares=1&squares=x", "Unknown square."),
    ("action=deal&squares=1&squares=3", "Choose the player."),
    # roll
    ("action=roll&player=A", "Enter the first die."),
    ("action=roll&player=A&d1=3", "Enter the second die."),
    ("action=roll&player=A&d1=x&d2=3", "The first die must be a whole number."),
    ("action=roll&player=A&d1=3&d2=7", "A die shows 1 to 6."),
    ("action=roll&player=A&d1=0&d2=3", "A die shows 1 to 6."),
    ("action=roll&player=A&d1=-2&d2=3", "A die shows 1 to 6."),
    (f"action=roll&player=A&d1={'9' * 30}&d2=3", "A die shows 1 to 6."),
    ("action=roll&player=A&dice=70", "A die shows 1 to 6."),
    ("action=roll&player=A&dice=", "A die shows 1 to 6."),
    ("action=roll&player=A&dice=+35", "A die shows 1 to 6."),
    ("action=roll&player=A&dice=3%005", "A die shows 1 to 6."),
    ("action=roll&player=A&dice=35&dice=12", DAMAGED),
    ("action=roll&dice=35", "Choose the player."),
    ("action=roll&player=+&dice=35", "Choose the player."),
    ("action=roll&player=A%00&dice=35", "Choose the player."),
    ("action=roll&player=A&player=B&dice=35", DAMAGED),
    # the actions of a player alone
    *[(f"action={action}", "Choose the player.") for action in ("buy", "decline", "jail_fine", "jail_card")],
    *[(f"action={action}&player=A&player=A", DAMAGED) for action in ("timeout", "bankrupt")],
    # auction
    ("action=auction&winner=B&price=40", "Enter the square."),
    ("action=auction&square=3&price=40", "Choose the player."),
    ("action=auction&square=3&winner=B", "Enter the price."),
    ("action=auction&square=3&winner=B&price=4O", "The price must be a whole number."),
    ("action=auction&square=3&winner=B&price=-1", "The price must be at least 0."),
    ("action=auction&square=3&winner=B&price=1e9", "The price must be a whole number."),
    (f"action=auction&square=3&winner=B&price={'9' * 5000}", "The price must be a whole number."),
    ("action=auction&square=3&winner=B&price=40&price=50", DAMAGED),
    ("action=auction&square=x&nobody=1", "The square must be a whole number."),
    # rent
    ("action=rent&player=A&square=x", "The square must be a whole number."),
    ("action=rent&player=A&square=12&d1=3", "Tap both dice."),
    ("action=rent&player=A&square=12&d2=3", "Tap both dice."),
    ("action=rent&player=A&square=12&dice=3", "A die shows 1 to 6."),
    # card
    ("action=card&player=A", "Choose what the card does."),
    ("action=card&player=A&effect_kind=fly", "Choose what the card does."),
    ("action=card&player=A&effect_kind=collect", "Enter the amount."),
    ("action=card&player=A&effect_kind=pay&effect_amount=-5", "The amount must be at least 0."),
    ("action=card&player=A&effect_kind=pay&effect_amount=1.5", "The amount must be a whole number."),
    ("action=card&player=A&effect_kind=pay&effect_amount=5&effect_amount=6", DAMAGED),
    ("action=card&player=A&effect_kind=move_to", "Enter the square."),
    (
        "action=card&player=A&effect_kind=move_back&effect_steps=0",
        "The number of squares must be at least 1.",
    ),
    ("action=card&player=A&effect_kind=repairs&effect_per_house=25", "Enter the amount per hotel."),
    ("action=card&player=A&effect_kind=repairs&effect_per_hotel=x", "Enter the amount per house."),
    ("action=card&player=A&effect_kind=nearest&effect_square_kind=bus", "Choose what the card does."),
    ("action=card&player=A&effect={not+json", "Choose what the card does."),
    (f"action=card&player=A&effect={'[' * 100_000}", "Choose what the card does."),
    ('action=card&player=A&effect={"kind":"pay","amount":null}', "The amount must be a whole number."),
    ('action=card&player=A&effect={"kind":"pay","amount":15}&d1=2', "Tap both dice."),
    ('action=card&effect={"kind":"jail_card"}', "Choose the player."),
    # build, sell a building
    ("action=build&player=A", "Enter the square."),
    ("action=build&player=A&square=6&count=0", "The number of levels must be at least 1."),
    ("action=sell_building&player=A&square=6&count=two", "The number of levels must be a whole number."),
    ("do=build:x&player=A", "The square must be a whole number."),
    ("do=sell_building:6:-1&player=A", "The number of levels must be at least 1."),
    ("do=build:6", "Choose the player."),
    # mortgage, lift a mortgage
    ("action=mortgage&player=A&square=1.5", "The square must be a whole number."),
    ("action=unmortgage&player=A&square=6&square=8", DAMAGED),
    ("action=unmortgage&player=A&square=", "Enter the square."),
    # trade
    ("action=trade&player=A&give_squares=6", "Choose the player."),
    ("action=trade&player=A&with=B&with=C", DAMAGED),
    ("action=trade&player=A&with=B&give_squares=6&give_squares=six", "Unknown square."),
    ("action=trade&player=A&with=B&get_cash=-5", "The cash must be at least 0."),
    ("action=trade&player=A&with=B&get_cash=1000001", "The cash must be at most 1000000."),
    (
        "action=card&player=A&effect_kind=collect&effect_amount=" + "9" * 30,
        "The amount must be at most 1000000.",
    ),
    ("action=trade&player=A&with=B&give_cash=lots", "The cash must be a whole number."),
    ("action=trade&player=A&with=B&get_jail_cards=x", "The jail cards must be a whole number."),
    # final roll
    ("action=final_roll&player=A&dice=66", "Enter the square."),
    ("action=final_roll&player=A&square=5", "Enter the first die."),
    ("action=final_roll&player=A&square=5&dice=77", "A die shows 1 to 6."),
    # income tax
    ("action=income_tax&player=A", "Choose how the income tax is paid."),
    ("action=income_tax&player=A&choice=both", "Choose how the income tax is paid."),
    ("action=income_tax&player=A&choice=fixed&choice=percent", DAMAGED),
    # foundation
    ("action=foundation&player=A", "Enter the die."),
    ("action=foundation&player=A&die=7", "A die shows 1 to 6."),
    ("action=foundation&player=A&die=0", "A die shows 1 to 6."),
    ("action=foundation&player=A&die=six", "The die must be a whole number."),
    # no such action
    ("player=A", "Unknown action."),
    ("action=fly&player=A", "Unknown action."),
    ("action=Roll&player=A&dice=35", "Unknown action."),
    ("do=fly:6&player=A", "Unknown action."),
    ("do=:::&player=A", "Unknown action."),
    ("action=roll&action=buy&player=A&dice=35", DAMAGED),
    ("do=build:6&do=mortgage:6&player=A", DAMAGED),
]


@pytest.mark.parametrize(("query", "message"), BAD, ids=[q[:60] for q, _m in BAD])
def test_bad_input_is_refused_with_one_clear_message(query, message):
    with translation.override("en"):
        assert refusal(QueryDict(query)) == message


def test_the_first_refused_field_is_the_one_told():
    assert refusal(QueryDict("action=roll&d1=x")) == "Choose the player."
    assert refusal(QueryDict("action=auction&square=x&price=-1")) == "The square must be a whole number."
    assert refusal(QueryDict("action=card&player=A&effect_kind=pay&d1=1")) == "Enter the amount."
    assert refusal(QueryDict("action=roll&player=A&player=B&d1=x")) == DAMAGED  # damaged before its fields


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("action=auction&square=3&winner=B", "Podaj: cena."),
        ("action=roll&player=A&d1=x&d2=3", "Pole „pierwsza kostka” musi być liczbą całkowitą."),
        ("do=build:6:0&player=A", "Pole „liczba budynków” musi wynosić co najmniej 1."),
        ("action=roll&player=A&dice=70", "Kostka pokazuje od 1 do 6."),
        ("action=rent&player=A&d1=2", "Wybierz obie kostki."),
        ("action=trade&player=A", "Wybierz gracza."),
        ("action=card&player=A&effect_kind=fly", "Wybierz, co robi karta."),
        ("action=fly", "Nieznana czynność."),
        ("action=roll&action=buy", "Formularz jest uszkodzony: odśwież stronę i wpisz ruch ponownie."),
    ],
)
def test_the_message_is_in_the_referees_language(query, message):
    with translation.override("pl"):
        assert refusal(QueryDict(query)) == message


FIELDS = [
    "action", "do", "player", "d1", "d2", "dice", "die", "square", "squares", "count", "winner", "price",
    "nobody", "card", "effect", "effect_kind", "effect_amount", "effect_square", "effect_steps",
    "effect_square_kind", "effect_per_house", "effect_per_hotel", "with", "give_squares", "get_squares",
    "give_cash", "get_cash", "give_jail_cards", "get_jail_cards", "choice",
]  # fmt: skip
VALUES = st.one_of(
    st.sampled_from(
        [*EVENT_TYPES, "", " ", "0", "1", "-1", "6", "7", "35", "A", "B", "9" * 30, "1e9", "1.5", "NaN",
         "\x00", "build:6", "sell_building:6:2", "build::", '{"kind": "pay"}', '{"kind": "pay", "amount": 1}',
         "[1]", "{", "pay", "nearest", "railroad", "fixed", "chance:x", "x" * 5000]
    ),
    st.integers(-(2**70), 2**70).map(str),
    st.text(max_size=20),
)  # fmt: skip


@settings(max_examples=examples(400))
@given(
    action=st.sampled_from([*EVENT_TYPES, "fly", None]),
    fields=st.dictionaries(st.sampled_from(FIELDS), st.lists(VALUES, min_size=1, max_size=3), max_size=8),
)
def test_whatever_is_posted_the_answer_is_events_or_one_message(action, fields):
    data = QueryDict(mutable=True)
    if action:
        data["action"] = action
    for name, values in fields.items():
        data.setlist(name, values)
    try:
        events = events_from_post(data)
    except ActionError as e:
        message = str(e)
        assert message and "\n" not in message and "%(" not in message
    else:
        assert events and all(e["type"] in EVENT_TYPES for e in events)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"action": "roll", "player": ["A", "B"], "dice": "12"}, DAMAGED),
        ({"action": "roll", "player": "A", "dice": "9" * 30}, "A die shows 1 to 6."),
        ({"action": "roll", "player": "A", "d1": "9" * 30, "d2": "1"}, "A die shows 1 to 6."),
        ({"action": "rent", "player": "A", "square": "9" * 30}, "The square must be at most 1000000."),
        ({"action": "rent", "player": "A", "square": "999"}, "square index"),
        ({"do": "build:6:" + "9" * 30, "player": "A"}, "The number of levels must be at most 1000000."),
        ({"do": "build:6:2", "player": "A"}, "does not own"),
        ({"action": "card", "player": "A", "effect": "[" * 100_000}, "Choose what the card does."),
        ({"action": "trade", "player": "A", "with": "B", "get_cash": "9" * 30}, "cash"),
        ({"action": "fly", "player": "A"}, "Unknown action."),
    ],
)  # fmt: skip
def test_through_the_console_garbage_is_a_message_never_an_error_page(client, referee, fields, message):  # noqa: F811
    game = start(referee)
    response = act(client, game, **fields)
    assert response.status_code == 200
    assert message in unescape(re.search(r'id="console-error">([^<]*)</p>', html(response)).group(1))
    assert game.version == 0 and not GameEvent.objects.exists() and state(game).player("A").cash == 1500
