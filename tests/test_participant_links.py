"""A participant's private link: his page without logging in (where he sits, his results, his cards, the
standings with his row marked), 404 for any other key, and the director's side (the links, a link given anew
or revoked with its reason, the slips with their QR codes)."""

from __future__ import annotations

import copy
import io
import json
import re
import subprocess

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse
from pypdf import PdfReader

from rules.turns import next_roller
from tests.pdf_pages import save
from tests.tournaments import make_tournament, play_round, play_table
from tournament.event import results, rounds
from tournament.games import recording
from tournament.models import AuditEntry, Participant
from tournament.participants.changes import fingerprint
from tournament.people.participant_links import link_path
from tournament.reports.standings import standings_rows
from tournament.server import public_url

pytestmark = pytest.mark.django_db


def _page(client, p: Participant):
    return client.get(link_path(p))


def _text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def _claim(text: str) -> str | None:
    """The place in the order of play his page says he has ("2nd"; "2." in Polish), None when it says none."""
    found = re.search(r"You are (\S+) in the order of play\.|Twoje miejsce w kolejności gry: (\S+)", text)
    return found and (found.group(1) or found.group(2))


def test_every_participant_has_his_own_unguessable_key():
    t = make_tournament(30, name="Open")
    keys = list(t.participants.values_list("link_key", flat=True))
    assert len(set(keys)) == 30
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{24}", k) for k in keys)  # 144 random bits each


def test_his_page_before_any_round(client):
    t = make_tournament(["Anna", "Bartek"], name="Open")
    anna = t.participants.get(name="Anna")
    response = _page(client, anna)
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    assert "noindex" in response["X-Robots-Tag"]
    text = _text(response)
    assert "Anna" in text and "No round has been seated yet." in text
    assert 'class="me"' in response.content.decode()


def test_his_table_his_results_and_the_standings_agree_with_the_tournaments(client, referee):
    t = make_tournament(8, name="Open", rounds=3, table_size=4)
    play_round(t, referee)
    round_2 = rounds.seat_next_round(t)
    rounds.start_round(round_2)
    p = t.participants.get(name="P03")
    seat = p.seats.get(table__round=round_2)
    seat.table.referees.add(referee)
    response = _page(client, p)
    text = _text(response)
    assert f"Round 2: table {seat.table.number}" in text
    assert _claim(text) is None  # his game has not started: no order of play yet
    assert "The opening roll sets the order of play when your table's game starts." in text
    assert "Referee: ref" in text
    # his row of round 1 is the standings' (one truth): points there, points here
    row = next(r for r in standings_rows(t) if r.participant.pk == p.pk)
    score = p.table_scores.get()
    body = response.content.decode()
    his_round_1 = re.search(r"<tr>\s*<td>1</td>(.*?)</tr>", body, re.S).group(1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", his_round_1, re.S)
    assert cells[:4] == [str(score.result.table.number), str(score.rank), str(score.score), str(score.points)]
    assert "confirmed" in cells[4]
    assert row.points == score.points
    mine = re.search(r'<tr class="me" aria-current="true">(.*?)</tr>', body, re.S).group(1)
    assert re.findall(r"<td[^>]*>(.*?)</td>", mine, re.S)[:3] == [str(row.rank), "P03", str(row.points)]
    # round 2 under way: playing, then provisional once his game is over
    assert "playing" in _text(response)
    play_table(seat.table, referee)
    assert "provisional" in _text(_page(client, p))
    results.confirm(seat.table, referee)
    assert _text(_page(client, p)).count("confirmed") == 2


@pytest.mark.parametrize(
    ("language", "places", "before"),
    [
        ("en", ["1st", "2nd", "3rd", "4th"], "The opening roll sets the order of play when your table's"),
        ("pl", ["1.", "2.", "3.", "4."], "Kolejność gry ustali rzut na początek, gdy zacznie się gra"),
    ],
)
def test_his_place_is_his_games_order_of_play_not_his_seat(client, referee, language, places, before):
    """The order the referee gave from the opening roll when he started the table's game (the game's, which
    the engine gives the turns in), not the seating's; before the game starts, no place is claimed."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    t = make_tournament(4, name="Open", rounds=1, table_size=4)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    seating = [s.participant for s in table.seats.all()]
    for p in seating:
        text = _text(_page(client, p))
        assert _claim(text) is None and before in text, p.name
    order = seating[1:] + seating[:1]  # each one's place in the game differs from his place in the seating
    game = rounds.start_table_game(table, [p.pk for p in order], user=referee)
    state = recording.current_state(game)  # the engine gives the first roll to the first of that order
    assert state.players[next_roller(state)].name == order[0].name
    for p, place in zip(order, places, strict=True):
        text = _text(_page(client, p))
        assert _claim(text) == place and before not in text, p.name


def test_his_cards_from_his_link(client, referee):
    t = make_tournament(4, name="Open", rounds=2, table_size=4)
    play_round(t, referee)
    p = t.participants.get(name="P01")
    text = _text(_page(client, p))
    assert re.search(r"Round 1, table 1: income \d+ · cost \d+ · net worth \d+", text)
    response = client.get(reverse("participant_own_cards", args=[t.pk, p.link_key]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "P01" in PdfReader(io.BytesIO(response.content)).pages[0].extract_text()


def test_other_keys_find_nobody(client):
    t = make_tournament(["Anna"], name="Open")
    other = make_tournament(["Bartek"], name="Other")
    anna = t.participants.get()
    key = anna.link_key
    forged = ("A" if key[0] != "A" else "B") + key[1:]
    for path in [
        f"/tournaments/{t.pk}/me/{forged}/",  # one character changed
        f"/tournaments/{t.pk}/me/{key[:-1]}/",  # too short
        f"/tournaments/{t.pk}/me/{key}x/",  # too long
        f"/tournaments/{other.pk}/me/{key}/",  # another tournament's
        f"/tournaments/{t.pk}/me/{key}/cards.pdf".replace(key, forged),
    ]:
        assert client.get(path).status_code == 404, path
    assert client.get(f"/tournaments/{t.pk}/me/{key}/").status_code == 200
    assert client.post(f"/tournaments/{t.pk}/me/{key}/").status_code == 405  # a page to read only


def test_the_director_gives_a_new_link_and_revokes_one(client, director):
    t = make_tournament(["Anna", "Bartek"], name="Open")
    anna = t.participants.get(name="Anna")
    old = link_path(anna)
    client.force_login(director)
    page = client.get(reverse("participant_links", args=[t.pk]))
    assert page.status_code == 200 and f"http://testserver{old}" in page.content.decode()
    change = reverse("participant_link_change", args=[t.pk, anna.pk])
    # no reason, or a damaged form: nothing changes
    for data in ({"do": "new", "reason": " "}, {"do": "delete", "reason": "lost"}, {"reason": "lost"}):
        client.post(change, data)
        anna.refresh_from_db()
        assert link_path(anna) == old
    assert not AuditEntry.objects.exists()
    response = client.post(change, {"do": "new", "reason": "lost his slip"}, follow=True)
    assert "Anna has a new link" in response.content.decode()
    anna.refresh_from_db()
    assert link_path(anna) != old
    client.logout()
    assert client.get(old).status_code == 404
    assert _page(client, anna).status_code == 200
    client.force_login(director)
    client.post(change, {"do": "revoke", "reason": "left the hall"})
    anna.refresh_from_db()
    assert anna.link_key is None and link_path(anna) is None
    assert "revoked" in _text(client.get(reverse("participant_links", args=[t.pk])))
    log = list(AuditEntry.objects.order_by("at", "pk").values_list("action", "reason", "participant__name"))
    assert log == [("link_new", "lost his slip", "Anna"), ("link_revoke", "left the hall", "Anna")]


def test_only_the_tournaments_directors_see_the_links(client, referee):
    t = make_tournament(["Anna"], name="Open")
    for url in (reverse("participant_links", args=[t.pk]), reverse("participant_slips", args=[t.pk])):
        assert client.get(url).status_code == 302  # to the login
        client.force_login(referee)
        assert client.get(url).status_code == 403
        client.logout()
    client.force_login(referee)
    anna = t.participants.get()
    client.post(reverse("participant_link_change", args=[t.pk, anna.pk]), {"do": "revoke", "reason": "x"})
    anna.refresh_from_db()
    assert anna.link_key is not None


def test_the_slips_carry_each_link_ten_to_a_page(client, director):
    t = make_tournament(23, name="Open", clubs="Klub Łódź")
    gone = t.participants.get(name="P05")
    gone.withdrawn_after = 1
    gone.save()
    revoked = t.participants.get(name="P07")
    Participant.objects.filter(pk=revoked.pk).update(link_key=None)
    client.force_login(director)
    response = client.get(reverse("participant_slips", args=[t.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 3  # 21 slips
    text = re.sub(r"\s+", "", "".join(page.extract_text() for page in reader.pages))
    for p in t.participants.all():
        url = f"http://testserver{link_path(p)}" if p.link_key else None
        printed = url is not None and re.sub(r"\s+", "", url) in text
        assert printed == (p.active and p.link_key is not None), p.name
    assert "KlubŁódź" in text
    save(response.content, "participant-slips")  # out/pdf/: look at it


@pytest.mark.parametrize("public", ["", "https://monopoly.example.org"])
def test_each_slips_code_reads_as_his_link(client, director, tmp_path, settings, public):
    """The QR codes, read off the printed page as a phone's camera reads them (poppler's pdftoppm renders the
    page, zbar's zbarimg reads every code on it: both installed by tests/setup.sh): on the site's public
    address when DJANGO_PUBLIC_URL says it, else the one the director browses from."""
    settings.PUBLIC_URL = public
    t = make_tournament(["Anna", "Bartek", "Celina Żółć"], name="Open")
    client.force_login(director)
    (tmp_path / "slips.pdf").write_bytes(client.get(reverse("participant_slips", args=[t.pk])).content)
    subprocess.run(["pdftoppm", "-png", "-r", "150", tmp_path / "slips.pdf", tmp_path / "page"], check=True)
    [png] = tmp_path.glob("page*.png")
    read = subprocess.run(["zbarimg", "--quiet", "--raw", png], capture_output=True, text=True, check=True)
    expected = {f"{public or 'http://testserver'}{link_path(p)}" for p in t.participants.all()}
    assert set(read.stdout.split()) == expected
    shown = client.get(reverse("participant_links", args=[t.pk])).content.decode()
    assert all(url in shown for url in expected)


@pytest.mark.parametrize(
    "value", ["ftp://monopoly.example.org", "monopoly.example.org", "https://", "https://m.example.org/app"]
)
def test_a_public_address_that_is_not_one_stops_the_app_naming_it(value):
    with pytest.raises(ImproperlyConfigured, match="DJANGO_PUBLIC_URL"):
        public_url.checked(value)
    assert public_url.checked(" https://m.example.org/ ") == "https://m.example.org"
    assert public_url.checked("") == ""


def test_his_page_in_polish(client):
    t = make_tournament(["Anna"], name="Open")
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "pl"
    text = _text(_page(client, t.participants.get()))
    assert "Gdzie siedzisz" in text and "Twoje wyniki" in text


def test_a_backup_keeps_the_links_so_the_printed_slips_still_open_the_pages(client):
    from tournament.files import backup

    t = make_tournament(["Anna", "Bartek", "Celina"], name="Open")
    Participant.objects.filter(name="Celina").update(link_key=None)  # revoked
    data = json.loads(backup.dumps(backup.export_tournament(t)))
    keys = {p["name"]: p["link_key"] for p in data["participants"]}
    t.delete()
    restored = backup.import_tournament(copy.deepcopy(data))
    assert dict(restored.participants.values_list("name", "link_key")) == keys
    anna = restored.participants.get(name="Anna")
    assert (
        client.get(f"/tournaments/{restored.pk}/me/{keys['Anna']}/").status_code
        == 200
        == _page(client, anna).status_code
    )
    # restored beside another tournament that holds one of the keys (renamed: else it is refused as there):
    # that one is drawn anew, the others kept
    restored.name = "Open (before)"
    restored.save()
    again = backup.import_tournament(copy.deepcopy(data))
    kept = dict(again.participants.values_list("name", "link_key"))
    assert kept["Anna"] != keys["Anna"] and kept["Bartek"] != keys["Bartek"] and kept["Celina"] is None
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{24}", kept[n]) for n in ("Anna", "Bartek"))


@pytest.mark.parametrize(
    ("spoil", "said"),
    [
        (lambda ps: ps[1].update(link_key=ps[0]["link_key"]), "appears twice"),
        (lambda ps: ps[0].update(link_key="short"), "participants[0].link_key must be a private link's key"),
        (lambda ps: ps[0].update(link_key=7), "participants[0].link_key must be text or null"),
        (lambda ps: [p.pop("link_key") for p in ps], None),  # a backup made before the links: new ones
    ],
)
def test_a_backups_links_are_checked(spoil, said):
    from tournament.files import backup
    from tournament.files.backup.format import BackupError

    t = make_tournament(["Anna", "Bartek"], name="Open")
    data = json.loads(backup.dumps(backup.export_tournament(t)))
    t.delete()
    spoil(data["participants"])
    if said is None:
        keys = list(backup.import_tournament(data).participants.values_list("link_key", flat=True))
        assert len(set(keys)) == 2 and all(re.fullmatch(r"[A-Za-z0-9_-]{24}", k) for k in keys)
        return
    with pytest.raises(BackupError, match=re.escape(said)):
        backup.import_tournament(data)
    assert not Participant.objects.exists()


def test_his_page_answers_its_poll_with_nothing_until_what_it_shows_changes(client, referee):
    t = make_tournament(4, name="Open", rounds=2, table_size=4)
    p = t.participants.get(name="P01")

    def since(response) -> str:
        return re.search(r'id="me" hx-get="[^"?]*\?since=([0-9a-f]+)"', response.content.decode()).group(1)

    def poll(seen):
        return client.get(link_path(p), {"since": seen})

    seen = since(_page(client, p))
    assert poll(seen).status_code == 204 and poll(seen)["Cache-Control"] == "private, no-store"
    assert poll("stale").status_code == 200
    changes = [
        lambda: rounds.start_round(rounds.seat_next_round(t)),  # seated, started
        lambda: p.seats.get().table.referees.add(referee),  # his referee
        lambda: play_table(p.seats.get().table, referee),  # the moves of his game
        lambda: results.confirm(p.seats.get().table, referee),  # the result: the standings
        lambda: Participant.objects.get(name="P02").save(),  # a table mate's row (the standings' version)
    ]
    for k, change in enumerate(changes):
        change()
        response = poll(seen)
        assert response.status_code == 200, k
        seen = since(response)
        assert poll(seen).status_code == 204, (k, fingerprint(p), seen)


def test_no_log_line_shows_a_private_links_key(client, caplog):
    from tournament.server.logs import LineFormatter

    t = make_tournament(["Anna"], name="Open")
    anna = t.participants.get()
    with caplog.at_level("WARNING", logger="django.request"):
        client.get(reverse("participant_own_check_in", args=[t.pk, anna.link_key]))  # a GET: 405, logged
    lines = [LineFormatter().format(r) for r in caplog.records]
    assert lines and all(anna.link_key not in line for line in lines)
    assert any(f"/tournaments/{t.pk}/me/…/check-in/" in line for line in lines)


def test_a_revoked_links_page_stops_asking(client):
    t = make_tournament(["Anna"], name="Open")
    anna = t.participants.get()
    path = link_path(anna)
    Participant.objects.filter(pk=anna.pk).update(link_key=None)
    assert client.get(path, {"since": "x"}, HTTP_HX_REQUEST="true").status_code == 286  # htmx: stop polling
    assert client.get(path).status_code == 404 and client.get(path, {"since": "x"}).status_code == 404
