"""A participant's private link in a real browser: the director finds the links on the tournament's page and
gives one participant a new link (the old one then finds nothing); the participant opens his link on a 360 px
phone in Polish, reads where he sits, his results and the standings with his row marked, and switches to
English on the same page. Check-in: two participants from their links, a third by the door's scan page (a
photo of his slip), a fourth ticked; the round seats those four. Signing: one player agrees, one disputes;
the director confirms with his ruling. And the whole day in one walk: slips printed, check-in, the round
seated and its game played on the referee's console while a participant's page follows it, the signatures, a
dispute ruled, and the links that open nothing. Screenshots go to out/screens/ (the walk's: /tmp/walk-*.png;
look at them)."""

import os
import re
import subprocess

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import Group, User  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from tests.browser import BROWSER_TESTS, PHONE, Referee, director_at  # noqa: E402
from tests.tournaments import make_tournament, play_round, play_table  # noqa: E402
from tournament.event import rounds  # noqa: E402
from tournament.exports.participant_slips import slips_pdf  # noqa: E402
from tournament.models import Round  # noqa: E402
from tournament.people.access import REFEREES_GROUP  # noqa: E402
from tournament.people.participant_links import link_path  # noqa: E402

pytestmark = BROWSER_TESTS
#: What a participant's page says and offers, in the two languages of the walks (by the phone's locale).
WORDS = {
    "pl-PL": {
        "check in": "Jestem: potwierdzam obecność",
        "checked in": "Twoja obecność na rundę 1 jest potwierdzona",
        "agree": "Zgadzam się",
        "agreed": "Twoja zgoda na te wyniki jest zapisana.",
        "dispute": "Kwestionuję",
        "disputed": "Kwestionujesz te wyniki",
    },
    "en-US": {
        "check in": "I am here: check me in",
        "checked in": "You are checked in for round 1",
        "agree": "I agree",
        "agreed": "You agreed with these figures.",
        "dispute": "I dispute",
        "disputed": "You dispute these figures",
    },
}


def row_of(page, name: str):
    """The table row of participant ``name``: its cell says his name (a row's link key may hold "p02": a
    filter on the row's text, which ignores case, would find that row too)."""
    return page.locator("tr").filter(has=page.locator("td, th").filter(has_text=re.compile(rf"^{name}\b")))


def phone_at(browser, live_server, path: str, locale: str) -> Referee:
    """A participant's phone (360 px) in ``locale``, at his page (``path``: his private link)."""
    phone = Referee(browser.new_context(viewport=PHONE, locale=locale).new_page(), live_server.url)
    assert phone.page.goto(f"{live_server.url}{path}").status == 200
    return phone


def check_in_from_link(phone: Referee, locale: str) -> None:
    """He taps "I am here" on his page: checked in, and told so."""
    phone.page.get_by_role("button", name=WORDS[locale]["check in"]).click()
    expect(phone.page.locator(".msg")).to_contain_text(WORDS[locale]["checked in"])
    expect(phone.page.locator(".checked-in")).to_be_visible()


def sign(phone: Referee, locale: str, dispute: str = "") -> None:
    """He agrees with his table's figures on his page, or disputes them saying why (``dispute``)."""
    page, words = phone.page, WORDS[locale]
    if dispute:
        page.locator(".me-sign summary").click()
        page.locator(".me-sign input[name=reason]").fill(dispute)
        page.get_by_role("button", name=words["dispute"], exact=True).click()
        expect(page.locator(".me-sign .negative")).to_contain_text(words["disputed"])
    else:
        page.get_by_role("button", name=words["agree"]).click()
        expect(page.locator(".me-sign .checked-in")).to_contain_text(words["agreed"])


def test_a_new_link_given_and_opened_on_a_phone_in_polish(live_server, browser):
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
    row = row_of(page, "P02")
    expect(row.locator("a.private-link")).to_have_text(f"{live_server.url}{old}")
    row.locator("summary").click()
    row.locator("input[name=reason]").fill("lost his slip")
    row.get_by_role("button", name="New link").click()
    expect(page.locator(".msg")).to_contain_text("P02 has a new link")
    p.refresh_from_db()
    new = link_path(p)
    assert new != old
    row = row_of(page, "P02")
    expect(row.locator("a.private-link")).to_have_text(f"{live_server.url}{new}")
    desk.shot("participant-links-director")
    assert page.goto(f"{live_server.url}{old}").status == 404

    # the participant, on his phone, in Polish
    phone = phone_at(browser, live_server, new, "pl-PL")
    page = phone.page
    expect(page.locator("h1")).to_contain_text("P02")
    expect(page.locator(".seat-now")).to_have_text(f"Runda 2: stolik {table.number}")
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


def scan_at_the_door(desk: Referee, tournament, participant, base_url: str, folder) -> None:
    """The director, on the tournament's page, opens the door's scan page and photographs the participant's
    slip: its QR code is read in the page, and he is checked in."""
    desk.page.get_by_role("link", name="Check-in at the door: scan the slips with a phone").click()
    count = desk.page.locator("#check-in-count")
    expect(count).to_contain_text("Check-in for round 1: ")  # how many are here, at the door too
    here, of = (int(n) for n in re.findall(r"(\d+) of (\d+) here", count.inner_text())[0])
    desk.page.locator("input[data-scan-photo]").set_input_files(
        slip_photo(tournament, participant, base_url, folder)
    )
    expect(desk.page.locator(".msg")).to_have_text(f"{participant.name} is checked in for round 1.")
    expect(count).to_have_text(f"Check-in for round 1: {here + 1} of {of} here")  # one more


def test_two_check_in_from_their_links_the_director_scans_and_ticks_others_and_seats_them(
    live_server,
    browser,
    tmp_path,
):
    director = User.objects.create_user("boss", password="pw", is_staff=True)
    t = make_tournament(5, name="Puchar Łodzi", rounds=2, table_size=4, created_by=director, check_in=True)
    people = {p.name: p for p in t.participants.all()}

    # two participants check in from their phones, one in Polish, one in English
    for name, locale in [("P00", "pl-PL"), ("P01", "en-US")]:
        phone = phone_at(browser, live_server, link_path(people[name]), locale)
        check_in_from_link(phone, locale)
        phone.shot(f"participant-check-in-{locale}")
        phone.page.context.close()

    # the director sees them, ticks a third (no phone), and seats the round: the three, no one else
    desk = director_at(browser, live_server, f"/tournaments/{t.pk}/")
    page = desk.page
    expect(page.locator("#check-in-title")).to_have_text("Check-in for round 1: 2 of 5 here")
    # at the door: P04's slip photographed with the phone (here: the printed slip as an image), its QR code
    # read in the page
    scan_at_the_door(desk, t, people["P04"], live_server.url, tmp_path)
    desk.shot("check-in-scan")
    page.get_by_role("link", name="Puchar Łodzi").click()
    expect(page.locator("#check-in-title")).to_have_text("Check-in for round 1: 3 of 5 here")
    row_of(page, "P03").get_by_role("button", name="check in").click()
    expect(page.locator("#check-in-title")).to_have_text("Check-in for round 1: 4 of 5 here")
    expect(row_of(page, "P03").locator(".checked-in")).to_contain_text("the director")
    desk.shot("check-in-director")
    page.get_by_role("button", name="Seat the next round").click()
    page.wait_for_url(f"**/tournaments/{t.pk}/rounds/1/")
    for name in ("P00", "P01", "P03", "P04"):
        expect(page.locator("main")).to_contain_text(name)
    expect(page.locator(".players")).not_to_contain_text("P02")
    left_out = "1 participant not seated in this round: P02 (did not check in)"
    expect(page.locator("#waiting-live")).to_contain_text(left_out)
    desk.shot("check-in-seated")


def test_the_players_sign_one_disputes_and_the_director_confirms_with_his_ruling(live_server, browser):
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
    phone = phone_at(browser, live_server, link_path(people["P00"]), "en-US")
    expect(phone.page.locator(".me-sign h2")).to_have_text("Your table's result: round 1, table 1")
    sign(phone, "en-US")
    phone.shot("participant-signs-en")
    polish = phone_at(browser, live_server, link_path(people["P01"]), "pl-PL")
    sign(polish, "pl-PL", dispute="hotel na Placu Trzech Krzyży nie został policzony")
    assert polish.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    polish.shot("participant-disputes-pl")

    # the director: his round page says so (not his Confirm refused: tests/test_streams_browser.py has the
    # page say it by itself) and takes him to the table page, which shows who signed what; the dispute stops
    # a plain confirmation
    desk = director_at(browser, live_server, f"/tournaments/{t.pk}/rounds/1/")
    page = desk.page
    waiting = page.locator("#waiting-live")
    expect(waiting).to_contain_text("1 result disputed, the director rules: table 1")
    expect(waiting).not_to_contain_text("to confirm")
    desk.shot("round-disputed")
    waiting.get_by_role("link", name="table 1").click()
    page.wait_for_url(f"**/tournaments/{t.pk}/rounds/1/tables/1/")
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
    browser,
    settings,
):
    settings.PARTICIPANT_POLL_SECONDS = settings.PARTICIPANT_SPREAD_SECONDS = 1  # at once (20 s, 10 s)
    referee = User.objects.create_user("sedzia", password="pw")
    t = make_tournament(4, name="Puchar Łodzi", rounds=2, table_size=4)
    p = t.participants.get(name="P00")
    phone = phone_at(browser, live_server, link_path(p), "en-US")
    page = phone.page
    expect(page.locator(".me-now")).to_contain_text("No round has been seated yet.")
    round_1 = rounds.seat_next_round(t)  # the director seats the round: his page shows his table by itself
    rounds.start_round(round_1)
    table = round_1.tables.get()
    expect(page.locator(".seat-now")).to_have_text("Round 1: table 1", timeout=10_000)
    play_table(table, referee)  # the referee plays the game to its end: its figures, to sign
    expect(page.locator(".me-sign h2")).to_have_text("Your table's result: round 1, table 1", timeout=10_000)
    # he starts to write why he disputes them; a change meanwhile does not take his typing away
    page.locator(".me-sign summary").click()
    page.locator(".me-sign input[name=reason]").fill("a rent was not paid.")
    page.evaluate(ASKED)
    t.participants.get(name="P03").save()  # (the standings' version moves): the page would ask...
    page.wait_for_function("() => window.asked > 0", timeout=30_000)  # ... and is kept from it
    expect(page.locator(".me-sign input[name=reason]")).to_have_value("a rent was not paid.")
    page.get_by_role("button", name="I dispute", exact=True).click()
    said = "You dispute these figures. Your reason: “a rent was not paid.”"  # (no full stop after his own)
    expect(page.locator(".me-sign .negative")).to_contain_text(said)
    assert ".”." not in page.locator(".me-sign .negative").inner_text()
    phone.shot("participant-page-live")


# how many times the participant's page was to read itself anew since (window.asked): its request kept from
# going, or its answer in place
ASKED = """window.asked = 0;
document.addEventListener("htmx:beforeRequest", (e) => {
  if (e.detail.elt.id === "me" && e.defaultPrevented) window.asked += 1;
});
document.addEventListener("htmx:afterRequest", (e) => {
  if (e.detail.xhr.status === 204) window.asked += 1;
});
document.addEventListener("htmx:afterSettle", () => { window.asked += 1; });"""


def walk_shot(who: Referee, name: str) -> None:
    """The walk's screenshots: /tmp/walk-NAME.png (the whole page)."""
    who.page.screenshot(path=f"/tmp/walk-{name}.png", full_page=True)


def not_reloaded(phone: Referee) -> None:
    """A mark on the page as loaded now: ``still_not_reloaded`` finds it until the page is loaded again."""
    phone.page.evaluate("window.notReloaded = true")


def still_not_reloaded(phone: Referee) -> bool:
    return phone.page.evaluate("window.notReloaded === true")


def test_the_day_from_the_printed_slips_to_the_confirmed_result_and_the_links_that_open_nothing(
    live_server,
    browser,
    settings,
    tmp_path,
):
    """The issue's walk, in order, in one browser: the director prints the slips; two participants check in
    from their links (one in Polish, one in English), a third at the door by his slip's QR code; the round is
    seated with those three and started; the referee plays the short game (one round of play) on his console
    while a participant's page follows it without a reload; every player signs, one disputing: the director's
    confirmation is refused, saying why, until he rules. Then another tournament's link, a revoked link and
    forged keys open nothing (404)."""
    settings.PARTICIPANT_POLL_SECONDS = settings.PARTICIPANT_SPREAD_SECONDS = 1  # at once (20 s, 10 s)
    User.objects.create_user("boss", password="pw", is_staff=True)
    referee = User.objects.create_user("sedzia", password="pw", first_name="Jan", last_name="Sędzia")
    referee.groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])
    t = make_tournament(4, name="Puchar Łodzi", rounds=2, table_size=4, game_rounds=1, check_in=True)
    other = make_tournament(["Zenon"], name="Puchar Krakowa")
    people = {p.name: p for p in t.participants.all()}
    base = live_server.url

    # the director prints the slips: one for each participant, his name and his link written out (its QR code
    # beside it)
    desk = director_at(browser, live_server, f"/tournaments/{t.pk}/")
    page = desk.page
    page.get_by_role("link", name="Participants' private links").click()
    walk_shot(desk, "01-director-links")
    href = page.get_by_role("link", name="Slips to print and cut (PDF)").get_attribute("href")
    printed = page.request.get(f"{base}{href}", headers={"Accept-Language": "en-US"})  # as the browser asks
    assert printed.status == 200 and printed.headers["content-type"] == "application/pdf"
    (tmp_path / "slips.pdf").write_bytes(printed.body())
    read = subprocess.run(
        ["pdftotext", tmp_path / "slips.pdf", "-"], capture_output=True, text=True, check=True
    )
    unbroken = "".join(read.stdout.split())  # a link written out may break across lines
    said = " ".join(read.stdout.split())
    assert said.count("Scan: your table, your results, your cards and the standings.") == 4
    for p in people.values():
        assert p.name in read.stdout and f"{base}{link_path(p)}" in unbroken

    # two participants check in from their links: P00 in Polish (her page stays open all day), P01 in English
    anna = phone_at(browser, live_server, link_path(people["P00"]), "pl-PL")
    check_in_from_link(anna, "pl-PL")
    walk_shot(anna, "02-check-in-pl")
    ben = phone_at(browser, live_server, link_path(people["P01"]), "en-US")
    check_in_from_link(ben, "en-US")
    not_reloaded(anna)

    # the third at the door: the director photographs his slip on the scan page
    page.get_by_role("link", name="Puchar Łodzi").click()
    expect(page.locator("#check-in-title")).to_have_text("Check-in for round 1: 2 of 4 here")
    scan_at_the_door(desk, t, people["P02"], base, tmp_path)
    walk_shot(desk, "03-scan")
    page.get_by_role("link", name="Puchar Łodzi").click()
    expect(page.locator("#check-in-title")).to_have_text("Check-in for round 1: 3 of 4 here")

    # the round is seated with the three (P03 did not come), the referee given the table, the round started
    page.get_by_role("button", name="Seat the next round").click()
    page.wait_for_url(f"**/tournaments/{t.pk}/rounds/1/")
    table = page.locator("#table-1")
    expect(table.locator("ul li")).to_have_count(3)  # seated, in no order of play before the game starts
    for name in ("P00", "P01", "P02"):
        expect(table).to_contain_text(name)
    expect(page.locator(".players")).not_to_contain_text("P03")
    expect(page.locator("#waiting-live")).to_contain_text(
        "1 participant not seated in this round: P03 (did not check in)"
    )
    table.get_by_label("Jan Sędzia").check()
    page.get_by_role("button", name="Start the round").click()
    expect(page.locator("#table-1")).to_contain_text("game not started")
    assert Round.objects.get(tournament=t).status == Round.Status.RUNNING
    walk_shot(desk, "04-round-started")
    # Anna's page, as it was opened: her table and its referee, by itself
    expect(anna.page.locator(".seat-now")).to_have_text("Runda 1: stolik 1", timeout=10_000)
    expect(anna.page.locator(".me-now")).to_contain_text("Sędzia: Jan Sędzia")
    for name in ("P01", "P02"):
        expect(anna.page.locator(".me-now")).to_contain_text(name)
    expect(anna.page.locator(".me-now .order-of-play")).to_have_text(  # no order of play claimed yet
        "Kolejność gry ustali rzut na początek, gdy zacznie się gra przy Twoim stoliku."
    )
    walk_shot(anna, "05-seated-pl")

    # the referee: his tables → the table → the order of play tapped (Anna first) → the console
    ref = Referee(
        browser.new_context(viewport=PHONE, device_scale_factor=2, locale="en-US", has_touch=True).new_page(),
        base,
    )
    ref.login("sedzia", "pw", "/my-tables/")
    ref.page.get_by_role("link", name="Round 1, table 1").click()
    for name in ("P00", "P01", "P02"):
        ref.page.locator("button.tap-player", has_text=name).click()
    ref.page.get_by_role("button", name="Start the game").click()
    ref.page.wait_for_url("**/games/*/")
    ref.sees("P00 rolls")
    # the order tapped is on their pages, by themselves: Anna plays first, P01 second (not the seating's)
    expect(anna.page.locator(".me-now .order-of-play")).to_have_text(
        "Twoje miejsce w kolejności gry: 1.", timeout=10_000
    )
    expect(ben.page.locator(".me-now .order-of-play")).to_have_text(
        "You are 2nd in the order of play.", timeout=10_000
    )
    # one round of play (the tournament's games are one round long): Anna pays the income tax, P01 buys a
    # station, P02 is just visiting the jail — the game is over
    ref.roll(1, 3)
    ref.sees("P01 rolls")
    # her page, not reloaded: the tax on her income/cost card, her game in play
    expect(anna.page.locator("#me-cards ~ ul")).to_contain_text("koszty 200 · majątek 1300", timeout=10_000)
    expect(anna.page.locator("table.me-results tbody tr").first).to_contain_text("w grze")
    walk_shot(anna, "06-playing-pl")
    ref.roll(2, 3)
    ref.button("Buy for 200")
    ref.roll(4, 6)
    ref.sees("Game over")
    walk_shot(ref, "07-console-over")
    # her page offers the figures to sign, still without a reload
    expect(anna.page.locator(".me-sign h2")).to_have_text(
        "Wynik Twojego stolika: runda 1, stolik 1", timeout=10_000
    )
    assert still_not_reloaded(anna)
    assert anna.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    walk_shot(anna, "08-to-sign-pl")

    # every player signs: P02 disputes first (in Polish), then Anna and P01 agree
    celina = phone_at(browser, live_server, link_path(people["P02"]), "pl-PL")
    sign(celina, "pl-PL", dispute="P01 zapłacił za dworzec tylko 100")
    walk_shot(celina, "09-dispute-pl")
    sign(anna, "pl-PL")
    # P01's page, open since he checked in, has followed the day by itself too
    expect(ben.page.locator(".me-sign h2")).to_have_text("Your table's result: round 1, table 1")
    sign(ben, "en-US")
    not_reloaded(ben)

    # the director's round page says the table is disputed, and why (no Confirm that would be refused)
    page.goto(f"{base}/tournaments/{t.pk}/rounds/1/")
    expect(page.locator("#waiting-live")).to_contain_text("1 result disputed, the director rules: table 1")
    expect(page.locator("#table-1")).to_contain_text("game over: result disputed")
    expect(page.locator("#table-1")).to_contain_text(
        "A player disputes the figures (P02: P01 zapłacił za dworzec tylko 100): the director rules."
    )
    expect(page.locator("#table-1").get_by_role("button", name="Confirm the result")).to_have_count(0)
    walk_shot(desk, "10-disputed")
    # his ruling, on the table's page, where the players' signatures are
    page.locator("#table-1").get_by_role("link", name="Rule on the table's page").click()
    signed = page.locator("ul.signatures")
    expect(signed).to_contain_text("P00: ✓ agrees")
    expect(signed).to_contain_text("P01: ✓ agrees")
    expect(signed).to_contain_text("P02: ✗ disputes: “P01 zapłacił za dworzec tylko 100”")
    expect(page.locator("#result .notice")).to_contain_text("A player disputes the figures")
    ruling = "the console's log shows 200 paid for the station"
    page.get_by_label("Your ruling (kept in the director's log)").fill(ruling)
    walk_shot(desk, "11-ruling")
    page.get_by_role("button", name="Confirm with this ruling").click()
    expect(page.locator(".msg")).to_contain_text("Result confirmed.")
    expect(page.locator("main")).to_contain_text(ruling)  # the director's log
    # the players' pages, without a reload: nothing more to sign, the result confirmed
    for phone, confirmed in ((ben, "confirmed"), (celina, "zatwierdzony")):
        expect(phone.page.locator(".me-sign")).to_have_count(0, timeout=10_000)
        expect(phone.page.locator("table.me-results tbody tr").first).to_contain_text(confirmed)
    assert still_not_reloaded(ben)
    walk_shot(ben, "12-confirmed-en")

    # links that open nothing: another tournament's key under this one, P03's revoked link, forged keys
    zenon = other.participants.get()
    assert page.goto(f"{base}{link_path(zenon)}").status == 200  # in his own tournament: his page
    assert page.goto(f"{base}/tournaments/{t.pk}/me/{zenon.link_key}/").status == 404
    revoked = link_path(people["P03"])
    assert page.goto(f"{base}{revoked}").status == 200
    page.goto(f"{base}/tournaments/{t.pk}/participants/links/")
    row = row_of(page, "P03")
    row.locator("summary").click()
    row.locator("input[name=reason]").fill("he did not come: his slip was left on the table")
    row.get_by_role("button", name="Revoke").click()
    expect(page.locator(".msg")).to_contain_text("P03's link is revoked")
    assert page.goto(f"{base}{revoked}").status == 404
    key = people["P00"].link_key
    forged = ("A" if key[0] != "A" else "B") + key[1:]
    for path in (f"/tournaments/{t.pk}/me/{forged}/", f"/tournaments/{t.pk}/me/{'x' * 24}/"):
        assert page.goto(f"{base}{path}").status == 404, path
    walk_shot(desk, "13-forged-404")
    assert anna.page.goto(f"{base}{link_path(people['P00'])}").status == 200  # the real one still opens
    for who in (desk, anna, ben, celina, ref):
        who.page.context.close()
