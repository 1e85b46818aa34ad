"""Tax squares (RULES.md §1 'income tax square', 'second tax square'): the printed amount, paid at once."""

from __future__ import annotations

from rules.board import Square
from rules.errors import gettext_noop
from rules.movements import BANK
from rules.state import PlayerState
from rules.transaction import Tx


def pay_tax(tx: Tx, p: PlayerState, sq: Square) -> None:
    tx.transfer("tax", p.id, BANK, sq.amount, sq.index)
    tx.note(gettext_noop("{player} pays tax {amount}."), player=p.name, amount=sq.amount)
