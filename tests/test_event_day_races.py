"""Double taps and races on an event day, through the views, with real threads and real transactions.

The suite runs on SQLite and on PostgreSQL (``--postgres``): every test here runs on both. Each thread is a
phone with its own connection; a barrier lets them post at the same moment.
"""

import json

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from rules.board import BOARDS_DIR
from rules.replay import replay
from rules.simulate import simulate
from tests.threads import at_once
from tests.tournaments import start_game
from tournament.boards import editions
from tournament.boards.files.columns import BoardFileError
from tournament.console.devices import SESSION_KEY
from tournament.event import current_standings, interventions, results, rounds
from tournament.games import recording
from tournament.models import (
    AuditEntry,
    BoardEdition,
    Game,
    GameEvent,
    Participant,
    Round,
    Seat,
    Table,
    TableResult,
    Tournament,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]  # on PostgreSQL too
HX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}


def sync(client, game, **body):
    """One request of a phone's outbox (tournament/console/sync.py)."""
    body = {"waiting": 1, **body}
    url = reverse("console_sync", args=[game.pk])
    return client.post(url, json.dumps(body), content_type="application/json")


def phone(user) -> Client:
    c = Client(**HX)
    c.force_login(user)
    return c


@pytest.fixture
def table(referee):
    t = Tournament.objects.create(name="Cup", rounds=2, game_rounds=1, seed=3)
    for i in range(4):
        Participant.objects.create(tournament=t, name=f"P{i}")
    round_ = rounds.seat_next_round(t)
    table = round_.tables.get()
    table.referees.set([referee])
    rounds.start_round(round_)
    return table


def play(table, referee):
    order = [s.participant_id for s in table.seats.all()]
    game = rounds.start_table_game(table, order, referee)
    record = simulate("tournament-pl", "classic-pl", len(order), seed=7, rounds=1)
    for ev in record["events"]:
        game = recording.submit(game.pk, ev, version=game.version).game
    return game


def table_url(name, table):
    return reverse(name, args=[table.round.tournament_id, table.round.number, table.number])


def test_two_start_requests_at_once_make_one_game(table, referee):
    order = {
        "order": "1",
        **{f"place_{s.participant_id}": str(i + 1) for i, s in enumerate(table.seats.all())},
    }
    a, b = phone(referee), phone(referee)
    first, second = at_once(*(lambda c=c: c.post(table_url("table", table), order) for c in (a, b)))
    game = Game.objects.get(table=table)
    assert Game.objects.count() == 1
    # both phones land on that game's console: the second tap is answered like the first
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"] == reverse("console", args=[game.pk])


def test_two_confirmations_at_once_after_a_reopen_count_once(table, referee, director):
    play(table, referee)
    results.confirm(table, referee)
    results.reopen(table, director, "dice misread")
    a, b = phone(referee), phone(referee)
    responses = at_once(*(lambda c=c: c.post(table_url("table_confirm", table)) for c in (a, b)))
    assert [r.status_code for r in responses] == [302, 302]
    assert TableResult.objects.filter(table=table, status=TableResult.Status.CONFIRMED).count() == 1
    assert TableResult.objects.filter(table=table).count() == 2  # the reopened one stays in the history
    assert len(current_standings.game_scores(table.round.tournament)) == 4  # each player once
    assert Round.objects.get(pk=table.round_id).status == Round.Status.FINISHED


def test_the_same_move_from_two_phones_is_stored_once(table, referee):
    game = start_game(table, referee)
    event = simulate("tournament-pl", "classic-pl", 4, seed=1, rounds=1)["events"][0]
    body = {"version": game.version, "client_key": "dev.k1", "events": [event]}
    responses = at_once(*(lambda c=c: sync(c, game, **body) for c in (phone(referee), phone(referee))))
    assert [r.status_code for r in responses] == [200, 200]
    assert sorted(r.json()["duplicate"] for r in responses) == [False, True]  # both: the move, once
    assert list(game.events.values_list("seq", flat=True)) == [1]


def test_two_different_moves_on_one_version_apply_one(table, referee):
    game = start_game(table, referee)
    player = game.players.get(seat=0).pid
    bodies = [
        {
            "version": game.version,
            "client_key": key,
            "events": [{"type": "roll", "player": player, "dice": [d, 1]}],
        }
        for key, d in (("dev.a", 2), ("dev.b", 3))
    ]
    phones = (phone(referee), phone(referee))
    responses = at_once(*(lambda c=c, b=b: sync(c, game, **b) for c, b in zip(phones, bodies, strict=True)))
    assert sorted(r.status_code for r in responses) == [200, 409]
    assert [r.json()["why"] for r in responses if r.status_code == 409] == ["stale"]
    assert game.events.count() == 1


def test_an_undo_tapped_twice_undoes_one_move(table, referee):
    game = start_game(table, referee)
    for ev in simulate("tournament-pl", "classic-pl", 4, seed=1, rounds=1)["events"][:3]:
        game = recording.submit(game.pk, ev, version=game.version).game
    data = {"version": game.version, "client_key": "dev.undo-1", "kind": "undo", "reason": "wrong dice"}
    responses = at_once(*(lambda c=c: sync(c, game, **data) for c in (phone(referee), phone(referee))))
    assert [r.status_code for r in responses] == [200, 200]  # both: the undo, once
    assert list(game.events.filter(status=GameEvent.Status.UNDONE).values_list("seq", flat=True)) == [3]


def test_a_confirmed_game_is_read_only_until_the_director_reopens_it(table, referee, director):
    game = play(table, referee)
    results.confirm(table, referee)
    game.refresh_from_db()
    response = sync(
        phone(referee), game, version=game.version, client_key="dev.u", kind="undo", reason="oops"
    )
    assert response.status_code == 409 and "result is confirmed" in response.json()["message"]
    console = phone(referee).get(reverse("console_state", args=[game.pk])).json()
    assert console["closed"] and console["undo"] is None  # no undo offered
    with pytest.raises(recording.GameClosed):
        recording.void(game.pk, 1, version=game.version, user=director, reason="x")
    with pytest.raises(recording.GameClosed):
        recording.submit(game.pk, {"type": "time_up"}, version=game.version)
    assert not game.events.exclude(status=GameEvent.Status.ACTIVE).exists()
    results.reopen(table, director, "dice misread")
    game = recording.undo_last(game.pk, version=game.version, user=referee, reason="dice misread")
    assert game.status == Game.Status.RUNNING


def test_confirm_and_undo_at_once_leave_a_consistent_table(table, referee):
    """Either the undo comes first (then the game is not over and nothing is confirmed) or the confirmation
    does (then the undo is refused): never a confirmed result of a game that runs again."""
    game = play(table, referee)
    undo = {"version": game.version, "client_key": "dev.late", "kind": "undo", "reason": "late correction"}
    a, b = phone(referee), phone(referee)
    at_once(lambda: a.post(table_url("table_confirm", table)), lambda: sync(b, game, **undo))
    game.refresh_from_db()
    confirmed = TableResult.objects.filter(table=table, status=TableResult.Status.CONFIRMED).exists()
    assert confirmed == (game.status == Game.Status.FINISHED)
    assert confirmed != game.events.filter(status=GameEvent.Status.UNDONE).exists()


# -- what the database itself refuses, whatever the Python above it does ---------------------------------


def test_the_database_refuses_a_second_confirmed_result(table, referee):
    play(table, referee)
    TableResult.objects.create(table=table, ranking=[], confirmed_by=referee)
    with pytest.raises(IntegrityError), transaction.atomic():
        TableResult.objects.create(table=table, ranking=[], confirmed_by=referee)


def test_the_database_refuses_a_second_game_for_a_table(table, referee):
    start_game(table, referee)
    with pytest.raises(IntegrityError), transaction.atomic():
        recording.create_game(
            variant="classic", board="classic-us", players=[{"name": "A"}, {"name": "B"}], table=table
        )


@pytest.mark.parametrize(
    "change",
    [
        {"seq": 0},
        {"status": "deleted"},
        {"status": "undone"},  # taken back without who/when/why
    ],
)
def test_the_database_refuses_impossible_events(table, referee, change):
    game = start_game(table, referee)
    row = {"game": game, "seq": 1, "data": {"type": "time_up"}, **change}
    with pytest.raises(IntegrityError), transaction.atomic():
        GameEvent.objects.create(**row)


def test_the_database_refuses_an_unknown_round_status_and_a_reopening_without_reason(table, referee):
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.filter(pk=table.round_id).update(status="paused")
    play(table, referee)
    result = TableResult.objects.create(table=table, ranking=[], confirmed_by=referee)
    with pytest.raises(IntegrityError), transaction.atomic():
        TableResult.objects.filter(pk=result.pk).update(status="reopened")


def test_admin_shows_results_and_seats_read_only(client, table, referee):
    play(table, referee)
    results.confirm(table, referee)
    client.force_login(User.objects.create_superuser("boss", password="pw"))
    result = TableResult.objects.get()
    seat = Seat.objects.first()
    for url in (
        f"/admin/tournament/tableresult/{result.pk}/change/",
        f"/admin/tournament/seat/{seat.pk}/change/",
    ):
        page = client.get(url)
        assert page.status_code == 200 and 'type="submit"' not in page.content.decode().split("<form")[-1]
        assert client.post(url, {}).status_code == 403
    assert client.get("/admin/tournament/tableresult/add/").status_code == 403
    assert (
        client.post(f"/admin/tournament/tableresult/{result.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert Table.objects.get().results.count() == 1


def test_the_same_participant_added_twice_at_once_is_added_once(table, director):
    t = table.round.tournament
    url = reverse("participant_add", args=[t.pk])
    responses = at_once(
        lambda: phone(director).post(url, {"name": "Zofia Nowak"}, follow=True),
        lambda: phone(director).post(url, {"name": "zofia nowak"}, follow=True),
    )
    assert [r.status_code for r in responses] == [200, 200]
    assert sum("is already registered" in r.content.decode() for r in responses) == 1
    assert t.participants.filter(name__iexact="zofia nowak").count() == 1


# -- the director's changes racing a table's own ------------------------------------------------------------


def replays_to_what_is_stored(game) -> bool:
    game.refresh_from_db()
    return replay(recording.record_of(game)).state == recording.current_state(game)


def test_a_stop_and_a_move_at_once_leave_a_game_that_replays(table, referee, director):
    game = start_game(table, referee)
    first = game.players.order_by("seat").first().pid
    roll = {"type": "roll", "player": first, "dice": [1, 3]}  # to the income tax: no decision
    move, stop = at_once(
        lambda: sync(phone(referee), game, version=0, client_key="dev.r", events=[roll]),
        lambda: phone(director).post(table_url("table_stop", table), {"reason": "out of time"}),
    )
    assert move.status_code in (200, 409) and stop.status_code == 302  # the move first, or refused after
    game.refresh_from_db()
    kinds = [e.data["type"] for e in game.events.order_by("seq")]
    assert kinds in (["roll", "time_up"], ["time_up"])  # the move first, or refused after the stop
    assert game.status == Game.Status.FINISHED and replays_to_what_is_stored(game)
    assert AuditEntry.objects.filter(action=AuditEntry.Action.END_GAME).count() == 1


def test_two_stops_at_once_stop_the_game_once(table, referee, director):
    game = start_game(table, referee)
    url, why = table_url("table_stop", table), {"reason": "schedule"}
    pages = at_once(*(lambda: phone(director).post(url, why, follow=True) for _n in range(2)))
    assert [e.data["type"] for e in game.events.all()] == ["time_up"]
    assert AuditEntry.objects.filter(action=AuditEntry.Action.END_GAME).count() == 1
    said = sorted(("already over" in p.content.decode(), "is stopped" in p.content.decode()) for p in pages)
    assert said == [(False, True), (True, False)]  # one stopped it, the other was told it is over


def test_a_result_by_hand_and_the_referees_confirmation_at_once_give_one_confirmed_result(
    table, referee, director
):
    play(table, referee)
    places = {}
    for i, s in enumerate(table.seats.order_by("order")):
        places |= {f"place_{s.participant_id}": str(i + 1), f"score_{s.participant_id}": str(1000 - i)}
    hand, confirm = at_once(
        lambda: phone(director).post(
            table_url("table_hand_result", table), {**places, "reason": "the sheet disagrees", "confirm": "1"}
        ),
        lambda: phone(referee).post(table_url("table_confirm", table)),
    )
    assert confirm.status_code == 302
    confirmed = TableResult.objects.get(table=table, status=TableResult.Status.CONFIRMED)
    hand_entries = AuditEntry.objects.filter(action=AuditEntry.Action.HAND_RESULT).count()
    if confirmed.by_hand:  # the director first: the referee's tap finds the table confirmed
        assert hand.status_code == 302 and hand_entries == 1
    else:  # the referee first: the director is told to reopen it, and nothing of his is stored
        assert hand.status_code == 200 and "reopen it first" in hand.content.decode()
        assert hand_entries == 0
    assert TableResult.objects.filter(table=table).count() == 1
    assert len(current_standings.game_scores(table.round.tournament)) == 4  # each player once


def test_an_absence_and_the_tables_start_at_once_never_seat_an_absent_player(table, referee, director):
    seats = list(table.seats.order_by("order"))
    absent = seats[0].participant_id
    order = {"order": "1", **{f"place_{s.participant_id}": str(i + 1) for i, s in enumerate(seats)}}
    at_once(
        lambda: phone(referee).post(table_url("table", table), order),
        lambda: phone(director).post(
            table_url("table_absent", table), {"participant": absent, "reason": "not here"}
        ),
    )
    game = Game.objects.filter(table=table).first()
    marked = AuditEntry.objects.filter(action=AuditEntry.Action.ABSENT).exists()
    if game is not None:  # the start first: the absence is refused, he plays
        assert not marked and game.players.filter(participant_id=absent).exists()
        assert table.seats.filter(participant_id=absent).exists()
    else:  # the absence first: the start (with his place) is refused, the table starts again without him
        assert marked and not table.seats.filter(participant_id=absent).exists()


# -- two directors, or a director and a table, at once ------------------------------------------------------


def test_seating_the_round_again_and_starting_a_table_at_once(table, referee, director):
    """Either the table's game starts first (then the round is not seated again: a game has started) or the
    round is seated again first (then the referee is told so): never an error page, never both."""
    tournament = table.round.tournament
    for n in range(4, 8):  # eight players, two tables: the round can be seated again
        Participant.objects.create(tournament=tournament, name=f"P{n}")
    interventions.reseat(table.round, director, "late arrivals")  # the round runs, no game has started
    reseat_url = reverse("round_reseat", args=[tournament.pk, 1])
    for attempt in range(3):
        first = Table.objects.get(round=table.round, number=1)  # its referee stays with table 1
        order = {
            "order": "1",
            **{f"place_{s.participant_id}": str(i + 1) for i, s in enumerate(first.seats.all())},
        }
        why = {"reason": f"try {attempt}"}
        start_url = table_url("table", first)
        start, reseat = at_once(
            lambda url=start_url, order=order: phone(referee).post(url, order, follow=True),
            lambda why=why: phone(director).post(reseat_url, why, follow=True),
        )
        assert start.status_code == reseat.status_code == 200
        reseated = AuditEntry.objects.filter(action=AuditEntry.Action.RESEAT).count() == attempt + 2
        assert Game.objects.filter(table__round=table.round).exists() != reseated
        if not reseated:
            assert "A game of this round has started" in reseat.content.decode()
            break
        assert "seated again meanwhile" in start.content.decode() or "place in the order" in (
            start.content.decode()
        )


def test_a_table_seated_again_between_its_page_and_its_report_is_said_so(
    table, referee, director, monkeypatch
):
    """The race above made certain: the round is seated again after the table page read its table and before
    it gathered the table's report. The referee is told and sent to the new table 1; its sheet is a 404."""
    from tournament.director import views as director_views
    from tournament.exports import views as export_views

    tournament = table.round.tournament
    for n in range(4, 8):
        Participant.objects.create(tournament=tournament, name=f"P{n}")
    for module in (director_views, export_views):
        read = module.table_for
        reseats = [1]

        def read_then_reseat(*args, read=read, reseats=reseats):
            t = read(*args)
            if reseats and reseats.pop():  # once: the page it is sent to reads the new seating
                interventions.reseat(table.round, director, "late arrivals")
            return t

        monkeypatch.setattr(module, "table_for", read_then_reseat)
    page = phone(referee).post(table_url("table", table), {"order": "1"}, follow=True)
    assert page.status_code == 200 and "seated again meanwhile" in page.content.decode()
    assert not Table.objects.filter(pk=table.pk).exists()
    new = Table.objects.get(round=table.round, number=1)
    assert phone(referee).get(table_url("table_sheet_pdf", new)).status_code == 404


def test_two_directors_seating_the_same_round_at_once_seat_it_once(director):
    tournament = Tournament.objects.create(name="Big", rounds=3, game_rounds=1, seed=5)
    Participant.objects.bulk_create(Participant(tournament=tournament, name=f"P{i}") for i in range(120))
    url = reverse("round_seat", args=[tournament.pk])
    pages = at_once(*(lambda: phone(director).post(url, {"number": "1"}, follow=True) for _n in range(2)))
    assert [p.status_code for p in pages] == [200, 200]
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Table.objects.filter(round__tournament=tournament).count() == 30
    assert Seat.objects.filter(table__round__tournament=tournament).count() == 120
    assert sum("Round 1 is seated already." in p.content.decode() for p in pages) == 1


def test_a_stored_board_replaced_while_a_game_starts_on_it(director):
    """The start holds the board: either the replacement comes first (and the game is played on the new
    board), or the game does (and the replacement is refused). Never a game on a board replaced under it."""
    data = {**json.loads((BOARDS_DIR / "classic-us.json").read_text(encoding="utf-8")), "id": "mine"}
    editions.store_board(data, director, name="First")
    for attempt in range(4):
        Game.objects.filter(board="mine").delete()

        def replace(attempt=attempt):
            try:
                return editions.store_board(data, director, name=f"Replaced {attempt}", replace=True)
            except BoardFileError:
                return None

        def start():
            return recording.create_game(
                variant="classic", board="mine", players=[{"name": "A"}, {"name": "B"}]
            )

        replaced, game = at_once(replace, start)
        edition = BoardEdition.objects.get()
        if replaced is not None:  # the replacement first: the game was started after it
            assert edition.name == f"Replaced {attempt}" and edition.uploaded_at <= game.created_at
        else:
            assert edition.name != f"Replaced {attempt}"
        game = recording.submit(game.pk, {"type": "roll", "player": "A", "dice": [1, 2]}, version=0).game
        assert replays_to_what_is_stored(game)


def wrong_roll_on(table, referee):
    """The table's first roll entered with a wrong key (1·2) on a phone; the phone, and the version and
    request key of its correction (what the undo's dice pad sends)."""
    game = start_game(table, referee)
    first = game.players.order_by("seat").first().pid
    device = phone(referee)
    device.get(reverse("console", args=[game.pk]))  # the device's token, in its session
    token = device.session[SESSION_KEY]
    roll = {"type": "roll", "player": first, "dice": [1, 2]}
    assert sync(device, game, version=0, client_key=f"{token}.roll", events=[roll]).status_code == 200
    return game, device, {"version": 1, "client_key": f"{token}.fix"}


def test_a_correction_of_the_dice_sent_twice_at_once_is_applied_once(table, referee):
    """The undo's dice pad tapped twice (or a retry racing the first request), from the same phone: one
    throw undone and one entered; both answered as done."""
    game, device, fixed = wrong_roll_on(table, referee)
    again = phone(referee)  # the same phone's session: the same device
    again.cookies[settings.SESSION_COOKIE_NAME] = device.cookies[settings.SESSION_COOKIE_NAME].value
    responses = at_once(
        *(lambda c=c: sync(c, game, kind="dice", dice=[2, 3], **fixed) for c in (device, again))
    )
    assert [r.status_code for r in responses] == [200, 200]
    assert sorted(r.json()["duplicate"] for r in responses) == [False, True]
    rows = [(e.seq, e.data["dice"], e.status) for e in game.events.order_by("seq")]
    assert rows == [(1, [1, 2], GameEvent.Status.UNDONE), (2, [2, 3], GameEvent.Status.ACTIVE)]
    assert replays_to_what_is_stored(game)


def test_a_correction_of_the_dice_and_another_devices_move_at_once_apply_one(table, referee):
    """Either the correction comes first (the other phone's move is refused as stale) or the other move does
    (the correction is refused: nothing undone, no dice entered). Never one half of the correction."""
    game, device, fixed = wrong_roll_on(table, referee)
    first = game.players.order_by("seat").first().pid
    other = {"type": "buy", "player": first}
    corrected, bought = at_once(
        lambda: sync(device, game, kind="dice", dice=[2, 3], **fixed),
        lambda: sync(phone(referee), game, version=fixed["version"], client_key="other.k", events=[other]),
    )
    rows = [(e.data["type"], e.status) for e in game.events.order_by("seq")]
    if corrected.status_code == 200:
        assert (bought.status_code, bought.json()["why"]) == (409, "stale")
        assert rows == [("roll", GameEvent.Status.UNDONE), ("roll", GameEvent.Status.ACTIVE)]
    else:
        assert (corrected.status_code, corrected.json()["why"]) == (
            409,
            "stale",
        ) and bought.status_code == 200
        assert rows == [("roll", GameEvent.Status.ACTIVE), ("buy", GameEvent.Status.ACTIVE)]
    assert replays_to_what_is_stored(game)
