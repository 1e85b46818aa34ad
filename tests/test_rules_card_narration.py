"""A card recorded by its effect (the Polish decks) is told in words in the game's log."""

import pytest

from rules.board import EFFECT_FIELDS, get_board
from rules.cards import EFFECT_NOTES, NEAREST_NOTES
from rules.engine import apply, new_game
from rules.variants import make_variant


def notes_of(effect, *, before=(), dice=(3, 4)):
    """The notes of Anna's card: after ``before``, she rolls ``dice`` to Szansa (square 7, Polish board)."""
    s = new_game(
        get_board("classic-pl"), make_variant("tournament-pl"), [("A", "Anna", None), ("B", "Bartek", None)]
    )
    for event in before:
        s = apply(s, event).state
    s = apply(s, {"type": "roll", "player": "A", "dice": list(dice)}).state
    return [n.text for n in apply(s, {"type": "card", "player": "A", "effect": effect}).notes]


@pytest.mark.parametrize(
    "effect, first",
    [
        ({"kind": "pay", "amount": 500}, "Anna pays 500 to the bank (Szansa)."),
        ({"kind": "collect", "amount": 200}, "Anna collects 200 from the bank (Szansa)."),
        ({"kind": "move_to", "square": 24}, "Anna advances to Plac Wilsona (Szansa)."),
        (
            {"kind": "move_to", "square": 0, "salary": False},
            "Anna advances to Start, no salary on the way (Szansa).",
        ),
        ({"kind": "move_back", "steps": 3}, "Anna goes back 3 squares (Szansa)."),
        (
            {"kind": "nearest", "square_kind": "railroad", "rent_multiplier": 2},
            "Anna advances to the nearest railroad (Szansa).",
        ),
        ({"kind": "go_to_jail"}, "Anna draws 'Go to jail' (Szansa)."),
        ({"kind": "jail_card"}, "Anna keeps a 'Get out of jail free' card (Szansa)."),
        (
            {"kind": "repairs", "per_house": 25, "per_hotel": 100},
            "Anna pays 25 per house and 100 per hotel (Szansa).",
        ),
        ({"kind": "pay_each_player", "amount": 50}, "Anna pays 50 to each player (Szansa)."),
        ({"kind": "collect_from_each_player", "amount": 10}, "Anna collects 10 from each player (Szansa)."),
    ],
)
def test_an_effect_is_told_in_words(effect, first):
    notes = notes_of(effect)
    assert notes[0] == first
    assert not any("=" in n for n in notes)  # not "kind=pay, amount=500"


def test_what_follows_the_card_keeps_its_own_notes():
    assert notes_of({"kind": "move_to", "square": 0})[1:] == [
        "Anna passes Start: salary 200.",
        "Anna lands on Start.",
    ]
    assert notes_of({"kind": "go_to_jail"})[1:] == ["Anna goes to jail."]
    assert notes_of({"kind": "repairs", "per_house": 25, "per_hotel": 100})[1:] == [
        "Repairs: 0 houses, 0 hotels: 0."
    ]


def test_the_cards_multiplier_is_told_when_the_square_is_another_players():
    railroad = {"kind": "nearest", "square_kind": "railroad", "rent_multiplier": 2}
    assert "The card: 2 × the rent." not in notes_of(railroad)  # Dworzec Gdański is the bank's
    bartek_buys_it = [
        {"type": "roll", "player": "A", "dice": [1, 2]},
        {"type": "decline", "player": "A"},
        {"type": "auction", "square": 3, "winner": None, "price": 0},
        {"type": "roll", "player": "B", "dice": [6, 6]},  # 12: Elektrownia; a double, one more roll
        {"type": "buy", "player": "B"},
        {"type": "roll", "player": "B", "dice": [1, 2]},  # 15: Dworzec Gdański
        {"type": "buy", "player": "B"},
    ]
    notes = notes_of(railroad, before=bartek_buys_it, dice=(1, 3))  # Anna: 3 -> 7
    assert notes[:2] == ["Anna advances to the nearest railroad (Szansa).", "The card: 2 × the rent."]


def test_every_kind_of_the_vocabulary_has_its_sentence():
    assert set(EFFECT_NOTES) | {"nearest"} == set(EFFECT_FIELDS)
    assert set(NEAREST_NOTES) == {"railroad", "utility"}
    assert not any("%" in t for t in [*EFFECT_NOTES.values(), *NEAREST_NOTES.values()])
