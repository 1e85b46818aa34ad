"""One event being applied: the state it changes, the movements it produced and what it says happened.

Handlers change cash only through :meth:`Tx.transfer`, :meth:`Tx.exchange` and :meth:`Tx.record`, which record
every change as a :class:`~rules.movements.Movement`; this is what lets tests check that the state and the
ledger agree.

Who is owed a debt (RULES.md §1 "Paying what you have not got"): a payment the rules impose may take the
payer's cash below zero; the creditor is the payee of the payment that took it there — and a player's claim
comes before the bank's: a payment to a player made while the payer is in debt to the bank makes that player
the creditor, so a bankruptcy to the bank never leaves a player holding money the bankrupt never had.
"""

from __future__ import annotations

from rules.banknotes import expected_banknotes
from rules.errors import Refusal, gettext_noop, refusal
from rules.messages import Message
from rules.movements import BANK, Leg, Movement
from rules.state import GameState


class UnbalancedMovement(Exception):
    """A movement whose cash does not sum to zero: a bug of the engine, never the referee's input."""


class Tx:
    __slots__ = ("s", "movements", "notes", "narrate", "event")

    # (rules.engine.apply_in_place sets these slots itself, without calling __init__: keep the two alike)
    def __init__(self, state: GameState, narrate: bool = True, event: dict | None = None):
        self.s = state
        self.event = event  # the event being applied, as checked and normalised
        self.movements: list[Movement] = []
        # what the event says happened; without notes (narrate=False) an empty tuple: nothing is added
        self.notes: list[Message] | tuple[()] = [] if narrate else ()
        self.narrate = narrate  # False: no notes (a replay for the books and the score only)

    # -- narration (hot paths test ``tx.narrate`` first, to skip building the values) ------------------
    def note(self, template: str, **params) -> None:
        if self.narrate:
            self.notes.append(Message(template, params))

    def name(self, party: str) -> str:
        return "bank" if party == BANK else self.s.by_id[party].name

    def square_name(self, index: int) -> str:
        return self.s.board.squares[index].name

    # -- money ----------------------------------------------------------------------------------------
    def _cash(self, party: str, delta: int, creditor: str) -> None:
        if party == BANK:
            return
        p = self.s.by_id[party]
        before = p.cash
        p.cash = cash = before + delta
        if cash >= 0:  # the common case: no debt (left)
            p.debt_to = None
            if p.unpaid:
                p.unpaid = {}
            return
        if p.debt_to is None or (delta < 0 and p.debt_to == BANK and creditor != BANK):
            p.debt_to = creditor
        if delta < 0:  # the part of this payment his banknotes did not cover
            p.unpaid[creditor] = p.unpaid.get(creditor, 0) + min(-delta, -cash)
        elif before < 0:
            _pay_back(p.unpaid, delta)

    def transfer(
        self, kind: str, payer: str, payee: str, amount: int, square: int | None = None, detail: str = ""
    ):
        """Cash from ``payer`` to ``payee`` (either may be the bank). The payer may go below zero: a debt."""
        if amount == 0:
            return
        self._cash(payer, -amount, payee)
        self._cash(payee, amount, payer)
        # Movement(kind, (Leg(payer, -amount), Leg(payee, amount)), square, detail), made at a third of the
        # cost (the tuples made from all their fields at once, without the constructors' Python frames):
        # almost every event makes one
        legs = (_make(Leg, (payer, -amount, 0)), _make(Leg, (payee, amount, 0)))
        self.movements.append(_make(Movement, (kind, legs, square, detail)))

    def exchange(
        self, kind: str, player: str, cash: int, assets: int, square: int | None = None, detail: str = ""
    ):
        """A deal with the bank: the player's cash and the book value of his holdings change together."""
        self._cash(player, cash, BANK)
        legs = (_make(Leg, (player, cash, assets)), _make(Leg, (BANK, -cash, 0)))  # as in transfer
        self.movements.append(_make(Movement, (kind, legs, square, detail)))

    def record(
        self, kind: str, legs: list[Leg], square: int | None = None, detail: str = "", creditor: str = BANK
    ):
        """A movement between several parties (a trade, a bankruptcy); applies the cash of every leg."""
        if sum(g.cash for g in legs) != 0:  # checked before anything changes, also under ``python -O``
            raise UnbalancedMovement(f"{kind}: the cash of {legs} does not sum to zero")
        for g in legs:
            self._cash(g.party, g.cash, creditor)
        self.movements.append(Movement(kind, tuple(legs), square, detail))


_make = tuple.__new__


def _pay_back(unpaid: dict[str, int], amount: int) -> None:
    """Cash coming back to a player in debt pays what he owes in banknotes: the players first, in the order
    he came to owe them, the bank last."""
    for creditor in sorted(unpaid, key=lambda c: c == BANK):
        paid = min(unpaid[creditor], amount)
        unpaid[creditor] -= paid
        amount -= paid
        if not unpaid[creditor]:
            del unpaid[creditor]
        if not amount:
            return


def held_cash(s: GameState, player_id: str) -> int:
    """The banknotes a player holds: his cash less what others owe him and have not paid yet (the same as his
    cash while nobody owes anything, which is most of the time)."""
    p = s.by_id[player_id]
    for q in s.players:
        if q.cash < 0:
            return expected_banknotes(s, player_id)
    return p.cash


def cash_refusal(s: GameState, player_id: str, amount: int, what: str | Message) -> Refusal | None:
    """A voluntary spend must be covered by the banknotes the player holds: his cash less what others owe him
    and have not paid yet (RULES.md §1, turn 4: money owed to him is not in his hand; ``rules.banknotes``).
    ``what``: a square's name or a message."""
    p = s.by_id[player_id]
    if p.cash < amount:
        held, owed = p.cash, 0
    else:
        held = held_cash(s, player_id)
        if held >= amount:
            return None
        owed = p.cash - held
    if owed:
        return refusal(
            "money.not_in_hand",
            gettext_noop(
                "{player} holds {held} in banknotes (the {owed} owed to {player} is not paid yet) and cannot "
                "pay {amount} for {what}: raise money first (sell buildings, mortgage, trade)."
            ),
            player=p.name,
            held=held,
            owed=owed,
            amount=amount,
            what=what,
        )
    return refusal(
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
