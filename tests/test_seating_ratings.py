"""Round 1 seeded by the players' ratings (tournament/event/rating_seeds.py, rules.seating's snake) and the
seat positions rotated over a tournament (rules.seating.order_seats, tournament/event/rounds.py)."""

from __future__ import annotations

import datetime
import itertools
import random
import re
from collections import Counter

import pytest
from django.urls import reverse

from rules.seating import (
    ROTATION_EXACT,
    Entrant,
    order_seats,
    rotation_cost,
    seat_history,
    seat_round,
    snake,
    table_sizes,
)
from tests.accounts import signed_in_director  # noqa: F401 (the fixture director, signed in)
from tests.league import make_players, results_tournament
from tests.tournaments import make_tournament
from tournament.event import interventions, rounds
from tournament.event.rating_seeds import Seed, seeds
from tournament.models import Participant, Player, PlayerRating, Round, Seat, Tournament
from tournament.ratings.rebuild import rebuild

PAST = datetime.date(2026, 1, 10)


# --- the pure functions (rules.seating) ---------------------------------------------------------------------


def test_snake_goes_there_and_back_within_each_tables_size():
    assert snake([4, 4, 4]) == [
        (0, 0), (1, 0), (2, 0),
        (2, 1), (1, 1), (0, 1),
        (0, 2), (1, 2), (2, 2),
        (2, 3), (1, 3), (0, 3),
    ]  # fmt: skip
    assert snake([5, 4, 4])[-1] == (0, 4) and len(snake([5, 4, 4])) == 13
    assert snake([4, 4, 3, 3])[-2:] == [(1, 3), (0, 3)]  # the short tables take no fourth player
    for sizes in ([3], [5, 5, 4], [4, 4, 3, 3], [6, 5, 5]):
        assert Counter(t for t, _row in snake(sizes)) == dict(enumerate(sizes))


def tables_of_ids(seating):
    return {x: i for i, t in enumerate(seating.tables) for x in t}


@pytest.mark.parametrize("seed", range(5))
def test_seeded_entrants_fill_the_tables_in_snake_order(seed):
    entrants = [Entrant(i, seed=i + 1) for i in range(16)] + [Entrant(100 + i) for i in range(4)]
    s = seat_round(entrants, seed=seed)  # 20 at 5 tables of 4
    where = tables_of_ids(s)
    k = 5
    for rank, (table, _row) in enumerate(snake([4] * k)[:16]):
        assert where[rank] == table
    assert [len(t) for t in s.tables] == [4] * k
    assert sorted(x for t in s.tables for x in t) == sorted(e.id for e in entrants)


def test_typed_seeds_need_not_be_consecutive_and_ties_keep_their_order():
    entrants = [Entrant("a", seed=50), Entrant("b", seed=7), Entrant("c", seed=7), Entrant("d", seed=900)]
    entrants += [Entrant(i) for i in range(8)]
    where = tables_of_ids(seat_round(entrants, seed=3))  # 12 at 3 tables: b, c, a in row 0; d in row 1
    assert (where["b"], where["c"], where["a"], where["d"]) == (0, 1, 2, 2)


def test_the_unseeded_are_drawn_at_random():
    entrants = [Entrant(i, seed=i + 1) for i in range(4)] + [Entrant(100 + i) for i in range(12)]
    draws = {tuple(map(frozenset, seat_round(entrants, seed=seed).tables)) for seed in range(10)}
    assert len(draws) > 5
    for tables in draws:
        assert [sum(1 for x in t if x < 4) for t in tables] == [1, 1, 1, 1]


def test_club_mates_are_parted_by_swaps_within_a_pot():
    # the snake puts seeds 1 and 10 at table 1 (k = 5): they share a club, and so do seeds 2 and 9
    clubs = {0: "A", 9: "A", 1: "B", 8: "B"}
    entrants = [Entrant(i, club=clubs.get(i, f"c{i}"), seed=i + 1) for i in range(20)]
    for seed in range(10):
        s = seat_round(entrants, seed=seed)
        assert s.club_pairs == 0
        for t in s.tables:
            assert sorted(x // 5 for x in t) == [0, 1, 2, 3]  # one player of each pot at every table


def test_without_seeds_round_one_is_the_random_draw_it_was():
    """No seeds: the greedy draw (club-mates apart), reproducible from the round's seed."""
    plain = [Entrant(i, club=f"c{i % 6}") for i in range(24)]
    s = seat_round(plain, seed=4)
    assert s.club_pairs == 0 and s.tables == seat_round(plain, seed=4).tables
    assert s.tables != seat_round(plain, seed=5).tables


def test_a_final_table_in_round_one_takes_the_top_seeds():
    entrants = [Entrant(i, seed=i + 1) for i in range(8)] + [Entrant(100 + i) for i in range(8)]
    s = seat_round(entrants, seed=1, final_table=4)
    assert sorted(s.tables[0]) == [0, 1, 2, 3]
    assert [sum(1 for x in t if 4 <= x < 7) for t in s.tables[1:]] == [1, 1, 1]


def brute_min(table, history):
    return min(rotation_cost([list(p)], history) for p in itertools.permutations(table))


def test_order_seats_takes_an_order_of_least_cost():
    rng = random.Random(1)
    for _ in range(200):
        n = rng.randint(2, 6)
        table = list(range(n))
        history = {x: Counter({i: rng.randint(0, 3) for i in range(n)}) for x in table}
        (ordered,) = order_seats([table], history, seed=rng.randint(0, 99))
        assert sorted(ordered) == table
        assert rotation_cost([ordered], history) == brute_min(table, history)


def test_order_seats_gives_each_a_position_he_has_not_had_when_it_can():
    # each has had every position but one (his own): that is the one he gets
    history = {x: Counter({i: 1 for i in range(4) if i != (x + 1) % 4}) for x in range(4)}
    for seed in range(10):
        assert order_seats([[0, 1, 2, 3]], history, seed=seed) == [[3, 0, 1, 2]]


def test_with_no_history_the_order_is_drawn():
    orders = {tuple(order_seats([[1, 2, 3, 4]], {}, seed=seed)[0]) for seed in range(30)}
    assert len(orders) > 10
    assert order_seats([[1, 2, 3, 4], [5, 6]], {}, seed=7) == order_seats([[1, 2, 3, 4], [5, 6]], {}, seed=7)


def test_a_table_larger_than_the_exact_search_gives_each_position_to_who_had_it_least():
    n = ROTATION_EXACT + 1
    table = list(range(n))
    history = {x: Counter({i: 0 if i == x else 1 for i in range(n)}) for x in table}  # x never had position x
    (ordered,) = order_seats([table], history, seed=2)
    assert ordered == table and rotation_cost([ordered], history) == n
    assert order_seats([[9]], {}, seed=1) == [[9]] and order_seats([], {}) == []


def test_seat_history_counts_positions():
    h = seat_history([[[1, 2], [3, 4]], [[2, 1], [4, 3]], [[1, 3]]])
    assert h[1] == Counter({0: 2, 1: 1}) and h[2] == Counter({1: 1, 0: 1}) and h[3] == Counter({0: 1, 1: 2})


@pytest.mark.parametrize("size", [4, 5])
def test_rotation_over_a_simulated_tournament_beats_a_random_order(size):
    """Rounds seated by the pure functions (random standings), seats by ``order_seats`` or at random."""
    rng = random.Random(size)
    entrants = [Entrant(i) for i in range(8 * size)]
    rotated, drawn, met = [], [], set()
    for r in range(1, size + 1):
        order = None if r == 1 else rng.sample(range(8 * size), 8 * size)
        tables = seat_round(entrants, size=size, seed=r, standings=order, met=met).tables
        met |= {frozenset(p) for t in tables for p in itertools.combinations(t, 2)}
        rotated.append(order_seats(tables, seat_history(rotated), seed=r))
        drawn.append([rng.sample(t, len(t)) for t in tables])
    squares = {
        name: sum(c * c for counts in seat_history(seatings).values() for c in counts.values())
        for name, seatings in (("rotated", rotated), ("drawn", drawn))
    }
    perfect = 8 * size * size  # each player at each position once
    assert perfect <= squares["rotated"] < squares["drawn"]
    assert squares["rotated"] <= perfect * 1.25


# --- the seeds (tournament/event/rating_seeds.py) -----------------------------------------------------------


def rated_players(n=16):
    """``n`` players rated by a past tournament of three rounds (the lower index placed better at each
    table), the ratings rebuilt; returned best rated first (as the seeds rank them)."""
    players = make_players([f"R{i:02}" for i in range(n)])
    by_rows = [players[i : i + 4] for i in range(0, n, 4)]
    by_columns = [players[i::4] for i in range(4)]
    by_diagonals = [[by_rows[r][(r + c) % 4] for r in range(len(by_rows))] for c in range(4)]
    rounds_ = [
        [[(p, place) for place, p in enumerate(sorted(t, key=lambda p: p.name), start=1)] for t in tables]
        for tables in (by_rows, by_columns, by_diagonals)
    ]
    results_tournament("Past", PAST, rounds_)
    rebuild()
    ratings = PlayerRating.objects.filter(player__in=players).select_related("player")
    assert ratings.count() == n
    best = sorted(ratings, key=lambda r: (-r.ordinal, -r.games, r.player.name))
    assert best[0].ordinal > best[-1].ordinal
    return [r.player for r in best]


def rated_tournament(players: list[Player], unrated=4, **fields) -> Tournament:
    """A new tournament: a participant for each player (linked), and ``unrated`` participants unlinked."""
    fields = {"name": "Cup", "rounds": 4, "table_size": 4, "seed": 11, **fields}
    t = Tournament.objects.create(**fields)
    for p in players:
        Participant.objects.create(tournament=t, name=p.name, player=p)
    for i in range(unrated):
        Participant.objects.create(tournament=t, name=f"New{i}")
    return t


def seated_tables(round_: Round) -> list[list[int]]:
    """Participant pks by table number, each table in the order of its seats."""
    return [[s.participant_id for s in t.seats.all()] for t in round_.tables.prefetch_related("seats")]


@pytest.mark.django_db
def test_seeds_by_rating_fill_the_numbers_the_typed_seeds_leave(django_assert_num_queries):
    players = rated_players(8)
    t = rated_tournament(players, unrated=2)
    people = {p.name: p for p in t.participants.all()}
    typed_low = people[players[-1].name]  # the worst rated, typed seed 1
    typed_low.seed = 1
    typed_low.save()
    people["New0"].seed = 4
    people["New0"].save()
    participants = list(t.participants.all())
    with django_assert_num_queries(1):
        got = seeds(t, participants)
    expected = {typed_low.pk: Seed(1, False), people["New0"].pk: Seed(4, False)}
    numbers = iter([2, 3, 5, 6, 7, 8, 9])
    for p in players[:-1]:
        expected[people[p.name].pk] = Seed(next(numbers), True)
    assert got == expected  # New1: unrated, no seed
    t.seed_by_rating = False
    with django_assert_num_queries(0):
        assert seeds(t, participants) == {typed_low.pk: Seed(1, False), people["New0"].pk: Seed(4, False)}


@pytest.mark.django_db
def test_equal_ratings_go_by_games_then_name():
    a, b, c = make_players(["Cyd", "Abe", "Bea"])
    for player, games in ((a, 3), (b, 1), (c, 1)):
        PlayerRating.objects.create(
            player=player, mu=25, sigma=5, ordinal=10, games=games, change=0, last_played=PAST
        )
    t = rated_tournament([a, b, c], unrated=0)
    by_name = {p.name: p.pk for p in t.participants.all()}
    assert seeds(t, t.participants.all()) == {
        by_name["Cyd"]: Seed(1, True),
        by_name["Abe"]: Seed(2, True),
        by_name["Bea"]: Seed(3, True),
    }


# --- round 1 of a tournament --------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_round_one_spreads_the_top_rated_in_snake_order(seed, director):
    """20 participants at 5 tables of 4, 16 of them rated: seeds 1–5 at tables 1–5, 6–10 back from table 5
    to 1, and so on; the 4 unrated fill the seats left. Fails when round 1 ignores the ratings: a random draw
    puts the top 5 at 5 different tables 5!·4⁵/(20·19·18·17·16) ≈ 7 % of the time."""
    players = rated_players(16)
    t = rated_tournament(players, unrated=4, seed=seed)
    pk = {p.name: p.pk for p in t.participants.all()}
    ranked = [pk[p.name] for p in players]
    round_ = rounds.seat_next_round(t)
    for attempt in range(2):  # as seated, and seated again (another draw)
        where = {pid: n for n, table in enumerate(seated_tables(round_)) for pid in table}
        assert len(where) == 20
        for rank, (table, _row) in enumerate(snake(table_sizes(20, 4))[:16]):
            assert where[ranked[rank]] == table, (attempt, rank)
        assert sorted(where[x] for x in ranked[:5]) == [0, 1, 2, 3, 4]
        for pot in range(3):
            assert sorted(where[x] for x in ranked[5 * pot : 5 * pot + 5]) == [0, 1, 2, 3, 4]
        if attempt == 0:
            interventions.reseat(round_, director, "a late arrival")


@pytest.mark.django_db
def test_club_mates_among_the_top_rated_are_parted_and_the_pots_kept():
    players = rated_players(16)
    for i, p in enumerate(players):  # each his own club, but for two
        p.club = f"k{i}"
    players[0].club = players[9].club = "A"  # the snake's table 1 has seeds 1 and 10 (k = 5)
    t = rated_tournament(players, unrated=4)
    for p in players:
        Participant.objects.filter(tournament=t, player=p).update(club=p.club)
    pk = {p.name: p.pk for p in t.participants.all()}
    ranked = [pk[p.name] for p in players]
    round_ = rounds.seat_next_round(t)
    where = {pid: n for n, table in enumerate(seated_tables(round_)) for pid in table}
    assert where[ranked[0]] != where[ranked[9]]
    for pot in range(3):
        assert sorted(where[x] for x in ranked[5 * pot : 5 * pot + 5]) == [0, 1, 2, 3, 4]


@pytest.mark.django_db
def test_a_typed_seed_overrides_the_rating():
    players = rated_players(16)
    t = rated_tournament(players, unrated=0)  # 16 at 4 tables
    worst = Participant.objects.get(tournament=t, player=players[-1])
    worst.seed = 1
    worst.save()
    pk = {p.name: p.pk for p in t.participants.all()}
    round_ = rounds.seat_next_round(t)
    where = {pid: n for n, table in enumerate(seated_tables(round_)) for pid in table}
    order = [worst.pk] + [pk[p.name] for p in players[:-1]]  # seed 1, then by rating
    for rank, (table, _row) in enumerate(snake([4, 4, 4, 4])):
        assert where[order[rank]] == table
    assert where[worst.pk] == 0 and where[pk[players[0].name]] == 1  # the best rated is seed 2


@pytest.mark.django_db
def test_without_seeding_by_rating_round_one_is_drawn_as_before():
    players = rated_players(16)
    t = rated_tournament(players, unrated=4, seed_by_rating=False)
    typed = Participant.objects.get(tournament=t, name="New0")
    typed.seed = 1
    typed.save()
    round_ = rounds.seat_next_round(t)
    present = list(t.participants.order_by("name"))
    expected = seat_round(
        [Entrant(p.pk, p.club, p.seed) for p in present], size=4, seed=round_.seed
    )  # only the typed seed counts
    assert [sorted(x) for x in seated_tables(round_)] == [sorted(x) for x in expected.tables]


# --- the seats' rotation over a tournament ------------------------------------------------------------------


def finish(round_: Round) -> None:
    """The round ends without games (the standings stay level: rounds 2… are seated by name)."""
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.FINISHED)


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [3, 8])
def test_seat_positions_even_out_over_a_tournament(seed):
    """16 at 4 tables of 4 for 4 rounds: each table's seats in an order of least cost from the positions its
    players sat at before (read back from the stored seats); whenever a table can give each player a
    position he has not had, it does; the positions spread far better than a random order's."""
    t = make_tournament(16, name="Rotation", rounds=4, table_size=4, seed=seed)
    played: list[list[list[int]]] = []
    for _ in range(4):
        round_ = rounds.seat_next_round(t)
        tables = seated_tables(round_)
        history = seat_history(played)
        for table in tables:
            best = brute_min(table, history)
            assert rotation_cost([table], history) == best
            if best == len(table):  # a fresh position for everyone was possible: taken
                assert all(history.get(x, {}).get(i, 0) == 0 for i, x in enumerate(table))
        played.append(tables)
        finish(round_)
    counts = seat_history(played)
    squares = sum(c * c for cs in counts.values() for c in cs.values())
    # a random order: each player's 4 positions uniform, E[Σ c²] = 4 · (4 · ¼ · ¾ + 1) = 7 a player
    assert squares < 7 * 16
    assert squares <= 16 * 4 + 2 * 8  # at most 8 players hold a position twice (perfect: 64)
    assert max(c for cs in counts.values() for c in cs.values()) <= 2
    firsts = Counter(table[0] for tables in played for table in tables)
    assert max(firsts.values()) <= 2 and len(firsts) >= 12  # the first seat goes round


@pytest.mark.django_db
def test_the_stored_order_is_the_seat_position_and_roles_stay_with_their_player():
    t = make_tournament(
        12, name="AM", rounds=3, table_size=4, seed=2, variant="anti-monopoly", board="anti-monopoly-us"
    )
    for _ in range(3):
        round_ = rounds.seat_next_round(t)
        for table in round_.tables.all():
            seats = list(table.seats.all())
            assert [s.order for s in seats] == list(range(len(seats)))
            roles = Counter(s.role for s in seats)
            assert roles["monopolist"] == roles["competitor"] == 2
        finish(round_)
    assert Seat.objects.filter(table__round__tournament=t).count() == 36


# --- the director's setting -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_director_turns_seeding_by_rating_off_and_on(client, director):
    """On for a new tournament, beside the seating seed, its help text said; the edit form keeps and clears
    it."""
    form = client.get(reverse("tournament_new")).content.decode()
    box = re.search(r'<input type="checkbox" name="seed_by_rating"[^>]*>', form)
    assert box and "checked" in box.group(0)
    assert form.index('name="seed"') < box.start()
    assert "Seed round 1 by the players&#x27; ratings" in form
    assert "A seed typed for a participant still holds its place; unrated players are drawn." in form
    data = {
        "name": "Cup",
        "date": "2026-12-05",
        "variant": "tournament-pl",
        "board": "classic-pl",
        "rounds": "3",
        "table_size": "4",
        "placement_points": "4, 2, 1, 0",
        "tie_breaks": "points, total_score, best_score",
        "seed": "42",
    }
    assert client.post(reverse("tournament_new"), {**data, "seed_by_rating": "on"}).status_code == 302
    t = Tournament.objects.get()
    assert t.seed_by_rating is True
    assert client.post(reverse("tournament_edit", args=[t.pk]), data).status_code == 302
    t.refresh_from_db()
    assert t.seed_by_rating is False
