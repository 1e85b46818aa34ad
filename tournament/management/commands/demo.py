"""`python manage.py demo`: a populated demo tournament so a newcomer sees the app at work.

Creates a director and two referees (the score sheets print them as Zofia Kamińska and Tomasz Wiśniewski),
16 participants, round 1 played and confirmed (games made with the simulator and entered move by move, as a
referee would), and round 2 running: one table finished, one table in play, the others not started. The 16
are players of the league too: a past tournament's rankings (as imported) start their ratings, which seed
round 1, and the games confirmed here add to them. Running it again does nothing if the demo tournament
exists.
"""

import datetime
import random

from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand
from django.db import transaction

from rules.simulate import simulate
from tournament.event import namesakes, results, rounds
from tournament.games import recording
from tournament.models import Participant, PastEntrant, PastEvent, PastPlacement, Player, Tournament
from tournament.models.standings_changes import standings_changed
from tournament.people.access import DIRECTORS_GROUP, REFEREES_GROUP
from tournament.ratings.rebuild import Point, rebuild

NAME = "Demo: Mistrzostwa Warszawy w Monopoly"
PAST = "Demo: Puchar Jesieni"
PEOPLE = [
    ("Anna Nowak", "SP 12"),
    ("Bartek Kos", "SP 12"),
    ("Celina Wróbel", "LO 3"),
    ("Darek Lis", "LO 3"),
    ("Ewa Zając", "Klub Gier Planszowych"),
    ("Filip Sowa", "Klub Gier Planszowych"),
    ("Gosia Wilk", "SP 5"),
    ("Henryk Dąb", "SP 5"),
    ("Iga Sarna", "LO 3"),
    ("Jan Kruk", "SP 12"),
    ("Kasia Mróz", "SP 5"),
    ("Leon Szpak", "Klub Gier Planszowych"),
    ("Magda Jeż", "LO 7"),
    ("Nikodem Bóbr", "LO 7"),
    ("Ola Czapla", "SP 12"),
    ("Paweł Żuraw", "LO 7"),
]


class Command(BaseCommand):
    help = "Create a demo tournament (participants, referees, finished and running games)."

    def handle(self, *args, **options):
        if Tournament.objects.filter(name=NAME).exists():
            self.stdout.write("The demo tournament already exists.")
            return
        with transaction.atomic():
            self._create()
        self.stdout.write(self.style.SUCCESS(f"Created “{NAME}”."))
        self.stdout.write("Log in as director / demo (all rights) or referee1 / demo, referee2 / demo.")

    def _create(self):
        director = _user("director", DIRECTORS_GROUP, is_staff=True, is_superuser=True)
        referees = [
            _user("referee1", REFEREES_GROUP, first_name="Zofia", last_name="Kamińska"),
            _user("referee2", REFEREES_GROUP, first_name="Tomasz", last_name="Wiśniewski"),
        ]
        t = Tournament.objects.create(
            name=NAME,
            variant="tournament-pl",
            board="classic-pl",
            game_rounds=10,
            rounds=4,
            table_size=4,
            final_table_size=4,
            seed=2026,
            created_by=director,
        )
        players = [Player.objects.create(name=n, club=c) for n, c in PEOPLE]
        _past_tournament(players, t.date - datetime.timedelta(days=60), director)
        Participant.objects.bulk_create(
            Participant(tournament=t, name=p.name, club=p.club, player=p) for p in players
        )
        namesakes.mark(t.pk)  # added in bulk: no signal of each
        standings_changed(t.pk)
        for number in (1, 2):
            round_ = rounds.seat_next_round(t)
            for i, table in enumerate(round_.tables.all()):
                table.referees.set([referees[i % 2]])
            rounds.start_round(round_)
            for i, table in enumerate(round_.tables.all()):
                if number == 2 and i >= 2:
                    break  # tables 3 and 4 of round 2 have not started yet
                game = rounds.start_table_game(
                    table, [s.participant_id for s in table.seats.all()], table.referees.first()
                )
                record = simulate(t.variant, t.board, table.seats.count(), seed=100 * number + i, rounds=10)
                events = record["events"] if not (number == 2 and i == 1) else record["events"][:60]
                for ev in events:  # entered move by move, as at the table
                    game = recording.submit(
                        game.pk, ev, version=game.version, user=table.referees.first()
                    ).game
                if recording.current_state(game).finished:
                    results.confirm(table, table.referees.first())


def _past_tournament(players: list[Player], date: datetime.date, director) -> None:
    """Three rounds of four tables, as a workbook of past results imports them, each name linked to its
    player; the ratings rebuilt at once, for round 1's seeding."""
    event = PastEvent.objects.create(name=PAST, date=date, imported_by=director)
    entrants = {
        p.pk: PastEntrant.objects.create(event=event, name=p.name, club=p.club, player=p) for p in players
    }
    rng = random.Random(2025)
    strength = {p.pk: rng.random() for p in players}  # some play better than others
    rows = []
    for number in (1, 2, 3):
        order = rng.sample(players, len(players))
        for table in range(4):
            at = sorted(order[4 * table : 4 * table + 4], key=lambda p: -strength[p.pk] - rng.random() / 2)
            rows += [
                PastPlacement(entrant=entrants[p.pk], round_number=number, table_number=table + 1, rank=rank)
                for rank, p in enumerate(at, start=1)
            ]
    PastPlacement.objects.bulk_create(rows)
    rebuild(Point.of_past_event(event))


def _user(username, group=None, **flags):
    user, created = User.objects.get_or_create(username=username, defaults=flags)
    if created:
        user.set_password("demo")
        user.save()
    if group:  # the referees' group is made by a migration; the directors' one by the demo
        user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user
