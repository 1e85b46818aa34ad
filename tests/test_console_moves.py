"""Recording moves (tournament.games.recording): the snapshot equals a replay; stale and resent moves; undo;
void."""

import pytest

from ledger.report import replay_ledger, summary
from rules import RuleError
from rules.simulate import simulate
from tournament.games import recording
from tournament.models import Game, GameEvent

pytestmark = pytest.mark.django_db


def new(variant="tournament-pl", board="classic-pl", names=("Anna", "Bartek", "Celina")):
    return recording.create_game(variant=variant, board=board, players=[{"name": n} for n in names])


def play(game, *events):
    for ev in events:
        game = recording.submit(game.pk, ev, version=game.version).game
    return game


def roll(pid, d1, d2):
    return {"type": "roll", "player": pid, "dice": [d1, d2]}


@pytest.mark.parametrize(("variant", "board"), [("tournament-pl", "classic-pl"), ("classic", "classic-us")])
def test_snapshot_equals_full_replay_after_every_event(variant, board):
    record = simulate(variant, board, 3, seed=11, rounds=12)
    game = recording.create_game(
        variant=variant,
        board=board,
        players=[{"name": p["name"]} for p in record["players"]],
        options=record["options"],
    )
    for ev in record["events"]:
        game = recording.submit(game.pk, ev, version=game.version).game
        rebuilt, ledger = replay_ledger(recording.record_of(game))
        assert rebuilt.error is None
        assert recording.current_state(game) == rebuilt.state
        assert game.ledger == {pid: [ledger.income(pid), ledger.cost(pid)] for pid in game.ledger}
    exported, ledger = replay_ledger(recording.record_of(game))
    direct, direct_ledger = replay_ledger(record)
    assert summary(exported.state, ledger) == summary(direct.state, direct_ledger)
    assert game.status == (Game.Status.FINISHED if exported.state.finished else Game.Status.RUNNING)


def test_illegal_event_changes_nothing():
    game = new()
    with pytest.raises(RuleError):
        recording.submit(game.pk, roll("B", 1, 2), version=game.version)
    game.refresh_from_db()
    assert game.version == 0 and game.events.count() == 0


def test_stale_version_is_refused():
    game = play(new(), roll("A", 4, 6))
    with pytest.raises(recording.StaleVersion):
        recording.submit(game.pk, roll("B", 4, 6), version=0)
    assert game.events.count() == 1


def test_resent_request_creates_one_event():
    game = new()
    first = recording.submit(game.pk, roll("A", 4, 6), version=0, client_key="k1")
    again = recording.submit(game.pk, roll("A", 4, 6), version=0, client_key="k1")
    assert again.duplicate and again.event.pk == first.event.pk and GameEvent.objects.count() == 1


def test_undo_last_keeps_an_audit_trail_and_rebuilds_the_state():
    game = play(new(), roll("A", 3, 3), {"type": "buy", "player": "A"})
    game = recording.undo_last(game.pk, version=game.version, reason="wrong button")
    row = game.events.get(seq=2)
    assert row.status == GameEvent.Status.UNDONE and row.reason == "wrong button" and row.changed_at
    state = recording.current_state(game)
    assert state.owner_of(6) is None and state.decision is not None and state.player("A").cash == 1500
    game = play(game, {"type": "decline", "player": "A"})
    assert game.events.get(seq=3).data == {"type": "decline", "player": "A"}


def test_undo_needs_a_reason_and_a_move():
    game = new()
    with pytest.raises(recording.LogError):
        recording.undo_last(game.pk, version=0, reason="oops")
    game = play(game, roll("A", 4, 6))
    with pytest.raises(recording.LogError):
        recording.undo_last(game.pk, version=game.version, reason="  ")


def test_void_an_older_event_replays_the_rest():
    rent = {"type": "rent", "player": "B"}
    game = play(
        new(), roll("A", 2, 4), {"type": "buy", "player": "A"}, roll("B", 2, 4), rent, roll("C", 4, 6)
    )
    game = recording.void(game.pk, 4, version=game.version, reason="A did not claim it in time")
    state = recording.current_state(game)
    assert (
        state.player("B").cash == 1500 and state.player("A").cash == 1400 and state.player("C").position == 10
    )
    assert game.ledger["A"] == [0, 0]


def test_void_that_would_make_a_later_move_illegal_is_refused():
    game = play(new(), roll("A", 3, 3), {"type": "buy", "player": "A"}, roll("A", 1, 2))
    with pytest.raises(recording.LogError) as e:
        recording.void(game.pk, 1, version=game.version, reason="test")
    assert e.value.seq == 2
    game.refresh_from_db()
    assert game.events.filter(status=GameEvent.Status.ACTIVE).count() == 3 and game.version == 3


def test_finished_game_is_marked_and_undo_reopens_it():
    game = recording.create_game(
        variant="classic",
        board="classic-us",
        players=[{"name": "A"}, {"name": "B"}],
        options={"max_rounds": 1},
    )
    game = play(game, roll("A", 4, 6), roll("B", 4, 6))
    assert game.status == Game.Status.FINISHED and game.finished_at
    game = recording.undo_last(game.pk, version=game.version, reason="test")
    assert game.status == Game.Status.RUNNING and game.finished_at is None
