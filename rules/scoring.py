"""Scoring at the end of a game (RULES.md §3–§4): net worth and the table ranking."""

from __future__ import annotations

from rules.state import GameState
from rules.valuation import net_worth


def ranking(s: GameState) -> dict[str, int]:
    """Rank of each player: those still in by net worth (equal worth, equal rank), then the bankrupt,
    the later bankrupt first."""
    active = sorted((p for p in s.players if not p.bankrupt), key=lambda p: -net_worth(s, p.id))
    ranks: dict[str, int] = {}
    prev_worth, prev_rank = None, 0
    for i, p in enumerate(active, start=1):
        w = net_worth(s, p.id)
        rank = prev_rank if w == prev_worth else i
        ranks[p.id] = rank
        prev_worth, prev_rank = w, rank
    out = sorted((p for p in s.players if p.bankrupt), key=lambda p: -p.bankrupt_order)
    for i, p in enumerate(out, start=len(active) + 1):
        ranks[p.id] = i
    return ranks
