"""The director's pages on a 360 px phone, in Polish and in English: the tournament page (participants with
long names and clubs, rounds, directors, the director's log) and the board editions fit the screen's width,
nothing to scroll sideways (a wide table scrolls within its own box). Screenshots: out/screens/ (look at
them)."""

import os

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import Group, User  # noqa: E402

from tests.browser import BROWSER_TESTS, LOCALES, PHONE, Referee  # noqa: E402
from tests.tournaments import CLUBS, FIRST, LAST  # noqa: E402
from tournament.event import interventions, rounds  # noqa: E402
from tournament.models import Participant, Tournament  # noqa: E402
from tournament.people.access import DIRECTORS_GROUP  # noqa: E402

pytestmark = BROWSER_TESTS


@pytest.fixture
def tournament():
    group = Group.objects.create(name=DIRECTORS_GROUP)
    boss = User.objects.create_user("boss", password="pw")
    boss.groups.add(group)
    co = User.objects.create_user("wspoldyrektor.turnieju.szkolnego", password="pw")
    co.groups.add(group)
    t = Tournament.objects.create(
        name="Mistrzostwa Polski Szkół w Monopoly 2026", rounds=3, table_size=4, seed=11, created_by=boss
    )
    t.directors.add(co)
    for i in range(12):
        name = f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]} {i + 1}"
        Participant.objects.create(tournament=t, name=name, club=CLUBS[i % len(CLUBS)], seed=1000 + i)
    rounds.seat_next_round(t)
    interventions.withdraw(t.participants.first(), boss, "zachorował w trakcie pierwszej rundy turnieju")
    return t


@pytest.mark.parametrize("language", ["pl", "en"])
@pytest.mark.parametrize("page_name", ["tournament", "boards"])
def test_a_director_page_fits_a_phone(live_server, browser, tournament, language, page_name):
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, locale=LOCALES[language], has_touch=True
    )
    try:
        page = context.new_page()
        director = Referee(page, live_server.url)
        path = {"tournament": f"/tournaments/{tournament.pk}/", "boards": "/boards/"}[page_name]
        director.login("boss", "pw", path)
        page.evaluate(
            "document.querySelectorAll('details').forEach(d => { d.open = true; })"
        )  # the forms too
        director.shot(f"director-phone-{page_name}-{language}")
        wide = page.evaluate(
            "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 361"
            " && !e.closest('.scroll')).map(e => e.tagName + '.' + e.className).slice(0, 8)"
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide
    finally:
        context.close()
