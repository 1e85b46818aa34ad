"""The banknotes each player should hold, and the referee's cash count (GAME_RECORD.md ``cash_count``)."""

import json

import pytest
from django.core.management import CommandError, call_command

from rules import RulesError, apply, load_record_file, replay
from rules.banknotes import Banknotes, banknotes
from rules.cash_counts import CashCounts
from rules.errors import RecordError
from rules.record import parse_event

PLAYERS = [{"id": "A", "name": "Anna"}, {"id": "B", "name": "Bartek"}, {"id": "C", "name": "Celina"}]
#: Anna buys Reading Railroad; Bartek, left with 10, lands on it: Anna is credited the rent of 25 in full,
#: 15 of it still owed.
DEBT = [
    {"type": "roll", "player": "A", "dice": [2, 3]},
    {"type": "buy", "player": "A"},
    {"type": "trade", "player": "B", "with": "C", "give": {"cash": 1490}},
    {"type": "roll", "player": "B", "dice": [2, 3]},
    {"type": "rent", "player": "B"},
]


def record(events, players=PLAYERS, variant="classic"):
    return {"variant": variant, "board": "classic-us", "players": players, "events": events}


def counted(events, players=PLAYERS):
    counts = CashCounts()
    result = replay(record(events, players), counts)
    assert result.ok, result.error
    return result, counts.last


def test_a_debt_outstanding_leaves_the_creditor_short_of_his_booked_cash():
    state = replay(record(DEBT)).state
    notes = banknotes(state)
    assert notes["A"] == Banknotes(1325, owed=(("B", 15),))
    assert notes["A"].expected == 1310  # 1300 + the 10 Bartek had
    assert notes["B"] == Banknotes(-10 - 5, owes=15, creditor="A", owes_to=(("A", 15),))
    assert notes["B"].expected == 0  # he holds nothing while in debt
    assert notes["C"].expected == notes["C"].cash == 2990


def test_a_pending_rent_is_not_owed_money():
    state = replay(record(DEBT[:4])).state  # the rent is pending, not claimed
    assert state.rents
    assert {pid: n.expected for pid, n in banknotes(state).items()} == {"A": 1300, "B": 10, "C": 2990}
    assert all(not n.owed and not n.owes for n in banknotes(state).values())


def test_a_debt_to_the_bank_is_owed_to_nobody_at_the_table():
    events = [
        {"type": "trade", "player": "A", "with": "B", "give": {"cash": 1400}},
        {"type": "roll", "player": "A", "dice": [1, 3]},  # Income Tax: 200 with 100 in hand
    ]
    notes = banknotes(replay(record(events)).state)
    assert notes["A"] == Banknotes(-100, owes=100, creditor="bank", owes_to=(("bank", 100),))
    assert notes["B"].expected == notes["B"].cash == 2900


def test_several_debtors_owe_one_creditor():
    events = [
        {"type": "trade", "player": "B", "with": "A", "give": {"cash": 1480}},
        {"type": "trade", "player": "C", "with": "A", "give": {"cash": 1480}},
        {"type": "roll", "player": "A", "dice": [3, 4]},  # Chance
        {"type": "card", "player": "A", "effect": {"kind": "collect_from_each_player", "amount": 50}},
    ]
    notes = banknotes(replay({**record(events), "board": "classic-pl"}).state)  # (its decks are not listed)
    assert notes["A"].owed == (("B", 30), ("C", 30))
    assert (notes["A"].cash, notes["A"].expected) == (4560, 4500)


def test_raising_the_money_pays_the_creditor():
    events = [
        *DEBT,
        {"type": "cash_count", "player": "A", "counted": 1310},
        {"type": "trade", "player": "C", "with": "B", "give": {"cash": 100}},  # Bartek borrows, pays Anna
        {"type": "cash_count", "player": "A", "counted": 1320},
    ]
    result, last = counted(events)
    assert banknotes(result.state)["A"] == Banknotes(1325)
    assert last["A"].expected == 1325 and last["A"].difference == -5
    assert [(c.event, c.amount) for c in last["A"].changes] == [(6, 15)]  # the move that paid him


#: Anna, with 10, rolls a double onto Bartek's Reading (25), then Celina's Connecticut (8): rents claimed.
TWO_CREDITORS = [
    {"type": "roll", "player": "A", "dice": [1, 2]},
    {"type": "buy", "player": "A"},
    {"type": "roll", "player": "B", "dice": [2, 3]},
    {"type": "buy", "player": "B"},
    {"type": "roll", "player": "C", "dice": [4, 5]},
    {"type": "buy", "player": "C"},
    {"type": "trade", "player": "A", "with": "B", "give": {"cash": 1430}},  # Anna keeps 10
    {"type": "roll", "player": "A", "dice": [1, 1]},  # Reading Railroad: Bartek's
    {"type": "roll", "player": "A", "dice": [2, 2]},  # Connecticut Avenue: Celina's
    {"type": "rent", "player": "A", "square": 5},
    {"type": "rent", "player": "A", "square": 9},
]


def test_one_debtor_owing_two_players_owes_each_his_own_part():
    """Anna, with 10, rolls a double onto Bartek's Reading (25) and then Celina's Connecticut (8), both rents
    claimed: Bartek got her 10 and is owed 15, Celina got nothing and is owed 8 — each counts his own."""
    events = TWO_CREDITORS
    state = replay(record(events)).state
    notes = banknotes(state)
    assert notes["A"] == Banknotes(-23, owes=23, creditor="B", owes_to=(("B", 15), ("C", 8)))
    assert notes["B"].owed == (("A", 15),) and notes["B"].expected == 1500 - 200 + 1430 + 10
    assert notes["C"].expected == notes["C"].cash - 8
    # Anna mortgages Baltic Avenue (+30): Bartek is paid his 15 first, then Celina 8; 7 left in her hand
    after = replay(record([*events, {"type": "mortgage", "player": "A", "square": 3}])).state
    notes = banknotes(after)
    assert not notes["B"].owed and not notes["C"].owed
    assert notes["A"] == Banknotes(7) and notes["B"].expected == notes["B"].cash


def test_a_partly_paid_debt_pays_the_first_player_owed_first():
    events = [
        *TWO_CREDITORS,
        {"type": "trade", "player": "C", "with": "A", "give": {"cash": 20}},  # 20 back: Bartek's 15, Celina 5
    ]
    notes = banknotes(replay(record(events)).state)
    # Bartek stays the engine's creditor (a bankruptcy would go to him); in banknotes Anna owes Celina 3
    assert notes["A"] == Banknotes(-3, owes=3, creditor="B", owes_to=(("C", 3),))
    assert not notes["B"].owed and notes["C"].owed == (("A", 3),)


def test_a_count_moves_nothing_and_is_narrated():
    before = replay(record(DEBT)).state
    out = apply(before, {"type": "cash_count", "player": "A", "counted": 1300})
    assert out.movements == ()
    assert [p.cash for p in out.state.players] == [p.cash for p in before.players]
    assert out.state.rents == before.rents and out.state.turn == before.turn
    assert [n.text for n in out.notes] == ["Anna's cash counted: 1300, expected 1310: 10 missing."]
    out = apply(before, {"type": "cash_count", "player": "A", "counted": 1310})
    assert [n.text for n in out.notes] == ["Anna's cash counted: 1310, as expected."]
    out = apply(before, {"type": "cash_count", "player": "B", "counted": 5})
    assert [n.text for n in out.notes] == ["Bartek's cash counted: 5, expected 0: 5 too much."]


def test_a_count_is_legal_while_a_decision_is_pending():
    state = replay(record(DEBT[:1])).state  # Anna has to decide on Reading Railroad
    out = apply(state, {"type": "cash_count", "player": "C", "counted": 1500})
    assert out.state.decision == state.decision


def test_after_a_bankruptcy_the_creditor_holds_his_cash():
    events = [
        *DEBT,
        {"type": "cash_count", "player": "A", "counted": 1310},
        {"type": "bankrupt", "player": "B"},
        {"type": "cash_count", "player": "A", "counted": 1310},
    ]
    result, last = counted(events)
    a = banknotes(result.state)["A"]
    assert a == Banknotes(1310) and a.expected == 1310  # the 15 never received is his cost now
    assert last["A"].event == 7 and last["A"].difference == 0
    with pytest.raises(RulesError) as e:  # a bankrupt player holds nothing to count
        apply(result.state, {"type": "cash_count", "player": "B", "counted": 0})
    assert e.value.code == "player.bankrupt"


def test_a_count_after_the_game_ended():
    two = PLAYERS[:2]
    events = [*DEBT, {"type": "bankrupt", "player": "B"}]
    events[2] = {"type": "trade", "player": "B", "with": "A", "give": {"cash": 1490}}
    state = replay(record(events, two)).state
    assert state.finished and state.end_reason == "last_player"
    out = apply(state, {"type": "cash_count", "player": "A", "counted": 2800})
    assert out.state.finished and out.state.players[0].cash == 2800
    result, last = counted([*events, {"type": "cash_count", "player": "A", "counted": 2790}], two)
    assert last["A"].as_dict() == {"event": 6, "counted": 2790, "expected": 2800, "difference": -10}
    with pytest.raises(RulesError) as e:  # nothing else goes after the end
        apply(state, {"type": "roll", "player": "A", "dice": [1, 2]})
    assert e.value.code == "game.finished"


@pytest.mark.parametrize(
    ("raw", "code", "words"),
    [
        ({"player": "Z", "counted": 10}, "event.unknown_player", "'player' must be one of the players"),
        ({"player": "A"}, "event.bad_amount", "'counted' must be a whole number ≥ 0, not null"),
        ({"player": "A", "counted": -5}, "event.bad_amount", "not -5"),
        ({"player": "A", "counted": 10.5}, "event.bad_amount", "not 10.5"),
        ({"player": "A", "counted": "10"}, "event.bad_amount", 'not "10"'),
        ({"player": "A", "counted": True}, "event.bad_amount", "not true"),
        ({"player": "A", "counted": 100_001}, "event.bad_counted", "a whole number 0–100000, not 100001"),
    ],
)
def test_a_bad_count_is_refused_in_plain_words(raw, code, words):
    state = replay(record(DEBT)).state
    with pytest.raises(RulesError) as e:
        apply(state, {"type": "cash_count", **raw})
    assert e.value.code == code and words in e.value.message


def test_the_count_is_kept_in_the_record(tmp_path):
    assert parse_event({"type": "cash_count", "player": "A", "counted": 0}, ["A", "B"]) == {
        "type": "cash_count",
        "player": "A",
        "counted": 0,
    }
    with pytest.raises(RecordError, match='has no field "x"'):  # a field no form sends
        parse_event({"type": "cash_count", "player": "A", "counted": 0, "x": 1}, ["A", "B"])
    events = [*DEBT, {"type": "cash_count", "player": "A", "counted": 1300}]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(events)))
    counts = CashCounts()
    result = replay(load_record_file(path), counts)
    assert result.ok and result.record.events[-1] == events[-1]
    assert counts.last["A"].as_dict() == {"event": 5, "counted": 1300, "expected": 1310, "difference": -10}


def test_the_moves_since_the_previous_count_explain_a_difference():
    events = [
        {"type": "cash_count", "player": "A", "counted": 1500},
        *DEBT,  # 1..5: Anna buys (−200), is credited 25 of which she received 10
        {"type": "cash_count", "player": "A", "counted": 1300},
    ]
    _result, last = counted(events)
    count = last["A"]
    assert (count.event, count.expected, count.difference) == (6, 1310, -10)
    assert [(c.event, c.amount) for c in count.changes] == [(2, -200), (5, 10)]
    assert count.earlier == 0
    assert "B" not in last


def test_a_count_as_expected_lists_nothing():
    _result, last = counted([*DEBT, {"type": "cash_count", "player": "A", "counted": 1310}])
    assert last["A"].changes == () and last["A"].difference == 0


def run(*args):
    from io import StringIO

    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_replay_reports_the_last_count_of_each_player_as_game_record_says(tmp_path):
    events = [
        *DEBT,
        {"type": "cash_count", "player": "A", "counted": 1300},
        {"type": "cash_count", "player": "B", "counted": 0},
        {"type": "cash_count", "player": "A", "counted": 1310},
    ]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(events)))
    out = json.loads(run("replay", str(path), "--format", "json"))
    players = {p["id"]: p for p in out["players"]}
    assert players["A"]["cash_count"] == {"event": 7, "counted": 1310, "expected": 1310, "difference": 0}
    assert players["B"]["cash_count"] == {"event": 6, "counted": 0, "expected": 0, "difference": 0}
    assert "cash_count" not in players["C"]
    assert players["A"]["cash"] == 1325  # the booking is as it was
    assert players["B"]["debt"] == {"amount": 15, "to": "A"}
    text = run("replay", str(path), "--format", "text")
    assert "[5] Anna's cash counted: 1300, expected 1310: 10 missing." in text
    assert "Anna: counted 1310, expected 1310, difference 0 (event 7)" in text


def test_replay_refuses_a_bad_count_with_its_index(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record([*DEBT, {"type": "cash_count", "player": "A", "counted": -1}])))
    with pytest.raises(CommandError):
        run("replay", str(path), "--format", "json")


def test_a_count_during_anti_monopolys_final_steps():
    from tests.support import anti_monopoly_table as table

    t = table(("C1", "M", "C2"), ending="two_hour")
    t.roll("C1", 1, 2)
    t("decline", player="C1")
    t("time_up")
    t.roll("M", 1, 2)
    t("decline", player="M")
    t.roll("C2", 5, 6)
    t("decline", player="C2")
    assert t.state.final_step == "dealings"
    t("cash_count", player="M", counted=1500)  # (A) dealings with the bank only: a count is no dealing
    t("final_keep")
    assert t.state.final_step == "tour"
    out = t("cash_count", player="C1", counted=t.cash("C1"))
    assert out.state.final_step == "tour" and out.movements == ()


def test_a_bankrupt_player_holds_nothing_to_count():
    events = [
        {"type": "trade", "player": "A", "with": "B", "give": {"cash": 1400}},
        {"type": "roll", "player": "A", "dice": [1, 3]},  # Income Tax: 200 with 100 in hand
        {"type": "bankrupt", "player": "A"},
    ]
    state = replay(record(events)).state
    assert state.by_id["A"].bankrupt
    with pytest.raises(RulesError) as e:
        apply(state, {"type": "cash_count", "player": "A", "counted": 0})
    assert e.value.code == "player.bankrupt"  # as any move of his
    apply(state, {"type": "cash_count", "player": "B", "counted": 2900})  # the others are counted as ever
