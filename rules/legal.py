"""What is pending and which events are legal now, for any state (the referee's console offers only these).

Built from the very checks the engine runs, so an action offered here is one the engine accepts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.buildings import check_build, check_sell_building
from rules.errors import RuleError
from rules.mortgages import check_mortgage, unmortgage_cost
from rules.state import BuyDecision, CardDraw, GameState
from rules.trades import check_trade_side
from rules.turns import blocking_error, deals_missing, next_roller
from rules.valuation import liquidation_cash


@dataclass
class PlayerOptions:
    build: list[int] = field(default_factory=list)  # squares where one more level can be bought now
    sell_building: dict[int, int] = field(
        default_factory=dict
    )  # square -> levels to sell (1, or a whole hotel)
    mortgage: list[int] = field(default_factory=list)
    unmortgage: dict[int, int] = field(default_factory=dict)  # square -> amount to pay
    tradable: list[int] = field(default_factory=list)
    jail_fine: bool = False
    jail_card: bool = False
    bankrupt: bool = False


@dataclass
class Legal:
    finished: bool
    roll: str | None = None  # who may roll now
    roll_again: bool = False
    buy: dict | None = None  # {"player", "square", "price", "can_pay"}
    auctions: list[dict] = field(default_factory=list)  # {"square", "opening_bid", "optional"}
    card: dict | None = None  # {"player", "deck", "cards": [ids] or None}
    rents: list[dict] = field(default_factory=list)  # {"payer", "owner", "square", "amount"}
    debts: list[dict] = field(default_factory=list)  # {"player", "amount", "to"}
    deals: list[dict] = field(default_factory=list)  # {"player", "count"}
    blocked_by: str | None = None  # why nobody may roll now
    timeout: str | None = None  # whose move can time out
    time_up: bool = False
    players: dict[str, PlayerOptions] = field(default_factory=dict)


def legal_actions(s: GameState, with_players: bool = True) -> Legal:
    """Everything legal now; ``with_players=False`` skips the per-player options (build, mortgage, …)."""
    v = s.variant
    out = Legal(finished=s.finished)
    out.rents = [
        {"payer": r.payer, "owner": r.owner, "square": r.square, "amount": r.amount} for r in s.rents
    ]
    if s.finished:
        return out
    err = blocking_error(s)
    seat = next_roller(s)
    if err is None and seat is not None:
        out.roll = s.players[seat].id
        out.roll_again = seat == s.turn and s.roll_again
    elif err is not None:
        out.blocked_by = err.message
    d = s.decision
    if isinstance(d, BuyDecision):
        sq = s.board.square(d.square)
        out.buy = {
            "player": d.player,
            "square": d.square,
            "price": sq.price,
            "can_pay": s.player(d.player).cash >= sq.price,
        }
    elif isinstance(d, CardDraw):
        deck = s.board.decks[d.deck]
        held = s.held_jail_cards()
        cards = None
        if deck.cards is not None:
            cards = [c.id for c in deck.cards if not (c.effect["kind"] == "jail_card" and c.ref in held)]
        out.card = {"player": d.player, "deck": d.deck, "cards": cards}
    out.auctions = [
        {
            "square": a,
            "opening_bid": v.auction_opening_bid(s.board.square(a).price),
            "optional": a in s.bank_sale,
        }
        for a in (*s.auctions, *s.bank_sale)
    ]
    out.debts = [{"player": p.id, "amount": -p.cash, "to": p.debt_to} for p in s.debtors()]
    out.deals = [{"player": pid, "count": count} for pid, count in deals_missing(s)]
    if v.move_time_limit:
        cur = s.current
        if cur is not None and (s.roll_again or (isinstance(d, BuyDecision) and d.player == cur.id)):
            out.timeout = cur.id
        elif out.roll:
            out.timeout = out.roll
    out.time_up = bool(v.timed_end or v.time_limit_minutes) and not s.time_up
    if with_players:
        for p in s.active_players:
            out.players[p.id] = player_options(s, p.id)
    return out


def allowed(check, *args) -> bool:
    """Whether one of the engine's checks (``check_build``, …) lets these arguments through."""
    try:
        check(*args)
    except RuleError:
        return False
    return True


def player_options(s: GameState, player_id: str) -> PlayerOptions:
    p = s.player(player_id)
    o = PlayerOptions()
    empty = {"squares": [], "cash": 0, "jail_cards": 0}
    for sq in s.owned_by(player_id):
        square = s.board.square(sq)
        h = s.holdings[sq]
        if square.kind == "street":
            if p.cash >= square.house_cost and allowed(check_build, s, p, sq, 1):
                o.build.append(sq)
            if h.level:
                for count in (1, h.level):
                    if allowed(check_sell_building, s, p, sq, count):
                        o.sell_building[sq] = count
                        break
        if h.mortgaged:
            o.unmortgage[sq] = sum(unmortgage_cost(s, sq))
        elif allowed(check_mortgage, s, p, sq):
            o.mortgage.append(sq)
        if allowed(check_trade_side, s, p, {**empty, "squares": [sq]}):
            o.tradable.append(sq)
    o.jail_fine = p.in_jail and p.cash >= s.variant.jail_fine
    o.jail_card = p.in_jail and bool(p.jail_cards)
    o.bankrupt = p.cash < 0 and (not s.variant.bankruptcy_needs_insolvency or liquidation_cash(s, p.id) < 0)
    return o
