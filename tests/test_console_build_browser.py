"""A house on each street of a colour group on a 360 px phone in Polish: the player whose turn it is finds
his "Build, sell, mortgage" open, the group's one button enters the three houses (taps counted and printed),
the dice pad still first on the screen. Screenshots of the build section go to out/screens/ (look at them)."""

import os

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from tests.axe import assert_accessible  # noqa: E402
from tests.debts import own  # noqa: E402
from tests.test_console_browser import PHONE, SCREENS, Referee, browser, state  # noqa: E402, F401 (a fixture)
from tournament.games import recording  # noqa: E402

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(os.environ.get("SKIP_BROWSER_TESTS") == "1", reason="SKIP_BROWSER_TESTS=1"),
]
MIN_TARGET = 44  # the height a thumb hits without a second try


@pytest.fixture
def builder(live_server, browser):  # noqa: F811
    """Anna (to roll) owns the light blues and Ulica Konopacka, with 600; the console on a phone in Polish."""
    user = User.objects.create_user("budowniczy", password="pw")
    game = recording.create_game(
        name="Stół 4",
        variant="tournament-pl",
        board="classic-pl",
        referees=[user],
        players=[{"name": "Anna"}, {"name": "Bartek"}, {"name": "Celina"}],
    )
    s = recording.current_state(game)
    own(s, "A", (6, 8, 9, 1))
    own(s, "B", (11, 13))
    s.player("A").cash = 600
    game.state = recording.dump_state(s)
    game.save()
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pl-PL", has_touch=True)
    ref = Referee(context.new_page(), live_server.url)
    ref.login(user.username, "pw", f"/games/{game.pk}/")
    yield game, ref
    context.close()


def test_three_houses_on_a_group_in_one_tap_in_polish(builder):
    game, ref = builder
    page = ref.page
    assert page.locator("html").get_attribute("lang") == "pl"
    anna, bartek = page.locator("article.player").nth(0), page.locator("article.player").nth(1)
    section = anna.locator("details.actions")
    assert section.get_attribute("open") is not None  # her turn, she can build: no tap to open it
    assert bartek.locator("details.actions").get_attribute("open") is None
    pad = page.locator("form.roll")  # the next action is still the first thing on the screen
    assert pad.bounding_box()["y"] < section.bounding_box()["y"]
    assert pad.locator(".pad button").first.bounding_box()["y"] < PHONE["height"]

    group = section.locator("button[name=build_each]")
    assert group.count() == 1
    label = group.inner_text()
    assert "Ulica Radzymińska, Ulica Jagiellońska, Ulica Targowa (150)" in label, label
    assert group.bounding_box()["height"] >= MIN_TARGET
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    section.scroll_into_view_if_needed()
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / "build-01-section-pl-screen.png"))
    # the dice pad's keys (not this part's) are named apart from the faces they show: that rule aside
    assert_accessible(page, "the build section (pl)", disable=("label-content-name-mismatch",))

    ref.taps = 0
    with ref.posted():
        ref.tap(group)
    props = page.locator("article.player").nth(0).locator("li.prop")
    for name in ("Ulica Radzymińska", "Ulica Jagiellońska", "Ulica Targowa"):
        expect(props.filter(has_text=name)).to_contain_text("⌂")
    print(f"\nthree houses on the light blues in {ref.taps} tap(s), the section open in Anna's turn")
    assert ref.taps <= 2
    s = state(game)
    assert [s.holdings[sq].level for sq in (6, 8, 9)] == [1, 1, 1]
    assert s.player("A").cash == 600 - 150
    assert page.locator("#console-error").count() == 0
    # the section stays open for the next one: the group's button again, now for the second houses
    section = page.locator("article.player").nth(0).locator("details.actions")
    assert section.get_attribute("open") is not None
    assert "(150)" in section.locator("button[name=build_each]").inner_text()
    section.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENS / "build-02-after-pl-screen.png"))
