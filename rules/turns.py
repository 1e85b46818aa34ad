"""Whose turn it is, what blocks the next roll, rounds, and marking the game finished (:func:`finish`; when
it is over is :mod:`rules.game_end`).

A round is one turn for every player still in the game, in seat order; extra rolls from doubles belong to
the same turn. There is no "end of turn" event: a turn is over when its player has no roll left and nothing
blocks the next roll, and the next player's roll begins the next turn.
"""

from __future__ import annotations

from rules import jail
from rules.errors import Refusal, gettext_noop, refusal
from rules.state import BuyDecision, CardDraw, FoundationRoll, GameState, PlayerState, TaxChoice


def next_roller(s: GameState) -> int | None:
    """Seat index of the player who rolls next (the current one if he must roll again)."""
    if s.finished:
        return None
    players, turn = s.players, s.turn
    if turn is None:
        turn = -1
    elif s.roll_again and not players[turn].bankrupt:
        return turn
    # the common case first: the next seat round the table (the first after the last) is still in the game
    if turn + 1 < len(players):
        if not players[turn + 1].bankrupt:
            return turn + 1
    elif players and not players[0].bankrupt:
        return 0
    for i in range(turn + 1, len(players)):  # round the table from the next seat: to its end …
        if not players[i].bankrupt:
            return i
    for i in range(turn + 1):  # … then from its start, back to the current seat
        if not players[i].bankrupt:
            return i
    return None


def in_own_turn(s: GameState, p: PlayerState) -> bool:
    """It is ``p``'s turn: his turn is in play (until the next player rolls), or he is the next to roll."""
    if s.turn is not None and s.players[s.turn] is p:
        return True
    seat = next_roller(s)
    return seat is not None and s.players[seat] is p


def begin_turn(s: GameState, seat: int) -> None:
    if s.turn is not None and seat <= s.turn:
        s.round += 1
    s.turn = seat
    s.rolls = 0
    s.doubles = 0
    s.roll_again = False
    player = s.players[seat]
    if player.in_jail:
        jail.count_turn(player)


def deals_missing(s: GameState) -> list[tuple[str, int]]:
    """Players still owed title deeds at the start of a short or timed game: (player id, how many)."""
    n = s.variant.deal_title_deeds
    if not n or s.turn is not None:
        return []
    return [(p.id, n - p.dealt) for p in s.players if p.dealt < n]


def blocked(s: GameState) -> bool:
    """Something must happen before the next roll (the cheap test; :func:`blocking` says what)."""
    if s.decision is not None or s.auctions:
        return True
    for p in s.players:
        if p.cash < 0 and not p.bankrupt:
            return True
    return bool(deals_missing(s)) if s.variant.deal_title_deeds else False


def blocking(s: GameState) -> Refusal | None:
    """Why the next roll (or the end of the turn) cannot happen yet, or None."""
    if not blocked(s):
        return None
    d = s.decision
    if isinstance(d, BuyDecision):
        sq = s.board.squares[d.square]
        return refusal(
            "pending.buy",
            gettext_noop("{player} must first buy or decline {square} (price {price})."),
            player=s.by_id[d.player].name,
            square=sq.name,
            price=sq.price,
        )
    if isinstance(d, CardDraw):
        return refusal(
            "pending.card",
            gettext_noop("{player} must first draw a card from {deck}."),
            player=s.by_id[d.player].name,
            deck=s.board.decks[d.deck].name,
        )
    if isinstance(d, TaxChoice):
        return refusal(
            "pending.tax",
            gettext_noop("{player} must first pay the income tax (the fixed amount or the percentage)."),
            player=s.by_id[d.player].name,
        )
    if isinstance(d, FoundationRoll):
        return refusal(
            "pending.foundation",
            gettext_noop("{player} must first roll one die at the Anti-Monopoly Foundation."),
            player=s.by_id[d.player].name,
        )
    if s.auctions:
        sq = s.board.squares[s.auctions[0]]
        return refusal(
            "pending.auction",
            gettext_noop("{square} must first be auctioned (opening bid {opening})."),
            square=sq.name,
            opening=s.variant.auction_opening_bid(sq.price),
        )
    debtors = s.debtors()
    if debtors:
        p = debtors[0]
        if jail.fine_owed(s, p):
            return refusal(
                "pending.jail_fine",
                gettext_noop(
                    "{player} owes {amount} after the jail fine: money must be raised (sell buildings, "
                    "mortgage, trade) before the token moves, or {player} declared bankrupt."
                ),
                player=p.name,
                amount=-p.cash,
            )
        return refusal(
            "pending.debt",
            gettext_noop(
                "{player} owes {amount}: money must be raised (sell buildings, mortgage, trade), "
                "or {player} declared bankrupt, first."
            ),
            player=p.name,
            amount=-p.cash,
        )
    player_id, count = deals_missing(s)[0]
    return refusal(
        "pending.deal",
        gettext_noop("Title deeds must be dealt first: {player} is owed {count}."),
        player=s.by_id[player_id].name,
        count=count,
    )


def turn_complete(s: GameState) -> bool:
    return not s.roll_again and not blocked(s)


def round_complete(s: GameState) -> bool:
    """The current turn is the last one of the round: no active player sits after it."""
    if s.turn is None:
        return True
    for p in s.players[s.turn + 1 :]:  # noqa: SIM110 (a loop: this runs after every event)
        if not p.bankrupt:
            return False
    return True


def finish(s: GameState, reason: str) -> None:
    """The game is over, for ``reason`` (the end rows of RULES.md §1: bankruptcy, rounds, time, …)."""
    s.finished = True
    s.end_reason = reason
    s.roll_again = False
