"""Buying, declining, auctions and rent (RULES.md §1 rows 'unbought property', rent rows; 004 §1–§2)."""

import pytest

from tests.support import Table


def test_buy_at_printed_price_is_neither_income_nor_cost():
    t = Table()
    t.roll("A", 2, 4)  # Oriental Avenue, 100
    t("buy", player="A")
    assert t.cash("A") == 1400 and t.state.owner_of(6) == "A"
    assert t.ledger.income("A") == 0 and t.ledger.cost("A") == 0


def test_buy_with_wrong_amount_names_the_price():
    t = Table()
    t.roll("A", 2, 4)
    e = t.fails("amount.mismatch", "buy", player="A", amount=90)
    assert "100" in e.message


def test_buy_without_enough_cash_is_refused():
    t = Table()
    t.set_cash("A", 50)
    t.roll("A", 2, 4)
    t.fails("money.insufficient", "buy", player="A")


def test_buy_only_by_the_lander():
    t = Table()
    t.roll("A", 2, 4)
    t.fails("buy.not_pending", "buy", player="B")


def test_decline_opens_auction_with_any_bid_in_classic():
    t = Table()
    t.roll("A", 2, 4)
    t("decline", player="A")
    t.fails("pending.auction", "roll", player="B", dice=[1, 2])
    t("auction", square=6, winner="A", price=1)  # the decliner may bid too
    assert t.state.owner_of(6) == "A"


def test_auction_opens_at_half_price_in_tournament_pl():
    t = Table("tournament-pl", "classic-pl")
    t.roll("A", 1, 2)  # ul. Stalowa, 60
    t("decline", player="A")
    e = t.fails("auction.below_opening_bid", "auction", square=3, winner="B", price=29)
    assert e.message == "Auction price 29 is below the opening bid 30 (half of 60) in tournament-pl."
    t("auction", square=3, winner="B", price=30)
    assert t.ledger.income("B") == 30  # bought 30 below the printed price: an income (RULES.md §2)


def test_auction_nobody_bought_leaves_square_with_bank():
    t = Table()
    t.roll("A", 2, 4)
    t("decline", player="A")
    t.fails("auction.price_without_winner", "auction", square=6, winner=None, price=10)
    t("auction", square=6, winner=None, price=0)
    assert t.state.owner_of(6) is None


def test_auction_of_wrong_square_refused():
    t = Table()
    t.roll("A", 2, 4)
    t("decline", player="A")
    t.fails("auction.not_pending", "auction", square=8, winner="B", price=50)


def test_auction_bid_must_be_covered_by_cash():
    t = Table()
    t.roll("A", 2, 4)
    t("decline", player="A")
    t.fails("money.insufficient", "auction", square=6, winner="B", price=1600)


def test_auction_above_printed_price_is_a_cost_004_example():
    """004: 'M300 card bought for M400: the buyer's cost is M100'."""
    t = Table("tournament-pl", "classic-pl")
    t.place("A", 29)
    t.roll("A", 1, 1)  # 31: Plac Trzech Krzyży, 300
    t("decline", player="A")
    t("auction", square=31, winner="B", price=400)
    assert t.ledger.cost("B") == 100 and t.ledger.income("B") == 0


def test_example_first_round_of_tournament_pl():
    """GAME_RECORD.md example: Bartek wins Targowa (120) at 150: his cost 30; rent 6 without the group."""
    t = Table("tournament-pl", "classic-pl", players=("A", "B"))
    t.roll("A", 3, 3)
    t("buy", player="A")
    t.roll("A", 1, 2)
    t("decline", player="A")
    t("auction", square=9, winner="B", price=150)
    t.roll("B", 2, 4)
    t("rent", player="B")
    assert (t.cash("A"), t.ledger.income("A"), t.ledger.cost("A")) == (1406, 6, 0)
    assert (t.cash("B"), t.ledger.income("B"), t.ledger.cost("B")) == (1344, 0, 36)


def test_rent_single_street():
    t = Table()
    t.give("B", 6)
    t.roll("A", 2, 4)
    assert t.state.rents[0].amount == 6
    t("rent", player="A", amount=6)
    assert t.cash("A") == 1494 and t.cash("B") == 1506


def test_rent_doubles_on_unbuilt_street_of_a_whole_group():
    t = Table()
    t.give("B", 6, 8, 9)
    t.roll("A", 2, 4)
    assert t.state.rents[0].amount == 12


def test_no_double_rent_when_a_street_of_the_group_is_mortgaged():
    t = Table()
    t.give("B", 6, 9).give("B", 8, mortgaged=True)
    t.roll("A", 2, 4)
    assert t.state.rents[0].amount == 6


def test_mortgaged_square_pays_no_rent():
    t = Table()
    t.give("B", 6, mortgaged=True)
    t.roll("A", 2, 4)
    assert t.state.rents == ()


@pytest.mark.parametrize(("level", "rent"), [(1, 30), (2, 90), (3, 270), (4, 400), (5, 550)])
def test_rent_with_houses_and_hotel(level, rent):
    t = Table()
    t.give("B", 8, 9).give("B", 6, level=level)
    t.roll("A", 2, 4)
    assert t.state.rents[0].amount == rent


def test_short_game_hotel_is_level_four_with_hotel_rent():
    t = Table("short", players=("A", "B"))
    t("deal", player="A", squares=[1, 3])
    t("deal", player="B", squares=[8, 9])
    t.give("B", 6, level=4)
    t.roll("A", 2, 4)
    assert t.state.rents[0].amount == 550


@pytest.mark.parametrize(
    ("owned", "rent"), [((5,), 25), ((5, 15), 50), ((5, 15, 25), 100), ((5, 15, 25, 35), 200)]
)
def test_railroad_rent_by_number_owned(owned, rent):
    t = Table()
    t.give("B", *owned)
    t.roll("A", 1, 4)
    assert t.state.rents[0].amount == rent


@pytest.mark.parametrize(("owned", "rent"), [((12,), 4 * 12), ((12, 28), 10 * 12)])
def test_utility_rent_uses_the_dice(owned, rent):
    t = Table()
    t.give("B", *owned)
    t.roll("A", 6, 6)
    assert t.state.rents[0].amount == rent


def test_rent_lapses_at_next_roll():
    t = Table()
    t.give("C", 6)
    t.roll("A", 2, 4)
    t.roll("B", 4, 6)
    t.fails("rent.none", "rent", player="A")


def test_rent_lapses_at_the_extra_roll_of_a_double_with_next_roll_option():
    t = Table(options={"rent_lapses_at": "next_roll"})
    t.give("C", 8)
    t.roll("A", 4, 4)  # 8 Vermont
    t.roll("A", 1, 3)  # 12 Electric Company (unowned)
    t.fails("rent.none", "rent", player="A")


def test_rent_survives_the_extra_roll_by_default():
    t = Table()
    t.give("C", 8)
    t.roll("A", 4, 4)
    t.roll("A", 4, 6)  # 18 Tennessee
    t("decline", player="A")
    t("auction", square=18, winner=None, price=0)
    t("rent", player="A", square=8)
    assert t.cash("C") == 1506
    t.roll("B", 4, 6)
    assert t.state.rents == ()


def test_rent_claim_can_push_payer_into_debt_which_blocks_the_next_roll():
    t = Table()
    t.give("B", 39, level=5)
    t.set_cash("A", 100).place("A", 35)
    t.roll("A", 1, 3)
    t("rent", player="A")
    assert t.cash("A") == -1900 and t.p("A").debt_to == "B"
    e = t.fails("pending.debt", "roll", player="B", dice=[1, 2])
    assert "1900" in e.message
