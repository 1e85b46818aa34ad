"""Building and selling (RULES.md §1 'build needs', 'even building', 'bank stock', 'selling buildings';
004 §3–§4)."""

import pytest

from tests.support import Table


def test_classic_build_needs_the_whole_colour_group():
    t = Table()
    t.give("A", 6, 8)
    e = t.fails("build.needs_group", "build", player="A", square=6)
    assert "whole colour group" in e.message
    t.give("A", 9)
    t("build", player="A", square=6)
    assert t.state.holdings[6].level == 1 and t.cash("A") == 1450 and t.state.houses == 31


def test_tournament_builds_on_any_owned_street_unevenly():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 6)
    t("build", player="A", square=6, count=3)
    assert t.state.holdings[6].level == 3 and t.cash("A") == 1350
    assert t.ledger.cost("A") == 0  # a building for cash: neither income nor cost


def test_classic_even_building():
    t = Table()
    t.give("A", 1, 3)
    t("build", player="A", square=1)
    t.fails("build.uneven", "build", player="A", square=1)
    t("build", player="A", square=3)
    t("build", player="A", square=1)


def test_classic_no_building_when_group_has_a_mortgage():
    t = Table()
    t.give("A", 1).give("A", 3, mortgaged=True)
    t.fails("build.group_mortgaged", "build", player="A", square=1)


def test_tournament_builds_beside_a_mortgaged_street_but_not_on_it():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 1).give("A", 3, mortgaged=True)
    t("build", player="A", square=1)
    t.fails("build.mortgaged", "build", player="A", square=3)


def test_no_building_on_railroads():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 5)
    t.fails("build.not_street", "build", player="A", square=5)


def test_hotel_returns_houses_to_the_bank():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 39)
    t("build", player="A", square=39, count=4)
    assert t.state.houses == 28
    t("build", player="A", square=39)
    assert t.state.houses == 32 and t.state.hotels == 11 and t.cash("A") == 1500 - 5 * 200
    t.fails("build.too_high", "build", player="A", square=39)


def test_bank_house_shortage_refuses_building():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 39)
    t.state.houses = 2
    e = t.fails("bank.no_houses", "build", player="A", square=39, count=3)
    assert "2" in e.message


def test_bank_without_hotels_refuses_hotel():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 39, level=4)
    t.state.hotels = 0
    t.fails("bank.no_hotels", "build", player="A", square=39)


def test_building_needs_cash():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 39).set_cash("A", 150)
    t.fails("money.insufficient", "build", player="A", square=39)


def test_sell_house_at_half_price_is_a_cost():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 39)
    t("build", player="A", square=39, count=2)
    t("sell_building", player="A", square=39, amount=100)
    assert t.cash("A") == 1500 - 400 + 100 and t.ledger.cost("A") == 100 and t.state.houses == 31


def test_hotel_to_houses_gives_half_the_upgrade_price_004():
    """004 §4: 'You can change a hotel into 4 houses, getting half the price paid for the exchange'."""
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 39)
    t("build", player="A", square=39, count=5)
    t("sell_building", player="A", square=39)
    assert t.state.holdings[39].level == 4 and t.state.hotels == 12 and t.state.houses == 28
    assert t.cash("A") == 1500 - 1000 + 100


def test_hotel_cannot_become_houses_when_bank_lacks_them():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 39)
    t("build", player="A", square=39, count=5)
    t.state.houses = 3
    t.fails("bank.no_houses_for_hotel", "sell_building", player="A", square=39)
    t("sell_building", player="A", square=39, count=5)  # the whole hotel at once needs no houses
    assert t.state.holdings[39].level == 0 and t.state.houses == 3


def test_classic_even_selling():
    t = Table()
    t.give("A", 1, 3)
    for sq in (1, 3, 1):
        t("build", player="A", square=sq)
    t.fails("sell.uneven", "sell_building", player="A", square=3)
    t("sell_building", player="A", square=1)


def test_selling_more_levels_than_built_is_refused():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 39, level=1)
    t.fails("sell.too_many", "sell_building", player="A", square=39, count=2)


def test_short_game_hotel_after_three_houses():
    t = Table("short", players=("A", "B"))
    t("deal", player="A", squares=[1, 3])
    t("deal", player="B", squares=[6, 8])
    for _ in range(3):
        t("build", player="A", square=1)
        t("build", player="A", square=3)
    t("build", player="A", square=1)  # the hotel
    assert t.state.holdings[1].level == 4 and t.state.hotels == 11 and t.state.houses == 32 - 6 + 3


@pytest.mark.parametrize("who", ["B"])
def test_only_the_owner_builds(who):
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 39)
    t.fails("square.not_owner", "build", player=who, square=39)


def test_hotel_sold_whole_when_bank_lacks_houses_even_if_uneven():
    t = Table()
    t.give("A", 37, 39, level=5)
    t.state.houses = 2
    t.fails("bank.no_houses_for_hotel", "sell_building", player="A", square=39)
    t("sell_building", player="A", square=39, count=5)
    assert t.state.holdings[39].level == 0 and t.state.holdings[37].level == 5


def test_building_won_at_a_shortage_auction_costs_the_excess():
    """001/002: when the bank is short (two players could build, the bank holds fewer houses than they
    could add), buildings are auctioned starting from the printed price."""
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 39)
    t.give("B", 1)
    t.state.houses = 1
    t.fails("build.below_price", "build", player="A", square=39, price=150)
    out = t("build", player="A", square=39, price=260)
    assert t.cash("A") == 1240 and t.ledger.cost("A") == 60 and t.state.houses == 0
    assert "(1 house)" in out.notes[-1].text and "260" in out.notes[-1].text


@pytest.mark.parametrize(
    "bank",
    [
        {"houses": 32},  # plenty of houses: nothing to auction
        {"houses": 1, "only_one_builder": True},  # short, but one player alone wants them
    ],
)
def test_a_build_at_its_own_price_is_refused_unless_the_bank_is_short(bank):
    """GAME_RECORD.md: ``price`` only when the bank is short of buildings and auctioned one."""
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 39)
    if not bank.get("only_one_builder"):
        t.give("B", 1)
    t.state.houses = bank["houses"]
    t.fails("build.no_shortage", "build", player="A", square=39, price=260)
    t.fails("build.no_shortage", "build", player="A", square=39, price=200)  # its price, too: not a sale
    assert t.cash("A") == 1500 and t.state.holdings[39].level == 0
    t("build", player="A", square=39)  # at the printed price, as always
    assert t.cash("A") == 1300


def test_a_hotel_is_short_when_two_players_could_each_add_one_and_the_bank_has_one():
    t = Table()
    t.give("A", 37, 39, level=4)
    t.give("B", 1, 3, level=4)
    t.state.hotels = 1
    out = t("build", player="A", square=39, price=300)  # won at the bank's auction of its last hotel
    assert t.state.hotels == 0 and t.state.holdings[39].level == 5 and "300" in out.notes[-1].text
