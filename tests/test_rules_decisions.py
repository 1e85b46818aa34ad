"""The decisions of RULES.md §1 ("More decisions where the seeds are silent or disagree") and the last row of
§2 (bankruptcy to a player), one test (or a few) per decision, each named after the rule it checks.

Board squares (classic-us): 1 Mediterranean, 3 Baltic, 4 Income Tax 200, 5 Reading RR, 6/8/9 light blue,
7 Chance, 10 jail, 12 Electric Co, 13 States Ave, 15 Pennsylvania RR, 18 Tennessee Ave, 27 Ventnor Ave,
28 Water Works, 30 Go to Jail, 37 Park Place, 38 Luxury Tax 100, 39 Boardwalk.
"""

from __future__ import annotations

import pytest

from rules import BANK, RulesError, apply, available_variants, get_board, make_variant, new_game, replay
from rules.simulate import Simulator, simulate
from rules.valuation import net_worth
from tests.support import Table


def refused(t: Table, type: str, **fields) -> RulesError:
    """The event is refused, whatever the code, and changes nothing."""
    before = t.state.clone()
    with pytest.raises(RulesError) as e:
        apply(t.state, {"type": type, **fields})
    assert t.state == before, "a refused event changed the state"
    return e.value


def bankruptcy_movement(out):
    (m,) = [m for m in out.movements if m.kind == "bankruptcy"]
    return m


def trade(t: Table, player: str, other: str, give=None, get=None):
    return t("trade", **{"player": player, "with": other, "give": give or {}, "get": get or {}})


def visit(t: Table, *players: str) -> None:
    """Each of ``players`` takes a harmless turn: from Go to Just Visiting."""
    for pid in players:
        t.place(pid, 0)
        t.roll(pid, 4, 6)


# -- rent lapses when the next player rolls ----------------------------------------------------------------
def test_rent_lapses_at_next_player_roll_is_the_default_of_every_variant():
    for variant in available_variants():
        assert make_variant(variant).rent_lapses_at == "next_player_roll", variant


def test_rent_of_the_first_landing_survives_the_extra_roll_and_several_rents_may_be_pending():
    t = Table()
    t.give("C", 8).give("B", 18)
    t.roll("A", 4, 4)  # 8 Vermont Avenue (C's): rent 6
    t.roll("A", 4, 6)  # 18 Tennessee Avenue (B's): rent 14; the first rent still stands
    pending = sorted((r.square, r.payer, r.owner, r.amount) for r in t.state.rents)
    assert pending == [(8, "A", "C", 6), (18, "A", "B", 14)]
    t("rent", player="A", square=8)  # a rent event names its square
    assert (t.cash("A"), t.cash("B"), t.cash("C")) == (1494, 1500, 1506)
    assert [(r.square, r.owner) for r in t.state.rents] == [(18, "B")]
    t("rent", player="A", square=18)
    assert (t.cash("A"), t.cash("B"), t.cash("C")) == (1480, 1514, 1506)
    assert t.state.rents == ()


def test_rent_lapses_at_the_next_players_roll():
    t = Table()
    t.give("C", 8).give("B", 18)
    t.roll("A", 4, 4)  # 8: C's rent
    t.roll("A", 4, 6)  # 18: B's rent
    t("rent", player="A", square=18)
    t.roll("B", 4, 6)  # the next player rolls: C's unclaimed rent lapses
    assert t.state.rents == ()
    t.fails("rent.none", "rent", player="A", square=8)
    assert t.cash("C") == 1500


def test_rent_lapses_at_next_roll_with_the_old_option():
    t = Table(options={"rent_lapses_at": "next_roll"})
    t.give("C", 8).give("B", 18)
    t.roll("A", 4, 4)  # 8: C's rent
    t.roll("A", 4, 6)  # the payer's own extra roll ends it under the old rule
    assert [(r.square, r.owner) for r in t.state.rents] == [(18, "B")]
    t.fails("rent.none", "rent", player="A", square=8)
    t("rent", player="A", square=18)
    assert (t.cash("B"), t.cash("C")) == (1514, 1500)


# -- paying what you have not got: voluntary spends are covered by cash, imposed payments are not ---------
def test_voluntary_spend_must_be_covered_by_cash_buy():
    t = Table()
    t.set_cash("A", 99)
    t.roll("A", 2, 4)  # 6 Oriental Avenue, 100
    t.fails("money.insufficient", "buy", player="A")
    t.set_cash("A", 100)  # exactly the price will do
    t("buy", player="A")
    assert t.cash("A") == 0 and t.state.owner_of(6) == "A"


def test_voluntary_spend_must_be_covered_by_cash_auction_bid():
    t = Table()
    t.set_cash("B", 80)
    t.roll("A", 2, 4)
    t("decline", player="A")
    t.fails("money.insufficient", "auction", square=6, winner="B", price=81)
    t("auction", square=6, winner="B", price=80)
    assert t.cash("B") == 0 and t.state.owner_of(6) == "B"


def test_voluntary_spend_must_be_covered_by_cash_build():
    t = Table()
    t.give("A", 1, 3).set_cash("A", 49)  # a house costs 50
    t.fails("money.insufficient", "build", player="A", square=1)
    t.set_cash("A", 99)
    t("build", player="A", square=1)
    t.fails("money.insufficient", "build", player="A", square=3, count=2)  # 100 for two levels


def test_voluntary_spend_must_be_covered_by_cash_unmortgage():
    t = Table()
    t.give("A", 39, mortgaged=True).set_cash("A", 219)  # loan 200 + 10 %
    t.fails("money.insufficient", "unmortgage", player="A", square=39)
    t.set_cash("A", 220)
    t("unmortgage", player="A", square=39)
    assert t.cash("A") == 0


def test_voluntary_spend_must_be_covered_by_cash_trade():
    t = Table()
    t.give("B", 39).set_cash("A", 399)
    t.fails(
        "trade.cash", "trade", **{"player": "A", "with": "B", "give": {"cash": 400}, "get": {"squares": [39]}}
    )
    t.fails(
        "trade.cash", "trade", **{"player": "B", "with": "A", "give": {"squares": [39]}, "get": {"cash": 400}}
    )
    trade(t, "A", "B", give={"cash": 399}, get={"squares": [39]})
    assert t.cash("A") == 0 and t.state.owner_of(39) == "A"


def test_voluntary_spend_must_be_covered_by_cash_jail_fine():
    t = Table()
    t.place("A", 25)
    t.roll("A", 2, 3)  # 30: Go to Jail
    visit(t, "B", "C")
    t.set_cash("A", 49)
    t.fails("money.insufficient", "jail_fine", player="A")
    t.set_cash("A", 50)
    t("jail_fine", player="A")
    assert not t.p("A").in_jail and t.cash("A") == 0


def test_imposed_payment_may_take_cash_below_zero_rent():
    t = Table()
    t.give("B", 6).set_cash("A", 5)
    t.roll("A", 2, 4)  # Oriental Avenue (B's): rent 6
    t("rent", player="A")
    assert t.cash("A") == -1 and t.cash("B") == 1506
    t.fails("pending.debt", "roll", player="B", dice=[1, 2])


def test_imposed_payment_may_take_cash_below_zero_tax():
    t = Table()
    t.set_cash("A", 100)
    t.roll("A", 1, 3)  # Income Tax 200
    assert t.cash("A") == -100
    t.fails("pending.debt", "roll", player="B", dice=[1, 2])


def test_imposed_payment_may_take_cash_below_zero_card():
    t = Table()
    t.set_cash("A", 10)
    t.roll("A", 3, 4)  # Chance
    t("card", player="A", card="chance:chairman-of-the-board")  # pay each player 50
    assert (t.cash("A"), t.cash("B"), t.cash("C")) == (-90, 1550, 1550)
    t.fails("pending.debt", "roll", player="B", dice=[1, 2])


# -- bankruptcy to the bank ----------------------------------------------------------------------------------
def test_bankruptcy_to_the_bank_auctions_free_of_mortgage_until_next_roll():
    t = Table()
    t.give("A", 1, 3, mortgaged=True).set_cash("A", 100).place("A", 1)
    t.roll("A", 1, 2)  # 4: Income Tax 200; his squares are mortgaged already: insolvent
    out = t("bankrupt", player="A")
    assert bankruptcy_movement(out).detail == BANK
    assert t.state.holdings == {}  # back with the bank
    t("auction", square=1, winner="B", price=10)
    h = t.state.holdings[1]
    assert (h.owner, h.mortgaged, h.level) == ("B", False, 0)  # free of mortgage
    assert t.cash("B") == 1490  # the price alone: no 10 % on a mortgage, there is none
    t.roll("B", 4, 6)  # the next roll closes the bank's sale
    t.fails("auction.not_pending", "auction", square=3, winner="C", price=10)
    assert 3 not in t.state.holdings  # not sold: stays with the bank, unowned and unmortgaged
    t.place("C", 0)
    t.roll("C", 1, 2)  # 3 Baltic Avenue: for sale at the printed price
    t("buy", player="C")
    h = t.state.holdings[3]
    assert (h.owner, h.mortgaged) == ("C", False) and t.cash("C") == 1440


# -- mortgaged railways and utilities count for "number owned" --------------------------------------------
def test_mortgaged_railroads_count_for_number_owned():
    t = Table()
    t.give("B", 5).give("B", 15, mortgaged=True)
    t.roll("A", 1, 4)  # Reading Railroad: 2 railroads owned, one of them mortgaged
    assert [(r.square, r.amount) for r in t.state.rents] == [(5, 50)]


def test_mortgaged_utilities_count_for_number_owned():
    t = Table()
    t.give("B", 12).give("B", 28, mortgaged=True).place("A", 7)
    t.roll("A", 2, 3)  # Electric Company: both utilities owned, one mortgaged: 10 × 5
    assert [(r.square, r.amount) for r in t.state.rents] == [(12, 50)]


# -- lifting a mortgage just received ---------------------------------------------------------------------
def test_mortgage_received_lifted_before_receivers_next_roll_costs_only_the_loan():
    """002: the receiver pays 10 % at once and may lift the mortgage at once for the loan + that 10 %."""
    t = Table()
    t.give("A", 39, mortgaged=True)  # loan 200
    t.roll("A", 4, 6)  # Just Visiting
    trade(t, "A", "B", give={"squares": [39]}, get={"cash": 100})
    assert t.cash("B") == 1500 - 100 - 20
    t("unmortgage", player="B", square=39, amount=200)
    assert t.cash("B") == 1500 - 100 - 20 - 200
    assert not t.state.holdings[39].mortgaged
    assert [(line.kind, line.cost) for line in t.ledger.lines("B") if line.cost] == [("transfer_fee", 20)]


def test_mortgage_received_lifted_before_receivers_next_roll_even_after_another_players_roll():
    """'before the receiver's next roll' (RULES.md §1): another player's roll does not end it."""
    t = Table()
    t.give("A", 39, mortgaged=True)
    t.roll("A", 4, 6)
    trade(t, "A", "C", give={"squares": [39]}, get={"cash": 100})  # C receives it in A's turn
    t.roll("B", 4, 6)  # B's roll: C has not rolled yet
    t("unmortgage", player="C", square=39, amount=200)
    assert t.cash("C") == 1500 - 100 - 20 - 200


def test_mortgage_received_in_a_bankruptcy_lifted_before_receivers_next_roll_costs_only_the_loan():
    t = Table()
    t.give("C", 39, level=5).give("A", 37, mortgaged=True).set_cash("A", 10).place("A", 35)
    t.roll("A", 1, 3)  # Boardwalk (C's hotel)
    t("rent", player="A")
    t("bankrupt", player="A")  # C receives Park Place mortgaged and pays 18 (10 % of 175, rounded up)
    t.roll("B", 4, 6)  # B's roll: C has not rolled since he received it
    t("unmortgage", player="C", square=37, amount=175)
    assert not t.state.holdings[37].mortgaged


def test_mortgage_received_lifted_after_receivers_next_roll_costs_another_ten_percent():
    t = Table()
    t.give("A", 39, mortgaged=True)
    t.roll("A", 4, 6)
    trade(t, "A", "B", give={"squares": [39]}, get={"cash": 100})
    t.roll("B", 4, 6)  # the receiver's next roll
    t.fails("amount.mismatch", "unmortgage", player="B", square=39, amount=200)
    t("unmortgage", player="B", square=39, amount=220)
    assert t.cash("B") == 1500 - 100 - 20 - 220
    assert sum(line.cost for line in t.ledger.lines("B")) == 40  # the fee on receipt and the interest


def test_tournament_mortgage_received_pays_no_fee_and_ten_percent_when_lifted():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 39, mortgaged=True)
    t.roll("A", 4, 6)
    trade(t, "A", "B", give={"squares": [39]}, get={"cash": 100})
    assert t.cash("B") == 1400  # no fee on receipt
    t.fails("amount.mismatch", "unmortgage", player="B", square=39, amount=200)
    t("unmortgage", player="B", square=39, amount=220)  # even at once: the 10 % is paid when lifting
    assert t.cash("B") == 1400 - 220
    assert [(line.kind, line.cost) for line in t.ledger.lines("B") if line.cost] == [("unmortgage", 20)]


# -- selling hotels ------------------------------------------------------------------------------------------
def test_selling_hotels_classic_follows_the_even_selling_rule():
    t = Table()
    t.give("A", 37, 39, level=5)
    t.fails("sell.uneven", "sell_building", player="A", square=39, count=5)  # the whole hotel: uneven
    t("sell_building", player="A", square=39)  # one hotel alone may go (002's "all at once" not followed)
    assert (t.state.holdings[37].level, t.state.holdings[39].level) == (5, 4)
    t.fails("sell.uneven", "sell_building", player="A", square=39)
    t("sell_building", player="A", square=37)
    t("sell_building", player="A", square=39)
    assert (t.state.holdings[37].level, t.state.holdings[39].level) == (4, 3)


def test_selling_hotels_tournament_is_not_even():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 37, 39, level=5)
    t("sell_building", player="A", square=39, count=5)
    assert (t.state.holdings[37].level, t.state.holdings[39].level) == (5, 0)
    assert t.cash("A") == 1500 + 5 * 100


# -- count > 1 in build / sell_building -------------------------------------------------------------------
def test_build_count_is_single_levels_each_legal_when_added():
    t = Table()
    t.give("A", 1, 3)
    t.fails("build.uneven", "build", player="A", square=1, count=2)  # the 2nd level breaks even building
    t("build", player="A", square=3)
    t("build", player="A", square=1, count=2)
    assert (t.state.holdings[1].level, t.state.holdings[3].level) == (2, 1)
    assert t.cash("A") == 1500 - 3 * 50 and t.state.houses == 32 - 3


def test_build_count_refused_whole_when_the_bank_runs_out_of_houses_mid_way():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 39)
    t.state.houses = 1
    t.fails("bank.no_houses", "build", player="A", square=39, count=2)


def test_build_count_refused_whole_when_the_bank_has_no_hotel_for_the_last_level():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 39, level=3)
    t.state.hotels = 0
    t.fails("bank.no_hotels", "build", player="A", square=39, count=2)  # 4th house fine, the hotel not


def test_sell_building_count_is_single_levels_each_legal_when_removed():
    t = Table()
    t.give("A", 1, 3, level=2)
    t.fails("sell.uneven", "sell_building", player="A", square=1, count=2)  # the 2nd level breaks evenness
    t("sell_building", player="A", square=1)
    t("sell_building", player="A", square=3, count=2)
    assert (t.state.holdings[1].level, t.state.holdings[3].level) == (1, 0)


# -- time_up -------------------------------------------------------------------------------------------------
def timed_table():
    t = Table("timed", players=("A", "B"), options={"time_limit_minutes": 90})  # the game's clock
    t("deal", player="A", squares=[1, 3])
    t("deal", player="B", squares=[6, 8])
    return t


def test_time_up_between_two_rounds_ends_the_game_at_once():
    t = timed_table()
    t.roll("A", 4, 6)  # Just Visiting
    t.roll("B", 4, 6)  # the round is complete; the next round's first roll has not come
    t("time_up")
    assert t.state.finished and t.state.end_reason == "time" and t.state.round == 1
    t.fails("game.finished", "roll", player="A", dice=[1, 2])


def test_time_up_in_mid_round_waits_for_the_round_to_finish():
    t = timed_table()
    t.roll("A", 4, 6)
    t("time_up")
    assert not t.state.finished
    t.roll("B", 4, 6)
    assert t.state.finished and t.state.end_reason == "time" and t.state.round == 1


def test_time_up_after_the_last_players_double_waits_for_his_extra_roll():
    t = timed_table()
    t.roll("A", 4, 6)
    t.roll("B", 5, 5)  # Just Visiting, and B rolls again: the round is not complete
    t("time_up")
    assert not t.state.finished
    t.roll("B", 1, 3)  # 14 Virginia Avenue
    t("decline", player="B")
    t("auction", square=14, winner=None, price=0)
    assert t.state.finished and t.state.end_reason == "time" and t.state.round == 1


# -- a double that frees a player from jail (tournament-pl) --------------------------------------------------
def jailed_tournament():
    t = Table("tournament-pl", "classic-pl")
    t.place("A", 25)
    t.roll("A", 2, 3)  # Go to jail
    visit(t, "B", "C")
    return t


def test_tournament_double_leaving_jail_counts_as_first_double_of_the_turn():
    t = jailed_tournament()
    t.roll("A", 2, 2)  # leaves jail: 14 Ulica Grochowska, and rolls again
    assert not t.p("A").in_jail and t.p("A").position == 14
    t("decline", player="A")
    t("auction", square=14, winner=None, price=0)
    t.fails("roll.not_your_turn", "roll", player="B", dice=[1, 2])
    t.roll("A", 3, 3)  # the second double of the turn: straight to jail, the token does not move 6
    assert t.p("A").in_jail and t.p("A").position == 10
    t.roll("B", 4, 6)  # the turn has passed


def test_tournament_double_leaving_jail_then_an_ordinary_roll_ends_the_turn():
    t = jailed_tournament()
    t.roll("A", 2, 2)
    t("decline", player="A")
    t("auction", square=14, winner=None, price=0)
    t.roll("A", 1, 2)  # 17 Kasa Społeczna
    t("card", player="A", effect={"kind": "collect", "amount": 10})
    assert not t.p("A").in_jail and t.p("A").position == 17
    t.roll("B", 4, 6)


# -- cards -------------------------------------------------------------------------------------------------
def test_nearest_card_unowned_square_may_be_bought():
    t = Table()
    t.roll("A", 3, 4)  # Chance
    t("card", player="A", card="chance:advance-to-nearest-railroad")
    assert t.p("A").position == 15
    t.fails("pending.buy", "roll", player="B", dice=[1, 2])
    t("buy", player="A")
    assert t.state.owner_of(15) == "A" and t.cash("A") == 1300


def test_nearest_card_unowned_square_may_be_declined_to_auction():
    t = Table()
    t.roll("A", 3, 4)
    t("card", player="A", card="chance:advance-to-nearest-utility")
    assert t.p("A").position == 12
    t("decline", player="A")
    t.fails("pending.auction", "roll", player="B", dice=[1, 2])
    t("auction", square=12, winner="B", price=120)
    assert t.state.owner_of(12) == "B" and t.cash("B") == 1380


def test_nearest_card_by_effect_unowned_square_declined_goes_to_auction_tournament():
    t = Table("tournament-pl", "classic-pl")
    t.roll("A", 3, 4)  # Szansa
    t("card", player="A", effect={"kind": "nearest", "square_kind": "railroad", "rent_multiplier": 2})
    assert t.p("A").position == 15
    t("decline", player="A")
    t.fails("auction.below_opening_bid", "auction", square=15, winner="B", price=99)
    t("auction", square=15, winner="B", price=100)
    assert t.state.owner_of(15) == "B"


def test_jail_card_held_by_a_player_cannot_be_drawn_again():
    t = Table()
    t.roll("A", 3, 4)  # Chance
    t("card", player="A", card="chance:get-out-of-jail-free")
    t.roll("B", 3, 4)
    t.fails("card.held", "card", player="B", card="chance:get-out-of-jail-free")
    t("card", player="B", card="chance:bank-dividend")
    trade(t, "A", "C", give={"jail_cards": 1}, get={"cash": 20})  # sold: still held by a player
    t.roll("C", 3, 4)
    t.fails("card.held", "card", player="C", card="chance:get-out-of-jail-free")
    t("card", player="C", card="chance:go-to-jail")
    t.roll("A", 1, 2)  # 10 Just Visiting
    t.roll("B", 1, 2)
    t("jail_card", player="C")  # used: back under the deck
    t.roll("C", 6, 6)  # 22 Chance
    t("card", player="C", card="chance:get-out-of-jail-free")
    assert t.p("C").jail_cards == ["chance:get-out-of-jail-free"]


def test_jail_card_held_by_a_player_cannot_be_drawn_again_by_effect():
    """A deck the board does not list (Polish board): its 'get out of jail free' card is one card too."""
    t = Table("tournament-pl", "classic-pl")
    t.roll("A", 3, 4)  # Szansa
    t("card", player="A", effect={"kind": "jail_card"})
    t.roll("B", 3, 4)
    refused(t, "card", player="B", effect={"kind": "jail_card"})
    t("card", player="B", effect={"kind": "collect", "amount": 10})
    t.roll("C", 1, 1)  # 2 Kasa Społeczna: the other deck's card is another card
    t("card", player="C", effect={"kind": "jail_card"})
    assert len(t.p("A").jail_cards) == len(t.p("C").jail_cards) == 1


# -- trading a street with buildings ----------------------------------------------------------------------
def test_trading_a_street_classic_refused_while_any_street_of_its_group_has_buildings():
    t = Table()
    t.give("A", 37).give("A", 39, level=1)
    for sq in (37, 39):
        t.fails(
            "trade.buildings",
            "trade",
            **{"player": "A", "with": "B", "give": {"squares": [sq]}, "get": {"cash": 1}},
        )
    t("sell_building", player="A", square=39)
    trade(t, "A", "B", give={"squares": [37]}, get={"cash": 350})
    assert t.state.owner_of(37) == "B"


def test_trading_a_street_tournament_refused_only_while_that_street_has_buildings():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 37).give("A", 39, level=1)
    t.fails(
        "trade.buildings",
        "trade",
        **{"player": "A", "with": "B", "give": {"squares": [39]}, "get": {"cash": 1}},
    )
    trade(t, "A", "B", give={"squares": [37]}, get={"cash": 350})
    assert t.state.owner_of(37) == "B"


# -- bankruptcy to a player: the books (RULES.md §2, last row) -------------------------------------------
def lines_of(t: Table, player: str, event: int) -> list[tuple[str, int, int]]:
    return [(line.kind, line.income, line.cost) for line in t.ledger.lines(player) if line.event == event]


def test_bankruptcy_to_a_player_negative_equity_is_a_cost_to_the_creditor():
    t = Table()
    t.give("B", 39, level=5)
    t.give("A", 1, 3, level=1).give("A", 6, mortgaged=True)
    t.set_cash("A", 100).place("A", 35)
    t.roll("A", 1, 3)  # Boardwalk with a hotel: rent 2000
    t("rent", player="A")
    assert t.cash("A") == -1900
    assert lines_of(t, "B", t.index - 1) == [("rent", 2000, 0)]  # the claim booked in full as income
    cash_b = t.cash("B")
    event = t.index
    out = t("bankrupt", player="A")
    assert bankruptcy_movement(out).detail == "B"
    # A's two houses go to the bank at half: his cost 2 × 25; he is left with −1850 and squares worth
    # 60 + 60 + (100 − 50): an equity of −1680, which B takes over (a cost); B pays 10 % of Oriental's loan
    assert sorted(lines_of(t, "A", event)) == [
        ("bankruptcy", 1680, 0),  # his debt beyond what he had is taken off him: he ends at 0
        ("sell_building", 0, 25),
        ("sell_building", 0, 25),
    ]
    assert sorted(lines_of(t, "B", event)) == [("bankruptcy", 0, 1680), ("transfer_fee", 0, 5)]
    assert t.ledger.equity("A") == 0
    assert t.cash("B") == cash_b - 1850 - 5
    assert net_worth(t.state, "B") == 1500 + t.ledger.income("B") - t.ledger.cost("B")
    assert {sq: (t.state.holdings[sq].owner, t.state.holdings[sq].level) for sq in (1, 3, 6)} == {
        1: ("B", 0),
        3: ("B", 0),
        6: ("B", 0),
    }


def test_bankruptcy_to_a_player_positive_equity_is_an_income_to_the_creditor():
    t = Table()
    t.give("B", 3, level=5)  # Baltic Avenue with a hotel: rent 450
    t.give("A", 37, 39, mortgaged=True).set_cash("A", 100)
    t.roll("A", 1, 2)
    t("rent", player="A")
    assert t.cash("A") == -350  # nothing left to mortgage: insolvent, yet his equity is -350 + 175 + 200
    event = t.index
    out = t("bankrupt", player="A")
    assert bankruptcy_movement(out).detail == "B"
    assert lines_of(t, "A", event) == [("bankruptcy", 0, 25)]  # the rest of his equity passes: his cost
    assert sorted(lines_of(t, "B", event)) == [
        ("bankruptcy", 25, 0),  # B's income
        ("transfer_fee", 0, 18),  # 10 % of Park Place's loan 175, rounded up
        ("transfer_fee", 0, 20),  # 10 % of Boardwalk's loan 200
    ]
    assert t.ledger.equity("A") == 0
    assert net_worth(t.state, "B") == 1500 + t.ledger.income("B") - t.ledger.cost("B")
    assert t.state.holdings[37].mortgaged and t.state.holdings[39].mortgaged


# -- the jail fine that cannot be paid (seed 002: "pay 50 … before you can move your chip") --------------
def at_third_jail_try(cash: int) -> Table:
    """Classic: A is sent to jail and fails two tries; his third (last) try comes next, with ``cash``."""
    t = Table()
    t.give("B", 13)  # States Avenue: 3 from the jail, rent 10
    t.place("A", 25)
    t.roll("A", 2, 3)  # 30: Go to Jail
    visit(t, "B", "C")
    for _ in range(2):
        t.roll("A", 1, 2)  # a failed try
        assert t.p("A").in_jail
        visit(t, "B", "C")
    t.set_cash("A", cash)
    return t


def test_jail_third_failed_try_fine_paid_then_the_token_moves():
    t = at_third_jail_try(50)  # just enough
    t.roll("A", 1, 2)
    assert not t.p("A").in_jail and t.p("A").position == 13 and t.cash("A") == 0
    assert [(r.payer, r.owner, r.square, r.amount) for r in t.state.rents] == [("A", "B", 13, 10)]
    t("rent", player="A")
    assert t.cash("B") == 1510


def test_jail_third_failed_try_unpaid_fine_then_mortgage_moves_the_token():
    t = at_third_jail_try(30)
    t.give("A", 39)
    t.roll("A", 1, 2)  # the fine is charged: 30 − 50; the token waits in jail
    assert t.cash("A") == -20 and t.p("A").position == 10
    assert t.state.rents == () and t.state.decision is None
    refused(t, "roll", player="B", dice=[4, 6])
    refused(t, "rent", player="A")
    t("mortgage", player="A", square=39)  # 200: the fine is covered, the token moves by the 3rd roll
    assert t.cash("A") == 180 and t.p("A").position == 13 and not t.p("A").in_jail
    assert [(r.payer, r.owner, r.square, r.amount) for r in t.state.rents] == [("A", "B", 13, 10)]
    t("rent", player="A")
    assert (t.cash("A"), t.cash("B")) == (170, 1510)
    t.roll("B", 4, 6)


def test_jail_third_failed_try_unpaid_fine_then_bankrupt_to_the_bank_token_never_moves():
    t = at_third_jail_try(30)
    before = {pid: t.cash(pid) for pid in ("B", "C")}
    t.roll("A", 1, 2)
    assert t.cash("A") == -20 and t.p("A").position == 10
    refused(t, "rent", player="A")  # nobody is owed rent from a roll whose token never moved
    out = t("bankrupt", player="A")
    assert bankruptcy_movement(out).detail == BANK
    assert t.p("A").bankrupt and t.p("A").position == 10
    assert {pid: t.cash(pid) for pid in ("B", "C")} == before
    assert t.state.rents == ()
    t.roll("B", 4, 6)


# -- a player's claim comes before the bank's ------------------------------------------------------------
def test_rent_claimed_from_a_player_in_debt_to_the_bank_makes_the_owner_the_creditor():
    t = Table(options={"rent_lapses_at": "next_player_roll"})
    t.give("B", 27).give("A", 1).set_cash("A", 50).place("A", 19)
    t.roll("A", 4, 4)  # 27 Ventnor Avenue (B's): rent 22 pending
    t.roll("A", 5, 6)  # 38 Luxury Tax 100: A owes the bank
    assert t.cash("A") == -50
    t("rent", player="A", square=27)  # B claims the earlier rent
    assert t.cash("A") == -72 and t.cash("B") == 1522
    out = t("bankrupt", player="A")  # Mediterranean's loan (30) would not cover it
    assert bankruptcy_movement(out).detail == "B"  # bankrupt to B, not to the bank
    assert t.state.owner_of(1) == "B"
    assert t.cash("B") == 1522 - 72
    assert net_worth(t.state, "B") == 1500 + t.ledger.income("B") - t.ledger.cost("B")


# -- property: the bank never pays a player's debt -------------------------------------------------------
BOARDS = {
    "classic": "classic-us",
    "tournament-pl": "classic-pl",
    "polish-table": "classic-pl",
    "short": "classic-us",
}
#: Options that make bankruptcies (to the bank too) common: no salary, a fine few can pay, less cash.
HARSH = {"salary": 0, "jail_fine": 400, "max_rounds": 40}
HARSH_CASH = {"classic": 400, "tournament-pl": 400, "polish-table": 400, "short": 1500}  # short deals 2 deeds


def simulated(variant: str, players: int, seed: int, harsh: bool) -> dict:
    if not harsh:
        return simulate(variant, BOARDS[variant], players, seed, max_events=20_000)
    options = {**HARSH, "starting_cash": HARSH_CASH[variant]}
    sim = Simulator(variant, BOARDS[variant], players, seed, max_events=20_000)
    sim.record["options"] = options
    sim.variant = make_variant(variant, options)
    sim.board = get_board(BOARDS[variant])
    sim.state = new_game(sim.board, sim.variant, [(p["id"], p["name"], None) for p in sim.players])
    return sim.run()


def bank_bankruptcies_after_paying_players(record: dict) -> tuple[int, list]:
    """(bankruptcies to the bank, those of them whose bankrupt had paid a player while in debt)."""
    starting = make_variant(record["variant"], record["options"]).starting_cash
    cash = {p["id"]: starting for p in record["players"]}
    paid_a_player = dict.fromkeys(cash, False)  # paid a player, cash below zero since
    to_bank, bad = 0, []

    def check(i, out):
        nonlocal to_bank
        for m in out.movements:
            if m.kind == "bankruptcy" and m.detail == BANK:
                to_bank += 1
                (bankrupt,) = [g.party for g in m.legs if g.party != BANK]
                if paid_a_player[bankrupt]:
                    bad.append((i, bankrupt, record["events"][max(0, i - 6) : i + 1]))
            for g in m.legs:
                if g.party != BANK:
                    cash[g.party] += g.cash
            if m.kind != "bankruptcy":
                payees = {g.party for g in m.legs if g.party != BANK and g.cash > 0}
                for g in m.legs:
                    if g.party != BANK and g.cash < 0 and payees - {g.party} and cash[g.party] < 0:
                        paid_a_player[g.party] = True
            for pid, c in cash.items():
                if c >= 0:
                    paid_a_player[pid] = False

    r = replay(record, on_outcome=check)
    assert r.error is None, r.error
    return to_bank, bad


@pytest.mark.parametrize("harsh", [False, True], ids=["defaults", "harsh"])
@pytest.mark.parametrize("variant", list(BOARDS))
def test_the_bank_never_pays_a_players_debt(variant, harsh):
    """Over simulated games: whoever goes bankrupt to the bank has not paid a player money he did not have."""
    to_bank, bad = 0, []
    for seed in range(15):
        n, b = bank_bankruptcies_after_paying_players(simulated(variant, 2 + seed % 5, seed, harsh))
        to_bank += n
        bad += [(seed, *x) for x in b]
    assert bad == [], bad[:3]
    if harsh:
        assert to_bank > 0  # the property was put to the test


def test_jail_fine_before_move_off_replays_records_of_the_previous_engine():
    """Option jail_fine_before_move off (part of rules.variants.PREVIOUS_RULES, for records and games made
    before the decision): the token moves by the failed last try at once, fine paid or not."""
    t = at_third_jail_try(30)
    t.state.variant = make_variant("classic", {"jail_fine_before_move": False})
    t.roll("A", 1, 2)
    assert t.cash("A") == -20 and t.p("A").position == 13 and not t.p("A").in_jail
    assert [(r.payer, r.owner, r.amount) for r in t.state.rents] == [("A", "B", 10)]


def test_a_rent_pending_on_a_property_its_owner_mortgages_lapses():
    """002/003: no rent is collected on a mortgaged property — also one whose rent was not yet claimed."""
    t = Table()
    t.give("B", 6)  # Oriental Avenue, rent 6
    t.roll("A", 2, 4)
    assert [r.square for r in t.state.rents] == [6]
    t("mortgage", player="B", square=6)
    assert t.state.rents == ()
    t.fails("rent.none", "rent", player="A")
