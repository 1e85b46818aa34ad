"""The rules engine: apply one event to a state, get the new state and the money movements.

    state = new_game(board, variant, [("A", "Anna", None), ("B", "Bartek", None)])
    outcome = apply(state, {"type": "roll", "player": "A", "dice": [3, 4]})
    outcome.state, outcome.movements, outcome.notes

``apply`` never changes the state it is given. An illegal event raises :class:`RuleError` (or
:class:`RecordError` for a malformed one) and nothing changes. The cost of one event does not depend on the
length of the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import bankruptcy, buildings, mortgages, moves, purchases, rent, trades
from rules.board import Board
from rules.errors import RuleError, gettext_noop
from rules.messages import Message
from rules.movements import Movement
from rules.record import parse_event
from rules.state import GameState
from rules.transaction import Tx
from rules.turns import check_end
from rules.variants import Variant

HANDLERS = {
    "deal": purchases.deal,
    "roll": moves.roll,
    "buy": purchases.buy,
    "decline": purchases.decline,
    "auction": purchases.auction,
    "rent": rent.rent,
    "card": moves.card,
    "build": buildings.build,
    "sell_building": buildings.sell_building,
    "mortgage": mortgages.mortgage,
    "unmortgage": mortgages.unmortgage,
    "trade": trades.trade,
    "jail_fine": moves.jail_fine,
    "jail_card": moves.jail_card,
    "timeout": moves.timeout,
    "bankrupt": bankruptcy.bankrupt,
    "time_up": moves.time_up,
}


@dataclass(frozen=True)
class Outcome:
    event: dict  # the event as checked and normalised
    state: GameState
    movements: tuple[Movement, ...]
    notes: tuple[Message, ...]


def new_game(board: Board, variant: Variant, players: list[tuple[str, str, str | None]]) -> GameState:
    """The state before the first event. ``players``: (id, name, role) in seat order."""
    return GameState.new(board, variant, players)


def apply(state: GameState, raw_event: dict) -> Outcome:
    ev = parse_event(raw_event, [p.id for p in state.players])
    t = ev["type"]
    if state.finished and not (t == "rent" and state.rents):
        raise RuleError(
            "game.finished",
            gettext_noop("The game is over ({reason}): no more events."),
            reason=state.end_reason,
        )
    if "player" in ev and state.player(ev["player"]).bankrupt:
        raise RuleError(
            "player.bankrupt",
            gettext_noop("{player} is bankrupt and out of the game."),
            player=state.player(ev["player"]).name,
        )
    handler = HANDLERS.get(t)
    if handler is None:
        raise RuleError(
            "event.not_in_variant",
            gettext_noop("Event {type} is not used in {variant}."),
            type=t,
            variant=state.variant.id,
        )
    tx = Tx(state.clone())
    handler(tx, ev)
    check_end(tx.s)
    tx.s.events += 1
    return Outcome(ev, tx.s, tuple(tx.movements), tuple(tx.notes))
