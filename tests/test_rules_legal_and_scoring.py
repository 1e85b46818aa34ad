"""What the engine offers as legal (the console's buttons) and the table ranking (RULES.md §3–§4)."""

import random

from rules import apply, replay
from rules.legal import legal_actions
from rules.scoring import ranking
from rules.simulate import Simulator
from rules.valuation import net_worth, net_worths
from tests.support import Table


def test_legal_at_start_is_first_players_roll():
    t = Table()
    legal = legal_actions(t.state)
    assert legal.roll == "A" and not legal.roll_again and legal.buy is None and legal.blocked_by is None


def test_legal_buy_and_auction_with_opening_bid():
    t = Table("tournament-pl", "classic-pl")
    t.roll("A", 1, 2)
    legal = legal_actions(t.state)
    assert legal.roll is None
    assert legal.buy == {"player": "A", "square": 3, "price": 60, "can_pay": True, "auction": 30}
    assert legal.blocked_by["code"] == "pending.buy" and "buy or decline" in legal.blocked_by["t"]
    t("decline", player="A")
    assert legal_actions(t.state).auctions == [{"square": 3, "opening_bid": 30, "optional": False}]


def test_legal_buy_says_no_auction_follows_where_a_declined_square_stays_with_the_bank():
    t = Table("anti-monopoly", "anti-monopoly-us", roles=("competitor", "monopolist", "competitor"))
    t.roll("A", 1, 2)
    assert legal_actions(t.state).buy["auction"] is None


def test_legal_card_lists_only_cards_in_the_deck():
    t = Table()
    t.roll("A", 3, 4)
    t("card", player="A", card="chance:get-out-of-jail-free")
    t.roll("B", 3, 4)
    cards = legal_actions(t.state).card
    assert (
        cards["player"] == "B" and "get-out-of-jail-free" not in cards["cards"] and len(cards["cards"]) == 14
    )


def test_legal_rent_debt_and_per_player_options():
    t = Table()
    t.give("B", 37, 39).give("B", 1, mortgaged=True)
    t.roll("A", 3, 4)
    t("card", player="A", card="chance:advance-to-boardwalk")
    legal = legal_actions(t.state)
    assert legal.rents == [{"payer": "A", "owner": "B", "square": 39, "amount": 100, "times": 0}]
    opts = legal.players["B"]
    assert opts.build == [37, 39] and opts.mortgage == [37, 39] and opts.unmortgage == {1: 33}
    assert opts.tradable == [1, 37, 39] and not opts.bankrupt


def test_legal_timeout_only_with_move_limit():
    assert legal_actions(Table().state).timeout is None
    assert legal_actions(Table("polish-table").state).timeout == "A"


def test_every_offered_action_is_accepted_by_the_engine():
    """Over simulated games, each build, sell, mortgage, unmortgage, trade or jail option offered applies."""
    rng = random.Random(1)
    checked = 0
    for seed in range(12):
        variant, board = rng.choice([("classic", "classic-us"), ("tournament-pl", "classic-pl")])
        sim = Simulator(variant, board, 4, seed, rounds=25)
        result = replay(sim.run(), keep=True)
        for out in result.outcomes[::7]:
            s = out.state
            legal = legal_actions(s)
            for pid, o in legal.players.items():
                events = [{"type": "build", "player": pid, "square": sq} for sq in o.build]
                events += [
                    {"type": "sell_building", "player": pid, "square": sq, "count": n}
                    for sq, n in o.sell_building.items()
                ]
                events += [{"type": "mortgage", "player": pid, "square": sq} for sq in o.mortgage]
                events += [
                    {"type": "unmortgage", "player": pid, "square": sq, "amount": amount}
                    for sq, amount in o.unmortgage.items()
                    if s.player(pid).cash >= amount
                ]
                others = [q for q in legal.players if q != pid]
                events += [
                    {"type": "trade", "player": pid, "with": others[0], "give": {"squares": [sq]}}
                    for sq in o.tradable
                    if others
                ]
                if o.jail_fine:
                    events.append({"type": "jail_fine", "player": pid})
                if o.bankrupt:
                    events.append({"type": "bankrupt", "player": pid})
                for ev in events:
                    if s.finished:
                        break
                    apply(s, ev)
                    checked += 1
    assert checked > 200


def test_ranking_by_net_worth_with_ties_sharing_a_rank():
    t = Table(players=("A", "B", "C", "D"))
    t.give("A", 39).set_cash("B", 1900).set_cash("C", 1900)
    assert [net_worth(t.state, p) for p in "ABCD"] == [1900, 1900, 1900, 1500]
    t.set_cash("A", 1901)
    assert ranking(t.state) == {"A": 1, "B": 2, "C": 2, "D": 4}


def test_ranking_puts_bankrupt_players_last_later_bankrupt_first():
    t = Table(players=("A", "B", "C", "D"))
    for pid in ("A", "B"):
        t.set_cash(pid, 100).place(pid, 1)
    t.roll("A", 1, 2)
    t("bankrupt", player="A")
    t.roll("B", 1, 2)
    t("bankrupt", player="B")
    t.set_cash("D", 1600)
    assert ranking(t.state) == {"D": 1, "C": 2, "B": 3, "A": 4}


def test_net_worth_counts_mortgaged_at_half_and_hotel_with_its_houses():
    t = Table()
    t.give("A", 39, level=5).give("A", 37, mortgaged=True)
    assert net_worth(t.state, "A") == 1500 + 400 + 5 * 200 + 175


def test_every_players_net_worth_at_once_is_each_ones():
    t = Table()
    t.give("A", 39, level=5).give("A", 37, mortgaged=True).give("B", 5)
    assert net_worths(t.state) == {p: net_worth(t.state, p) for p in "ABC"}
    assert net_worths(t.state)["C"] == 1500  # nothing but his cash
