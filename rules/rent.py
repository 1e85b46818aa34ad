"""Claiming rent: the owner claims the pending rent before the next roll, or it lapses."""

from __future__ import annotations

from rules.errors import RuleError, gettext_noop
from rules.messages import msg
from rules.ownership import check_amount
from rules.transaction import Tx


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
