"""What each player should hold in banknotes, and the referee's cash counts (GAME_RECORD.md ``cash_count``).

The state books a debt in full (RULES.md §2, ``rules.transaction``): a payment the rules impose may take the
payer's cash below zero, and the payee is credited the whole amount at once. On the table the payee has
received only the banknotes the payer had; the rest he is owed until the payer raises it (or goes bankrupt,
when the booking settles it). So what a player should hold is his cash less what he is owed and has not yet
received, and nothing while his own cash is below zero. Each payee's unpaid part is kept in the state
(``PlayerState.unpaid``, ``rules.transaction``): cash the debtor raises pays the players first, in the order
he came to owe them, the bank last. (At a bankruptcy the engine's booking lets the one creditor bear the
whole deficit, RULES.md §2.) A pending (unclaimed) rent is not owed money: it is not
booked until claimed.

:func:`banknotes` is the one source of these figures (the console, ``replay``, the sheets); :func:`cash_count`
is the engine's handler of the event (it moves no money); ``rules.cash_counts`` follows the counts of a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.messages import gettext_noop
from rules.movements import BANK
from rules.state import GameState

if TYPE_CHECKING:
    from rules.transaction import Tx


@dataclass(frozen=True, slots=True)
class Banknotes:
    """One player's cash as booked, his debt or what is owed to him, and the banknotes he should hold."""

    cash: int
    owes: int = 0  # his cash below zero: what he owes ...
    creditor: str | None = None  # ... to this player id, or BANK
    owed: tuple[tuple[str, int], ...] = ()  # (debtor id, amount): booked to him, not yet received
    owes_to: tuple[tuple[str, int], ...] = ()  # (payee id or BANK, amount): what each has not received

    @property
    def owed_total(self) -> int:
        return sum(amount for _debtor, amount in self.owed)

    @property
    def expected(self) -> int:
        """The banknotes he should hold: his cash less what he is owed; none while he is in debt."""
        return max(self.cash - self.owed_total, 0)


def banknotes(state: GameState) -> dict[str, Banknotes]:
    """Every player's :class:`Banknotes`, by player id, in seat order."""
    owes_to = {
        # what each payee has not received; a state stored before that was kept: all of it the creditor's
        p.id: tuple((p.unpaid or {p.debt_to or BANK: -p.cash}).items())
        for p in state.players
        if p.cash < 0 and not p.bankrupt
    }
    owed: dict[str, list[tuple[str, int]]] = {p.id: [] for p in state.players}
    for debtor, parts in owes_to.items():
        for creditor, amount in parts:
            if creditor in owed:
                owed[creditor].append((debtor, amount))
    out = {}
    for p in state.players:
        if p.id in owes_to:
            out[p.id] = Banknotes(p.cash, -p.cash, p.debt_to or BANK, tuple(owed[p.id]), owes_to[p.id])
        else:
            out[p.id] = Banknotes(p.cash, owed=tuple(owed[p.id]))
    return out


def signed(amount: int) -> str:
    """A difference as printed: +10, −200 (a minus sign, not a hyphen), 0."""
    return f"{amount:+d}".replace("-", "\u2212") if amount else "0"


def expected_banknotes(state: GameState, player_id: str) -> int:
    return banknotes(state)[player_id].expected


# -- the event ----------------------------------------------------------------------------------------------
COUNTED_AS_EXPECTED = gettext_noop("{player}'s cash counted: {counted}, as expected.")
COUNTED_SHORT = gettext_noop("{player}'s cash counted: {counted}, expected {expected}: {amount} missing.")
COUNTED_OVER = gettext_noop("{player}'s cash counted: {counted}, expected {expected}: {amount} too much.")


def cash_count(tx: Tx, ev: dict) -> None:
    """The referee counted a player's banknotes: nothing changes; the log says how the count compares."""
    if not tx.narrate:
        return
    p = tx.s.by_id[ev["player"]]
    counted, expected = ev["counted"], expected_banknotes(tx.s, p.id)
    if counted == expected:
        tx.note(COUNTED_AS_EXPECTED, player=p.name, counted=counted)
    else:
        template = COUNTED_SHORT if counted < expected else COUNTED_OVER
        tx.note(template, player=p.name, counted=counted, expected=expected, amount=abs(counted - expected))
