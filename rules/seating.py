"""Seating a tournament round (plain Python, no Django): table sizes, a first round drawn (its seeded players
spread in snake order), later rounds by standings avoiding repeat opponents and, where possible, players of
the same club at one table, a final table of the top N; and the order of each table's seats, rotated so that
over a tournament every player's seat positions even out (``order_seats``).

Round 1 without seeds is drawn: a random order, filled greedily into tables. With seeds (the director's, or
the players' ratings: tournament/event/rating_seeds.py) the seeded players, strongest first, fill the tables
in snake order — table 1, 2 … k, then k … 2, 1, and so on, each table up to its size —, so that each row of
the snake (a "pot": seeds 1…k, k+1…2k, …) has one player at every table; the unseeded fill the seats left,
drawn at random.

Costs, in order of weight: a pair that has already met; a pair from the same club; a player at a short table
who has sat at one before; two seeded players of one pot at one table (round 1); then, for rounds seated by
standings, how far apart in the standings a table's players are. The first fill (greedy, in the order of the
standings or of the draw; or the snake) is improved by swapping players between tables while the cost falls:
in round 1 the swaps that part club-mates keep the pots apart, exchanging players of one pot (or unseeded
ones) where they can.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

REPEAT_WEIGHT = 1_000_000
CLUB_WEIGHT = 1_000
SHORT_WEIGHT = 300  # a player at a short table again (the short tables rotate)
SEED_WEIGHT = 100  # two seeded players of one pot at one table (round 1)
#: The seat positions' rotation (``order_seats``): a table's order costs, for each player, (how often he has
#: sat at the position it gives him + 1) ** ROTATION_POWER; the order of least cost is taken.
ROTATION_POWER = 2
#: Tables of at most this many players try every order of their seats (7! = 5040); a larger one (a final
#: table of 8, say) gives the positions one after the other, each to the player who has sat there least.
ROTATION_EXACT = 7


@dataclass(frozen=True)
class Entrant:
    id: Hashable
    club: str = ""
    seed: int | None = None  # 1 = the strongest; round 1 spreads the seeded players in snake order


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
        pots: dict | None = None,
        size: int = 0,
        short_before: set | frozenset = frozenset(),
    ):
        self.club = {e.id: club_key(e.club) for e in entrants}
        self.met = met
        self.order = order  # id -> position in the standings (None: no standings term)
        self.pots = pots or {}  # id -> a seeded player's pot (round 1): a pot's players at different tables
        self.size = size  # a table with fewer players is short
        self.short_before = short_before  # ids who have sat at a short table before

    def pair_cost(self, a, b) -> int:
        c = 0
        if pair(a, b) in self.met:
            c += REPEAT_WEIGHT
        if self.club[a] and self.club[a] == self.club[b]:
            c += CLUB_WEIGHT
        pot = self.pots.get(a)
        if pot is not None and pot == self.pots.get(b):
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


def snake(sizes: Sequence[int]) -> list[tuple[int, int]]:
    """The seats of tables of these sizes in snake (serpentine) order, as (table index, row): row 0 from the
    first table to the last, row 1 back, and so on; a table takes no more players than its size.

    >>> snake([3, 2, 2])
    [(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1), (0, 2)]
    """
    slots = []
    for row in range(max(sizes, default=0)):
        tables = range(len(sizes)) if row % 2 == 0 else range(len(sizes) - 1, -1, -1)
        slots.extend((t, row) for t in tables if sizes[t] > row)
    return slots


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
    """Seat one round. ``standings``: ids best first (None: round 1, drawn, the seeded entrants spread in
    snake order). ``met``: pairs that have already played together. ``short_before``: ids who have sat at a
    short table (kept off short tables). ``final_table``: seat the top N of the standings (round 1: of the
    seeds) together at table 1. Each table lists its players in no particular order (``order_seats`` gives
    their seats)."""
    rng = random.Random(seed)
    entrants = list(entrants)
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("each entrant once")
    met = set(met)
    seeded: set = set()
    if standings is None:
        ranked = [e.id for e in sorted((e for e in entrants if e.seed is not None), key=lambda e: e.seed)]
        seeded = set(ranked)
        drawn = [x for x in ids if x not in seeded]
        rng.shuffle(drawn)
        order_ids = ranked + drawn  # the seeded by seed (ties as given), then the unseeded at random
        order = None
    else:
        rank = {x: i for i, x in enumerate(standings)}
        order_ids = sorted(ids, key=lambda x: rank.get(x, len(rank)))
        order = {x: i for i, x in enumerate(order_ids)}

    fixed: list[list] = []
    if final_table:
        top, order_ids = order_ids[:final_table], order_ids[final_table:]
        fixed = [top]
    tables: list[list] = []
    if order_ids:
        sizes = table_sizes(len(order_ids), size) if len(order_ids) >= 2 else [len(order_ids)]
        pots: dict = {}
        if seeded.intersection(order_ids):  # round 1 with seeds: the snake, each of its rows a pot
            tables = [[] for _ in sizes]
            for x, (t, row) in zip(order_ids, snake(sizes), strict=True):
                tables[t].append(x)
                if x in seeded:
                    pots[x] = row
        cost = _Cost(entrants, met, order, pots, size, set(short_before))
        if not tables:
            tables = _greedy(order_ids, sizes, cost)
        _improve(tables, cost, rng, window=None if order is None else 2, passes=passes)
        if order is not None and any(cost.table(t) >= SEED_WEIGHT for t in tables):
            _improve(tables, cost, rng, window=None, passes=passes)  # conflicts left: swap across the room
    all_tables = fixed + tables
    clubs = {e.id: club_key(e.club) for e in entrants}
    repeat = sum(1 for t in all_tables for a, b in itertools.combinations(t, 2) if pair(a, b) in met)
    club = sum(
        1 for t in all_tables for a, b in itertools.combinations(t, 2) if clubs[a] and clubs[a] == clubs[b]
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


def order_seats(
    tables: Iterable[Sequence[Hashable]], history: Mapping[Hashable, Mapping[int, int]], seed: int = 0
) -> list[list[Hashable]]:
    """Each table's players in the order of its seats (position 0 the first seat), chosen so that over a
    tournament every player's seat positions even out: ``history`` holds, per player, how often he has sat at
    each position before. A table takes the order of least ``rotation_cost``; ties are drawn (by ``seed``), so
    with no history — round 1 — the order is random."""
    rng = random.Random(seed)
    return [_order_table(list(t), history, rng) for t in tables]


def rotation_cost(tables: Iterable[Sequence[Hashable]], history: Mapping[Hashable, Mapping[int, int]]) -> int:
    """What ``order_seats`` minimises, for tables in seat order: for each player, (how often he has sat at
    his position before + 1) ** ROTATION_POWER."""
    return sum((history.get(x, {}).get(i, 0) + 1) ** ROTATION_POWER for t in tables for i, x in enumerate(t))


def seat_history(rounds: Iterable[Iterable[Sequence[Hashable]]]) -> dict[Hashable, Counter]:
    """How often each player has sat at each position, from rounds given as their tables in seat order."""
    history: dict[Hashable, Counter] = {}
    for tables in rounds:
        for t in tables:
            for i, x in enumerate(t):
                history.setdefault(x, Counter())[i] += 1
    return history


def _order_table(players: list, history: Mapping[Hashable, Mapping[int, int]], rng: random.Random) -> list:
    n = len(players)
    if n < 2:
        return players
    cost = [[(history.get(x, {}).get(i, 0) + 1) ** ROTATION_POWER for i in range(n)] for x in players]
    if n <= ROTATION_EXACT:  # every order; the best drawn among the equal ones
        best, chosen = None, []
        for perm in itertools.permutations(range(n)):  # perm[i]: the player at position i
            c = sum(cost[p][i] for i, p in enumerate(perm))
            if best is None or c < best:
                best, chosen = c, [perm]
            elif c == best:
                chosen.append(perm)
        return [players[p] for p in rng.choice(chosen)]
    left = list(range(n))  # a large table: each position to the player who has sat there least
    out = []
    for i in range(n):
        p = min(left, key=lambda p: (cost[p][i], rng.random()))
        left.remove(p)
        out.append(players[p])
    return out
