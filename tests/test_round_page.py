"""The director's round page, through Django's test client: who waits for what (results to confirm, tables
at play with their round of play, tables not started, tables without a referee), a result confirmed there with
one button (refused while the game is not over; a second confirmation by another person), the warning for a
table one player is left at, the swap form's labels, the Anti-Monopoly roles, and a query count that does not
grow with the tables."""

import re
from html import unescape as html_unescape

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rules.simulate import simulate
from tests.accounts import signed_in_director  # noqa: F401 (the fixture director, signed in)
from tests.tournaments import start_game
from tournament.event import check_in, interventions, results, rounds, signatures
from tournament.games import recording
from tournament.models import Participant, Tournament
from tournament.people.access import REFEREES_GROUP

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(referee):
    """conftest's referee, in the referees' group as the accounts a director adds are
    (tournament.people.referee_accounts)."""
    referee.groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])
    return referee


def make_tournament(director, players=12, **settings):
    t = Tournament.objects.create(
        name="Cup", rounds=2, game_rounds=3, table_size=4, seed=5, created_by=director, **settings
    )
    for i in range(players):
        Participant.objects.create(tournament=t, name=f"P{i:02}")
    return t


def play(table, referee, until_round=None):
    """Start the table's game and enter a simulated game's moves: all of them, or until its round of play
    ``until_round`` has begun."""
    seats = list(table.seats.all())
    tournament = table.round.tournament
    game = rounds.start_table_game(table, [s.participant_id for s in seats], user=referee)
    record = simulate(tournament.variant, tournament.board, len(seats), seed=table.pk, rounds=3)
    for ev in record["events"]:
        if until_round is not None and recording.current_state(game).round >= until_round:
            break
        game = recording.submit(game.pk, ev, version=game.version).game
    return game


def text_of(html: str) -> str:
    """HTML as read: tags dropped, white space collapsed."""
    return html_unescape(re.sub(r"\s+([,)])", r"\1", re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))))


def text(response) -> str:
    return text_of(response.content.decode())


def summary(response) -> str:
    """The round page's summary: who waits for what."""
    return text_of(response.content.decode().split('class="card waiting-for"')[1].split("</section>")[0])


def card(response, number) -> str:
    html = response.content.decode()
    return html.split(f'id="table-{number}"')[1].split("</article>")[0]


@pytest.fixture
def round_in_play(director, referee):
    """Three tables: 1 over (its referee: ``referee``), 2 at play in round of play 2 of 3, 3 not started."""
    t = make_tournament(director)
    round_ = rounds.seat_next_round(t)
    t1, t2, t3 = round_.tables.order_by("number")
    t1.referees.add(referee)
    rounds.start_round(round_)
    assert recording.current_state(play(t1, referee)).finished
    assert recording.current_state(play(t2, referee, until_round=2)).round == 2
    return round_


def test_the_summary_says_who_waits_for_what(client, director, round_in_play):
    url = reverse("round", args=[round_in_play.tournament_id, 1])
    response = client.get(url)
    said = summary(response)
    assert "1 result to confirm: table 1" in said
    assert "1 table in play: table 2 (round 2 of 3)" in said
    assert "1 table not started: table 3" in said
    assert "2 tables without a referee: table 2, table 3" in said
    assert "0 of 3 results confirmed" in said
    assert "in play: round 2 of 3" in text_of(card(response, 2))
    assert "no referee" in text_of(card(response, 2)) and "no referee" not in text_of(card(response, 1))
    assert "Confirm the result" in card(response, 1)  # the game is over: one button
    html = response.content.decode()  # its form outside the referees' form, which holds the tables
    assert 'form="confirm-1"' in card(response, 1)
    assert html.index('id="confirm-1"') < html.index('id="referees"')
    assert "Confirm" not in card(response, 2) and "Confirm" not in card(response, 3)
    ranking = results.table_ranking(round_in_play.tables.get(number=1))
    assert all(row["name"] in card(response, 1) for row in ranking)  # what is confirmed is in sight


def test_a_result_confirmed_from_the_round_page_and_refused_while_a_game_goes_on(
    client, director, round_in_play
):
    pk = round_in_play.tournament_id
    round_url = reverse("round", args=[pk, 1])
    response = client.post(reverse("table_confirm", args=[pk, 1, 2]), {"next": "round"})
    assert response.status_code == 302 and response["Location"] == round_url
    page = client.get(round_url)
    assert "The game is not over yet" in text(page)  # the refusal, in the page the director came from
    response = client.post(reverse("table_confirm", args=[pk, 1, 3]), {"next": "round"}, follow=True)
    assert "This table's game has not started." in text(response)
    assert not results.current_result(round_in_play.tables.get(number=2))
    assert not results.current_result(round_in_play.tables.get(number=3))

    response = client.post(reverse("table_confirm", args=[pk, 1, 1]), {"next": "round"}, follow=True)
    assert "Result confirmed." in text(response)
    table1 = round_in_play.tables.get(number=1)
    assert results.current_result(table1).counts(round_in_play.tournament)
    said = summary(response)
    assert "1 of 3 results confirmed" in said and "to confirm" not in said
    assert "result confirmed" in text_of(card(response, 1)) and "Confirm" not in card(response, 1)
    # without ``next`` (the table page's own button) it goes back to the table page, as before
    response = client.post(reverse("table_confirm", args=[pk, 1, 1]))
    assert response["Location"] == reverse("table", args=[pk, 1, 1])


def test_a_second_confirmation_by_another_person(client, director, referee, round_in_play):
    tournament = round_in_play.tournament
    tournament.second_confirmation = True
    tournament.save()
    pk, table1 = tournament.pk, round_in_play.tables.get(number=1)
    confirm = reverse("table_confirm", args=[pk, 1, 1])
    response = client.post(confirm, {"next": "round"}, follow=True)
    assert "it counts once another person confirms it too" in text(response)
    said = summary(response)
    assert "1 result awaits a second confirmation: table 1" in said and "0 of 3 results confirmed" in said
    mine = card(response, 1)
    assert "awaiting second confirmation" in mine and "table_confirm" not in mine and "<button" not in mine
    assert "not the one who confirmed it first" in mine
    client.post(confirm, {"next": "round"})  # the same person again (a stale page): no second confirmation
    assert not results.current_result(table1).counts(tournament)

    client.force_login(referee)  # the table's referee sees the round page and confirms as the second person
    response = client.get(reverse("round", args=[pk, 1]))
    assert "Confirm as the second person" in card(response, 1)
    assert "Confirm" not in card(response, 2)  # not his table
    response = client.post(confirm, {"next": "round"}, follow=True)
    assert "Result confirmed." in text(response) and "1 of 3 results confirmed" in summary(response)
    assert results.current_result(table1).counts(tournament)


@pytest.mark.parametrize(("language", "label"), [("en", "Order of play"), ("pl", "Kolejność gry")])
def test_a_tables_players_are_numbered_in_its_games_order_of_play_once_it_starts(
    client, director, referee, language, label
):
    """The order the referee gave when he started the game, not the seating's; a table not started lists its
    players unnumbered (no order of play yet)."""
    t = make_tournament(director, players=8)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get(number=1)
    seating = [s.participant for s in table.seats.all()]
    order = seating[1:] + seating[:1]  # each one's place in the game differs from his place in the seating
    rounds.start_table_game(table, [p.pk for p in order], user=referee)
    response = client.get(reverse("round", args=[t.pk, 1]), HTTP_ACCEPT_LANGUAGE=language)
    started, waiting = card(response, 1), card(response, 2)
    listed = re.search(rf'<ol class="order-of-play" aria-label="{label}">(.*?)</ol>', started, re.S).group(1)
    assert re.findall(r"<li>(P\d\d) ", listed) == [p.name for p in order]
    assert "<ol" not in waiting and "order-of-play" not in waiting
    seated = [s.participant.name for s in round_.tables.get(number=2).seats.select_related("participant")]
    assert re.findall(r"<li>(P\d\d) ", waiting.split("<ul>")[1].split("</ul>")[0]) == seated


def test_a_table_one_player_is_left_at_is_pointed_out(client, director):
    t = make_tournament(director, players=8)
    round_ = rounds.seat_next_round(t)
    url = reverse("round", args=[t.pk, 1])
    assert "has one player left" not in text(client.get(url))
    table = round_.tables.get(number=2)
    for seat in list(table.seats.all())[:3]:
        interventions.mark_absent(table, seat.participant, director, "did not come")
    said = text(client.get(url))
    assert "Table 2 has one player left: move that player to another table or seat the round again." in said
    assert "Table 1 has one player left" not in said


def test_the_swap_selects_are_labelled_in_the_users_language(client, director):
    t = make_tournament(director, players=8)
    rounds.seat_next_round(t)
    html = client.get(reverse("round", args=[t.pk, 1]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    form = html.split(reverse("round_swap", args=[t.pk, 1]))[1].split("</form>")[0]
    labels = dict(re.findall(r'<label for="([^"]+)">([^<]*)</label>', form))
    selects = re.findall(r'<select name="(a|b)"[^>]* id="([^"]+)"', form)
    named = [(name, labels[id_]) for name, id_ in selects]
    assert named == [("a", "Gracz"), ("b", "zamienia się stolikami z")]


def test_anti_monopoly_roles_are_on_the_round_page_and_the_seating_before_the_game(client, director):
    t = make_tournament(director, players=8, variant="anti-monopoly", board="anti-monopoly-us")
    round_ = rounds.seat_next_round(t)
    seats = [s for table in round_.tables.all() for s in table.seats.select_related("participant")]
    assert {s.role for s in seats} == {"competitor", "monopolist"}
    html = client.get(reverse("round", args=[t.pk, 1])).content.decode()
    public = client.get(reverse("round_seating", args=[t.pk, 1])).content.decode()
    for s in seats:
        letter = s.role[0].upper()
        badge = f'<span class="role-badge role-{s.role}"><b aria-hidden="true">{letter}</b> {s.role}'
        entry = html.split(f"{s.participant.name} ", 1)[1]
        assert entry.startswith(badge), entry[:200]
        assert public.count(f"{s.participant.name} {badge}") == 2  # in "find your table" and at the table
    polish = client.get(reverse("round_seating", args=[t.pk, 1]), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert '<b aria-hidden="true">P</b> Przedsiębiorca' in polish
    assert '<b aria-hidden="true">M</b> Monopolista' in polish
    classic = make_tournament(director, players=8)
    rounds.seat_next_round(classic)
    assert "role-badge" not in client.get(reverse("round", args=[classic.pk, 1])).content.decode()


def test_a_referees_tables_show_the_roles(client, director, referee):
    t = make_tournament(director, players=8, variant="anti-monopoly", board="anti-monopoly-us")
    round_ = rounds.seat_next_round(t)
    round_.tables.get(number=1).referees.add(referee)
    client.force_login(referee)
    html = client.get(reverse("my_tables")).content.decode()
    for s in round_.tables.get(number=1).seats.select_related("participant"):
        assert f'{s.participant.name} <span class="role-badge role-{s.role}">' in html


def test_the_round_pages_queries_do_not_grow_with_its_tables(client, director, referee):
    def queries(players):
        t = make_tournament(director, players=players)
        round_ = rounds.seat_next_round(t)
        for table in round_.tables.all():
            table.referees.add(referee)
        rounds.start_round(round_)
        for table in round_.tables.order_by("number")[:2]:
            game = play(table, referee)  # two tables over: their rankings shown, a player disputing each
            player = Participant.objects.get(pk=next(iter(signatures.players_of(game))))
            signatures.sign(player, table, agrees=False, reason="?", version=game.version)
        with CaptureQueriesContext(connection) as seen:
            assert client.get(reverse("round", args=[t.pk, 1])).status_code == 200
        return len(seen)

    few, many = queries(8), queries(24)  # 2 tables, then 6
    # 24, and the trade flags' reading (tournament.reports.trade_flags): the games' players, their moves;
    # their reviews when there is a flag
    assert few == many and many <= 27, (few, many)


def test_a_game_b_waiting_for_its_final_rolls_says_so_on_the_table_and_round_pages(client, director, referee):
    """Anti-Monopoly Game B over, the utilities' final rolls not recorded: both pages say what is missing
    (not "the game is not over yet"), and no confirm button is offered."""
    t = make_tournament(
        director, players=4, variant="anti-monopoly", board="anti-monopoly-us", ending="game_b"
    )
    t.game_rounds = 60
    t.save()
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    game = start_game(table, referee)
    roles = [p.role for p in game.players.order_by("seat")]
    for seed in range(1, 40):
        events = simulate(t.variant, t.board, 4, seed, rounds=60, options={"ending": "game_b"}, roles=roles)[
            "events"
        ]
        if events[-1]["type"] == "final_roll":
            break
    for ev in events[: next(i for i, e in enumerate(events) if e["type"] == "final_roll")]:
        game = recording.submit(game.pk, ev, version=game.version).game
    assert recording.current_state(game).finished
    for url in (reverse("table", args=[t.pk, 1, 1]), reverse("round", args=[t.pk, 1])):
        text = html_unescape(client.get(url).content.decode())
        assert "record the final roll for each utility" in text and "The game is not over yet" not in text
        assert "Confirm the result" not in text


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            {
                "disputed": "1 result disputed, the director rules: table 1",
                "unsigned": "1 result waits for signatures: table 2 ({names})",
                "left out": "1 participant not seated in this round: P08 (did not check in)",
                "pill 1": "game over: result disputed",
                "pill 2": "game over: awaiting signatures",
                "why 1": "A player disputes the figures ({name}: a rent was not paid): the director rules.",
                "why 2": "Waiting for the players' signatures: {names}.",
                "rule": "Rule on the table's page",
            },
        ),
        (
            "pl",
            {
                "disputed": "1 wynik zakwestionowany, rozstrzyga dyrektor: stolik 1",
                "unsigned": "1 wynik czeka na podpisy: stolik 2 ({names})",
                "left out": "1 uczestnik bez stolika w tej rundzie: P08 (bez potwierdzenia obecności)",
                "pill 1": "koniec gry: wynik zakwestionowany",
                "pill 2": "koniec gry: czeka na podpisy",
                "why 1": "Gracz kwestionuje wyniki ({name}: a rent was not paid): rozstrzyga dyrektor.",
                "why 2": "Czekamy na podpisy graczy: {names}.",
                "rule": "Rozstrzygnij na stronie stolika",
            },
        ),
    ],
)
def test_a_dispute_the_signatures_awaited_and_who_was_left_out_are_on_the_round_page(
    client, director, referee, language, said
):
    """The director learns on the round page, not from a refused Confirm, that a player disputes a table's
    figures, whose signatures a table waits for, and who the round left out for not checking in."""
    t = make_tournament(director, players=9, check_in=True, signatures_required=True)
    for p in t.participants.exclude(name="P08"):
        check_in.check_in(p)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    t1, t2 = round_.tables.order_by("number")
    g1, g2 = play(t1, referee), play(t2, referee)
    disputer = next(iter(signatures.players_of(g1).items()))
    for pk in signatures.players_of(g1):
        p = Participant.objects.get(pk=pk)
        signatures.sign(p, t1, agrees=pk != disputer[0], reason="a rent was not paid", version=g1.version)
    second = list(signatures.players_of(g2).items())
    for pk, _name in second[:2]:
        signatures.sign(Participant.objects.get(pk=pk), t2, agrees=True, reason="", version=g2.version)
    awaited = ", ".join(name for _pk, name in second[2:])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    response = client.get(reverse("round", args=[t.pk, 1]))
    words = summary(response)
    assert said["disputed"] in words and said["unsigned"].format(names=awaited) in words
    assert said["left out"] in words
    assert "to confirm:" not in words and "do zatwierdzenia:" not in words  # nothing a Confirm would take
    one, two = text_of(card(response, 1)), text_of(card(response, 2))
    assert said["pill 1"] in one and said["why 1"].format(name=disputer[1]) in one and said["rule"] in one
    assert said["pill 2"] in two and said["why 2"].format(names=awaited) in two
    assert 'form="confirm-' not in card(response, 1) + card(
        response, 2
    )  # the round page's Confirm: not offered


def test_a_participant_marked_absent_is_not_said_to_be_left_out(client, director, referee):
    """Marked absent at a table (seat taken away, in the director's log): not "not seated" on the round page,
    though checked in; once the round is over nobody is listed (it can no longer be seated again)."""
    t = make_tournament(director, players=8, check_in=True)
    for p in t.participants.all():
        check_in.check_in(p)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get(number=1)
    absent = table.seats.first().participant
    interventions.mark_absent(table, absent, director, "did not come")
    said = summary(client.get(reverse("round", args=[t.pk, 1])))
    assert "not seated in this round" not in said and absent.name not in said
    Participant.objects.create(tournament=t, name="Late")
    said = summary(client.get(reverse("round", args=[t.pk, 1])))
    assert "1 participant not seated in this round: Late (did not check in)" in said
    round_.status = round_.Status.FINISHED
    round_.save()
    assert "not seated" not in summary(client.get(reverse("round", args=[t.pk, 1])))
