"""A table's final figures have one source (tournament.reports.TableReport.final): for every kind of ending —
played to the end with bankruptcies, stopped by the director, entered by hand, a player absent — the
workbook's Standings sheet agrees with its Results sheet, with the result sheet PDF and with the public
standings page; and what the sheet says is what happened (the director's stop and its reason, the absent,
the times, the remarks box, who confirmed). Results by hand: checked, reviewed, and kept on reopen."""

import re
from io import BytesIO

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from rules.simulate import simulate
from tournament.errors import RoundError
from tournament.event import current_standings, interventions, results, rounds
from tournament.exports.blank_sheets import blank_table_sheet_pdf
from tournament.exports.ledger_cards import game_entries, ledger_cards_pdf
from tournament.exports.result_sheets import result_sheets_pdf
from tournament.exports.workbook import tournament_workbook
from tournament.games import recording
from tournament.models import Participant, TableResult, Tournament
from tournament.people.access import DIRECTORS_GROUP
from tournament.reports.rounds import table_report, tournament_report
from tournament.reports.tables import FROM_GAME, FROM_RESULT

from .pdf_pages import pages_text, save

pytestmark = pytest.mark.django_db

STOP_REASON = "the hall closes at six"
ABSENT_1, ABSENT_3 = "did not come by 10:15", "ill"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def director():
    user = User.objects.create_user("boss", password="pw", first_name="Anna", last_name="Sędzia")
    user.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
    return user


def seated(table):
    return [s.participant for s in table.seats.order_by("order")]


def submit_all(game, events):
    for ev in events:
        game = recording.submit(game.pk, ev, version=game.version).game
    return game


@pytest.fixture
def endings(director):
    """Round 1 of three tables: table 1 plays to the end (two bankruptcies) without its absent player;
    table 2's game is stopped by the director; table 3 plays on paper without its absent player, its result
    entered by hand. Tables 1 and 3 are confirmed; table 1 is looked at before its confirmation too."""
    t = Tournament.objects.create(name="Cup", rounds=2, game_rounds=400, seed=5, table_size=4)
    t.directors.add(director)
    for i in range(12):
        Participant.objects.create(tournament=t, name=f"P{i:02}")
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    t1, t2, t3 = (round_.tables.get(number=n) for n in (1, 2, 3))
    for table in (t1, t2, t3):
        table.referees.add(director)
    interventions.mark_absent(t1, seated(t1)[0], director, ABSENT_1)
    game = rounds.start_table_game(t1, [p.pk for p in seated(t1)], user=director)
    game = submit_all(game, simulate(t.variant, t.board, 3, seed=3, rounds=400)["events"])
    assert game.status == "finished"
    provisional = table_report(t1)
    results.confirm(t1, director)
    game = rounds.start_table_game(t2, [p.pk for p in seated(t2)], user=director)
    submit_all(game, simulate(t.variant, t.board, 4, seed=4, rounds=400)["events"][:30])
    interventions.stop_game(t2, director, STOP_REASON)
    interventions.mark_absent(t3, seated(t3)[3], director, ABSENT_3)
    a, b, c = seated(t3)
    interventions.enter_result(t3, {a.pk: (1, 2100), b.pk: (2, 1800), c.pk: (2, 1800)}, director, "paper")
    return t, provisional


def test_a_finished_game_before_its_confirmation_is_provisional(endings):
    _t, report = endings
    assert report.source == FROM_GAME and report.result is None
    assert [r.rank for r in report.players] == [1, 2, 3]
    assert sum(r.bankrupt for r in report.final) == 2
    assert [r.absent for r in report.final] == [False, False, False, True]
    with translation.override("en"):
        text = pages_text(result_sheets_pdf(report.table.round.tournament, [report]))[0]
    assert "not confirmed: the figures below are the game's, provisional until confirmed" in text


def _rows(ws):
    return list(ws.iter_rows(min_row=2, values_only=True))


def test_standings_results_sheets_and_page_agree_for_every_ending(client, endings):
    t, _provisional = endings
    results.confirm(t.round_set.get().tables.get(number=2), t.directors.get())  # the stopped game counts too
    report = tournament_report(t)
    tables = report.rounds[0].tables
    assert [x.source for x in tables] == [FROM_RESULT] * 3
    book = load_workbook(BytesIO(tournament_workbook(report)))
    standings, rows = _rows(book["Standings"]), _rows(book["Results"])

    # Results: one row per person of each table, the table's final figures (the stored ranking)
    stored = {(g.participant, g.round): g for g in current_standings.game_scores(t)}
    names = {p.name: p.pk for p in t.participants.all()}
    assert len(rows) == 12
    for row in rows:
        pk = names[row[3]]
        rank, score, bankrupt, absent, points, counts = row[5], row[6], row[12], row[13], row[14], row[16]
        if absent == "Yes":
            assert (rank, score, points, counts) == (None, None, 0, "No") and (pk, 1) not in stored
        else:
            g = stored[(pk, 1)]
            assert (rank, score, points, counts) == (g.rank, g.score, g.points, "Yes")
            assert bankrupt == "No" or score == 0
    assert sorted(r[3] for r in rows if r[13] == "Yes") == sorted(
        a.participant.name for x in tables for a in x.absent
    )
    assert [r[12] for r in rows if r[1] == 1].count("Yes") == 2  # the two bankruptcies
    ends = {r[1]: r[18] for r in rows}
    assert ends[1] == "only one player is left"
    assert ends[2] == f"stopped by the director Anna Sędzia: “{STOP_REASON}”" and "time limit" not in ends[2]
    assert ends[3] == "no game in the app: the result was entered by hand"

    # Standings: the sums of the Results rows that count
    for s in standings:
        mine = [r for r in rows if r[3] == s[1] and r[16] == "Yes"]
        assert s[3] == sum(r[14] for r in mine)  # points
        assert s[4] == sum(r[6] for r in mine)  # total score
        assert s[6] == len(mine)  # games
        assert s[7] == (mine[0][14] if mine else None)  # round 1
    # the public standings page shows the same
    page = client.get(reverse("standings", args=[t.pk])).content.decode()
    shown = {}
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", page, re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
        if cells:
            shown[cells[1]] = (int(cells[0]), int(cells[3]), int(cells[4]))
    assert shown == {s[1]: (s[0], s[3], s[4]) for s in standings}

    # The result sheets: the same figures, a line per player, the absent named, signatures for who played
    pdf = result_sheets_pdf(t, tables)
    save(pdf, "result-sheets-every-ending")
    texts = pages_text(pdf)
    for x, text in zip(tables, texts, strict=True):
        lines = text.splitlines()
        for r in x.players:
            row = next(line for line in lines if line.startswith(f"{r.rank} {r.name}"))
            assert row.endswith(f"{r.score} {r.points}"), row
            assert f"{r.name} · player" in text
        for a in x.absent:
            assert f"{a.participant.name} (absent: not ranked, 0" in text
            assert f"{a.participant.name} (“{a.reason}”)" in text  # and why, in the head
            assert f"{a.participant.name} · player" not in text
        assert "Remarks and protests" in text and "Confirmed by Anna Sędzia" in text
        assert "Start – end" in text
    assert f"finished: stopped by the director Anna Sędzia: “{STOP_REASON}”" in texts[1]
    assert "time limit" not in texts[1]
    assert re.search(r"Start – end \d\d:\d\d – \d\d:\d\d \(\d+ min\)", texts[1])
    assert "This table's game has not started" not in texts[2]
    assert "entered by hand: “paper”" in texts[2]


def test_hand_results_are_checked_against_the_places(endings):
    t, _r = endings
    players = [(1, "Ala", ""), (2, "Bob", ""), (3, "Cyd", ""), (4, "Dan", "")]
    points = t.placement_points

    def rows(places, **kw):
        return interventions.hand_rows(players, dict(zip((1, 2, 3, 4), places, strict=True)), points, **kw)

    with pytest.raises(RoundError, match="Bob \\(place 2\\) scores less than Dan \\(place 4\\)"):
        rows([(1, 24000), (2, 900), (3, 800), (4, 1200)])  # the 4th above the 2nd and 3rd
    with pytest.raises(RoundError, match="share place 2 with different scores"):
        rows([(1, 2000), (2, 900), (2, 800), (4, 100)])
    with pytest.raises(RoundError, match="from 0 to 1000"):
        rows([(1, 1001), (2, 900), (3, 800), (4, 100)], ceiling=1000)
    with pytest.raises(RoundError, match="Dan went bankrupt in the game: a score of 0"):
        rows([(1, 2000), (2, 900), (3, 800), (4, 100)], bankrupt={4})
    with pytest.raises(RoundError, match="Cyd went bankrupt in the game: ranked below"):
        rows([(1, 2000), (2, 900), (3, 0), (4, 0)], bankrupt={3})
    with pytest.raises(RoundError, match="Cyd went bankrupt in the game: ranked below"):
        rows([(1, 2000), (2, 900), (3, 0), (3, 0)], bankrupt={3})  # sharing a place with one still in
    ok = rows([(1, 2000), (2, 900), (2, 900), (4, 0)], bankrupt={4})
    assert [(r["rank"], r["points"]) for r in ok] == [(1, 4), (2, 2), (2, 2), (4, 0)]
    # the ceiling: ten times the game's money and property (classic-pl, 4 players)
    assert interventions.score_ceiling(t, 4) == 10 * (4 * 1500 + 5690 + 5 * 2750)
    # a hand result over the stopped game: its players, checked against it
    table = t.round_set.get().tables.get(number=2)
    places = {p.pk: (i + 1, 1000 - i) for i, p in enumerate(seated(table))}
    assert len(interventions.hand_ranking(table, places)) == 4


def test_the_review_step_and_a_reopen_keep_the_values(client, director):
    t = Tournament.objects.create(name="Cup", rounds=1, seed=5, table_size=4)
    t.directors.add(director)
    for i in range(4):
        Participant.objects.create(tournament=t, name=f"P{i:02}")
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    people = seated(table)
    client.force_login(director)
    url = reverse("table_hand_result", args=[t.pk, 1, 1])
    form = {"reason": "played on paper"}
    for i, p in enumerate(people):
        form |= {f"place_{p.pk}": str(i + 1), f"score_{p.pk}": str(3000 - 500 * i)}
    bad = {**form, f"score_{people[3].pk}": "2900"}  # the 4th above the 2nd
    page = client.post(url, bad).content.decode()
    said = f"{people[1].name} (place 2) scores less than {people[3].name} (place 4)"
    assert said in page and not TableResult.objects.exists()
    page = client.post(url, form).content.decode()
    assert "Check the result before it counts" in page and not TableResult.objects.exists()
    assert f'<td>1</td><td class="name">{people[0].name} </td><td class="figure">3000</td>' in page
    page = client.post(url, {**form, "edit": "1"}).content.decode()  # back to the form, values kept
    assert f'name="score_{people[1].pk}" value="2500"' in page and "Check the result before" not in page
    assert client.post(url, {**form, "confirm": "1"}).status_code == 302
    table_page = client.get(reverse("table", args=[t.pk, 1, 1])).content.decode()
    assert '<label for="id_reason">Why is the result reopened?</label>' in table_page
    client.post(reverse("table_reopen", args=[t.pk, 1, 1]), {"reason": "P01 and P02 swapped"})
    assert results.current_result(table) is None
    page = client.get(url).content.decode()
    assert "The values of the reopened result are filled in" in page
    for i, p in enumerate(people):
        assert f'name="place_{p.pk}" value="{i + 1}"' in page
        assert f'name="score_{p.pk}" value="{3000 - 500 * i}"' in page
    assert 'value="played on paper"' in page and '<label for="hand-reason">' in page


def test_anti_monopoly_roles_on_the_backup_sheet_the_cards_and_the_result_sheet(director):
    """Known from the seating, before the game starts: each role printed with its own mark."""
    t = Tournament.objects.create(
        name="Anti", rounds=1, table_size=4, seed=3, variant="anti-monopoly", board="anti-monopoly-us"
    )
    for name in ["Ala", "Bob", "Cyd", "Dan"]:
        Participant.objects.create(tournament=t, name=name)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    roles = {s.participant.name: s.role for s in table.seats.select_related("participant")}
    mark = {"competitor": "▲ competitor", "monopolist": "■ monopolist"}
    with translation.override("en"):
        blank = "\n".join(pages_text(blank_table_sheet_pdf(t, table_report(table))))
        for name, role in roles.items():
            assert f"{name} {mark[role]}" in blank
        rounds.start_table_game(table, [p.pk for p in seated(table)], user=director)
        report = table_report(table)
        cards = ledger_cards_pdf(t, game_entries(report.game), "Cards")
        sheet = result_sheets_pdf(t, [report])
    save(cards, "anti-monopoly-cards")
    save(sheet, "anti-monopoly-sheet")
    cards_text, sheet_text = "\n".join(pages_text(cards)), pages_text(sheet)[0]
    for name, role in roles.items():
        assert f"{name} {mark[role]}" in cards_text and f"{name} {mark[role]}" in sheet_text


def test_a_result_by_hand_over_a_game_left_in_play_says_so(director):
    """A table whose tablet died mid-game: the game left in the app at round N, the result typed from paper.
    The sheet and the workbook say so (not "in play"), the figures that count are the typed ones, and the
    net worth's parts beside them are said to be the app's game's."""
    t = Tournament.objects.create(name="Cup", rounds=1, game_rounds=400, seed=5, table_size=4)
    t.directors.add(director)
    for i in range(4):
        Participant.objects.create(tournament=t, name=f"P{i:02}")
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    game = rounds.start_table_game(table, [p.pk for p in seated(table)], user=director)
    game = submit_all(game, simulate(t.variant, t.board, 4, seed=4, rounds=400)["events"][:30])
    assert game.status != "finished"
    typed = {p.pk: (i + 1, 3000 - 500 * i) for i, p in enumerate(seated(table))}
    interventions.enter_result(table, typed, director, "tablet died")
    report = table_report(table)
    assert report.source == FROM_RESULT and [r.score for r in report.final] == [3000, 2500, 2000, 1500]
    said = f"left in the app at round {report.game.round}: the result was entered by hand"
    text = pages_text(result_sheets_pdf(t, [report]))[0]
    assert said in text and "in play" not in text
    assert "the net worth's parts are the game's in the app" in " ".join(text.split())
    book = load_workbook(BytesIO(tournament_workbook(tournament_report(t))))
    assert {r[18] for r in _rows(book["Results"])} == {said}
    assert {g.score for g in current_standings.game_scores(t)} == {3000, 2500, 2000, 1500}
