"""The roll: whose turn it is to roll, a new turn or an extra roll of the same (doubles), what lapses when the
dice are thrown; then a prisoner tries his way out of jail (:mod:`rules.jail`), anyone else's token moves
(:mod:`rules.tokens`)."""

from __future__ import annotations

from rules import jail, mortgages, purchases, rent, tokens
from rules.errors import RuleError, gettext_noop
from rules.transaction import Tx
from rules.turns import begin_turn, blocked, blocking, next_roller


def roll(tx: Tx, ev: dict) -> None:
    s = tx.s
    seat = next_roller(s)
    if blocked(s):  # the cheap test; blocking says what
        raise blocking(s).error()
    p = s.by_id[ev["player"]]
    if seat is None or s.players[seat] is not p:
        expected = s.players[seat]
        again = seat == s.turn and s.roll_again
        raise RuleError(
            "roll.not_your_turn",
            gettext_noop("{expected} must roll again (doubles), not {player}.")
            if again
            else gettext_noop("It is {expected}'s turn to roll, not {player}'s."),
            expected=expected.name,
            player=p.name,
        )
    new_turn = not (seat == s.turn and s.roll_again)
    if s.rents:
        rent.lapse(tx, new_turn)
    if new_turn:
        begin_turn(s, seat)  # no roll again, no roll yet
    else:
        s.roll_again = False
    if s.fee_paid:
        mortgages.fee_lapses(s, p)
    if s.bank_sale:
        purchases.end_bank_sale(tx)
    s.last_dice = dice = ev["dice"]  # a tuple (d1, d2), as read
    d1, d2 = dice
    s.rolls += 1
    if tx.narrate:
        tx.note(gettext_noop("{player} rolls {d1}+{d2}."), player=p.name, d1=d1, d2=d2)
    if p.in_jail:
        jail.roll_in_jail(tx, p, d1, d2)
    else:
        tokens.free_roll(tx, p, d1, d2)
