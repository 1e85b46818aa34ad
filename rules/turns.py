"""Whose turn it is, what blocks the next roll, rounds, and the end of the game (RULES.md §1, end rows).

A round is one turn for every player still in the game, in seat order; extra rolls from doubles belong to
the same turn. There is no "end of turn" event: a turn is over when its player has no roll left and nothing
blocks the next roll, and the next player's roll begins the next turn.
"""

from __future__ import annotations

from rules.errors import RuleError, gettext_noop
from rules.state import BuyDecision, CardDraw, GameState


def next_roller(s: GameState) -> int | None:
    """Seat index of the player who rolls next (the current one if he must roll again)."""
    if s.finished:
        return None
    if s.turn is not None and s.roll_again and not s.players[s.turn].bankrupt:
        return s.turn
    n = len(s.players)
    start = -1 if s.turn is None else s.turn
    for step in range(1, n + 1):
        i = (start + step) % n
        if not s.players[i].bankrupt:
            return i
    return None


def begin_turn(s: GameState, seat: int) -> None:
    if s.turn is not None and seat <= s.turn:
        s.round += 1
    s.turn = seat
    s.rolls = 0
    s.doubles = 0
    s.roll_again = False
    p = s.players[seat]
    if p.in_jail:
        p.jail_turns += 1


def deals_missing(s: GameState) -> list[tuple[str, int]]:
    """Players still owed title deeds at the start of a short or timed game: (player id, how many)."""
    n = s.variant.deal_title_deeds
    if not n or s.turn is not None:
        return []
    return [(p.id, n - p.dealt) for p in s.players if p.dealt < n]


def blocking_error(s: GameState) -> RuleError | None:
    """Why the next roll (or the end of the turn) cannot happen yet, or None."""
    d = s.decision
    if isinstance(d, BuyDecision):
        return RuleError(
            "pending.buy",
            gettext_noop("{player} must first buy or decline {square} (price {price})."),
            player=s.player(d.player).name,
            square=s.board.square(d.square).name,
            price=s.board.square(d.square).price,
        )
    if isinstance(d, CardDraw):
        return RuleError(
            "pending.card",
            gettext_noop("{player} must first draw a card from {deck}."),
            player=s.player(d.player).name,
            deck=s.board.decks[d.deck].name,
        )
    if s.auctions:
        sq = s.board.square(s.auctions[0])
        return RuleError(
            "pending.auction",
            gettext_noop("{square} must first be auctioned (opening bid {opening})."),
            square=sq.name,
            opening=s.variant.auction_opening_bid(sq.price),
        )
    debtors = s.debtors()
    if debtors:
        p = debtors[0]
        return RuleError(
            "pending.debt",
            gettext_noop(
                "{player} owes {amount}: he must raise money (sell buildings, mortgage, trade) "
                "or be declared bankrupt first."
            ),
            player=p.name,
            amount=-p.cash,
        )
    missing = deals_missing(s)
    if missing:
        player_id, count = missing[0]
        return RuleError(
            "pending.deal",
            gettext_noop("Title deeds must be dealt first: {player} is owed {count}."),
            player=s.player(player_id).name,
            count=count,
        )
    return None


def blocked(s: GameState) -> bool:
    """Something must happen before the next roll (the cheap test behind :func:`blocking_error`)."""
    return (
        s.decision is not None
        or bool(s.auctions)
        or any(p.cash < 0 and not p.bankrupt for p in s.players)
        or (bool(s.variant.deal_title_deeds) and bool(deals_missing(s)))
    )


def turn_complete(s: GameState) -> bool:
    return not s.roll_again and not blocked(s)


def round_complete(s: GameState) -> bool:
    """The current turn is the last one of the round: no active player sits after it."""
    if s.turn is None:
        return True
    return all(p.bankrupt for p in s.players[s.turn + 1 :])


def check_end(s: GameState) -> None:
    """Finish the game when the variant says so (RULES.md §1 'end of game')."""
    if s.finished:
        return
    v = s.variant
    active = len(s.active_players)
    if v.end_after_bankruptcies and s.bankruptcies >= v.end_after_bankruptcies:
        return finish(s, "bankruptcy")
    if active <= 1:
        return finish(s, "last_player")
    if s.time_up and not v.finish_round_on_time:
        return finish(s, "time")
    if turn_complete(s) and round_complete(s):
        if v.max_rounds and s.round >= v.max_rounds:
            return finish(s, "rounds")
        if s.time_up:
            return finish(s, "time")
    return None


def finish(s: GameState, reason: str) -> None:
    s.finished = True
    s.end_reason = reason
    s.roll_again = False
