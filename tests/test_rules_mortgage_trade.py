"""Mortgages, trades, and mortgaged squares changing hands (RULES.md §1–§2; 004 §5–§6)."""

from tests.support import Table


def test_mortgage_and_lift_with_ten_percent_interest_as_cost():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 39)
    t("mortgage", player="A", square=39, amount=200)
    assert t.cash("A") == 1700 and t.ledger.cost("A") == 0  # a loan is neither income nor cost
    t("unmortgage", player="A", square=39, amount=220)
    assert t.cash("A") == 1480 and t.ledger.cost("A") == 20


def test_interest_is_rounded_up():
    t = Table()
    t.give("A", 12, mortgaged=True)  # loan 75: 10 % is 7.5 -> 8
    t("unmortgage", player="A", square=12)
    assert t.cash("A") == 1500 - 83


def test_mortgage_twice_refused_and_unmortgage_of_free_square_refused():
    t = Table()
    t.give("A", 39)
    t.fails("unmortgage.not_mortgaged", "unmortgage", player="A", square=39)
    t("mortgage", player="A", square=39)
    t.fails("mortgage.already", "mortgage", player="A", square=39)


def test_classic_mortgage_needs_no_buildings_in_the_whole_group():
    t = Table()
    t.give("A", 37).give("A", 39, level=1)
    e = t.fails("mortgage.buildings", "mortgage", player="A", square=37)
    assert "Boardwalk" in e.message


def test_tournament_mortgage_needs_no_buildings_on_that_street_only():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 37).give("A", 39, level=1)
    t("mortgage", player="A", square=37)
    t.fails("mortgage.buildings", "mortgage", player="A", square=39)


def test_mortgage_not_owned_refused():
    t = Table()
    t.fails("square.not_owner", "mortgage", player="A", square=39)
    t.fails("square.not_property", "mortgage", player="A", square=4)


def test_trade_sale_above_printed_price_004_example():
    """004 §6: 'card M300 sold for M400: seller's income M100, buyer's cost M100'."""
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 31)  # Plac Trzech Krzyży, 300
    t("trade", **{"player": "A", "with": "B", "give": {"squares": [31]}, "get": {"cash": 400}})
    assert t.state.owner_of(31) == "B"
    assert t.ledger.income("A") - 300 == 100  # 300 of A's income is the set-up gift of the square
    assert t.ledger.cost("B") == 100


def test_trade_of_squares_cash_and_jail_cards():
    t = Table()
    t.give("A", 1).give("B", 3)
    t.roll("A", 3, 4)
    t("card", player="A", card="chance:get-out-of-jail-free")
    t(
        "trade",
        **{
            "player": "A",
            "with": "B",
            "give": {"squares": [1], "jail_cards": 1},
            "get": {"squares": [3], "cash": 10},
        },
    )
    assert t.state.owner_of(3) == "A" and t.state.owner_of(1) == "B"
    assert t.p("B").jail_cards == ["chance:get-out-of-jail-free"] and t.cash("A") == 1510


def test_the_log_of_a_trade_says_what_changed_hands():
    t = Table("tournament-pl", "classic-pl", players=("Anna", "Bartek", "Celina"))
    t.give("Anna", 1, 3).give("Bartek", 5)
    t.roll("Anna", 3, 4)
    t("card", player="Anna", effect={"kind": "jail_card"})
    swap = {"player": "Anna", "with": "Bartek"}
    out = t("trade", **swap, give={"squares": [1, 3], "cash": 200}, get={"squares": [5]})
    (note,) = [n.text for n in out.notes]
    assert note == "Anna gives Ulica Konopacka, Ulica Stalowa and 200 to Bartek for Dworzec Zachodni."
    out = t("trade", **swap, give={"jail_cards": 1}, get={"cash": 30})
    assert out.notes[0].text == "Anna gives 1 'Get out of jail free' card to Bartek for 30."
    out = t("trade", **swap, give={}, get={"squares": [1]})  # a gift is told by the side that gives
    assert out.notes[0].text == "Bartek gives Ulica Konopacka to Anna."


def test_trade_refusals():
    t = Table()
    t.give("A", 1, 3, level=1)
    trade = {"player": "A", "with": "B"}
    t.fails("trade.buildings", "trade", **trade, give={"squares": [1]}, get={"cash": 10})
    t.fails("square.not_owner", "trade", **trade, give={"squares": [39]}, get={"cash": 10})
    t.fails("trade.cash", "trade", **trade, give={"cash": 5000}, get={})
    t.fails("trade.empty", "trade", **trade)
    t.fails("trade.self", "trade", player="A", **{"with": "A"}, give={"cash": 1})
    t.fails("trade.jail_cards", "trade", **trade, give={"jail_cards": 1}, get={"cash": 1})


def test_classic_mortgaged_square_received_pays_ten_percent_at_once():
    t = Table()
    t.give("A", 39, mortgaged=True)  # loan 200
    t("trade", **{"player": "A", "with": "B", "give": {"squares": [39]}, "get": {"cash": 100}})
    assert t.cash("B") == 1500 - 100 - 20
    t.roll("A", 4, 6)
    t.roll("B", 4, 6)  # the receiver's next roll: the 10 % paid no longer counts
    t("unmortgage", player="B", square=39)
    assert t.cash("B") == 1380 - 220  # lifting later costs another 10 %


def test_classic_mortgaged_square_lifted_at_once_costs_loan_plus_one_ten_percent():
    """001/002: the buyer may lift the mortgage at once for the loan plus 10 % (the 10 % paid on receipt)."""
    t = Table()
    t.give("A", 39, mortgaged=True)
    t("trade", **{"player": "A", "with": "B", "give": {"squares": [39]}, "get": {"cash": 100}})
    t("unmortgage", player="B", square=39, amount=200)
    assert t.cash("B") == 1500 - 100 - 20 - 200
    assert (t.ledger.income("B"), t.ledger.cost("B")) == (100, 20)  # bought 100 under book value; the fee


def test_tournament_mortgaged_square_received_pays_only_when_lifting():
    t = Table("tournament-pl", "classic-pl")
    t.give("A", 39, mortgaged=True)
    t("trade", **{"player": "A", "with": "B", "give": {"squares": [39]}, "get": {"cash": 100}})
    assert t.cash("B") == 1400
    # buyer takes over the loan: book value 400 − 200 = 200, paid 100 → income 100 (RULES.md §2 decision)
    assert t.ledger.income("B") == 100
    t("unmortgage", player="B", square=39)
    assert t.cash("B") == 1400 - 220 and t.ledger.cost("B") == 20
