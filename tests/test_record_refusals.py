"""Nothing enters the books that the rules would not give (GAME_RECORD.md, turn 4): an event carries only the
fields its type names, a card of a deck the board lists is named, not written out, a card written out is
bounded as real cards are, a cash count is 0–100,000, a build at its own price only at the bank's auction of
scarce buildings. Each hand-made event is refused by the engine (``replay``: a record as a file brings it), by
the phone's sync endpoint (the console's only way in: a hand-made post) and by a record imported for a
table, with nothing stored; the bounds themselves are accepted."""

import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from rules import replay
from tournament.games import recording
from tournament.models import Game

PLAYERS = [{"id": "A", "name": "Anna"}, {"id": "B", "name": "Bartek"}, {"id": "C", "name": "Celina"}]
TO_CHANCE = {"type": "roll", "player": "A", "dice": [3, 4]}  # 0 -> 7: Chance (Szansa)
TO_BALTIC = {"type": "roll", "player": "A", "dice": [1, 2]}  # 0 -> 3, a street of the first group


def card(**effect):
    return {"type": "card", "player": "A", "effect": effect}


#: (what, variant, board, the moves before, the hand-made move, the code it is refused with, a move within
#: the bounds that is taken instead, or None)
CASES = [
    (
        "an effect written out for a deck the board lists",
        "classic",
        "classic-us",
        [TO_CHANCE],
        card(kind="collect", amount=1_000_000),
        "card.listed_deck",
        {"type": "card", "player": "A", "card": "chance:bank-dividend"},
    ),
    (
        "a nearest card's rent multiplied by 1000",
        "classic",
        "classic-pl",
        [TO_CHANCE],
        card(kind="nearest", square_kind="railroad", rent_multiplier=1000),
        "card.effect_multiplier",
        card(kind="nearest", square_kind="railroad", rent_multiplier=2),
    ),
    (
        "a card's amount above the largest a card prints",
        "classic",
        "classic-pl",
        [TO_CHANCE],
        card(kind="collect", amount=501),
        "card.effect_bound",
        card(kind="collect", amount=500),
    ),
    (
        "repairs dearer than the board's buildings",
        "classic",
        "classic-pl",
        [TO_CHANCE],
        card(kind="repairs", per_house=25, per_hotel=10_000),
        "card.effect_bound",
        card(kind="repairs", per_house=25, per_hotel=100),
    ),
    (
        "a card's effect with a field of its own",
        "classic",
        "classic-pl",
        [TO_CHANCE],
        card(kind="collect", amount=50, bonus=1000),
        "card.effect_field",
        card(kind="collect", amount=50),
    ),
    (
        "banknotes counted beyond any table's",
        "classic",
        "classic-us",
        [],
        {"type": "cash_count", "player": "A", "counted": 100_001},
        "event.bad_counted",
        {"type": "cash_count", "player": "A", "counted": 100_000},
    ),
    (
        "a roll that carries a sum",
        "classic",
        "classic-us",
        [],
        {"type": "roll", "player": "A", "dice": [1, 2], "salary": 5000},
        "event.unknown_field",
        {"type": "roll", "player": "A", "dice": [1, 2]},
    ),
    (
        "a trade whose side carries a field of its own",
        "classic",
        "classic-us",
        [],
        {"type": "trade", "player": "A", "with": "B", "give": {"cash": 10, "bonus": 900}},
        "event.bad_trade",
        {"type": "trade", "player": "A", "with": "B", "give": {"cash": 10}},
    ),
    (
        "a build at its own price while the bank has houses enough",
        "tournament-pl",  # (builds without the whole group)
        "classic-pl",
        [TO_BALTIC, {"type": "buy", "player": "A"}],
        {"type": "build", "player": "A", "square": 3, "price": 1},
        "build.no_shortage",
        {"type": "build", "player": "A", "square": 3},
    ),
]
IDS = [c[0] for c in CASES]


def record(variant, board, events):
    return {"variant": variant, "board": board, "players": PLAYERS, "events": events}


@pytest.mark.parametrize(("what", "variant", "board", "before", "hostile", "code", "bounded"), CASES, ids=IDS)
def test_the_engine_refuses_it_in_a_replayed_record(what, variant, board, before, hostile, code, bounded):
    result = replay(record(variant, board, [*before, hostile]))
    assert not result.ok and result.error["code"] == code and result.error["index"] == len(before), what
    if bounded is not None:
        assert replay(record(variant, board, [*before, bounded])).ok, what


@pytest.fixture
def referee(db):
    return User.objects.create_user("ref", password="pw")


def sync(client, game, events, key):
    body = {"client_key": key, "version": game.version, "events": events, "waiting": 1}
    return client.post(
        reverse("console_sync", args=[game.pk]), json.dumps(body), content_type="application/json"
    )


@pytest.mark.django_db
@pytest.mark.parametrize(("what", "variant", "board", "before", "hostile", "code", "bounded"), CASES, ids=IDS)
def test_the_phones_sync_refuses_it_and_stores_nothing(
    referee, what, variant, board, before, hostile, code, bounded
):
    game = recording.create_game(
        name="Table 1", variant=variant, board=board, referees=[referee], players=[dict(p) for p in PLAYERS]
    )
    phone = Client(HTTP_ACCEPT_LANGUAGE="pl")
    phone.force_login(referee)
    for i, move in enumerate(before):
        assert sync(phone, game, [move], f"dev.{i}").status_code == 200
        game.refresh_from_db()
    answer = sync(phone, game, [hostile], "dev.hostile")
    assert answer.status_code == 422 and answer.json()["why"] == "refused", what
    assert not re.search(r"\{[a-z_]+\}", answer.json()["message"])  # said in words, not a template
    assert Game.objects.get(pk=game.pk).events.count() == len(before)
    if bounded is not None:
        assert sync(phone, game, [bounded], "dev.bounded").status_code == 200, what
