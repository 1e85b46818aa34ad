"""The projector views at 1920×1080, as a hall sees them: the standings and the seating of a 16 to 32 player
tournament on one screen without scrolling (no site header, every column, every row and every table card
in view, no header cut), in English and in Polish; the page turning paused and resumed. Screenshots:
out/screens/projector-*.png (look at them)."""

import os

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from tests.browser import BROWSER_TESTS, FULL_HD, SCREENS  # noqa: E402
from tests.tournaments import CLUBS, FIRST, LAST  # noqa: E402
from tournament.event import rounds  # noqa: E402
from tournament.models import Participant, Tournament  # noqa: E402

pytestmark = BROWSER_TESTS


def make_tournament(players: int, table_size: int = 4) -> Tournament:
    t = Tournament.objects.create(
        name="Mistrzostwa Polski Szkół w Monopoly 2026", rounds=3, table_size=table_size, seed=11
    )
    for i in range(players):
        name = f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]} {i + 1}"
        Participant.objects.create(tournament=t, name=name, club=CLUBS[i % len(CLUBS)])
    return t


@pytest.fixture
def screen(open_page):
    """``screen(path, language)``: the page on a projector (``open_page`` at 1920×1080)."""
    return lambda path, language, viewport=FULL_HD: open_page(path, viewport, language)


def shot(page, name):
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"))


def fits_the_screen(page) -> None:
    """Nothing to scroll: the document is the screen's size."""
    size = page.evaluate(
        "({width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight})"
    )
    assert size == FULL_HD


def bottom(locator) -> float:
    box = locator.bounding_box()
    return box["y"] + box["height"]


def cut_headers(page) -> list[str]:
    return page.evaluate(
        "[...document.querySelectorAll('th')].filter(th => th.scrollWidth > th.clientWidth)"
        ".map(th => th.textContent)"
    )


@pytest.mark.parametrize("language", ["en", "pl"])
@pytest.mark.parametrize("players", [16, 32])
def test_the_standings_projector_shows_a_whole_tournament(screen, language, players):
    t = make_tournament(players)
    page = screen(f"/tournaments/{t.pk}/projector/", language)
    shot(page, f"projector-standings-{players}-{language}")
    fits_the_screen(page)
    assert page.locator("tbody tr").count() == players and page.locator(".page-of").count() == 0
    assert page.locator("table").count() == (1 if players <= 16 else 2)
    assert bottom(page.locator("tbody tr").last) <= FULL_HD["height"]
    assert cut_headers(page) == []
    names = page.locator("td.name")
    assert min(names.evaluate_all("cells => cells.map(c => c.clientWidth)")) > 280  # the names are read
    figures = page.locator("th:nth-child(n+3)").evaluate_all("cells => cells.map(c => c.clientWidth)")
    assert max(figures) < 400  # the figures' columns as wide as their headers: the name takes the rest
    assert page.get_by_role("button", name={"en": "Pause", "pl": "Wstrzymaj"}[language]).is_visible()


@pytest.mark.parametrize("language", ["en", "pl"])
@pytest.mark.parametrize(("players", "table_size"), [(16, 4), (32, 4), (30, 3)])
def test_the_seating_projector_shows_every_table(screen, language, players, table_size):
    t = make_tournament(players, table_size)
    rounds.seat_next_round(t)
    page = screen(f"/tournaments/{t.pk}/seating/?refresh=30", language)
    shot(page, f"projector-seating-{players}-by-{table_size}-{language}")
    assert page.locator("header.topbar").count() == 0  # the projector has no site header
    fits_the_screen(page)
    assert page.locator("ol.who-sits li").count() == players
    assert bottom(page.locator("ol.who-sits li").last) <= FULL_HD["height"]
    cards = page.locator(".table-cards article")
    assert cards.count() == -(-players // table_size)
    assert max(bottom(cards.nth(i)) for i in range(cards.count())) <= FULL_HD["height"]
    tops = {round(cards.nth(i).bounding_box()["y"]) for i in range(cards.count())}
    assert len(tops) < cards.count()  # several tables side by side


def test_the_seating_page_keeps_the_site_header_without_refresh(screen):
    t = make_tournament(8)
    rounds.seat_next_round(t)
    page = screen(f"/tournaments/{t.pk}/seating/", "en")
    assert page.locator("header.topbar").count() == 1 and page.locator("[data-pause]").count() == 0


def test_the_page_turning_pauses_and_resumes(screen, quick_pages):
    t = make_tournament(40)  # two pages of 20
    page = screen(f"/tournaments/{t.pk}/projector/", "en")
    pause = page.get_by_role("button", name="Pause")
    pause.click()
    assert pause.get_attribute("aria-pressed") == "true"
    page.wait_for_timeout((quick_pages + 2) * 1000)
    assert "page=2" not in page.url and "page 1 of 2" in page.locator(".page-of").inner_text()
    pause.click()  # resumed: the next page after PROJECTOR_PAGE_SECONDS
    assert pause.get_attribute("aria-pressed") == "false"
    page.wait_for_url("**page=2", timeout=(quick_pages + 8) * 1000)
    assert "page 2 of 2" in page.locator(".page-of").inner_text()
