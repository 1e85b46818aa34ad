"""Mortgages and lifting them, with the 10 % interest (RULES.md §1 'mortgage needs', 'lifting a mortgage')."""

from __future__ import annotations

from rules.errors import Refusal, gettext_noop, refusal
from rules.messages import msg
from rules.ownership import amount_refusal, buildings_refusal, monopoly_buildings_refusal, ownership_refusal
from rules.state import GameState, PlayerState
from rules.transaction import Tx, cash_refusal
from rules.variants import ceil_percent

_TO_MORTGAGE = msg(gettext_noop("To mortgage"))


def mortgage_refusal(s: GameState, p: PlayerState, square: int) -> Refusal | None:
    h = s.holdings.get(square)
    if h is None or h.owner != p.id:  # ownership_refusal's own test, first: asked of every square probed
        return ownership_refusal(s, p, square)
    if h.mortgaged:
        return refusal(
            "mortgage.already",
            gettext_noop("{square} is already mortgaged."),
            square=s.board.squares[square].name,
        )
    r = buildings_refusal(
        s, square, s.variant.mortgage_needs_no_buildings_on, "mortgage.buildings", _TO_MORTGAGE
    )
    if r is None and s.variant.roles:  # (Anti-Monopoly alone: not asked without roles)
        r = monopoly_buildings_refusal(s, p, square, "mortgage.monopoly_buildings")
    return r


def mortgage(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = s.by_id[ev["player"]]
    sq = s.board.squares[ev["square"]]
    r = mortgage_refusal(s, p, sq.index) or amount_refusal(
        ev, sq.mortgage, msg(gettext_noop("mortgage loan"))
    )
    if r is not None:
        raise r.error()
    s.holdings[sq.index] = s.holdings[sq.index].but(mortgaged=True)
    tx.exchange("mortgage", p.id, sq.mortgage, -sq.mortgage, sq.index)
    if any(r.square == sq.index for r in s.rents):  # no rent is collected on a mortgaged property
        s.rents = tuple(r for r in s.rents if r.square != sq.index)
        tx.note(gettext_noop("The rent pending on {square} lapses: it is mortgaged now."), square=sq.name)
    tx.note(
        gettext_noop("{player} mortgages {square} for {loan}."),
        player=p.name,
        square=sq.name,
        loan=sq.mortgage,
    )


def unmortgage_cost(s: GameState, square: int) -> tuple[int, int]:
    """(loan, interest) to lift the mortgage on ``square``: printed, else loan + 10 % rounded up.

    Lifted at once (before the next roll) by who just received it and paid the 10 % then, it costs the
    loan alone (RULES.md §1 "Lifting a mortgage just received"; 002: "lift at once for loan + 10 %").
    """
    sq = s.board.squares[square]
    if square in s.fee_paid:
        return sq.mortgage, 0
    if sq.unmortgage is not None:
        return sq.mortgage, sq.unmortgage - sq.mortgage
    return sq.mortgage, ceil_percent(sq.mortgage, s.variant.unmortgage_interest_percent)


def fee_lapses(s: GameState, roller: PlayerState) -> None:
    """The 10 % paid on receiving a mortgaged square counts as the interest until the receiver's next roll."""
    s.fee_paid = tuple(
        m for m in s.fee_paid if (h := s.holdings.get(m)) is not None and h.mortgaged and h.owner != roller.id
    )


def unmortgage_refusal(s: GameState, p: PlayerState, square: int) -> Refusal | None:
    r = ownership_refusal(s, p, square)
    if r is not None:
        return r
    if not s.holdings[square].mortgaged:
        return refusal(
            "unmortgage.not_mortgaged",
            gettext_noop("{square} is not mortgaged."),
            square=s.board.squares[square].name,
        )
    return None


def unmortgage(tx: Tx, ev: dict) -> None:
    s = tx.s
    p = s.by_id[ev["player"]]
    sq = s.board.squares[ev["square"]]
    r = unmortgage_refusal(s, p, sq.index)
    if r is None:
        loan, interest = unmortgage_cost(s, sq.index)
        r = amount_refusal(
            ev, loan + interest, msg(gettext_noop("amount to lift the mortgage"))
        ) or cash_refusal(s, p.id, loan + interest, msg(gettext_noop("lifting the mortgage")))
    if r is not None:
        raise r.error()
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
