"""Chance / Community Chest cards and jail (RULES.md §1 'leaving jail'; 001 'Więzienie'; 004)."""

import pytest

from tests.support import Table


def at_chance(t, player="A"):
    t.roll(player, 3, 4)  # 7: Chance
    return t


def test_card_collect_and_pay():
    t = at_chance(Table())
    t("card", player="A", card="chance:building-loan-matures")
    assert t.cash("A") == 1650 and t.ledger.income("A") == 150


def test_card_must_come_from_the_pending_deck():
    t = at_chance(Table())
    t.fails("card.wrong_deck", "card", player="A", card="community_chest:bank-error")
    t.fails("card.unknown", "card", player="A", card="chance:no-such-card")
    t.fails("card.not_pending", "card", player="B", card="chance:bank-dividend")


def test_advance_to_go_pays_salary_once():
    t = at_chance(Table())
    t("card", player="A", card="chance:advance-to-go")
    assert t.p("A").position == 0 and t.cash("A") == 1700


def test_advance_past_go_pays_salary():
    t = Table()
    t.place("A", 29)
    t.roll("A", 3, 4)  # 36: Chance
    t("card", player="A", card="chance:advance-to-st-charles-place")
    assert t.p("A").position == 11 and t.cash("A") == 1700
    assert t.state.decision.square == 11


def test_go_back_three_spaces_lands_and_pays_no_salary():
    t = at_chance(Table())
    t("card", player="A", card="chance:go-back-3-spaces")
    assert t.p("A").position == 4 and t.cash("A") == 1300  # Income Tax


def test_nearest_railroad_pays_double_rent():
    t = Table()
    t.give("B", 15)
    at_chance(t)
    t("card", player="A", card="chance:advance-to-nearest-railroad")
    assert t.p("A").position == 15 and t.state.rents[0].amount == 50


def test_nearest_utility_needs_dice_and_pays_ten_times():
    t = Table()
    t.give("B", 12)
    at_chance(t)
    t.fails("card.dice_needed", "card", player="A", card="chance:advance-to-nearest-utility")
    t("card", player="A", card="chance:advance-to-nearest-utility", dice=[2, 3])
    assert t.state.rents[0].amount == 50


def test_nearest_utility_unowned_can_be_bought():
    t = at_chance(Table())
    t("card", player="A", card="chance:advance-to-nearest-utility")
    assert t.state.decision.square == 12


def test_go_to_jail_card():
    t = at_chance(Table())
    t("card", player="A", card="chance:go-to-jail")
    assert t.p("A").in_jail and t.p("A").position == 10 and t.cash("A") == 1500


def test_jail_card_is_kept_and_cannot_be_drawn_twice():
    t = at_chance(Table())
    t("card", player="A", card="chance:get-out-of-jail-free")
    assert t.p("A").jail_cards == ["chance:get-out-of-jail-free"]
    at_chance(t, "B")
    t.fails("card.held", "card", player="B", card="chance:get-out-of-jail-free")


def test_repairs_count_houses_and_hotels():
    t = Table()
    t.give("A", 6, 8, level=2).give("A", 9, level=5)
    at_chance(t)
    t("card", player="A", card="chance:general-repairs")
    assert t.cash("A") == 1500 - (4 * 25 + 100)


def test_pay_each_and_collect_from_each_player():
    t = at_chance(Table())
    t("card", player="A", card="chance:chairman-of-the-board")
    assert (t.cash("A"), t.cash("B"), t.cash("C")) == (1400, 1550, 1550)
    t.roll("B", 1, 1)  # 2: Community Chest
    t("card", player="B", card="community_chest:it-is-your-birthday")
    assert (t.cash("A"), t.cash("B"), t.cash("C")) == (1390, 1570, 1540)


def test_card_by_effect_on_polish_board():
    t = Table("tournament-pl", "classic-pl")
    at_chance(t)
    t.fails("card.unlisted_deck", "card", player="A", card="chance:anything")
    t("card", player="A", effect={"kind": "pay", "amount": 20})
    assert t.cash("A") == 1480


def test_card_with_malformed_effect_is_a_record_error():
    t = Table("tournament-pl", "classic-pl")
    at_chance(t)
    t.fails("board.invalid", "card", player="A", effect={"kind": "teleport"})


# -- jail -----------------------------------------------------------------------------------------------
def jailed(variant="classic", board="classic-us"):
    """A is sent to jail by the 'Go to jail' square; B and C then play their turns."""
    t = Table(variant, board)
    t.place("A", 25)
    t.roll("A", 2, 3)
    t.roll("B", 4, 6)
    t.roll("C", 4, 6)
    return t


def test_go_to_jail_square():
    t = Table()
    t.place("A", 25)
    t.roll("A", 2, 3)
    assert t.p("A").in_jail and t.p("A").position == 10 and t.cash("A") == 1500


def test_classic_jail_three_tries_then_pay_and_move():
    t = jailed()
    for _ in range(2):
        t.roll("A", 1, 2)
        assert t.p("A").in_jail
        t.roll("B", 4, 6)
        t.roll("C", 4, 6)
    t.roll("A", 1, 2)  # third failed try: pays 50, moves 3
    assert not t.p("A").in_jail and t.p("A").position == 13 and t.cash("A") == 1450


def test_classic_jail_double_leaves_without_extra_roll():
    t = jailed()
    t.roll("A", 2, 2)
    assert not t.p("A").in_jail and t.p("A").position == 14
    t("decline", player="A")
    t("auction", square=14, winner=None, price=0)
    t.roll("B", 4, 6)  # A does not roll again


def test_tournament_jail_double_leaves_and_rolls_again():
    t = jailed("tournament-pl", "classic-pl")
    t.roll("A", 2, 2)
    assert not t.p("A").in_jail
    t("decline", player="A")
    t("auction", square=14, winner=None, price=0)
    t.roll("A", 3, 3)  # a second double: 2 doubles in a row send to jail
    assert t.p("A").in_jail


def test_tournament_jail_wait_two_turns_then_free():
    t = jailed("tournament-pl", "classic-pl")
    for _ in range(2):
        t.roll("A", 1, 2)
        assert t.p("A").in_jail
        t.roll("B", 4, 6)
        t.roll("C", 4, 6)
    t.roll("A", 1, 2)  # third turn: leaves free
    assert not t.p("A").in_jail and t.p("A").position == 13 and t.cash("A") == 1500


def test_jail_fine_before_rolling():
    t = jailed()
    t("jail_fine", player="A")
    assert not t.p("A").in_jail and t.cash("A") == 1450
    t.roll("A", 1, 2)
    assert t.p("A").position == 13


def test_jail_card_use():
    t = Table()
    t.roll("A", 3, 4)
    t("card", player="A", card="chance:get-out-of-jail-free")
    t.roll("B", 4, 6)
    t.roll("C", 4, 6)
    t.place("A", 25)
    t.roll("A", 2, 3)  # Go to jail
    t.fails("jail.not_in_jail", "jail_card", player="B")
    t.roll("B", 4, 6)
    t.roll("C", 4, 6)
    t("jail_card", player="A")
    assert not t.p("A").in_jail and t.p("A").jail_cards == []


def test_jail_card_without_card_refused():
    t = jailed()
    t.fails("jail.no_card", "jail_card", player="A")


@pytest.mark.parametrize("variant", ["classic", "tournament-pl"])
def test_owner_in_jail_still_collects_rent(variant):
    t = jailed(variant, "classic-us" if variant == "classic" else "classic-pl")
    t.give("A", 19)
    t.roll("A", 1, 2)  # stays in jail
    t.place("B", 10)
    t.roll("B", 4, 5)  # 19
    square = t.state.board.square(19)  # New York Avenue / Ulica Wolska, A's only orange street
    assert (square.group, square.rents[0]) == ("orange", 16)
    before = {p: t.cash(p) for p in ("A", "B")}
    out = t("rent", player="B")
    assert t.p("A").in_jail
    # the printed rent of an unbuilt street outside a full group: no doubling, nothing held back for jail
    rent = [m for m in out.movements if m.kind == "rent"]
    assert [(m.square, m.leg("B").cash, m.leg("A").cash) for m in rent] == [(19, -16, 16)]
    assert (t.cash("A") - before["A"], t.cash("B") - before["B"]) == (16, -16)
