"""Anti-Monopoly (seeds 003 English, 000 Polish; RULES.md §1 last column, §4): one test per role difference
and per ending, every figure worked out by hand from the board data (rules/boards/anti-monopoly-us.json).

Players are named by role: ``C``, ``C1``, ``C2`` … are competitors, ``M``, ``M1``, ``M2`` … monopolists.
Every event applied through :class:`tests.support.Table` also checks the ledger identity.

Board figures used below (price / house cost / competitor ``rents`` / monopolist ``monopolist_rents``):
  1 Basin St. 60/50 [6, 11, 16, 21, 26, 31] / [6, 12, 22, 32, 42, 52], loan 30, note 33   (New Orleans: 1, 3)
  3 French Quarter: as Basin St.
  6 Sunset Blvd. 100/50 [10, 15, …] / [10, 20, 30, …]; 8 Wilshire Blvd.: as Sunset, note 55
  9 Hollywood Blvd. 120/50 [12, 17, …] / [12, 24, 34, 44, 54, 64]                       (Los Angeles: 6, 8, 9)
  14 Michigan Ave. 160, rent 16; 11 Rush St. 140, rent 14                                (Chicago: 11, 13, 14)
  37 Fifth Ave. 350/200 [35, …] / [35, 70, …]; 39 Wall St. 400/200 [40, …] / [40, 80, 120, 160, 200, 240]
  transport 5, 15, 25, 35: price 200, competitor 20 whatever the number, monopolist 40/80/160/320
  utilities 12, 28: price 150, competitor 4× / 4×, monopolist 4× / 10× (of a fresh throw)
  4 Income Tax 200 or a percentage; 38 Property Tax 75; 20 Foundation: monopolist pays 160, competitor
  rolls one die (1 → 25, 2 → 50); 30 Go to Price War / Prison; card squares 2, 7, 17, 22, 33, 36.
"""

import json
import random

import pytest

from ledger.report import replay_ledger
from rules import RecordError, parse_record, replay
from rules.final_steps import utilities_to_roll
from rules.movements import BANK
from rules.scoring import ranking, rule_25_wealth, score
from rules.simulate import simulate
from rules.state import Holding
from rules.valuation import net_worth
from tests.support import Table
from tests.support import anti_monopoly_table as table

VARIANT, BOARD = "anti-monopoly", "anti-monopoly-us"
MORTGAGED = "mortgaged"


def record(roles, events=(), **options) -> dict:
    return {
        "format": "monopoly-game-record/1",
        "variant": VARIANT,
        "board": BOARD,
        "players": [{"id": f"P{i}", "role": r} for i, r in enumerate(roles)],
        "options": options,
        "events": list(events),
    }


def give_all(t: Table, player: str, holdings: dict) -> None:
    """``holdings``: square -> building level, or MORTGAGED."""
    for sq, what in holdings.items():
        if what == MORTGAGED:
            t.give(player, sq, mortgaged=True)
        else:
            t.give(player, sq, level=what)


def trade(t: Table, player: str, other: str, give: dict, get: dict):
    return t("trade", **{"player": player, "with": other, "give": give, "get": get})


# -- rule 4: role division ------------------------------------------------------------------------------
COMP, MONO = "competitor", "monopolist"


@pytest.mark.parametrize(
    "roles",
    [
        (COMP, MONO),
        (MONO, COMP),
        (COMP, COMP, MONO),
        (COMP, MONO, MONO),
        (COMP, MONO, COMP, MONO),
        (COMP, COMP, MONO, MONO),
        (COMP, COMP, COMP, MONO, MONO),
        (MONO, MONO, MONO, COMP, COMP),
    ],
)
def test_balanced_roles_are_accepted(roles):
    # 003 r. 4: "the same number of competitors and monopolists or … the difference … cannot be more than one"
    assert parse_record(record(roles)).variant.roles
    assert replay(record(roles)).error is None


@pytest.mark.parametrize(
    "roles",
    [
        (COMP, COMP),
        (MONO, MONO),
        (COMP, COMP, COMP, MONO),
        (COMP, COMP, COMP, COMP, MONO),
        (MONO, MONO, MONO, MONO, COMP),
        (COMP, COMP, COMP, COMP, MONO, MONO),
    ],
)
def test_unbalanced_roles_are_refused(roles):
    # 003 r. 4: "a division of 2 competitors and 3 monopolists is legitimate but … 2 and 4 … is against the
    # rules"; 000 r. 4: "1 Monopolista i 4 Przedsiębiorców, jest niezgodny z Zasadą równowagi ról"
    with pytest.raises(RecordError) as e:
        parse_record(record(roles))
    assert e.value.code == "record.roles_unbalanced"
    assert replay(record(roles)).error["code"] == "record.roles_unbalanced"
    assert replay(record(roles)).error["index"] is None


def test_every_player_needs_a_role():
    data = record((COMP, MONO, COMP))
    del data["players"][1]["role"]
    with pytest.raises(RecordError) as e:
        parse_record(data)
    assert e.value.code == "record.roles_missing"
    assert replay(data).error["code"] == "record.roles_missing"


def test_a_role_is_competitor_or_monopolist():
    data = record((COMP, MONO))
    data["players"][0]["role"] = "treasurer"
    assert replay(data).error["code"] == "record.player_role"


def test_roles_are_kept_for_the_whole_game():
    # 003 r. 4: "The initial role assignment cannot be changed during the game."
    t = table()
    assert (t.p("C").role, t.p("M").role) == ("competitor", "monopolist")


# -- rule 14 / 7 / 9: salary, doubles, declining ---------------------------------------------------------
def test_salary_is_100_when_passing_start():
    t = table()
    t.place("C", 38)
    t.roll("C", 1, 2)  # 38 + 3 = 41: Basin St. (1), passing Start: 1500 + 100
    assert t.p("C").position == 1 and t.cash("C") == 1600 and t.ledger.income("C") == 100
    t("buy", player="C")
    assert t.cash("C") == 1540


def test_salary_is_100_when_landing_on_start():
    t = table()
    t.place("C", 35)
    t.roll("C", 2, 3)  # 35 + 5 = 40: Start
    assert t.p("C").position == 0 and t.cash("C") == 1600


def test_a_double_gives_one_extra_roll_and_a_double_on_it_is_ordinary():
    # 003 r. 7: "must then take one extra turn. On this extra turn, doubles are treated as an ordinary throw"
    t = table()
    t.roll("C", 1, 1)  # 2: a card square, the competitor deck
    assert t.state.decision.deck == "competitor" and t.state.roll_again
    t("card", player="C", effect={"kind": "collect", "amount": 50})  # 1550
    t.roll("C", 2, 2)  # the extra roll: 2 + 4 = 6 (Sunset Blvd.), a double again
    t("decline", player="C")
    assert not t.state.roll_again and not t.p("C").in_jail and t.p("C").position == 6
    t.fails("roll.not_your_turn", "roll", player="C", dice=[3, 4])
    t.roll("M", 5, 6)  # M's turn
    assert t.cash("C") == 1550


def test_doubles_never_send_to_prison():
    t = table()
    t.roll("C", 3, 3)  # 6
    t("decline", player="C")
    t.roll("C", 4, 4)  # 14
    t("decline", player="C")
    t.roll("M", 2, 2)  # 4: income tax
    t("income_tax", player="M", choice="fixed")
    t.roll("M", 6, 6)  # 16
    t("decline", player="M")
    t.roll("C", 1, 1)  # 16: a double again in C's next turn, still no jail
    assert not t.p("C").in_jail and t.p("C").position == 16 and not t.p("M").in_jail


def test_a_declined_property_stays_with_the_bank_and_the_next_roll_follows_at_once():
    # 003 r. 9: "If a player declines to buy the property, it stays in the Treasury as unowned property."
    t = table()
    t.roll("C", 2, 4)  # 6: Sunset Blvd.
    t("decline", player="C")
    assert t.state.auctions == () and t.state.owner_of(6) is None and t.state.decision is None
    t.fails("auction.not_pending", "auction", square=6, winner="M", price=10)
    t.roll("M", 2, 4)  # 6 again: the bank offers it as usual
    assert t.state.decision.square == 6
    t("buy", player="M", amount=100)
    assert t.state.holdings[6] == Holding("M") and t.cash("M") == 1400


# -- rules 10, 12, 19, 20: rent by the owner's role --------------------------------------------------------
DICE_TO = {3: (1, 2), 5: (2, 3), 6: (2, 4), 8: (3, 5), 9: (4, 5)}  # from Start


def landing(owner_role: str, holdings: dict, square: int) -> Table:
    """The payer (seat 0, the other role) rolls from Start onto ``square``; the owner is seat 1."""
    players = ("C", "M") if owner_role == "monopolist" else ("M", "C")
    t = table(players)
    give_all(t, players[1], holdings)
    t.roll(players[0], *DICE_TO[square])
    return t


STREET_RENTS = [
    # competitor: rents[level], never double (the whole of New Orleans owned: still 6), apartment at level 5
    ("competitor", {3: 0}, 3, 6),
    ("competitor", {1: 0, 3: 0}, 3, 6),
    ("competitor", {3: 1}, 3, 11),
    ("competitor", {3: 2}, 3, 16),
    ("competitor", {3: 3}, 3, 21),
    ("competitor", {3: 4}, 3, 26),
    ("competitor", {3: 5}, 3, 31),
    ("competitor", {6: 0, 8: 0, 9: 0}, 9, 12),
    # monopolist: [single, monopolised, 1 house, 2, 3, apartment at level 4]
    ("monopolist", {3: 0}, 3, 6),
    ("monopolist", {1: 0, 3: 0}, 3, 12),
    ("monopolist", {1: 0, 3: 1}, 3, 22),
    ("monopolist", {1: 0, 3: 2}, 3, 32),
    ("monopolist", {1: 0, 3: 3}, 3, 42),
    ("monopolist", {1: 0, 3: 4}, 3, 52),
    ("monopolist", {1: MORTGAGED, 3: 0}, 3, 6),  # r. 12: one of the two mortgaged: single rent
    ("monopolist", {6: 0, 9: 0}, 6, 20),  # any two streets of Los Angeles monopolise it
    ("monopolist", {6: 0, 9: 0}, 9, 24),
    ("monopolist", {6: 0, 8: 0, 9: 0}, 9, 24),  # r. 10: "double on that [third] street also"
    ("monopolist", {6: MORTGAGED, 8: 0, 9: 0}, 9, 24),  # two unmortgaged left: still monopolised
    ("monopolist", {6: MORTGAGED, 8: MORTGAGED, 9: 0}, 9, 12),
]


@pytest.mark.parametrize(("owner_role", "holdings", "square", "rent"), STREET_RENTS)
def test_street_rent_by_the_owners_role(owner_role, holdings, square, rent):
    t = landing(owner_role, holdings, square)
    payer, owner = (p.id for p in t.state.players)
    assert [r.amount for r in t.state.rents] == [rent]
    t("rent", player=payer, amount=rent)
    assert (t.cash(payer), t.cash(owner)) == (1500 - rent, 1500 + rent)


@pytest.mark.parametrize("owner_role", ["competitor", "monopolist"])
def test_no_rent_on_a_mortgaged_street(owner_role):
    t = landing(owner_role, {1: 0, 3: MORTGAGED}, 3)
    assert t.state.rents == ()
    payer = t.state.players[0].id
    t.fails("rent.none", "rent", player=payer)


@pytest.mark.parametrize(
    ("owner_role", "owned", "rent"),
    [
        ("competitor", [5], 20),  # r. 19: "10 percent return no matter how many are owned"
        ("competitor", [5, 15], 20),
        ("competitor", [5, 15, 25, 35], 20),
        ("monopolist", [5], 40),  # "double with each additional company"
        ("monopolist", [5, 15], 80),
        ("monopolist", [5, 15, 25], 160),
        ("monopolist", [5, 15, 25, 35], 320),
    ],
)
def test_transport_rent_by_the_owners_role(owner_role, owned, rent):
    t = landing(owner_role, dict.fromkeys(owned, 0), 5)
    payer, owner = (p.id for p in t.state.players)
    assert [r.amount for r in t.state.rents] == [rent]
    t("rent", player=payer)
    assert (t.cash(payer), t.cash(owner)) == (1500 - rent, 1500 + rent)


@pytest.mark.parametrize(
    ("owner_role", "owned", "rent"),
    [
        # the payer's fresh throw 6 + 5 = 11, not the 2 + 3 that moved him:
        ("competitor", [12], 44),  # 4 × 11
        ("competitor", [12, 28], 44),  # r. 20: "4X … no matter how many utilities are owned"
        ("monopolist", [12], 44),  # 4 × 11
        ("monopolist", [12, 28], 110),  # 10 × 11
    ],
)
def test_utility_rent_is_a_multiple_of_a_fresh_throw(owner_role, owned, rent):
    # 003 r. 20: "When a player lands on a utility owned by someone else, he/she throws the dice and pays"
    players = ("C", "M") if owner_role == "monopolist" else ("M", "C")
    payer, owner = players
    t = table(players)
    give_all(t, owner, dict.fromkeys(owned, 0))
    t.place(payer, 7)
    t.roll(payer, 2, 3)  # 7 + 5 = 12: U.S. Electric Company
    assert len(t.state.rents) == 1
    t.fails("rent.dice_needed", "rent", player=payer)
    t.fails("amount.mismatch", "rent", player=payer, dice=[6, 5], amount=rent // 11 * 5)  # the roll's dice
    t("rent", player=payer, dice=[6, 5], amount=rent)
    assert (t.cash(payer), t.cash(owner)) == (1500 - rent, 1500 + rent)


def test_a_monopolist_in_prison_collects_no_rent():
    # 003 r. 15: "While in PRISON, monopolists do not collect rents or other charges normally due them."
    t = table()
    t.give("M", 9).give("M", 14)
    t.place("M", 25)
    t.roll("C", 2, 4)  # 6: Sunset Blvd.
    t("decline", player="C")
    t.roll("M", 2, 3)  # 25 + 5 = 30: Go to Prison
    assert t.p("M").in_jail and t.p("M").position == 10
    t.roll("C", 1, 2)  # 9: M's Hollywood Blvd.; no rent falls due
    assert t.state.rents == ()
    t.fails("rent.none", "rent", player="C")
    t("jail_fine", player="M")  # M: 1500 − 50 = 1450, out of Prison
    t.roll("M", 1, 2)  # 13: State St.
    t("decline", player="M")
    t.roll("C", 2, 3)  # 14: M's Michigan Ave., single rent 16: M collects again
    t("rent", player="C", amount=16)
    assert (t.cash("C"), t.cash("M")) == (1484, 1466)


def test_a_competitor_in_price_war_collects_rent():
    # 003 r. 15: "While on PRICE WAR, competitors continue to collect rents or other charges due them."
    t = table()
    t.give("C", 9)
    t.place("C", 25)
    t.roll("C", 2, 3)  # 30: Go to Price War
    assert t.p("C").in_jail and t.p("C").position == 10
    t.roll("M", 4, 5)  # 9: C's Hollywood Blvd., 12
    t("rent", player="M", amount=12)
    assert (t.cash("C"), t.cash("M")) == (1512, 1488)


# -- rule 11: building -------------------------------------------------------------------------------------
def test_competitor_builds_four_houses_then_an_apartment_on_any_street():
    # 003 r. 11: "Competitors can build up to four houses on each street they own. Instead of building a
    # fifth house, competitors return the four houses … and purchase an apartment."
    t = table()
    t.give("C", 1)  # Basin St. alone: no city needed
    t("build", player="C", square=1)  # 1500 − 50
    t("build", player="C", square=1, count=3, amount=150)  # 4 houses: 1450 − 150 = 1300
    assert t.state.holdings[1].level == 4 and t.state.houses == 35 - 4 and t.cash("C") == 1300
    t("build", player="C", square=1)  # the apartment (level 5): the 4 houses go back
    assert t.state.holdings[1].level == 5 and (t.state.houses, t.state.hotels) == (35, 14)
    assert t.cash("C") == 1250
    t.fails("build.too_high", "build", player="C", square=1)


def test_competitor_cannot_build_on_a_mortgaged_street():
    t = table()
    t.give("C", 1, mortgaged=True).give("C", 3)
    t.fails("build.mortgaged", "build", player="C", square=1)
    t("build", player="C", square=3)  # its city-mate is mortgaged: no matter for a competitor


def test_monopolist_builds_only_in_a_monopolised_city():
    # 003 r. 10: "Monopolists may build only in cities they have monopolized."
    t = table(("M", "C"))
    t.give("M", 1)
    t.fails("build.not_monopolised", "build", player="M", square=1)


def test_monopolist_builds_three_houses_then_an_apartment():
    # 003 r. 11: "up to three houses … Instead of the fourth house, … purchase an apartment"
    t = table(("M", "C"))
    t.give("M", 1, 3)
    t("build", player="M", square=1, count=3)  # 3 houses: 1500 − 150 = 1350; French Quarter stays bare
    assert t.state.houses == 32
    t("build", player="M", square=1)  # the apartment (level 4): 1300, the 3 houses go back
    assert t.state.holdings[1].level == 4 and (t.state.houses, t.state.hotels) == (35, 14)
    assert t.cash("M") == 1300 and t.state.holdings[3].level == 0  # no even-building rule
    t.fails("build.too_high", "build", player="M", square=1)
    t.fails("build.too_high", "build", player="M", square=3, count=5)


def test_monopolist_cannot_build_when_one_of_his_two_streets_is_mortgaged():
    # 003 r. 12: "Monopolists cannot have houses in a city if any one of the two properties needed for
    # monopolization of a city are mortgaged."
    t = table(("M", "C"))
    t.give("M", 1).give("M", 3, mortgaged=True)
    t.fails("build.not_monopolised", "build", player="M", square=1)


def test_monopolist_builds_on_the_third_street_in_the_english_edition():
    # 003 r. 11: "up to three houses on each city street they have monopolized"
    t = table(("M", "C"))
    t.give("M", 6, 8, 9)
    t("build", player="M", square=6)
    t("build", player="M", square=8)
    t("build", player="M", square=9)
    assert [t.state.holdings[s].level for s in (6, 8, 9)] == [1, 1, 1] and t.cash("M") == 1350


def test_monopolist_builds_on_two_streets_only_in_the_polish_edition():
    # 000 r. 10: "Monopolista nie może budować domów na trzeciej ulicy w zmonopolizowanym przez siebie
    # mieście"
    t = table(("M", "C"), monopolist_builds_on_third_street=False)
    t.give("M", 6, 8, 9)
    t("build", player="M", square=6)
    t("build", player="M", square=8)
    t.fails("build.third_street", "build", player="M", square=9)
    t("build", player="M", square=8, count=3)  # 8 up to the apartment: the two streets are not limited
    assert t.state.holdings[8].level == 4


def test_building_only_in_ones_own_turn():
    # 003 r. 11: "Houses and apartments may be purchase[d] only on the player's turn."
    t = table(("C1", "M", "C2"))
    t.give("C2", 1)
    t.fails("build.not_own_turn", "build", player="C2", square=1)  # C1 rolls first
    t.roll("C1", 2, 4)  # 6
    t("decline", player="C1")
    t.fails("build.not_own_turn", "build", player="C2", square=1)  # C1's turn in play, M rolls next
    t.roll("M", 3, 5)  # 8
    t("decline", player="M")
    t("build", player="C2", square=1)  # C2 rolls next: his turn
    t.roll("C2", 4, 5)  # 9
    t("decline", player="C2")
    t("build", player="C2", square=1)  # his turn still in play
    assert t.state.holdings[1].level == 2 and t.cash("C2") == 1400


def test_the_bank_never_runs_out_of_buildings():
    # 003 r. 22: "players must make up extra ones out of cardboard or paper as needed"
    t = table()
    t.give("C", 1).give("C", 3, level=4)
    t.state.houses, t.state.hotels = 0, 0
    t("build", player="C", square=1)  # a paper house
    t("build", player="C", square=3)  # a paper apartment; its 4 houses go back to the bank
    assert (t.state.houses, t.state.hotels) == (-1 + 4, -1)
    assert t.state.holdings[1].level == 1 and t.state.holdings[3].level == 5 and t.cash("C") == 1400


# -- rules 12, 13, 23: mortgages and trading --------------------------------------------------------------
def test_mortgage_needs_no_buildings_on_that_street_only():
    t = table()
    t.give("C", 1, level=1).give("C", 3)
    t.fails("mortgage.buildings", "mortgage", player="C", square=1)
    t("mortgage", player="C", square=3, amount=30)
    assert t.cash("C") == 1530


def test_lifting_a_mortgage_costs_the_amount_on_the_mortgage_note():
    # 003 r. 12: "pay to the Treasurer the amount listed on the mortgage note": Basin St. loan 30, note 33
    t = table()
    t.give("C", 1)
    t("mortgage", player="C", square=1)  # 1530
    t.fails("amount.mismatch", "unmortgage", player="C", square=1, amount=30)
    t("unmortgage", player="C", square=1, amount=33)  # 1497
    assert t.cash("C") == 1497 and t.ledger.cost("C") == 3 and not t.state.holdings[1].mortgaged


def test_receiving_a_mortgaged_street_in_a_trade_costs_no_fee():
    # 003 r. 12: "Mortgaged … may be sold to other players as mortgaged properties at any agreed price."
    t = table()
    t.give("C", 1, mortgaged=True)
    trade(t, "C", "M", {"squares": [1]}, {"cash": 20})
    assert t.state.holdings[1] == Holding("M", 0, True)
    assert (t.cash("C"), t.cash("M")) == (1520, 1480)
    t("unmortgage", player="M", square=1, amount=33)  # lifting still costs the note: 1480 − 33
    assert t.cash("M") == 1447


def test_monopolist_cannot_mortgage_a_monopolising_street_while_he_has_buildings_in_the_city():
    # 003 r. 12: "Monopolists cannot have houses in a city if any one of the two properties needed for
    # monopolization of a city are mortgaged."
    t = table(("M", "C"))
    t.give("M", 1, level=2).give("M", 3)
    t.fails("mortgage.monopoly_buildings", "mortgage", player="M", square=3)
    t("sell_building", player="M", square=1, count=2, amount=50)  # 1500 + 2 × 25
    t("mortgage", player="M", square=3)  # 1550 + 30
    assert t.cash("M") == 1580


def test_monopolist_may_mortgage_a_third_street_while_two_others_still_monopolise():
    # Reading: with three streets owned any two monopolise the city (RULES.md §1), so the third may go.
    t = table(("M", "C"))
    t.give("M", 6, level=1).give("M", 8, 9)
    t("mortgage", player="M", square=9)  # 6 and 8 still monopolise Los Angeles: 1500 + 60
    assert t.cash("M") == 1560
    t.fails("mortgage.monopoly_buildings", "mortgage", player="M", square=8)


def test_trading_is_refused_only_for_the_built_street():
    # 003 r. 23: houses "must be returned to the Treasurer … before properties are traded"
    t = table()
    t.give("C", 1, level=1).give("C", 3)
    t.fails("trade.buildings", "trade", **{"player": "C", "with": "M", "give": {"squares": [1]}})
    trade(t, "C", "M", {"squares": [3]}, {"cash": 60})
    assert t.state.owner_of(3) == "M" and (t.cash("C"), t.cash("M")) == (1560, 1440)


# -- rules 17, 18: taxes -----------------------------------------------------------------------------------
def test_income_tax_is_a_pending_choice():
    t = table()
    t.roll("C", 1, 3)  # 4: Income Tax
    t.fails("pending.tax", "roll", player="M", dice=[1, 2])
    t.fails("tax.not_pending", "income_tax", player="M", choice="fixed")
    t("income_tax", player="C", choice="fixed", amount=200)
    assert t.cash("C") == 1300 and t.state.decision is None
    t.roll("M", 1, 2)


@pytest.mark.parametrize(
    ("first", "holdings", "choice", "tax"),
    [
        # competitor: 10 % of cash 1503 = 150.3; 10 % of the printed price of his unmortgaged properties
        # (Basin St. 60 + Sunset Blvd. 100; Wilshire Blvd. mortgaged: out) = 16; 10 % of the cost of his
        # buildings (the apartment on Basin St. = 5 levels × 50 = 250) = 25; 191.3 rounded up once: 192
        ("C", {1: 5, 6: 0, 8: MORTGAGED}, "percent", 192),
        ("C", {1: 5, 6: 0, 8: MORTGAGED}, "fixed", 200),
        # monopolist: 20 % of 1503 = 300.6; 10 % of (Sunset 100 + Wilshire 100) = 20; 10 % of 2 houses × 50
        # = 10; Basin St. mortgaged: out; 330.6 rounded up: 331
        ("M", {6: 2, 8: 0, 1: MORTGAGED}, "percent", 331),
        ("M", {6: 2, 8: 0, 1: MORTGAGED}, "fixed", 200),
    ],
)
def test_income_tax_fixed_or_the_roles_percentage(first, holdings, choice, tax):
    # 003 r. 17: "Monopolists pay $200 or 20 percent of their cash plus 10 percent of the listed purchase
    # price of their unmortgaged [properties] and 10 percent of the original cost of their houses and
    # apartments"; competitors the same with 10 percent of their cash.
    t = table((first, "M" if first == "C" else "C"))
    give_all(t, first, holdings)
    t.set_cash(first, 1503)
    t.roll(first, 1, 3)  # 4: Income Tax, no salary
    if choice == "percent":
        t.fails("amount.mismatch", "income_tax", player=first, choice=choice, amount=tax - 1)
    t("income_tax", player=first, choice=choice, amount=tax)
    assert t.cash(first) == 1503 - tax


@pytest.mark.parametrize("pid", ["C", "M"])
def test_property_tax_is_75_for_everybody(pid):
    t = table((pid, "M" if pid == "C" else "C"))
    t.place(pid, 35)
    t.roll(pid, 1, 2)  # 38: Property Tax, paid at once
    assert t.cash(pid) == 1425 and t.state.decision is None


# -- rule 21: the Anti-Monopoly Foundation -----------------------------------------------------------------
def test_monopolist_pays_160_into_the_foundation():
    t = table(("M", "C"))
    t.place("M", 15)
    t.roll("M", 2, 3)  # 20
    assert t.cash("M") == 1340 and t.state.decision is None
    t.roll("C", 1, 2)


@pytest.mark.parametrize(("die", "grant"), [(1, 25), (2, 50), (3, 0), (4, 0), (5, 0), (6, 0)])
def test_competitor_rolls_one_die_at_the_foundation(die, grant):
    # 003 r. 21: "Competitors roll one die. If 1, collect $25; if 2, collect $50. Otherwise, no grant"
    t = table()
    t.place("C", 15)
    t.roll("C", 2, 3)  # 20
    t.fails("pending.foundation", "roll", player="M", dice=[1, 2])
    t.fails("foundation.not_pending", "foundation", player="M", die=1)
    t("foundation", player="C", die=die)
    assert t.cash("C") == 1500 + grant and t.state.decision is None
    t.roll("M", 1, 2)


# -- rule 15: Price War and Prison -------------------------------------------------------------------------
def in_jail_table(first="C"):
    """``first`` is sent to the jail square in round 1: C to Price War, M to Prison."""
    t = table((first, "M" if first == "C" else "C"))
    other = t.state.players[1].id
    t.place(first, 25)
    t.roll(first, 2, 3)  # 30: Go to …, no salary
    assert t.p(first).in_jail and t.p(first).position == 10 and t.cash(first) == 1500
    t.roll(other, 1, 2)  # 3
    t("decline", player=other)
    return t, first, other


@pytest.mark.parametrize("first", ["C", "M"])
def test_go_to_square_sends_to_price_war_or_prison_without_salary(first):
    t, _, other = in_jail_table(first)
    assert t.p(first).in_jail and t.cash(first) == 1500 and t.cash(other) == 1500


def test_double_in_the_first_turn_frees_and_gives_the_extra_roll():
    # 003 r. 15 C 1 "throw doubles on any one of their first two regular turns"; D: "treated exactly like any
    # other doubles (see Rule 7)"
    t, c, m = in_jail_table("C")
    t.roll(c, 3, 3)  # turn 1: out, 10 + 6 = 16 (Locust St.)
    assert not t.p(c).in_jail and t.p(c).position == 16 and t.state.roll_again
    t("decline", player=c)
    t.roll(c, 4, 4)  # the extra roll: 24 (Beacon St.), a double but ordinary
    t("decline", player=c)
    assert not t.state.roll_again and t.cash(c) == 1500
    t.roll(m, 1, 2)


def test_double_in_the_second_turn_frees():
    t, c, m = in_jail_table("C")
    t.roll(c, 1, 2)  # turn 1: no double, stays
    assert t.p(c).in_jail and t.p(c).position == 10
    t.roll(m, 1, 2)  # 6
    t("decline", player=m)
    t.roll(c, 2, 2)  # turn 2: out, 14 (Michigan Ave.)
    assert not t.p(c).in_jail and t.p(c).position == 14 and t.cash(c) == 1500


@pytest.mark.parametrize("turn", [1, 2])
def test_paying_50_before_the_first_or_second_turn(turn):
    t, m, c = in_jail_table("M")  # M in Prison
    if turn == 2:
        t.roll(m, 1, 2)  # turn 1: no double
        t.roll(c, 1, 3)  # 3 + 4 = 7: a card square, the competitor deck
        t("card", player=c, effect={"kind": "collect", "amount": 10})
    t("jail_fine", player=m)
    t.roll(m, 1, 2)  # 10 + 3 = 13
    assert not t.p(m).in_jail and t.p(m).position == 13 and t.cash(m) == 1450


def jailed_two_turns(first="C"):
    t, c, o = in_jail_table(first)
    t.roll(c, 1, 2)  # turn 1: stays
    t.roll(o, 1, 3)  # 3 + 4 = 7: card
    t("card", player=o, effect={"kind": "pay", "amount": 10})
    t.roll(c, 2, 3)  # turn 2: stays
    t.roll(o, 2, 3)  # 12: U.S. Electric Company
    t("decline", player=o)
    assert t.p(c).in_jail and t.p(c).jail_turns == 2
    return t, c, o


def test_third_turn_costs_50_then_the_roll_moves():
    # 003 r. 15 C 1: "they must pay $50 before their third turn. On their third turn they move forward"
    t, c, o = jailed_two_turns()
    t.roll(c, 2, 3)  # turn 3: 1500 − 50, then 10 + 5 = 15 (U.S. Bus Company)
    assert not t.p(c).in_jail and t.p(c).position == 15 and t.cash(c) == 1450
    t("decline", player=c)
    t.roll(o, 1, 2)


def test_a_double_in_the_third_turn_is_like_any_other():
    t, c, o = jailed_two_turns()
    t.roll(c, 3, 3)  # turn 3: 1450, 16 (Locust St.), and rule 7's extra roll
    assert t.p(c).position == 16 and t.cash(c) == 1450 and t.state.roll_again
    t("decline", player=c)
    t.roll(c, 1, 2)  # 19
    assert t.p(c).position == 19


def test_third_turn_without_the_fine_raises_money_before_the_token_moves():
    t, c, o = jailed_two_turns()
    t.give(c, 1)  # Basin St., loan 30
    t.set_cash(c, 20)
    t.roll(c, 2, 3)  # turn 3: 20 − 50 = −30; the token waits
    assert t.cash(c) == -30 and t.p(c).position == 10
    t.fails("pending.jail_fine", "roll", player=o, dice=[1, 2])
    t("mortgage", player=c, square=1)  # −30 + 30 = 0: the fine is paid, the token moves 5
    assert t.cash(c) == 0 and t.p(c).position == 15 and not t.p(c).in_jail
    t("decline", player=c)
    t.roll(o, 1, 2)


# -- rule 16: cards from the role's deck -------------------------------------------------------------------
@pytest.mark.parametrize("square", [2, 7, 17, 22, 33, 36])
def test_each_role_draws_from_its_own_deck(square):
    t = table()
    t.place("C", (square - 3) % 40).place("M", (square - 3) % 40)
    salary = 100 if square < 3 else 0  # from 39 to 2 passes Start
    t.roll("C", 1, 2)
    assert t.state.decision.deck == "competitor"
    t.fails("card.wrong_deck", "card", player="C", card="monopolist:any")
    t("card", player="C", effect={"kind": "collect", "amount": 50})  # 1550
    t.roll("M", 1, 2)
    assert t.state.decision.deck == "monopolist"
    t.fails("card.wrong_deck", "card", player="M", card="competitor:any")
    t("card", player="M", effect={"kind": "pay", "amount": 50})  # 1450
    assert (t.cash("C"), t.cash("M")) == (1550 + salary, 1450 + salary)


def test_a_card_sends_a_monopolist_to_prison_and_then_he_collects_nothing():
    t = table(("M", "C"))
    t.give("M", 9)
    t.roll("M", 3, 4)  # 7
    t("card", player="M", effect={"kind": "go_to_jail"})
    assert t.p("M").in_jail and t.p("M").position == 10 and t.cash("M") == 1500
    t.roll("C", 4, 5)  # 9: M's Hollywood Blvd.: no rent from Prison
    assert t.state.rents == ()


# -- rule 24: bankruptcy -----------------------------------------------------------------------------------
def test_bankrupt_to_the_treasury_leaves_his_properties_unowned_and_unmortgaged():
    # 003 r. 24: "The property becomes unsold, unmortgaged property to be resold as usual to the remaining
    # players (see Rule 9)": no auction
    t = table(("C1", "M", "C2"))
    t.give("C1", 1, mortgaged=True).give("C1", 3, mortgaged=True)
    t.set_cash("C1", 10)
    t.place("C1", 35)
    t.roll("C1", 1, 2)  # 38: Property Tax 75: 10 − 75 = −65, nothing left to mortgage
    t("bankrupt", player="C1")
    assert 1 not in t.state.holdings and 3 not in t.state.holdings
    assert t.state.auctions == () and t.state.bank_sale == () and not t.state.finished
    t.roll("M", 1, 2)  # 3: French Quarter is the bank's again, offered at its printed price
    assert t.state.decision.square == 3
    t("buy", player="M", amount=60)
    assert t.state.holdings[3] == Holding("M") and t.cash("M") == 1440


def test_bankrupt_to_a_player_passes_the_mortgages_without_fee():
    # 003 r. 24: "remaining money and property (with mortgages still in effect) are turned over to the player
    # who caused the bankruptcy"
    t = table()
    t.give("C", 3, mortgaged=True)
    t.give("M", 37, 39)  # New York monopolised: Wall St. unbuilt 80
    t.set_cash("C", 10)
    t.place("C", 35)
    t.roll("C", 1, 3)  # 39
    t("rent", player="C", amount=80)  # C 10 − 80 = −70; M 1580
    t("bankrupt", player="C")  # M takes C's −70 and French Quarter, still mortgaged, no fee: 1510
    assert t.state.holdings[3] == Holding("M", 0, True) and t.cash("M") == 1510
    assert t.state.finished and t.state.end_reason == "last_player"  # Game A (the default)
    assert ranking(t.state) == {"M": 1, "C": 2}


@pytest.mark.parametrize("square", [4, 20])
def test_a_bankrupt_players_pending_tax_or_foundation_die_does_not_block_the_game(square):
    # 003 r. 24: "… and the bankrupt player leaves the game." C1 rolls a double onto M's street (rent due),
    # his extra roll ends on the Income Tax (4) or the Foundation (20), a choice of his own still pending;
    # M claims the rent, C1 cannot pay and is bankrupt. The game must go on with M's roll.
    t = table(("C1", "M", "C2"))
    if square == 4:
        t.give("M", 37).give("M", 39, level=4)  # Wall St., a monopolist's apartment: 240
        t.set_cash("C1", 10)
        t.place("C1", 35)
        t.roll("C1", 2, 2)  # 39: rent 240 due
        t.roll("C1", 2, 3)  # 44 = 4: Income Tax, passing Start: 10 + 100 = 110
        rent = 240
    else:
        t.give("M", 16).give("M", 18, level=4)  # Chestnut St., a monopolist's apartment: 116
        t.set_cash("C1", 10)
        t.place("C1", 16)
        t.roll("C1", 1, 1)  # 18: rent 116 due
        t.roll("C1", 1, 1)  # 20: the Foundation, C1's die pending
        rent = 116
    cash = t.cash("C1")
    t("rent", player="C1", amount=rent)
    assert t.cash("C1") == cash - rent < 0
    t("bankrupt", player="C1")
    assert not t.state.finished
    t.roll("M", 1, 2)


# -- rule 1: the endings -------------------------------------------------------------------------------
@pytest.mark.parametrize(("ending", "finished"), [("game_a", False), ("game_b", True)])
def test_game_b_ends_when_one_role_is_all_bankrupt(ending, finished):
    # 003 r. 1: Game B "to be the richest competitor after all monopolists have been bankrupted"
    t = table(("C1", "M", "C2"), ending=ending)
    t.give("C1", 37, 39)  # competitor: Wall St. 40, Fifth Ave. 35, never double
    t.set_cash("M", 10)
    t.place("M", 35)
    t.roll("C1", 1, 2)  # 3
    t("decline", player="C1")
    t.roll("M", 1, 3)  # 39
    t("rent", player="M", amount=40)  # M 10 − 40 = −30; C1 1540
    t("bankrupt", player="M")  # C1 1540 − 30 = 1510
    assert t.cash("C1") == 1510
    assert t.state.finished == finished
    if finished:
        assert t.state.end_reason == "role_eliminated"
        # rule 25: C1 1510 + Wall St. 40 + Fifth Ave. 35 = 1585; C2 1500
        assert (rule_25_wealth(t.state, "C1"), rule_25_wealth(t.state, "C2")) == (1585, 1500)
        assert ranking(t.state) == {"C1": 1, "C2": 2, "M": 3}
        t.fails("game.finished", "roll", player="C2", dice=[1, 2])
    else:
        t.roll("C2", 1, 2)  # Game A goes on


def test_game_a_ends_with_the_last_player_only():
    t = table(("C1", "M", "C2"))
    t.give("M", 37, 39)  # monopolised: Wall St. 80
    t.set_cash("C1", 10).set_cash("C2", 10)
    t.place("C1", 35).place("C2", 35)
    t.roll("C1", 1, 3)  # 39
    t("rent", player="C1")  # −70
    t("bankrupt", player="C1")  # M 1500 + 80 − 70 = 1510
    assert not t.state.finished
    t.roll("M", 1, 2)  # 3
    t("decline", player="M")
    t.roll("C2", 1, 3)  # 39
    t("rent", player="C2")  # −70
    t("bankrupt", player="C2")  # M 1510 + 80 − 70 = 1520
    assert t.state.finished and t.state.end_reason == "last_player" and t.cash("M") == 1520
    assert ranking(t.state) == {"M": 1, "C2": 2, "C1": 3}


def test_time_up_needs_the_two_hour_game():
    t = table()
    t.fails("time_up.not_timed", "time_up")
    t = table(ending="game_b")
    t.fails("time_up.not_timed", "time_up")


def test_a_whole_game_b_by_hand():
    """Four players, C1 M1 C2 M2; the two competitors go bankrupt, the monopolists are ranked by rule 25."""
    t = table(("C1", "M1", "C2", "M2"), ending="game_b")
    t.give("M1", 37, 39, 12)  # New York monopolised (Fifth Ave. 70, Wall St. 80), U.S. Electric Company
    t.give("M2", 5, 15, 28)  # two transport companies (80 each), U.S. Gas Company
    t.give("C1", 1, mortgaged=True)
    t.set_cash("C1", 50).set_cash("C2", 30)
    t.place("C1", 35).place("C2", 10)
    # cash:                                               C1    M1    C2    M2
    t.roll("C1", 1, 3)  # 39: Wall St.                    50  1500    30  1500
    t("rent", player="C1", amount=80)  #                 −30  1580    30  1500
    t("bankrupt", player="C1")  # to M1, with Basin St.    -  1550    30  1500
    assert t.state.holdings[1] == Holding("M1", 0, True) and not t.state.finished
    t.roll("M1", 2, 3)  # 5: M2's U.S. Railroad, 2 owned
    t("rent", player="M1", amount=80)  #                   -  1470    30  1580
    t.roll("C2", 2, 3)  # 15: M2's U.S. Bus Company
    t("rent", player="C2", amount=80)  #                   -  1470   −50  1660
    t("bankrupt", player="C2")  # to M2, with C2's −50     -  1470     -  1610
    assert t.state.finished and t.state.end_reason == "role_eliminated"
    assert (t.cash("M1"), t.cash("M2")) == (1470, 1610)
    t.fails("game.finished", "roll", player="M2", dice=[1, 2])
    # the utilities count 0 until their owner's final roll
    assert rule_25_wealth(t.state, "M1") == 1470 + 70 + 80
    t.fails("final_roll.not_utility", "final_roll", player="M1", square=28, dice=[1, 1])
    t("final_roll", player="M1", square=12, dice=[3, 4])  # 7
    t.fails("final_roll.twice", "final_roll", player="M1", square=12, dice=[1, 1])
    t("final_roll", player="M2", square=28, dice=[6, 6])  # 12
    # rule 25: M1 1470 + Fifth Ave. 70 + Wall St. 80 + Electric 4 × 7 + Basin St. (mortgaged) 0 = 1648
    #          M2 1610 + U.S. Railroad 80 + U.S. Bus Company 80 + Gas 4 × 12                    = 1818
    assert (rule_25_wealth(t.state, "M1"), rule_25_wealth(t.state, "M2")) == (1648, 1818)
    assert (score(t.state, "M1"), score(t.state, "M2")) == (1648, 1818)
    assert ranking(t.state) == {"M2": 1, "M1": 2, "C2": 3, "C1": 4}


def test_final_roll_only_at_the_end():
    t = table(ending="game_b")
    t.give("C", 12)
    t.fails("final_roll.not_now", "final_roll", player="C", square=12, dice=[1, 2])


def test_the_same_bankruptcies_do_not_end_game_a():
    t = table(("C1", "M1", "C2", "M2"))
    t.give("M1", 37, 39).give("M2", 5, 15)
    t.set_cash("C1", 50).set_cash("C2", 30)
    t.place("C1", 35).place("C2", 10)
    t.roll("C1", 1, 3)
    t("rent", player="C1")
    t("bankrupt", player="C1")
    t.roll("M1", 2, 3)
    t("rent", player="M1")
    t.roll("C2", 2, 3)
    t("rent", player="C2")
    t("bankrupt", player="C2")
    assert not t.state.finished
    t.roll("M2", 1, 2)


# -- the two-hour game ---------------------------------------------------------------------------------
def test_a_whole_two_hour_game_by_hand():
    """003 "TWO HOUR GAME" A–D: the round in play is finished, dealings with the bank only, each keeps his
    role's share of cash, the treasurer's tour pays one rent per property, most cash wins."""
    t = table(("C1", "M", "C2"), ending="two_hour")
    t.give("C1", 5, 12).give("C1", 6, level=1)  # U.S. Railroad, Electric, Sunset Blvd. with a house
    t.give("M", 37, 39, 28, 11).give("M", 8, mortgaged=True)  # New York, Gas, Rush St., Wilshire (mortgaged)
    t.give("C2", 1)  # Basin St.
    # cash:                                                         C1     M    C2
    t.roll("C1", 1, 2)  # 3: French Quarter                       1500  1500  1500
    t("decline", player="C1")
    t("time_up")  # the round in play is finished first
    assert t.state.time_up and t.state.final_step is None and not t.state.finished
    t.roll("M", 3, 3)  # 6: C1's Sunset Blvd., 1 house: 15
    t("rent", player="M", amount=15)  #                           1515  1485  1500
    t.roll("M", 1, 2)  # the extra roll: 9, Hollywood Blvd.
    t("decline", player="M")
    t.roll("C2", 5, 6)  # 11: M's Rush St., single rent 14; the round is over
    assert t.state.final_step == "dealings" and not t.state.finished
    # (A) dealings with the bank only
    t.fails("final.dealings", "roll", player="C1", dice=[1, 2])
    t.fails("final.dealings", "trade", **{"player": "C1", "with": "M", "give": {"cash": 10}})
    t("rent", player="C2", amount=14)  # a rent still due is claimed  1515  1499  1486
    t("build", player="M", square=39, count=4)  # out of turn: apartment, 4 × 200 = 800; 699
    t("unmortgage", player="M", square=8, amount=55)  #             1515   644  1486
    t("build", player="C2", square=1)  # 50                          1515   644  1436
    t("mortgage", player="C1", square=5, amount=100)  # U.S. Railroad 1615   644  1436
    t.fails("build.not_monopolised", "build", player="M", square=11)  # the roles' rules still hold
    t.fails("final.dealings", "final_tour")
    t.fails("final.dealings", "final_roll", player="C1", square=12, dice=[2, 3])
    # (B) C1 keeps 10 % of 1615 = 161 (rounded down), M 20 % of 644 = 128, C2 10 % of 1436 = 143
    t("final_keep")
    assert (t.cash("C1"), t.cash("M"), t.cash("C2")) == (161, 128, 143)
    assert t.state.final_step == "tour"
    # (C) the treasurer's tour, after a final roll for each owned unmortgaged utility
    t.fails("final_tour.rolls_missing", "final_tour")
    t.fails("final.tour", "build", player="C2", square=1)
    t("final_roll", player="C1", square=12, dice=[2, 3])  # 5
    t("final_roll", player="M", square=28, dice=[6, 5])  # 11
    t("final_tour")
    # C1: U.S. Railroad mortgaged 0 + Sunset Blvd. (1 house) 15 + Electric 4 × 5 = 20 → 161 + 35 = 196
    # M:  Rush St. 14 + Wilshire Blvd. (alone in LA) 10 + Gas 4 × 11 = 44
    #     + Fifth Ave. (monopolised) 70 + Wall St. (apartment) 240 = 378          → 128 + 378 = 506
    # C2: Basin St. (1 house) 11                                                  → 143 + 11  = 154
    assert (t.cash("C1"), t.cash("M"), t.cash("C2")) == (196, 506, 154)
    assert t.state.finished and t.state.end_reason == "time" and t.state.final_step is None
    # (D) most cash wins
    assert ranking(t.state) == {"M": 1, "C1": 2, "C2": 3}


def test_time_up_between_two_rounds_begins_the_final_steps_at_once():
    t = table(ending="two_hour")
    t.roll("C", 1, 2)
    t("decline", player="C")
    t.roll("M", 2, 4)
    t("decline", player="M")
    t("time_up")
    assert t.state.final_step == "dealings"
    t("final_keep")  # C keeps 150, M 300
    assert (t.cash("C"), t.cash("M")) == (150, 300)
    t("final_tour")  # nothing owned
    assert t.state.end_reason == "time" and ranking(t.state) == {"M": 1, "C": 2}


def test_final_keep_waits_for_debts():
    t = table(ending="two_hour")
    t.give("C", 39, level=1)  # Wall St., 1 house of a competitor: 60
    t.set_cash("M", 50)
    t.place("M", 35)
    t.roll("C", 1, 2)  # 3
    t("decline", player="C")
    t("time_up")
    t.roll("M", 1, 3)  # 39; the round is over
    assert t.state.final_step == "dealings"
    t("rent", player="M", amount=60)  # 50 − 60 = −10
    t.fails("pending.debt", "final_keep")


def test_a_player_who_cannot_pay_a_rent_claimed_in_the_dealings_may_go_bankrupt():
    # The dealings allow the rent claims still due; 003 r. 24 lets a player who cannot pay go bankrupt (the
    # engine's own message: "raise money … or be declared bankrupt first"), else final_keep waits forever.
    t = table(("C1", "M", "C2"), ending="two_hour")
    t.give("C1", 39, level=1)  # Wall St., 1 house of a competitor: 60
    t.set_cash("C2", 50)
    t.place("C2", 35)
    t.roll("C1", 1, 2)  # 3
    t("decline", player="C1")
    t("time_up")
    t.roll("M", 1, 2)  # 3
    t("decline", player="M")
    t.roll("C2", 1, 3)  # 39; the round is over
    assert t.state.final_step == "dealings"
    t("rent", player="C2", amount=60)  # C2 50 − 60 = −10, nothing to sell or mortgage; C1 1560
    t.fails("pending.debt", "final_keep")
    t("bankrupt", player="C2")  # to C1: 1560 − 10 = 1550
    t("final_keep")  # C1 keeps 155, M 300
    t("final_tour")  # C1: Wall St. (1 house) 60 → 215
    assert (t.cash("C1"), t.cash("M")) == (215, 300) and t.state.end_reason == "time"
    assert ranking(t.state) == {"M": 1, "C1": 2, "C2": 3}


# -- properties over simulated games -----------------------------------------------------------------------
ENDS = {"game_a": "last_player", "game_b": "role_eliminated", "two_hour": "time"}


@pytest.mark.parametrize("ending", list(ENDS))
def test_simulated_games_replay_and_keep_the_books(ending):
    reached = 0
    for players in range(2, 7):
        for seed in range(20):
            data = simulate(VARIANT, BOARD, players, seed, max_events=3000, options={"ending": ending})
            data = json.loads(json.dumps(data))
            bank = 0
            cash = {p["id"]: 0 for p in data["players"]}

            def count(_i, out, cash=cash):
                nonlocal bank
                for m in out.movements:
                    assert sum(g.cash for g in m.legs) == 0
                    for g in m.legs:
                        if g.party == BANK:
                            bank += g.cash
                        else:
                            cash[g.party] += g.cash

            result, ledger = replay_ledger(data, count)
            where = (ending, players, seed)
            assert result.error is None, (where, result.error)
            s = result.state
            for p in s.players:
                assert p.cash == s.variant.starting_cash + cash[p.id], where
                if not p.bankrupt:
                    assert net_worth(s, p.id) == ledger.equity(p.id), where
            assert sum(cash.values()) + bank == 0, where  # money is conserved
            roles = {p.role for p in s.active_players}
            if s.end_reason == "role_eliminated":
                assert len(roles) == 1 and utilities_to_roll(s) == [], where
            if s.end_reason == "time":
                assert s.final_step is None
                order = sorted(s.active_players, key=lambda p: -p.cash)
                assert ranking(s)[order[0].id] == 1, where
            if s.finished:
                assert s.end_reason == ENDS[ending], where
                reached += 1
    assert reached, f"{ending}: never reached {ENDS[ending]}"


def test_simulated_roles_are_balanced():
    rng = random.Random(7)
    for seed in range(10):
        players = rng.randint(2, 6)
        data = simulate(VARIANT, BOARD, players, seed, max_events=50)
        roles = [p["role"] for p in data["players"]]
        assert abs(roles.count("competitor") - roles.count("monopolist")) <= 1


def test_role_cards_send_to_price_war_and_prison_by_effect():
    # GAME_RECORD.md's vocabulary extended in its own form: a Competitor card "go to Price War", a Monopolist
    # card "go to Prison" — both the one jail square (10), no salary
    t = table(("C", "M"))
    t.roll("C", 1, 1)  # 2: the competitor deck; the double's extra roll waits
    t("card", player="C", effect={"kind": "go_to_price_war"})
    assert t.p("C").in_jail and t.p("C").position == 10 and t.cash("C") == 1500
    t.roll("M", 3, 4)  # 7: the monopolist deck
    t("card", player="M", effect={"kind": "go_to_prison"})
    assert t.p("M").in_jail and t.p("M").position == 10
    notes = [str(n) for out in t.outcomes[-3:] for n in out.notes]
    assert "C goes to Price War." in notes and "M goes to Prison." in notes


def test_monopolist_cannot_trade_away_a_monopolising_street_while_he_has_buildings_in_the_city():
    # 003 r. 10 ("Monopolists may build only in cities they have monopolized"), r. 12 and r. 23: the trade
    # check matches the mortgage check
    t = table(("M", "C"))
    t.give("M", 1, level=2).give("M", 3)
    trade = {"player": "M", "with": "C", "give": {"squares": [3]}, "get": {"cash": 10}}
    t.fails("trade.monopoly_buildings", "trade", **trade)
    t("sell_building", player="M", square=1, count=2)
    t("trade", **trade)
    assert t.state.owner_of(3) == "C"


def test_two_hour_game_with_a_round_limit_still_takes_the_final_steps():
    t = table(("C", "M"), ending="two_hour", max_rounds=1)
    t.roll("C", 1, 2)  # 3 French Quarter
    t("buy", player="C")
    t.roll("M", 2, 3)  # 5 U.S. Railroad: the last round is over
    t("decline", player="M")
    assert not t.state.finished and t.state.final_step == "dealings"
    t("final_keep")
    t("final_tour")
    assert t.state.finished and t.state.end_reason == "rounds"
    assert t.cash("C") == 1440 * 10 // 100 + 6  # keeps 144, French Quarter's rent 6


def test_game_b_ended_by_the_round_limit_values_utilities_by_final_rolls():
    t = table(("C", "M"), ending="game_b", max_rounds=1)
    t.roll("C", 6, 6)  # 12 U.S. Electric Company
    t("buy", player="C")
    t.roll("C", 1, 2)  # his extra roll: 15
    t("decline", player="C")
    t.roll("M", 1, 2)  # 3
    t("decline", player="M")
    assert t.state.finished and t.state.end_reason == "rounds"
    t("final_roll", player="C", square=12, dice=[2, 3])
    assert score(t.state, "C") == t.cash("C") + 4 * 5


def test_two_hour_time_up_at_once_waits_for_a_pending_choice():
    t = table(("C", "M"), ending="two_hour", finish_round_on_time=False)
    t.roll("C", 1, 3)  # 4 Income Tax: a choice pending
    t("time_up")
    assert t.state.final_step is None  # the tax is settled first
    t("income_tax", player="C", choice="fixed")
    assert t.state.final_step == "dealings"


def test_the_final_steps_refusals_say_what_ended_the_play():
    """A two-hour game the director stopped says so in the final steps' refusals, not "the time is up"."""
    t = table(("C1", "M"), ending="two_hour")
    t("time_up", now=True)  # the organisers stop it
    assert t.state.final_step == "dealings" and t.state.stopped
    refused = t.fails("final.dealings", "roll", player="C1", dice=[1, 2])
    assert refused.message.startswith("The director stopped the game: players deal only with the bank")
    timed = table(("C1", "M"), ending="two_hour")
    timed("time_up")  # before the round's first throw: the final steps at once
    refused = timed.fails("final.dealings", "roll", player="C1", dice=[1, 2])
    assert refused.message.startswith("The time is up: players deal only with the bank")
