"""The trade flags on the Django side: listed on the table and round pages (directors only) with a link to the
replay at the move, marked seen with a note (refused: an unknown flag, a note too long, another than the
tournament's director), in the workbook's 'Flagged trades' sheet and carried by the backup."""

import json
from io import BytesIO

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from rules.trade_flags import pair_key
from tests.trade_flag_sims import flagged_table, play_gifts
from tournament.event import results, rounds
from tournament.exports.workbook import tournament_workbook
from tournament.files import backup
from tournament.files.backup.reading import read_values
from tournament.models import Game, TradeFlagReview
from tournament.reports.rounds import tournament_report
from tournament.reports.trade_flags import flags_of_round, flags_of_tournament, replay_url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def table(director):
    """A one-table tournament whose game has a large gift (seat 1 to seat 2) in it."""
    return flagged_table(director)


def the_flag(table):
    (flag,) = [f for f in flags_of_round(table.round) if f.flag.kind == "large"]
    return flag


def test_the_table_page_lists_the_flag_with_its_figures_and_the_replay_link(client, director, table):
    flag = the_flag(table)
    assert flag.key == f"large:r1:t1:s{flag.flag.seq}" and flag.flag.value > flag.flag.threshold >= 300
    assert (
        flag.url
        == replay_url(table.game.pk, flag.flag.seq)
        == f"/games/{table.game.pk}/replay/?move={flag.flag.seq}"
    )
    client.force_login(director)
    # the replay it opens stands just after the trade: the trade is the move shown, and its last
    replay = client.get(flag.url)
    assert replay.status_code == 200 and replay.context["seq"] == flag.flag.seq
    assert replay.context["replay"]["moves"][replay.context["at"] - 1]["seq"] == flag.flag.seq
    page = client.get(reverse("table", args=[table.round.tournament.pk, 1, table.number])).content.decode()
    assert "Flagged trades" in page and f'href="{flag.url}"' in page and "not seen yet" in page
    assert f"{flag.flag.value} moved" in page and f"more than {flag.flag.threshold}" in page
    round_page = client.get(reverse("round", args=[table.round.tournament.pk, 1])).content.decode()
    assert f'id="flag-{flag.key}"' in round_page


def test_the_director_marks_it_seen_with_a_note(client, director, table):
    flag, t = the_flag(table), table.round.tournament
    client.force_login(director)
    back = reverse("table", args=[t.pk, 1, table.number])
    url = reverse("trade_flag_seen", args=[t.pk])
    r = client.post(url, {"key": flag.key, "note": "Asked both: a mistake", "back": back})
    assert r.status_code == 302 and r.url == back
    review = TradeFlagReview.objects.get(tournament=t, key=flag.key)
    assert (review.note, review.seen_by) == ("Asked both: a mistake", director)
    page = client.get(back).content.decode()
    assert "seen by" in page and "Asked both: a mistake" in page and "not seen yet" not in page
    client.post(url, {"key": flag.key, "note": "Settled", "back": "https://evil.example/"})
    assert TradeFlagReview.objects.get(tournament=t, key=flag.key).note == "Settled"  # once a key


def test_an_unknown_flag_or_a_note_too_long_is_refused_and_nothing_saved(client, director, table):
    flag, t = the_flag(table), table.round.tournament
    client.force_login(director)
    url = reverse("trade_flag_seen", args=[t.pk])
    r = client.post(url, {"key": "large:r1:t1:s99999", "note": "x"}, follow=True)
    assert "There is no such flagged trade in this tournament" in r.content.decode()
    r = client.post(url, {"key": flag.key, "note": "x" * 201}, follow=True)
    assert "The note is too long: at most 200 characters, not 201" in r.content.decode()
    assert not TradeFlagReview.objects.exists()


def test_only_the_tournaments_directors_see_and_mark_flags(client, referee, table):
    flag, t = the_flag(table), table.round.tournament
    table.referees.add(referee)
    client.force_login(referee)
    page = client.get(reverse("table", args=[t.pk, 1, table.number])).content.decode()
    assert "Flagged trades" not in page
    r = client.post(reverse("trade_flag_seen", args=[t.pk]), {"key": flag.key, "note": ""})
    assert r.status_code == 403 and not TradeFlagReview.objects.exists()
    other = User.objects.create_user("other", password="pw", is_staff=False)
    client.force_login(other)
    assert client.post(reverse("trade_flag_seen", args=[t.pk]), {"key": flag.key}).status_code == 403


def test_the_workbook_has_the_flagged_trades_sheet(director, table):
    flag, t = the_flag(table), table.round.tournament
    TradeFlagReview.objects.create(tournament=t, key=flag.key, note="=seen", seen_by=director)
    book = load_workbook(BytesIO(tournament_workbook(tournament_report(t))))
    rows = list(book["Flagged trades"].iter_rows(values_only=True))
    row = next(r for r in rows[1:] if r[-1] == flag.key)
    assert row[:4] == (1, 1, flag.flag.seq, "large value moved")
    assert row[6:10] == (flag.flag.value, flag.passed, "director", "=seen")  # the page's words, the same
    assert row[7].startswith(f"more than {flag.flag.threshold} (")


def test_the_backup_carries_the_reviews_and_reads_one_without_them(director, table):
    flag, t = the_flag(table), table.round.tournament
    TradeFlagReview.objects.create(tournament=t, key=flag.key, note="seen", seen_by=director)
    TradeFlagReview.objects.create(tournament=t, key="pair:p1:p2", note="")
    first, second = (p.pk for p in t.participants.order_by("pk")[:2])
    TradeFlagReview.objects.filter(key="pair:p1:p2").update(key=f"pair:p{first}:p{second}")
    data = json.loads(backup.dumps(backup.export_tournament(t)))
    assert [r["key"] for r in data["trade_flag_reviews"]] == sorted([flag.key, f"pair:p{first}:p{second}"])
    wrong = {**data, "trade_flag_reviews": [{**data["trade_flag_reviews"][0], "key": "large:x"}]}
    with pytest.raises(backup.BackupError, match="no flagged trade's key"):
        read_values(wrong)
    Game.objects.all().delete()
    t.delete()
    restored = backup.import_tournament(data)
    news = sorted(p.pk for p in restored.participants.order_by("pk")[:2])
    keys = set(TradeFlagReview.objects.filter(tournament=restored).values_list("key", flat=True))
    assert keys == {flag.key, f"pair:p{news[0]}:p{news[1]}"}
    assert [f.key for f in flags_of_round(restored.round_set.get(number=1)) if f.review] == [flag.key]
    del data["trade_flag_reviews"]
    Game.objects.all().delete()
    restored.delete()
    assert not TradeFlagReview.objects.filter(tournament=restored.pk).exists()
    again = backup.import_tournament(data)
    assert not TradeFlagReview.objects.filter(tournament=again).exists()


def test_a_pair_giving_one_way_is_listed_on_the_round_page(client, director):
    table = flagged_table(director, plan=[(20, 2, 3, "small"), (60, 2, 3, "small"), (100, 2, 3, "small")])
    t = table.round.tournament
    seats = [s.participant for s in table.seats.order_by("order")]
    giver, receiver = seats[2], seats[3]
    (flag,) = [f for f in flags_of_round(table.round) if f.flag.kind == "pair"]
    assert flag.key == pair_key(f"p{giver.pk}", f"p{receiver.pk}")
    assert (flag.giver, flag.receiver) == (giver.name, receiver.name) and flag.flag.detail >= 3  # and theirs
    assert flag.flag.threshold > 100 and flag.flag.value > 0  # (three gifts of 60 % of the threshold each)
    client.force_login(director)
    page = client.get(reverse("round", args=[t.pk, 1])).content.decode()
    said = f"{flag.flag.threshold} % of the threshold one way over {flag.flag.detail} trades"
    assert f'id="flag-{flag.key}"' in page and said in page and said == flag.passed.split(" (")[0]
    r = client.post(reverse("trade_flag_seen", args=[t.pk]), {"key": flag.key, "note": "friends"})
    assert r.status_code == 302 and TradeFlagReview.objects.get(key=flag.key).note == "friends"


def test_the_round_page_reads_a_pairs_trades_of_other_rounds(director):
    """One small gift a round from the same giver to the same receiver (4 participants: the same table):
    under the threshold each, flagged as a pair on round 2's page, which reads round 1's game for it."""
    first = flagged_table(director, plan=[(40, 0, 1, "small")])
    t = first.round.tournament
    giver, receiver = (s.participant for s in first.seats.order_by("order")[:2])
    first.game.refresh_from_db()
    results.confirm(first, director)
    round_2 = rounds.seat_next_round(t)
    rounds.start_round(round_2)
    table = round_2.tables.get()
    order = [s.participant for s in table.seats.order_by("order")]
    play_gifts(table, director, [(40, order.index(giver), order.index(receiver), "small")])
    pairs = [f for f in flags_of_round(round_2) if f.flag.kind == "pair"]
    everything = flags_of_tournament(t, [x for r in tournament_report(t).rounds for x in r.tables])
    assert [f.key for f in pairs] == [f.key for f in everything if f.flag.kind == "pair"]
    assert pair_key(f"p{giver.pk}", f"p{receiver.pk}") in [f.key for f in pairs]
    key = pair_key(f"p{giver.pk}", f"p{receiver.pk}")
    assert key in [f.key for f in flags_of_round(first.round)]  # they traded in round 1 too: listed there
    (flag,) = [f for f in pairs if f.key == key]
    assert (flag.round, flag.flag.game) == (2, table.game.pk)  # at their last trade
