"""When the game is over (RULES.md §1, end rows), checked after every event: a number of bankruptcies, one
role all bankrupt (Anti-Monopoly Game B), one player left, the round limit, the time; an Anti-Monopoly
two-hour game goes on to its final steps (:mod:`rules.final_steps`) instead of ending."""

from __future__ import annotations

from rules import final_steps
from rules.state import GameState
from rules.turns import blocked, finish, round_complete


def check_end(s: GameState) -> None:
    """Finish the game when the variant says so (RULES.md §1 'end of game'); an Anti-Monopoly two-hour game
    goes on to its final steps (:mod:`rules.final_steps`). A limit reached (the rounds, the time) is the
    game's end once what its last turn left is settled — a debt paid, or its debtor bankrupt: the end's reason
    is then the limit, not the bankruptcy (RULES.md, turn 4)."""
    v = s.variant
    if s.finished or s.final_step is not None or not (s.bankruptcies or s.time_up or v.max_rounds):
        return None
    if s.time_up and not v.finish_round_on_time:
        return _time(s)
    limit = _limit_reached(s)
    if limit is not None:
        if blocked(s):
            return None
        if limit == "rounds":
            return final_steps.begin(s) if v.ending == "two_hour" else finish(s, "rounds")
        return _time(s)
    if v.end_after_bankruptcies and s.bankruptcies >= v.end_after_bankruptcies:
        return finish(s, "bankruptcy")
    if v.ending == "game_b" and s.bankruptcies and role_eliminated(s):
        return finish(s, "role_eliminated")
    if s.bankruptcies:  # one player (or none) still in the game? asked after every event once one is bankrupt
        left = 0
        for p in s.players:
            if not p.bankrupt:
                left += 1
                if left > 1:
                    break
        else:
            return finish(s, "last_player")
    return None


def _limit_reached(s: GameState) -> str | None:
    """The limit the game has reached, its round complete: "rounds", "time" (None: none yet)."""
    v = s.variant
    if (v.max_rounds or s.time_up) and not s.roll_again and round_complete(s):
        if v.max_rounds and s.round >= v.max_rounds:
            return "rounds"
        if s.time_up:
            return "time"
    return None


def role_eliminated(s: GameState) -> bool:
    """Anti-Monopoly Game B: every player of one role is bankrupt."""
    left = {p.role for p in s.players if not p.bankrupt}
    return len(left) == 1


def _time(s: GameState) -> None:
    if s.variant.ending != "two_hour":
        return finish(s, "time")
    if not blocked(s):  # a purchase, card, tax choice, auction or debt in hand is settled first
        final_steps.begin(s)
    return None
