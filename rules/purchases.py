"""Buying squares: title deeds dealt at the start, buy or decline, and auctions (RULES.md §1)."""

from __future__ import annotations

from rules.errors import RuleError, gettext_noop
from rules.messages import msg
from rules.ownership import amount_refusal
from rules.state import BuyDecision, GameState, Holding, PlayerState
from rules.transaction import Tx, cash_refusal


def offer(tx: Tx, p: PlayerState, square: int) -> None:
    """``p`` has landed on an unowned property: he must buy it or decline it before the next roll."""
    tx.s.decision = BuyDecision(p.id, square)


def end_bank_sale(tx: Tx) -> None:
    """A roll ends the auctions of a bankrupt's properties: what was not sold stays with the bank."""
    s = tx.s
    tx.note(
        gettext_noop("Not auctioned: {squares} stay with the bank."),
        squares=", ".join(s.board.squares[m].name for m in s.bank_sale),
    )
    s.bank_sale = ()


def deal(tx: Tx, ev: dict) -> None:
    s, v = tx.s, tx.s.variant
    p = s.by_id[ev["player"]]
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
        sq = s.board.squares[m]
        if not sq.is_property or m in s.holdings:
            raise RuleError(
                "deal.not_available", gettext_noop("{square} is not an unowned title deed."), square=sq.name
            )
        total += sq.price
    r = cash_refusal(s, p.id, total, msg(gettext_noop("the title deeds")))
    if r is not None:
        raise r.error()
    for m in squares:
        price = s.board.squares[m].price
        s.holdings[m] = Holding(p.id)
        s.acquire(m)
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
    p = s.by_id[ev["player"]]
    d = _buy_decision(s, p)
    sq = s.board.squares[d.square]
    r = amount_refusal(ev, sq.price, msg(gettext_noop("price"))) or cash_refusal(s, p.id, sq.price, sq.name)
    if r is not None:
        raise r.error()
    s.holdings[sq.index] = Holding(p.id)
    s.acquire(sq.index)
    s.decision = None
    tx.exchange("purchase", p.id, -sq.price, sq.price, sq.index)
    tx.note(
        gettext_noop("{player} buys {square} for {price}."), player=p.name, square=sq.name, price=sq.price
    )


def decline(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = s.by_id[ev["player"]]
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
    sq = s.board.squares[square]
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
    p = s.by_id[winner]
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
    r = cash_refusal(s, p.id, price, sq.name)
    if r is not None:
        raise r.error()
    _close_auction(s, square)
    s.holdings[square] = Holding(p.id)
    s.acquire(square)
    tx.exchange("auction", p.id, -price, sq.price, square)
    tx.note(
        gettext_noop("{player} wins the auction of {square} for {price} (printed {printed})."),
        player=p.name,
        square=sq.name,
        price=price,
        printed=sq.price,
    )
