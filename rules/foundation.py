"""The Anti-Monopoly Foundation square (rule 21): a monopolist pays into the Foundation; a competitor rolls
one die (the ``foundation`` event) and gets the grant the board prints for it (1: 25, 2: 50, else nothing)."""

from __future__ import annotations

from rules.board import Square
from rules.errors import RuleError, gettext_noop
from rules.movements import BANK
from rules.roles import COMPETITOR, MONOPOLIST
from rules.state import FoundationRoll, PlayerState
from rules.transaction import Tx


def land_on_foundation(tx: Tx, p: PlayerState, sq: Square) -> None:
    if p.role == MONOPOLIST:
        tx.transfer("foundation", p.id, BANK, sq.monopolist_pays, sq.index)
        tx.note(
            gettext_noop("{player} pays {amount} into the Anti-Monopoly Foundation."),
            player=p.name,
            amount=sq.monopolist_pays,
        )
    elif p.role == COMPETITOR:
        tx.s.decision = FoundationRoll(p.id, sq.index)


def foundation(tx: Tx, ev: dict) -> None:
    """A competitor's die at the Foundation."""
    s = tx.s
    p = s.by_id[ev["player"]]
    d = s.decision
    if not isinstance(d, FoundationRoll) or d.player != p.id:
        raise RuleError(
            "foundation.not_pending",
            gettext_noop("{player} has no die to roll at the Anti-Monopoly Foundation now."),
            player=p.name,
        )
    s.decision = None
    grant = s.board.squares[d.square].die_grants[ev["die"] - 1]
    tx.transfer("foundation", BANK, p.id, grant, d.square)
    if grant:
        tx.note(
            gettext_noop("{player} rolls {die}: a grant of {amount}."),
            player=p.name,
            die=ev["die"],
            amount=grant,
        )
    else:
        tx.note(gettext_noop("{player} rolls {die}: no grant."), player=p.name, die=ev["die"])
