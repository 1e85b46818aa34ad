"""Seating (rules.seating) and standings (rules.standings): properties on generated
fields."""

import itertools
import random

import pytest

from rules.seating import Entrant, pairs_of, repeat_pairs, seat_round, table_sizes
from rules.standings import GameScore, placement_points, standings


@pytest.mark.parametrize("n", range(2, 60))
def test_table_sizes_cover_everyone_within_bounds(n):
    sizes = table_sizes(n, 4)
    assert sum(sizes) == n
    if n >= 6:
        assert all(3 <= s <= 5 for s in sizes)
        assert sum(1 for s in sizes if s != 4) <= 3


def play_rounds(n, rounds, clubs=5, seed=0, final_table=None):
    """Seat ``rounds`` rounds; random standings between them. Yields (seating, met before)."""
    rng = random.Random(seed)
    entrants = [Entrant(i, club=f"club{i % clubs}" if clubs else "") for i in range(n)]
    met: set = set()
    for r in range(1, rounds + 1):
        order = None
        if r > 1:
            order = list(range(n))
            rng.shuffle(order)
        s = seat_round(
            entrants,
            seed=seed * 100 + r,
            standings=order,
            met=met,
            final_table=final_table if r == rounds else None,
        )
        yield s, set(met), order
        met |= pairs_of(s.tables)


@pytest.mark.parametrize("n", [12, 13, 17, 30, 64, 101, 200])
def test_every_participant_seated_once_per_round_and_no_repeats_while_avoidable(n):
    for r, (s, met, _) in enumerate(play_rounds(n, 4, seed=n), start=1):
        seated = [x for t in s.tables for x in t]
        assert sorted(seated) == list(range(n))
        assert all(3 <= len(t) <= 5 for t in s.tables)
        assert s.repeat_pairs == repeat_pairs(s.tables, met)
        if n >= 30 or (r <= 2 and len(s.tables) >= 5):  # enough tables to take at most one from each
            assert s.repeat_pairs == 0, (n, r)


def best_possible_repeats(n, met):
    """Exhaustive search for 12 players at 3 tables of 4: the fewest repeat pairs any seating can have."""
    players = list(range(n))
    best = None
    first = players[0]
    for a in itertools.combinations(players[1:], 3):
        t1 = (first, *a)
        rest = [p for p in players if p not in t1]
        for b in itertools.combinations(rest[1:], 3):
            t2 = (rest[0], *b)
            t3 = [p for p in rest if p not in t2]
            c = repeat_pairs([t1, t2, t3], met)
            best = c if best is None else min(best, c)
    return best


def test_repeat_pairings_are_minimal_for_twelve_players_over_six_rounds():
    for s, met, _ in play_rounds(12, 6, clubs=0, seed=3):
        assert s.repeat_pairs == best_possible_repeats(12, met)


def test_same_club_avoided_where_possible():
    s = seat_round([Entrant(i, club="A" if i < 4 else f"x{i}") for i in range(16)], seed=1)
    assert s.club_pairs == 0


def test_top_seeds_sit_at_different_tables_in_round_one():
    entrants = [Entrant(i, seed=i + 1 if i < 6 else None) for i in range(24)]
    for seed in range(10):
        s = seat_round(entrants, seed=seed)
        assert all(sum(1 for x in t if x < 6) == 1 for t in s.tables)


def test_round_one_is_reproducible_from_its_seed():
    entrants = [Entrant(i) for i in range(40)]
    assert seat_round(entrants, seed=7).tables == seat_round(entrants, seed=7).tables
    assert seat_round(entrants, seed=7).tables != seat_round(entrants, seed=8).tables


def test_later_rounds_seat_by_standings():
    entrants = [Entrant(i) for i in range(16)]
    s = seat_round(entrants, standings=list(range(16)), seed=1)
    assert sorted(s.tables[0]) == [0, 1, 2, 3] and sorted(s.tables[-1]) == [12, 13, 14, 15]


def test_final_table_seats_the_top_n_together():
    *_, (s, _, order) = play_rounds(20, 3, final_table=4)
    assert sorted(s.tables[0]) == sorted(order[:4])


def test_placement_points_and_ties_in_standings():
    assert [placement_points(r) for r in (1, 2, 3, 4, 5)] == [4, 2, 1, 0, 0]
    scores = [
        GameScore("ann", 1, 1, 2500, 4),
        GameScore("bob", 1, 2, 1800, 2),
        GameScore("cat", 1, 1, 2500, 4),
        GameScore("dan", 1, 2, 1800, 2),
        GameScore("ann", 2, 2, 1600, 2),
        GameScore("cat", 2, 2, 1600, 2),
        GameScore("bob", 2, 1, 3000, 4),
        GameScore("dan", 2, 1, 2000, 4),
    ]
    rows = standings(["ann", "bob", "cat", "dan", "eve"], scores)
    assert [(r.participant, r.points, r.total_score, r.rank) for r in rows] == [
        ("bob", 6, 4800, 1),
        ("ann", 6, 4100, 2),
        ("cat", 6, 4100, 2),
        ("dan", 6, 3800, 4),
        ("eve", 0, 0, 5),
    ]
    by_best = standings(["ann", "bob", "cat", "dan"], scores, tie_breaks=("points", "best_score"))
    assert [r.participant for r in by_best][:1] == ["bob"] and by_best[1].rank == 2 and by_best[3].rank == 4
    with pytest.raises(ValueError):
        standings([], [], tie_breaks=("luck",))
