"""The director keeps the league in a real browser, on a 360 px phone: past results imported from a workbook
(the file chosen as a browser sends it), who is who confirmed for them, the league showing the players; then,
in Polish, a new tournament's participants linked to those players (one proposed by name and club, one made a
new player), the tournament page showing the seeds round 1 takes from the ratings, and round 1 seated with the
two best-rated at different tables. Screenshots go to out/screens/ (look at them)."""

import datetime
import io
import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import Group, User  # noqa: E402
from openpyxl import Workbook  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from tests.browser import BROWSER_TESTS, PHONE, Referee  # noqa: E402
from tournament.models import Participant, PastEvent, Player, PlayerRating, Seat, Tournament  # noqa: E402
from tournament.people.access import DIRECTORS_GROUP  # noqa: E402

pytestmark = BROWSER_TESTS
PEOPLE = [("Anna Nowak", "SP 12"), ("Bartek Kos", "SP 12"), ("Celina Wróbel", "LO 3"), ("Darek Lis", "LO 3")]
PEOPLE += [("Ewa Zając", "KGP"), ("Filip Sowa", "KGP"), ("Gosia Wilk", "SP 5"), ("Henryk Dąb", "SP 5")]


def past_workbook() -> bytes:
    """Two rounds of two tables: Anna wins every table she plays, Bartek too; Henryk is last at every one."""
    wb = Workbook()
    ws = wb.active
    ws.append(["Tournament", "Date", "Round", "Table", "Place", "Player", "Club"])
    day = datetime.date(2025, 10, 4)
    tables = {
        1: [
            ["Anna Nowak", "Celina Wróbel", "Ewa Zając", "Gosia Wilk"],
            ["Bartek Kos", "Darek Lis", "Filip Sowa", "Henryk Dąb"],
        ],
        2: [
            ["Anna Nowak", "Darek Lis", "Filip Sowa", "Henryk Dąb"],
            ["Bartek Kos", "Celina Wróbel", "Ewa Zając", "Gosia Wilk"],
        ],
    }
    clubs = dict(PEOPLE)
    for number, at in tables.items():
        for t, names in enumerate(at, start=1):
            for place, name in enumerate(names, start=1):
                ws.append(["Puchar Jesieni", day, number, t, place, name, clubs[name]])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def test_a_director_imports_past_results_links_the_players_and_seeds_round_1(live_server, browser, tmp_path):
    boss = User.objects.create_user("boss", password="pw")
    boss.groups.add(Group.objects.create(name=DIRECTORS_GROUP))
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="en-US", has_touch=True)
    page = context.new_page()
    director = Referee(page, live_server.url)
    director.login("boss", "pw", "/league/past/")

    # the past results: the file as the browser sends it
    upload = tmp_path / "past.xlsx"
    upload.write_bytes(past_workbook())
    page.locator("input[type=file]").set_input_files(str(upload))
    page.get_by_role("button", name="Import").click()
    # its names shown first, nothing stored yet
    expect(page.get_by_role("heading", name="Check the names before they are imported")).to_be_visible()
    expect(page.locator("table.preview tbody tr")).to_have_count(8)
    assert not PastEvent.objects.exists()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    director.shot("league-00-past-results-checked-phone")
    page.get_by_role("button", name="Import this tournament").click()
    expect(page.locator("body")).to_contain_text("confirm who is who")
    event = PastEvent.objects.get()
    page.wait_for_url(f"**/league/past/{event.pk}/players/")
    # nobody is a player yet: each is proposed as a new one
    selects = page.locator("select[name^=player_]")
    assert selects.count() == 8
    assert {selects.nth(i).input_value() for i in range(8)} == {"new"}
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    director.shot("league-01-who-is-who-past-phone")
    page.get_by_role("button", name="Confirm").click()
    said = page.locator(".msg")  # which links changed, not only how many
    expect(said).to_contain_text("8 links changed: ")
    for name, _club in PEOPLE:
        expect(said).to_contain_text(name)
    assert Player.objects.count() == 8

    # the league: rated from the past tournament, the two winners on top
    page.goto(f"{live_server.url}/league/")
    expect(page.locator("body")).to_contain_text("Anna Nowak")
    top = list(PlayerRating.objects.select_related("player").order_by("-ordinal")[:2])
    assert {r.player.name for r in top} == {"Anna Nowak", "Bartek Kos"}
    director.shot("league-02-league-phone")

    # a new tournament, in Polish: its participants linked to the players (one of them a new person)
    t = Tournament.objects.create(name="Puchar Zimy", rounds=2, table_size=4, seed=5, created_by=boss)
    for name, club in PEOPLE + [("Zenon Nowy", "")]:
        Participant.objects.create(tournament=t, name=name, club=club)
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    page.locator("select[name=language]").select_option("pl")  # the top bar's switch: it sends itself
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    page.get_by_role("link", name="Kto jest kim w lidze").click()
    page.wait_for_url(f"**/tournaments/{t.pk}/players/")
    anna = Participant.objects.get(tournament=t, name="Anna Nowak")
    zenon = Participant.objects.get(tournament=t, name="Zenon Nowy")
    assert page.locator(f"select[name=player_{anna.pk}]").input_value() == str(
        Player.objects.get(name="Anna Nowak").pk
    )
    assert page.locator(f"select[name=player_{zenon.pk}]").input_value() == "new"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    director.shot("league-03-who-is-who-tournament-phone-pl")
    page.get_by_role("button", name="Zatwierdź").click()
    said = page.locator(".msg")
    expect(said).to_contain_text("Zmieniono 9 powiązań: ")
    for name, _club in PEOPLE + [("Zenon Nowy", "")]:
        expect(said).to_contain_text(name)

    # the seeds round 1 takes from the ratings, then the seating
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    expect(page.locator("body")).to_contain_text("wg rankingu")
    director.shot("league-04-seeds-phone-pl")
    page.get_by_role("button", name="Rozsadź następną rundę").click()
    page.wait_for_url(f"**/tournaments/{t.pk}/rounds/1/")
    table_of = {
        s.participant.name: s.table_id
        for s in Seat.objects.filter(table__round__tournament=t).select_related("participant")
    }
    assert table_of["Anna Nowak"] != table_of["Bartek Kos"]
    context.close()
