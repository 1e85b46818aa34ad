"""RULES.md's decisions where the seeds are silent or disagree, one test per bullet (more where a bullet has
two halves), each named after its bullet and played through events, so that it fails if the engine did
otherwise:

- ``test_decision_…``: §1 "More decisions where the seeds are silent or disagree" and the decisions under §2's
  table (the last turn's rent, ``classic`` with a limit, ``polish-table`` timeouts);
- ``test_am_decision_…``: §2 "Anti-Monopoly, where 000, 003 and the board data are silent or disagree".

Classic board (classic-us): 1 Mediterranean 60, 3 Baltic 60 (loans 30), 4 Income Tax 200, 5 Reading RR,
7 Chance, 10 jail, 12 Electric Co, 15 Pennsylvania RR, 28 Water Works, 37 Park Place 350, 39 Boardwalk 400
(houses 200). Anti-Monopoly board (anti-monopoly-us): 1 Basin St. and 3 French Quarter 60 (New Orleans,
houses 50, loans 30), 4 Income Tax, 5 / 15 / 25 / 35 the transport companies 200, 6 / 8 / 9 Los Angeles
100 / 100 / 120 (houses 50), 7 a card square, 10 Price War / Prison, 12 / 28 the utilities 150, 30 Go to
Price War / Prison, 37 Fifth Ave. 350 and 39 Wall St. 400 (New York, houses 200).
"""

from __future__ import annotations

import json

import pytest

from rules import RulesError, apply, get_board
from rules.board import BOARDS_DIR
from rules.legal import legal_actions
from rules.scoring import ranking, score
from rules.snapshot import dump_state, load_state
from rules.valuation import net_worth
from tests.support import Table

AM, AM_BOARD = "anti-monopoly", "anti-monopoly-us"


def am(players=("C", "M"), **options) -> Table:
    """An Anti-Monopoly table; a player's id starts with his role's letter (C competitor, M monopolist)."""
    roles = [{"C": "competitor", "M": "monopolist"}[p[0]] for p in players]
    return Table(AM, AM_BOARD, players=players, options=options or None, roles=roles)


def refused(t: Table, type: str, **fields) -> RulesError:
    before = t.state.clone()
    with pytest.raises(RulesError) as e:
        apply(t.state, {"type": type, **fields})
    assert t.state == before, "a refused event changed the state"
    return e.value


def trade(t: Table, player: str, other: str, give=None, get=None):
    return t("trade", **{"player": player, "with": other, "give": give or {}, "get": get or {}})


def jailed(t: Table, player: str) -> Table:
    p = t.p(player)
    p.position, p.in_jail, p.jail_turns = t.state.board.jail, True, 0
    return t


# == RULES.md §1: more decisions ===========================================================================
# -- Paying what you have not got ---------------------------------------------------------------------------
def _rent_below_zero(t: Table):
    t.give("B", 39, level=5).set_cash("A", 100).place("A", 35)
    t.roll("A", 1, 3)  # 39 Boardwalk with a hotel: 2000
    t("rent", player="A")
    return "B", 100 - 2000


def _tax_below_zero(t: Table):
    t.set_cash("A", 50)
    t.roll("A", 1, 3)  # 4 Income Tax 200
    return "bank", 50 - 200


def _card_below_zero(t: Table):
    t.set_cash("A", 10)
    t.roll("A", 3, 4)  # 7 Chance
    t("card", player="A", card="chance:speeding-fine")  # pay 15
    return "bank", 10 - 15


def _fine_below_zero(t: Table):
    jailed(t, "A").set_cash("A", 20)
    for _ in range(2):  # two failed tries
        t.roll("A", 1, 2)
        t.roll("B", 4, 6)
        t.roll("C", 4, 6)
        t.place("B", 0).place("C", 0)
    t.roll("A", 1, 2)  # the third failed try: the fine 50, in full
    return "bank", 20 - 50


@pytest.mark.parametrize("payment", [_rent_below_zero, _tax_below_zero, _card_below_zero, _fine_below_zero])
def test_decision_paying_what_you_have_not_got_an_imposed_payment_is_made_in_full(payment):
    t = Table()
    creditor, cash = payment(t)
    assert t.cash("A") == cash < 0  # in full at once, below zero
    assert t.p("A").debt_to == creditor
    blocked = "pending.jail_fine" if payment is _fine_below_zero else "pending.debt"
    t.fails(blocked, "roll", player="B", dice=[1, 2])


def _buy(t: Table):
    t.set_cash("A", 100).place("A", 35)
    t.roll("A", 1, 3)  # 39 Boardwalk, 400
    return "buy", {"player": "A"}


def _bid(t: Table):
    t.set_cash("B", 100).place("A", 35)
    t.roll("A", 1, 3)
    t("decline", player="A")
    return "auction", {"square": 39, "winner": "B", "price": 101}


def _build(t: Table):
    t.give("A", 37, 39).set_cash("A", 199)
    return "build", {"player": "A", "square": 39}


def _lift(t: Table):
    t.give("A", 39, mortgaged=True).set_cash("A", 219)  # loan 200 + 10 % = 220
    return "unmortgage", {"player": "A", "square": 39}


def _trade_cash(t: Table):
    t.give("B", 39).set_cash("A", 300)
    return "trade", {"player": "A", "with": "B", "give": {"cash": 301}, "get": {"squares": [39]}}


@pytest.mark.parametrize("spend", [_buy, _bid, _build, _lift, _trade_cash])
def test_decision_paying_what_you_have_not_got_a_voluntary_spend_must_be_covered_by_cash(spend):
    t = Table()
    type, fields = spend(t)
    e = refused(t, type, **fields)
    assert e.code in ("money.insufficient", "trade.cash"), e.message


# -- Bankruptcy to the bank ---------------------------------------------------------------------------------
def test_decision_bankruptcy_to_the_bank_auctions_free_of_mortgage_until_the_next_roll():
    t = Table()
    t.give("A", 1, 3, mortgaged=True).set_cash("A", 10)
    t.roll("A", 1, 3)  # 4 Income Tax: 10 − 200; his mortgaged streets cannot pay it
    t("bankrupt", player="A")
    assert t.state.bank_sale == (1, 3) and 1 not in t.state.holdings
    t("auction", square=1, winner="B", price=10)  # may be auctioned, not only at once
    assert t.state.holdings[1].owner == "B" and not t.state.holdings[1].mortgaged  # free of mortgage
    assert t.cash("B") == 1490


def test_decision_bankruptcy_to_the_bank_what_is_not_sold_by_the_next_roll_stays_with_the_bank():
    t = Table()
    t.give("A", 1, 3, mortgaged=True).set_cash("A", 10)
    t.roll("A", 1, 3)
    t("bankrupt", player="A")
    t.roll("B", 1, 2)  # 3 Baltic: not auctioned before this roll, the bank's, offered as any unowned square
    assert t.state.bank_sale == () and 3 not in t.state.holdings
    t.fails("auction.not_pending", "auction", square=1, winner="C", price=10)
    t("buy", player="B")
    assert t.state.holdings[3].owner == "B" and not t.state.holdings[3].mortgaged


# -- Mortgaged railways and utilities still count ------------------------------------------------------------
@pytest.mark.parametrize(
    ("owned", "square", "dice", "rent"),
    [((5, 15), 15, (2, 3), 50), ((12, 28), 28, (3, 5), 80)],  # 2 railroads: 50; both utilities: 10 × 8
)
def test_decision_mortgaged_railways_and_utilities_count_for_number_owned(owned, square, dice, rent):
    t = Table()
    t.give("B", owned[0], mortgaged=True).give("B", owned[1])
    t.place("A", square - sum(dice))
    t.roll("A", *dice)
    t("rent", player="A", amount=rent)
    assert t.cash("B") == 1500 + rent


# -- Lifting a mortgage just received (classic family) -------------------------------------------------------
def test_decision_lifting_a_mortgage_just_received_before_the_receivers_next_roll_costs_the_loan():
    t = Table()
    t.give("A", 1, mortgaged=True)
    trade(t, "A", "B", give={"squares": [1]}, get={"cash": 10})  # B pays the 10 %: 3, at once
    assert t.cash("B") == 1500 - 10 - 3
    t.roll("A", 4, 6)  # another player's roll does not end it
    t("unmortgage", player="B", square=1, amount=30)
    assert t.cash("B") == 1487 - 30


def test_decision_lifting_a_mortgage_just_received_after_the_receivers_next_roll_costs_another_ten_percent():
    t = Table()
    t.give("A", 1, mortgaged=True)
    trade(t, "A", "B", give={"squares": [1]}, get={"cash": 10})
    t.roll("A", 4, 6)
    t.roll("B", 4, 6)  # the receiver's roll
    t.fails("amount.mismatch", "unmortgage", player="B", square=1, amount=30)
    t("unmortgage", player="B", square=1, amount=33)
    assert t.cash("B") == 1487 - 33


# -- Selling hotels: the even-selling rule -------------------------------------------------------------------
def test_decision_selling_hotels_follows_the_even_selling_rule_not_all_hotels_at_once():
    t = Table()
    t.give("A", 37, 39, level=5)  # two hotels
    t("sell_building", player="A", square=39)  # one hotel alone (002's "all at once" is not followed)
    assert (t.state.holdings[39].level, t.state.holdings[37].level) == (4, 5)
    t.fails("sell.uneven", "sell_building", player="A", square=39)  # evenly: Park Place's hotel first
    t("sell_building", player="A", square=37)
    t("sell_building", player="A", square=39)
    assert (t.state.holdings[39].level, t.state.holdings[37].level) == (3, 4)


# -- count > 1 in build / sell_building ----------------------------------------------------------------------
def test_decision_count_in_build_is_single_levels_each_legal_when_added():
    t = Table()
    t.give("A", 37, 39)
    t.fails("build.uneven", "build", player="A", square=39, count=2)  # the 2nd level would be uneven
    t("build", player="A", square=37)
    t("build", player="A", square=39, count=2, amount=400)
    assert (t.state.holdings[37].level, t.state.holdings[39].level) == (1, 2)
    assert t.cash("A") == 1500 - 600 and t.state.houses == 32 - 3


def test_decision_count_in_sell_building_is_single_levels_each_legal_when_removed():
    t = Table()
    t.give("A", 37, 39, level=2)
    t.fails("sell.uneven", "sell_building", player="A", square=39, count=2)  # the 2nd would be uneven
    t("sell_building", player="A", square=39)
    t("sell_building", player="A", square=37, count=2, amount=200)
    assert (t.state.holdings[37].level, t.state.holdings[39].level) == (0, 1)


# -- time_up between two rounds ------------------------------------------------------------------------------
def test_decision_time_up_between_two_rounds_ends_the_game_at_once():
    t = Table("polish-table", options={"time_limit_minutes": 90})
    for pid in "ABC":
        t.roll(pid, 4, 6)  # the round is complete
    t("time_up")
    assert t.state.finished and t.state.end_reason == "time" and t.state.round == 1
    assert not t.state.stopped  # its clock ran out: nobody stopped it
    t.fails("game.finished", "roll", player="A", dice=[1, 2])


# -- a double that frees from jail in tournament-pl ----------------------------------------------------------
def test_decision_a_double_that_frees_from_jail_counts_as_the_first_double_of_the_turn():
    t = Table("tournament-pl", "classic-pl")
    jailed(t, "A").give("A", 14, 20)
    t.roll("A", 2, 2)  # frees him: 14, his own; he rolls again
    assert not t.p("A").in_jail and t.state.roll_again
    t.roll("A", 3, 3)  # the second double of the turn: to jail (2 in tournament-pl)
    assert t.p("A").in_jail and t.p("A").position == 10 and not t.state.roll_again


# -- cards ---------------------------------------------------------------------------------------------------
def test_decision_a_nearest_cards_unowned_square_may_be_bought_like_any_landing():
    t = Table()
    t.roll("A", 3, 4)  # 7 Chance
    t("card", player="A", card="chance:advance-to-nearest-railroad")  # 15 Pennsylvania RR, unowned
    t("buy", player="A", amount=200)
    assert t.state.owner_of(15) == "A"


def test_decision_a_nearest_cards_unowned_square_may_be_declined_to_auction():
    t = Table()
    t.roll("A", 3, 4)
    t("card", player="A", card="chance:advance-to-nearest-utility")  # 12 Electric Co
    t("decline", player="A")
    t.fails("pending.auction", "roll", player="B", dice=[1, 2])
    t("auction", square=12, winner="C", price=90)
    assert t.state.owner_of(12) == "C"


def test_decision_a_get_out_of_jail_free_card_held_by_a_player_cannot_be_drawn_again():
    t = Table()
    t.roll("A", 3, 4)
    t("card", player="A", card="chance:get-out-of-jail-free")
    t.roll("B", 3, 4)
    t.fails("card.held", "card", player="B", card="chance:get-out-of-jail-free")


# == the decisions under RULES.md §2's table =================================================================
def test_decision_the_last_turns_rent_after_a_round_limit_may_still_be_claimed():
    t = Table(options={"max_rounds": 1})
    t.give("A", 14)
    t.roll("A", 4, 6)
    t.roll("B", 4, 6)
    t.place("C", 10)
    t.roll("C", 1, 3)  # 14 Virginia Ave (A's): the last turn; the game is over
    assert t.state.finished and t.state.end_reason == "rounds"
    t("rent", player="C", amount=12)
    assert (t.cash("A"), t.cash("C")) == (1512, 1488)
    t.fails("game.finished", "build", player="A", square=14)


def test_am_decision_the_last_turns_rent_in_the_two_hour_game_may_be_claimed_until_final_keep():
    t = am(("C", "M"), ending="two_hour")
    t.give("C", 39, level=1)  # Wall St., 1 house of a competitor: 60
    t.give("M", 1)
    t.set_cash("M", 50).place("M", 35)
    t.roll("C", 1, 2)  # 3 French Quarter
    t("decline", player="C")
    t("time_up")
    t.roll("M", 1, 3)  # 39: the round is over, step A begins with the rent pending
    assert t.state.final_step == "dealings"
    t.fails("final.dealings", "trade", **{"player": "M", "with": "C", "give": {"squares": [1]}})
    t("rent", player="M", amount=60)  # play, not a step-A payment between players: M 50 − 60
    t.fails("pending.debt", "final_keep")
    t("mortgage", player="M", square=1)  # step A's dealings raise it: −10 + 30
    t("final_keep")
    assert (t.cash("C"), t.cash("M")) == ((1500 + 60) // 10, 20 * 20 // 100)


def test_am_decision_a_rent_not_claimed_by_final_keep_lapses():
    t = am(("C", "M"), ending="two_hour")
    t.give("C", 39, level=1)
    t.place("M", 35)
    t.roll("C", 1, 2)
    t("decline", player="C")
    t("time_up")
    t.roll("M", 1, 3)  # 39
    t("final_keep")
    t.fails("final.tour", "rent", player="M")
    assert t.state.rents == ()


@pytest.mark.parametrize("limit", ["rounds", "time"])
def test_decision_classic_with_a_round_or_time_limit_ranks_by_net_worth(limit):
    t = Table(options={"max_rounds": 1} if limit == "rounds" else {"time_limit_minutes": 60})
    t.place("A", 35)
    t.roll("A", 1, 3)  # 39 Boardwalk
    t("buy", player="A")  # cash 1100, net worth 1500
    t.roll("B", 1, 3)  # 4 Income Tax: cash and net worth 1300
    if limit == "time":
        t("time_up")
    t.roll("C", 4, 6)  # 10 Just Visiting: 1500, 1500
    assert t.state.finished and t.state.end_reason == limit
    assert [score(t.state, p) for p in "ABC"] == [1500, 1300, 1500]
    assert ranking(t.state) == {"A": 1, "C": 1, "B": 3}  # by cash B (1300) would be above A (1100)


def test_decision_polish_table_timeout_a_card_that_must_be_drawn_is_still_drawn():
    t = Table("polish-table")
    t.roll("A", 3, 4)  # 7 Chance
    t.fails("pending.card", "timeout", player="A")
    t("card", player="A", card="chance:bank-dividend")
    t("timeout", player="A")
    t.roll("B", 1, 2)


def test_decision_polish_table_a_turn_that_timed_out_counts_as_a_turn_in_jail():
    t = Table("polish-table")
    jailed(t, "A")
    for _ in range(2):  # two turns in jail, both timed out
        t("timeout", player="A")
        t.roll("B", 4, 6)
        t.roll("C", 4, 6)
        t.place("B", 0).place("C", 0)
    assert t.p("A").jail_turns == 2
    t.roll("A", 1, 2)  # his third turn in jail: the last try fails, he pays 50 and moves
    assert not t.p("A").in_jail and t.p("A").position == 13 and t.cash("A") == 1450


# == Anti-Monopoly ===========================================================================================
# -- Income tax: valued when the token lands -----------------------------------------------------------------
def test_am_decision_income_tax_valued_at_landing_a_mortgage_before_the_choice_does_not_lower_it():
    t = am()
    t.give("C", 3)
    t.roll("C", 1, 3)  # 4 Income Tax: 10 % of 1500 + 10 % of 60 = 156
    assert legal_actions(t.state).tax["percent"] == 156
    t("mortgage", player="C", square=3)  # now 10 % of 1530 = 153, but the landing's value stands
    assert legal_actions(t.state).tax["percent"] == 156
    t.fails("amount.mismatch", "income_tax", player="C", choice="percent", amount=153)
    t("income_tax", player="C", choice="percent", amount=156)
    assert t.cash("C") == 1530 - 156


def test_am_decision_income_tax_valued_at_landing_a_sale_before_the_choice_does_not_lower_it():
    t = am()
    t.give("C", 6, level=2)  # Sunset Blvd. with 2 houses (50 apiece)
    t.roll("C", 1, 3)  # 4: 10 % of 1500 + 10 % of 100 + 10 % of 2 × 50 = 150 + 10 + 10 = 170
    t("sell_building", player="C", square=6, count=2)  # +50: at the choice it would be 155 + 10 = 165
    t.fails("amount.mismatch", "income_tax", player="C", choice="percent", amount=165)
    t("income_tax", player="C", choice="percent", amount=170)
    assert t.cash("C") == 1550 - 170


def test_am_decision_income_tax_valued_at_the_choice_with_the_option_of_older_records():
    t = am(income_tax_valued_at="choice")
    t.give("C", 3)
    t.roll("C", 1, 3)
    t("mortgage", player="C", square=3)
    t("income_tax", player="C", choice="percent", amount=153)
    assert t.cash("C") == 1530 - 153


# -- Sent to Prison / Price War by a double's move -----------------------------------------------------------
def test_am_decision_sent_to_prison_by_a_doubles_move_to_the_square_ends_the_turn():
    t = am(("M", "C"))
    t.place("M", 26)
    t.roll("M", 2, 2)  # 30 Go to Prison, by a double
    assert t.p("M").in_jail and t.p("M").position == 10 and not t.state.roll_again
    t.fails("roll.not_your_turn", "roll", player="M", dice=[1, 2])
    t.roll("C", 4, 6)


def test_am_decision_sent_to_price_war_by_a_card_after_a_double_ends_the_turn():
    t = am(("C", "M"))
    t.roll("C", 1, 1)  # 2, a card square, by a double: the extra roll waits for the card
    t("card", player="C", effect={"kind": "go_to_price_war"})
    assert t.p("C").in_jail and not t.state.roll_again
    t.fails("roll.not_your_turn", "roll", player="C", dice=[1, 2])
    t.roll("M", 4, 6)


def test_am_decision_a_double_that_moved_as_usual_gives_the_extra_turn():
    t = am(("C", "M"))
    t.roll("C", 2, 2)  # 4 Income Tax
    t("income_tax", player="C", choice="fixed")
    assert t.state.roll_again
    t.roll("C", 1, 2)


# -- A monopolist in Prison earns nothing at the end ---------------------------------------------------------
def _two_hour_with_m_in_prison(**options) -> Table:
    """C and M; M owns Wall St. (40), U.S. Railroad (40) and U.S. Gas Company, and is in Prison when the time
    is up; C owns Basin St. (6) and U.S. Electric Company."""
    t = am(("C", "M"), ending="two_hour", **options)
    t.give("M", 39, 5, 28).give("C", 1, 12)
    t.place("M", 26)
    t.roll("C", 4, 6)  # 10
    t("time_up")
    t.roll("M", 1, 3)  # 30: to Prison; the round is over
    assert t.p("M").in_jail and t.state.final_step == "dealings"
    t("final_keep")  # C keeps 150, M 300
    return t


def test_am_decision_a_monopolist_in_prison_earns_nothing_in_the_two_hour_games_step_c():
    t = _two_hour_with_m_in_prison()
    e = t.fails("final_roll.in_prison", "final_roll", player="M", square=28, dice=[6, 6])
    assert e.message == "M is in Prison: no rent."
    t.fails("final_tour.rolls_missing", "final_tour")  # C's utility is valued as usual
    t("final_roll", player="C", square=12, dice=[2, 3])
    out = t("final_tour")
    assert (t.cash("C"), t.cash("M")) == (150 + 6 + 4 * 5, 300)
    assert "M is in Prison: no rent." in [str(n) for n in out.notes]
    assert ranking(t.state) == {"M": 1, "C": 2}


def test_am_decision_a_monopolist_in_prison_is_paid_in_step_c_with_the_option_of_older_records():
    t = _two_hour_with_m_in_prison(prison_rule_in_final_count=False)
    t("final_roll", player="C", square=12, dice=[2, 3])
    t("final_roll", player="M", square=28, dice=[6, 6])
    t("final_tour")
    assert (t.cash("C"), t.cash("M")) == (150 + 6 + 4 * 5, 300 + 40 + 40 + 4 * 12)


def _game_b_with_m_in_prison(**options) -> Table:
    t = am(("C", "M"), ending="game_b", max_rounds=1, **options)
    t.give("M", 39, 5, 28).give("C", 1, 12)
    t.place("M", 26)
    t.roll("C", 4, 6)  # 10
    t.roll("M", 1, 3)  # 30: to Prison; the last round is over
    assert t.p("M").in_jail and t.state.finished
    return t


def test_am_decision_a_monopolist_in_prison_earns_nothing_in_game_b_rule_25():
    t = _game_b_with_m_in_prison()
    t.fails("final_roll.in_prison", "final_roll", player="M", square=28, dice=[6, 6])
    assert legal_actions(t.state).final_rolls == [{"player": "C", "square": 12}]
    t("final_roll", player="C", square=12, dice=[2, 3])
    assert (score(t.state, "C"), score(t.state, "M")) == (1500 + 6 + 4 * 5, 1500)
    assert ranking(t.state) == {"C": 1, "M": 2}


def test_am_decision_a_monopolist_in_prison_is_counted_in_rule_25_with_the_option_of_older_records():
    t = _game_b_with_m_in_prison(prison_rule_in_final_count=False)
    t("final_roll", player="C", square=12, dice=[2, 3])
    t("final_roll", player="M", square=28, dice=[6, 6])
    assert score(t.state, "M") == 1500 + 40 + 40 + 4 * 12
    assert ranking(t.state) == {"M": 1, "C": 2}


# -- Trading a street that monopolises a city ----------------------------------------------------------------
def test_am_decision_trading_a_street_that_monopolises_a_city_refused_while_buildings_stand_in_that_city():
    t = am(("M", "C"))
    t.give("M", 6).give("M", 8, level=1)  # Los Angeles monopolised by two streets; a house on Wilshire Blvd.
    give = {"player": "M", "with": "C", "give": {"squares": [6]}, "get": {"cash": 10}}
    t.fails("trade.monopoly_buildings", "trade", **give)  # Sunset Blvd. has no buildings, the city has
    t("sell_building", player="M", square=8)  # the buildings go back to the treasurer first (r. 23)
    t("trade", **give)
    assert t.state.owner_of(6) == "C"


def test_am_decision_trading_a_third_street_is_allowed_while_two_others_still_monopolise_the_city():
    t = am(("M", "C"))
    t.give("M", 6, 9).give("M", 8, level=1)
    t("trade", **{"player": "M", "with": "C", "give": {"squares": [6]}, "get": {"cash": 10}})
    assert t.state.owner_of(6) == "C"


# -- Building on the third street ----------------------------------------------------------------------------
@pytest.mark.parametrize(("third_street", "allowed"), [(None, True), (True, True), (False, False)])
def test_am_decision_building_on_the_third_street_us_edition_yes_polish_edition_no(third_street, allowed):
    options = {} if third_street is None else {"monopolist_builds_on_third_street": third_street}
    t = am(("M", "C"), **options)
    t.give("M", 6, 8, level=1).give("M", 9)
    if allowed:
        t("build", player="M", square=9)
        assert t.state.holdings[9].level == 1
    else:
        t.fails("build.third_street", "build", player="M", square=9)


# -- The apartment -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("player", "houses"), [("M", 3), ("C", 4)])
def test_am_decision_the_apartment_costs_the_house_price_and_replaces_the_houses(player, houses):
    t = am((player, "M1" if player == "C" else "C"))
    t.give(player, 37, 39)  # New York (a monopolist's monopolised city)
    bank = t.state.houses
    t("build", player=player, square=39, count=houses, amount=houses * 200)
    assert t.state.houses == bank - houses
    t("build", player=player, square=39, amount=200)  # the apartment: the printed house price
    assert t.state.holdings[39].level == houses + 1
    assert t.state.houses == bank and t.state.hotels == 15 - 1  # the houses go back to the treasurer
    # book value: the houses replaced + the apartment, each at the house price
    assert net_worth(t.state, player) == 1500 - (houses + 1) * 200 + 350 + 400 + (houses + 1) * 200
    t.fails("build.too_high", "build", player=player, square=39)


# -- Step B --------------------------------------------------------------------------------------------------
def test_am_decision_step_b_keeps_the_share_rounded_down_the_rest_rounded_up_to_the_treasurer():
    t = am(("C", "M"), ending="two_hour")
    t.set_cash("C", 1509).set_cash("M", 1504)
    t.roll("C", 4, 6)
    t.roll("M", 4, 6)
    t("time_up")
    out = t("final_keep")
    assert (t.cash("C"), t.cash("M")) == (150, 300)  # 150.9 and 300.8, rounded down
    paid = {m.legs[0].party: -m.legs[0].cash for m in out.movements if m.kind == "final_keep"}
    assert paid == {"C": 1359, "M": 1204}  # 1358.1 and 1203.2, rounded up


# -- Bankruptcy to the treasurer -----------------------------------------------------------------------------
def test_am_decision_bankruptcy_to_the_treasurer_no_auction_the_properties_are_bought_as_usual():
    t = am(("C", "M", "C2"))
    t.give("C", 1, 3, mortgaged=True).set_cash("C", 10)
    t.roll("C", 1, 3)  # 4 Income Tax
    t("income_tax", player="C", choice="fixed")  # 10 − 200, the streets mortgaged
    t("bankrupt", player="C")
    assert t.state.bank_sale == () and t.state.auctions == ()
    t.fails("auction.not_pending", "auction", square=1, winner="M", price=10)
    t.roll("M", 1, 2)  # 3 French Quarter: unowned, unmortgaged, offered at its price (r. 9)
    t("buy", player="M", amount=60)
    assert t.state.holdings[3].owner == "M" and not t.state.holdings[3].mortgaged


# -- Transport fares of a monopolist -------------------------------------------------------------------------
@pytest.mark.parametrize("owned", [1, 2, 3, 4])
def test_am_decision_transport_fares_of_a_monopolist_are_the_board_files(owned):
    board = get_board(AM_BOARD)
    fares = board.squares[5].rent_ladder("monopolist")
    assert tuple(fares) == (40, 80, 160, 320)
    source = json.loads((BOARDS_DIR / f"{AM_BOARD}.json").read_text(encoding="utf-8"))["source"]
    assert "monopolist transport fares 40/80/160/320" in source  # the shipped board's SOURCES note
    t = am(("C", "M"))
    t.give("M", *(5, 15, 25, 35)[:owned])
    t.roll("C", 2, 3)  # 5 U.S. Railroad
    t("rent", player="C", amount=fares[owned - 1])
    assert t.cash("M") == 1500 + fares[owned - 1]


def test_am_decision_income_tax_valued_at_landing_is_kept_in_the_stored_state():
    """The console keeps the state between requests (rules.snapshot): the landing's value goes with it."""
    from rules.snapshot import dump_state, load_state

    t = am()
    t.give("C", 3)
    t.roll("C", 1, 3)
    t("mortgage", player="C", square=3)
    t.state = load_state(dump_state(t.state))
    assert t.state.decision.percent == 156
    t("income_tax", player="C", choice="percent", amount=156)


@pytest.mark.parametrize("variant", ["classic", "polish-table", "timed"])
def test_decision_time_up_is_refused_in_a_game_without_a_clock(variant):
    """RULES.md (turn 4): every variant takes ``time_limit_minutes`` (absent: no clock); ``time_up`` is legal
    only in a game with a clock — the organisers' stop (``now``) in any game."""
    t = Table(variant, players=("A", "B"))
    if variant == "timed":
        t("deal", player="A", squares=[1, 3])
        t("deal", player="B", squares=[6, 8])
    t.roll("A", 4, 6)
    t.fails("time_up.not_timed", "time_up")
    clocked = Table(variant, players=("A", "B"), options={"time_limit_minutes": 60})
    assert clocked.state.variant.timed
    t("time_up", now=True)  # the organisers stop it: any game
    assert t.state.finished and t.state.end_reason == "time" and t.state.stopped


@pytest.mark.parametrize("limit", ["rounds", "time"])
def test_decision_a_limited_game_whose_last_turn_leaves_a_debt_ends_on_its_limit_once_settled(limit):
    """RULES.md (turn 4): the game ends once the debt of its last turn is settled, and its ``end_reason`` is
    the limit reached, also when the settlement is a bankruptcy (which leaves one player: not
    ``last_player``)."""
    options = {"max_rounds": 1} if limit == "rounds" else {"time_limit_minutes": 60}
    t = Table(players=("A", "B"), options=options)
    t.set_cash("B", 50).place("B", 35)
    t.roll("A", 4, 6)  # 10 Just Visiting
    if limit == "time":
        t("time_up")  # the round in play is finished first
    t.roll("B", 1, 2)  # 38 Luxury Tax, 100 with 50 in hand: the last turn of the game leaves a debt
    assert t.cash("B") == -50 and not t.state.finished  # the debt first
    t("bankrupt", player="B")
    assert t.state.finished and t.state.end_reason == limit


def test_decision_a_limited_game_whose_last_turn_leaves_a_debt_paid_ends_on_its_limit():
    t = Table(players=("A", "B"), options={"max_rounds": 1})
    t.give("B", 1)
    t.set_cash("B", 50).place("B", 35)
    t.roll("A", 4, 6)
    t.roll("B", 1, 2)  # 38 Luxury Tax: 100 with 50 in hand
    assert not t.state.finished
    t("mortgage", player="B", square=1)  # 30: still short
    assert not t.state.finished
    t("trade", player="B", **{"with": "A"}, get={"cash": 20})  # A helps: the debt paid
    assert t.state.finished and t.state.end_reason == "rounds"


def test_decision_a_voluntary_spend_is_covered_by_the_banknotes_in_hand_not_by_money_owed():
    """RULES.md (turn 4): a voluntary spend (buy, bid, build, lift a mortgage, a trade's cash) must be covered
    by the player's cash less what he is owed and has not yet received (the ``expected`` of a cash count)."""
    t = Table()
    t.give("A", 37, 39, level=5)  # Park Place and Boardwalk with hotels
    t.give("A", 21, 24, mortgaged=True)  # Kentucky (lifted for 121) and Illinois (132)
    t.set_cash("A", 100).set_cash("B", 100).place("B", 35)
    t.roll("A", 4, 6)  # 10 Just Visiting
    t.roll("B", 1, 3)  # 39 Boardwalk: rent 2,000
    t("rent", player="B")  # booked in full: A's cash 2,100, of which B owes 1,900
    assert t.cash("A") == 2100 and t.cash("B") == -1900
    t("unmortgage", player="A", square=24)  # 132 of the 200 in his hand
    t.fails("money.not_in_hand", "unmortgage", player="A", square=21)  # 121, with 68 in hand
    t.fails("money.not_in_hand", "trade", player="A", **{"with": "C"}, give={"cash": 100})
    assert t.cash("A") == 1968  # nothing else spent
    t("trade", player="A", **{"with": "C"}, give={"cash": 60})  # within what he holds


def test_am_decision_the_third_street_is_the_one_acquired_last():
    """RULES.md (turn 4): with ``monopolist_builds_on_third_street`` off, "the third street" is the one of the
    city's three the monopolist acquired last (in the record's order); he builds on the other two."""
    t = am(("M", "C"), monopolist_builds_on_third_street=False)
    t.give("M", 9)  # his first
    t.give("C", 6, 8)
    t("trade", player="M", **{"with": "C"}, get={"squares": [8]}, give={"cash": 100})
    t("trade", player="M", **{"with": "C"}, get={"squares": [6]}, give={"cash": 100})  # the last: 6
    assert t.state.acquired[-2:] == (8, 6)
    t("build", player="M", square=9)
    t("build", player="M", square=8)
    t.fails("build.third_street", "build", player="M", square=6)
    snapshot = load_state(dump_state(t.state))  # kept with the game
    assert snapshot.acquired == t.state.acquired
