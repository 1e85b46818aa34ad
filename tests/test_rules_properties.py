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
from ledger.report import ledger_for, summary
from rules import BANK, replay
from rules.simulate import Simulator
from rules.valuation import net_worth

GAMES = int(os.environ.get("RULES_PROPERTY_GAMES", "400"))
VARIANTS = [
    ("classic", "classic-us"),
    ("polish-table", "classic-pl"),
    ("short", "classic-us"),
    ("timed", "classic-pl"),
    ("tournament-pl", "classic-pl"),
]


def check_game(variant, board, seed):
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    rounds = None if variant == "tournament-pl" else rng.choice([None, rng.randint(3, 40)])
    sim = Simulator(variant, board, players, seed, rounds, max_events=3000 if seed % 10 == 0 else 600)
    record = json.loads(json.dumps(sim.run()))
    result = replay(record)
    assert result.error is None, (seed, result.error)
    assert result.state == sim.state, seed

    v = result.state.variant
    ledger = Ledger([p["id"] for p in record["players"]], v.starting_cash)
    cash_moves = dict.fromkeys(ledger.players, 0)
    bank_cash = 0
    for i, out in enumerate(result.outcomes):
        s = out.state
        ledger.post(i, out.movements)
        for m in out.movements:
            assert sum(g.cash for g in m.legs) == 0
            for g in m.legs:
                if g.party == BANK:
                    bank_cash += g.cash
                else:
                    cash_moves[g.party] += g.cash
        hotels_on_board = sum(1 for h in s.holdings.values() if h.level == v.hotel_level)
        houses_on_board = sum(h.level for h in s.holdings.values() if h.level < v.hotel_level)
        assert s.houses + houses_on_board == v.bank_houses and s.hotels + hotels_on_board == v.bank_hotels
        for p in s.players:
            assert p.cash == v.starting_cash + cash_moves[p.id], (seed, i, p.id)
            if not p.bankrupt:
                assert net_worth(s, p.id) == ledger.equity(p.id), (seed, i, p.id)
    final = result.state
    assert sum(p.cash - v.starting_cash for p in final.players) == -bank_cash  # money is conserved

    if seed % 5:
        return len(record["events"]), final.end_reason
    again = replay(record)
    assert summary(again.state, ledger_for(again)) == summary(final, ledger_for(result))
    if result.outcomes:
        k = rng.randint(1, len(result.outcomes))
        rebuilt = replay({**record, "events": record["events"][:k]}, keep=False)
        assert rebuilt.state == result.outcomes[k - 1].state
    return len(record["events"]), final.end_reason


END_REASONS = {
    "classic": {"last_player", "rounds"},
    "polish-table": {"bankruptcy", "last_player", "time", "rounds"},
    "short": {"bankruptcy", "last_player", "rounds"},
    "timed": {"last_player", "time", "rounds"},
    "tournament-pl": {"last_player", "rounds"},
}


@pytest.mark.parametrize(("variant", "board"), VARIANTS)
def test_simulated_games_replay_and_keep_the_books(variant, board):
    events, reasons = 0, set()
    for seed in range(GAMES):
        n, reason = check_game(variant, board, seed)
        events += n
        reasons.add(reason)
    assert reasons - {None} <= END_REASONS[variant]  # games end only the way the variant says
    assert events > GAMES * 30


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
