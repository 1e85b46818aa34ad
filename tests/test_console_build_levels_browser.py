"""Several building levels on one street in one tap, on a 360 px phone: in Polish, three houses on ul. Targowa
in one tap, then its hotel in one more; the build section's rows (a street's name, then "+1 · 50", "+2 · 100",
…, "hotel · 250") fit the phone, every button a thumb's height, axe-core clean, the dice pad still first on
the screen. Screenshots in Polish and in English go to out/screens/ (look at them)."""

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
TARGOWA, KONOPACKA, UJAZDOWSKIE = 9, 1, 39  # 50, 50 and 200 a house


@pytest.fixture
def builder(live_server, browser):  # noqa: F811
    """Anna (to roll) owns ul. Targowa, ul. Konopacka and Aleje Ujazdowskie, none built, with 700; Bartek the
    other light blues. A phone in ``locale`` opens the console."""
    user = User.objects.create_user("budowniczy", password="pw")
    game = recording.create_game(
        name="Stół 4",
        variant="tournament-pl",
        board="classic-pl",
        referees=[user],
        players=[{"name": "Anna"}, {"name": "Bartek"}, {"name": "Celina"}],
    )
    s = recording.current_state(game)
    own(s, "A", (KONOPACKA, TARGOWA, UJAZDOWSKIE))
    own(s, "B", (6, 8))
    s.player("A").cash = 700
    game.state = recording.dump_state(s)
    game.save()
    contexts = []

    def phone(locale):
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale=locale, has_touch=True)
        contexts.append(context)
        ref = Referee(context.new_page(), live_server.url)
        ref.login(user.username, "pw", f"/games/{game.pk}/")
        return ref

    yield game, phone
    for context in contexts:
        context.close()


def labels(row) -> list[str]:
    """What a row's buttons show: the levels and, below, their cost ("+2 · 100")."""
    return row.locator("button").evaluate_all(
        "bs => bs.map(b => b.querySelector('.n').innerText + ' · ' + b.querySelector('.cost').innerText)"
    )


def section_of_anna(page):
    return page.locator("article.player").nth(0).locator("details.actions")


def check_the_screen(page, what):
    """Every button of the section a thumb's height, nothing wider than the phone, no serious axe findings."""
    buttons = section_of_anna(page).locator("button")
    heights = buttons.evaluate_all("bs => bs.map(b => [b.innerText, b.getBoundingClientRect().height])")
    assert heights and all(h >= MIN_TARGET for _text, h in heights), heights
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # the dice pad's keys (not this part's) are named apart from the faces they show: that rule aside
    assert_accessible(page, what, disable=("label-content-name-mismatch",))


def shot(page, name):
    SCREENS.mkdir(parents=True, exist_ok=True)
    section_of_anna(page).scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENS / f"{name}.png"))


def test_three_houses_then_the_hotel_on_one_street_in_polish(builder):
    game, phone = builder
    ref = phone("pl-PL")
    page = ref.page
    assert page.locator("html").get_attribute("lang") == "pl"
    section = section_of_anna(page)
    assert section.get_attribute("open") is not None  # her turn, she can build
    pad = page.locator("form.roll")  # the next action is still the first thing on the screen
    assert pad.bounding_box()["y"] < section.bounding_box()["y"]
    assert pad.locator(".pad button").first.bounding_box()["y"] < PHONE["height"]

    targowa = section.locator(".levels", has_text="Ulica Targowa")
    assert labels(targowa) == [
        "+1 · 50",
        "+2 · 100",
        "+3 · 150",
        "+4 · 200",
        "hotel · 250",
    ]
    ujazdowskie = section.locator(".levels", has_text="Aleje Ujazdowskie")
    assert labels(ujazdowskie) == ["+1 · 200", "+2 · 400", "+3 · 600"]  # cash: 700
    # a screen reader hears which street
    expect(targowa.get_by_role("button", name="Buduj na polu Ulica Targowa: +3 · 150")).to_have_count(1)
    check_the_screen(page, "the build section's rows (pl)")
    shot(page, "levels-01-section-pl")

    ref.taps = 0
    with ref.posted():
        ref.tap(targowa.get_by_role("button", name="+3 · 150"))
    props = page.locator("article.player").nth(0).locator("li.prop")
    expect(props.filter(has_text="Ulica Targowa")).to_contain_text("⌂⌂⌂")
    print(f"\nthree houses on ul. Targowa in {ref.taps} tap(s)")
    assert ref.taps == 1
    expect(page.locator("#just-now")).to_contain_text(
        "Anna buduje na polu Ulica Targowa (poziomów: 3, teraz domy: 3) za 150."
    )
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENS / "levels-02-just-now-pl.png"))  # the move just made, its undo beside it
    s = state(game)
    assert (s.holdings[TARGOWA].level, s.player("A").cash) == (3, 700 - 150)
    assert page.locator("#console-error").count() == 0

    section = section_of_anna(page)
    assert section.get_attribute("open") is not None  # open still, for the next one
    targowa = section.locator(".levels", has_text="Ulica Targowa")
    assert labels(targowa) == ["+1 · 50", "hotel · 100"]
    check_the_screen(page, "the rows after three houses (pl)")
    shot(page, "levels-03-after-three-houses-pl")

    with ref.posted():
        ref.tap(targowa.get_by_role("button", name="hotel · 100"))
    expect(page.locator("#just-now")).to_contain_text(
        "Anna buduje na polu Ulica Targowa (poziomów: 2, teraz hotel) za 100."
    )
    expect(
        page.locator("article.player").nth(0).locator("li.prop", has_text="Ulica Targowa")
    ).to_contain_text("hotel")
    assert ref.taps == 2
    s = state(game)
    assert (s.holdings[TARGOWA].level, s.player("A").cash) == (5, 700 - 250)
    assert section_of_anna(page).locator(".levels", has_text="Ulica Targowa").count() == 0  # nothing more
    shot(page, "levels-04-the-hotel-pl")


def test_the_rows_in_english(builder):
    game, phone = builder
    ref = phone("en-US")
    page = ref.page
    assert page.locator("html").get_attribute("lang") == "en"
    konopacka = section_of_anna(page).locator(".levels", has_text="Ulica Konopacka")
    assert labels(konopacka)[-1] == "hotel · 250"
    check_the_screen(page, "the build section's rows (en)")
    shot(page, "levels-05-section-en")
    with ref.posted():
        ref.tap(konopacka.get_by_role("button", name="Build on Ulica Konopacka: +2 · 100"))
    expect(page.locator("#just-now")).to_contain_text(
        "Anna builds 2 levels on Ulica Konopacka (now 2 houses) for 100."
    )
    assert state(game).holdings[KONOPACKA].level == 2
    shot(page, "levels-06-after-two-houses-en")


def test_building_evenly_one_level_a_street_beside_its_name(live_server, browser):  # noqa: F811
    """The classic rules on the English board: with the light blues even, one level is all a street takes
    now; its one button sits beside the street's name, the group's "A house on each" above."""
    user = User.objects.create_user("evenly", password="pw")
    game = recording.create_game(
        variant="classic", board="classic-us", referees=[user], players=[{"name": "Anna"}, {"name": "Bob"}]
    )
    s = recording.current_state(game)
    own(s, "A", (6, 8, 9), 1)
    game.state = recording.dump_state(s)
    game.save()
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="en-US", has_touch=True)
    ref = Referee(context.new_page(), live_server.url)
    ref.login(user.username, "pw", f"/games/{game.pk}/")
    page = ref.page
    section = section_of_anna(page)
    rows = section.locator(".levels")
    assert rows.count() == 3
    for n in range(3):
        assert labels(rows.nth(n)) == ["+1 · 50"]
        name, button = (
            rows.nth(n).locator(".street").bounding_box(),
            rows.nth(n).locator("button").bounding_box(),
        )
        assert button["y"] <= name["y"] + name["height"] and button["x"] > name["x"]  # on the name's line
    assert section.locator("button[name=build_each]").count() == 1
    check_the_screen(page, "building evenly (en)")
    shot(page, "levels-07-classic-evenly-en")
    context.close()
