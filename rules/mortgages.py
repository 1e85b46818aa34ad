"""Mortgages and lifting them, with the 10 % interest (RULES.md §1 'mortgage needs', 'lifting a mortgage')."""

from __future__ import annotations

from rules.errors import RuleError, gettext_noop
from rules.messages import msg
from rules.ownership import check_amount, owned_property, require_no_buildings
from rules.state import GameState, PlayerState
from rules.transaction import Tx
from rules.variants import ceil_percent


def check_mortgage(s: GameState, p: PlayerState, square: int) -> None:
    h = owned_property(s, p, square)
    sq = s.board.square(square)
    if h.mortgaged:
        raise RuleError("mortgage.already", gettext_noop("{square} is already mortgaged."), square=sq.name)
    require_no_buildings(
        s,
        square,
        s.variant.mortgage_needs_no_buildings_on,
        "mortgage.buildings",
        msg(gettext_noop("To mortgage")),
    )


def mortgage(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = s.player(ev["player"])
    check_mortgage(s, p, ev["square"])
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


def check_unmortgage(s: GameState, p: PlayerState, square: int) -> None:
    h = owned_property(s, p, square)
    if not h.mortgaged:
        raise RuleError(
            "unmortgage.not_mortgaged",
            gettext_noop("{square} is not mortgaged."),
            square=s.board.square(square).name,
        )


def unmortgage(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = s.player(ev["player"])
    check_unmortgage(s, p, ev["square"])
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
