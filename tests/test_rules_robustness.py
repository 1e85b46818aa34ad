"""Malformed boards, records and events: a clear error naming the problem, never a traceback."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import BoardError, RecordError, RuleError, get_board, replay
from rules.board import BOARDS_DIR, parse_board
from rules.simulate import simulate
from tests.fuzzing import examples

US = json.loads((BOARDS_DIR / "classic-us.json").read_text(encoding="utf-8"))


def broken_board(change):
    data = copy.deepcopy(US)
    change(data)
    with pytest.raises(BoardError) as e:
        parse_board(data)
    return e.value.message


def test_shipped_boards_load():
    for board_id in ("classic-us", "classic-pl"):
        b = get_board(board_id)
        assert len(b.squares) == 40 and len(b.properties) == 28 and b.jail == 10
        assert b.groups["railroads"] == (5, 15, 25, 35)


def test_polish_board_names():
    b = get_board("classic-pl")
    names = [s.name for s in b.squares]
    assert "Dworzec Zachodni" in names and "Elektrownia" in names and "Wodociągi" in names
    assert b.square(4).name == "Podatek dochodowy" and b.square(38).name == "Domiar podatkowy"
    assert (
        b.square(39).price == 400 and b.decks["chance"].name == "Szansa" and b.decks["chance"].cards is None
    )


def test_us_decks_have_sixteen_cards_each():
    b = get_board("classic-us")
    for deck in b.decks.values():
        assert sum(c.copies for c in deck.cards) == 16


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["squares"][1].pop("price"), "square 1 (Mediterranean Avenue), field 'price': missing"),
        (lambda d: d["squares"][3].update(rents=[1, 2, 3]), "square 3 (Baltic Avenue), field 'rents'"),
        (lambda d: d["squares"][5].update(kind="castle"), "square 5 (Reading Railroad), field 'kind'"),
        (lambda d: d["squares"][39].update(mortgage=500), "square 39 (Boardwalk), field 'mortgage'"),
        (
            lambda d: d["squares"][12].update(multipliers="x"),
            "square 12 (Electric Company), field 'multipliers'",
        ),
        (lambda d: d["squares"][4].update(amount=-5), "square 4 (Income Tax), field 'amount'"),
        (lambda d: d["squares"][2].update(deck="nope"), "square 2 (Community Chest), field 'deck'"),
        (lambda d: d["squares"].pop(), "field 'squares': must list 40 squares"),
        (lambda d: d["decks"]["chance"]["cards"][0].update(effect={"kind": "fly"}), "field 'effect.kind'"),
        (
            lambda d: d["decks"]["chance"]["cards"][1].update(id="advance-to-boardwalk"),
            "field 'id': is not unique",
        ),
        (lambda d: d["squares"][1].update(price=True), "field 'price'"),
    ],
)
def test_malformed_board_names_square_and_field(change, expected):
    assert expected in broken_board(change)


def test_unknown_board():
    with pytest.raises(BoardError) as e:
        get_board("monopoly-mars")
    assert "classic-pl" in e.value.message


# -- records --------------------------------------------------------------------------------------------
BASE = {
    "format": "monopoly-game-record/1",
    "variant": "classic",
    "board": "classic-us",
    "players": [{"id": "A", "name": "Anna"}, {"id": "B", "name": "Bartek"}],
    "options": {},
    "events": [],
}


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"format": "pgn"}, "record.format"),
        ({"variant": "monopoly-deluxe"}, "variant.unknown"),
        ({"board": "mars"}, "board.unknown"),
        ({"options": {"max_rounds": "ten"}}, "options.bad_value"),
        ({"options": {"free_parking_jackpot": True}}, "options.unknown"),
        ({"players": [{"id": "A"}]}, "record.players"),
        ({"players": [{"id": "A"}, {"id": "A"}]}, "record.player_id"),
        ({"players": [{"id": "A"}, {"name": "no id"}]}, "record.player_id"),
        ({"players": [{"id": "A"}, {"id": "B", "role": "king"}]}, "record.player_role"),
        ({"events": {"type": "roll"}}, "record.events"),
    ],
)
def test_malformed_record_header(change, code):
    result = replay({**BASE, **change})
    assert result.error["code"] == code and result.error["index"] is None and result.error["message"]


def test_record_not_an_object():
    assert replay([1, 2]).error["code"] == "record.not_object"


def events_error(*events):
    return replay({**BASE, "events": list(events)}).error


@pytest.mark.parametrize(
    ("event", "code"),
    [
        ({"type": "roll", "player": "A", "dice": [0, 3]}, "event.bad_dice"),
        ({"type": "roll", "player": "A", "dice": [7, 3]}, "event.bad_dice"),
        ({"type": "roll", "player": "A", "dice": [3]}, "event.bad_dice"),
        ({"type": "roll", "player": "A", "dice": ["3", 4]}, "event.bad_dice"),
        ({"type": "roll", "player": "Z", "dice": [3, 4]}, "event.unknown_player"),
        ({"type": "roll", "dice": [3, 4]}, "event.unknown_player"),
        ({"type": "jump", "player": "A"}, "event.unknown_type"),
        ({"type": "build", "player": "A", "square": 40}, "event.bad_square"),
        ({"type": "build", "player": "A", "square": -1}, "event.bad_square"),
        ({"type": "build", "player": "A", "square": "39"}, "event.bad_square"),
        ({"type": "build", "player": "A", "square": 39, "count": 0}, "event.bad_amount"),
        ({"type": "auction", "square": 3, "winner": "A", "price": -5}, "event.bad_amount"),
        ({"type": "auction", "square": 3, "winner": "A"}, "event.bad_amount"),
        ({"type": "trade", "player": "A", "with": "B", "give": {"cash": 1.5}}, "event.bad_amount"),
        ({"type": "trade", "player": "A", "with": "B", "give": []}, "event.bad_trade"),
        ({"type": "card", "player": "A"}, "event.card"),
        ({"type": "card", "player": "A", "card": "boardwalk"}, "event.card"),
        ("roll", "event.not_object"),
    ],
)
def test_malformed_event_is_named_by_index(event, code):
    error = events_error({"type": "roll", "player": "A", "dice": [4, 6]}, event)
    assert error["index"] == 1 and error["code"] == code, error


def test_illegal_event_error_says_what_the_rules_require():
    error = events_error({"type": "roll", "player": "B", "dice": [4, 6]})
    assert error == {
        "index": 0,
        "code": "roll.not_your_turn",
        "message": "It is Anna's turn to roll, not Bartek's.",
    }


def test_events_after_the_end_are_refused():
    record = simulate("tournament-pl", "classic-pl", 2, seed=1)
    record["events"].append({"type": "roll", "player": "A", "dice": [1, 2]})
    error = replay(record).error
    assert error["code"] == "game.finished" and error["index"] == len(record["events"]) - 1


# -- fuzzing: mutated and truncated records -------------------------------------------------------------
RECORD = simulate("classic", "classic-us", 3, seed=5, rounds=12)
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 45)
    | st.sampled_from(["A", "B", "Z", "chance:go-to-jail", ""]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["squares", "cash", "kind"]), inner)
    ),
    max_leaves=6,
)
FIELDS = st.sampled_from(
    [
        "type",
        "player",
        "dice",
        "square",
        "winner",
        "price",
        "count",
        "card",
        "effect",
        "with",
        "give",
        "get",
        "amount",
    ]
)


@settings(max_examples=examples(300))
@given(
    cut=st.integers(0, len(RECORD["events"])),
    index=st.integers(0, len(RECORD["events"]) - 1),
    field=FIELDS,
    value=JSON_VALUES,
    drop=st.booleans(),
)
def test_mutated_records_give_an_error_naming_the_event_never_a_traceback(cut, index, field, value, drop):
    record = copy.deepcopy(RECORD)
    event = record["events"][index]
    if drop:
        event.pop(field, None)
    else:
        event[field] = value
    record["events"] = record["events"][: max(cut, index + 1)]
    result = replay(record)
    if result.error is not None:
        assert 0 <= result.error["index"] < len(record["events"])
        assert result.error["code"] and result.error["message"]
        assert set(result.error) == {"index", "code", "message"}


@settings(max_examples=examples(200))
@given(events=st.lists(st.dictionaries(FIELDS, JSON_VALUES, max_size=5), max_size=8))
def test_random_events_never_crash(events):
    result = replay({**BASE, "events": events})
    assert result.error is None or isinstance(result.error["index"], int)


def test_error_classes():
    assert issubclass(RuleError, Exception) and issubclass(RecordError, Exception)


def test_every_event_type_of_the_record_has_a_handler():
    from rules.engine import HANDLERS
    from rules.record import EVENT_TYPES

    assert set(HANDLERS) == set(EVENT_TYPES)
