"""Tournaments for the tests: one made with its participants (make_tournament), and its rounds played to the
end with simulated games (play_round, play_table; play_anti_monopoly_table with the seats' roles and the
ending). The callers need the database."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from rules.simulate import simulate
from tournament.event import results, rounds
from tournament.games import recording
from tournament.models import Participant, Tournament

#: Polish first names, surnames (long ones among them) and clubs (one very long, one none) for many
#: participants: ``f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]} {i + 1}"``.
FIRST = ["Katarzyna", "Łukasz", "Małgorzata", "Zbigniew", "Żaneta", "Grzegorz", "Agnieszka", "Przemysław"]
LAST = ["Wiśniewska-Grzybowska", "Szczepański", "Brzęczyszczykiewicz", "Kowalczyk", "Źdźbło"]
CLUBS = ["Szkoła Podstawowa nr 12 im. Marii Konopnickiej w Łodzi", "Klub Planszówkowy „Hotel na Woli”", ""]


def make_tournament(
    participants: int | Iterable[str],
    clubs: str | Sequence[str] | Callable[[int], str] | None = None,
    **fields,
) -> Tournament:
    """A tournament created with ``fields`` (the Tournament's own: name, rounds, seed…), then its participants
    in order: ``participants`` is their names, or a count of them named P00, P01…; ``clubs`` is one club for
    them all, a club for each (a list), a function of the participant's index (from 0), or None (no club)."""
    t = Tournament.objects.create(**fields)
    names = [f"P{i:02}" for i in range(participants)] if isinstance(participants, int) else participants
    for i, name in enumerate(names):
        if clubs is None:
            Participant.objects.create(tournament=t, name=name)
        else:
            club = clubs if isinstance(clubs, str) else clubs(i) if callable(clubs) else clubs[i]
            Participant.objects.create(tournament=t, name=name, club=club)
    return t


def start_game(table, referee=None):
    """The table's game started with its players in seat order (``referee``: who started it)."""
    return rounds.start_table_game(table, [s.participant_id for s in table.seats.all()], user=referee)


def play_table(table, referee, seed=0, game=None):
    """Start the table's game in seat order (unless ``game``, started already) and play it to the end with a
    simulated record."""
    order = [s.participant_id for s in table.seats.all()]
    game = game or rounds.start_table_game(table, order, user=referee)
    t = table.round.tournament
    record = simulate(t.variant, t.board, len(order), seed=seed + table.pk, rounds=t.game_rounds)
    for ev in record["events"]:
        game = recording.submit(game.pk, ev, version=game.version).game
    assert recording.current_state(game).finished
    return game


def play_anti_monopoly_table(table, referee, seed=0):
    """play_table for an Anti-Monopoly table: its simulated record has the seats' roles and the tournament's
    ending."""
    seats = list(table.seats.all())
    game = rounds.start_table_game(table, [s.participant_id for s in seats], user=referee)
    t = table.round.tournament
    record = simulate(
        t.variant,
        t.board,
        len(seats),
        seed=seed + table.pk,
        rounds=t.game_rounds,
        roles=[s.role for s in seats],
        options={"ending": t.ending},
    )
    for ev in record["events"]:
        game = recording.submit(game.pk, ev, version=game.version).game
    assert recording.current_state(game).finished
    return game


def play_round(tournament, referee, seed=0):
    """Seat the next round, start it, play each table (play_table) and confirm its result."""
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    for table in round_.tables.all():
        play_table(table, referee, seed)
        results.confirm(table, referee)
    round_.refresh_from_db()
    return round_


def one_table_played(director, referee, name="Cup"):
    """A one-round tournament of four (``director`` its creator) whose one table (``referee`` its referee)
    played a short simulated game to its end; the table, read again."""
    t = make_tournament(4, name=name, rounds=1, game_rounds=2, table_size=4, seed=3, created_by=director)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    table.referees.add(referee)
    play_table(table, referee)
    table.refresh_from_db()
    return table
