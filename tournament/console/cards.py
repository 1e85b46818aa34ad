"""The participants' income/cost cards of a game (004): every operation with its income or cost and the
running equity, which always ends at the player's net worth (RULES.md §2)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from ledger.report import ledger_for
from rules import replay
from tournament import moves
from tournament.models import Game

KIND_LABELS = {
    "salary": _("salary"),
    "rent": _("rent"),
    "tax": _("tax"),
    "purchase": _("purchase"),
    "deal": _("title deed dealt"),
    "auction": _("auction"),
    "build": _("building"),
    "sell_building": _("building sold to the bank"),
    "mortgage": _("mortgage loan"),
    "unmortgage": _("mortgage lifted"),
    "transfer_fee": _("10 % on a mortgaged square"),
    "card": _("card"),
    "jail_fine": _("jail fine"),
    "trade": _("trade"),
    "bankruptcy": _("bankruptcy"),
}


def game_cards(game: Game) -> list[dict]:
    """One card per player: lines (move number, operation, square, cash, income, cost, running equity)."""
    record = moves.record_of(game)
    result = replay(record)
    ledger = ledger_for(result)
    seqs = list(moves.active_events(game).values_list("seq", flat=True))
    board = result.state.board
    cards = []
    for p in result.state.players:
        equity = ledger.starting_cash
        lines = []
        for line in ledger.lines(p.id):
            equity += line.income - line.cost
            lines.append(
                {
                    "seq": seqs[line.event] if line.event < len(seqs) else None,
                    "operation": KIND_LABELS.get(line.kind, line.kind),
                    "square": board.square(line.square).name if line.square is not None else "",
                    "cash": line.cash,
                    "income": line.income,
                    "cost": line.cost,
                    "equity": equity,
                }
            )
        cards.append(
            {
                "id": p.id,
                "name": p.name,
                "start": ledger.starting_cash,
                "lines": lines,
                "income": ledger.income(p.id),
                "cost": ledger.cost(p.id),
                "equity": ledger.equity(p.id),
            }
        )
    return cards
