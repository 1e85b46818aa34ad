"""Disputes name a move (``Signature.disputed_move``): the participant's form takes an optional move number,
1..the game's last, else a clear message and nothing saved; the director's table page links each dispute to
the replay at its move (at the end when none is named); the page of all moves links each active move to the
replay at it; a backup carries the move, and a backup without it is read."""

import json

import pytest
from django.urls import reverse

from tests.tournaments import one_table_played
from tournament.files import backup
from tournament.models import Signature

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(director, referee):
    return one_table_played(director, referee)


def dispute(client, table, participant, **fields):
    url = reverse("participant_sign", args=[table.round.tournament_id, participant.link_key])
    post = {"table": table.pk, "version": table.game.version, "verdict": "dispute", "reason": "rent"}
    post.update(fields)
    return client.post(url, post, follow=True)


def player(table, i=0):
    return table.seats.order_by("pk")[i].participant


def test_a_dispute_names_a_move_and_the_table_page_links_the_replay_at_it(client, table, director):
    last = table.game.next_seq - 1
    page = dispute(client, table, player(table), move="7").content.decode()
    assert "Your signature is kept" in page
    assert Signature.objects.get().disputed_move == 7
    dispute(client, table, player(table, 1))  # none named: the replay at the end
    client.force_login(director)
    t = table.round.tournament
    html = client.get(reverse("table", args=[t.pk, table.round.number, table.number])).content.decode()
    replay = reverse("game_replay", args=[table.game.pk])
    assert f'href="{replay}?move=7">replay at move 7</a>' in html
    assert f'href="{replay}">replay at the end</a>' in html
    answer = client.get(f"{replay}?move=7")
    assert answer.status_code == 200 and 'value="7"' in answer.content.decode()  # (no move undone: at = 7)
    assert last > 7


@pytest.mark.parametrize("move", ["0", "-3", "abc", "100000", "2.5"])
def test_a_move_not_in_the_game_is_refused_and_nothing_kept(client, table, move):
    last = table.game.next_seq - 1
    page = dispute(client, table, player(table), move=move).content.decode()
    assert f"The move you name must be a number from 1 to {last}" in page
    assert not Signature.objects.exists()


def test_the_page_of_all_moves_links_each_move_to_the_replay(client, table, director):
    client.force_login(director)
    html = client.get(reverse("console_moves", args=[table.game.pk])).content.decode()
    replay = reverse("game_replay", args=[table.game.pk])
    last = table.game.next_seq - 1
    assert f'href="{replay}?move={last}"' in html and f'href="{replay}?move={last - 1}"' in html


def test_a_backup_carries_the_disputed_move_and_reads_one_without_it(client, table):
    dispute(client, table, player(table), move="5")
    dispute(client, table, player(table, 1))
    data = json.loads(backup.dumps(backup.export_tournament(table.round.tournament)))
    signed = data["rounds"][0]["tables"][0]["signatures"]
    assert [s.get("disputed_move") for s in signed] == [5, None]
    assert "disputed_move" not in signed[1]  # (none named: not written, as a file from before)
    data["tournament"]["name"] = "Cup again"
    imported = backup.import_tournament(data)
    kept = Signature.objects.filter(table__round__tournament=imported).order_by("at", "pk")
    assert [s.disputed_move for s in kept] == [5, None]
    del signed[0]["disputed_move"]  # a backup from before the move was kept
    data["tournament"]["name"] = "Cup once more"
    older = backup.import_tournament(data)
    assert [s.disputed_move for s in Signature.objects.filter(table__round__tournament=older)] == [None, None]
