"""Controls of the console that whole games rarely reach, each walked in Chromium at 360 px as a referee meets
it, and the console's screens held to what a phone needs: no serious accessibility violation (axe-core) and
targets a thumb hits (44 px tall), in English and in Polish.

- A rent its payer cannot pay: its card says how short he is and offers his way out (what he may sell and
  mortgage, each with what it raises, the amount still owed kept up to date as boxes are ticked); the rent
  claimed with the sales in one tap, the phone's screen the server's after it.
"""

import json

import pytest
from playwright.sync_api import expect

from tests.axe import assert_accessible
from tests.browser import BROWSER_TESTS, LOCALES, PHONE, Referee, table_three, wi_fi
from tests.console_bot import console_play, console_view, served
from tests.debts import about_to_owe, own
from tournament.console.view_model import phone as phone_engine
from tournament.games import recording

#: The height a target a thumb must hit has at least (2.75rem: static/console/site.css).
TARGET_PX = 44
#: What the referee taps on the console: its buttons, the list openers, the lists and fields, the links drawn
#: as buttons, and the labels a box is ticked by (the box inside is the label's).
TARGETS = (
    "button, summary, select, input[type=number], input[type=text], a.button, label.raise-choice, "
    ".prop.deal a"
)

pytestmark = BROWSER_TESTS


@pytest.fixture
def owing(live_server, browser, django_user_model):
    """Anna (to roll, 150 in cash, on square 6) about to land on Bartek's street with 3 houses (rent 300):
    the console open at 360 px."""
    user = django_user_model.objects.create_user("ref", password="pw")
    game = table_three(user)
    about_to_owe(game)
    contexts = []

    def phone(language="en"):
        context = browser.new_context(viewport=PHONE, locale=LOCALES[language], has_touch=True)
        contexts.append(context)
        ref = Referee(context.new_page(), live_server.url)
        ref.login("ref", "pw", f"/games/{game.pk}/")
        return ref

    yield game, phone
    for context in contexts:
        context.close()


def shown(ref) -> dict:
    return console_view(ref.page)


def test_a_rent_its_payer_cannot_pay_is_claimed_and_raised_on_its_card(owing):
    game, phone = owing
    ref = phone()
    ref.roll(1, 2)  # to Bartek's street with 3 houses: a rent of 300 on 150 in hand
    card = ref.page.locator("#console .card.rent")
    ref.sees("Anna has 150: 150 short")
    still = card.locator("[data-owed] output")
    assert still.inner_text() == "150"
    go = card.locator("button.raise")
    assert go.is_disabled()  # nothing ticked: nothing to enter
    rent = shown(ref)["now"]["rents"][0]
    choices, raised = rent["short"]["choices"], 0
    for box, choice in zip(card.locator("input[name=raise]").all(), choices, strict=True):
        if raised >= 150:
            break
        ref.tap(box)
        raised += choice["raises"]
        assert still.inner_text() == str(max(150 - raised, 0))  # kept up to date as boxes are ticked
    ref.shot("console-rent-short")
    with ref.posted():
        ref.tap(go)
    game.refresh_from_db()
    state = recording.current_state(game)
    assert state.player("A").cash == 150 - 300 + raised and state.player("A").cash >= 0
    assert not shown(ref)["now"]["rents"] and not shown(ref)["now"]["debts"]
    assert shown(ref) == served(game)  # the phone's screen is the server's
    events = [e.data["type"] for e in game.events.order_by("seq")]
    assert events[0] == "roll" and events[1] == "rent" and set(events[2:]) <= {"sell_building", "mortgage"}


def test_a_rent_s_way_out_half_ticked_when_the_wi_fi_goes_is_entered_offline_and_sent_once_back(owing):
    """The Wi-Fi goes while the referee ticks what Anna sells: he goes on ticking, enters it on the phone (its
    screen what its rules say), and once the network is back the server has the rent and the sales once, its
    screen the phone's."""
    game, phone = owing
    ref = phone()
    ref.roll(1, 2)
    card = ref.page.locator("#console .card.rent")
    choices = shown(ref)["now"]["rents"][0]["short"]["choices"]
    boxes = card.locator("input[name=raise]").all()
    ref.tap(boxes[0])
    ticked = 1
    wi_fi(ref.page, up=False)  # the Wi-Fi gone, the first box ticked
    raised = choices[0]["raises"]
    for box, choice in zip(boxes[1:], choices[1:], strict=True):
        if raised >= 150:
            break
        ref.tap(box)
        ticked += 1
        raised += choice["raises"]
    assert card.locator("input[name=raise]:checked").count() == ticked  # nothing untied by the outage
    ref.tap(card.locator("button.raise"))
    ref.page.wait_for_function("() => document.getElementById('console').dataset.waiting === '1'")
    assert not shown(ref)["now"]["rents"] and not shown(ref)["now"]["debts"]
    assert shown(ref) == json.loads(phone_engine.view(json.dumps(played(ref))))  # the phone's rules' screen
    assert game.events.count() == 1  # (the roll alone reached the server)
    wi_fi(ref.page, up=True)
    ref.page.wait_for_function("() => document.getElementById('console').dataset.waiting === '0'")
    events = [e.data["type"] for e in game.events.order_by("seq")]
    assert events[:2] == ["roll", "rent"] and set(events[2:]) <= {"sell_building", "mortgage"}
    assert len(game.events.exclude(client_key=None).values_list("client_key").distinct()) == len(events)
    assert shown(ref) == served(game)


def played(ref) -> dict:
    return console_play(ref.page)


def small_targets(page) -> list[str]:
    """The console's visible targets less than ``TARGET_PX`` tall, each said as its tag, class and text."""
    return page.evaluate(
        """([selector, least]) => Array.from(document.getElementById('console').querySelectorAll(selector))
             .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < least)
             .map(e => `${e.tagName.toLowerCase()}.${e.className} "${e.textContent.trim().slice(0, 40)}"`
               + ` ${Math.round(e.getBoundingClientRect().height)} px`)""",
        [TARGETS, TARGET_PX],
    )


@pytest.mark.parametrize("language", list(LOCALES))
def test_the_console_s_screens_are_accessible_with_thumb_sized_targets(owing, language):
    """The dice pad with every player's actions and the trade open, then a rent's way out: axe-core finds
    nothing serious, and every target is at least 44 px tall."""
    _game, phone = owing
    ref = phone(language)
    page = ref.page
    page.evaluate("document.querySelectorAll('#console details').forEach(d => { d.open = true; })")
    assert_accessible(page, f"the console's dice pad ({language})")
    assert not small_targets(page)
    ref.roll(1, 2)
    page.evaluate("document.querySelectorAll('#console details').forEach(d => { d.open = true; })")
    assert page.locator("#console .card.rent input[name=raise]").count()
    assert_accessible(page, f"the console's rent a player cannot pay ({language})")
    assert not small_targets(page)
    ref.shot(f"console-rent-short-{language}")


def test_a_cash_count_ten_short_says_the_difference_and_the_moves_since(game_and_referee):
    """Anna buys a street; her banknotes counted ten short: the difference on her card, the moves since the
    start that changed her banknotes listed under it (made when the list is drawn open), the phone's screen
    the server's."""
    game, ref = game_and_referee
    ref.roll(1, 2)  # Anna to square 3, a street of the bank's
    with ref.posted():
        ref.tap(ref.page.locator("#console .card.buy button[data-what=buy]"))
    cash = served(game)["players"][0]["cash"]
    anna = ref.page.locator("#console article.player[data-player='A']")
    anna.locator("input[name=counted]").fill(str(cash - 10))
    with ref.posted():
        ref.tap(anna.locator("form.count button"))
    result = anna.locator(".count-result")
    expect(result).to_contain_text(f"Counted {cash - 10}, expected {cash}: difference \u221210")
    since = anna.locator("details.since")
    if not since.evaluate("d => d.open"):
        since.locator("summary").click()
    expect(since.locator("ol.since li")).to_have_count(1)
    expect(since.locator("ol.since li")).to_contain_text("\u221260")
    ref.shot("console-cash-count")
    assert shown(ref) == served(game)


def test_a_house_on_each_street_of_a_group_then_two_levels_at_once_each_in_one_tap(
    live_server,
    browser,
    django_user_model,
):
    """Anna owns both brown streets (the tournament's rules: built on without waiting for a set): one tap
    puts a house on each, a second takes one of them up two levels; the bank's cash and stock as the rules
    say, the phone's screen the server's after each."""
    user = django_user_model.objects.create_user("ref", password="pw")
    game = table_three(user)
    state = recording.current_state(game)
    own(state, "A", (1, 3))
    game.state = recording.dump_state(state)
    game.save()
    context = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True)
    ref = Referee(context.new_page(), live_server.url)
    ref.login("ref", "pw", f"/games/{game.pk}/")
    anna = ref.page.locator("#console article.player[data-player='A']")
    box = anna.locator("details.actions")
    if not box.evaluate("d => d.open"):
        ref.tap(box.locator("summary"))
    each = box.locator("button.each")
    expect(each).to_have_count(1)
    cash = served(game)["players"][0]["cash"]
    with ref.posted():
        ref.tap(each)
    game.refresh_from_db()
    after = recording.current_state(game)
    assert (after.holdings[1].level, after.holdings[3].level) == (1, 1)
    assert after.player("A").cash == cash - 2 * 50
    assert shown(ref) == served(game)
    with ref.posted():
        ref.tap(anna.locator(".levels .counts button").filter(has_text="+2").first)
    game.refresh_from_db()
    levels = sorted(h.level for sq, h in recording.current_state(game).holdings.items() if sq in (1, 3))
    assert levels == [1, 3]
    assert recording.current_state(game).player("A").cash == cash - 2 * 50 - 2 * 50
    assert shown(ref) == served(game)
    ref.shot("console-build")
    context.close()
