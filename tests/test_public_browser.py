"""The public pages in a real browser (Playwright driving Debian's chromium, as tests/test_console_browser.py
does): the projector pages through 40 participants' standings (two pages of 20) at 1920×1080 without
scrolling; the standings and the seating fit a 360 px phone, in Polish and in English. Screenshots:
out/screens/ (look at them)."""

import pytest

from tests.browser import BROWSER_TESTS, FULL_HD, PHONE, SCREENS
from tests.tournaments import CLUBS, FIRST, LAST, make_tournament
from tournament.event import rounds

pytestmark = BROWSER_TESTS


@pytest.fixture
def tournament():
    names = [f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]} {i + 1}" for i in range(40)]
    clubs = [CLUBS[i % len(CLUBS)] for i in range(40)]
    return make_tournament(names, clubs, name="Mistrzostwa Polski Szkół w Monopoly 2026", rounds=3, seed=11)


def size(page) -> dict:
    return page.evaluate(
        "({width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight})"
    )


def shot(page, name, full_page=True):
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=full_page)


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_projector_pages_through_40_participants(open_page, tournament, language, quick_pages):
    page = open_page(f"/tournaments/{tournament.pk}/projector/", FULL_HD, language)
    assert page.locator("tbody tr").count() == 20  # 40 shared evenly by two pages
    assert size(page) == {"width": 1920, "height": 1080}  # a whole page of rows, nothing to scroll
    indicator = {"en": "page 1 of 2", "pl": "1"}[language]  # the Polish words come with the lead's catalog
    assert indicator in page.locator(".page-of").inner_text()
    first_rows = page.locator("tbody td.name").all_inner_texts()
    shot(page, f"public-projector-{language}-page1", full_page=False)
    if language == "pl":
        return
    page.wait_for_url("**page=2", timeout=(quick_pages + 8) * 1000)  # it turns the page by itself
    page.wait_for_load_state()
    assert "page 2 of 2" in page.locator(".page-of").inner_text()
    assert not set(first_rows) & set(page.locator("tbody td.name").all_inner_texts())
    assert size(page) == {"width": 1920, "height": 1080}
    shot(page, f"public-projector-{language}-page2", full_page=False)


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_standings_fit_a_phone(open_page, tournament, language):
    page = open_page(f"/tournaments/{tournament.pk}/standings/", PHONE, language)
    assert size(page)["width"] <= PHONE["width"]
    assert page.evaluate(
        "(s => s.scrollWidth <= s.clientWidth)(document.querySelector('.scroll'))"
    )  # no scroll
    assert page.locator("table.standings td.wide-only").first.is_hidden()  # the club: on wider screens
    shot(page, f"public-standings-phone-{language}")
    wide = open_page(f"/tournaments/{tournament.pk}/standings/", {"width": 1024, "height": 768}, language)
    assert wide.locator("table.standings td.wide-only").first.is_visible()


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_seating_fits_a_phone(open_page, tournament, language):
    rounds.seat_next_round(tournament)
    for query, name in (("", "phone"), ("?refresh=30", "big-screen")):
        page = open_page(f"/tournaments/{tournament.pk}/seating/{query}", PHONE, language)
        assert page.locator("ol.who-sits li").count() == 40
        assert size(page)["width"] <= PHONE["width"]
        shot(page, f"public-seating-{name}-{language}")
