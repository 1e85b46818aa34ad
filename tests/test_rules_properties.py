"""Properties over many simulated games of every variant (issue: 'thousands of simulated games').

For each game: the record (through JSON) replays without error to the simulator's own final state; after
every event the ledger identity holds for every player still in, every movement's cash sums to zero, every
cash change is in a movement, and the houses and hotels on the board plus the bank's make the full stock;
money is conserved overall; and, for every fifth game, replaying twice gives the same result and a state
rebuilt from scratch at a random event equals the one updated event by event. RULES_PROPERTY_GAMES sets the
number of games per variant (400 by default: 2,000 games in all).
"""

import json
import os
import random

import pytest

from ledger import Ledger
from ledger.report import replay_ledger, summary
from rules import BANK, replay
from rules.record import EVENT_TYPES
from rules.simulate import Simulator
from rules.valuation import net_worths

GAMES = int(os.environ.get("RULES_PROPERTY_GAMES", "400"))
VARIANTS = [
    ("classic", "classic-us"),
    ("polish-table", "classic-pl"),
    ("short", "classic-us"),
    ("timed", "classic-pl"),
    ("tournament-pl", "classic-pl"),
    ("anti-monopoly", "anti-monopoly-us"),
]
ENDINGS = ("game_a", "game_b", "two_hour")  # Anti-Monopoly's, drawn per game


def check_game(variant, board, seed):
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    rounds = None if variant == "tournament-pl" else rng.choice([None, rng.randint(3, 40)])
    options = {"ending": rng.choice(ENDINGS)} if variant == "anti-monopoly" else None
    sim = Simulator(
        variant, board, players, seed, rounds, max_events=3000 if seed % 10 == 0 else 600, options=options
    )
    record = json.loads(json.dumps(sim.run()))
    v = sim.state.variant
    ledger = Ledger([p["id"] for p in record["players"]], v.starting_cash)
    cash_moves = dict.fromkeys(ledger.players, 0)
    bank_cash = 0
    # (every fifth game) the state after a random event, kept to compare with one rebuilt from scratch
    k = rng.randint(1, len(record["events"])) if record["events"] and not seed % 5 else None
    kept = []

    def check(i, out):  # after each event, as it is applied (the state is changed in place by the next one)
        nonlocal bank_cash
        s = out.state
        ledger.post(i, out.movements)
        for m in out.movements:
            assert sum(g.cash for g in m.legs) == 0
            for g in m.legs:
                if g.party == BANK:
                    bank_cash += g.cash
                else:
                    cash_moves[g.party] += g.cash
        hotels_on_board = houses_on_board = 0
        for h in s.holdings.values():
            if h.level:  # (an unbuilt street adds nothing: its owner's hotel level need not be asked)
                hotel = s.hotel_level(h.owner)
                hotels_on_board += h.level == hotel
                houses_on_board += h.level if h.level < hotel else 0
        assert s.houses + houses_on_board == v.bank_houses and s.hotels + hotels_on_board == v.bank_hotels
        worth = net_worths(s)
        for p in s.players:
            assert p.cash == v.starting_cash + cash_moves[p.id], (seed, i, p.id)
            if not p.bankrupt:
                assert worth[p.id] == ledger.equity(p.id), (seed, i, p.id)
        if i + 1 == k:
            kept.append(s.clone())

    result = replay(record, on_outcome=check)
    assert result.error is None, (seed, result.error)
    assert result.state == sim.state, seed
    final = result.state
    assert sum(p.cash - v.starting_cash for p in final.players) == -bank_cash  # money is conserved
    if seed % 5:
        return len(record["events"]), final.end_reason
    again, again_ledger = replay_ledger(record)
    assert summary(again.state, again_ledger) == summary(final, ledger)
    if k is not None:
        rebuilt = replay({**record, "events": record["events"][:k]}, keep=False)
        assert rebuilt.state == kept[0]
    return len(record["events"]), final.end_reason


END_REASONS = {
    "classic": {"last_player", "rounds"},
    "polish-table": {"bankruptcy", "last_player", "time", "rounds"},
    "short": {"bankruptcy", "last_player", "rounds"},
    "timed": {"last_player", "time", "rounds"},
    "tournament-pl": {"last_player", "rounds"},
    "anti-monopoly": {"last_player", "rounds", "role_eliminated", "time"},
}


#: Each variant's games in this many parts (seeds in a row), each a test of its own: the suite's workers
#: share them out.
PARTS = 4


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize(("variant", "board"), VARIANTS)
def test_simulated_games_replay_and_keep_the_books(variant, board, part):
    events, reasons = 0, set()
    seeds = range(part * GAMES // PARTS, (part + 1) * GAMES // PARTS)  # a tenth of each part long games
    for seed in seeds:
        n, reason = check_game(variant, board, seed)
        events += n
        reasons.add(reason)
    assert reasons - {None} <= END_REASONS[variant]  # games end only the way the variant says
    assert events > len(seeds) * 30


def test_apply_leaves_the_given_state_untouched():
    from rules import apply

    sim = Simulator("classic", "classic-us", 4, 3, rounds=15)
    record = sim.run()
    result = replay({**record, "events": []})
    state = result.state
    for ev in record["events"]:
        before = state.clone()
        new = apply(state, ev).state
        assert state == before
        state = new


def test_a_refused_event_changes_nothing_even_in_place():
    """``apply(..., in_place=True)`` checks before it changes: a refused event leaves the state as it was."""
    from rules import RulesError, apply

    rng = random.Random(7)
    refused = 0
    for seed, (variant, board) in enumerate(VARIANTS * 2):
        sim = Simulator(variant, board, rng.randint(2, 5), seed, rounds=30)
        record = sim.run()
        ids = [p["id"] for p in record["players"]]
        state = replay({**record, "events": []}).state
        for k, ev in enumerate(record["events"]):
            if k % 3 == 0:
                for _ in range(4):
                    bad = random_event(rng, ids)
                    before = state.clone()
                    try:
                        apply(state, bad, in_place=True)
                    except RulesError:
                        refused += 1
                        assert state == before, (seed, k, bad)
                    else:
                        state = before  # accepted: go on with the game as recorded
            apply(state, ev, in_place=True)
    assert refused > 1000


def random_event(rng: random.Random, ids: list[str]) -> dict:
    kind = rng.choice(EVENT_TYPES)  # final_roll too: not an event of these variants
    sq = rng.randrange(40)
    ev = {"type": kind, "player": rng.choice(ids)}
    if kind == "roll":
        ev["dice"] = [rng.randint(1, 6), rng.randint(1, 6)]
    elif kind == "auction":
        ev.update(square=sq, winner=rng.choice([*ids, None]), price=rng.choice([0, 1, 50, 400, 5000]))
    elif kind in ("build", "sell_building"):
        ev.update(square=sq, count=rng.randint(1, 5))
    elif kind in ("mortgage", "unmortgage", "rent"):
        ev["square"] = sq
    elif kind == "card":
        ev["effect"] = rng.choice(
            [{"kind": "collect", "amount": 10}, {"kind": "move_to", "square": sq}, {"kind": "jail_card"}]
        )
    elif kind == "trade":
        ev.update(
            {
                "with": rng.choice(ids),
                "give": {"squares": [sq], "cash": rng.choice([0, 10, 9999])},
                "get": {"cash": rng.choice([0, 10])},
            }
        )
    elif kind == "deal":
        ev["squares"] = [sq]
    if rng.random() < 0.2:
        ev["amount"] = rng.choice([0, 1, 100])
    return ev
