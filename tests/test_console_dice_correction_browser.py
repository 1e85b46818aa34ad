"""Wrong dice corrected in one tap on the referee's phone (issue 20): 360 px, in Polish, in Playwright's
chromium. The dice show 2·3, the referee taps 2·2: he opens the undo beside the move just made and taps 2·3 on
its pad — three taps in all, and the game goes on from the right roll. The opened undo fits the phone (no
sideways scrolling, its keys a thumb's height), passes axe-core; screenshots in Polish and in English go to
out/screens/dice-fix-*.png (look at them)."""

from playwright.sync_api import expect

from tests import test_console_browser as phone
from tests.axe import assert_accessible
from tests.test_console_browser import PHONE, SCREENS, Referee, state
from tests.test_console_flow_browser import in_view, polish_phone, short_game
from tests.test_console_targets_browser import small_targets
from tournament.models import GameEvent

pytestmark = phone.pytestmark
browser = phone.browser  # the module's chromium


def screen(ref, name):
    SCREENS.mkdir(parents=True, exist_ok=True)
    ref.page.screenshot(path=str(SCREENS / f"dice-fix-{name}.png"))


def fits_the_phone(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def wrong_key_and_the_undo_opened(ref):
    """Anna's dice show 2·3; the referee taps 2·2 (she lands on the income tax, a double), then opens the
    undo beside the move just made. Returns the opened undo's dice pad."""
    page = ref.page
    with ref.posted():
        ref.tap(page.locator("form.roll .pad button[value='22']"))
    undo = page.locator(".undo-last summary")
    assert in_view(undo)  # where the referee looks after the tap: no scrolling
    ref.tap(undo)
    pad = page.locator("form.correct-dice .pad")
    expect(pad).to_be_visible()
    return pad


def test_a_wrong_key_of_the_dice_pad_is_corrected_in_three_taps(live_server, browser):
    game = short_game("dice1")
    ref, context = polish_phone(browser, live_server, "dice1", f"/games/{game.pk}/")
    page = ref.page
    pad = wrong_key_and_the_undo_opened(ref)
    expect(page.locator("form.correct-dice")).to_contain_text("Błędne oczka? Właściwe to:")
    expect(pad.locator("button")).to_have_count(36)
    # the whole pad in view once opened, nothing wider than the phone, every key a thumb's height
    assert pad.locator("button[value='66']").bounding_box()["y"] + 44 <= PHONE["height"]
    assert fits_the_phone(page)
    assert small_targets(page) == []
    assert_accessible(page, "the undo opened with the right dice's pad")
    screen(ref, "01-pl-undo-opened")
    page.screenshot(path=str(SCREENS / "dice-fix-01-pl-undo-opened-full.png"), full_page=True)
    with ref.posted():
        ref.tap(pad.locator("button[value='23']"))
    assert ref.taps == 3  # the wrong key, the undo opened, the right key
    # the game shows the right roll: the move just made, and Anna on the railway station, hers to buy
    expect(page.locator("#just-now")).to_contain_text("Anna rzuca 2+3.")
    expect(page.locator("p.notice")).to_contain_text("wpisano właściwe oczka")
    s = state(game)
    assert s.player("A").position == 5 and s.decision is not None
    expect(page.locator("section.now")).to_contain_text("200")  # the station's price, to buy
    rows = [
        (r.data["dice"], r.status, r.reason) for r in GameEvent.objects.filter(game=game, data__type="roll")
    ]
    assert rows == [([2, 2], GameEvent.Status.UNDONE, "błędne oczka"), ([2, 3], GameEvent.Status.ACTIVE, "")]
    assert fits_the_phone(page)
    assert_accessible(page, "the panel after the correction")
    screen(ref, "02-pl-corrected")
    print(f"\ntaps to correct a wrong key of the dice pad, the right roll entered: {ref.taps}")
    context.close()


def test_the_opened_undo_in_english(live_server, browser):
    game = short_game("dice2")
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="en-US", has_touch=True)
    ref = Referee(context.new_page(), live_server.url)
    ref.login("dice2", "pw", f"/games/{game.pk}/")
    pad = wrong_key_and_the_undo_opened(ref)
    expect(ref.page.locator("form.correct-dice")).to_contain_text("Wrong dice? The right ones:")
    assert fits_the_phone(ref.page) and small_targets(ref.page) == []
    assert_accessible(ref.page, "the undo opened with the right dice's pad, in English")
    screen(ref, "03-en-undo-opened")
    with ref.posted():
        ref.tap(pad.locator("button[value='32']"))
    expect(ref.page.locator("#just-now")).to_contain_text("Anna rolls 3+2.")
    screen(ref, "04-en-corrected")
    context.close()
