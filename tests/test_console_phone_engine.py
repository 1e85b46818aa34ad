"""tournament/console/view_model/phone.py, the rules' and the view model's JSON face as the referee's phone
runs it in Pyodide: a game played through it event by event, from the server's snapshot and back, ends in the
very state and ledger the engine's replay gives, its screen the server's; one tap's events go all or none; a
refusal carries the engine's code, template and values; a board that is not shipped is registered from its
data. (The same module in a real browser: tests/test_offline_engine_browser.py.)"""

import json

import pytest

from ledger.report import replay_ledger
from rules.board.registry import BOARDS_DIR, forget_board, get_board, set_board_loader
from rules.cash_counts import CashCounts
from rules.engine import apply
from rules.errors import RulesError
from rules.record import parse_record
from rules.replay import start_state
from rules.simulate import simulate
from rules.snapshot import dump_state, load_state
from tournament.console.view_model import phone, screen
from tournament.games.messages import error_text

GAMES = [
    ("classic", "classic-pl", 4, {}),
    ("tournament-pl", "classic-pl", 3, {}),
    ("anti-monopoly", "anti-monopoly-us", 5, {"ending": "two_hour"}),
]


def start(record: dict) -> str:
    """The game as the phone keeps it, at the start: the server's snapshot and no income nor cost yet."""
    state = start_state(parse_record(record))
    ledger = {p.id: [0, 0] for p in state.players}
    return json.dumps({"state": dump_state(state), "ledger": ledger, "counts": {}, "next_seq": 1})


@pytest.mark.parametrize(("variant", "board", "players", "options"), GAMES)
def test_a_game_played_through_it_ends_where_the_replay_does(variant, board, players, options):
    record = simulate(variant, board, players, seed=7, max_events=800, options=options)
    state = start(record)
    for event in record["events"]:
        out = json.loads(phone.apply(state, json.dumps([event])))
        assert out["ok"], (event, out)
        state = json.dumps(out["game"])
    counts = CashCounts()
    whole, ledger = replay_ledger(record, lambda i, out: counts(i + 1, out))  # (the moves numbered from 1)
    totals = {pid: [ledger.income(pid), ledger.cost(pid)] for pid in ledger.players}
    kept = json.loads(json.dumps(counts.to_data()))
    state_now = json.loads(json.dumps(dump_state(whole.state)))
    after = {"state": state_now, "ledger": totals, "counts": kept, "next_seq": len(record["events"]) + 1}
    assert json.loads(state) == after
    view = json.loads(phone.view(state))
    assert view == out["view"] == json.loads(json.dumps(screen(whole.state, totals, kept)))
    assert [p["cash"] for p in view["players"]] == [p.cash for p in whole.state.players]
    assert view["game"]["finished"] == whole.state.finished


def test_one_taps_events_go_all_or_none_and_a_refusal_says_why():
    record = simulate("classic", "classic-pl", 3, seed=1, max_events=40)
    state = start(record)
    first, second = record["events"][:2]
    both = json.loads(phone.apply(state, json.dumps([first, second])))
    assert both["ok"] and both["events"][0]["type"] == first["type"] and both["notes"]
    after_first = json.loads(phone.apply(state, json.dumps([first])))["game"]
    again = json.loads(phone.apply(json.dumps(after_first), json.dumps([first])))  # the same roll twice
    assert not again["ok"] and again["index"] == 0
    with pytest.raises(RulesError) as refused:  # the server's engine, on the same state
        apply(load_state(after_first["state"]), first)
    assert again["error"] == {"code": refused.value.code, "text": error_text(refused.value)}
    half = json.loads(phone.apply(state, json.dumps([first, first])))  # the second refused: none applied
    assert half == {**again, "index": 1}


def test_a_roll_out_of_turn_is_refused_with_the_engines_words():
    record = simulate("classic", "classic-pl", 3, seed=1, max_events=5)
    state = start(record)
    second = record["players"][1]["id"]
    out = json.loads(phone.apply(state, json.dumps([{"type": "roll", "player": second, "dice": [2, 3]}])))
    assert not out["ok"] and out["error"]["code"].startswith("roll.")
    view = json.loads(phone.view(state))
    assert view["now"]["roll"]["player"] == view["game"]["mover"] == record["players"][0]["id"]


def test_a_board_that_is_not_shipped_is_played_once_registered():
    data = {**json.loads((BOARDS_DIR / "classic-us.json").read_text()), "id": "my-edition"}
    set_board_loader(None)  # as in the phone: no stored editions to ask (the fixture puts the loader back)
    phone.use_board(json.dumps(data))
    try:
        record = {**simulate("classic", "classic-us", 2, seed=3, max_events=30), "board": "my-edition"}
        state = start(record)
        out = json.loads(phone.apply(state, json.dumps(record["events"])))
        assert out["ok"] and out["view"]["board"] == "my-edition"
        assert get_board("my-edition").squares == get_board("classic-us").squares
    finally:
        forget_board("my-edition")
