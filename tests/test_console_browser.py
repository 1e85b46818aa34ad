"""The referee's console in a real browser (Playwright driving Debian's chromium) at phone size.

A referee plays several full turns: a purchase, a refused auction bid, an auction, a rent, a card, a jail
exit with the fine, an undo. Screenshots go to out/screens/ (look at them). Set SKIP_BROWSER_TESTS=1 to skip
on a machine without chromium; CI installs it (tests/setup.sh). The browser and the referee's phone:
tests/browser.py.
"""

import pytest
from django.contrib.auth.models import User

from tests.browser import BROWSER_TESTS, PHONE, Referee, state
from tournament.games import recording

pytestmark = BROWSER_TESTS


def test_referee_plays_several_turns_on_a_phone(game_and_referee):
    game, ref = game_and_referee
    page = ref.page
    ref.sees("Anna rolls")
    ref.shot("01-start")

    # Anna: a double to ul. Radzymińska, buys it; rolls again to ul. Targowa: declined, it is auctioned
    # from the buy panel (tournament rules: from half the printed price).
    ref.roll(3, 3)
    ref.sees("Buy for 100")
    ref.button("Buy for 100")
    ref.sees("Anna rolls again (double)")
    ref.roll(1, 2)
    ref.sees("Or declined, and auctioned from 60")
    ref.shot("02-auction")

    # A bid below the opening bid is refused, saying why, and nothing changes (not even the decline).
    page.fill("input[name=price]", "59")
    ref.button("Bartek")
    ref.sees(
        "Auction price 59 is below the opening bid 60 (half of 120) in Tournament rules (10 rounds of play)."
    )
    assert state(game).owner_of(9) is None and state(game).decision is not None
    ref.shot("03-refused-bid")
    page.fill("input[name=price]", "150")
    ref.button("Bartek")  # sold to Bartek: the decline and the auction in one tap
    assert state(game).owner_of(9) == "B"

    # Bartek lands on Anna's street: a typical turn is one tap of the dice pad and one for the rent.
    before = ref.taps
    ref.roll(2, 4)
    ref.sees("Rent 6: Bartek → Anna")
    ref.shot("04-rent")
    ref.button("Rent claimed")
    typical_turn_taps = ref.taps - before
    assert typical_turn_taps == 2
    assert state(game).player("A").cash == 1406

    # Celina draws a Szansa card (recorded by its effect on the Polish board): go to jail.
    ref.roll(3, 4)
    ref.sees("Celina draws from Szansa")
    ref.button("go to jail")  # one tap
    assert state(game).player("C").in_jail

    # Anna and Bartek play; Celina pays the fine to leave jail and moves.
    ref.roll(4, 6)  # Anna: 9 -> 19, ul. Wolska
    ref.button("Nobody bought")  # declined, and nobody bid
    ref.roll(1, 3)  # Bartek: 6 -> 10, just visiting
    ref.sees("Celina rolls")
    ref.shot("05-jail")
    ref.button("Pay the fine 50")
    assert not state(game).player("C").in_jail
    ref.roll(2, 3)  # Celina: 10 -> 15, Dworzec Gdański
    ref.button("Buy for 200")
    assert state(game).owner_of(15) == "C"

    # Undo the last move with a reason: the purchase is taken back, the log keeps it struck through.
    ref.tap(page.locator(".undo-last summary"))  # beside the move just made
    page.fill("form.undo input[name=reason]", "she wanted to decline")
    ref.button("Undo the last move")
    ref.sees("The last move was undone.")
    ref.sees("she wanted to decline")
    assert state(game).owner_of(15) is None and state(game).decision is not None
    ref.shot("06-undone")
    ref.button("Nobody bought")
    s = state(game)
    assert (s.player("C").cash, s.round) == (1450, 2)

    # What the console shows equals a replay of the exported record.
    from rules import replay

    assert replay(recording.record_of(game)).state == s
    print(f"\ntaps for a typical turn (dice + rent): {typical_turn_taps}")


def test_a_tap_redraws_what_it_changed_and_keeps_a_count_being_typed(game_and_referee):
    """Anna's roll changes her card; Celina's, where the referee has begun typing her banknotes, stays on the
    screen as it was (the same elements, the typed figure in its field) through the tap and its answer."""
    game, ref = game_and_referee
    page = ref.page
    card = lambda pid: page.locator(f"#console article.player[data-player='{pid}']")  # noqa: E731
    card("C").locator("input[name=counted]").fill("1490")
    for pid in ("A", "C"):
        card(pid).evaluate("a => { a.markedBeforeTheTap = true; }")
    ref.roll(1, 2)  # Anna: GO -> 3
    ref.sees("Buy for 60")
    assert card("C").locator("input[name=counted]").input_value() == "1490"
    assert card("C").evaluate("a => a.markedBeforeTheTap === true")  # not drawn anew
    assert card("A").evaluate("a => a.markedBeforeTheTap === undefined")  # drawn anew: where she stands
    assert state(game).player("A").position == 3
    # The count typed, then entered: 10 short of her 1,500, the difference said on her card.
    with ref.posted():
        ref.tap(card("C").get_by_role("button", name="Check"))
    expect_text = "Counted 1490, expected 1500: difference \u2212" + "10"
    from playwright.sync_api import expect

    expect(card("C")).to_contain_text(expect_text)


@pytest.fixture
def no_poll(settings):
    """The console asks for another device's moves only when told (no stream here): a screen kept stale."""
    settings.CONSOLE_POLL_SECONDS = 3600


def test_console_in_polish_and_reopened_on_another_device(no_poll, game_and_referee, browser, live_server):
    game, ref = game_and_referee
    ref.roll(4, 6)
    # A second phone opens the same game and continues where it was.
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pl-PL")
    other = Referee(context.new_page(), live_server.url)
    other.login("ref", "pw", f"/games/{game.pk}/")
    with other.page.expect_navigation():
        other.page.select_option("select[name=language]", "pl")
    other.sees("Rzuca Bartek")
    other.shot("07-polish-second-device")
    other.roll(1, 3)
    assert state(game).player("B").position == 4
    # The first phone, still showing Bartek's roll, enters a move on it: the server refuses it as made on
    # an older game, the phone lists it with why and shows the game as it is.
    from playwright.sync_api import expect

    ref.roll(1, 3)
    refused = ref.page.locator("#console-refused")
    expect(refused).to_contain_text("Another device changed the game meanwhile")
    expect(refused).to_contain_text("Bartek rolls 1+3")  # what the other device entered
    ref.sees("Celina rolls")
    assert state(game).player("B").position == 4
    context.close()


def test_a_move_whose_answer_is_lost_is_sent_again_and_entered_once(game_and_referee):
    """The venue's Wi-Fi takes a move to the server and loses its answer: the phone keeps the move waiting,
    sends it again (the same request key) and the server, which has it, answers it as done: entered once."""
    game, ref = game_and_referee
    page = ref.page
    lost = []

    def lose_the_first_answer(route):
        if lost:
            route.continue_()
        else:
            lost.append(route.fetch().status)  # the server gets the move and answers; the phone never hears
            route.abort()

    page.route("**/sync/", lose_the_first_answer)
    ref.roll(2, 3)  # Anna on Dworzec Zachodni: waiting, then sent again, taken once
    ref.sees("Buy for 200")
    assert lost == [200] and game.events.count() == 1 and state(game).player("A").position == 5
    ref.shot("08-answer-lost")


def two_hour_anti_monopoly_game(name: str):
    """A two-hour Anti-Monopoly game of Celina (competitor) and Marek (monopolist), refereed by "ref2"."""
    return recording.create_game(
        name=name,
        variant="anti-monopoly",
        board="anti-monopoly-us",
        options={"ending": "two_hour"},
        referees=[User.objects.create_user("ref2", password="pw")],
        players=[{"name": "Celina", "role": "competitor"}, {"name": "Marek", "role": "monopolist"}],
    )


def test_an_anti_monopoly_two_hour_game_to_its_end_on_a_phone(live_server, browser):
    """Roles shown, the income tax choice, a utility's rent thrown afresh, time up, the final steps."""
    game = two_hour_anti_monopoly_game("Anty 1")
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="en-US", has_touch=True)
    ref = Referee(context.new_page(), live_server.url)
    ref.login("ref2", "pw", f"/games/{game.pk}/")
    ref.sees("competitor")
    ref.sees("monopolist")
    ref.roll(1, 3)  # Celina: 4, Income Tax
    ref.sees("Income tax: Celina chooses")
    ref.shot("am-01-income-tax")
    ref.button("Pay 150 (percentage)")
    assert state(game).player("A").cash == 1350
    ref.roll(6, 6)  # Marek: 12, U.S. Electric Company
    ref.button("Buy for 150")
    ref.roll(1, 2)  # his extra roll: 15, U.S. Bus Company
    ref.button("Decline")
    ref.roll(4, 4)  # Celina: 12, Marek's utility; her extra roll comes after the rent
    ref.sees("Rent 4 × the dice: Celina → Marek")
    ref.shot("am-02-utility-rent")
    ref.throw(ref.page.locator(".card.rent"), 3, 2)  # the rent claimed with the dice thrown
    assert state(game).player("B").cash == 1500 - 150 + 20  # 4 × (3 + 2)
    ref.confirmed("Game time is up")  # "The game time is up?" Yes
    ref.roll(1, 2)  # Celina's extra roll: 15, U.S. Bus Company
    ref.button("Decline")
    ref.roll(2, 3)  # Marek: 17, the round ends: dealings with the bank only
    ref.sees("Time is up: dealings with the bank only")
    ref.shot("am-03-dealings")
    ref.confirmed("The dealings are over: each keeps a share of cash")
    ref.sees("rolls the dice to value U.S. Electric Company")
    ref.throw(ref.page.locator(".card.final"), 6, 6)
    ref.sees("The treasurer's tour: one rent per property")
    ref.shot("am-04-tour")
    ref.button("Pay the rents and end the game")
    ref.sees("Game over")
    ref.shot("am-05-over")
    s = state(game)
    assert s.finished and s.end_reason == "time"
    context.close()


@pytest.mark.parametrize(
    ("locale", "said"),
    [("en-US", "Celina lands on Sunset Blvd."), ("pl-PL", "Celina staje na polu Sunset Blvd.")],
)
def test_a_square_whose_name_ends_with_a_full_stop_ends_the_sentence_with_it(
    live_server, browser, locale, said
):
    """A square named "Sunset Blvd." at the end of a sentence: one full stop, not two, as the phone's rules
    say it (the server's own words say the same: tests/test_i18n.py)."""
    from playwright.sync_api import expect

    game = two_hour_anti_monopoly_game("Anty 2")
    context = browser.new_context(viewport=PHONE, locale=locale, has_touch=True)
    ref = Referee(context.new_page(), live_server.url)
    ref.login("ref2", "pw", f"/games/{game.pk}/")
    ref.roll(2, 4)  # Celina: 6, Sunset Blvd.
    just = ref.page.locator("#just-now")
    expect(just).to_contain_text(said)
    assert "Blvd.." not in just.inner_text()
    context.close()


def test_a_timeout_is_deliberate_apart_from_the_dice_and_undoable(live_server, browser):
    from playwright.sync_api import expect

    user = User.objects.create_user("ref3", password="pw")
    game = recording.create_game(
        name="Clock",
        variant="polish-table",
        board="classic-pl",
        referees=[user],
        players=[{"name": "Anna"}, {"name": "Bartek"}],
    )
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="en-US", has_touch=True)
    ref = Referee(context.new_page(), live_server.url)
    ref.login("ref3", "pw", f"/games/{game.pk}/")
    page = ref.page
    timeout = page.locator("section.clocks button[data-what=timeout]")
    assert page.locator(".roll-card button[data-what=timeout]").count() == 0  # not among the dice
    timeout.click()  # the clock has not run out: asked first
    expect(page.locator("[role=alertdialog]")).to_contain_text("move time is not up yet")
    page.get_by_role("button", name="No", exact=True).click()
    assert state(game).turn is None and state(game).events == 0  # not confirmed: nothing entered
    ref.shot("clock-01-apart")
    ref.tap(timeout)
    ref.button("Yes")
    ref.sees("Bartek rolls")
    assert state(game).events == 1
    page.locator(".undo-last summary").click()
    page.fill("form.undo input[name=reason]", "tapped too soon")
    ref.button("Undo the last move")
    ref.sees("Anna rolls")
    assert state(game).events == 0
    context.close()


def test_a_timeout_needs_no_confirmation_once_the_move_clock_has_run_out(live_server, browser):
    from datetime import timedelta

    from django.utils import timezone

    from tournament.models import Game

    user = User.objects.create_user("ref4", password="pw")
    game = recording.create_game(
        name="Clock 2",
        variant="polish-table",
        board="classic-pl",
        referees=[user],
        players=[{"name": "Anna"}, {"name": "Bartek"}],
    )
    Game.objects.filter(pk=game.pk).update(created_at=timezone.now() - timedelta(seconds=120))
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="en-US", has_touch=True)
    ref = Referee(context.new_page(), live_server.url)
    ref.login("ref4", "pw", f"/games/{game.pk}/")
    page = ref.page
    page.wait_for_selector("section.clocks button[data-what=timeout].expired")
    ref.shot("clock-02-expired")
    with ref.posted():
        page.locator("section.clocks button[data-what=timeout]").click()  # not asked: the clock has run out
    ref.sees("Bartek rolls")
    context.close()


def test_a_referee_logs_in_and_lands_on_his_tables(live_server, browser):
    from tournament.event import rounds
    from tournament.models import Participant, Tournament

    user = User.objects.create_user("ref5", password="pw")
    t = Tournament.objects.create(name="Puchar Warszawy", rounds=2, table_size=4, seed=2)
    for i in range(8):
        Participant.objects.create(tournament=t, name=f"Gracz {i}")
    round_ = rounds.seat_next_round(t)
    for table in round_.tables.all():
        table.referees.add(user)
    rounds.start_round(round_)
    first = round_.tables.first()
    rounds.start_table_game(first, [s.participant_id for s in first.seats.all()], user=user)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="en-US", has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", "ref5")
    page.fill("input[name=password]", "pw")
    page.click("button[type=submit]")
    page.wait_for_url("**/my-tables/")
    from playwright.sync_api import expect

    expect(page.locator("main, body").first).to_contain_text("Round 1, table 2")
    Referee(page, live_server.url).shot("tables-01-landing")
    page.get_by_role("link", name="Round 1, table 1").click()  # in play: straight to the console
    page.wait_for_url(f"**/games/{first.game.pk}/")
    context.close()


def test_the_public_seating_page_on_a_phone_and_a_projector(live_server, browser):
    from tournament.event import rounds
    from tournament.models import Participant, Tournament

    t = Tournament.objects.create(name="Puchar Warszawy", rounds=2, table_size=4, seed=2)
    names = ["Łukasz Kowal", "Anna Nowak", "Żaneta Wróbel", "Zenon Lis", "Ćwik Adam", "Lucyna Bąk"]
    for i in range(18):
        Participant.objects.create(tournament=t, name=f"{names[i % 6]} {i}", club=f"Klub {i % 4}")
    rounds.seat_next_round(t)
    for label, viewport, query in (
        ("phone", PHONE, ""),
        ("projector", {"width": 1920, "height": 1080}, "?refresh=30"),  # refreshed, in large type
    ):
        context = browser.new_context(viewport=viewport, locale="en-US")
        page = context.new_page()
        page.goto(f"{live_server.url}/tournaments/{t.pk}/seating/{query}")
        from playwright.sync_api import expect

        expect(page.locator(".who-sits li").first).to_contain_text("Anna Nowak")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]  # nothing overflows
        Referee(page, live_server.url).shot(f"seating-{label}")
        context.close()


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        (
            "en-US",
            {
                "lapses": "With the shares kept the rent lapses: Marek → Celina (Sunset Blvd.)",
                "asked": "A rent not claimed lapses.",
                "note": "Not claimed before each keeps a share of cash, it lapses.",
                "no": "No",
            },
        ),
        (
            "pl-PL",
            {
                "lapses": "Po zatrzymaniu części gotówki czynsz przepada: Marek → Celina (Sunset Blvd.)",
                "asked": "Niepobrany czynsz przepada.",
                "note": "Niepobrany przed zatrzymaniem części gotówki przepada.",
                "no": "Nie",
            },
        ),
    ],
)
def test_each_keeping_a_share_warns_of_a_rent_it_lets_lapse(live_server, browser, locale, said):
    """The two-hour game's time is up and the round's last throw left a rent not claimed: the final steps
    say it lapses when each keeps a share of cash (not "before the next roll": there is none), offer to
    claim it first, and "the dealings are over" asks saying so; claimed, the warning is gone."""
    from playwright.sync_api import expect

    game = two_hour_anti_monopoly_game("Anty 3")
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale=locale, has_touch=True)
    ref = Referee(context.new_page(), live_server.url)
    ref.login("ref2", "pw", f"/games/{game.pk}/")
    page = ref.page
    ref.roll(2, 4)  # Celina: 6, Sunset Blvd.
    with ref.posted():
        ref.tap(page.locator(".card.buy button[data-what=buy]"))
    ref.tap(page.locator("button[data-what=time_up]"))
    with ref.posted():
        ref.tap(page.locator("[role=alertdialog] button.danger"))
    ref.roll(1, 5)  # Marek, the round's last throw: 6, Celina's Sunset Blvd.; the rent is not claimed
    final = page.locator("#console .card.final")
    expect(final).to_contain_text(said["lapses"])
    expect(page.locator("#console .card.rent")).to_contain_text(said["note"])
    ref.shot(f"am-rent-lapses-at-the-shares-{locale}")
    ref.tap(final.locator("button[data-what=final_keep]"))
    expect(page.locator("[role=alertdialog]")).to_contain_text(said["asked"])
    ref.tap(page.get_by_role("button", name=said["no"], exact=True))  # not now: nothing entered
    s = state(game)
    assert s.final_step == "dealings" and len(s.rents) == 1
    owed = s.rents[0].amount
    with ref.posted():
        ref.tap(final.locator(".lapse button[data-what=rent]"))  # claim the rent first
    s = state(game)
    assert not s.rents and s.player("A").cash == 1500 - s.board.squares[6].price + owed
    expect(final).not_to_contain_text(said["lapses"])
    context.close()
