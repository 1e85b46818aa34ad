"""The engine's messages have one renderer (``rules.messages.say``): the server's pages and sheets say them
with Django's catalogue, the referee's phone with the same catalogue sent to it, and both say every note of a
simulated game, every refusal and "why nobody may roll" in the same words, in Polish and in English."""

import json

import pytest
from django.urls import reverse
from django.utils import translation

from rules.engine import apply
from rules.errors import RulesError
from rules.record import parse_record
from rules.replay import start_state
from rules.simulate import simulate
from rules.snapshot import dump_state
from tournament.console.screen_words import screen_words
from tournament.console.view_model import phone, screen, words
from tournament.games.messages import error_text, message_text


@pytest.fixture
def phone_words():
    yield words.use_words
    words.use_words({})  # English again for the next test


@pytest.mark.parametrize("language", ["pl", "en"])
@pytest.mark.parametrize(
    ("variant", "board", "options"),
    [("tournament-pl", "classic-us", {}), ("anti-monopoly", "anti-monopoly-us", {"ending": "two_hour"})],
)
def test_the_phone_says_every_message_as_the_server_does(
    client, phone_words, language, variant, board, options
):
    record = simulate(variant, board, 4, seed=4, max_events=400, options=options)
    state = start_state(parse_record(record))
    catalog = client.get(reverse("console_engine_words", args=[language])).json()["catalog"]
    with translation.override(language):
        names = screen_words(state)
        phone_words({"catalog": catalog, "board_words": names["board_words"], "ids": names["ids"]})
        said = 0
        for event in record["events"]:
            blocked = screen(state)["now"]["blocked_by"]  # the phone's words
            assert blocked == (screen(state, say=message_text)["now"]["blocked_by"])
            tx = apply(state, event)
            for note in tx.notes:
                assert words.said(note) == message_text(note)
                said += words.said(note) != note.text if language == "pl" else 1  # (Polish: translated)
            state = tx.state
        assert said > 100
        wrong = {"type": "roll", "player": state.players[0].id, "dice": [7, 7]}
        with pytest.raises(RulesError) as server:
            apply(state, wrong)
        game = json.dumps({"state": dump_state(state)})
        refused = json.loads(phone.apply(game, json.dumps([wrong])))
        assert refused["error"] == {"code": server.value.code, "text": error_text(server.value)}
