"""The referee's cash counts are kept beside the game's state (``Game.counts``, ``rules.cash_counts``), move
after move, on the server and in the phone alike: never a replay per screen. Held against a replay of the
whole game after every move, an undo and a void; a game stored before they were kept gets them from one
replay; the phone's, played from the server's game, end equal to the server's."""

import json
import random

import pytest

from rules.cash_counts import CashCounts
from rules.engine import apply
from rules.record import parse_record
from rules.replay import replay, start_state
from rules.simulate import simulate
from tournament.console.view_model import phone
from tournament.console.view_model.screen import last_counts
from tournament.games import recording
from tournament.models import Game

pytestmark = pytest.mark.django_db


def with_counts(variant="tournament-pl", board="classic-pl", seed=4, events=160):
    """A simulated game with the referee's cash counts among its moves (some right, some off)."""
    record = simulate(variant, board, 3, seed=seed, max_events=events)
    rng = random.Random(seed)
    state = start_state(parse_record(record))
    out = []
    for event in record["events"]:
        out.append(event)
        state = apply(state, event, narrate=False).state
        if rng.random() < 0.15 and not state.finished:
            p = rng.choice([p for p in state.players if not p.bankrupt])
            count = {
                "type": "cash_count",
                "player": p.id,
                "counted": max(p.cash + rng.choice([0, 0, 10, -20]), 0),
            }
            state = apply(state, count, narrate=False).state
            out.append(count)
    return {**record, "events": out}


def replayed(game: Game) -> dict:
    """The counts of a replay of the game's active moves, each known by its number."""
    seqs = list(recording.active_events(game).values_list("seq", flat=True))
    counts = CashCounts()
    replay(recording.record_of(game), lambda i, out: counts(seqs[i], out), narrate=False)
    return counts.to_data()


def test_the_counts_kept_move_after_move_equal_a_replay(referee):
    record = with_counts()
    game = recording.create_game(
        variant=record["variant"], board=record["board"], players=record["players"], referees=[referee]
    )
    for i, event in enumerate(record["events"]):
        game = recording.submit(game.pk, event, version=game.version).game
        if i % 25 == 0 or event["type"] == "cash_count":
            assert game.counts == replayed(game), i
    assert last_counts(game.counts), "the game has counts to show"
    game = recording.undo_last(game.pk, version=game.version, reason="test")
    assert game.counts == replayed(game)
    game = recording.void(game.pk, 3, version=game.version, reason="test")
    assert game.counts == replayed(game)


def test_a_game_stored_before_the_counts_were_kept_gets_them_from_one_replay(referee):
    record = with_counts(seed=7)
    game = recording.create_game(
        variant=record["variant"], board=record["board"], players=record["players"], referees=[referee]
    )
    for event in record["events"][:80]:
        game = recording.submit(game.pk, event, version=game.version).game
    Game.objects.filter(pk=game.pk).update(counts=None)
    game.refresh_from_db()
    assert recording.counts_of(game).to_data() == replayed(game)
    game = recording.submit(game.pk, record["events"][80], version=game.version).game  # kept from now on
    assert Game.objects.get(pk=game.pk).counts == replayed(game)


def test_the_phones_counts_equal_the_servers(referee):
    record = with_counts(variant="classic", board="classic-us", seed=9)
    game = recording.create_game(
        variant=record["variant"], board=record["board"], players=record["players"], referees=[referee]
    )
    here = json.dumps(
        {"state": game.state, "ledger": game.ledger, "counts": game.counts, "next_seq": game.next_seq}
    )
    for event in record["events"]:
        out = json.loads(phone.apply(here, json.dumps([event])))
        assert out["ok"], (event, out)
        here = json.dumps(out["game"])
        game = recording.submit(game.pk, event, version=game.version).game
    kept = json.loads(here)
    assert kept["counts"] == game.counts and kept["next_seq"] == game.next_seq
    assert out["view"]["players"] == json.loads(json.dumps(phone_view(game)))["players"]


def phone_view(game):
    from tournament.console.view_model import screen

    return screen(recording.current_state(game), game.ledger, game.counts)
