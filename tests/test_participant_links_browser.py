"""A participant's private link in a real browser: the director finds the links on the tournament's page and
gives one participant a new link (the old one then finds nothing); the participant opens his link on a 360 px
phone in Polish, reads where he sits, his results and the standings with his row marked, and switches to
English on the same page. Check-in: two participants from their links, a third by the door's scan page (a
photo of his slip), a fourth ticked; the round seats those four. Signing: one player agrees, one disputes;
the director confirms with his ruling. Screenshots go to out/screens/ (look at them)."""

import os
import subprocess

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from tests.test_console_browser import PHONE, Referee, browser  # noqa: E402, F401 (the browser fixture)
from tests.tournaments import make_tournament, play_round, play_table  # noqa: E402
from tournament.event import rounds  # noqa: E402
from tournament.exports.participant_slips import slips_pdf  # noqa: E402
from tournament.people.participant_links import link_path  # noqa: E402

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(os.environ.get("SKIP_BROWSER_TESTS") == "1", reason="SKIP_BROWSER_TESTS=1"),
]
DESKTOP = {"width": 1280, "height": 900}


def director_at(browser, live_server, path: str) -> Referee:  # noqa: F811
    """The director ("boss", password "pw") logged in on a desktop browser, at ``path``."""
    desk = Referee(browser.new_context(viewport=DESKTOP, locale="en-US").new_page(), live_server.url)
    desk.page.goto(f"{live_server.url}/login/?next={path}")
    desk.page.fill("input[name=username]", "boss")
    desk.page.fill("input[name=password]", "pw")
    desk.page.click("main button[type=submit]")
    desk.page.wait_for_url(f"**{path}")
    return desk


def test_a_new_link_given_and_opened_on_a_phone_in_polish(live_server, browser):  # noqa: F811
    director = User.objects.create_user("boss", password="pw", is_staff=True)
    referee = User.objects.create_user("sedzia", password="pw", first_name="Jan", last_name="Sędzia")
    t = make_tournament(8, name="Puchar Łodzi", rounds=3, table_size=4, created_by=director)
    t.directors.add(director)
    play_round(t, referee)
    round_2 = rounds.seat_next_round(t)
    rounds.start_round(round_2)
    p = t.participants.get(name="P02")
    table = p.seats.get(table__round=round_2).table
    table.referees.add(referee)
    old = link_path(p)

    # the director: tournament page → the links → a new link for P02, with the reason
    desk = director_at(browser, live_server, f"/tournaments/{t.pk}/")
    page = desk.page
    page.get_by_role("link", name="Participants' private links").click()
    row = page.locator("tr", has_text="P02")
    expect(row.locator("a.private-link")).to_have_text(f"{live_server.url}{old}")
    row.locator("summary").click()
    row.locator("input[name=reason]").fill("lost his slip")
    row.get_by_role("button", name="New link").click()
    expect(page.locator(".msg")).to_contain_text("P02 has a new link")
    p.refresh_from_db()
    new = link_path(p)
    assert new != old
    row = page.locator("tr", has_text="P02")
    expect(row.locator("a.private-link")).to_have_text(f"{live_server.url}{new}")
    desk.shot("participant-links-director")
    assert page.goto(f"{live_server.url}{old}").status == 404

    # the participant, on his phone, in Polish
    phone = Referee(browser.new_context(viewport=PHONE, locale="pl-PL").new_page(), live_server.url)
    page = phone.page
    assert page.goto(f"{live_server.url}{new}").status == 200
    expect(page.locator("h1")).to_contain_text("P02")
    expect(page.locator(".seat-now")).to_have_text(f"Runda 2: stół {table.number}")
    expect(page.locator(".me-now")).to_contain_text("Sędzia: Jan Sędzia")
    expect(page.locator("table.standings tr.me")).to_contain_text("P02")
    expect(page.locator("table.me-results tbody tr").first).to_contain_text("zatwierdzony")
    phone.shot("participant-page-pl-phone")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # no sideways scroll
    page.select_option("select[name=language]", "en")  # the top bar's language (site.js submits it)
    expect(page.locator(".seat-now")).to_have_text(f"Round 2: table {table.number}")
    assert page.url == f"{live_server.url}{new}"
    phone.shot("participant-page-en-phone")


def slip_photo(tournament, participant, base_url: str, folder) -> str:
    """A PNG of the participant's printed slip (a page of one slip, rendered by pdftoppm): what the director's
    phone photographs at the door."""
    pdf = folder / "slip.pdf"
    pdf.write_bytes(slips_pdf(tournament, [(participant, f"{base_url}{link_path(participant)}")]))
    subprocess.run(["pdftoppm", "-png", "-r", "100", "-singlefile", pdf, folder / "slip"], check=True)
    return str(folder / "slip.png")


def test_two_check_in_from_their_links_the_director_scans_and_ticks_others_and_seats_them(
    live_server,
    browser,  # noqa: F811
    tmp_path,
):
    director = User.objects.create_user("boss", password="pw", is_staff=True)
    t = make_tournament(5, name="Puchar Łodzi", rounds=2, table_size=4, created_by=director, check_in=True)
    people = {p.name: p for p in t.participants.all()}

    # two participants check in from their phones, one in Polish, one in English
    for name, locale, tap, done in [
        ("P00", "pl-PL", "Jestem: potwierdzam obecność", "Twoja obecność na rundę 1 jest potwierdzona"),
        ("P01", "en-US", "I am here: check me in", "You are checked in for round 1"),
    ]:
        phone = Referee(browser.new_context(viewport=PHONE, locale=locale).new_page(), live_server.url)
        phone.page.goto(f"{live_server.url}{link_path(people[name])}")
        phone.page.get_by_role("button", name=tap).click()
        expect(phone.page.locator(".msg")).to_contain_text(done)
        expect(phone.page.locator(".checked-in")).to_be_visible()
        phone.shot(f"participant-check-in-{locale}")
        phone.page.context.close()

    # the director sees them, ticks a third (no phone), and seats the round: the three, no one else
    desk = director_at(browser, live_server, f"/tournaments/{t.pk}/")
    page = desk.page
    expect(page.locator("#check-in-title")).to_have_text("Check-in for round 1: 2 of 5 here")
    # at the door: P04's slip photographed with the phone (here: the printed slip as an image), its QR code
    # read in the page
    page.get_by_role("link", name="Check-in at the door: scan the slips with a phone").click()
    photo = slip_photo(t, people["P04"], live_server.url, tmp_path)
    page.locator("input[data-scan-photo]").set_input_files(photo)
    expect(page.locator(".msg")).to_have_text("P04 is checked in for round 1.")
    desk.shot("check-in-scan")
    page.get_by_role("link", name="Puchar Łodzi").click()
    expect(page.locator("#check-in-title")).to_have_text("Check-in for round 1: 3 of 5 here")
    page.locator("tr", has_text="P03").get_by_role("button", name="check in").click()
    expect(page.locator("#check-in-title")).to_have_text("Check-in for round 1: 4 of 5 here")
    expect(page.locator("tr", has_text="P03").locator(".checked-in")).to_contain_text("the director")
    desk.shot("check-in-director")
    page.get_by_role("button", name="Seat the next round").click()
    page.wait_for_url(f"**/tournaments/{t.pk}/rounds/1/")
    for name in ("P00", "P01", "P03", "P04"):
        expect(page.locator("main")).to_contain_text(name)
    expect(page.locator("main")).not_to_contain_text("P02")
    desk.shot("check-in-seated")


def test_the_players_sign_one_disputes_and_the_director_confirms_with_his_ruling(live_server, browser):  # noqa: F811
    director = User.objects.create_user("boss", password="pw", is_staff=True)
    referee = User.objects.create_user("sedzia", password="pw")
    t = make_tournament(4, name="Puchar Łodzi", rounds=2, table_size=4, created_by=director)
    round_1 = rounds.seat_next_round(t)
    rounds.start_round(round_1)
    table = round_1.tables.get()
    table.referees.add(referee)
    play_table(table, referee)
    people = {p.name: p for p in t.participants.all()}

    # P00 agrees on his phone in English; P01 disputes in Polish, saying why
    phone = Referee(browser.new_context(viewport=PHONE, locale="en-US").new_page(), live_server.url)
    phone.page.goto(f"{live_server.url}{link_path(people['P00'])}")
    expect(phone.page.locator(".me-sign h2")).to_have_text("Your table's result: round 1, table 1")
    phone.page.get_by_role("button", name="I agree").click()
    expect(phone.page.locator(".me-sign .checked-in")).to_contain_text("You agreed with these figures.")
    phone.shot("participant-signs-en")
    polish = Referee(browser.new_context(viewport=PHONE, locale="pl-PL").new_page(), live_server.url)
    page = polish.page
    page.goto(f"{live_server.url}{link_path(people['P01'])}")
    page.locator(".me-sign summary").click()
    page.locator(".me-sign input[name=reason]").fill("hotel na Placu Trzech Krzyży nie został policzony")
    page.get_by_role("button", name="Kwestionuję", exact=True).click()
    expect(page.locator(".me-sign .negative")).to_contain_text("Kwestionujesz te wyniki")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    polish.shot("participant-disputes-pl")

    # the director: the table page shows who signed what; the dispute stops a plain confirmation
    desk = director_at(browser, live_server, f"/tournaments/{t.pk}/rounds/1/tables/1/")
    page = desk.page
    signed = page.locator("ul.signatures")
    expect(signed).to_contain_text("P00: ✓ agrees")
    expect(signed).to_contain_text("P01: ✗ disputes: “hotel na Placu Trzech Krzyży nie został policzony”")
    expect(signed).to_contain_text("P02: not signed yet")
    expect(page.locator("#result .notice")).to_contain_text("A player disputes the figures")
    desk.shot("signatures-director")
    ruling = "the hotel was mortgaged: counted at half"
    page.get_by_label("Your ruling (kept in the director's log)").fill(ruling)
    page.get_by_role("button", name="Confirm with this ruling").click()
    expect(page.locator(".msg")).to_contain_text("Result confirmed.")
    expect(page.locator("main")).to_contain_text(ruling)  # the director's log

    # the players' pages: nothing more to sign, the result confirmed
    phone.page.reload()
    expect(phone.page.locator(".me-sign")).to_have_count(0)
    expect(phone.page.locator("table.me-results tbody tr").first).to_contain_text("confirmed")


def test_his_page_shows_his_seat_and_his_result_without_a_reload_and_keeps_what_he_types(
    live_server,
    browser,  # noqa: F811
    settings,
):
    settings.PARTICIPANT_POLL_SECONDS = 1  # the page asks every second (20 s on the day)
    referee = User.objects.create_user("sedzia", password="pw")
    t = make_tournament(4, name="Puchar Łodzi", rounds=2, table_size=4)
    p = t.participants.get(name="P00")
    phone = Referee(browser.new_context(viewport=PHONE, locale="en-US").new_page(), live_server.url)
    page = phone.page
    page.goto(f"{live_server.url}{link_path(p)}")
    expect(page.locator(".me-now")).to_contain_text("No round has been seated yet.")
    round_1 = rounds.seat_next_round(t)  # the director seats the round: his page shows his table by itself
    rounds.start_round(round_1)
    table = round_1.tables.get()
    expect(page.locator(".seat-now")).to_have_text("Round 1: table 1", timeout=10_000)
    play_table(table, referee)  # the referee plays the game to its end: its figures, to sign
    expect(page.locator(".me-sign h2")).to_have_text("Your table's result: round 1, table 1", timeout=10_000)
    # he starts to write why he disputes them; a change meanwhile does not take his typing away
    page.locator(".me-sign summary").click()
    page.locator(".me-sign input[name=reason]").fill("a rent was not paid")
    t.participants.get(name="P03").save()  # (the standings' version moves)
    page.wait_for_timeout(3_000)
    expect(page.locator(".me-sign input[name=reason]")).to_have_value("a rent was not paid")
    page.get_by_role("button", name="I dispute", exact=True).click()
    said = "You dispute these figures: “a rent was not paid”."
    expect(page.locator(".me-sign .negative")).to_contain_text(said)
    phone.shot("participant-page-live")
