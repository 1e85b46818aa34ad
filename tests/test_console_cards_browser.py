"""What the whole games of the outage and taps tests rarely reach, walked in Chromium at 360 px as a referee
meets it: the short game's deals before the first roll, a "get out of jail" card used, and a card entered by
what it does (a board whose decks are not listed): what a deck of its kind prints in one tap, the dice of a
utility's rent asked under it, in both languages, and an amount typed. Each move is checked on the server
(the state the phone's move made there) and, refused, says why and changes nothing."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from rules.state import Holding
from tests.browser import BROWSER_TESTS, console_phone, state, table_three
from tournament.games import recording

pytestmark = BROWSER_TESTS


@pytest.fixture
def phone(live_server, browser):
    """The console of ``game`` at 360 px, its referee logged in (the rules running on the phone)."""
    contexts = []

    def open_(game, locale="en-US"):
        ref, context = console_phone(browser, live_server.url, game, locale)
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
    ref.tap(draw.get_by_text("Another card (an amount, a square or a step count)"))
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


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        (
            "en-US",
            {
                "chance": [
                    "the bank pays 50",
                    "advance to Plac Wilsona",
                    "go back 3 squares",
                    "pay 15 to the bank",
                ],
                "repairs": "repairs: 25 a house, 100 a hotel",
                "utility": "advance to the nearest utility",
                "chest": "the bank pays 200",
                "dice": "the dice thrown for the utility's rent",
            },
        ),
        (
            "pl-PL",
            {
                "chance": [
                    "Bank płaci 50",
                    "idź na pole Plac Wilsona",
                    "cofnij się o 3 pola",
                    "zapłać Bankowi 15",
                ],
                "repairs": "remonty: 25 za dom, 100 za hotel",
                "utility": "idź do najbliższego zakładu użyteczności publicznej",
                "chest": "Bank płaci 200",
                "dice": "oczka wyrzucone na czynsz",
            },
        ),
    ],
)
def test_a_polish_deck_s_card_is_one_tap_its_dice_asked_under_it(phone, user, locale, words):
    """Szansa and Kasa Społeczna, whose texts are not listed: what the classic Chance and Community Chest
    print
    is offered on this board's squares, one tap each, the other deck's amounts behind one more tap; the
    nearest utility, owned by another, asks the dice of its rent right under the cards (two taps in all)."""
    game = table_three(user)
    s = recording.current_state(game)
    s.holdings[12] = Holding("B")  # Elektrownia, Bartek's
    s.player("B").cash -= 150
    game.state = recording.dump_state(s)
    game.save()
    ref = phone(game, locale)
    page = ref.page
    ref.roll(3, 4)  # Anna: Start -> 7, Szansa
    draw = page.locator("#console .card.card-draw")
    one_tap = draw.locator(".one-tap button")
    expect(one_tap).to_have_count(15)  # the classic Chance's effects, once each
    for said in words["chance"]:
        expect(one_tap.filter(has_text=said)).to_have_count(1)
    expect(one_tap.filter(has_text=words["repairs"])).to_have_count(1)
    expect(one_tap.filter(has_text=words["chest"])).to_have_count(0)  # Community Chest's: one more tap
    ref.shot(f"card-szansa-one-tap-{locale}")
    taps = ref.taps
    ref.tap(one_tap.filter(has_text=words["utility"]))
    dice = draw.locator(".card-dice")
    expect(dice).to_contain_text(words["dice"])
    # asked in place: right under the row of the card tapped, before "another card"
    under = "() => document.querySelector('#console .one-tap').nextElementSibling.className"
    assert page.evaluate(under) == "card-dice"
    ref.shot(f"card-utility-dice-{locale}")
    ref.throw(dice, 3, 4)  # ten times 7 to Bartek
    assert ref.taps - taps == 2
    with ref.posted():  # the rent claimed, as any other
        ref.tap(page.locator("#console .card.rent button[data-what=rent]"))
    s = state(game)
    assert (s.player("A").position, s.player("A").cash, s.player("B").cash) == (12, 1500 - 70, 1350 + 70)
    ref.roll(1, 1)  # Bartek: Start -> 2, Kasa Społeczna
    expect(draw.locator(".one-tap button").filter(has_text=words["chest"])).to_have_count(1)
    expect(draw.locator(".one-tap button").filter(has_text=words["utility"])).to_have_count(
        0
    )  # not in this deck
    with ref.posted():
        ref.tap(draw.locator(".one-tap button").filter(has_text=words["chest"]))
    assert state(game).player("B").cash == 1420 + 200
