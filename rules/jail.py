"""Jail (RULES.md §1 'leaving jail'; seeds 001, 002, 004): counting the turns spent there, the tries for
doubles, the fine, the "get out of jail free" card — and the fine that must be paid before the token moves
(002: "pay 50 … before you can move your chip"). Going there is a move of the token
(:func:`rules.tokens.send_to_jail`)."""

from __future__ import annotations

from rules import tokens
from rules.errors import RuleError, gettext_noop
from rules.messages import msg
from rules.movements import BANK
from rules.state import GameState, JailExit, PlayerState
from rules.transaction import Tx, cash_refusal


def release(p: PlayerState) -> None:
    p.in_jail = False
    p.jail_turns = 0


def count_turn(p: PlayerState) -> None:
    """A turn begins for ``p``: one more turn in jail (the turn he was sent there is not one)."""
    if p.in_jail:
        p.jail_turns += 1


def fine_owed(s: GameState, p: PlayerState) -> bool:
    """``p`` has rolled his way out but still owes the fine: his token waits (see :func:`settle_exit`)."""
    return s.jail_exit is not None and s.jail_exit.player == p.id


def roll_in_jail(tx: Tx, p: PlayerState, d1: int, d2: int) -> None:
    """The prisoner rolls: a double frees him, the last failed try (or the end of the wait) costs the fine."""
    s, v = tx.s, tx.s.variant
    n = p.jail_turns
    if n > v.jail_tries and v.jail_release in ("free_after_tries", "fine_after_tries"):
        if v.jail_release == "free_after_tries":
            tx.note(gettext_noop("{player} has waited the turns out and leaves jail free."), player=p.name)
            release(p)
            tokens.free_roll(tx, p, d1, d2)
            return
        _pay_fine_then_move(
            tx, p, (d1, d2), True, gettext_noop("{player} pays the fine {fine} and leaves jail.")
        )
        return
    if d1 == d2:
        tx.note(gettext_noop("{player} throws a double and leaves jail."), player=p.name)
        release(p)
        if v.jail_doubles_roll_again:
            s.doubles = 1  # RULES.md §1: the double that frees him is the first double of the turn
        tokens.advance(tx, p, d1 + d2)
        tokens.maybe_roll_again(tx, p, v.jail_doubles_roll_again)
        return
    if v.jail_release == "fine_on_last_try" and n >= v.jail_tries:
        _pay_fine_then_move(
            tx, p, (d1, d2), False, gettext_noop("Third try failed: {player} pays the fine {fine} and moves.")
        )
        return
    if tx.narrate:
        tx.note(
            gettext_noop("{player} stays in jail (try {n} of {tries})."),
            player=p.name,
            n=n,
            tries=v.jail_tries,
        )


def _pay_fine_then_move(
    tx: Tx, p: PlayerState, dice: tuple[int, int], doubles_count: bool, said: str
) -> None:
    fine = tx.s.variant.jail_fine
    tx.transfer("jail_fine", p.id, BANK, fine)
    if p.cash < 0 and tx.s.variant.jail_fine_before_move:
        tx.s.jail_exit = JailExit(p.id, dice, doubles_count)
        tx.note(
            gettext_noop(
                "{player} owes the fine {fine}: the token moves once the money is raised "
                "(or {player} is bankrupt to the bank)."
            ),
            player=p.name,
            fine=fine,
        )
        return
    tx.note(said, player=p.name, fine=fine)
    _leave(tx, p, dice, doubles_count)


def _leave(tx: Tx, p: PlayerState, dice: tuple[int, int], doubles_count: bool) -> None:
    release(p)
    if doubles_count:
        tokens.free_roll(tx, p, *dice)
    else:
        tokens.advance(tx, p, dice[0] + dice[1])


def settle_exit(tx: Tx) -> None:
    """After any event: a prisoner whose fine is now paid (his cash is back to zero or more) moves."""
    exit_ = tx.s.jail_exit
    p = tx.s.by_id[exit_.player]
    if p.bankrupt:
        tx.s.jail_exit = None
    elif p.cash >= 0:
        tx.s.jail_exit = None
        tx.note(gettext_noop("{player} has paid the fine and leaves jail."), player=p.name)
        _leave(tx, p, exit_.dice, exit_.doubles_count)


def _prisoner(s: GameState, ev: dict) -> PlayerState:
    p = s.by_id[ev["player"]]
    if not p.in_jail:
        raise RuleError("jail.not_in_jail", gettext_noop("{player} is not in jail."), player=p.name)
    if fine_owed(s, p):
        raise RuleError(
            "jail.fine_owed",
            gettext_noop(
                "{player} owes the jail fine: the money must be raised (or {player} declared bankrupt)."
            ),
            player=p.name,
        )
    return p


def jail_fine(tx: Tx, ev: dict) -> None:
    """Leaving jail by paying the fine before rolling (a voluntary spend: covered by cash)."""
    s = tx.s
    p = _prisoner(s, ev)
    r = cash_refusal(s, p.id, s.variant.jail_fine, msg(gettext_noop("the jail fine")))
    if r is not None:
        raise r.error()
    tx.transfer("jail_fine", p.id, BANK, s.variant.jail_fine)
    release(p)
    tx.note(
        gettext_noop("{player} pays the fine {fine} and leaves jail."),
        player=p.name,
        fine=s.variant.jail_fine,
    )


def jail_card(tx: Tx, ev: dict) -> None:
    p = _prisoner(tx.s, ev)
    if not p.jail_cards:
        raise RuleError(
            "jail.no_card", gettext_noop("{player} has no 'Get out of jail free' card."), player=p.name
        )
    p.jail_cards.pop(0)
    release(p)
    tx.note(gettext_noop("{player} uses a 'Get out of jail free' card."), player=p.name)
