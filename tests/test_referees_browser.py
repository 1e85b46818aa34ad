"""Referee accounts in a real browser, as the director and the referees meet them: a referee added with a
password, another with a one-time login link (its QR code and URL); the second opens the link on his phone and
lands on his tables, and the link opened again is refused; the first deactivated cannot log in. The round
started with the referees ticked on its page (one tap: Start sends the ticks too), on a 360 px phone in
Polish. Screenshots go to out/screens/ (look at them).

Selectors avoid the new pages' wording where a translation may change it (the Polish of the new texts is
merged later): forms by their action, buttons by their form."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import Group, User  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from tests.browser import BROWSER_TESTS, DESKTOP, PHONE, Referee, add_referee  # noqa: E402
from tournament.event import rounds  # noqa: E402
from tournament.models import LoginLink, Participant, Round, Tournament  # noqa: E402
from tournament.people.access import DIRECTORS_GROUP  # noqa: E402

pytestmark = BROWSER_TESTS


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_the_director_adds_referees_and_one_logs_in_with_his_link(live_server, browser):
    boss = User.objects.create_user("boss", password="pw")
    boss.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
    t = Tournament.objects.create(name="Puchar Torunia", rounds=2, table_size=4, seed=5, created_by=boss)
    t.directors.add(boss)
    for name in ["Łucja", "Zenon", "Adam", "Ewa", "Ola", "Piotr", "Kasia", "Marek"]:
        Participant.objects.create(tournament=t, name=name)
    rounds.seat_next_round(t)
    base = live_server.url

    # On the desktop: the referees' page, reached from the director's landing page.
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    director = Referee(page, base)
    director.login("boss", "pw", "/my-tables/")
    page.locator("a[href='/referees/']").first.click()
    page.wait_for_url("**/referees/")
    add_referee(page, base, "Jan Kowalski", "jkowalski", "short")
    expect(page.locator("main .error").first).to_be_visible()  # the password validators: nothing added
    assert not User.objects.filter(username="jkowalski").exists()
    add_referee(page, base, "Jan Kowalski", "jkowalski", "sobota-2026")
    page.wait_for_url("**/referees/")
    expect(page.locator("table.referees")).to_contain_text("Jan Kowalski")
    add_referee(page, base, "Ewa Maria Lis", "ewa")
    link_url = page.locator(".link-url").inner_text().strip()
    assert "/login/link/" in link_url and page.locator("img.qr").is_visible()
    until = page.locator("main").inner_text()
    assert "Until " in until and ".." not in until  # ("p.m." not followed by a second full stop)
    assert page.evaluate("document.querySelector('img.qr').naturalWidth") > 0  # the QR code's SVG is drawn
    director.shot("referees-03-link-1280")
    page.goto(f"{base}/referees/")
    expect(page.locator("table.referees")).to_contain_text("Ewa Maria Lis")
    director.shot("referees-01-list-1280")
    jan, ewa = User.objects.get(username="jkowalski"), User.objects.get(username="ewa")
    page.goto(f"{base}/referees/{jan.pk}/")
    director.shot("referees-04-account-1280")
    context.close()

    # On the director's phone, in Polish: the round's referees ticked, the round started with one tap.
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pl-PL", has_touch=True)
    page = context.new_page()
    phone = Referee(page, base)
    phone.login("boss", "pw", f"/tournaments/{t.pk}/rounds/1/")
    chip = page.locator(f"input[name=table_1][value='{ewa.pk}']").locator("xpath=..")
    expect(chip).to_contain_text("Ewa Maria Lis")  # the name, not the login
    page.locator(f"input[name=table_1][value='{ewa.pk}']").check()
    page.locator(f"input[name=table_2][value='{jan.pk}']").check()
    assert fits(page)
    phone.shot("referees-05-round-ticks-phone-pl")
    page.get_by_role("button", name="Rozpocznij rundę").click()  # not "Save the referees" first
    page.wait_for_load_state()
    expect(page.locator("body")).to_contain_text("Ewa Maria Lis")
    round_ = Round.objects.get(tournament=t)
    assert round_.status == Round.Status.RUNNING
    assert [u.username for u in round_.tables.get(number=1).referees.all()] == ["ewa"]
    assert [u.username for u in round_.tables.get(number=2).referees.all()] == ["jkowalski"]
    phone.shot("referees-06-round-started-phone-pl")
    for path, name in [
        ("/referees/", "referees-07-list-phone-pl"),
        ("/referees/new/", "referees-08-add-phone-pl"),
        (f"/referees/{jan.pk}/", "referees-09-account-phone-pl"),
    ]:
        page.goto(base + path)
        assert fits(page), path
        phone.shot(name)

    # Ewa opens her link on her own phone (a fresh browser): one tap, and she is at her tables.
    ewa_phone = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pl-PL", has_touch=True)
    her = ewa_phone.new_page()
    her.goto(link_url)
    expect(her.locator("main")).to_contain_text("Ewa Maria Lis")
    Referee(her, base).shot("referees-10-link-opened-phone-pl")
    her.locator("main form button[type=submit]").click()
    her.wait_for_url("**/my-tables/")
    expect(her.locator("main")).to_contain_text("Puchar Torunia")
    expect(her.locator(f"a[href='/tournaments/{t.pk}/rounds/1/tables/1/']").first).to_be_visible()
    assert fits(her)
    Referee(her, base).shot("referees-11-her-tables-phone-pl")
    assert LoginLink.objects.get(user=ewa).used_at is not None
    ewa_phone.close()

    # The link opened again (another phone, or the same link forwarded): refused, saying why.
    other = browser.new_context(viewport=PHONE, locale="pl-PL")
    again = other.new_page()
    response = again.goto(link_url)
    assert response.status == 410
    expect(again.locator("main .error")).to_be_visible()
    Referee(again, base).shot("referees-12-link-used-phone-pl")
    assert again.locator("main form button[type=submit]").count() == 0
    other.close()

    # A new one-time link for Ewa, shown on the director's phone with its QR code.
    page.goto(f"{base}/referees/{ewa.pk}/")
    page.locator("form[action$='/link/'] button").click()
    expect(page.locator("img.qr")).to_be_visible()
    assert fits(page)
    phone.shot("referees-13-new-link-phone-pl")

    # Jan deactivated: his password no longer logs him in.
    page.goto(f"{base}/referees/{jan.pk}/")
    page.locator("form[action$='/active/'] button").click()
    page.wait_for_load_state()
    assert not User.objects.get(pk=jan.pk).is_active
    phone.shot("referees-14-deactivated-phone-pl")
    context.close()

    refused = browser.new_context(viewport=PHONE, locale="pl-PL")
    login = refused.new_page()
    login.goto(f"{base}/login/")
    login.fill("input[name=username]", "jkowalski")
    login.fill("input[name=password]", "sobota-2026")
    login.locator("main form button[type=submit]").click()
    login.wait_for_load_state()
    assert "/login/" in login.url
    expect(login.locator("main .errorlist")).to_be_visible()
    refused.close()
