"""One event being applied: the cloned state, the movements it produced and what it says happened.

Handlers change cash only through :meth:`Tx.transfer` and :meth:`Tx.exchange`, which record every change
as a :class:`~rules.movements.Movement`; this is what lets tests check that the state and the ledger agree.
"""

from __future__ import annotations

from rules.errors import RuleError
from rules.messages import Message, gettext_noop
from rules.movements import BANK, Leg, Movement
from rules.state import GameState


class Tx:
    def __init__(self, state: GameState):
        self.s = state
        self.movements: list[Movement] = []
        self.notes: list[Message] = []  # what the event says happened

    # -- narration ------------------------------------------------------------------------------------
    def note(self, template: str, **params) -> None:
        self.notes.append(Message(template, params))

    def name(self, party: str) -> str:
        return "bank" if party == BANK else self.s.player(party).name

    def square_name(self, index: int) -> str:
        return self.s.board.square(index).name

    # -- money ----------------------------------------------------------------------------------------
    def _cash(self, party: str, delta: int, creditor: str) -> None:
        if party == BANK:
            return
        p = self.s.player(party)
        p.cash += delta
        if p.cash < 0:
            if p.debt_to is None:
                p.debt_to = creditor
        else:
            p.debt_to = None

    def transfer(
        self, kind: str, payer: str, payee: str, amount: int, square: int | None = None, detail: str = ""
    ):
        """Cash from ``payer`` to ``payee`` (either may be the bank). The payer may go below zero: a debt."""
        if amount == 0:
            return
        self._cash(payer, -amount, payee)
        self._cash(payee, amount, payer)
        self.movements.append(Movement(kind, (Leg(payer, -amount), Leg(payee, amount)), square, detail))

    def exchange(
        self, kind: str, player: str, cash: int, assets: int, square: int | None = None, detail: str = ""
    ):
        """A deal with the bank: the player's cash and the book value of his holdings change together."""
        self._cash(player, cash, BANK)
        self.movements.append(Movement(kind, (Leg(player, cash, assets), Leg(BANK, -cash)), square, detail))

    def record(
        self, kind: str, legs: list[Leg], square: int | None = None, detail: str = "", creditor: str = BANK
    ):
        """A movement between several parties (a trade, a bankruptcy); applies the cash of every leg."""
        assert sum(g.cash for g in legs) == 0, "a movement's cash must sum to zero"
        for g in legs:
            self._cash(g.party, g.cash, creditor)
        self.movements.append(Movement(kind, tuple(legs), square, detail))

    def require_cash(self, player_id: str, amount: int, what: str | Message) -> None:
        """``what``: a square's name, or a message naming the payment."""
        p = self.s.player(player_id)
        if p.cash < amount:
            raise RuleError(
                "money.insufficient",
                gettext_noop(
                    "{player} has {cash} in cash and cannot pay {amount} for {what}: raise money first "
                    "(sell buildings, mortgage, trade)."
                ),
                player=p.name,
                cash=p.cash,
                amount=amount,
                what=what,
            )
