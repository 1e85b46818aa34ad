"""The replay for disputes (tournament/console/replay.py): the console's view model after the first N active
events equals the rules' replay of the record cut after N events (cash, owners, buildings, mortgages,
round); the page and its JSON for the tournament's directors and the table's referees only; a bad ``at``
answered 400 with words, never 500; a move voided is left out (``at`` counts the active moves)."""

import json
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.urls import reverse

from rules import replay as rules_replay
from tests.tournaments import make_tournament, one_table_played
from tournament.console.replay import at_of_move, events_of, moves_of, screen_at
from tournament.event import rounds
from tournament.games import recording
from tournament.games.log import record_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(director, referee):
    return one_table_played(director, referee).game


def rules_state_after(game, n):
    record = record_of(game)
    record["events"] = record["events"][:n]
    result = rules_replay(record, check_fit=False)
    assert result.ok
    return result.state


@pytest.mark.parametrize("share", [0, 0.3, 0.7, 1])
def test_the_screen_at_n_is_the_rules_replay_cut_after_n_events(game, share):
    total = len(moves_of(game))
    n = round(total * share)
    view, state = screen_at(game, n), rules_state_after(game, n)
    assert view["game"]["round"] == state.round
    assert view["game"]["finished"] == state.finished
    for card, p in zip(view["players"], state.players, strict=True):
        assert card["id"] == p.id
        assert card["cash"] == p.cash
    assert view["bank"] == {"houses": state.houses, "hotels": state.hotels}
    shown = {d["square"]: (c["id"], d["level"], d["mortgaged"]) for c in view["players"] for d in c["deeds"]}
    assert shown == {sq: (h.owner, h.level, h.mortgaged) for sq, h in state.holdings.items()}
    if share:
        assert shown  # (deeds bought by then: the comparison compares something)


def test_the_screen_changes_along_the_game(game):
    total = len(moves_of(game))
    start, end = screen_at(game, 0), screen_at(game, total)
    assert not start["game"]["finished"] and end["game"]["finished"]
    assert [c["cash"] for c in start["players"]] != [c["cash"] for c in end["players"]]


def test_a_move_taken_back_is_left_out(game, director):
    seqs = [m["seq"] for m in moves_of(game)]
    game = recording.undo_last(game.pk, version=game.version, user=director, reason="a wrong throw")
    assert [m["seq"] for m in moves_of(game)] == seqs[:-1]  # the undone one is not a step of the replay
    events = events_of(game)
    assert at_of_move(events, seqs[-1]) == len(seqs) - 1  # its number: the position after the last active
    assert at_of_move(events, seqs[4]) == 5
    assert not screen_at(game, len(seqs) - 1)["game"]["finished"]  # the end is before the undone move


def page(client, game, **query):
    return client.get(reverse("game_replay", args=[game.pk]), query)


def data(client, game, **query):
    return client.get(reverse("game_replay_data", args=[game.pk]), query)


def test_the_director_sees_the_page_and_its_json(client, director, game):
    client.force_login(director)
    total = len(moves_of(game))
    r = page(client, game, at=3)
    assert r.status_code == 200
    shown = json.loads(r.content.decode().split('id="replay-data" type="application/json">')[1].split("<")[0])
    assert shown["at"] == 3 and shown["total"] == total and shown["screen"] == screen_at(game, 3)
    r = data(client, game, at=total)
    assert r.status_code == 200 and r.json()["screen"]["game"]["finished"]
    assert page(client, game).status_code == 200  # none: the end


def test_a_move_by_its_number_in_the_log(client, director, game):
    client.force_login(director)
    seq = moves_of(game)[6]["seq"]
    assert data(client, game, move=seq).json()["at"] == 7
    last = game.next_seq - 1  # the log's last move: the end; one beyond it is no move, refused saying so
    assert data(client, game, move=last).json()["at"] == len(moves_of(game))
    beyond = data(client, game, move=last + 1)
    assert beyond.status_code == 400 and f"no move {last + 1}" in beyond.json()["error"]


def polish_moves(n: int) -> str:
    """ "ruch", "ruchy" or "ruchów", as Polish says n moves (its three plural forms)."""
    if n == 1:
        return "ruch"
    return "ruchy" if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else "ruchów"


def test_a_move_beyond_the_game_is_refused_in_polish_with_the_count_agreeing(client, director, game):
    client.force_login(director)
    last = game.next_seq - 1
    beyond = client.get(
        reverse("game_replay_data", args=[game.pk]), {"move": last + 1}, HTTP_ACCEPT_LANGUAGE="pl"
    )
    assert beyond.json()["error"] == f"Zapis gry ma {last} {polish_moves(last)}: nie ma ruchu {last + 1}."
    total = len(moves_of(game))
    beyond = client.get(
        reverse("game_replay_data", args=[game.pk]), {"at": total + 1}, HTTP_ACCEPT_LANGUAGE="pl"
    )
    assert beyond.json()["error"] == f"Gra ma {total} {polish_moves(total)}: nie ma ruchu {total + 1}."


def test_the_tables_referee_sees_it(client, referee, game):
    client.force_login(referee)
    assert page(client, game, at=1).status_code == 200
    assert data(client, game, at=1).status_code == 200


@pytest.mark.parametrize("at", ["x", "-1", "1.5", "99999", "", "１"])
def test_a_bad_move_is_a_clear_400(client, director, game, at):
    client.force_login(director)
    r = data(client, game, at=at)
    assert r.status_code == 400 and r.json()["error"]
    r = page(client, game, at=at)
    assert r.status_code == 400 and "error" in r.content.decode()


def test_strangers_and_another_tables_referee_are_refused(client, game, director):
    assert page(client, game).status_code == 302  # not signed in: the login page
    assert data(client, game).status_code == 302
    other = User.objects.create_user("other", password="pw")
    t = make_tournament(4, name="Other", rounds=1, game_rounds=2, table_size=4, seed=3, created_by=director)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    round_.tables.get().referees.add(other)
    client.force_login(other)
    assert page(client, game).status_code == 403
    assert data(client, game, at=1).status_code == 403


def test_the_screen_at_n_is_what_replay_until_n_prints(game, tmp_path):
    """GAME_RECORD.md: ``replay FILE --until N`` prints the game after its first N events."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_of(game)))
    total = len(moves_of(game))
    for n in (0, total // 2, total):
        out = StringIO()
        call_command("replay", str(path), "--until", str(n), stdout=out)
        printed, view = json.loads(out.getvalue()), screen_at(game, n)
        assert printed["finished"] == view["game"]["finished"]
        for row, card in zip(printed["players"], view["players"], strict=True):
            assert (row["id"], row["cash"], row["position"]) == (card["id"], card["cash"], card["position"])
            assert [p["square"] for p in row["properties"]] == sorted(d["square"] for d in card["deeds"])
            assert [row["income"], row["cost"]] == [card["income"], card["cost"]]
    with pytest.raises(CommandError):
        call_command("replay", str(path), "--until", str(total + 1), stdout=StringIO())


def test_the_page_says_where_it_stands_in_words_english_and_polish(director, game):
    from django.test import Client

    seq = moves_of(game)[2]["seq"]
    for language, at_3, at_0 in (
        ("en", f"After move #{seq} (3 of ", "Before the first move (0 of "),
        ("pl", f"Po ruchu nr {seq} (3 z ", "Przed pierwszym ruchem (0 z "),
    ):
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(director)
        assert at_3 in page(client, game, at=3).content.decode()
        assert at_0 in page(client, game, at=0).content.decode()
