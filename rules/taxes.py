"""Tax squares (RULES.md §1 'income tax square', 'second tax square'): the printed amount, paid at once — or,
in Anti-Monopoly (rule 17), the player's choice of the printed amount or his role's percentage of his assets
(valued when the token lands), recorded with the ``income_tax`` event."""

from __future__ import annotations

from rules.board import Square
from rules.errors import RuleError, gettext_noop
from rules.messages import msg
from rules.movements import BANK
from rules.ownership import amount_refusal
from rules.roles import MONOPOLIST
from rules.state import GameState, PlayerState, TaxChoice
from rules.transaction import Tx
from rules.variants import ceil_percent


def land_on_tax(tx: Tx, p: PlayerState, sq: Square) -> None:
    s = tx.s
    if sq.percent_choice and s.variant.roles:
        percent = percent_tax(s, p)
        at_landing = s.variant.income_tax_valued_at == "landing"
        s.decision = TaxChoice(p.id, sq.index, percent if at_landing else None)
        tx.note(
            gettext_noop("{player} pays {fixed} or {percent} ({share}), as the player chooses."),
            player=p.name,
            fixed=sq.amount,
            percent=percent,
            share=percent_words(s, p),
        )
        return
    pay_tax(tx, p, sq, sq.amount)


def pay_tax(tx: Tx, p: PlayerState, sq: Square, amount: int) -> None:
    tx.transfer("tax", p.id, BANK, amount, sq.index)
    if tx.narrate:
        tx.note(gettext_noop("{player} pays tax {amount}."), player=p.name, amount=amount)


def cash_percent(s: GameState, p: PlayerState) -> int:
    v = s.variant
    return v.income_tax_percent_monopolist if p.role == MONOPOLIST else v.income_tax_percent_competitor


def percent_words(s: GameState, p: PlayerState):
    return msg(
        gettext_noop("{cash} percent of cash, {assets} percent of unmortgaged properties and buildings"),
        cash=cash_percent(s, p),
        assets=s.variant.income_tax_assets_percent,
    )


def percent_tax(s: GameState, p: PlayerState) -> int:
    """Rule 17: the role's percentage of cash, plus 10 % of the printed price of the unmortgaged properties
    and of the cost of the buildings; rounded up once, in the bank's favour (RULES.md §1)."""
    assets = 0
    for sq, h in s.holdings.items():
        if h.owner == p.id:
            square = s.board.squares[sq]
            if not h.mortgaged:
                assets += square.price
            assets += h.level * square.house_cost
    hundredths = max(p.cash, 0) * cash_percent(s, p) + assets * s.variant.income_tax_assets_percent
    return ceil_percent(hundredths, 1)


def percent_due(s: GameState, d: TaxChoice) -> int:
    """The percentage the player on the tax square may choose: valued when his token landed (RULES.md,
    Anti-Monopoly: a mortgage or a sale made since does not lower it), or now (option ``income_tax_valued_at``
    ``"choice"``)."""
    return d.percent if d.percent is not None else percent_tax(s, s.by_id[d.player])


def income_tax(tx: Tx, ev: dict) -> None:
    """The player's choice on the income tax square: ``fixed`` (the printed amount) or ``percent``."""
    s = tx.s
    p = s.by_id[ev["player"]]
    d = s.decision
    if not isinstance(d, TaxChoice) or d.player != p.id:
        raise RuleError(
            "tax.not_pending", gettext_noop("{player} has no income tax to pay now."), player=p.name
        )
    sq = s.board.squares[d.square]
    amount = sq.amount if ev["choice"] == "fixed" else percent_due(s, d)
    bad = amount_refusal(ev, amount, msg(gettext_noop("income tax")))
    if bad is not None:
        raise bad.error()
    s.decision = None
    pay_tax(tx, p, sq, amount)
