"""Building and selling houses and hotels (RULES.md §1 'build needs', 'even building', 'bank stock',
'selling buildings')."""

from __future__ import annotations

from rules.errors import RuleError, gettext_noop
from rules.messages import Message, msg
from rules.ownership import check_amount, owned_property
from rules.state import GameState, PlayerState
from rules.transaction import Tx
from rules.valuation import group_owned_by


def check_build(s: GameState, p: PlayerState, square: int, count: int) -> None:
    """Raise RuleError if ``p`` may not build ``count`` levels on ``square`` now. Does not check cash."""
    v = s.variant
    h = owned_property(s, p, square, street=True)
    sq = s.board.square(square)
    group = s.board.group_of(square)
    if h.mortgaged:
        raise RuleError(
            "build.mortgaged", gettext_noop("{square} is mortgaged: no building."), square=sq.name
        )
    if v.build_unmortgaged == "group" and any(s.holdings[m].mortgaged for m in group if m in s.holdings):
        raise RuleError(
            "build.group_mortgaged",
            gettext_noop("A street of {square}'s colour group is mortgaged: no building."),
            square=sq.name,
        )
    if v.build_requires_full_group and not group_owned_by(s, square, p.id):
        raise RuleError(
            "build.needs_group",
            gettext_noop("{player} must own the whole colour group of {square} to build."),
            player=p.name,
            square=sq.name,
        )
    if h.level + count > v.hotel_level:
        raise RuleError(
            "build.too_high",
            gettext_noop("{square} can take {n} more building levels (it has {level})."),
            square=sq.name,
            n=v.hotel_level - h.level,
            level=_level_name(s, h.level),
        )
    houses, hotels = s.houses, s.hotels
    mine = [m for m in group if m != square and s.owner_of(m) == p.id]
    for level in range(h.level + 1, h.level + count + 1):
        if v.even_building and any(s.holdings[m].level < level - 1 for m in mine):
            raise RuleError(
                "build.uneven",
                gettext_noop("Build evenly: the other streets of the group need {n} houses first."),
                n=level - 1,
            )
        if level == v.hotel_level:
            hotels -= 1
            houses += v.houses_per_hotel
            if hotels < 0:
                raise RuleError("bank.no_hotels", gettext_noop("The bank has no hotels left."))
        else:
            houses -= 1
            if houses < 0:
                raise RuleError(
                    "bank.no_houses", gettext_noop("The bank has only {n} houses left."), n=s.houses
                )


def _level_name(s: GameState, level: int) -> Message:
    if level >= s.variant.hotel_level:
        return msg(gettext_noop("a hotel"))
    if level == 1:
        return msg(gettext_noop("1 house"))
    return msg(gettext_noop("{n} houses"), n=level)


def build(tx: Tx, ev: dict) -> None:
    s, v = tx.s, tx.s.variant
    p = s.player(ev["player"])
    square, count = ev["square"], ev.get("count", 1)
    check_build(s, p, square, count)
    sq = s.board.square(square)
    cost = sq.house_cost * count
    paid = ev.get("price", cost)  # a shortage auction starts at the printed price; the excess is a cost
    if paid < cost:
        raise RuleError(
            "build.below_price",
            gettext_noop("Buildings auctioned by the bank start at their price {cost}, not {price}."),
            cost=cost,
            price=paid,
        )
    check_amount(ev, paid, msg(gettext_noop("building cost")))
    tx.require_cash(p.id, paid, msg(gettext_noop("the building")))
    h = s.holdings[square]
    for level in range(h.level + 1, h.level + count + 1):
        if level == v.hotel_level:
            s.hotels -= 1
            s.houses += v.houses_per_hotel
        else:
            s.houses -= 1
    s.holdings[square] = h.but(level=h.level + count)
    tx.exchange("build", p.id, -paid, cost, square)
    tx.note(
        gettext_noop("{player} builds on {square} ({level}) for {cost}."),
        player=p.name,
        square=sq.name,
        level=_level_name(s, h.level + count),
        cost=paid,
    )


def check_sell_building(s: GameState, p: PlayerState, square: int, count: int) -> None:
    v = s.variant
    h = owned_property(s, p, square, street=True)
    sq = s.board.square(square)
    if h.level < count:
        raise RuleError(
            "sell.too_many",
            gettext_noop("{square} has only {level}."),
            square=sq.name,
            level=_level_name(s, h.level),
        )
    mine = [m for m in s.board.group_of(square) if m != square and s.owner_of(m) == p.id]
    # A hotel the bank cannot change back into houses (too few left) may be sold whole, evenly or not.
    whole_hotel = h.level == v.hotel_level and count == h.level and s.houses < v.houses_per_hotel
    houses = s.houses
    for level in range(h.level, h.level - count, -1):
        if v.even_selling and not whole_hotel and any(s.holdings[m].level > level for m in mine):
            raise RuleError(
                "sell.uneven",
                gettext_noop("Sell evenly: first sell from the streets of the group with more."),
            )
        houses += -v.houses_per_hotel if level == v.hotel_level else 1
    if houses < 0:
        raise RuleError(
            "bank.no_houses_for_hotel",
            gettext_noop("The bank has only {n} houses: a hotel cannot be changed back into houses now."),
            n=s.houses,
        )


def sell_building(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = s.player(ev["player"])
    square, count = ev["square"], ev.get("count", 1)
    check_sell_building(s, p, square, count)
    sell_levels(tx, p.id, square, count, ev)


def sell_levels(tx: Tx, player: str, square: int, count: int, ev: dict | None = None) -> None:
    """The bank buys ``count`` building levels at half their price (a cost of the other half)."""
    s, v = tx.s, tx.s.variant
    sq = s.board.square(square)
    payout = (sq.house_cost // 2) * count
    if ev is not None:
        check_amount(ev, payout, msg(gettext_noop("bank's payment")))
    h = s.holdings[square]
    for level in range(h.level, h.level - count, -1):
        if level == v.hotel_level:
            s.hotels += 1
            s.houses -= v.houses_per_hotel
        else:
            s.houses += 1
    s.holdings[square] = h.but(level=h.level - count)
    tx.exchange("sell_building", player, payout, -sq.house_cost * count, square)
    tx.note(
        gettext_noop("{player} sells {count} building level(s) on {square} to the bank for {payout}."),
        player=tx.name(player),
        count=count,
        square=sq.name,
        payout=payout,
    )
