"""Checks shared by the events about owned squares: the amount a referee typed, ownership, buildings,
and the fee on receiving a mortgaged square."""

from __future__ import annotations

from rules.errors import RuleError, gettext_noop
from rules.messages import Message
from rules.state import GameState, Holding, PlayerState
from rules.transaction import Tx
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


def owned_property(s: GameState, p: PlayerState, square: int, *, street: bool = False) -> Holding:
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


def require_no_buildings(s: GameState, square: int, scope: str, code: str, what: str) -> None:
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
