"""The Anti-Monopoly card panel on a 360 px phone in Polish, as the referee meets it: a competitor and then a
monopolist draw a card. The panel fits the screen (nothing to scroll sideways), offers only the jail card of
the drawing player's role, one-tap amounts like the classic decks', and names the deck and the squares in
Polish. Screenshots: out/screens/ (look at them)."""

import os
import re

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import User  # noqa: E402

from tests.test_console_browser import PHONE, Referee, browser, state  # noqa: E402, F401 (browser: a fixture)
from tournament.games import recording  # noqa: E402

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(os.environ.get("SKIP_BROWSER_TESTS") == "1", reason="SKIP_BROWSER_TESTS=1"),
]


@pytest.fixture
def polish_referee(live_server, browser):  # noqa: F811
    user = User.objects.create_user("ref", password="pw")
    game = recording.create_game(
        name="Stół 3",
        variant="anti-monopoly",
        board="anti-monopoly-us",
        referees=[user],
        players=[
            {"name": "Małgorzata Wiśniewska-Grzybowska", "role": "competitor"},
            {"name": "Przemysław Brzęczyszczykiewicz", "role": "monopolist"},
        ],
        options={"ending": "game_a"},
    )
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pl-PL", has_touch=True)
    page = context.new_page()
    referee = Referee(page, live_server.url)
    referee.login("ref", "pw", f"/games/{game.pk}/")
    yield game, referee
    context.close()


def card_buttons(page) -> list[str]:
    return [t.strip() for t in page.locator("div.card button").all_inner_texts()]


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"


def test_am_card_panel_in_polish_on_a_phone(polish_referee):
    game, ref = polish_referee
    page = ref.page
    ref.roll(3, 4)  # the competitor to square 7: a card of her role's deck
    ref.sees("ciągnie kartę: Przedsiębiorca")
    panel = page.locator("div.card")
    panel.scroll_into_view_if_needed()
    ref.shot("am-card-competitor-pl")
    fits(page)
    text = panel.inner_text()
    buttons = card_buttons(page)
    assert "idź na Wojnę Cenową" in buttons
    assert "idź do Więzienia" not in buttons and "idź do więzienia" not in buttons, buttons  # not her role
    for amount in ("10", "20", "50", "100", "200"):  # one tap, like the classic decks
        assert amount in buttons, (amount, buttons)
    for english in ("Competitor", "Monopolist", "Income Tax", "Price War", "Prison", "(competitor)"):
        assert not re.search(rf"{re.escape(english)}\b", text), english
    page.locator("div.card select[name=effect_square]").first.select_option(label="Podatek dochodowy")

    # one tap: the bank pays her 50
    with ref.posted():
        panel.locator("fieldset", has_text="Bank płaci graczowi").get_by_role(
            "button", name="50", exact=True
        ).click()
    assert state(game).player("A").cash == 1500 + 50
    ref.sees("dostaje 50 z banku (Przedsiębiorca)")

    # the monopolist: to square 7 too, the Monopolist's deck, the Prison card only
    ref.roll(3, 4)
    ref.sees("ciągnie kartę: Monopolista")
    page.locator("div.card").scroll_into_view_if_needed()
    ref.shot("am-card-monopolist-pl")
    fits(page)
    buttons = card_buttons(page)
    assert "idź do Więzienia" in buttons
    assert not any("Wojn" in b for b in buttons), buttons
    with ref.posted():
        page.locator("div.card").get_by_role("button", name="idź do Więzienia").click()
    assert state(game).player("B").in_jail
    ref.sees("ciągnie kartę „Idź do Więzienia” (Monopolista)")
    fits(page)
    assert not re.search(r"Monopolist\b|Competitor|Income Tax", page.locator("#console").inner_text())
