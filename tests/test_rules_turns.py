"""Turns, dice, salary, rounds and the end of the game (RULES.md §1)."""

import pytest

from tests.support import Table


def test_roll_moves_token_by_dice_total():
    t = Table()
    t.roll("A", 2, 3)
    assert t.p("A").position == 5


def test_first_roll_belongs_to_first_seat():
    t = Table()
    e = t.fails("roll.not_your_turn", "roll", player="B", dice=[1, 2])
    assert "A" in e.message


def test_turn_passes_in_seat_order_and_rounds_count():
    t = Table()
    t.roll("A", 4, 6)  # 10: just visiting
    t.fails("roll.not_your_turn", "roll", player="C", dice=[1, 2])
    t.roll("B", 1, 3)  # 4: Income Tax
    t.roll("C", 2, 3)  # 5: Reading Railroad
    t("decline", player="C")
    t("auction", square=5, winner=None, price=0)
    assert t.state.round == 1
    t.roll("A", 4, 6)
    assert t.state.round == 2


def test_double_gives_another_roll_to_same_player():
    t = Table()
    t.roll("A", 2, 2)  # Income tax
    t.fails("roll.not_your_turn", "roll", player="B", dice=[1, 2])
    t.roll("A", 1, 2)  # 7: Chance
    assert t.state.decision is not None


def test_three_doubles_send_to_jail_in_classic_without_moving():
    t = Table()
    t.roll("A", 1, 1)  # 2 community chest
    t("card", player="A", card="community_chest:income-tax-refund")
    t.roll("A", 2, 2)  # 6 Oriental
    t("decline", player="A")
    t("auction", square=6, winner=None, price=0)
    t.roll("A", 3, 3)
    assert t.p("A").in_jail and t.p("A").position == 10
    t.roll("B", 1, 2)  # turn passed


def test_two_doubles_send_to_jail_in_tournament_pl():
    t = Table("tournament-pl", "classic-pl")
    t.roll("A", 3, 3)  # 6
    t("buy", player="A")
    t.roll("A", 1, 1)
    assert t.p("A").in_jail and t.p("A").position == 10
    assert not t.state.roll_again


def test_salary_when_passing_start():
    t = Table()
    t.place("A", 38)
    t.roll("A", 1, 2)  # 41 -> 1
    assert t.p("A").position == 1
    assert t.cash("A") == 1500 + 200


def test_salary_when_landing_on_start():
    t = Table()
    t.place("A", 35)
    t.roll("A", 2, 3)
    assert t.p("A").position == 0 and t.cash("A") == 1700


def test_tax_square_is_paid_automatically():
    t = Table()
    t.roll("A", 1, 3)
    assert t.cash("A") == 1300
    t.roll("B", 3, 4)  # 7: Chance
    t("card", player="B", card="chance:speeding-fine")
    assert t.cash("B") == 1485


def test_pending_decision_blocks_next_roll():
    t = Table()
    t.roll("A", 2, 4)  # Oriental, unowned
    e = t.fails("pending.buy", "roll", player="B", dice=[1, 2])
    assert "Oriental Avenue" in e.message


def test_round_limit_ends_tournament_game_after_ten_rounds():
    t = Table("tournament-pl", "classic-pl", players=("A", "B"))
    for _ in range(10):
        for pid in ("A", "B"):
            t.state.player(pid).position = 10  # always from jail square visiting: +1+2 → 13 (street)
            t.roll(pid, 1, 2)
            if t.state.decision:
                t("decline", player=pid)
                t("auction", square=13, winner=None, price=0)
            elif t.state.rents:
                t("rent", player=pid)
    assert t.state.finished and t.state.end_reason == "rounds" and t.state.round == 10
    t.fails("game.finished", "roll", player="A", dice=[1, 2])


def test_max_rounds_option_overrides_variant():
    t = Table("classic", players=("A", "B"), options={"max_rounds": 1})
    t.roll("A", 3, 4)
    t("card", player="A", card="chance:bank-dividend")
    assert not t.state.finished
    t.roll("B", 1, 3)
    assert t.state.finished and t.state.end_reason == "rounds"


def test_last_turn_with_double_is_finished_after_extra_roll():
    t = Table("classic", players=("A", "B"), options={"max_rounds": 1})
    t.roll("A", 3, 4)
    t("card", player="A", card="chance:bank-dividend")
    t.roll("B", 2, 2)
    assert not t.state.finished
    t.roll("B", 1, 2)  # 7 chance
    assert not t.state.finished  # the card must still be drawn
    t("card", player="B", card="chance:bank-dividend")
    assert t.state.finished


def test_rent_of_the_last_roll_can_still_be_claimed_after_the_end():
    t = Table("classic", players=("A", "B"), options={"max_rounds": 1})
    t.give("A", 3)
    t.roll("A", 2, 4)  # Oriental
    t("decline", player="A")
    t("auction", square=6, winner=None, price=0)
    t.roll("B", 1, 2)  # Baltic, owned by A
    assert t.state.finished
    t("rent", player="B")
    assert t.cash("A") == 1504


def test_time_up_finishes_the_round_in_play():
    t = Table("timed", players=("A", "B"), options={"time_limit_minutes": 90})
    t("deal", player="A", squares=[1, 3])
    t("deal", player="B", squares=[6, 8])
    t.roll("A", 1, 3)
    t("time_up")
    assert not t.state.finished
    t.roll("B", 4, 5)  # 9 Connecticut
    t("decline", player="B")
    assert not t.state.finished  # auction pending
    t("auction", square=9, winner="A", price=100)
    assert t.state.finished and t.state.end_reason == "time"


def test_time_up_ends_at_once_when_round_option_off():
    t = Table(
        "polish-table", players=("A", "B"), options={"finish_round_on_time": False, "time_limit_minutes": 90}
    )
    t.roll("A", 1, 3)
    t("time_up")
    assert t.state.finished and t.state.end_reason == "time"


def test_time_up_refused_in_untimed_variant():
    t = Table("classic")
    t.fails("time_up.not_timed", "time_up")


def test_deals_come_before_the_first_roll_in_short_game():
    t = Table("short", players=("A", "B"))
    t.fails("pending.deal", "roll", player="A", dice=[1, 2])
    t("deal", player="A", squares=[39, 37])
    assert t.cash("A") == 1500 - 750
    t("deal", player="B", squares=[1, 3])
    t.roll("A", 1, 2)
    t.fails("deal.after_start", "deal", player="B", squares=[5])
    t.fails("deal.not_in_variant", "deal", player="A", squares=[5]) if False else None


def test_deal_refused_in_classic():
    t = Table()
    t.fails("deal.not_in_variant", "deal", player="A", squares=[1])


def test_timeout_passes_the_turn_and_lapses_buy_without_auction():
    t = Table("polish-table", players=("A", "B"))
    t.roll("A", 3, 3)  # 6, double
    t("timeout", player="A")
    assert t.state.decision is None and not t.state.auctions and 6 not in t.state.holdings
    t.roll("B", 1, 2)


def test_timeout_before_rolling_skips_the_players_roll():
    t = Table("polish-table", players=("A", "B"))
    t.roll("A", 4, 6)
    t("timeout", player="B")
    t.roll("A", 1, 3)
    assert t.state.round == 2


def test_timeout_refused_without_move_time_limit():
    t = Table()
    t.fails("timeout.no_limit", "timeout", player="A")


@pytest.mark.parametrize("variant", ["polish-table", "short"])
def test_second_bankruptcy_ends_the_game(variant):
    t = Table(variant, players=("A", "B", "C"))
    if variant == "short":
        t("deal", player="A", squares=[1, 3])
        t("deal", player="B", squares=[6, 8])
        t("deal", player="C", squares=[11, 13])
    # C owns Boardwalk with a hotel; A and B have almost nothing left and land on it.
    t.give("C", 39, level=t.state.variant.hotel_level)
    for pid in ("A", "B"):
        t.set_cash(pid, 20).place(pid, 35)
    t.roll("A", 1, 3)
    t("rent", player="A")
    t("bankrupt", player="A")
    assert not t.state.finished and t.state.player("A").bankrupt
    t.roll("B", 1, 3)
    t("rent", player="B")
    t("bankrupt", player="B")
    assert t.state.finished and t.state.end_reason == "bankruptcy"
