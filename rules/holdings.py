"""Events about owning squares: deal, buy, decline, auction, rent, build, sell_building, mortgage,
unmortgage, trade."""

from __future__ import annotations

from rules.errors import RuleError, gettext_noop
from rules.messages import Message, msg
from rules.movements import Leg
from rules.state import BuyDecision, GameState, Holding, PlayerState
from rules.transaction import Tx
from rules.valuation import group_owned_by, property_value
from rules.variants import ceil_percent


def check_amount(ev: dict, expected: int, what: Message) -> None:
    """An event may carry the amount the referee saw; it must agree with the rules."""
    given = ev.get("amount")
    if given is not None and given != expected:
        raise RuleError(
            "amount.mismatch",
            gettext_noop("The {what} is {expected}, not {given}."),
            what=what,
            expected=expected,
            given=given,
        )


def _owned_property(s: GameState, p: PlayerState, square: int, *, street: bool = False) -> Holding:
    sq = s.board.square(square)
    if not sq.is_property:
        raise RuleError("square.not_property", gettext_noop("{square} cannot be owned."), square=sq.name)
    if street and sq.kind != "street":
        raise RuleError(
            "build.not_street",
            gettext_noop("{square} is not a street: nothing is built there."),
            square=sq.name,
        )
    h = s.holdings.get(square)
    if h is None or h.owner != p.id:
        raise RuleError(
            "square.not_owner", gettext_noop("{player} does not own {square}."), player=p.name, square=sq.name
        )
    return h


def _no_buildings(s: GameState, square: int, scope: str, code: str, what: str) -> None:
    squares = s.board.group_of(square) if scope == "group" else (square,)
    built = [m for m in squares if (h := s.holdings.get(m)) and h.level]
    if built:
        raise RuleError(
            code,
            gettext_noop("{what}: first sell the buildings on {squares}."),
            what=what,
            squares=", ".join(s.board.square(m).name for m in built),
        )


def transfer_fee(tx: Tx, receiver: str, square: int) -> None:
    """Classic rules: who receives a mortgaged square pays 10 % of the loan at once (a cost)."""
    pct = tx.s.variant.mortgaged_transfer_fee_percent
    if pct:
        fee = ceil_percent(tx.s.board.square(square).mortgage, pct)
        tx.exchange("transfer_fee", receiver, -fee, 0, square)
        tx.s.fee_paid = (*tx.s.fee_paid, square)
        tx.note(
            gettext_noop("{player} pays {fee} interest on the mortgaged {square}."),
            player=tx.name(receiver),
            fee=fee,
            square=tx.square_name(square),
        )


# -- deal, buy, decline, auction ------------------------------------------------------------------------
def deal(tx: Tx, ev: dict) -> None:
    s, v = tx.s, tx.s.variant
    p = s.player(ev["player"])
    if not v.deal_title_deeds:
        raise RuleError("deal.not_in_variant", gettext_noop("Title deeds are not dealt in this variant."))
    if s.turn is not None:
        raise RuleError("deal.after_start", gettext_noop("Title deeds are dealt before the first roll."))
    squares = ev["squares"]
    if p.dealt + len(squares) > v.deal_title_deeds:
        raise RuleError(
            "deal.too_many", gettext_noop("Each player is dealt {n} title deeds."), n=v.deal_title_deeds
        )
    total = 0
    for m in squares:
        sq = s.board.square(m)
        if not sq.is_property or m in s.holdings:
            raise RuleError(
                "deal.not_available", gettext_noop("{square} is not an unowned title deed."), square=sq.name
            )
        total += sq.price
    tx.require_cash(p.id, total, msg(gettext_noop("the title deeds")))
    for m in squares:
        price = s.board.square(m).price
        s.holdings[m] = Holding(p.id)
        tx.exchange("deal", p.id, -price, price, m)
        tx.note(
            gettext_noop("{player} is dealt {square} and pays {price}."),
            player=p.name,
            square=tx.square_name(m),
            price=price,
        )
    p.dealt += len(squares)


def _buy_decision(s: GameState, p: PlayerState) -> BuyDecision:
    d = s.decision
    if not isinstance(d, BuyDecision) or d.player != p.id:
        raise RuleError("buy.not_pending", gettext_noop("{player} has no square to buy now."), player=p.name)
    return d


def buy(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = s.player(ev["player"])
    d = _buy_decision(s, p)
    sq = s.board.square(d.square)
    check_amount(ev, sq.price, msg(gettext_noop("price")))
    tx.require_cash(p.id, sq.price, sq.name)
    s.holdings[sq.index] = Holding(p.id)
    s.decision = None
    tx.exchange("purchase", p.id, -sq.price, sq.price, sq.index)
    tx.note(
        gettext_noop("{player} buys {square} for {price}."), player=p.name, square=sq.name, price=sq.price
    )


def decline(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = s.player(ev["player"])
    d = _buy_decision(s, p)
    s.decision = None
    if s.variant.auction_on_decline:
        s.auctions = (*s.auctions, d.square)
        tx.note(
            gettext_noop("{player} declines; {square} goes to auction."),
            player=p.name,
            square=tx.square_name(d.square),
        )
    else:
        tx.note(
            gettext_noop("{player} declines; {square} stays with the bank."),
            player=p.name,
            square=tx.square_name(d.square),
        )


def _close_auction(s: GameState, square: int) -> None:
    s.auctions = tuple(a for a in s.auctions if a != square)
    s.bank_sale = tuple(a for a in s.bank_sale if a != square)


def auction(tx: Tx, ev: dict) -> None:
    s, v = tx.s, tx.s.variant
    square, winner, price = ev["square"], ev["winner"], ev["price"]
    sq = s.board.square(square)
    if square not in s.auctions and square not in s.bank_sale:
        raise RuleError(
            "auction.not_pending", gettext_noop("{square} is not up for auction."), square=sq.name
        )
    if winner is None:
        if price:
            raise RuleError(
                "auction.price_without_winner",
                gettext_noop("An auction nobody won has price 0, not {price}."),
                price=price,
            )
        _close_auction(s, square)
        tx.note(gettext_noop("Nobody buys {square}: it stays with the bank."), square=sq.name)
        return
    p = s.player(winner)
    if p.bankrupt:
        raise RuleError("player.bankrupt", gettext_noop("{player} is bankrupt."), player=p.name)
    opening = v.auction_opening_bid(sq.price)
    if price < opening:
        if v.auction_opening_percent:
            if v.auction_opening_percent == 50:
                share = msg(gettext_noop("half of {printed}"), printed=sq.price)
            else:
                share = msg(
                    gettext_noop("{percent} percent of {printed}"),
                    percent=v.auction_opening_percent,
                    printed=sq.price,
                )
            raise RuleError(
                "auction.below_opening_bid",
                gettext_noop(
                    "Auction price {price} is below the opening bid {opening} ({share}) in {variant}."
                ),
                price=price,
                opening=opening,
                share=share,
                variant=v.id,
            )
        raise RuleError(
            "auction.below_opening_bid",
            gettext_noop("An auction price must be at least {opening}."),
            opening=opening,
        )
    tx.require_cash(p.id, price, sq.name)
    _close_auction(s, square)
    s.holdings[square] = Holding(p.id)
    tx.exchange("auction", p.id, -price, sq.price, square)
    tx.note(
        gettext_noop("{player} wins the auction of {square} for {price} (printed {printed})."),
        player=p.name,
        square=sq.name,
        price=price,
        printed=sq.price,
    )


# -- rent -----------------------------------------------------------------------------------------------
def rent(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = s.player(ev["player"])
    due = [r for r in s.rents if r.payer == p.id and ev.get("square") in (None, r.square)]
    if not due:
        raise RuleError(
            "rent.none",
            gettext_noop("{player} owes no rent now: rent is claimed before the next roll, or it lapses."),
            player=p.name,
        )
    r = due[-1]
    check_amount(ev, r.amount, msg(gettext_noop("rent")))
    s.rents = tuple(x for x in s.rents if x is not r)
    tx.transfer("rent", p.id, r.owner, r.amount, r.square)
    tx.note(
        gettext_noop("{player} pays rent {amount} to {owner}."),
        player=p.name,
        amount=r.amount,
        owner=tx.name(r.owner),
    )


# -- buildings ------------------------------------------------------------------------------------------
def build_error(s: GameState, p: PlayerState, square: int, count: int) -> RuleError | None:
    """Why ``p`` may not build ``count`` levels on ``square`` now (None: he may). Does not check cash."""
    v = s.variant
    try:
        h = _owned_property(s, p, square, street=True)
    except RuleError as e:
        return e
    sq = s.board.square(square)
    group = s.board.group_of(square)
    if h.mortgaged:
        return RuleError(
            "build.mortgaged", gettext_noop("{square} is mortgaged: no building."), square=sq.name
        )
    if v.build_unmortgaged == "group" and any(s.holdings[m].mortgaged for m in group if m in s.holdings):
        return RuleError(
            "build.group_mortgaged",
            gettext_noop("A street of {square}'s colour group is mortgaged: no building."),
            square=sq.name,
        )
    if v.build_requires_full_group and not group_owned_by(s, square, p.id):
        return RuleError(
            "build.needs_group",
            gettext_noop("{player} must own the whole colour group of {square} to build."),
            player=p.name,
            square=sq.name,
        )
    if h.level + count > v.hotel_level:
        return RuleError(
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
            return RuleError(
                "build.uneven",
                gettext_noop("Build evenly: the other streets of the group need {n} houses first."),
                n=level - 1,
            )
        if level == v.hotel_level:
            hotels -= 1
            houses += v.houses_per_hotel
            if hotels < 0:
                return RuleError("bank.no_hotels", gettext_noop("The bank has no hotels left."))
        else:
            houses -= 1
            if houses < 0:
                return RuleError(
                    "bank.no_houses", gettext_noop("The bank has only {n} houses left."), n=s.houses
                )
    return None


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
    err = build_error(s, p, square, count)
    if err:
        raise err
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


def sell_building_error(s: GameState, p: PlayerState, square: int, count: int) -> RuleError | None:
    v = s.variant
    try:
        h = _owned_property(s, p, square, street=True)
    except RuleError as e:
        return e
    sq = s.board.square(square)
    if h.level < count:
        return RuleError(
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
            return RuleError(
                "sell.uneven",
                gettext_noop("Sell evenly: first sell from the streets of the group with more."),
            )
        houses += -v.houses_per_hotel if level == v.hotel_level else 1
    if houses < 0:
        return RuleError(
            "bank.no_houses_for_hotel",
            gettext_noop("The bank has only {n} houses: a hotel cannot be changed back into houses now."),
            n=s.houses,
        )
    return None


def sell_building(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = s.player(ev["player"])
    square, count = ev["square"], ev.get("count", 1)
    err = sell_building_error(s, p, square, count)
    if err:
        raise err
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


# -- mortgages ------------------------------------------------------------------------------------------
def mortgage_error(s: GameState, p: PlayerState, square: int) -> RuleError | None:
    try:
        h = _owned_property(s, p, square)
    except RuleError as e:
        return e
    sq = s.board.square(square)
    if h.mortgaged:
        return RuleError("mortgage.already", gettext_noop("{square} is already mortgaged."), square=sq.name)
    try:
        _no_buildings(
            s,
            square,
            s.variant.mortgage_needs_no_buildings_on,
            "mortgage.buildings",
            msg(gettext_noop("To mortgage")),
        )
    except RuleError as e:
        return e
    return None


def mortgage(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = s.player(ev["player"])
    err = mortgage_error(s, p, ev["square"])
    if err:
        raise err
    sq = s.board.square(ev["square"])
    check_amount(ev, sq.mortgage, msg(gettext_noop("mortgage loan")))
    s.holdings[sq.index] = s.holdings[sq.index].but(mortgaged=True)
    tx.exchange("mortgage", p.id, sq.mortgage, -sq.mortgage, sq.index)
    tx.note(
        gettext_noop("{player} mortgages {square} for {loan}."),
        player=p.name,
        square=sq.name,
        loan=sq.mortgage,
    )


def unmortgage_cost(s: GameState, square: int) -> tuple[int, int]:
    """(loan, interest) to lift the mortgage on ``square``: printed, else loan + 10 % rounded up.

    Lifted at once (before the next roll) by who just received it and paid the 10 % then, it costs the
    loan alone (001/002: "the buyer may lift it at once paying the loan plus 10 %").
    """
    sq = s.board.square(square)
    if square in s.fee_paid:
        return sq.mortgage, 0
    if sq.unmortgage is not None:
        return sq.mortgage, sq.unmortgage - sq.mortgage
    return sq.mortgage, ceil_percent(sq.mortgage, s.variant.unmortgage_interest_percent)


def unmortgage_error(s: GameState, p: PlayerState, square: int) -> RuleError | None:
    try:
        h = _owned_property(s, p, square)
    except RuleError as e:
        return e
    if not h.mortgaged:
        return RuleError(
            "unmortgage.not_mortgaged",
            gettext_noop("{square} is not mortgaged."),
            square=s.board.square(square).name,
        )
    return None


def unmortgage(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = s.player(ev["player"])
    err = unmortgage_error(s, p, ev["square"])
    if err:
        raise err
    sq = s.board.square(ev["square"])
    loan, interest = unmortgage_cost(s, sq.index)
    check_amount(ev, loan + interest, msg(gettext_noop("amount to lift the mortgage")))
    tx.require_cash(p.id, loan + interest, msg(gettext_noop("lifting the mortgage")))
    s.holdings[sq.index] = s.holdings[sq.index].but(mortgaged=False)
    s.fee_paid = tuple(m for m in s.fee_paid if m != sq.index)
    tx.exchange("unmortgage", p.id, -(loan + interest), loan, sq.index)
    tx.note(
        gettext_noop("{player} lifts the mortgage on {square}: {loan} + {interest} interest."),
        player=p.name,
        square=sq.name,
        loan=loan,
        interest=interest,
    )


# -- trades ---------------------------------------------------------------------------------------------
def trade_side_error(s: GameState, p: PlayerState, side: dict) -> RuleError | None:
    for m in side["squares"]:
        try:
            _owned_property(s, p, m)
            _no_buildings(
                s,
                m,
                s.variant.trade_needs_no_buildings_on,
                "trade.buildings",
                msg(gettext_noop("To trade a square")),
            )
        except RuleError as e:
            return e
    if side["cash"] and side["cash"] > p.cash:
        return RuleError(
            "trade.cash",
            gettext_noop("{player} has only {cash} in cash, not {amount}."),
            player=p.name,
            cash=p.cash,
            amount=side["cash"],
        )
    if side["jail_cards"] > len(p.jail_cards):
        return RuleError(
            "trade.jail_cards",
            gettext_noop("{player} has {n} 'Get out of jail free' cards."),
            player=p.name,
            n=len(p.jail_cards),
        )
    return None


def trade(tx: Tx, ev: dict) -> None:
    s = tx.s
    a, b = s.player(ev["player"]), s.player(ev["with"])
    if a.id == b.id:
        raise RuleError("trade.self", gettext_noop("A player cannot trade with himself."))
    if b.bankrupt:
        raise RuleError("player.bankrupt", gettext_noop("{player} is bankrupt."), player=b.name)
    give, get = ev["give"], ev["get"]
    if not any(
        (give["squares"], give["cash"], give["jail_cards"], get["squares"], get["cash"], get["jail_cards"])
    ):
        raise RuleError("trade.empty", gettext_noop("A trade must exchange something."))
    for p, side in ((a, give), (b, get)):
        err = trade_side_error(s, p, side)
        if err:
            raise err

    def value(side):
        return sum(property_value(s, m, s.holdings[m].mortgaged) for m in side["squares"])

    va, vb = value(give), value(get)
    mortgaged_to_b = [m for m in give["squares"] if s.holdings[m].mortgaged]
    mortgaged_to_a = [m for m in get["squares"] if s.holdings[m].mortgaged]
    for m in give["squares"]:
        s.holdings[m] = s.holdings[m].but(owner=b.id)
    for m in get["squares"]:
        s.holdings[m] = s.holdings[m].but(owner=a.id)
    for giver, receiver, n in ((a, b, give["jail_cards"]), (b, a, get["jail_cards"])):
        moved, giver.jail_cards[:n] = giver.jail_cards[:n], []
        receiver.jail_cards.extend(moved)
    cash = get["cash"] - give["cash"]
    tx.record("trade", [Leg(a.id, cash, vb - va), Leg(b.id, -cash, va - vb)], detail=f"{a.id}-{b.id}")
    tx.note(gettext_noop("{a} and {b} trade."), a=a.name, b=b.name)
    for m in mortgaged_to_b:
        transfer_fee(tx, b.id, m)
    for m in mortgaged_to_a:
        transfer_fee(tx, a.id, m)
