"""Scoring at the end of a game (RULES.md §3–§4): each player's score and the table ranking.

- Classic family: net worth (RULES.md §3).
- Anti-Monopoly Game B (rule 25): cash plus the rent each unmortgaged property earns from one landing (a
  utility by its owner's ``final_roll``; not yet rolled, it counts 0); a monopolist in Prison: his cash only.
- Anti-Monopoly two-hour game: cash, after the final steps (the treasurer's tour has paid the rents).
- Anti-Monopoly Game A: the last player left wins; net worth orders the others while the game runs.
"""

from __future__ import annotations

from rules.rent import counted_at_the_end, rent_for
from rules.state import GameState
from rules.valuation import net_worth


def rule_25_wealth(s: GameState, player_id: str) -> int:
    """Anti-Monopoly rule 25: cash + one landing's rent of each unmortgaged property (none for a monopolist in
    Prison: he collects no rent, rule 15)."""
    total = s.by_id[player_id].cash
    if not counted_at_the_end(s, player_id):
        return total
    for sq, h in s.holdings.items():
        if h.owner == player_id and not h.mortgaged:
            if s.board.squares[sq].kind == "utility":
                dice = s.final_rolls.get(sq)
                total += rent_for(s, sq, dice) if dice is not None else 0
            else:
                total += rent_for(s, sq)
    return total


def score(s: GameState, player_id: str) -> int:
    """What ranks a player still in the game (RULES.md §4)."""
    v = s.variant
    if v.roles and v.ending == "game_b":
        return rule_25_wealth(s, player_id)
    if v.roles and v.ending == "two_hour":
        return s.by_id[player_id].cash
    return net_worth(s, player_id)


def ranking(s: GameState) -> dict[str, int]:
    """Rank of each player: those still in by score (equal score, equal rank), then the bankrupt, the later
    bankrupt first."""
    scores = {p.id: score(s, p.id) for p in s.players if not p.bankrupt}
    active = sorted(scores, key=lambda pid: -scores[pid])
    ranks: dict[str, int] = {}
    prev_score, prev_rank = None, 0
    for i, pid in enumerate(active, start=1):
        rank = prev_rank if scores[pid] == prev_score else i
        ranks[pid] = rank
        prev_score, prev_rank = scores[pid], rank
    out = sorted((p for p in s.players if p.bankrupt), key=lambda p: -p.bankrupt_order)
    for i, p in enumerate(out, start=len(active) + 1):
        ranks[p.id] = i
    return ranks
