"""axe-core (from npm, injected by Playwright: tests/axe.py) finds no critical or serious accessibility
violation on the director's pages, in English and in Polish: the tournaments, a new tournament, a
tournament, a round, a table, a result entered by hand, the board editions, the standings, the seating, the
projector views, a table's live board, a game's replay and the login page."""

import os

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import Group, User  # noqa: E402

from rules.simulate import simulate  # noqa: E402
from tests.axe import assert_accessible  # noqa: E402
from tests.browser import BROWSER_TESTS, DESKTOP, LOCALES, Referee  # noqa: E402
from tests.tournaments import make_tournament, start_game  # noqa: E402
from tournament.event import interventions, rounds  # noqa: E402
from tournament.games import recording  # noqa: E402
from tournament.people import referee_accounts  # noqa: E402
from tournament.people.access import DIRECTORS_GROUP  # noqa: E402

pytestmark = BROWSER_TESTS

T = "/tournaments/{t}"

PAGES = {
    "tournament-list": "/tournaments/",
    "tournament-new": "/tournaments/new/",
    "tournament": T + "/",
    "round": T + "/rounds/1/",
    "round-seated": "/tournaments/{seated}/rounds/1/",
    "table": T + "/rounds/1/tables/1/",
    "table-with-result": T + "/rounds/1/tables/2/",
    "hand-result": T + "/rounds/1/tables/1/result-by-hand/",
    "boards": "/boards/",
    "referees": "/referees/",
    "referee-new": "/referees/new/",
    "referee-account": "/referees/{referee}/",
    "login-link": "/login/link/{secret}/",
    "standings": T + "/standings/",
    "seating": T + "/seating/",
    "seating-projector": T + "/seating/?refresh=30",
    "projector": T + "/projector/",
    "home": "/",
    "live-board": "/tables/{live_table}/board/",
    "replay": "/games/{game}/replay/?at=5",
}


def page_params() -> list:
    params = []
    for name in PAGES:
        for language in LOCALES:
            params.append(pytest.param(name, language, id=f"{name}-{language}"))
    return params


@pytest.fixture
def tournament():
    boss = User.objects.create_user("boss", password="pw")
    boss.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
    names = ["Łucja", "Zenon", "Adam", "Ewa", "Ola", "Piotr", "Kasia", "Marek"]
    t = make_tournament(
        names,
        lambda i: "SP 1" if i < 3 else "",
        name="Puchar Łodzi",
        rounds=2,
        table_size=4,
        seed=3,
        created_by=boss,
    )
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get(number=2)
    places = {s.participant_id: (i + 1, 1500 - 100 * i) for i, s in enumerate(table.seats.all())}
    interventions.enter_result(table, places, boss, "the tablet's battery died")
    seated = make_tournament(names, name="Puchar Gdańska", rounds=2, table_size=4, seed=5, created_by=boss)
    rounds.seat_next_round(seated)  # not started: its players may still be swapped
    referee, secret, _link = referee_accounts.add_referee("Zofia Kamińska", "zofia", None, boss)
    # a game 12 moves in, at a table of a tournament that shows its boards: its live board and its replay
    live = make_tournament(
        names[:4], name="Puchar Krakowa", rounds=1, table_size=4, live_boards=True, created_by=boss
    )
    rounds.start_round(rounds.seat_next_round(live))
    table = live.round_set.get().tables.get()
    game = start_game(table, boss)
    for event in simulate(live.variant, live.board, 4, seed=7, rounds=live.game_rounds)["events"][:12]:
        game = recording.submit(game.pk, event, version=game.version).game
    return {
        "t": t.pk,
        "seated": seated.pk,
        "referee": referee.pk,
        "secret": secret,
        "live_table": table.pk,
        "game": game.pk,
    }


@pytest.mark.parametrize(("name", "language"), page_params())
def test_no_serious_accessibility_violation(live_server, browser, tournament, name, language):
    context = browser.new_context(viewport=DESKTOP, locale=LOCALES[language])
    try:
        page = context.new_page()
        path = PAGES[name].format(**tournament)
        Referee(page, live_server.url).login("boss", "pw", "/tournaments/")
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200
        assert page.locator("html").get_attribute("lang") == language
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")  # forms inside
        assert_accessible(page, f"{name} ({language})")
    finally:
        context.close()


@pytest.mark.parametrize("language", LOCALES)
def test_the_login_page_has_no_serious_accessibility_violation(live_server, browser, language):
    context = browser.new_context(viewport=DESKTOP, locale=LOCALES[language])
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/login/?next=/tournaments/")
        assert_accessible(page, f"login ({language})")
    finally:
        context.close()
