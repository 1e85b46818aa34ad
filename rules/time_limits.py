"""Time limits: the move clock (``timeout``: the turn passes, 001's 50 s) and the game clock (``time_up``:
the round in play is finished, then the game ends — RULES.md §1, option ``finish_round_on_time``)."""

from __future__ import annotations

from rules import rent, turns
from rules.errors import RuleError, gettext_noop
from rules.state import BuyDecision, CardDraw, GameState
from rules.transaction import Tx


def timeout(tx: Tx, ev: dict) -> None:
    s, v = tx.s, tx.s.variant
    p = s.by_id[ev["player"]]
    if not v.move_time_limit:
        raise RuleError("timeout.no_limit", gettext_noop("This game has no time limit per move."))
    current = s.current
    if current is p:
        if isinstance(s.decision, CardDraw):  # a card drawn must be carried out; auctions and debts wait
            raise turns.blocking(s).error()
        if isinstance(s.decision, BuyDecision) and s.decision.player == p.id:
            tx.note(
                gettext_noop("Time is up: {square} stays with the bank, no auction."),
                square=tx.square_name(s.decision.square),
            )
            s.decision = None
        s.roll_again = False
    else:
        seat = turns.next_roller(s)
        if seat is None or s.players[seat] is not p:
            raise RuleError(
                "timeout.not_your_move",
                gettext_noop("It is not {player}'s move."),
                player=p.name,
            )
        r = turns.blocking(s)
        if r is not None:
            raise r.error()
        rent.lapse(tx, True)
        turns.begin_turn(s, seat)
    tx.note(
        gettext_noop("{player}'s time ({seconds} s) is up: the turn passes."),
        player=p.name,
        seconds=v.move_time_limit,
    )


def time_up(tx: Tx, ev: dict) -> None:
    """The game clock has run out — or, with ``now``, the organisers stop the game (any game, timed or not:
    the tournament's schedule): it ends at once, scored as at the time limit (an Anti-Monopoly two-hour game
    goes on to its final steps, as at its time limit)."""
    s, v = tx.s, tx.s.variant
    if not v.timed and not ev.get("now"):
        raise RuleError("time_up.not_timed", gettext_noop("This game has no time limit."))
    if s.time_up and not (ev.get("now") and v.ending != "two_hour"):
        raise RuleError("time_up.twice", gettext_noop("The time limit has already been reached."))
    s.time_up = True
    if ev.get("now"):
        s.stopped = True
        if v.ending != "two_hour":
            tx.note(gettext_noop("The game is stopped: it ends now."))
            turns.finish(s, "time")
        elif v.finish_round_on_time:  # a two-hour game stopped: as at its time limit, then its final steps
            tx.note(gettext_noop("The game is stopped: the round in play is finished, then the final steps."))
        else:
            tx.note(gettext_noop("The game is stopped: the final steps."))
    elif v.finish_round_on_time:
        tx.note(gettext_noop("Time is up: the round in play is finished, then the game ends."))
    else:
        tx.note(gettext_noop("Time is up: the game ends."))


def ended_by_stop(s: GameState) -> bool:
    """The organisers' stop ended the game (its ``end_reason`` is ``time`` all the same, GAME_RECORD.md),
    not a bankruptcy in the round a two-hour game was let finish."""
    return s.finished and s.stopped and s.end_reason == "time"
