"""The league in a real browser (Playwright driving Debian's chromium, as tests/test_public_browser.py does):
the players by rating and a player's page on a 360 px phone and on a 1920×1080 projector, in English and in
Polish; a click from the league to a player; the figures shown are the stored ones. Screenshots:
/tmp/league_*.png (look at them)."""

from __future__ import annotations

import datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from tests.browser import BROWSER_TESTS, FULL_HD, PHONE
from tests.league import make_players, results_tournament
from tournament.models import PastEntrant, PastEvent, PastPlacement, PlayerRating, RatingStep
from tournament.ratings.rebuild import rebuild

pytestmark = BROWSER_TESTS

SCREENS = Path("/tmp")
FIRST = ["Katarzyna", "Łukasz", "Małgorzata", "Zbigniew", "Żaneta", "Grzegorz", "Agnieszka", "Przemysław"]
LAST = ["Wiśniewska-Grzybowska", "Szczepański", "Brzęczyszczykiewicz", "Kowalczyk", "Źdźbło"]
CLUBS = ["Szkoła Podstawowa nr 12 im. Marii Konopnickiej w Łodzi", "Klub Planszówkowy „Hotel na Woli”", ""]


@pytest.fixture
def league():
    """24 players: a past tournament of 12 of them, then three tournaments of 16 (four tables of four, three
    rounds), the ratings rebuilt."""
    players = []
    for i in range(24):
        (p,) = make_players([f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]} {i + 1}"], club=CLUBS[i % 3])
        players.append(p)
    past = PastEvent.objects.create(name="Mistrzostwa Mazowsza 2025", date=datetime.date(2025, 10, 4))
    for i, p in enumerate(players[:12]):
        entrant = PastEntrant.objects.create(event=past, name=p.name, club=p.club, player=p)
        PastPlacement.objects.create(entrant=entrant, round_number=1, table_number=1 + i // 4, rank=1 + i % 4)
    for n, day in enumerate(
        [datetime.date(2026, 1, 10), datetime.date(2026, 2, 14), datetime.date(2026, 3, 21)]
    ):
        field = [players[(5 * n + k) % 24] for k in range(16)]
        rounds = []
        for r in range(3):
            order = field[r:] + field[:r]
            rounds.append([[(order[t * 4 + s], 1 + (s + t + r + n) % 4) for s in range(4)] for t in range(4)])
        results_tournament(f"Puchar Polski Szkół w Monopoly — etap {n + 1}", day, rounds)
    rebuild()
    return players


def figure(x: float, language: str, places: int = 1) -> str:
    shown = Decimal(repr(x)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    text = str(abs(shown) if shown == 0 else shown)
    return text.replace(".", ",") if language == "pl" else text


def width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def shot(page, name):
    page.screenshot(path=str(SCREENS / f"league_{name}.png"), full_page=True)


@pytest.mark.parametrize(
    ("viewport", "size", "language"),
    [(PHONE, "phone", "en"), (PHONE, "phone", "pl"), (FULL_HD, "projector", "en")],
)
def test_the_league_and_a_players_page(open_page, league, viewport, size, language):
    page = open_page("/league/", viewport, language)
    assert width(page) <= viewport["width"]  # nothing to scroll sideways
    rows = page.locator("table.league tbody tr")
    stored = list(PlayerRating.objects.select_related("player").order_by("-ordinal", "player_id"))
    assert rows.count() == len(stored) == 24
    for i in (0, 1, 23):
        row, rating = rows.nth(i), stored[i]
        assert row.locator("td.name a").inner_text() == rating.player.name
        assert row.locator("td.rating").inner_text() == figure(rating.ordinal, language)
        assert row.locator("td.games").inner_text() == str(rating.games)
        assert figure(abs(rating.change), language) in row.locator("td.trend .change").inner_text()
    club = rows.first.locator("td").nth(2)
    assert club.is_visible() == (size == "projector")  # the club, μ and σ: on a wide screen
    shot(page, f"{size}_{language}")

    # to the second player's page, by his name
    second = stored[1]
    with page.expect_navigation():
        rows.nth(1).locator("td.name a").click()
    assert page.url.endswith(f"/league/players/{second.player_id}/")
    assert page.locator("h1").inner_text() == f"{second.player.name} #{second.player_id}"
    assert page.locator(".rating-now .rating").inner_text() == figure(second.ordinal, language)
    assert width(page) <= viewport["width"]
    steps = RatingStep.objects.filter(player_id=second.player_id).order_by("-date")
    history = page.locator("table.history tbody tr")
    assert history.count() == steps.count()
    for i, step in enumerate(steps):
        assert history.nth(i).locator("td.rating").inner_text() == figure(step.ordinal, language)
    dots = page.locator(".rating-chart svg circle").all()
    assert len(dots) == steps.count()
    assert len({round(d.bounding_box()["x"]) for d in dots}) == len(dots)  # drawn apart, in any language
    assert page.locator("table.results tbody tr:not(.event)").count() == sum(
        s.played for s in steps
    )  # a row a table
    shot(page, f"player_{size}_{language}")
