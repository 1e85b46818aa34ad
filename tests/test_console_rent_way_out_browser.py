"""A rent its payer cannot pay, on a 360 px phone: Anna lands on Bartek's Ulica Targowa (rent 300) with 150,
and the rent's card says at once that she is 150 short and offers her way out; two ticks and one button claim
the rent and clear the debt (3 taps, where the claim and then the debt card took 4). With nothing left, one
button and its confirmation claim the rent and declare her bankrupt. In Polish, as the referee meets it, and
in English; screenshots of the card go to out/screens/ (look at them)."""

import os
from functools import partial

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from tests import test_console_debt_browser as debt_cards  # noqa: E402
from tests.axe import assert_accessible  # noqa: E402
from tests.test_console_browser import PHONE, browser, state  # noqa: E402, F401 (a fixture)
from tests.test_console_debt_browser import seen  # noqa: E402
from tests.test_console_targets_browser import small_targets as console_targets  # noqa: E402

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(os.environ.get("SKIP_BROWSER_TESTS") == "1", reason="SKIP_BROWSER_TESTS=1"),
]
CARD = ".card.rent.short"
landed = debt_cards.landed  # the fixture: Anna rolls onto Bartek's street, the rent more than her cash


# the debt card's helpers, on the rent card
tick = partial(debt_cards.tick, card=CARD)
owed = partial(debt_cards.owed, card=CARD)
small_targets = partial(debt_cards.small_targets, card=CARD)


def fits_the_phone(page):
    """Nothing wider than the phone (no sideways scrolling)."""
    return page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


def dice_pad_below(page):
    """How far below the rent card's top the next roll's dice pad starts (px)."""
    return page.evaluate(
        """card => document.querySelector('form.roll .pad').getBoundingClientRect().top
                  - document.querySelector(card).getBoundingClientRect().top""",
        CARD,
    )


def test_the_rent_claimed_and_the_debt_cleared_in_three_taps_in_polish(landed):
    game, ref = landed("pl-PL")
    assert ref.page.locator("html").get_attribute("lang") == "pl"
    card = ref.page.locator(CARD)
    assert "Anna ma 150: brakuje 150" in card.inner_text()
    assert state(game).rents and state(game).player("A").cash == 150  # nothing claimed yet
    assert small_targets(ref.page) == [] and console_targets(ref.page) == [] and fits_the_phone(ref.page)
    card.scroll_into_view_if_needed()
    seen(ref, "rentout-01-card-pl")
    # the list of nine choices scrolls within the card: the dice pad of the next roll stays about a screen
    # below the card's top (the whole list would push it a screen and a half away)
    below = dice_pad_below(ref.page)
    print(f"\nthe dice pad starts {below:.0f} px below the rent card's top")
    assert below < PHONE["height"] * 1.15
    ref.taps = 0
    tick(ref, "sell_building:16:1")  # +50
    assert owed(ref) == (True, 100)
    tick(ref, "mortgage:5")  # +100
    assert owed(ref) == (False, 0)  # paid in full, nothing left over
    seen(ref, "rentout-02-ticked-pl")
    assert_accessible(ref.page)
    with ref.posted():
        ref.tap(card.get_by_role("button", name="Czynsz pobrany, zbierz pieniądze i spłać"))
    card.wait_for(state="detached")
    print(f"rent claimed and its debt cleared in {ref.taps} taps (2 choices ticked, 1 button)")
    assert ref.taps == 3
    assert ref.page.locator(".card.debt").count() == 0  # no debt card follows
    s = state(game)
    assert not s.rents and s.player("B").cash == 1500 + 300
    assert s.player("A").cash == 0 and s.player("A").debt_to is None
    assert s.holdings[16].level == 0 and s.holdings[5].mortgaged
    seen(ref, "rentout-03-cleared-pl")


def test_a_streets_mortgage_ticks_the_sale_of_its_house_in_english(landed):
    game, ref = landed("en-US")
    card = ref.page.locator(CARD)
    assert "Anna has 150: 150 short" in card.inner_text()
    assert small_targets(ref.page) == [] and fits_the_phone(ref.page)
    card.scroll_into_view_if_needed()
    seen(ref, "rentout-04-card-en")
    ref.taps = 0
    tick(ref, "mortgage:16")  # the house on Ulica Obozowa must go first: ticked with it
    assert card.locator("input[value='sell_building:16:1']").is_checked()
    assert owed(ref) == (True, 10)  # 150 − 50 − 90
    tick(ref, "mortgage:1")  # +30
    assert owed(ref) == (False, 20)  # 20 left over
    seen(ref, "rentout-05-ticked-en")
    assert_accessible(ref.page)
    with ref.posted():
        ref.tap(card.get_by_role("button", name="Rent claimed, raise and pay"))
    card.wait_for(state="detached")
    assert ref.taps == 3
    s = state(game)
    assert s.player("A").cash == 20 and s.holdings[16].mortgaged and s.holdings[1].mortgaged


def test_nothing_left_claims_the_rent_and_goes_bankrupt_from_the_card(landed):
    game, ref = landed("pl-PL", holdings={"B": [((9,), 3, False)]})
    card = ref.page.locator(CARD)
    assert card.locator("input[name=raise]").count() == 0
    bankrupt = card.get_by_role("button", name="Czynsz pobrany: Anna bankrutuje")
    assert bankrupt.is_visible() and small_targets(ref.page) == [] and console_targets(ref.page) == []
    assert fits_the_phone(ref.page)
    card.scroll_into_view_if_needed()
    seen(ref, "rentout-06-bankrupt-pl")
    assert_accessible(ref.page)
    ref.taps = 0
    asked = []
    ref.page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    with ref.posted():
        ref.tap(bankrupt)
    ref.taps += 1  # the confirmation
    card.wait_for(state="detached")
    print(f"\nrent claimed and bankruptcy declared in {ref.taps} taps (the button and its confirmation)")
    assert asked == ["Pobrać czynsz i ogłosić bankructwo tego gracza?"]
    assert ref.taps == 2
    s = state(game)
    assert s.player("A").bankrupt and not s.rents
    assert [e.data["type"] for e in game.events.order_by("seq")][-2:] == ["rent", "bankrupt"]


def test_the_rent_alone_leaves_the_debt_card_as_before(landed):
    """The plain "Rent claimed" stays (the cash may come from a trade): the debt card follows."""
    game, ref = landed("en-US")
    with ref.posted():
        ref.tap(ref.page.locator(f"{CARD} form.claim-alone button"))
    ref.page.locator(".card.debt").wait_for()
    ref.sees("Anna owes 150 to Bartek")
    assert state(game).player("A").cash == -150
