"""A director imports his participants' list in the browser: the file chosen as a browser chooses it, the
names shown before anything is stored (a Windows-1250 file said so, for him to check the Polish letters),
stored when he taps Import, and nothing when he cancels. On a phone in Polish and on a desktop in English."""

import re

import pytest
from django.contrib.auth.models import Group, User
from playwright.sync_api import expect

from tests.axe import assert_accessible
from tests.browser import BROWSER_TESTS, DESKTOP, PHONE, Referee
from tournament.models import Participant, Tournament
from tournament.people.access import DIRECTORS_GROUP

pytestmark = BROWSER_TESTS
LIST = "Imię;Klub;Rozstawienie\nŻaneta Łęcka;SP 12 Łódź;1\nPaweł Źdźbło;;\nIgor Ślęzak;Kraków;\n"
WORDS = {
    "en": {
        "fold": "Import from Excel or CSV",
        "go": "Import",
        "sure": "Import these 3 participants",
        "cancel": "Cancel",
        "done": "3 participants imported.",
        "read_as": "it was read as Windows-1250",
    },
    "pl": {
        "fold": "Import z Excela lub CSV",
        "go": "Importuj",
        "sure": "Importuj 3 uczestników",
        "cancel": "Anuluj",
        "done": "Zaimportowano uczestników: 3.",
        "read_as": "został odczytany jako Windows-1250",
    },
}


@pytest.mark.parametrize(
    ("language", "viewport", "encoding"),
    [("pl", PHONE, "cp1250"), ("en", DESKTOP, "utf-8")],
    ids=["polish-phone-windows-1250", "english-desktop-utf-8"],
)
def test_the_names_are_shown_then_imported_as_shown(
    live_server,
    browser,
    tmp_path,
    language,
    viewport,
    encoding,
):
    boss = User.objects.create_user("boss", password="pw")
    boss.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
    t = Tournament.objects.create(name="Puchar Łodzi", created_by=boss)
    listed = tmp_path / "lista.csv"
    listed.write_bytes(LIST.encode(encoding))
    context = browser.new_context(viewport=viewport, locale="pl-PL" if language == "pl" else "en-US")
    d = Referee(context.new_page(), live_server.url)
    d.login("boss", "pw", f"/tournaments/{t.pk}/")
    if language == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
        d.page.reload()
    w, page = WORDS[language], d.page

    def choose_the_file():
        page.get_by_text(w["fold"], exact=True).click()
        page.set_input_files(
            f"form[action='/tournaments/{t.pk}/participants/import/'] input[type=file]", listed
        )
        page.get_by_role("button", name=w["go"], exact=True).click()
        expect(page.get_by_role("button", name=w["sure"])).to_be_visible()

    choose_the_file()  # then he cancels: nothing stored
    for name in ("Żaneta Łęcka", "Paweł Źdźbło", "Igor Ślęzak"):
        expect(page.locator("td.title", has_text=name)).to_have_count(1)
    if encoding == "cp1250":
        expect(page.locator(".notice")).to_contain_text(w["read_as"])
    else:
        expect(page.locator(".notice")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert_accessible(page, f"participants preview ({language})")
    d.shot(f"28-participants-preview-{language}")
    assert not Participant.objects.exists()
    page.get_by_role("link", name=w["cancel"], exact=True).click()
    page.wait_for_url(re.compile(rf".*/tournaments/{t.pk}/$"))
    assert not Participant.objects.exists()

    choose_the_file()  # and this time he imports them
    page.get_by_role("button", name=w["sure"]).click()
    expect(page.get_by_text(w["done"])).to_be_visible()
    assert sorted(t.participants.values_list("name", flat=True)) == [
        "Igor Ślęzak",
        "Paweł Źdźbło",
        "Żaneta Łęcka",
    ]
    assert t.participants.get(name="Żaneta Łęcka").seed == 1
    context.close()
