"""The debt card on a 360 px phone: a player falls into debt (a rent he cannot pay) and the referee clears
it from the card itself, ticking two choices and confirming (3 taps, counted and printed); a player with
nothing left goes bankrupt from it. In Polish, as the referee meets it, and in English; screenshots of the
card go to out/screens/ (look at them)."""

import os

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import User  # noqa: E402

from tests.axe import assert_accessible  # noqa: E402
from tests.debts import about_to_owe  # noqa: E402
from tests.test_console_browser import PHONE, SCREENS, Referee, browser, state  # noqa: E402, F401 (a fixture)
from tournament.games import recording  # noqa: E402

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(os.environ.get("SKIP_BROWSER_TESTS") == "1", reason="SKIP_BROWSER_TESTS=1"),
]
#: Tap targets on the card: the height a thumb hits without a second try.
MIN_TARGET = 44


@pytest.fixture
def landed(live_server, browser):  # noqa: F811
    """A table whose Anna is about to roll onto Bartek's Ulica Targowa with too little cash: ``start(locale,
    **setup)`` opens the console on a phone in that language and rolls (the rent pending, not claimed)."""
    contexts = []

    def start(locale, **setup):
        user = User.objects.create_user(f"ref{len(contexts)}", password="pw")
        game = recording.create_game(
            name="Table 7",
            variant="tournament-pl",
            board="classic-pl",
            referees=[user],
            players=[{"name": "Anna"}, {"name": "Bartek"}, {"name": "Celina"}],
        )
        about_to_owe(game, **setup)
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale=locale, has_touch=True)
        contexts.append(context)
        ref = Referee(context.new_page(), live_server.url)
        ref.login(user.username, "pw", f"/games/{game.pk}/")
        ref.roll(1, 2)  # onto Ulica Targowa: rent 300
        ref.page.locator("form.rent").first.wait_for()
        return game, ref

    yield start
    for context in contexts:
        context.close()


@pytest.fixture
def owing(landed):
    """As ``landed``, the rent then claimed alone: Anna owes, the debt card is up."""

    def start(locale, **setup):
        game, ref = landed(locale, **setup)
        with ref.posted():
            ref.tap(ref.page.locator("form.rent button[value=rent]"))
        ref.page.locator(".card.debt").wait_for()
        return game, ref

    return start


def seen(ref, name):
    """What the phone's screen shows now (the page scrolled where it is), beside the whole page's shot."""
    ref.page.screenshot(path=str(SCREENS / f"{name}-screen.png"))
    ref.shot(name)


def tick(ref, value, card=".card.debt"):
    """A tap on a choice's row (the whole row is the target)."""
    ref.tap(ref.page.locator(f"{card} label:has(input[value='{value}'])"))


def owed(ref, card=".card.debt"):
    """Whether the card says something is still owed, and the amount it shows (owed, or left over)."""
    shown = ref.page.locator(card).locator("[data-owed]:visible output, [data-left]:visible output")
    return ref.page.locator(card).locator("[data-owed]").is_visible(), int(shown.inner_text())


def small_targets(page, card=".card.debt"):
    return page.evaluate(
        """([card, min]) => [...document.querySelectorAll(card + ' label, ' + card + ' button')]
          .map(e => [e.innerText.trim().slice(0, 40), Math.round(e.getBoundingClientRect().height)])
          .filter(([, h]) => h < min)""",
        [card, MIN_TARGET],
    )


def test_a_debt_cleared_in_three_taps_in_polish(owing):
    game, ref = owing("pl-PL")
    assert ref.page.locator("html").get_attribute("lang") == "pl"
    assert state(game).player("A").cash == -150
    assert small_targets(ref.page) == []
    ref.page.locator(".card.debt").scroll_into_view_if_needed()
    ref.shot("debt-01-card-pl")
    ref.taps = 0
    tick(ref, "sell_building:16:1")  # +50
    assert owed(ref) == (True, 100)
    tick(ref, "mortgage:5")  # +100
    assert owed(ref) == (False, 0)  # paid in full, nothing left over
    seen(ref, "debt-02-ticked-pl")
    assert_accessible(ref.page)
    with ref.posted():
        ref.tap(ref.page.locator(".card.debt button.raise"))
    ref.page.locator(".card.debt").wait_for(state="detached")
    print(f"\ndebt cleared in {ref.taps} taps (2 choices ticked, 1 confirmation)")
    assert ref.taps == 3
    s = state(game)
    assert s.player("A").cash == 0 and s.player("A").debt_to is None
    assert s.holdings[16].level == 0 and s.holdings[5].mortgaged
    ref.shot("debt-03-cleared-pl")


def test_a_streets_mortgage_ticks_the_sale_of_its_house_in_english(owing):
    game, ref = owing("en-US")
    ref.sees("Anna owes 150 to Bartek")
    ref.page.locator(".card.debt").scroll_into_view_if_needed()
    ref.shot("debt-04-card-en")
    ref.taps = 0
    tick(ref, "mortgage:16")  # the house on Ulica Obozowa must go first: ticked with it
    assert ref.page.locator(".card.debt input[value='sell_building:16:1']").is_checked()
    assert owed(ref) == (True, 10)  # 150 − 50 − 90
    tick(ref, "mortgage:1")  # +30
    assert owed(ref) == (False, 20)  # 20 left over
    seen(ref, "debt-05-ticked-en")
    with ref.posted():
        ref.tap(ref.page.get_by_role("button", name="Raise and pay"))
    ref.page.locator(".card.debt").wait_for(state="detached")
    print(f"\ndebt cleared in {ref.taps} taps (a mortgage with its sale, another mortgage, the confirmation)")
    assert ref.taps == 3
    s = state(game)
    assert s.player("A").cash == 20 and s.holdings[16].mortgaged and s.holdings[1].mortgaged


def test_nothing_left_goes_bankrupt_from_the_card(owing):
    game, ref = owing("pl-PL", holdings={"B": [((9,), 3, False)]})
    assert ref.page.locator(".card.debt input[name=raise]").count() == 0
    bankrupt = ref.page.locator(".card.debt form.bankrupt button")
    assert bankrupt.is_visible() and small_targets(ref.page) == []
    ref.page.locator(".card.debt").scroll_into_view_if_needed()
    seen(ref, "debt-06-bankrupt-pl")
    ref.taps = 0
    ref.page.once("dialog", lambda d: d.accept())
    with ref.posted():
        ref.tap(bankrupt)
    ref.taps += 1  # the confirmation
    ref.page.locator(".card.debt").wait_for(state="detached")
    print(f"\nbankruptcy declared in {ref.taps} taps (the button and its confirmation)")
    assert ref.taps == 2 and state(game).player("A").bankrupt


def test_a_players_build_buttons_sit_apart_from_selling(live_server, browser):  # noqa: F811
    user = User.objects.create_user("builder", password="pw")
    game = recording.create_game(
        variant="tournament-pl",
        board="classic-pl",
        referees=[user],
        players=[{"name": "Anna"}, {"name": "Bartek"}],
    )
    about_to_owe(game, cash=1000, holdings={"A": [((16, 18, 19), 1, False), ((5,), 0, True)]})
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pl-PL", has_touch=True)
    ref = Referee(context.new_page(), live_server.url)
    ref.login("builder", "pw", f"/games/{game.pk}/")
    anna = ref.page.locator("article.player").first
    assert anna.locator("details.actions").get_attribute("open") is not None  # her turn, she can build
    build, sell = anna.locator("fieldset.build"), anna.locator("fieldset.sell")
    assert build.locator(".levels").count() == 3 and sell.locator("button").count() == 3  # a row a street
    assert build.locator("button[name=build_each]").count() == 1  # a house on each of the oranges
    assert sell.locator("button[value^=build]").count() == 0
    assert build.locator("button[value^=sell]").count() == 0
    # apart on the screen too: the last build button well above the first sale
    gap = sell.locator("button").first.bounding_box()["y"] - build.locator("button").last.bounding_box()["y"]
    assert gap > 60, gap
    anna.scroll_into_view_if_needed()
    seen(ref, "debt-07-holdings-pl")
    context.close()


def test_a_sale_from_the_players_card_keeps_it_open_beside_the_debt_card(owing):
    """The player's own form and the debt card's are told apart: a sale from the player's holdings keeps his
    holdings open for the next one (console-forms.js finds the form the move was sent from)."""
    game, ref = owing("en-US")
    anna = ref.page.locator("article.player").first
    ref.tap(anna.locator("details.actions summary"))
    with ref.posted():
        ref.tap(anna.get_by_role("button", name="Sell a house on Ulica Wolska"))
    ref.sees("Anna owes 100 to Bartek")
    holdings = ref.page.locator("article.player").first.locator("details.actions")
    assert holdings.get_attribute("open") is not None
    assert ref.page.locator(".card.debt input[value='mortgage:19']").is_visible()  # now mortgageable alone
