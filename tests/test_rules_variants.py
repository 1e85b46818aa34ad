"""Each variant parameter (RULES.md §1) and its override through the record's options."""

import pytest

from rules import VariantError, make_variant
from rules.variants import VARIANTS
from tests.support import Table


def test_variants_tabulated_in_rules_md():
    assert set(VARIANTS) == {"classic", "polish-table", "short", "timed", "tournament-pl", "anti-monopoly"}
    t = make_variant("tournament-pl")
    assert (t.doubles_to_jail, t.auction_opening_percent, t.max_rounds, t.even_building) == (2, 50, 10, False)
    assert make_variant("polish-table").move_time_limit == 50
    assert make_variant("short").houses_per_hotel == 3 and make_variant("short").deal_title_deeds == 2
    assert make_variant("timed").deal_title_deeds == 2 and make_variant("timed").timed_end


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_accepts_the_options_the_record_format_promises(variant):
    v = make_variant(variant, {"max_rounds": 8, "starting_cash": 2000, "finish_round_on_time": False})
    assert (v.max_rounds, v.starting_cash, v.finish_round_on_time) == (8, 2000, False)


def test_unknown_option_and_bad_value_are_refused():
    with pytest.raises(VariantError):
        make_variant("classic", {"jackpot": 500})
    with pytest.raises(VariantError):
        make_variant("classic", {"houses_per_hotel": 9})
    with pytest.raises(VariantError):
        make_variant("classic", {"id": "other"})


def test_starting_cash_option():
    t = Table(options={"starting_cash": 2000})
    assert t.cash("A") == 2000 and t.ledger.equity("A") == 2000


def test_one_extra_roll_only_option():
    t = Table(options={"max_rolls_per_turn": 2, "doubles_to_jail": None})
    t.roll("A", 1, 1)
    t("card", player="A", card="community_chest:income-tax-refund")
    t.roll("A", 2, 2)  # a double on the extra roll is ordinary
    t("decline", player="A")
    t("auction", square=6, winner=None, price=0)
    t.roll("B", 4, 6)


def test_no_auction_on_decline_option():
    t = Table(options={"auction_on_decline": False})
    t.roll("A", 2, 4)
    t("decline", player="A")
    assert t.state.auctions == () and t.state.owner_of(6) is None
    t.roll("B", 4, 6)


def test_bank_does_not_auction_bankrupt_squares_when_option_off():
    t = Table(options={"auction_bank_bankruptcy": False})
    t.give("A", 1).set_cash("A", 10).place("A", 1)
    t.roll("A", 1, 2)
    t("bankrupt", player="A")
    assert t.state.auctions == () and t.state.bank_sale == () and t.state.holdings == {}


def test_tournament_sells_buildings_unevenly():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 37, 39, level=2)
    t("sell_building", player="A", square=39, count=2)
    assert t.state.holdings[37].level == 2 and t.state.holdings[39].level == 0


def test_tournament_trades_a_street_while_another_of_its_group_has_buildings():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 37).give("A", 39, level=1)
    t("trade", **{"player": "A", "with": "B", "give": {"squares": [37]}, "get": {"cash": 350}})
    t.fails("trade.buildings", "trade", **{"player": "A", "with": "B", "give": {"squares": [39]}})


def test_classic_trade_needs_no_buildings_in_the_group():
    t = Table()
    t.give("A", 37).give("A", 39, level=1)
    t.fails("trade.buildings", "trade", **{"player": "A", "with": "B", "give": {"squares": [37]}})


@pytest.mark.parametrize(("count_mortgaged", "rent"), [(True, 50), (False, 25)])
def test_mortgaged_railroads_count_for_the_number_owned_by_default(count_mortgaged, rent):
    t = Table(options={"sets_count_mortgaged": count_mortgaged})
    t.give("B", 5).give("B", 15, mortgaged=True)
    t.roll("A", 1, 4)
    assert t.state.rents[0].amount == rent


def test_bankruptcy_allowed_while_solvent_when_option_off():
    t = Table(options={"bankruptcy_needs_insolvency": False})
    t.give("A", 39).set_cash("A", 10).place("A", 1)
    t.roll("A", 1, 2)
    t("bankrupt", player="A")


def test_no_double_rent_option():
    t = Table(options={"double_rent_full_group": False})
    t.give("B", 37, 39)
    t.place("A", 35)
    t.roll("A", 1, 3)
    assert t.state.rents[0].amount == 50


def test_per_game_clock_enables_time_up_in_any_variant():
    t = Table("tournament-pl", "classic-pl", options={"time_limit_minutes": 90})
    t("time_up")
    assert t.state.finished and t.state.end_reason == "time"


def test_per_move_limit_option_enables_timeout():
    t = Table("tournament-pl", "classic-pl", options={"move_time_limit": 60})
    t("timeout", player="A")
    t.roll("B", 4, 6)
