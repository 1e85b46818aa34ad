"""The screen matches the banknotes (issue 20), on a 360 px phone in Polish: while a debt is outstanding the
creditor's card shows what he holds on the table beside his booked cash, and a cash count with a difference
shows the difference and the moves that changed his banknotes since. Screenshots go to out/screens/."""

import os
import re

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from tests.axe import assert_accessible  # noqa: E402
from tests.test_console_browser import PHONE, Referee, browser  # noqa: E402, F401 (fixture)
from tournament.games import recording  # noqa: E402

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(os.environ.get("SKIP_BROWSER_TESTS") == "1", reason="SKIP_BROWSER_TESTS=1"),
]
MIN_TARGET = 44  # px
#: Anna buys Dworzec Zachodni; Bartek, left with 10, lands on it and pays the rent of 25: 15 still owed.
IN_DEBT = [
    {"type": "roll", "player": "A", "dice": [2, 3]},
    {"type": "buy", "player": "A"},
    {"type": "trade", "player": "B", "with": "C", "give": {"cash": 1490}},
    {"type": "roll", "player": "B", "dice": [2, 3]},
    {"type": "rent", "player": "B"},
]


@pytest.fixture
def polish_referee(live_server, browser):  # noqa: F811
    user = User.objects.create_user("ref", password="pw")
    game = recording.create_game(
        name="Stół 3",
        variant="tournament-pl",
        board="classic-pl",
        referees=[user],
        players=[{"name": "Anna"}, {"name": "Bartek"}, {"name": "Celina"}],
    )
    for event in IN_DEBT:
        game.refresh_from_db()
        recording.submit(game.pk, event, version=game.version, user=user)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pl-PL", has_touch=True)
    page = context.new_page()
    referee = Referee(page, live_server.url)
    referee.login("ref", "pw", f"/games/{game.pk}/")
    yield game, referee
    context.close()


def card(page, name):
    return page.locator("section.players article.player").filter(has=page.locator("strong", has_text=name))


def fits_the_phone(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"


def test_the_creditor_sees_the_banknotes_and_a_count_finds_the_difference(polish_referee):
    game, ref = polish_referee
    page = ref.page
    assert page.locator("html").get_attribute("lang") == "pl"
    anna, bartek = card(page, "Anna"), card(page, "Bartek")
    expect(anna.locator("header .cash")).to_have_text("1325")  # booked: the rent in full
    owed = anna.locator("p.owed")
    expect(owed).to_contain_text("15")
    expect(owed).to_contain_text("Bartek")
    expect(owed.locator(".banknotes")).to_contain_text("1310")  # on the table: 1300 + the 10 he had
    expect(bartek.locator("p.negative .banknotes")).to_contain_text("0")
    fits_the_phone(page)
    ref.shot("cash-01-debt-outstanding-pl")

    count = anna.locator("form.count")
    for control in (count.locator("input[name=counted]"), count.locator("button")):
        assert control.bounding_box()["height"] >= MIN_TARGET
    count.locator("input[name=counted]").fill("1300")
    with ref.posted():
        ref.tap(count.locator("button"))
    anna = card(page, "Anna")
    result = anna.locator("p.count-result.off")
    expect(result).to_contain_text("1300")
    expect(result).to_contain_text("1310")
    expect(result).to_contain_text("−10")
    since = anna.locator("details.since[open] ol.since li")
    expect(since).to_have_count(2)  # the rent received in part, the purchase
    expect(since.nth(0)).to_contain_text("#5")
    expect(since.nth(0).locator("b")).to_have_text("+10")
    expect(since.nth(1)).to_contain_text("#2")
    expect(since.nth(1)).to_contain_text("Dworzec Zachodni")
    expect(since.nth(1).locator("b")).to_have_text("−200")
    fits_the_phone(page)
    assert_accessible(page, "the console after a cash count (pl)")
    ref.shot("cash-02-count-with-a-difference-pl")
    assert game.events.last().data == {"type": "cash_count", "player": "A", "counted": 1300}

    count = card(page, "Bartek").locator("form.count")  # a count that fails is refused in Polish
    count.locator("input[name=counted]").evaluate("e => { e.removeAttribute('min'); e.value = '-3'; }")
    with ref.posted():
        ref.tap(count.locator("button"))
    expect(page.locator("#console-error")).to_have_text(re.compile("co najmniej 0"))
    assert game.events.count() == 6
