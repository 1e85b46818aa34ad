"""The trade flags' rules (rules/trade_flags.py): what a trade moves, read from the engine's movements (a
street, a mortgaged one, Anti-Monopoly's), the three rules at their edges, and every gift planted in simulated
tournaments found (tests/trade_flag_sims.py)."""

from rules import apply, legal
from rules.trade_flags import PairTrade, Trade, TradeReading, game_flags, pair_flags
from rules.valuation import net_worths, property_value
from tests.trade_flag_sims import GiftSimulator, measure, sim_tournament

NONE = {"squares": [], "cash": 0, "jail_cards": 0}


def large(trades, cash=300, percent=20):
    return [f for f in game_flags(7, trades, {}, cash, percent, 20) if f.kind == "large"]


def test_a_trade_exactly_at_the_threshold_is_not_flagged_one_more_is():
    assert large([Trade(5, "A", "B", 300, 1500)]) == []
    (f,) = large([Trade(5, "A", "B", 301, 1500)])
    assert (f.giver, f.receiver, f.value, f.threshold, f.key) == ("A", "B", 301, 300, "large:g7:s5")


def test_the_threshold_is_the_larger_of_the_sum_and_the_share_of_the_givers_net_worth():
    assert large([Trade(5, "A", "B", 400, 2000)]) == []  # 20 % of 2000 = 400 > 300
    assert [f.threshold for f in large([Trade(5, "A", "B", 401, 2000)])] == [400]
    assert [f.threshold for f in large([Trade(5, "A", "B", 301, 1000)])] == [300]  # 20 % of 1000 < 300
    assert large([Trade(5, "A", "B", 300, 1000)], cash=0, percent=30) == []  # the share alone: 300
    assert [f.threshold for f in large([Trade(5, "A", "B", 301, 1000)], cash=0, percent=30)] == [300]
    assert [f.threshold for f in large([Trade(5, "A", "B", 301, -50)])] == [300]  # a worth below 0: the sum
    assert large([Trade(5, "", "", 0, 0)]) == []  # a trade at book value moves nothing


def test_a_trade_by_the_giver_within_n_moves_of_his_bankruptcy_is_flagged_not_at_n_plus_one():
    trade = Trade(10, "A", "B", 50, 1500)

    def flagged(bankruptcies):
        return [(f.kind, f.detail, f.threshold) for f in game_flags(1, [trade], bankruptcies, 300, 20, 20)]

    assert flagged({"A": 30}) == [("bankrupt", 30, 20)]
    assert flagged({"A": 31}) == []
    assert flagged({"A": 10}) == [("bankrupt", 10, 20)]
    assert flagged({"A": 9}) == []  # bankrupt before it: not his trade's doing
    assert flagged({"B": 12}) == []  # the receiver who fails was helped, not used


def test_a_pair_trading_value_one_way_over_several_trades_is_flagged_once():
    def pair(*trades):
        return pair_flags([PairTrade(g, s, a, b, v, w) for g, s, a, b, v, w in trades], 300, 20)

    (f,) = pair((1, 4, "p7", "p3", 200, 1500), (2, 9, "p7", "p3", 200, 1500))
    # two thirds of a threshold of 300 each: 133 % of one, net 400 moved from p7 to p3
    assert (f.key, f.giver, f.receiver, f.value, f.threshold, f.detail, f.game, f.seq) == (
        "pair:p3:p7",
        "p7",
        "p3",
        400,
        132,  # (66 + 66: each share rounded down to whole hundredths)
        2,
        2,
        9,
    )
    assert pair((1, 4, "p7", "p3", 400, 1500)) == []  # one trade: rule (a)'s business
    assert pair((1, 4, "p7", "p3", 200, 1500), (2, 9, "p3", "p7", 150, 1500)) == []  # 66 % − 50 %
    assert pair((1, 4, "p7", "p3", 150, 1500), (2, 9, "p7", "p3", 150, 1500)) == []  # 50 % + 50 %: at it
    assert [f.threshold for f in pair((1, 4, "p7", "p3", 153, 1500), (2, 9, "p7", "p3", 150, 1500))] == [101]
    # each trade against the threshold of its own moment: 200 at 1,500 (of 300) and 200 at 2,500 (of 500)
    assert [f.threshold for f in pair((1, 4, "p7", "p3", 200, 1500), (2, 9, "p7", "p3", 200, 2500))] == [106]
    # gifts made poor are not hidden by the giver growing rich later (an average worth would hide them)
    rich_later = pair(
        (1, 4, "p7", "p3", 190, 1500), (1, 8, "p7", "p3", 190, 1500), (3, 5, "p7", "p3", 10, 30000)
    )
    assert [(f.giver, f.value, f.threshold) for f in rich_later] == [("p7", 390, 126)]
    # nor cancelled by a few coins back when rich; a trade back of the same weight cancels
    assert pair((1, 4, "p7", "p3", 190, 1500), (1, 8, "p7", "p3", 190, 1500), (3, 5, "p3", "p7", 400, 20000))
    assert (
        pair((1, 4, "p7", "p3", 190, 1500), (1, 8, "p7", "p3", 190, 1500), (3, 5, "p3", "p7", 300, 1500))
        == []
    )
    # the other way round: the giver is whoever gave on balance
    assert [(f.giver, f.receiver) for f in pair((1, 4, "p3", "p7", 250, 0), (2, 9, "p3", "p7", 250, 0))] == [
        ("p3", "p7")
    ]
    # both settings 0 (every trade flagged by rule (a)): the pair's shares do not divide by 0
    assert pair_flags([PairTrade(1, 4, "p7", "p3", 5, 0), PairTrade(2, 9, "p7", "p3", 5, 0)], 0, 0)


def _quiet_state(variant, board, want, seed=0):
    """A simulated game played until nothing is pending and ``want(state)`` finds something."""
    sim = GiftSimulator(variant, board, 4, seed, 200)
    while not sim.state.finished:
        if sim._quiet():
            found = want(sim.state)
            if found is not None:
                return sim.state, found
        sim.step()
    raise AssertionError("never found")


def _gift(state, giver, receiver, squares=(), cash=0):
    before = net_worths(state)
    reading = TradeReading()
    give = {**NONE, "squares": list(squares), "cash": cash}
    out = apply(state, {"type": "trade", "player": giver, "with": receiver, "give": give, "get": NONE})
    reading(0, out)
    return reading.trades, before


def test_a_mortgaged_street_moves_its_book_value_the_transfer_fee_is_no_part_of_it():
    def mortgaged(s):
        for p in s.active_players:
            for sq in legal.tradable(s, p):
                if s.holdings[sq].mortgaged:
                    return p.id, sq
        return None

    state, (giver, sq) = _quiet_state("classic", "classic-us", mortgaged)
    receiver = next(p.id for p in state.active_players if p.id != giver)
    (t,), before = _gift(state, giver, receiver, [sq])
    value = property_value(state, sq, True)
    assert value == state.board.squares[sq].price - state.board.squares[sq].mortgage
    assert (t.giver, t.receiver, t.value, t.giver_worth) == (giver, receiver, value, before[giver])


def test_an_anti_monopoly_gift_of_a_street_and_cash():
    def street(s):
        for p in s.active_players:
            tradable = [sq for sq in legal.tradable(s, p) if not s.holdings[sq].mortgaged]
            if tradable and p.cash > 100:
                return p.id, tradable[0]
        return None

    state, (giver, sq) = _quiet_state("anti-monopoly", "anti-monopoly-us", street, seed=3)
    assert state.variant.roles
    receiver = next(p.id for p in state.active_players if p.id != giver)
    (t,), before = _gift(state, giver, receiver, [sq], cash=100)
    assert (t.giver, t.value, t.giver_worth) == (giver, state.board.squares[sq].price + 100, before[giver])
    flags = game_flags(1, [t], {}, 0, 0, 20)
    assert [f.kind for f in flags] == ["large"]


def test_a_fair_trade_for_cash_moves_what_the_price_and_the_cash_differ_by():
    def street(s):
        for p in s.active_players:
            for sq in legal.tradable(s, p):
                if not s.holdings[sq].mortgaged:
                    buyer = next((b for b in s.active_players if b.id != p.id and b.cash > 1000), None)
                    if buyer is not None:
                        return p.id, buyer.id, sq
        return None

    state, (seller, buyer, sq) = _quiet_state("classic", "classic-us", street, seed=1)
    price = state.board.squares[sq].price
    reading = TradeReading()
    give = {**NONE, "squares": [sq]}
    event = {
        "type": "trade",
        "player": seller,
        "with": buyer,
        "give": give,
        "get": {**NONE, "cash": price + 50},
    }
    reading(3, apply(state, event))
    (t,) = reading.trades
    assert (t.seq, t.giver, t.receiver, t.value) == (3, buyer, seller, 50)  # the buyer overpaid by 50


def test_every_planted_gift_is_found_and_an_honest_tournament_is_read_too():
    measured = measure(sim_tournament(0, gifts=True))
    measured = measure(sim_tournament(1, gifts=True), measured)
    assert measured.planted >= 20  # a large gift in most games, the pair's small ones
    assert (measured.found, measured.missed) == (measured.planted, [])
    honest = measure(sim_tournament(2))
    assert honest.planted == 0 and honest.trades > 0 and honest.games == 12
