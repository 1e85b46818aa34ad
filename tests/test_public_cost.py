"""Every page and download anyone may open without logging in costs the same whatever the number of moves
played: it reads stored figures (the results' scores, the seating), never replays a game, and asks the
database as many times for a tournament of short games as for one of long games. A thousand phones reload
the standings when a round ends. (The figures: tests/bench_public.py.)

The public addresses are found, not listed: every named address of the site is requested without logging in,
its parameters filled from the tournament; those that answer are the public ones. A new public page is held
by this test the day it is added."""

import sys

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import get_resolver, reverse

from ledger.report import replay_ledger
from rules.engine import apply
from rules.replay import replay
from rules.simulate import simulate
from tournament.event import rounds
from tournament.games import recording
from tournament.models import GameEvent
from tournament.reports.rounds import tournament_report

from .tournaments import make_tournament, play_round

pytestmark = pytest.mark.django_db

#: What replays a game: the engine applying an event, a record's replay, the ledger's.
REPLAYING = {"apply": apply, "replay": replay, "replay_ledger": replay_ledger}

#: The public addresses there are today; the search below must find at least these.
KNOWN_PUBLIC = {
    "home",
    "login",
    "standings",
    "projector",
    "seating",
    "round_seating",
    "standings_pdf",
    "blank_card_pdf",
    "tournament_blank_card_pdf",
}


class Replayed(AssertionError):
    """A game was replayed where it must not be (raised through the test client: the test fails there)."""


def forbid_replays(monkeypatch) -> None:
    """Every module of the project that holds one of REPLAYING's functions gets one that fails instead."""

    def refuse(*args, **kwargs):
        raise Replayed("a game was replayed")

    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(("rules", "ledger", "tournament")):
            continue
        for attr, original in REPLAYING.items():
            if getattr(module, attr, None) is original:
                monkeypatch.setattr(module, attr, refuse)


def played(name: str, game_rounds: int, referee):
    """Eight players: the first round played and confirmed; the second seated and started, the game of its
    first table half played (a game in progress)."""
    t = make_tournament(8, lambda i: f"Klub {i % 3}", name=name, rounds=3, game_rounds=game_rounds, seed=5)
    play_round(t, referee, seed=2)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.order_by("number").first()
    order = [s.participant_id for s in table.seats.all()]
    game = rounds.start_table_game(table, order, user=referee)
    events = simulate(t.variant, t.board, len(order), seed=table.pk, rounds=game_rounds)["events"]
    recording.submit_all(game.pk, events[: len(events) // 2], version=game.version, user=referee)
    return t


@pytest.fixture
def tournaments(referee):
    few, many = played("Few moves", 1, referee), played("Many moves", 25, referee)
    moves = [GameEvent.objects.filter(game__table__round__tournament=t).count() for t in (few, many)]
    assert moves[1] > 10 * moves[0]  # the sizes differ enough to show a cost that grows
    return few, many


def addresses(t) -> dict[str, str]:
    """Every named address of the site (but the admin's), its parameters filled from ``t``: its id, its
    first round, table and participant; any other (a game, a move, an account, a login link's secret) 1."""
    values = {"pk": t.pk, "number": 1, "table": 1, "participant": t.participants.first().pk}
    resolver = get_resolver()
    found = {}
    for name in [n for n in resolver.reverse_dict if isinstance(n, str)]:
        for possibility, *_rest in resolver.reverse_dict.getlist(name):
            for _format, params in possibility:
                found[name] = reverse(name, kwargs={p: values.get(p, 1) for p in params})
    return found


def queries(client, url: str) -> int:
    """The queries of a page rendered afresh (nothing kept from an earlier request)."""
    cache.clear()
    with CaptureQueriesContext(connection) as asked:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(asked)


def test_no_public_page_replays_and_each_asks_as_often_for_long_games(client, tournaments, monkeypatch):
    few, many = tournaments
    public = [name for name, url in addresses(few).items() if client.get(url).status_code == 200]
    assert set(public) >= KNOWN_PUBLIC, "the search missed public pages"
    forbid_replays(monkeypatch)
    with pytest.raises(Replayed):  # the guard bites: the director's workbook replays every game
        tournament_report(few)
    at_few, at_many = addresses(few), addresses(many)
    asked = {name: (queries(client, at_few[name]), queries(client, at_many[name])) for name in public}
    assert {name: n for name, n in asked.items() if n[0] != n[1]} == {}
