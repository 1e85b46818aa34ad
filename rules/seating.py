"""Seating a tournament round (plain Python, no Django): table sizes, a random first round, later rounds by
standings avoiding repeat opponents and, where possible, players of the same club at one table, and a final
table of the top N.

Costs, in order of weight: a pair that has already met; a pair from the same club; a player at a short table
who has sat at one before; two top seeds at one table (round 1); then, for rounds seated by standings, how far
apart in the standings a table's players are. A greedy fill by standings is improved by
swapping players between nearby tables while the cost falls.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

REPEAT_WEIGHT = 1_000_000
CLUB_WEIGHT = 1_000
SHORT_WEIGHT = 300  # a player at a short table again (the short tables rotate)
SEED_WEIGHT = 100  # two of the top seeds at one table (round 1)


@dataclass(frozen=True)
class Entrant:
    id: Hashable
    club: str = ""
    seed: int | None = None  # 1 = the strongest; the top seeds are spread over the tables of round 1


@dataclass
class Seating:
    tables: list[list[Hashable]]
    repeat_pairs: int = 0  # pairs seated together again
    club_pairs: int = 0  # pairs from one club at one table


def table_sizes(n: int, size: int = 4) -> list[int]:
    """Sizes of the tables for ``n`` players: ``size`` where possible, else ``size`` ± 1, fewest odd tables.

    >>> table_sizes(13), table_sizes(12), table_sizes(14), table_sizes(5)
    ([5, 4, 4], [4, 4, 4], [4, 4, 3, 3], [5])
    """
    if n < 2:
        raise ValueError("a round needs at least 2 players")
    if n <= size + 1:
        return [n]
    best = None
    for k in {max(1, n // size), -(-n // size)}:
        base, extra = divmod(n, k)
        sizes = [base + 1] * extra + [base] * (k - extra)
        if min(sizes) < size - 1 or max(sizes) > size + 1:
            continue
        odd = sum(1 for s in sizes if s != size)
        key = (odd, -k)
        if best is None or key < best[0]:
            best = (key, sizes)
    if best is None:  # very small fields: as even as possible
        k = -(-n // (size + 1))
        base, extra = divmod(n, k)
        return [base + 1] * extra + [base] * (k - extra)
    return best[1]


def club_key(club: str) -> str:
    """A club or school as compared: "SP 1 " and "sp 1" are one; blank is no club."""
    return club.strip().casefold()


def pair(a, b) -> frozenset:
    return frozenset((a, b))


class _Cost:
    def __init__(
        self,
        entrants: Sequence[Entrant],
        met: set[frozenset],
        order: dict | None,
        spread: set | frozenset = frozenset(),
        size: int = 0,
        short_before: set | frozenset = frozenset(),
    ):
        self.club = {e.id: club_key(e.club) for e in entrants}
        self.met = met
        self.order = order  # id -> position in the standings (None: no standings term)
        self.spread = spread  # ids to keep at different tables (the top seeds)
        self.size = size  # a table with fewer players is short
        self.short_before = short_before  # ids who have sat at a short table before

    def pair_cost(self, a, b) -> int:
        c = 0
        if pair(a, b) in self.met:
            c += REPEAT_WEIGHT
        if self.club[a] and self.club[a] == self.club[b]:
            c += CLUB_WEIGHT
        if a in self.spread and b in self.spread:
            c += SEED_WEIGHT
        return c

    def table(self, t: list) -> int:
        c = sum(self.pair_cost(a, b) for a, b in itertools.combinations(t, 2))
        if len(t) < self.size:
            c += SHORT_WEIGHT * sum(1 for x in t if x in self.short_before)
        if self.order is not None and t:
            positions = [self.order[x] for x in t]
            c += max(positions) - min(positions)
        return c


def seat_round(
    entrants: Sequence[Entrant],
    *,
    size: int = 4,
    seed: int = 0,
    standings: Sequence[Hashable] | None = None,
    met: Iterable[frozenset] = (),
    short_before: Iterable[Hashable] = (),
    final_table: int | None = None,
    passes: int = 6,
) -> Seating:
    """Seat one round. ``standings``: ids best first (None: random, as in round 1). ``met``: pairs that have
    already played together. ``short_before``: ids who have sat at a short table (kept off short tables).
    ``final_table``: seat the top N of the standings together at table 1."""
    rng = random.Random(seed)
    entrants = list(entrants)
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("each entrant once")
    met = set(met)
    if standings is None:
        order_ids = ids[:]
        rng.shuffle(order_ids)
        order = None
    else:
        rank = {x: i for i, x in enumerate(standings)}
        order_ids = sorted(ids, key=lambda x: rank.get(x, len(rank)))
        order = {x: i for i, x in enumerate(order_ids)}
    spread: set = set()
    if standings is None:
        seeded = sorted((e for e in entrants if e.seed is not None), key=lambda e: e.seed)
        spread = {e.id for e in seeded[: len(table_sizes(len(entrants), size)) if len(entrants) >= 2 else 0]}
    cost = _Cost(entrants, met, order, spread, size, set(short_before))

    fixed: list[list] = []
    if final_table:
        top, order_ids = order_ids[:final_table], order_ids[final_table:]
        fixed = [top]
    tables: list[list] = []
    if order_ids:
        sizes = table_sizes(len(order_ids), size) if len(order_ids) >= 2 else [len(order_ids)]
        tables = _greedy(order_ids, sizes, cost)
        _improve(tables, cost, rng, window=None if order is None else 2, passes=passes)
        if order is not None and any(cost.table(t) >= SEED_WEIGHT for t in tables):
            _improve(tables, cost, rng, window=None, passes=passes)  # conflicts left: swap across the room
    all_tables = fixed + tables
    repeat = sum(1 for t in all_tables for a, b in itertools.combinations(t, 2) if pair(a, b) in met)
    club = sum(
        1
        for t in all_tables
        for a, b in itertools.combinations(t, 2)
        if cost.club[a] and cost.club[a] == cost.club[b]
    )
    return Seating(all_tables, repeat, club)


def _greedy(order_ids: list, sizes: list[int], cost: _Cost) -> list[list]:
    """Fill tables in order: each takes the best-placed free player, then those who add the least cost,
    looking a little ahead in the order."""
    free = list(order_ids)
    tables = []
    for s in sizes:
        table = [free.pop(0)]
        while len(table) < s:
            window = free[: max(4 * s, 12)]
            best = min(window, key=lambda x: (sum(cost.pair_cost(x, y) for y in table), free.index(x)))
            free.remove(best)
            table.append(best)
        tables.append(table)
    return tables


def _improve(tables: list[list], cost: _Cost, rng: random.Random, window: int | None, passes: int) -> None:
    """Swap players between tables while that lowers the cost (by standings: only between nearby tables)."""
    costs = [cost.table(t) for t in tables]
    n = len(tables)
    for _ in range(passes):
        improved = False
        order = list(range(n))
        rng.shuffle(order)
        for i in order:
            if costs[i] < SEED_WEIGHT and window is None:  # a global pass only mends conflicts
                continue
            partners = range(n) if window is None else range(max(0, i - window), min(n, i + window + 1))
            for j in partners:
                if j == i:
                    continue
                for a_pos in range(len(tables[i])):
                    for b_pos in range(len(tables[j])):
                        ti, tj = tables[i], tables[j]
                        ti[a_pos], tj[b_pos] = tj[b_pos], ti[a_pos]
                        ci, cj = cost.table(ti), cost.table(tj)
                        if ci + cj < costs[i] + costs[j]:
                            costs[i], costs[j] = ci, cj
                            improved = True
                        else:
                            ti[a_pos], tj[b_pos] = tj[b_pos], ti[a_pos]
        if not improved:
            break


def repeat_pairs(tables: Iterable[Iterable[Hashable]], met: set[frozenset]) -> int:
    """How many pairs at these tables have already played together (after a hand-made swap, say)."""
    return sum(1 for t in tables for a, b in itertools.combinations(list(t), 2) if pair(a, b) in met)


def pairs_of(tables: Iterable[Iterable[Hashable]]) -> set[frozenset]:
    return {pair(a, b) for t in tables for a, b in itertools.combinations(list(t), 2)}
