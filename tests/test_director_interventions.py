"""The director's fallbacks on the day (tournament.event.interventions): no-shows, withdrawals, moves, a round
seated again, a game stopped, a result entered by hand — each audited, the standings following; and the
seating aids (referees kept per table number, repeat pairings and club-mates named, short tables rotating)."""

import json

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import translation

from rules import RulesError, apply
from rules.replay import replay
from rules.simulate import simulate
from rules.snapshot import dump_state, load_state
from tests.tournaments import make_tournament
from tournament.errors import RoundError
from tournament.event import current_standings, interventions, results, rounds
from tournament.files import backup
from tournament.games import recording
from tournament.models import AuditEntry, Participant, Round, TableResult, Tournament
from tournament.people.access import DIRECTORS_GROUP, REFEREES_GROUP, referee_accounts

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):  # the messages matched below are the English ones
        yield


@pytest.fixture
def director():
    user = User.objects.create_user("boss", password="pw")
    user.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
    return user


@pytest.fixture
def tournament():
    return make_tournament(12, name="Cup", rounds=3, game_rounds=2, seed=5, table_size=4)


def seated(table):
    return [s.participant for s in table.seats.order_by("order")]


def play(table, user, seed=1):
    order = [s.participant_id for s in table.seats.order_by("order")]
    game = rounds.start_table_game(table, order, user=user)
    t = table.round.tournament
    record = simulate(t.variant, t.board, len(order), seed=seed + table.number, rounds=t.game_rounds)
    for ev in record["events"]:
        game = recording.submit(game.pk, ev, version=game.version).game
    return game


def test_a_no_show_the_table_starts_with_three_and_the_round_finishes(tournament, director):
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    table = round_.tables.get(number=1)
    absent = seated(table)[0]
    with pytest.raises(RoundError):
        interventions.mark_absent(table, absent, director, "   ")  # why is required
    interventions.mark_absent(table, absent, director, "did not come")
    assert absent not in seated(table) and len(seated(table)) == 3
    assert absent.active  # absent from this table only
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.user, entry.participant, entry.round_number, entry.table_number) == (
        "absent",
        director,
        absent,
        1,
        1,
    )
    game = play(table, director)
    assert game.players.count() == 3
    with pytest.raises(RoundError):  # the game has started: its players are fixed
        interventions.mark_absent(table, seated(table)[0], director, "left")
    for t in round_.tables.all():
        if t.number != 1:
            play(t, director)
        results.confirm(t, director)
    round_.refresh_from_db()
    assert round_.status == Round.Status.FINISHED
    rows = {r.participant: r for r in current_standings.tournament_standings(tournament)}
    assert rows[absent.pk].games == 0 and sum(r.games for r in rows.values()) == 11


def test_withdraw_a_seated_player_before_his_game_and_not_after(tournament, director):
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    t1, t2 = round_.tables.get(number=1), round_.tables.get(number=2)
    leaving = seated(t1)[1]
    interventions.withdraw(leaving, director, "ill")
    leaving.refresh_from_db()
    assert leaving.withdrawn_after == 0 and leaving not in seated(t1)
    assert AuditEntry.objects.get(action="withdraw").table_number == 1
    play(t2, director)
    with pytest.raises(RoundError, match="has started"):
        interventions.withdraw(seated(t2)[0], director, "ill")
    assert seated(t2)[0].active


def test_move_a_player_and_a_table_of_one_cannot_start(tournament, director):
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    t1 = round_.tables.get(number=1)
    people = seated(t1)
    for p in people[:3]:
        interventions.move(p, round_, 2 if p != people[2] else 3, director, "balance the tables")
    assert len(seated(t1)) == 1
    with pytest.raises(RoundError, match="at least 2 players"):
        rounds.start_table_game(t1, [people[3].pk])
    with pytest.raises(RoundError):
        interventions.move(people[3], round_, 9, director, "no such table")
    new = interventions.move(
        people[3], round_, 4, director, "a table of its own"
    )  # the next number: a new table
    assert new.number == 4 and seated(new) == [people[3]]
    assert AuditEntry.objects.filter(action="move").count() == 4
    assert AuditEntry.objects.filter(action="move").first().details == {"to_table": 4}


def test_reseat_a_round_keeps_referees_and_refuses_once_a_game_started(tournament, director):
    referee = User.objects.create_user("ref")
    round_ = rounds.seat_next_round(tournament)
    round_.tables.get(number=2).referees.add(referee)
    before = [sorted(p.pk for p in seated(t)) for t in round_.tables.all()]
    Participant.objects.create(tournament=tournament, name="Late")
    interventions.reseat(round_, director, "a late arrival")
    round_.refresh_from_db()
    after = [sorted(p.pk for p in seated(t)) for t in round_.tables.all()]
    assert after != before and sum(map(len, after)) == 13
    assert list(round_.tables.get(number=2).referees.all()) == [referee]
    assert AuditEntry.objects.get().action == "reseat"
    rounds.start_round(round_)
    play(round_.tables.get(number=1), director)
    with pytest.raises(RoundError):
        interventions.reseat(round_, director, "again")


def test_the_next_round_keeps_the_referees_of_each_table_number(tournament, director):
    referee = User.objects.create_user("ref")
    round_ = rounds.seat_next_round(tournament)
    round_.tables.get(number=3).referees.add(referee)
    rounds.start_round(round_)
    for t in round_.tables.all():
        play(t, director)
        results.confirm(t, director)
    round2 = rounds.seat_next_round(tournament)
    assert list(round2.tables.get(number=3).referees.all()) == [referee]
    assert not round2.tables.get(number=1).referees.exists()


def test_the_director_stops_a_game_without_a_time_limit(tournament, director):
    tournament.game_rounds = None
    tournament.save()
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    table = round_.tables.get(number=1)
    game = rounds.start_table_game(table, [p.pk for p in seated(table)], user=director)
    record = simulate(tournament.variant, tournament.board, 4, seed=3)
    for ev in record["events"][:40]:
        game = recording.submit(game.pk, ev, version=game.version).game
    with pytest.raises(RulesError):  # a referee's "time is up": this game has no time limit
        recording.submit(game.pk, {"type": "time_up"}, version=None)
    interventions.stop_game(table, director, "the schedule")
    game.refresh_from_db()
    state = recording.current_state(game)
    assert state.finished and state.end_reason == "time" and game.status == "finished"
    assert game.events.last().data == {"type": "time_up", "now": True}
    assert AuditEntry.objects.get().action == "end_game"
    result = results.confirm(table, director).result
    assert [r["rank"] for r in result.ranking][0] == 1
    with pytest.raises(RoundError):
        interventions.stop_game(table, director, "again")


def test_time_up_now_in_the_engine_ends_any_game_at_once():
    record = simulate("tournament-pl", "classic-pl", 3, seed=2)
    record["events"] = record["events"][:30]
    state = replay(record).state
    assert not state.stopped
    out = apply(state, {"type": "time_up", "now": True})
    assert out.state.finished and out.state.end_reason == "time"  # (GAME_RECORD.md's end reason)
    assert out.state.stopped  # and stopped: what the console and the sheets say instead of a time limit
    assert load_state(dump_state(out.state)).stopped
    kept_before = {k: v for k, v in dump_state(out.state).items() if k != "stopped"}
    assert not load_state(kept_before).stopped  # a state stored before it was kept: not said
    with pytest.raises(RulesError):
        apply(state, {"type": "time_up", "now": "yes"})  # a bad field: refused, saying what it must be


def test_a_result_entered_by_hand(tournament, director):
    tournament.second_confirmation = True
    tournament.save()
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    table = round_.tables.get(number=1)
    a, b, c, d = seated(table)
    with pytest.raises(RoundError, match="each player"):
        interventions.enter_result(table, {a.pk: (1, 900)}, director, "paper")
    with pytest.raises(RoundError, match="1, 2, 3"):
        interventions.enter_result(
            table, {a.pk: (1, 900), b.pk: (3, 800), c.pk: (3, 700), d.pk: (4, 0)}, director, "paper"
        )
    places = {a.pk: (1, 900), b.pk: (2, 800), c.pk: (2, 800), d.pk: (4, 0)}
    result = interventions.enter_result(table, places, director, "the tablet died")
    assert result.by_hand and result.hand_reason == "the tablet died"
    assert sorted((r["participant"], r["rank"], r["points"]) for r in result.ranking) == sorted(
        [(a.pk, 1, 4), (b.pk, 2, 2), (c.pk, 2, 2), (d.pk, 4, 0)]
    )
    assert not result.counts(tournament)  # the tournament asks for a second person
    second = User.objects.create_user("second")
    results.confirm(table, second)
    assert results.current_result(table).counts(tournament)
    assert current_standings.game_scores(tournament)
    with pytest.raises(RoundError, match="reopen"):
        interventions.enter_result(table, places, director, "twice")
    assert TableResult.objects.filter(table=table).count() == 1
    assert AuditEntry.objects.get().action == "hand_result"


def test_a_hand_result_and_the_log_come_back_from_a_backup(tournament, director):
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    table = round_.tables.get(number=1)
    game = rounds.start_table_game(table, [p.pk for p in seated(table)], user=director)
    recording.submit(game.pk, simulate("tournament-pl", "classic-pl", 4, seed=1)["events"][0], version=None)
    interventions.mark_absent(
        round_.tables.get(number=2), seated(round_.tables.get(number=2))[0], director, "x"
    )
    places = {p.pk: (i + 1, 1000 - i) for i, p in enumerate(seated(table))}
    interventions.enter_result(table, places, director, "the tablet died")
    data = backup.export_tournament(tournament)
    tournament.name = "Old"
    tournament.save()
    restored = backup.import_tournament(backup.read_backup(backup.dumps(data)))
    result = results.current_result(restored.round_set.get().tables.get(number=1))
    assert result.by_hand and result.hand_reason == "the tablet died"
    assert sorted(restored.audit.values_list("action", flat=True)) == ["absent", "hand_result"]


def test_referee_accounts_are_the_referees_group_only(director):
    referee = User.objects.create_user("ref")
    referee.groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])
    User.objects.create_user("gone", is_active=False).groups.add(Group.objects.get(name=REFEREES_GROUP))
    User.objects.create_superuser("admin")
    assert list(referee_accounts()) == [referee]


def test_repeat_pairings_and_club_mates_are_named(tournament):
    for p in tournament.participants.all():
        p.club = "Orły" if p.name in ("P00", "P01") else ""
        p.save()
    round_ = rounds.seat_next_round(tournament)
    assert rounds.club_pairs_named(round_) == []  # 3 tables: the two club-mates sit apart
    p00, p01 = Participant.objects.get(name="P00"), Participant.objects.get(name="P01")
    table = round_.tables.get(seats__participant=p00)
    rounds.swap(round_, next(x for x in seated(table) if x != p00), p01)
    assert [(a, b, club) for a, b, club in rounds.club_pairs_named(round_)] == [("P00", "P01", "Orły")]
    rounds.start_round(round_)
    for t in round_.tables.all():
        play(t, None)
        results.confirm(t, User.objects.create_user(f"r{t.number}"))
    round2 = rounds.seat_next_round(tournament)
    first = round_.tables.get(number=1)
    p, q = seated(first)[:2]  # they met in round 1
    table_p = round2.tables.get(seats__participant=p)
    if q not in seated(table_p):
        rounds.swap(round2, next(x for x in seated(table_p) if x != p), q)
    assert (*sorted([p.name, q.name]), [1]) in rounds.repeat_pairs_named(round2)


def test_short_tables_rotate(director):
    t = Tournament.objects.create(name="Small", rounds=2, game_rounds=1, seed=1, table_size=4)
    for i in range(22):  # 4, 4, 4, 4, 3, 3
        Participant.objects.create(tournament=t, name=f"S{i:02}")
    round_ = rounds.seat_next_round(t)
    short = {
        s.participant_id
        for table in round_.tables.all()
        if table.seats.count() < 4
        for s in table.seats.all()
    }
    assert len(short) == 6
    rounds.start_round(round_)
    for table in round_.tables.all():
        play(table, director)
        results.confirm(table, director)
    round2 = rounds.seat_next_round(t)
    again = {
        s.participant_id
        for table in round2.tables.all()
        if table.seats.count() < 4
        for s in table.seats.all()
    }
    assert not short & again


def test_director_pages_for_the_fallbacks(client, tournament, director):
    tournament.directors.add(director)  # a directors-group account directs the tournaments it is given
    client.force_login(director)
    User.objects.create_user("ref").groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    table = round_.tables.get(number=1)
    a = seated(table)[0]
    with translation.override("en"):
        url = reverse("table", args=[tournament.pk, 1, 1])
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "A player does not come" in page and "Enter the result by hand" in page
        r = client.post(
            reverse("table_absent", args=[tournament.pk, 1, 1]), {"participant": a.pk}, follow=True
        )
        assert a in seated(table) and "Say why." in r.content.decode()
        client.post(
            reverse("table_absent", args=[tournament.pk, 1, 1]), {"participant": a.pk, "reason": "no-show"}
        )
        assert a not in seated(table)
        assert "no-show" in client.get(url).content.decode()  # the director's log on the table's page
        hand = reverse("table_hand_result", args=[tournament.pk, 1, 1])
        people = seated(table)
        bad = {
            "reason": "paper",
            **{f"place_{p.pk}": "1" for p in people},
            **{f"score_{p.pk}": "5" for p in people},
        }
        bad[f"place_{people[0].pk}"] = "x"
        assert client.post(hand, bad).status_code == 200 and not results.current_result(table)
        good = {"reason": "paper", **{f"place_{p.pk}": str(i + 1) for i, p in enumerate(people)}}
        good.update({f"score_{p.pk}": str(100 - i) for i, p in enumerate(people)})
        review = client.post(hand, good)  # first what will be stored, to check; nothing stored yet
        assert review.status_code == 200 and "Check the result before it counts" in review.content.decode()
        assert not results.current_result(table)
        assert client.post(hand, {**good, "confirm": "1"}).status_code == 302
        assert results.current_result(table).by_hand
        page = client.get(url).content.decode()
        assert "Result entered by hand" in page and "paper" in page
        round_page = client.get(reverse("round", args=[tournament.pk, 1])).content.decode()
        assert "no-show" in round_page and 'name="table_2"' in round_page


def test_a_table_with_a_result_by_hand_keeps_its_players(tournament, director):
    """The result names the players it had: none of them leaves the table while it stands (a backup of the
    day would hold a result for someone no longer seated there)."""
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    table = round_.tables.get(number=1)
    people = seated(table)
    interventions.enter_result(
        table, {p.pk: (i + 1, 1000 - i) for i, p in enumerate(people)}, director, "played on paper"
    )
    with pytest.raises(RoundError, match="has a confirmed result"):
        interventions.mark_absent(table, people[0], director, "went home")
    with pytest.raises(RoundError, match="has a confirmed result"):
        interventions.move(people[0], round_, 2, director, "a quarrel")
    assert seated(table) == people
    results.reopen(table, director, "the sheet was wrong")
    interventions.mark_absent(table, people[0], director, "went home")
    assert seated(table) == people[1:]


def test_the_directors_stop_is_taken_back_by_a_director_only(tournament, director, client):
    """The console's undo beside the panel does not offer a referee the director's stop, and the server
    refuses it from him (undo or void); the director may take it back."""
    tournament.game_rounds = None
    tournament.save()
    tournament.directors.add(director)
    round_ = rounds.seat_next_round(tournament)
    rounds.start_round(round_)
    table = round_.tables.get(number=1)
    referee = User.objects.create_user("ref", password="pw")
    referee.groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])
    table.referees.add(referee)
    game = rounds.start_table_game(table, [p.pk for p in seated(table)], user=director)
    game = recording.submit(
        game.pk,
        {"type": "roll", "player": recording.current_state(game).players[0].id, "dice": [1, 2]},
        version=game.version,
    ).game
    interventions.stop_game(table, director, "the schedule")
    game.refresh_from_db()
    stop = game.events.last()
    client.force_login(referee)
    state_url = reverse("console_state", args=[game.pk])
    position = client.get(state_url).json()
    assert position["screen"]["game"]["finished"] if "screen" in position else True
    assert position["undo"] is None  # the referee is offered no undo of the director's stop
    undo = {
        "client_key": "dev.u",
        "version": game.version,
        "kind": "undo",
        "reason": "we play on",
        "waiting": 1,
    }
    sync = reverse("console_sync", args=[game.pk])
    refused = client.post(sync, json.dumps(undo), content_type="application/json").json()
    assert "only a director takes the stop back" in refused["message"]
    void = client.post(
        reverse("console_void", args=[game.pk, stop.seq]),
        {"version": game.version, "reason": "we play on"},
        follow=True,
    )
    assert "only a director takes the stop back" in void.content.decode()
    stop.refresh_from_db()
    assert stop.status == "active"
    client.force_login(director)
    assert client.get(state_url).json()["undo"]["seq"] == stop.seq
    done = client.post(
        sync,
        json.dumps({**undo, "client_key": "dir.u", "reason": "stopped by mistake"}),
        content_type="application/json",
    )
    assert done.json()["ok"]
    stop.refresh_from_db()
    assert stop.status == "undone"
