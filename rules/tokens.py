"""Moving a token: the steps of a throw (doubles in a row send it to jail instead), passing Start, moving
straight to a square or to jail, and what a landing sets off — the rules of each square live in their own
module (rent, purchases, cards, taxes, foundation; leaving jail: :mod:`rules.jail`). The roll event that
sets a token moving is :mod:`rules.rolls`."""

from __future__ import annotations

from rules import purchases, rent
from rules.board import BOARD_SIZE
from rules.errors import gettext_noop
from rules.foundation import land_on_foundation
from rules.movements import BANK
from rules.roles import is_monopolist
from rules.state import CardDraw, PlayerState
from rules.taxes import land_on_tax
from rules.transaction import Tx


def send_to_jail(tx: Tx, p: PlayerState) -> None:
    """Straight to jail, no salary; the turn ends (a double rolled on the way gives no more roll)."""
    s = tx.s
    p.position = s.board.jail
    p.in_jail = True
    p.jail_turns = 0
    if s.turn is not None and s.players[s.turn] is p:
        s.roll_again = False
        s.doubles = 0
    if tx.narrate:
        if is_monopolist(s.variant.roles, p.role):
            tx.note(gettext_noop("{player} goes to Prison."), player=p.name)
        elif s.variant.roles:
            tx.note(gettext_noop("{player} goes to Price War."), player=p.name)
        else:
            tx.note(gettext_noop("{player} goes to jail."), player=p.name)


def free_roll(tx: Tx, p: PlayerState, d1: int, d2: int) -> None:
    """A roll of a player not in jail: doubles in a row may send him there, else he moves."""
    double = d1 == d2
    if double:
        s, v = tx.s, tx.s.variant
        s.doubles += 1
        if v.doubles_to_jail and s.doubles >= v.doubles_to_jail:
            tx.note(gettext_noop("{n} doubles in a row."), n=s.doubles)  # then: "… goes to jail."
            send_to_jail(tx, p)
            return
    target = p.position + d1 + d2  # advance(tx, p, d1 + d2), inline: at almost every roll
    if target >= BOARD_SIZE:
        pay_salary(tx, p)
    p.position = target % BOARD_SIZE
    land(tx, p)
    if double:
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
    square = p.position
    sq = s.board.squares[square]
    if tx.narrate:
        tx.note(gettext_noop("{player} lands on {square}."), player=p.name, square=sq.name)
    kind = sq.kind
    if sq.is_property:  # the most common landing first
        h = s.holdings.get(square)
        if h is None:
            purchases.offer(tx, p, square)
        elif h.owner != p.id:
            if dice_total is None and kind == "utility":
                dice_total = s.last_dice[0] + s.last_dice[1]
            rent.fall_due(tx, p, square, dice_total, rent_multiplier, utility_multiplier)
    elif kind == "card":
        s.decision = CardDraw(p.id, sq.deck_for(p.role))
    elif kind == "go_to_jail":
        send_to_jail(tx, p)
    elif kind == "tax":
        land_on_tax(tx, p, sq)
    elif kind == "foundation":
        land_on_foundation(tx, p, sq)
