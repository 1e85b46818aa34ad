"""Debts and bankruptcy (RULES.md §2 last row; 001/002 'Bankructwo')."""

from tests.support import Table


def indebted_to_b(variant="classic", board="classic-us", cash=100):
    """A (with little cash) lands on B's Boardwalk hotel and pays the rent: A owes B."""
    t = Table(variant, board)
    t.give("B", 39, level=5).set_cash("A", cash).place("A", 35)
    t.roll("A", 1, 3)
    t("rent", player="A")
    return t


def test_bankruptcy_needs_a_debt():
    t = Table()
    t.fails("bankrupt.no_debt", "bankrupt", player="A")


def test_bankruptcy_refused_while_mortgaging_could_pay():
    t = indebted_to_b()
    # A owes 1900; selling Park Place's hotel (500) and mortgaging everything (1705) would raise 2205
    t.give("A", 37, level=5).give("A", 31, 32, 34, 1, 3, 6, 8, 9, 11, 13, 14, 16, 18, 19, 21, 23, 24)
    e = t.fails("bankrupt.can_pay", "bankrupt", player="A")
    assert "must be paid" in e.message


def test_bankrupt_to_player_creditor_gets_cash_squares_and_pays_classic_fee():
    t = Table()
    t.give("B", 39, level=5).set_cash("A", 100).place("A", 35)
    t.give("A", 1, 3, level=1)  # buildings go to the bank at half price
    t.give("A", 6, mortgaged=True)  # the creditor pays 10 % on it (classic)
    t.roll("A", 1, 3)
    t("rent", player="A")
    before_b = t.cash("B")
    t("bankrupt", player="A")
    a = t.p("A")
    assert a.bankrupt and a.bankrupt_order == 1 and a.cash == 0
    assert {sq: h.owner for sq, h in t.state.holdings.items() if sq in (1, 3, 6)} == {1: "B", 3: "B", 6: "B"}
    assert t.state.holdings[1].level == 0 and t.state.houses == 32
    # A's cash after the rent: 100 - 2000 + 2 * 25 (houses sold) = -1850 passes to B; fee 10 % of 50 = 5
    assert t.cash("B") == before_b - 1850 - 5


def test_bankrupt_to_bank_returns_squares_to_auction():
    t = Table()
    t.give("A", 1, 3).set_cash("A", 100).place("A", 1)
    t.roll("A", 1, 2)  # 4: Income tax 200
    assert t.cash("A") == -100 and t.p("A").debt_to == "bank"
    t("bankrupt", player="A")  # two mortgages would raise only 60
    assert t.state.holdings == {} and t.state.bank_sale == (1, 3) and t.state.auctions == ()
    assert t.ledger.equity("A") == 0  # everything he had is a cost
    t("auction", square=1, winner="B", price=10)
    out = t.roll("B", 4, 6)  # the bank's sale closes at the next roll: Baltic Avenue stays with the bank
    assert t.state.owner_of(1) == "B" and t.state.owner_of(3) is None and t.state.bank_sale == ()
    assert "Baltic Avenue stay with the bank" in out.notes[0].text
    t.fails("auction.not_pending", "auction", square=3, winner="C", price=10)


def test_bankrupt_player_cannot_act_and_is_skipped():
    t = Table()
    t.set_cash("A", 100).place("A", 1)
    t.roll("A", 1, 2)
    t("bankrupt", player="A")
    t.fails("player.bankrupt", "roll", player="A", dice=[1, 2])
    t.roll("B", 4, 6)
    t.roll("C", 4, 6)
    t.roll("B", 4, 6)  # A's seat is skipped
    assert t.state.round == 2


def test_last_player_left_wins_classic():
    t = Table(players=("A", "B"))
    t.set_cash("A", 100).place("A", 1)
    t.roll("A", 1, 2)
    t("bankrupt", player="A")
    assert t.state.finished and t.state.end_reason == "last_player"


def test_debt_cleared_by_mortgaging():
    t = indebted_to_b(cash=100)
    squares = (31, 32, 34, 1, 3, 6, 8, 9, 11, 13, 14, 16, 18, 19, 21, 23, 24)
    t.give("A", *squares)
    for sq in squares:
        t("mortgage", player="A", square=sq)
    assert t.cash("A") == -1900 + 1520 and t.p("A").debt_to == "B"
    t("trade", **{"player": "A", "with": "C", "give": {"squares": [31]}, "get": {"cash": 400}})
    assert t.cash("A") >= 0 and t.p("A").debt_to is None
    t.roll("B", 4, 6)
