"""What the whole games of the outage and taps tests rarely reach, walked in Chromium at 360 px as a referee
meets it: the short game's deals before the first roll, a "get out of jail" card used, and a card entered by
what it does with an amount typed (a board whose decks are not listed). Each move is checked on the server
(the state the phone's move made there) and, refused, says why and changes nothing."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.test_console_browser import (  # noqa: F401 (browser: a fixture)
    browser,
    console_phone,
    pytestmark,
    state,
    table_three,
)
from tournament.games import recording


@pytest.fixture
def phone(live_server, browser):  # noqa: F811
    """The console of ``game`` at 360 px, its referee logged in (the rules running on the phone)."""
    contexts = []

    def open_(game):
        ref, context = console_phone(browser, live_server.url, game)
        contexts.append(context)
        return ref

    yield open_
    for context in contexts:
        context.close()


@pytest.fixture
def user(db):
    return User.objects.create_user("ref", password="pw")


def test_the_short_game_s_deeds_dealt_before_the_first_roll(phone, user):
    game = recording.create_game(
        variant="short", board="classic-us", referees=[user], players=[{"name": "Anna"}, {"name": "Bartek"}]
    )
    ref = phone(game)
    page = ref.page
    deal = page.locator("#console .card.deal").first
    expect(deal).to_contain_text("Deal 2 title deeds to Anna")
    # Three ticked: refused, saying how many a player is dealt; nothing dealt.
    for name in ("Mediterranean Avenue", "Baltic Avenue", "Oriental Avenue"):
        ref.tap(deal.get_by_label(name))
    ref.button("Deal")
    ref.sees("Each player is dealt 2 title deeds.")
    ref.shot("20-deal-refused")
    assert game.events.count() == 0 and not state(game).holdings
    ref.tap(deal.get_by_label("Oriental Avenue"))  # unticked
    ref.button("Deal")  # Anna pays 60 + 60
    expect(page.locator("#console .card.deal").first).to_contain_text("Deal 2 title deeds to Bartek")
    bartek = page.locator("#console .card.deal").first
    for name in ("Boardwalk", "Park Place"):
        ref.tap(bartek.get_by_label(name))
    ref.button("Deal")  # 400 + 350
    ref.sees("Anna rolls")
    s = state(game)
    assert {sq: h.owner for sq, h in s.holdings.items()} == {1: "A", 3: "A", 37: "B", 39: "B"}
    assert (s.player("A").cash, s.player("B").cash) == (1500 - 120, 1500 - 750)
    ref.roll(1, 2)  # the game under way: Anna on Baltic Avenue, her own
    assert state(game).player("A").position == 3


def test_a_get_out_of_jail_card_used_then_the_roll(phone, user):
    game = table_three(user)
    s = recording.current_state(game)
    anna = s.player("A")
    anna.in_jail, anna.position, anna.jail_cards = True, 10, ["chance"]
    game.state = recording.dump_state(s)
    game.save()
    ref = phone(game)
    card = ref.page.locator("#console .card.jail, #console .roll-card").first
    expect(ref.page.locator("#console article.player[data-player='A']")).to_contain_text("1 jail card")
    ref.shot("21-jail-card")
    ref.button("Use a 'Get out of jail' card")  # one tap: out, the card back under its deck
    s = state(game)
    assert not s.player("A").in_jail and s.player("A").jail_cards == [] and s.player("A").cash == 1500
    expect(card).not_to_contain_text("Get out of jail")
    ref.roll(2, 3)  # from square 10 to 15
    assert state(game).player("A").position == 15


def test_a_card_entered_by_what_it_does_with_its_amount_typed(phone, user):
    game = table_three(user)  # the Polish board: its decks are not listed, a card is entered by its effect
    ref = phone(game)
    page = ref.page
    ref.roll(3, 4)  # Anna: GO -> 7, Szansa
    ref.sees("Anna draws from Szansa")
    draw = page.locator("#console .card.card-draw")
    ref.tap(draw.get_by_text("A card with an amount, a square or a step count"))
    collect = draw.locator("form.typed-effect[data-kind=collect]")
    ref.tap(collect.get_by_label("Amount"))
    collect.get_by_label("Amount").fill("75")  # (not one of the amounts offered as a key)
    ref.shot("22-card-typed")
    with ref.posted():
        ref.tap(collect.get_by_role("button", name="OK"))
    ref.sees("Bartek rolls")
    s = state(game)
    assert (s.player("A").cash, s.player("A").position) == (1575, 7)
    assert game.events.last().data["effect"] == {"kind": "collect", "amount": 75}
