"""The rules engine: apply one event to a state, get the new state and the money movements.

    state = new_game(board, variant, [("A", "Anna", None), ("B", "Bartek", None)])
    outcome = apply(state, {"type": "roll", "player": "A", "dice": [3, 4]})
    outcome.state, outcome.movements, outcome.notes

``apply`` changes a clone of the state it is given; with ``in_place=True`` it changes the state itself (for
a caller that owns it: a replay, the console that loads the state per request). Either way an illegal event
raises :class:`RuleError` (or :class:`RecordError` for a malformed one) before anything changes. The cost of
one event does not depend on the length of the game. ``apply_in_place`` is the same without the
:class:`Outcome`, for loops that need none (a replay nobody watches, the simulator).
"""

from __future__ import annotations

from typing import NamedTuple

from rules import (
    banknotes,
    bankruptcy,
    buildings,
    cards,
    final_steps,
    foundation,
    jail,
    mortgages,
    purchases,
    rent,
    rolls,
    taxes,
    time_limits,
    trades,
)
from rules.board import Board
from rules.errors import RuleError, gettext_noop
from rules.game_end import check_end
from rules.messages import Message
from rules.movements import Movement
from rules.record import parse_event
from rules.state import GameState
from rules.transaction import Tx
from rules.variants import Variant

HANDLERS = {
    "deal": purchases.deal,
    "roll": rolls.roll,
    "buy": purchases.buy,
    "decline": purchases.decline,
    "auction": purchases.auction,
    "rent": rent.rent,
    "card": cards.card,
    "build": buildings.build,
    "sell_building": buildings.sell_building,
    "mortgage": mortgages.mortgage,
    "unmortgage": mortgages.unmortgage,
    "trade": trades.trade,
    "jail_fine": jail.jail_fine,
    "jail_card": jail.jail_card,
    "timeout": time_limits.timeout,
    "bankrupt": bankruptcy.bankrupt,
    "time_up": time_limits.time_up,
    "income_tax": taxes.income_tax,
    "foundation": foundation.foundation,
    "final_keep": final_steps.final_keep,
    "final_roll": final_steps.final_roll,
    "final_tour": final_steps.final_tour,
    "cash_count": banknotes.cash_count,
}
#: Events legal at any moment, also after the game ended and during the final steps: they move nothing.
AT_ANY_MOMENT = ("cash_count",)


class Outcome(NamedTuple):
    event: dict  # the event as checked and normalised
    state: GameState  # the state after the event (with ``in_place``: the caller's own state)
    movements: tuple[Movement, ...]
    notes: tuple[Message, ...]


def new_game(board: Board, variant: Variant, players: list[tuple[str, str, str | None]]) -> GameState:
    """The state before the first event. ``players``: (id, name, role) in seat order."""
    return GameState.new(board, variant, players)


def apply(state: GameState, raw_event: dict, *, in_place: bool = False, narrate: bool = True) -> Outcome:
    """Apply one event. ``narrate=False`` leaves out the notes (what happened, in words)."""
    tx = apply_in_place(state if in_place else state.clone(), raw_event, narrate)
    return Outcome(tx.event, tx.s, tuple(tx.movements), tuple(tx.notes))


def apply_in_place(state: GameState, raw_event: dict, narrate: bool = True) -> Tx:
    """:func:`apply` with ``in_place=True``, for a loop that owns its state and makes no :class:`Outcome`
    (a replay nobody watches, the simulator): the same checks; the event as checked, its movements and
    notes are the returned transaction's. An illegal event raises before anything changes."""
    ev = parse_event(raw_event, state.by_id)
    t = ev["type"]
    if (state.finished or state.final_step is not None) and t not in AT_ANY_MOMENT:
        _refuse_after_the_game(state, t)
    player_id = ev.get("player")
    if player_id is not None and (player := state.by_id[player_id]).bankrupt:
        raise RuleError(
            "player.bankrupt", gettext_noop("{player} is bankrupt and out of the game."), player=player.name
        )
    tx = _new_tx(Tx)  # Tx(state, narrate, ev), slot by slot: without its __init__'s frame, at every event
    tx.s = state
    tx.event = ev
    tx.movements = []
    tx.notes = [] if narrate else ()
    tx.narrate = narrate
    HANDLERS[t](tx, ev)  # every type of the record's vocabulary has one (an event a variant does not use is
    # refused by its handler: nothing pending for it)
    if state.jail_exit is not None:
        jail.settle_exit(tx)
    if state.bankruptcies or state.time_up or state.variant.max_rounds:  # check_end's first test, inline
        check_end(state)
    state.events += 1
    return tx


_new_tx = Tx.__new__


def _refuse_after_the_game(state: GameState, t: str) -> None:
    """Raise if an event of type ``t`` cannot happen now that the game is over or in its final steps."""
    if state.finished and not ((t == "rent" and state.rents) or (t == "final_roll" and state.variant.roles)):
        raise RuleError(
            "game.finished",
            gettext_noop("The game is over ({reason}): no more events."),
            reason=state.end_reason,
        )
    if state.final_step is not None:
        refused = final_steps.refusal_of(state, t)
        if refused is not None:
            raise refused
