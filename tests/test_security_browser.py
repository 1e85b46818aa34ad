"""The pages under the strict Content-Security-Policy in a real browser (Playwright driving Debian's chromium,
as tests/test_console_browser.py does): the director opens every kind of page (his, the public ones, the
console of a game, the admin's) and the browser reports no violation of the policy and no script error; the
console's rules run on the phone (WebAssembly, which the policy allows) and a move goes through its outbox,
the language menu still switches the language, an error page's Back button still goes back."""

import os

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import Group, User  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from tests.browser import BROWSER_TESTS, DESKTOP, RULES_START_MS, SCREENS, Referee  # noqa: E402
from tests.tournaments import start_game  # noqa: E402
from tournament.event import rounds  # noqa: E402
from tournament.models import Participant, Tournament  # noqa: E402
from tournament.people.access import DIRECTORS_GROUP  # noqa: E402

pytestmark = BROWSER_TESTS
# Recorded in the page itself: Playwright's init script and evaluate() are not subject to the page's policy.
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${where}`);
});
"""


class Watched:
    """A browser tab whose policy violations, policy warnings and script errors are collected."""

    def __init__(self, context, base):
        context.add_init_script(WATCH)
        self.page, self.base, self.problems = context.new_page(), base, []
        self.page.on("pageerror", lambda error: self.problems.append(f"script error: {error}"))
        self.page.on("console", self._console)

    def _console(self, message):
        if "Policy" in message.text:  # "… violates the following Content Security Policy directive …"
            self.problems.append(f"console {message.type}: {message.text}")

    def open(self, path):
        response = self.page.goto(f"{self.base}{path}")
        self.page.wait_for_load_state("load")
        assert response.headers.get("content-security-policy", "").startswith("default-src 'self'"), path
        self.check(path)
        return response

    def shot(self, name):
        SCREENS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)

    def check(self, where):
        self.problems += [f"{where}: {v}" for v in self.page.evaluate("window.__violations || []")]


@pytest.fixture
def tournament_in_play():
    boss = User.objects.create_superuser("boss", password="pw")
    boss.groups.add(Group.objects.create(name=DIRECTORS_GROUP))
    t = Tournament.objects.create(name="Puchar Łodzi", rounds=2, table_size=4, seed=3)
    for name in ["Łucja", "Zenon", "Adam", "Ewa", "Ola", "Piotr", "Kasia", "Marek"]:
        Participant.objects.create(tournament=t, name=name)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get(number=1)
    game = start_game(table, boss)
    return boss, t, game


def test_the_pages_keep_to_the_content_security_policy(live_server, browser, tournament_in_play):
    boss, t, game = tournament_in_play
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    tab = Watched(context, live_server.url)
    tab.open("/login/")
    Referee(tab.page, live_server.url).login("boss", "pw", "/my-tables/")
    tab.check("/my-tables/")

    pages = [
        "/",
        "/games/",
        "/games/new/",
        "/tournaments/",
        "/tournaments/new/",
        f"/tournaments/{t.pk}/",
        f"/tournaments/{t.pk}/edit/",
        f"/tournaments/{t.pk}/rounds/1/",
        f"/tournaments/{t.pk}/rounds/1/tables/1/",
        f"/tournaments/{t.pk}/standings/",
        f"/tournaments/{t.pk}/projector/",
        f"/tournaments/{t.pk}/seating/",
        f"/games/{game.pk}/moves/",
        f"/games/{game.pk}/cards/",
        "/boards/",
        "/admin/",
        "/admin/auth/user/",
        f"/admin/auth/user/{boss.pk}/change/",
        "/admin/auth/user/add/",
        "/admin/tournament/tournament/",
        f"/admin/tournament/tournament/{t.pk}/change/",
        "/admin/tournament/game/",
        "/admin/tournament/gameevent/",
        "/admin/tournament/tableresult/",
        f"/admin/tournament/round/{t.round_set.get().pk}/change/",
        f"/admin/tournament/game/{game.pk}/change/",
    ]
    for path in pages:
        assert tab.open(path).status == 200, path
        if path.endswith("/cards/"):
            tab.shot("security-cards-chart")  # the chart drawn with presentation attributes

    # The console: its rules start on the phone, a roll on the dice pad is applied there and sent.
    tab.open(f"/games/{game.pk}/")
    tab.page.wait_for_selector("#console[data-rules=ready] .roll-card", timeout=RULES_START_MS)
    version = game.version
    with tab.page.expect_response(lambda r: r.request.method == "POST" and "/sync/" in r.url):
        tab.page.locator(".roll-card .pad button[value='12']").click()
    tab.page.wait_for_function("() => document.getElementById('console').dataset.waiting === '0'")
    game.refresh_from_db()
    assert game.version == version + 1
    expect(tab.page.locator(".roll-card .pad button[value='12']")).to_have_count(0)  # the next screen
    assert tab.page.evaluate("document.querySelectorAll('head style').length") == 0  # no style added
    tab.check("console")
    tab.shot("security-console-after-a-roll")

    # The language menu switches the language (its handler now in site.js).
    tab.open("/")
    with tab.page.expect_navigation():
        tab.page.locator("select[name=language]").select_option("pl")
    assert tab.page.locator("html").get_attribute("lang") == "pl"
    tab.check("language")

    # An error page: its Back button is shown and goes back.
    assert tab.open("/no-such-page/").status == 404
    back = tab.page.locator("button[data-history-back]")
    expect(back).to_be_visible()
    with tab.page.expect_navigation():
        back.click()
    assert tab.page.url == f"{live_server.url}/"
    tab.check("back")

    context.close()
    assert tab.problems == [], "\n".join(tab.problems)
