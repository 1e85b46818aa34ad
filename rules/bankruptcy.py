"""Bankruptcy (RULES.md §2 last row; 001/002 "Bankructwo"): to a player or to the bank."""

from __future__ import annotations

from rules.buildings import sell_levels
from rules.errors import RuleError, gettext_noop
from rules.movements import BANK, Leg
from rules.ownership import transfer_fee
from rules.transaction import Tx
from rules.valuation import holding_value, liquidation_cash


def bankrupt(tx: Tx, ev: dict) -> None:
    s, v = tx.s, tx.s.variant
    p = s.by_id[ev["player"]]
    if p.cash >= 0:
        raise RuleError(
            "bankrupt.no_debt",
            gettext_noop("{player} owes nothing: a player goes bankrupt only when a debt cannot be paid."),
            player=p.name,
        )
    if v.bankruptcy_needs_insolvency:
        raisable = liquidation_cash(s, p.id)
        if raisable >= 0:
            raise RuleError(
                "bankrupt.can_pay",
                gettext_noop(
                    "{player} owes {debt} but can raise {can} by selling buildings and mortgaging: "
                    "the debt must be paid."
                ),
                player=p.name,
                debt=-p.cash,
                can=raisable - p.cash,
            )
    creditor = p.debt_to or BANK
    if creditor != BANK and s.by_id[creditor].bankrupt:
        creditor = BANK

    # Buildings go back to the bank at half price.
    for sq in s.owned_by(p.id):
        h = s.holdings[sq]
        if h.level:
            sell_levels(tx, p.id, sq, h.level)

    squares = s.owned_by(p.id)
    assets = sum(holding_value(s, sq) for sq in squares)
    cash = p.cash
    if creditor == BANK:
        for sq in squares:
            del s.holdings[sq]
        s.fee_paid = tuple(m for m in s.fee_paid if m not in squares)
        p.jail_cards.clear()
        tx.record("bankruptcy", [Leg(p.id, -cash, -assets), Leg(BANK, cash)], detail=BANK)
        tx.note(gettext_noop("{player} is bankrupt to the bank."), player=p.name)
        if v.auction_bank_bankruptcy and squares:
            s.bank_sale = (*s.bank_sale, *squares)
    else:
        c = s.by_id[creditor]
        mortgaged = [sq for sq in squares if s.holdings[sq].mortgaged]
        for sq in squares:
            s.holdings[sq] = s.holdings[sq].but(owner=creditor)
            s.acquire(sq)
        c.jail_cards.extend(p.jail_cards)
        p.jail_cards.clear()
        tx.record("bankruptcy", [Leg(p.id, -cash, -assets), Leg(creditor, cash, assets)], detail=creditor)
        tx.note(
            gettext_noop("{player} is bankrupt to {creditor}, who takes everything."),
            player=p.name,
            creditor=c.name,
        )
        for sq in mortgaged:
            transfer_fee(tx, creditor, sq)

    s.bankruptcies += 1
    p.bankrupt = True
    p.bankrupt_order = s.bankruptcies
    p.debt_to = None
    p.in_jail = False
    if s.decision is not None and s.decision.player == p.id:  # a purchase, a card, a tax choice, a die
        s.decision = None
    s.rents = tuple(r for r in s.rents if p.id not in (r.payer, r.owner))
    if s.jail_exit is not None and s.jail_exit.player == p.id:
        s.jail_exit = None  # his token never moves: nobody is owed anything from that roll
    if s.turn is not None and s.players[s.turn] is p:
        s.roll_again = False
