"""The director's whole day in a real browser, on a fresh database, as he meets it: in English at 1280 px and
in Polish on a 360 px phone. A tournament created with its defaults untouched; ten participants typed in; two
referees added in the app (a password, a one-time link); round 1 seated; the referees ticked and the round
started with one tap; a no-show at table 1; table 1's game stopped by the director; table 2 played on paper,
its result entered by hand, reviewed, reopened and corrected once; table 3 stopped too; the results confirmed
from the round page; the round's result sheets and the workbook downloaded and their figures held against the
standings page; round 2 seated. axe-core checks every page on the way (no critical or serious violation).
Screenshots go to out/screens/ (look at them)."""

import os
import re
from io import BytesIO

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import Group, User  # noqa: E402
from openpyxl import load_workbook  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from tests.axe import assert_accessible  # noqa: E402
from tests.browser import (  # noqa: E402  # noqa: E402
    BROWSER_TESTS,
    DESKTOP,
    PHONE,
    Referee,
    add_referee,  # noqa: E402
)
from tests.pdf_pages import pages_text  # noqa: E402
from tournament.event import current_standings, results  # noqa: E402
from tournament.games import recording  # noqa: E402
from tournament.models import AuditEntry, Round, TableResult, Tournament  # noqa: E402
from tournament.people.access import DIRECTORS_GROUP  # noqa: E402

pytestmark = BROWSER_TESTS
PEOPLE = [
    "Łucja Żak",
    "Zenon Adamski",
    "Adam Nowak",
    "Ewa Lis",
    "Ola Kot",
    "Piotr Wiśniewski",
    "Kasia Mróz",
    "Marek Ząbek",
    "Igor Ślęzak",
    "Jan Kowalski",
]
WORDS = {
    "en": {"save": "Save", "sheet_word": "Result sheet", "absent": "absent"},
    "pl": {"save": "Zapisz", "sheet_word": "Protokół", "absent": "nieobecność"},
}


class Director(Referee):
    """The director's browser: every page he lands on is checked for width (the phone) and by axe-core."""

    def __init__(self, page, base, language):
        super().__init__(page, base)
        self.language = language

    def check(self, name):
        page = self.page
        width = page.viewport_size["width"]
        wide = page.evaluate(
            "[...document.querySelectorAll('body *')]"
            ".filter(e => e.getBoundingClientRect().right > innerWidth + 1)"
            ".map(e => e.tagName + '.' + e.className).slice(0, 5)"
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, wide)
        page.evaluate(
            "document.querySelectorAll('details').forEach(d => { d.dataset.was = d.open; d.open = true; })"
        )
        assert_accessible(page, f"{name} ({self.language})")
        page.evaluate(
            "document.querySelectorAll('details').forEach(d => { d.open = d.dataset.was === 'true'; })"
        )
        self.shot(f"day-{self.language}-{name}")

    def go(self, path):
        self.page.goto(self.base + path)

    def stop(self, table_url, reason):
        """The director stops a table's game from its page: the folded form, a reason, the button."""
        self.go(table_url)
        form = f"form[action='{table_url}stop/']"
        self.open(form)
        self.page.fill(f"{form} input[name=reason]", reason)
        self.page.locator(f"{form} button").click()
        self.page.wait_for_load_state()

    def open(self, details_with):
        """Open the folded section that holds ``details_with`` (a selector), as a tap on its summary does."""
        summary = self.page.locator(f"details:has({details_with}) > summary").first
        if not summary.locator("xpath=..").evaluate("d => d.open"):
            summary.click()


def a_few_moves(game):
    """The table plays on (the referee's console is the referee's business: tested elsewhere)."""
    first = game.players.order_by("seat").first().pid
    recording.submit(game.pk, {"type": "roll", "player": first, "dice": [3, 4]}, version=None)


@pytest.mark.parametrize(
    ("language", "viewport"), [("en", DESKTOP), ("pl", PHONE)], ids=["english-desktop", "polish-phone"]
)
def test_the_directors_day(live_server, browser, language, viewport):
    boss = User.objects.create_user("boss", password="pw", first_name="Anna", last_name="Sędzia")
    boss.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
    base = live_server.url
    context = browser.new_context(
        viewport=viewport, locale="pl-PL" if language == "pl" else "en-US", device_scale_factor=1
    )
    page = context.new_page()
    d = Director(page, base, language)
    d.login("boss", "pw", "/tournaments/new/")
    if language == "pl":  # the language switched as a director does: the menu's choice, kept in a cookie
        context.add_cookies([{"name": "django_language", "value": "pl", "url": base}])
        page.reload()
    w = WORDS[language]

    # A new tournament: a name typed, every default untouched.
    page.fill("input[name=name]", "Puchar Łodzi")
    d.check("01-new-tournament")
    page.get_by_role("button", name=w["save"], exact=True).click()
    page.wait_for_url(re.compile(r".*/tournaments/\d+/$"))
    t = Tournament.objects.get()
    assert t.date is not None and t.variant == "tournament-pl" and t.rounds >= 2

    # Ten participants typed in, one by one.
    form = f"form[action='/tournaments/{t.pk}/participants/add/']"
    for name in PEOPLE:
        d.open(form)
        page.fill(f"{form} input[name=name]", name)
        page.locator(f"{form} button").click()
        page.wait_for_load_state()
    assert sorted(t.participants.values_list("name", flat=True)) == sorted(PEOPLE)
    d.check("02-tournament")

    # Two referees added in the app: one with a password, one with a one-time link.
    add_referee(page, base, "Zofia Kamińska", "zofia", "sobota-2026-lodz")
    add_referee(page, base, "Tomasz Wiśniewski", "tomasz")
    assert page.locator("img.qr").is_visible()
    d.check("03-referee-link")
    d.go("/referees/")
    expect(page.locator("main")).to_contain_text("Tomasz Wiśniewski")
    d.check("04-referees")
    zofia, tomasz = User.objects.get(username="zofia"), User.objects.get(username="tomasz")

    # Round 1 seated (10 players: tables of 4, 3, 3); referees ticked for tables 1 and 2; started in one tap.
    d.go(f"/tournaments/{t.pk}/")
    page.locator(f"form[action='/tournaments/{t.pk}/rounds/seat/'] button").click()
    page.wait_for_url(f"**/tournaments/{t.pk}/rounds/1/")
    round_ = Round.objects.get(tournament=t)
    assert sorted(x.seats.count() for x in round_.tables.all()) == [3, 3, 4]
    page.locator(f"input[name=table_1][value='{zofia.pk}']").check()
    page.locator(f"input[name=table_2][value='{tomasz.pk}']").check()
    d.check("05-round-seated")
    page.locator(f"button[formaction='/tournaments/{t.pk}/rounds/1/start/']").click()
    page.wait_for_load_state()
    round_.refresh_from_db()
    assert round_.status == Round.Status.RUNNING
    assert [u.username for u in round_.tables.get(number=1).referees.all()] == ["zofia"]
    assert [u.username for u in round_.tables.get(number=2).referees.all()] == ["tomasz"]
    waiting = page.locator(".waiting-for")
    expect(waiting).to_contain_text("3")  # table 3 without a referee is named in the summary
    expect(waiting.locator("a[href='#table-3']").first).to_be_visible()
    # the tournament page no longer offers to seat round 2 while round 1 is played
    d.go(f"/tournaments/{t.pk}/")
    assert page.locator(f"form[action='/tournaments/{t.pk}/rounds/seat/']").count() == 0
    expect(page.locator(f"main a[href='/tournaments/{t.pk}/rounds/1/']").first).to_be_visible()

    # Table 1: a no-show; the game starts with the three others, plays, and the director stops it.
    table1 = round_.tables.get(number=1)
    absent = table1.seats.order_by("order").first().participant
    d.go(f"/tournaments/{t.pk}/rounds/1/tables/1/")
    absent_form = f"form[action='/tournaments/{t.pk}/rounds/1/tables/1/absent/']"
    d.open(absent_form)
    page.locator(f"{absent_form} select[name=participant]").select_option(str(absent.pk))
    page.fill(f"{absent_form} input[name=reason]", "did not come by 10:15")
    page.locator(f"{absent_form} button").click()
    page.wait_for_load_state()
    d.check("06-table-no-show")
    page.locator("main form:has(input[name=order]) button.primary").click()
    page.wait_for_url("**/games/*/")
    game1 = round_.tables.get(number=1).game
    assert game1.players.count() == 3
    a_few_moves(game1)
    d.stop(f"/tournaments/{t.pk}/rounds/1/tables/1/", "the schedule")
    d.check("07-table-stopped")

    # Table 3 starts, plays and is stopped as well.
    d.go(f"/tournaments/{t.pk}/rounds/1/tables/3/")
    page.locator("main form:has(input[name=order]) button.primary").click()
    page.wait_for_url("**/games/*/")
    a_few_moves(round_.tables.get(number=3).game)
    d.stop(f"/tournaments/{t.pk}/rounds/1/tables/3/", "the schedule")

    # Table 2 played on paper: its result typed in, reviewed, confirmed; then reopened and corrected once.
    table2 = round_.tables.get(number=2)
    people = [s.participant for s in table2.seats.order_by("order")]
    hand = f"/tournaments/{t.pk}/rounds/1/tables/2/result-by-hand/"
    d.go(hand)
    typed = [1800, 1500, 1200]
    for i, p in enumerate(people):
        page.fill(f"input[name=place_{p.pk}]", str(i + 1))
        page.fill(f"input[name=score_{p.pk}]", str(typed[i]))
    page.fill("#hand-reason", "the tablet's battery died")
    d.check("08-hand-result")
    page.locator("form.hand-result button.primary").click()
    page.wait_for_load_state()
    expect(page.locator("form.hand-result table")).to_contain_text("1800")
    assert not TableResult.objects.filter(table=table2).exists()  # the review: nothing stored yet
    d.check("09-hand-review")
    page.locator("button[name=confirm]").click()
    page.wait_for_url(f"**/tournaments/{t.pk}/rounds/1/tables/2/")
    first = results.current_result(table2)
    assert first.by_hand and [r["score"] for r in first.ranking] == typed
    page.locator("form[action$='/tables/2/reopen/'] [name=reason]").fill("2nd and 3rd swapped on the paper")
    page.locator("form[action$='/tables/2/reopen/'] button").click()
    page.wait_for_load_state()
    d.go(hand)
    assert page.locator(f"input[name=score_{people[1].pk}]").input_value() == "1500"  # kept from before
    page.fill(f"input[name=score_{people[1].pk}]", "1200")
    page.fill(f"input[name=score_{people[2].pk}]", "1500")
    page.fill(f"input[name=place_{people[1].pk}]", "3")
    page.fill(f"input[name=place_{people[2].pk}]", "2")
    page.locator("form.hand-result button.primary").click()
    page.wait_for_load_state()
    page.locator("button[name=confirm]").click()
    page.wait_for_url(f"**/tournaments/{t.pk}/rounds/1/tables/2/")
    corrected = results.current_result(table2)
    assert {r["name"]: (r["rank"], r["score"]) for r in corrected.ranking} == {
        people[0].name: (1, 1800),
        people[1].name: (3, 1200),
        people[2].name: (2, 1500),
    }

    # Tables 1 and 3 confirmed from the round page, one tap each; the round is over.
    d.go(f"/tournaments/{t.pk}/rounds/1/")
    d.check("10-round-to-confirm")
    for number in (1, 3):
        page.locator(f"button[form=confirm-{number}]").click()
        page.wait_for_url(f"**/tournaments/{t.pk}/rounds/1/")
    round_.refresh_from_db()
    assert round_.status == Round.Status.FINISHED
    d.check("11-round-finished")
    actions = sorted(AuditEntry.objects.values_list("action", flat=True))
    assert actions == ["absent", "end_game", "end_game", "hand_result", "hand_result"], actions

    # The round's sheets and the workbook, as downloaded by the director, hold the standings' figures.
    accept = {"Accept-Language": "pl-PL" if language == "pl" else "en-US"}  # as the browser's own request
    sheets = page.request.get(f"{base}/tournaments/{t.pk}/rounds/1/sheets.pdf", headers=accept)
    assert sheets.ok and sheets.headers["content-type"] == "application/pdf"
    texts = pages_text(sheets.body())
    assert len(texts) == 3 and all(w["sheet_word"] in x for x in texts)
    stored = {(g.participant, g.round): g for g in current_standings.game_scores(t)}
    names = {p.pk: p.name for p in t.participants.all()}
    for (pk, _round), g in stored.items():
        assert any(
            re.search(rf"^{g.rank} {re.escape(names[pk])}.* {g.score} {g.points}$", line)
            for text in texts
            for line in text.splitlines()
        ), (names[pk], g)
    assert w["absent"] in texts[0] and absent.name in texts[0]
    assert (
        "the schedule" in texts[0] and "Zofia Kamińska" in texts[0]
    )  # the stop's reason, the referee's name
    book = page.request.get(f"{base}/tournaments/{t.pk}/workbook.xlsx", headers=accept)
    assert book.ok
    wb = load_workbook(BytesIO(book.body()))
    standings_sheet, results_sheet = wb.worksheets[0], wb.worksheets[1]
    standings_rows = [r for r in standings_sheet.iter_rows(min_row=2, values_only=True) if r[1]]
    table_rows = [r for r in results_sheet.iter_rows(min_row=2, values_only=True) if r[3]]
    assert len(table_rows) == 10  # every person seated, the absent one included
    rows_now = current_standings.tournament_standings(t)
    assert {r[1]: r[3] for r in standings_rows} == {names[r.participant]: r.points for r in rows_now}
    d.go(f"/tournaments/{t.pk}/standings/")
    shown = page.locator("main table tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(c => c.innerText.trim()))"
    )
    assert {row[1]: int(row[3]) for row in shown} == {r[1]: r[3] for r in standings_rows}
    d.check("12-standings")

    # Round 2: seated from the tournament page.
    d.go(f"/tournaments/{t.pk}/")
    page.locator(f"form[action='/tournaments/{t.pk}/rounds/seat/'] button").click()
    page.wait_for_url(f"**/tournaments/{t.pk}/rounds/2/")
    assert Round.objects.filter(tournament=t, number=2).exists()
    assert [u.username for u in Round.objects.get(number=2).tables.get(number=1).referees.all()] == ["zofia"]
    d.check("13-round-2")
    context.close()
