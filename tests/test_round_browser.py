"""An Anti-Monopoly round in a real browser (Playwright driving Debian's chromium), on a 360 px phone in
Polish: the roles on the round page and on the public seating before any game starts, the swap form's selects
found by their labels, then the round page saying who waits for what and a table's result confirmed there with
one tap. Nothing wider than the phone. Screenshots: out/screens/round-*.png (look at them)."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import Group, User  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from rules.simulate import simulate  # noqa: E402
from tests.browser import BROWSER_TESTS, PHONE, Referee  # noqa: E402
from tournament.event import results, rounds  # noqa: E402
from tournament.games import recording  # noqa: E402
from tournament.models import Participant, Tournament  # noqa: E402
from tournament.people.access import DIRECTORS_GROUP, REFEREES_GROUP  # noqa: E402

pytestmark = BROWSER_TESTS
NAMES = ["Małgorzata Wiśniewska-Grzybowska", "Łukasz Brzęczyszczykiewicz", "Żaneta Źdźbło", "Adam Nowak",
         "Ewa Kowalczyk", "Przemysław Szczepański", "Ola Lis", "Igor Zieliński"]  # fmt: skip
ROLE_NAMES = {"competitor": "Przedsiębiorca", "monopolist": "Monopolista"}


def play(table, referee, whole: bool):
    """The table's game started and a simulated game entered: whole, or its first few moves."""
    seats = list(table.seats.all())
    t = table.round.tournament
    game = rounds.start_table_game(table, [s.participant_id for s in seats], user=referee)
    record = simulate(t.variant, t.board, len(seats), seed=table.pk, rounds=t.game_rounds,
                      roles=[s.role for s in seats], options={"ending": t.ending})  # fmt: skip
    for ev in record["events"] if whole else record["events"][:12]:
        game = recording.submit(game.pk, ev, version=game.version).game
    assert recording.current_state(game).finished == whole
    return game


def test_an_anti_monopoly_round_on_a_phone_in_polish(live_server, browser):
    boss = User.objects.create_user("boss", password="pw")
    boss.groups.add(Group.objects.create(name=DIRECTORS_GROUP))
    t = Tournament.objects.create(
        name="Puchar Anty-Monopolu", variant="anti-monopoly", board="anti-monopoly-us", rounds=2,
        game_rounds=3, table_size=4, seed=4, created_by=boss,
    )  # fmt: skip
    for i, name in enumerate(NAMES):
        Participant.objects.create(tournament=t, name=name, club="SP 12 w Łodzi" if i % 2 else "")
    round_ = rounds.seat_next_round(t)
    seats = [s for table in round_.tables.all() for s in table.seats.select_related("participant")]

    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pl-PL", has_touch=True)
    page = context.new_page()
    phone = Referee(page, live_server.url)
    round_path = f"/tournaments/{t.pk}/rounds/1/"
    phone.login("boss", "pw", round_path)

    # Before any game starts: each player's role, by its word and its letter, beside his name.
    for s in seats:
        row = page.locator(f"#table-{s.table.number} li", has_text=s.participant.name)
        badge = row.locator(f".role-badge.role-{s.role}")
        expect(badge).to_be_visible()
        expect(badge).to_have_text(f"{ROLE_NAMES[s.role][0]} {ROLE_NAMES[s.role]}")
    colour = "b => getComputedStyle(b).backgroundColor"
    colours = {role: page.locator(f".role-badge.role-{role}").first.evaluate(colour) for role in ROLE_NAMES}
    assert colours["competitor"] != colours["monopolist"]  # told apart by colour, letter and word
    # the swap form's selects are found by their (visible) labels, in Polish
    expect(page.get_by_label("Gracz", exact=True)).to_have_count(1)
    expect(page.get_by_label("zamienia się stolikami z")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.shot("round-01-seated-phone-pl")

    # The public seating page, for the players: the role in "find your table" and at each table.
    page.goto(f"{live_server.url}/tournaments/{t.pk}/rounds/1/seating/")
    for s in seats:
        entry = page.locator(".who-sits li", has_text=s.participant.name)
        expect(entry.locator(f".role-badge.role-{s.role}")).to_have_text(
            f"{ROLE_NAMES[s.role][0]} {ROLE_NAMES[s.role]}"
        )
        expect(entry).to_contain_text(f"stolik {s.table.number}")
        at_table = page.locator(".table-cards li", has_text=s.participant.name)
        expect(at_table.locator(f".role-badge.role-{s.role}")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.shot("round-02-public-seating-phone-pl")

    # The round starts; table 1's game is over, table 2's goes on.
    rounds.start_round(round_)
    table1, table2 = round_.tables.order_by("number")
    play(table1, boss, whole=True)
    play(table2, boss, whole=False)
    page.goto(f"{live_server.url}{round_path}")
    summary = page.locator("section.waiting-for")
    expect(summary.locator("li", has_text="stolik 1").first).to_contain_text("1")  # 1 result to confirm
    card = page.locator("#table-1")
    expect(card.locator("table.result tbody tr")).to_have_count(len(table1.seats.all()))
    expect(page.locator("#table-2")).not_to_contain_text("Zatwierdź")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.shot("round-03-waiting-phone-pl")

    with page.expect_navigation():
        card.get_by_role("button", name="Zatwierdź wynik").click()
    assert page.url == f"{live_server.url}{round_path}"  # back at the top: the message and the summary
    expect(page.locator(".messages")).to_contain_text("Wynik zatwierdzony.")
    expect(card).to_contain_text("wynik zatwierdzony")
    expect(card.get_by_role("button", name="Zatwierdź wynik")).to_have_count(0)
    assert results.current_result(table1).counts(t)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.shot("round-04-confirmed-phone-pl")
    context.close()

    # Table 2's referee: his tables, each player with his role.
    referee = User.objects.create_user("ania", password="pw")
    referee.groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])  # made by a migration
    table2.referees.add(referee)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pl-PL", has_touch=True)
    page = context.new_page()
    phone = Referee(page, live_server.url)
    phone.login("ania", "pw", "/my-tables/")
    seated = page.locator(".tables-now .seated")
    for s in table2.seats.all():
        expect(seated).to_contain_text(f"{s.participant.name} {ROLE_NAMES[s.role][0]} {ROLE_NAMES[s.role]}")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.shot("round-05-my-tables-phone-pl")
    context.close()

    # The seating on a projector (?refresh=): the same badges, large.
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="pl-PL")
    page = context.new_page()
    page.goto(f"{live_server.url}/tournaments/{t.pk}/rounds/1/seating/?refresh=30")
    expect(page.locator(".big-screen .table-cards .role-badge")).to_have_count(len(seats))
    Referee(page, live_server.url).shot("round-06-seating-projector")
    context.close()
