"""Building and selling houses and hotels (RULES.md §1 'build needs', 'even building', 'bank stock',
'selling buildings'). ``count`` > 1 is that many single levels in a row, each legal when it is added or
removed (RULES.md §1)."""

from __future__ import annotations

from rules.errors import Refusal, gettext_noop, refusal
from rules.messages import Message, msg
from rules.ownership import amount_refusal, group_owned_by, monopolised, ownership_refusal
from rules.roles import is_monopolist
from rules.state import GameState, PlayerState
from rules.transaction import Tx, cash_refusal
from rules.turns import in_own_turn


def level_name(s: GameState, level: int, owner: str) -> Message:
    if level >= s.hotel_level(owner):
        return msg(gettext_noop("an apartment")) if s.variant.roles else msg(gettext_noop("a hotel"))
    if level == 1:
        return msg(gettext_noop("1 house"))
    return msg(gettext_noop("{n} houses"), n=level)


def build_refusal(s: GameState, p: PlayerState, square: int, count: int) -> Refusal | None:
    """Why ``p`` may not build ``count`` levels on ``square`` now (None: he may). Does not check cash."""
    holdings = s.holdings
    h = holdings.get(square)
    sq = s.board.squares[square]
    if h is None or h.owner != p.id or sq.kind != "street":  # ownership_refusal's own test, first
        return ownership_refusal(s, p, square, street=True)
    v = s.variant
    group = s.board.members[square]
    if h.mortgaged:
        return refusal("build.mortgaged", gettext_noop("{square} is mortgaged: no building."), square=sq.name)
    if v.build_unmortgaged == "group":
        for m in group:
            g = holdings.get(m)
            if g is not None and g.mortgaged:
                return refusal(
                    "build.group_mortgaged",
                    gettext_noop("A street of {square}'s colour group is mortgaged: no building."),
                    square=sq.name,
                )
    if v.build_requires_full_group and not group_owned_by(s, square, p.id):
        return refusal(
            "build.needs_group",
            gettext_noop("{player} must own the whole colour group of {square} to build."),
            player=p.name,
            square=sq.name,
        )
    if v.roles and is_monopolist(v.roles, p.role):
        r = _monopolist_refusal(s, p, square, h.level)
        if r is not None:
            return r
    if v.build_in_own_turn_only and s.final_step is None and not in_own_turn(s, p):
        return refusal(
            "build.not_own_turn", gettext_noop("{player} may build only in their own turn."), player=p.name
        )
    hotel = v.hotel_level_for(p.role)
    if h.level + count > hotel:
        return refusal(
            "build.too_high",
            gettext_noop("{square} can take {n} more building levels (it has {level})."),
            square=sq.name,
            n=hotel - h.level,
            level=level_name(s, h.level, p.id),
        )
    houses, hotels = s.houses, s.hotels
    unlimited = v.bank_stock_unlimited  # paper stand-ins when the bank's run out
    lowest = None  # the lowest level of his other streets of the group (a loop: no list, no min's call)
    for m in group:
        g = holdings.get(m)
        if m != square and g is not None and g.owner == p.id and (lowest is None or g.level < lowest):
            lowest = g.level
    for level in range(h.level + 1, h.level + count + 1):
        if v.even_building and lowest is not None and lowest < level - 1:
            return refusal(
                "build.uneven",
                gettext_noop("Build evenly: the other streets of the group need {n} houses first."),
                n=level - 1,
            )
        if level == hotel:
            hotels -= 1
            houses += hotel - 1
            if hotels < 0 and not unlimited:
                return refusal("bank.no_hotels", gettext_noop("The bank has no hotels left."))
        else:
            houses -= 1
            if houses < 0 and not unlimited:
                return refusal(
                    "bank.no_houses", gettext_noop("The bank has only {n} houses left."), n=s.houses
                )
    return None


def _monopolist_refusal(s: GameState, p: PlayerState, square: int, level: int) -> Refusal | None:
    """A monopolist builds only in a city he has monopolised (two unmortgaged streets); with the option
    ``monopolist_builds_on_third_street`` off (the Polish edition), on two of its streets at most."""
    if not monopolised(s, p.id, square):
        return refusal(
            "build.not_monopolised",
            gettext_noop(
                "{player} is a monopolist: monopolists build only in a city where they own two unmortgaged "
                "streets."
            ),
            player=p.name,
        )
    if not s.variant.monopolist_builds_on_third_street and third_street(s, p.id, square) == square:
        return refusal(
            "build.third_street",
            gettext_noop(
                "A monopolist builds on two streets of a city, not on the third: {square}, acquired last."
            ),
            square=s.board.squares[square].name,
        )
    return None


def third_street(s: GameState, owner: str, square: int) -> int | None:
    """Of a city whose streets ``owner`` holds all, the one he acquired last (RULES.md, turn 4: with
    ``monopolist_builds_on_third_street`` off he builds on the other two); None while he holds fewer. A street
    acquired before the order was kept counts as acquired first."""
    city = s.board.members[square]
    if len(city) < 3 or any((h := s.holdings.get(m)) is None or h.owner != owner for m in city):
        return None
    order = {q: i for i, q in enumerate(s.acquired)}
    return max(city, key=lambda m: (order.get(m, -1), m))


def bank_short(s: GameState, p: PlayerState, square: int) -> bool:
    """Whether the bank is short of the building ``p`` adds next on ``square``, so that it auctions it (002:
    "two or more players want to buy more buildings than the Bank has"): at least two players could each
    add a building of that kind now, and together more than the bank holds of it (decision: what a player
    wants is read as what he could build now, a level on each of his streets that may take one)."""
    if s.variant.bank_stock_unlimited:
        return False
    hotel = s.holdings[square].level + 1 == s.variant.hotel_level_for(p.role)
    wanted, wanting = 0, 0
    for q in s.players:
        if q.bankrupt:
            continue
        theirs = [
            m
            for m, h in s.holdings.items()
            if h.owner == q.id
            and (h.level + 1 == s.variant.hotel_level_for(q.role)) == hotel
            and build_refusal(s, q, m, 1) is None
        ]
        wanted += len(theirs)
        wanting += bool(theirs)
    return wanting >= 2 and wanted > (s.hotels if hotel else s.houses)


def build(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = s.by_id[ev["player"]]
    square, count = ev["square"], ev.get("count", 1)
    sq = s.board.squares[square]
    cost = sq.house_cost * count
    paid = ev.get("price", cost)  # a shortage auction starts at the printed price; the excess is a cost
    r = build_refusal(s, p, square, count)
    if r is None and "price" in ev and not bank_short(s, p, square):
        r = refusal(
            "build.no_shortage",
            gettext_noop(
                "The bank auctions buildings only when it is short of them: {square}'s are bought at {cost}."
            ),
            square=sq.name,
            cost=cost,
        )
    if r is None and paid < cost:
        r = refusal(
            "build.below_price",
            gettext_noop("Buildings auctioned by the bank start at their price {cost}, not {price}."),
            cost=cost,
            price=paid,
        )
    r = r or amount_refusal(ev, paid, msg(gettext_noop("building cost")))
    r = r or cash_refusal(s, p.id, paid, msg(gettext_noop("the building")))
    if r is not None:
        raise r.error()
    h = s.holdings[square]
    hotel = s.variant.hotel_level_for(p.role)
    for level in range(h.level + 1, h.level + count + 1):
        if level == hotel:
            s.hotels -= 1
            s.houses += hotel - 1
        else:
            s.houses -= 1
    s.holdings[square] = h.but(level=h.level + count)
    tx.exchange("build", p.id, -paid, cost, square)
    words = {"player": p.name, "square": sq.name, "level": level_name(s, h.level + count, p.id), "cost": paid}
    if count == 1:
        tx.note(gettext_noop("{player} builds on {square} ({level}) for {cost}."), **words)
    else:  # the levels added said, beside what stands now
        tx.note(
            gettext_noop("{player} builds {count} levels on {square} (now {level}) for {cost}."),
            count=count,
            **words,
        )


def sell_refusal(s: GameState, p: PlayerState, square: int, count: int) -> Refusal | None:
    r = ownership_refusal(s, p, square, street=True)
    if r is not None:
        return r
    v = s.variant
    h = s.holdings[square]
    if h.level < count:
        return refusal(
            "sell.too_many",
            gettext_noop("{square} has only {level}."),
            square=s.board.squares[square].name,
            level=level_name(s, h.level, p.id),
        )
    hotel = v.hotel_level_for(p.role)
    # A hotel the bank cannot change back into houses (too few left) may be sold whole, evenly or not.
    whole_hotel = h.level == hotel and count == h.level and s.houses < hotel - 1
    if v.even_selling and not whole_hotel:
        others = [
            g.level
            for m in s.board.members[square]
            if m != square and (g := s.holdings.get(m)) and g.owner == p.id
        ]
        top = max(others, default=0)
        for level in range(h.level, h.level - count, -1):
            if top > level:
                return refusal(
                    "sell.uneven",
                    gettext_noop("Sell evenly: first sell from the streets of the group with more."),
                )
    if v.bank_stock_unlimited:
        return None
    houses = s.houses
    for level in range(h.level, h.level - count, -1):
        houses += -(hotel - 1) if level == hotel else 1
    if houses < 0:
        return refusal(
            "bank.no_houses_for_hotel",
            gettext_noop("The bank has only {n} houses: a hotel cannot be changed back into houses now."),
            n=s.houses,
        )
    return None


def sell_building(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = s.by_id[ev["player"]]
    square, count = ev["square"], ev.get("count", 1)
    r = sell_refusal(s, p, square, count) or amount_refusal(
        ev, (s.board.squares[square].house_cost // 2) * count, msg(gettext_noop("bank's payment"))
    )
    if r is not None:
        raise r.error()
    sell_levels(tx, p.id, square, count)


def sell_levels(tx: Tx, player: str, square: int, count: int) -> None:
    """The bank buys ``count`` building levels at half their price (a cost of the other half)."""
    s = tx.s
    sq = s.board.squares[square]
    payout = (sq.house_cost // 2) * count
    h = s.holdings[square]
    hotel = s.hotel_level(player)
    for level in range(h.level, h.level - count, -1):
        if level == hotel:
            s.hotels += 1
            s.houses -= hotel - 1
        else:
            s.houses += 1
    s.holdings[square] = h.but(level=h.level - count)
    tx.exchange("sell_building", player, payout, -sq.house_cost * count, square)
    tx.note(
        gettext_noop("{player} sells a building level on {square} to the bank for {payout}.")
        if count == 1
        else gettext_noop("{player} sells {count} building levels on {square} to the bank for {payout}."),
        player=tx.name(player),
        count=count,
        square=sq.name,
        payout=payout,
    )
