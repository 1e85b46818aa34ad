"""What is pending and which events are legal now, for any state (the referee's console offers only these).

Built from the very checks the engine runs, so an action offered here is one the engine accepts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules import final_steps, jail
from rules.buildings import build_refusal, sell_refusal
from rules.messages import Message, to_data
from rules.mortgages import mortgage_refusal, unmortgage_cost
from rules.state import BuyDecision, CardDraw, FoundationRoll, GameState, Holding, PlayerState, TaxChoice
from rules.taxes import percent_due
from rules.trades import square_trade_refusal
from rules.transaction import cash_refusal, held_cash
from rules.turns import blocking, deals_missing, next_roller
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
    buy: dict | None = None  # {"player", "square", "price", "can_pay", "auction"}
    auctions: list[dict] = field(default_factory=list)  # {"square", "opening_bid", "optional"}
    card: dict | None = None  # {"player", "deck", "cards": [ids] or None}
    tax: dict | None = None  # {"player", "square", "fixed", "percent"}: the income tax choice (Anti-Monopoly)
    foundation: dict | None = None  # {"player", "square"}: a competitor's die at the Foundation
    final_step: str | None = None  # Anti-Monopoly two-hour game: "dealings", "tour"
    final_rolls: list[dict] = field(default_factory=list)  # {"player", "square"}: utilities to value
    rents: list[dict] = field(default_factory=list)  # {"payer", "owner", "square", "amount"}
    debts: list[dict] = field(default_factory=list)  # {"player", "amount", "to"}
    deals: list[dict] = field(default_factory=list)  # {"player", "count"}
    blocked_by: dict | None = None  # why nobody may roll now: {"code", "t", "p"} (rules.messages.to_data)
    timeout: str | None = None  # whose move can time out
    time_up: bool = False
    players: dict[str, PlayerOptions] = field(default_factory=dict)


def legal_actions(s: GameState, with_players: bool = True) -> Legal:
    """Everything legal now; ``with_players=False`` skips the per-player options (build, mortgage, …)."""
    v = s.variant
    out = Legal(finished=s.finished)
    out.rents = [
        {"payer": r.payer, "owner": r.owner, "square": r.square, "amount": r.amount, "times": r.times}
        for r in s.rents
    ]
    out.final_step = s.final_step
    if s.final_step == "tour" or (s.finished and s.variant.ending == "game_b"):
        out.final_rolls = [
            {"player": s.holdings[sq].owner, "square": sq} for sq in final_steps.utilities_to_roll(s)
        ]
    if s.finished:
        return out
    why = blocking(s)
    seat = next_roller(s)
    if why is None and seat is not None:
        out.roll = s.players[seat].id
        out.roll_again = seat == s.turn and s.roll_again
    elif why is not None:
        out.blocked_by = _why(why)
    if s.final_step is not None:  # the two-hour game's final steps: no more rolls
        out.roll = None
        out.blocked_by = _why(final_steps.refusal_of(s, "roll"))
    d = s.decision
    if isinstance(d, BuyDecision):
        sq = s.board.squares[d.square]
        out.buy = {
            "player": d.player,
            "square": d.square,
            "price": sq.price,
            "can_pay": held_cash(s, d.player) >= sq.price,
            # a decline puts the square up for auction from this bid (None: it stays with the bank)
            "auction": v.auction_opening_bid(sq.price) if v.auction_on_decline else None,
        }
    elif isinstance(d, TaxChoice):
        out.tax = {
            "player": d.player,
            "square": d.square,
            "fixed": s.board.squares[d.square].amount,
            "percent": percent_due(s, d),
        }
    elif isinstance(d, FoundationRoll):
        out.foundation = {"player": d.player, "square": d.square}
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
            "opening_bid": v.auction_opening_bid(s.board.squares[a].price),
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
    out.time_up = v.timed and not s.time_up and s.final_step is None
    if with_players:
        for p in s.active_players:
            out.players[p.id] = _in_final_step(s, player_options(s, p.id))
    return out


def _in_final_step(s: GameState, o: PlayerOptions) -> PlayerOptions:
    """A player's options as the two-hour game's final steps leave them (``final_steps.ALLOWED``): dealings
    with the bank only (no trade, no jail exit), then, on the tour, none at all."""
    if s.final_step is None:
        return o
    allowed = final_steps.ALLOWED[s.final_step]
    return PlayerOptions(
        build=o.build if "build" in allowed else [],
        sell_building=o.sell_building if "sell_building" in allowed else {},
        mortgage=o.mortgage if "mortgage" in allowed else [],
        unmortgage=o.unmortgage if "unmortgage" in allowed else {},
        bankrupt=o.bankrupt and "bankrupt" in allowed,
    )


def _why(refusal) -> dict:
    """A refusal (``Refusal`` or ``RuleError``) as data: its code, its template and values, for the console to
    say in the referee's language."""
    return {"code": refusal.code, **to_data(Message(refusal.template, refusal.params))}


def _owned(s: GameState, player_id: str) -> list[int]:
    """The squares ``player_id`` owns, in board order (plain ints, sorted without a key: the probes below
    read the holding and the board square of the few they keep)."""
    owned = [sq for sq, h in s.holdings.items() if h.owner == player_id]
    owned.sort()
    return owned


_NOBODYS = Holding(None)  # an unowned square, as holdings.get's default: its owner is nobody's id


def buildable(s: GameState, p: PlayerState) -> list[int]:
    """Squares where ``p`` may buy one more building level now (and has the cash for it)."""
    v = s.variant
    top = v.hotel_level_for(p.role)
    squares, holdings, pid, cash = s.board.squares, s.holdings, p.id, held_cash(s, p.id)
    # cheap first tests (his street, below the top, affordable; in a group he holds whole where the variant
    # wants it); build_refusal has the last word
    if v.build_requires_full_group:
        candidates = []
        for group in s.board.street_groups:
            for sq in group:  # most groups are left at their first street: not his
                if holdings.get(sq, _NOBODYS).owner != pid:
                    break
            else:
                candidates.extend(group)
    else:
        candidates = [sq for sq, h in holdings.items() if h.owner == pid]
    candidates.sort()
    return [
        sq
        for sq in candidates
        if (square := squares[sq]).kind == "street"
        and holdings[sq].level < top
        and cash >= square.house_cost
        and build_refusal(s, p, sq, 1) is None
    ]


def sellable(s: GameState, p: PlayerState) -> dict[int, int]:
    """Square -> building levels ``p`` may sell there now (one, or a whole hotel the bank cannot split)."""
    out = {}
    squares, holdings = s.board.squares, s.holdings
    for sq in _owned(s, p.id):
        level = holdings[sq].level
        if level and squares[sq].kind == "street":
            for count in (1, level):
                if sell_refusal(s, p, sq, count) is None:
                    out[sq] = count
                    break
    return out


def mortgageable(s: GameState, p: PlayerState) -> list[int]:
    holdings = s.holdings
    return [sq for sq in _owned(s, p.id) if not holdings[sq].mortgaged and mortgage_refusal(s, p, sq) is None]


def unmortgageable(s: GameState, p: PlayerState) -> dict[int, int]:
    """Square -> amount to pay to lift its mortgage, where his cash covers it (a voluntary spend: the
    engine's own check, ``cash_refusal``)."""
    holdings, out = s.holdings, {}
    for sq in _owned(s, p.id):
        if holdings[sq].mortgaged:
            amount = sum(unmortgage_cost(s, sq))
            if cash_refusal(s, p.id, amount, "") is None:
                out[sq] = amount
    return out


def tradable(s: GameState, p: PlayerState) -> list[int]:
    return [sq for sq in _owned(s, p.id) if square_trade_refusal(s, p, sq) is None]


def player_options(s: GameState, player_id: str) -> PlayerOptions:
    """What ``player_id`` may do now with what he owns: asked of the very checks the events run."""
    p = s.by_id[player_id]
    prisoner = p.in_jail and not jail.fine_owed(s, p)
    return PlayerOptions(
        build=buildable(s, p),
        sell_building=sellable(s, p),
        mortgage=mortgageable(s, p),
        unmortgage=unmortgageable(s, p),
        tradable=tradable(s, p),
        jail_fine=prisoner and held_cash(s, p.id) >= s.variant.jail_fine,
        jail_card=prisoner and bool(p.jail_cards),
        bankrupt=p.cash < 0 and (not s.variant.bankruptcy_needs_insolvency or liquidation_cash(s, p.id) < 0),
    )
