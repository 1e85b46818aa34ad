"""The public's read-only JSON API (tournament/public/api.py, docs/api.md): a table's board now with the
engine's figures (net worth equal to the table's report), Anti-Monopoly's roles, the moves in the language
asked, an ETag and a 304 while unchanged; the setting off, an unknown id, a bad language or a POST never a
500."""

import pytest
from django.test import Client
from django.urls import reverse

from rules.valuation import net_worths
from tests.live_games import live_table
from tournament.games import recording
from tournament.reports.rounds import table_report

pytestmark = pytest.mark.django_db


def board_of(client, table, **query):
    answer = client.get(reverse("api_table", args=[table.pk]), query)
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_a_tables_board_has_the_engines_figures(client):
    live = live_table(moves=60)
    state = recording.current_state(live.game)
    board = board_of(client, live.table)
    assert board["game"] == live.game.pk and board["version"] == live.game.version
    assert board["board"]["id"] == "classic-pl" and len(board["board"]["squares"]) == 40
    assert board["board"]["squares"][1] == {
        "index": 1,
        "name": "Ulica Konopacka",
        "kind": "street",
        "group": "brown",
        "price": 60,
    }
    worth = net_worths(state)
    report = {p.id: p.worth.total for p in table_report(live.table).game.players}
    for shown, p in zip(board["players"], state.players, strict=True):
        assert shown["position"] == p.position and shown["cash"] == p.cash
        assert shown["net_worth"] == worth[p.id] == report[p.id]  # the table's report's too
    assert {h["square"]: h["owner"] for h in board["holdings"]} == {
        sq: h.owner for sq, h in state.holdings.items()
    }
    assert board["holdings"], "60 moves in, somebody owns a square"
    assert board["turn"] == state.players[state.turn].id
    assert 1 <= len(board["moves"]) <= 10 and board["moves"][0]["seq"] > board["moves"][-1]["seq"]
    assert all(m["text"] for m in board["moves"])


def test_the_moves_in_the_language_asked(client):
    live = live_table(moves=3)
    english = board_of(client, live.table, lang="en")["moves"]
    polish = board_of(client, live.table, lang="pl")["moves"]
    assert [m["seq"] for m in english] == [m["seq"] for m in polish]
    assert [m["text"] for m in english] != [m["text"] for m in polish]
    by_header = client.get(reverse("api_table", args=[live.table.pk]), HTTP_ACCEPT_LANGUAGE="pl")
    assert by_header["Content-Language"] == "pl" and by_header.json()["moves"] == polish


def test_anti_monopoly_players_have_their_roles(client):
    live = live_table("anti-monopoly", "anti-monopoly-us", moves=30)
    board = board_of(client, live.table)
    roles = [p["role"] for p in board["players"]]
    assert set(roles) == {"competitor", "monopolist"}
    assert all(p["role_label"] for p in board["players"])
    state = recording.current_state(live.game)
    report = {p.id: p.worth.total for p in table_report(live.table).game.players}
    assert [p["net_worth"] for p in board["players"]] == [report[p.id] for p in state.players]


def test_a_304_while_the_game_is_unchanged(client):
    live = live_table(moves=2)
    url = reverse("api_table", args=[live.table.pk])
    first = client.get(url)
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and not again.content
    live.play(1)
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed.json()["version"] == live.game.version
    assert changed["ETag"] != first["ETag"]


def test_the_setting_off_hides_the_board_and_the_tables_not_the_standings(client):
    live = live_table(moves=2, live=False)
    t = live.tournament
    for name, pk in [("api_table", live.table.pk), ("api_tables", t.pk), ("live_board", live.table.pk)]:
        answer = client.get(reverse(name, args=[pk]))
        assert answer.status_code == 404, name
    assert "live boards" in client.get(reverse("api_table", args=[live.table.pk])).json()["error"]
    assert "live boards" in client.get(reverse("live_board", args=[live.table.pk])).content.decode()
    assert client.get(reverse("api_standings", args=[t.pk])).status_code == 200
    t.live_boards = True
    t.save()
    assert client.get(reverse("api_table", args=[live.table.pk])).status_code == 200
    assert client.get(reverse("live_board", args=[live.table.pk])).status_code == 200


def test_bad_requests_are_clear_never_500(client):
    live = live_table()
    for url in [
        "/api/v1/tables/999999/",
        "/api/v1/tournaments/999999/tables/",
        "/api/v1/tournaments/999999/standings/",
        "/api/v1/tables/99999999999999999999999/",
        "/api/v1/tables/abc/",
        "/tables/999999/board/",
        f"/tournaments/{live.tournament.pk}/rounds/9/tables/1/board/",
    ]:
        answer = client.get(url)
        assert answer.status_code == 404, url
        if url.startswith("/api/"):  # the API refuses in JSON, whatever the address garbled
            assert answer.json()["error"], url
    assert (
        "live boards" not in client.get("/tables/999999/board/").content.decode()
    )  # no such table: not "off"
    assert client.get("/api/v2/tables/1/").json()["code"] == "no_such_address"
    bad_language = client.get(reverse("api_table", args=[live.table.pk]), {"lang": "xx"})
    assert bad_language.status_code == 400 and "language" in bad_language.json()["error"]
    assert bad_language.json()["code"] == "unknown_language" and "pl, en" in bad_language.json()["error"]
    # another method is a 405, as a browser or a script sends it (the CSRF check enforced: no 403 first)
    browser = Client(enforce_csrf_checks=True)
    for url in (
        reverse("api_table", args=[live.table.pk]),
        reverse("api_tables", args=[live.tournament.pk]),
        reverse("api_standings", args=[live.tournament.pk]),
    ):
        assert browser.post(url).status_code == 405 and browser.put(url).status_code == 405, url


def test_a_table_not_started_yet_and_the_tables_of_the_round(client):
    live = live_table(moves=1)
    tables = client.get(reverse("api_tables", args=[live.tournament.pk])).json()
    assert tables["round"] == 1
    [row] = tables["tables"]
    assert row["game"] == live.game.pk and row["status"] == "running" and len(row["players"]) == 4
    assert client.get(row["url"]).json()["game"] == live.game.pk
    link = f"/tournaments/{live.tournament.pk}/rounds/1/tables/1/board/"
    assert client.get(link).url == reverse("live_board", args=[live.table.pk])


def test_the_standings_are_the_pages(client):
    live = live_table()
    answer = client.get(reverse("api_standings", args=[live.tournament.pk])).json()
    assert [r["name"] for r in answer["standings"]] == sorted(r["name"] for r in answer["standings"])
    assert {tuple(r) for r in answer["standings"]} == {
        ("rank", "name", "club", "points", "total_score", "best_score", "games", "withdrawn")
    }


def test_the_seating_links_each_table_to_its_board_when_the_setting_is_on(client):
    live = live_table(live=False)
    url = reverse("seating", args=[live.tournament.pk])
    link = f"/tournaments/{live.tournament.pk}/rounds/1/tables/1/board/"
    off = client.get(url)
    assert link not in off.content.decode()
    live.tournament.live_boards = True
    live.tournament.save()
    on = client.get(url, HTTP_IF_NONE_MATCH=off["ETag"])  # not a 304: the page changed
    assert on.status_code == 200 and link in on.content.decode()


WORDS = {
    "pl": {
        "no_such_table": "Nie ma takiego stolika.",
        "no_such_tournament": "Nie ma takiego turnieju.",
        "live_boards_off": "„plansze na żywo” jest wyłączone",
        "no_such_address": "Nie ma takiego adresu w API",
    },
    "en": {
        "no_such_table": "No such table.",
        "no_such_tournament": "No such tournament.",
        "live_boards_off": "“live boards” is off",
        "no_such_address": "No such address in the API",
    },
}


@pytest.mark.parametrize(
    ("asked", "headers", "language"),
    [
        ({"lang": "pl"}, {}, "pl"),
        ({}, {"HTTP_ACCEPT_LANGUAGE": "pl"}, "pl"),
        ({"lang": "en"}, {"HTTP_ACCEPT_LANGUAGE": "pl"}, "en"),
        ({}, {"HTTP_ACCEPT_LANGUAGE": "en"}, "en"),
    ],
)
def test_a_refusal_speaks_the_language_asked_its_code_the_same_in_each(client, asked, headers, language):
    """A club's script tests the code; a person reads the words, in the language he asked (?lang=, else his
    browser's)."""
    hidden = live_table(moves=2, live=False)
    refusals = [
        ("/api/v1/tables/999999/", "no_such_table"),
        ("/api/v1/tournaments/999999/standings/", "no_such_tournament"),
        (reverse("api_table", args=[hidden.table.pk]), "live_boards_off"),
        ("/api/v2/nothing/", "no_such_address"),
    ]
    for url, code in refusals:
        answer = client.get(url, asked, **headers)
        assert answer.status_code == 404 and answer.json()["code"] == code, url
        assert WORDS[language][code] in answer.json()["error"], (url, answer.json())
        assert answer["Content-Language"] == language
