"""Before the Wi-Fi goes, the console says what this phone will survive (the line above it), and on plain HTTP
at a venue's network name — no service worker there — an outage is survived all the same while the page stays
open: a phone (Chromium told that ``venue.lan`` is this computer) plays, loses the network mid-game, plays on,
comes back: every move stored once, the server's game the phone's."""

import pytest
from playwright.sync_api import expect

from tests.browser import (
    ARGS,
    BROWSER_TESTS,
    CHROMIUM,
    PHONE,
    RULES_START_MS,
    Referee,
    console_phone,
    state,
    table_three,
    wi_fi,
)

pytestmark = BROWSER_TESTS

LINE = "#console-connection"


@pytest.fixture
def game(django_user_model):
    return table_three(django_user_model.objects.create_user("ref", password="pw"))


def test_at_a_secure_address_the_phone_is_ready_for_an_outage(live_server, browser, game):
    ref, context = console_phone(browser, live_server.url, game)  # http://localhost: a secure context
    expect(ref.page.locator(LINE)).to_contain_text("Ready for an outage", timeout=RULES_START_MS)
    expect(ref.page.locator(LINE)).to_have_class("connection on")
    context.close()


def test_a_phone_that_cannot_run_the_rules_is_told_to_keep_paper_at_hand(live_server, browser, game):
    context = browser.new_context(viewport=PHONE, locale="pl-PL", has_touch=True)
    context.add_init_script("delete window.WebAssembly;")  # a browser without WebAssembly
    ref = Referee(context.new_page(), live_server.url)
    ref.page.goto(f"{live_server.url}/login/?next=/games/{game.pk}/")
    ref.page.fill("input[name=username]", "ref")
    ref.page.fill("input[name=password]", "pw")
    with ref.page.expect_navigation():
        ref.page.click("form:has(input[name=password]) button[type=submit]")
    expect(ref.page.locator("#console[data-rules=failed]")).to_have_count(1)
    expect(ref.page.locator(LINE)).to_contain_text(
        "Ten telefon nie uruchomi zasad: gdy zniknie Wi-Fi, zapisuj ruchy na papierze"
    )
    expect(ref.page.locator(LINE)).to_have_class("connection waiting")  # amber, not the green of "all well"
    ref.shot("24-no-webassembly-pl")
    context.close()


def test_plain_http_at_a_venue_name_survives_an_outage_while_the_page_stays_open(
    live_server,
    browser,
    settings,
    game,
):
    settings.ALLOWED_HOSTS = ["*"]  # the venue's name, as serve answers any
    port = live_server.url.rsplit(":", 1)[1]
    venue = browser.browser_type.launch(  # a browser that finds venue.lan at this computer
        executable_path=CHROMIUM, args=[*ARGS, "--host-resolver-rules=MAP venue.lan 127.0.0.1"]
    )
    try:
        ref, context = console_phone(venue, f"http://venue.lan:{port}", game)
        page = ref.page
        assert page.evaluate("isSecureContext") is False
        ref.ready()
        expect(page.locator(LINE)).to_contain_text(
            "Keep this page open during an outage: this address allows no reload without the network"
        )
        ref.shot("23-plain-http-keep-the-page-open")
        ref.roll(3, 3)  # Anna: 0 -> 6, a double
        ref.button("Buy for 100")
        wi_fi(page, False)

        ref.tap_kept(page.locator("#console .roll-card .pad button[value='12']"))  # Anna again: 6 -> 9
        ref.sees("Or declined, and auctioned from 60")
        page.fill("input[name=price]", "150")
        ref.tap_kept(page.get_by_role("button", name="Bartek", exact=True).first)
        # Bartek: 0 -> 6, Anna's: rent
        ref.tap_kept(page.locator("#console .roll-card .pad button[value='24']"))
        ref.tap_kept(page.get_by_role("button", name="Rent claimed", exact=True))
        expect(page.locator(LINE)).to_contain_text("moves waiting to be sent")
        assert game.events.count() == 2  # the roll and the purchase, before the outage
        wi_fi(page, True)
        page.wait_for_function("() => document.getElementById('console').dataset.waiting === '0'")
        s = state(game)
        assert (s.owner_of(6), s.owner_of(9), s.player("B").position) == ("A", "B", 6)
        game.refresh_from_db()
        assert page.evaluate("() => document.getElementById('console').consolePlay.state") == game.state
        types = [e.data["type"] for e in game.events.order_by("seq")]
        assert types == ["roll", "buy", "roll", "decline", "auction", "roll", "rent"], types
        context.close()
    finally:
        venue.close()
