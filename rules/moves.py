"""Moving the token: the roll (whose turn, doubles), advancing, passing Start, and what a landing sets off
— the rules of each square live in their own module (rent, purchases, cards, jail, taxes)."""

from __future__ import annotations

from rules import jail, mortgages, purchases, rent, turns
from rules.board import BOARD_SIZE
from rules.errors import RuleError, gettext_noop
from rules.foundation import land_on_foundation
from rules.movements import BANK
from rules.state import CardDraw, PlayerState
from rules.taxes import land_on_tax
from rules.transaction import Tx


def roll(tx: Tx, ev: dict) -> None:
    s = tx.s
    seat = turns.next_roller(s)
    r = turns.blocking(s)
    if r is not None:
        raise r.error()
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
    rent.lapse(tx, new_turn)
    if new_turn:
        turns.begin_turn(s, seat)
    s.roll_again = False
    if s.fee_paid:
        mortgages.fee_lapses(s, p)
    if s.bank_sale:
        purchases.end_bank_sale(tx)
    d1, d2 = ev["dice"]
    s.rolls += 1
    s.last_dice = (d1, d2)
    if tx.narrate:
        tx.note(gettext_noop("{player} rolls {d1}+{d2}."), player=p.name, d1=d1, d2=d2)
    if p.in_jail:
        jail.roll_in_jail(tx, p, d1, d2)
    else:
        free_roll(tx, p, d1, d2)


def free_roll(tx: Tx, p: PlayerState, d1: int, d2: int) -> None:
    """A roll of a player not in jail: doubles in a row may send him there, else he moves."""
    s, v = tx.s, tx.s.variant
    double = d1 == d2
    if double:
        s.doubles += 1
        if v.doubles_to_jail and s.doubles >= v.doubles_to_jail:
            tx.note(gettext_noop("{n} doubles in a row."), n=s.doubles)  # then: "… goes to jail."
            jail.send_to_jail(tx, p)
            return
    advance(tx, p, d1 + d2)
    maybe_roll_again(tx, p, double)


def maybe_roll_again(tx: Tx, p: PlayerState, double: bool) -> None:
    s, v = tx.s, tx.s.variant
    if (
        double
        and not p.in_jail
        and not p.bankrupt
        and (v.max_rolls_per_turn is None or s.rolls < v.max_rolls_per_turn)
    ):
        s.roll_again = True


def pay_salary(tx: Tx, p: PlayerState) -> None:
    salary = tx.s.variant.salary
    tx.transfer("salary", BANK, p.id, salary, 0)
    if tx.narrate:
        tx.note(gettext_noop("{player} passes Start: salary {amount}."), player=p.name, amount=salary)


def advance(tx: Tx, p: PlayerState, steps: int) -> None:
    target = p.position + steps
    if target >= BOARD_SIZE:
        pay_salary(tx, p)
    p.position = target % BOARD_SIZE
    land(tx, p)


def move_to(tx: Tx, p: PlayerState, target: int, salary: bool = True, **landing) -> None:
    if target < p.position and salary:
        pay_salary(tx, p)
    p.position = target
    land(tx, p, **landing)


def land(
    tx: Tx,
    p: PlayerState,
    dice_total: int | None = None,
    rent_multiplier: int = 1,
    utility_multiplier: int | None = None,
) -> None:
    """What landing on the square the token now stands on sets off. ``dice_total``: the throw that values
    a utility's rent (default: the roll that moved the token)."""
    s = tx.s
    sq = s.board.squares[p.position]
    if tx.narrate:
        tx.note(gettext_noop("{player} lands on {square}."), player=p.name, square=sq.name)
    kind = sq.kind
    if kind == "go_to_jail":
        jail.send_to_jail(tx, p)
    elif kind == "tax":
        land_on_tax(tx, p, sq)
    elif kind == "card":
        s.decision = CardDraw(p.id, sq.deck_for(p.role))
    elif kind == "foundation":
        land_on_foundation(tx, p, sq)
    elif sq.is_property:
        h = s.holdings.get(sq.index)
        if h is None:
            purchases.offer(tx, p, sq.index)
        elif h.owner != p.id:
            if dice_total is None and kind == "utility":
                dice_total = s.last_dice[0] + s.last_dice[1]
            rent.fall_due(tx, p, sq.index, dice_total, rent_multiplier, utility_multiplier)
