"""A trade begun from a title deed, in a real browser on a 360 px phone: the deed tapped in its owner's card,
the cash typed, the trade recorded — three taps — in Polish and in English, and without JavaScript.
Screenshots go to out/screens/deed-trade-*.png."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests import test_console_browser as phone
from tests.axe import assert_accessible
from tests.test_console_browser import PHONE, SCREENS, Referee, state
from tests.test_console_targets_browser import small_targets
from tournament.games import recording

pytestmark = phone.pytestmark
browser = phone.browser  # one chromium for the module


def dealt_game(live_server, browser, locale, javascript=True):  # noqa: F811
    """A short game on the Polish board: Anna holds ul. Konopacka and ul. Stalowa, Bartek ul. Radzymińska and
    ul. Jagiellońska, Celina ul. Płowiecka and ul. Marsa; Anna has the move. The referee's phone on it."""
    user = User.objects.create_user(f"ref-{locale}-{javascript}", password="pw")
    game = recording.create_game(
        name="Stół 5",
        variant="short",
        board="classic-pl",
        referees=[user],
        players=[{"name": "Anna"}, {"name": "Bartek"}, {"name": "Celina"}],
    )
    for pid, squares in (("A", [1, 3]), ("B", [6, 8]), ("C", [11, 13])):
        game.refresh_from_db()
        recording.submit(game.pk, {"type": "deal", "player": pid, "squares": squares}, version=game.version)
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, locale=locale, has_touch=True, java_script_enabled=javascript
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/login/?next=/games/{game.pk}/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", "pw")
    with page.expect_navigation():  # the login form's own button (without scripts the language has one too)
        page.locator("form:has(input[name=password]) button[type=submit]").click()
    return game, Referee(page, live_server.url), context


def deed(page, owner, name):
    return page.locator(".player", has_text=owner).locator("li.prop a", has_text=name)


def screen(ref, name):
    """What the phone shows where the referee is (not the whole page)."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    ref.page.screenshot(path=str(SCREENS / f"deed-trade-{name}.png"))


@pytest.mark.parametrize(
    ("locale", "record"), [("pl-PL", "Zapisz transakcję"), ("en-US", "Record the trade")]
)
def test_a_deed_bought_from_another_player_in_three_taps(live_server, browser, locale, record):  # noqa: F811
    game, ref, context = dealt_game(live_server, browser, locale)
    page = ref.page
    link = deed(page, "Bartek", "Radzymińska")
    assert link.evaluate("a => a.getBoundingClientRect().height") >= 44
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.locator("section.players").screenshot(path=str(SCREENS / f"deed-trade-01-cards-{locale}.png"))
    ref.taps = 0
    ref.tap(link)
    trade = page.locator("details.trade")
    expect(trade).to_have_attribute("open", "")
    assert trade.locator("select[name=player]").input_value() == "A"
    assert trade.locator("select[name=with]").input_value() == "B"
    expect(trade.locator("input[name=get_squares][value='6']")).to_be_checked()
    assert trade.locator("input[name=get_squares]:checked").count() == 1
    cash = trade.locator("input[name=give_cash]")
    expect(cash).to_be_focused()  # the phone's keyboard is up for the price
    assert trade.evaluate("d => d.getBoundingClientRect().top > -1 && d.getBoundingClientRect().top < 200")
    assert small_targets(page) == []
    cash.fill("150")
    ref.taps += 1  # the price typed
    screen(ref, f"02-filled-{locale}")
    assert_accessible(page, f"the trade opened from a deed ({locale})")
    with ref.posted():
        ref.tap(trade.get_by_role("button", name=record))
    annas = page.locator(".player", has_text="Anna")
    expect(annas.locator("li.prop", has_text="Radzymińska")).to_have_count(1)
    assert ref.taps == 3
    s = state(game)
    assert s.owner_of(6) == "A" and s.player("A").cash == 1500 - 60 - 60 - 150
    screen(ref, f"03-recorded-{locale}")
    context.close()


def test_her_own_deed_is_given_to_the_next_player_who_can_be_changed(live_server, browser):  # noqa: F811
    game, ref, context = dealt_game(live_server, browser, "pl-PL")
    page = ref.page
    ref.tap(deed(page, "Anna", "Stalowa"))
    trade = page.locator("details.trade")
    expect(trade.locator("input[name=give_squares][value='3']")).to_be_checked()
    expect(trade.locator("input[name=get_cash]")).to_be_focused()
    trade.locator("select[name=with]").select_option(label="Celina")  # not Bartek: Celina buys it
    trade.locator("input[name=get_cash]").fill("100")
    with ref.posted():
        ref.tap(trade.get_by_role("button", name="Zapisz transakcję"))
    s = state(game)
    assert s.owner_of(3) == "C" and s.player("A").cash == 1500 - 60 - 60 + 100
    context.close()


def test_a_second_deed_tapped_starts_the_trade_again(live_server, browser):  # noqa: F811
    """What an earlier tap filled in does not stay ticked: the form is the deed's trade."""
    game, ref, context = dealt_game(live_server, browser, "pl-PL")
    page = ref.page
    ref.tap(deed(page, "Bartek", "Radzymińska"))
    page.locator("input[name=give_cash]").fill("99")
    ref.tap(deed(page, "Celina", "Marsa"))
    trade = page.locator("details.trade")
    assert trade.locator("select[name=with]").input_value() == "C"
    assert [trade.locator("input[name=get_squares]:checked").get_attribute("value")] == ["13"]
    assert trade.locator("input[name=give_cash]").input_value() == ""
    context.close()


def test_without_javascript_a_deed_opens_its_trade_filled_in(live_server, browser):  # noqa: F811
    game, ref, context = dealt_game(live_server, browser, "pl-PL", javascript=False)
    page = ref.page
    with page.expect_navigation():
        ref.tap(deed(page, "Celina", "Płowiecka"))
    trade = page.locator("details.trade")
    expect(trade).to_have_attribute("open", "")
    assert trade.locator("select[name=with]").input_value() == "C"
    expect(trade.locator("input[name=get_squares][value='11']")).to_be_checked()
    page.fill("input[name=give_cash]", "200")
    with page.expect_navigation():
        trade.get_by_role("button", name="Zapisz transakcję").click()
    assert state(game).owner_of(11) == "A"
    context.close()
