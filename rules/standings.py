"""Tournament standings (RULES.md §5; plain Python): placement points per game, then the ranking of all
participants by points, total score and best single score — the tie-break order is configurable.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

DEFAULT_POINTS = (4, 2, 1, 0)
#: The most points a place at a table gets (the tournament's setting, a backup's).
MAX_PLACEMENT_POINTS = 1000
TIE_BREAKS = ("points", "total_score", "best_score", "games")
DEFAULT_TIE_BREAKS = ("points", "total_score", "best_score")


def placement_points(rank: int, points: Sequence[int] = DEFAULT_POINTS) -> int:
    """Points for a place at a table (1-based); places beyond the list score 0. Tied places share the
    points of their place (decision: two players tied for 2nd both get 2nd's points)."""
    return points[rank - 1] if 1 <= rank <= len(points) else 0


@dataclass(frozen=True)
class GameScore:
    participant: Hashable
    round: int
    rank: int
    score: int  # the game's final score: net worth (RULES.md §3), 0 for a bankrupt player
    points: int


@dataclass
class Row:
    participant: Hashable
    points: int = 0
    total_score: int = 0
    best_score: int | None = None
    games: int = 0
    rank: int = 0
    by_round: dict[int, GameScore] = field(default_factory=dict)


def standings(
    participants: Iterable[Hashable],
    scores: Iterable[GameScore],
    tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS,
) -> list[Row]:
    """Rows best first; rows equal on every tie-break share a rank (1, 2, 2, 4)."""
    for key in tie_breaks:
        if key not in TIE_BREAKS:
            raise ValueError(f"unknown tie-break {key!r}; known: {', '.join(TIE_BREAKS)}")
    rows = {p: Row(p) for p in participants}
    for s in scores:
        row = rows.get(s.participant)
        if row is None:
            continue
        row.points += s.points
        row.total_score += s.score
        row.best_score = s.score if row.best_score is None else max(row.best_score, s.score)
        row.games += 1
        row.by_round[s.round] = s

    def key(row: Row) -> tuple:
        return tuple(-(getattr(row, k) or 0) for k in tie_breaks)

    ordered = sorted(rows.values(), key=key)
    previous = None
    for i, row in enumerate(ordered, start=1):
        k = key(row)
        row.rank = ordered[i - 2].rank if previous == k else i
        previous = k
    return ordered
