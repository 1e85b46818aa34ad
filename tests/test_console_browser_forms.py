"""The console's forms in a real browser at phone size, as a referee meets them: what he typed survives a
refused move and another device's move; after a move the next action is in view; the trade form shows each
side's own; any move can be voided; the cards page fits a phone; htmx says nothing in the browser console.
Screenshots go to out/screens/forms-*.png."""

from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests import test_console_browser as phone
from tests.test_console_browser import PHONE, SCREENS, Referee, state
from tournament.console.panel import LOG_LENGTH
from tournament.games import recording

pytestmark = phone.pytestmark
browser = phone.browser  # the fixtures: one chromium for the module, a referee on a fresh game
game_and_referee = phone.game_and_referee


def enter(game, **event):
    """Another device enters a move."""
    game.refresh_from_db()
    return recording.submit(game.pk, event, version=game.version)


def dealt_game(live_server, browser, username="ref9"):
    """A short game (tournament deals two title deeds each): Anna holds Konopacka and Stalowa (a whole group),
    Bartek Radzymińska and Jagiellońska, Celina Płowiecka and Marsa. The referee's phone on its console."""
    user = User.objects.create_user(username, password="pw")
    game = recording.create_game(
        name="Table 5",
        variant="short",
        board="classic-pl",
        referees=[user],
        players=[{"name": "Anna"}, {"name": "Bartek"}, {"name": "Celina"}],
    )
    for pid, squares in (("A", [1, 3]), ("B", [6, 8]), ("C", [11, 13])):
        enter(game, type="deal", player=pid, squares=squares)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="en-US", has_touch=True)
    ref = Referee(context.new_page(), live_server.url)
    ref.login(username, "pw", f"/games/{game.pk}/")
    return game, ref, context


#: Counts the console's polls that come round (sent, or held back while a move is on its way), from now.
POLL_TURNS = """() => {
  window.pollTurns = 0;
  document.addEventListener("htmx:beforeRequest", (e) => {
    if (e.detail.elt.hasAttribute("data-poll")) window.pollTurns++;
  });
}"""


def holdings(page, player):
    """The player's "Build, sell, mortgage", opened by a tap unless it is open already (it is, in his turn
    when he can build)."""
    actions = page.locator(".player", has_text=player).locator("details.actions")
    if not actions.evaluate("d => d.open"):
        actions.locator("summary").click()
    return actions


def visible_labels(locator):
    return [t.strip() for t in locator.filter(visible=True).all_inner_texts()]


def screen(ref, name):
    """What the phone shows (not the whole page): where the referee is scrolled."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    ref.page.screenshot(path=str(SCREENS / f"{name}.png"))


def chip(trade, square):
    """A square's checkbox on the side the trade form shows (the other side's are hidden)."""
    return trade.locator("label.chip:visible", has_text=square).locator("input")


def in_view(locator):
    return locator.evaluate(
        "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
    )


def test_a_refused_bid_keeps_the_price_typed(game_and_referee):
    """The winner is the button tapped, so there is no chosen winner to lose; the price typed stays."""
    game, ref = game_and_referee
    page = ref.page
    ref.roll(3, 3)
    ref.button("Buy for 100")
    ref.roll(1, 2)
    page.fill("input[name=price]", "59")
    ref.button("Bartek")
    auction = page.locator("form.auction", has_text="Or declined, and auctioned")
    expect(auction.locator(".error")).to_contain_text("below the opening bid 60")  # said at the form too
    expect(page.locator("input[name=price]")).to_have_value("59")
    ref.shot("forms-01-refused-bid-kept")
    page.fill("input[name=price]", "60")
    ref.button("Bartek")
    assert state(game).owner_of(9) == "B"


def test_without_javascript_the_dice_pad_rolls_and_a_refused_trade_keeps_what_was_typed(live_server, browser):
    """No JavaScript (an old phone, a blocked script): the dice pad's keys are plain buttons, and a refused
    move answers with the console, the trade still open and filled in."""
    game, ref, context = dealt_game(live_server, browser, "ref-nojs")
    context.close()
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, locale="en-US", java_script_enabled=False
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/login/?next=/games/{game.pk}/")
    page.fill("input[name=username]", "ref-nojs")
    page.fill("input[name=password]", "pw")
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()
    with page.expect_navigation():
        page.locator("form.roll .pad button[value='12']").click()  # Anna: 3
    assert state(game).player("A").position == 3
    trade = page.locator("details.trade")
    trade.locator("summary").click()
    page.locator("select[name=player]").select_option("B")
    page.locator("select[name=with]").select_option("C")
    page.locator("fieldset[data-side-of=player] [data-owner=B] input[value='6']").check()
    page.fill("input[name=give_cash]", "5000")  # more than Bartek has
    with page.expect_navigation():
        page.get_by_role("button", name="Record the trade").click()
    expect(page.locator("#console-error")).to_be_visible()
    expect(page.locator("details.trade")).to_have_attribute("open", "")
    expect(page.locator("select[name=player]")).to_have_value("B")
    expect(page.locator("select[name=with]")).to_have_value("C")
    expect(page.locator("fieldset[data-side-of=player] [data-owner=B] input[value='6']")).to_be_checked()
    expect(page.locator("input[name=give_cash]")).to_have_value("5000")
    page.screenshot(path=str(SCREENS / "forms-09-no-javascript-trade-kept.png"), full_page=True)
    assert state(game).owner_of(6) == "B"
    context.close()


def test_a_refused_trade_keeps_the_form_open_and_filled(live_server, browser):
    game, ref, context = dealt_game(live_server, browser)
    page = ref.page
    trade = page.locator("details.trade")
    trade.locator("summary").click()
    chip(trade, "Ulica Konopacka").check()
    trade.locator("input[name=give_cash]").fill("5000")
    chip(trade, "Ulica Radzymińska").check()
    ref.button("Record the trade")
    expect(trade.locator(".error")).to_contain_text("Anna has only")
    expect(trade).to_have_attribute("open", "")
    expect(chip(trade, "Ulica Konopacka")).to_be_checked()
    expect(chip(trade, "Ulica Radzymińska")).to_be_checked()
    expect(trade.locator("input[name=give_cash]")).to_have_value("5000")
    screen(ref, "forms-02-refused-trade-kept")
    cash = state(game).player("A").cash
    trade.locator("input[name=give_cash]").fill("200")
    ref.button("Record the trade")
    s = state(game)
    assert (s.owner_of(1), s.owner_of(6), s.player("A").cash) == ("B", "A", cash - 200)
    context.close()


def test_the_trade_form_shows_each_sides_own_and_the_log_says_what_changed_hands(live_server, browser):
    game, ref, context = dealt_game(live_server, browser, "ref10")
    page = ref.page
    trade = page.locator("details.trade")
    trade.locator("summary").click()
    gives = trade.locator("fieldset[data-side-of=player] label.chip")
    gets = trade.locator("fieldset[data-side-of=with] label.chip")
    assert visible_labels(gives) == ["Ulica Konopacka", "Ulica Stalowa"]
    assert visible_labels(gets) == ["Ulica Radzymińska", "Ulica Jagiellońska"]
    ref.shot("forms-03-trade-per-side")
    trade.locator("select[name=player]").select_option(label="Bartek")  # the other one becomes Anna
    expect(trade.locator("select[name=with]")).to_have_value("A")
    assert visible_labels(gives) == ["Ulica Radzymińska", "Ulica Jagiellońska"]
    trade.locator("select[name=with]").select_option(label="Celina")
    assert visible_labels(gets) == ["Ulica Płowiecka", "Ulica Marsa"]
    chip(trade, "Ulica Jagiellońska").check()
    trade.locator("input[name=give_cash]").fill("50")
    chip(trade, "Ulica Marsa").check()
    ref.button("Record the trade")
    ref.sees("Bartek gives Ulica Jagiellońska and 50 to Celina for Ulica Marsa.")
    assert (state(game).owner_of(8), state(game).owner_of(13)) == ("C", "B")
    ref.shot("forms-04-trade-logged")
    context.close()


def test_another_devices_move_does_not_wipe_a_half_typed_trade(live_server, browser, quick_poll):
    game, ref, context = dealt_game(live_server, browser, "ref11")
    page = ref.page
    trade = page.locator("details.trade")
    trade.locator("summary").click()
    chip(trade, "Ulica Stalowa").check()
    trade.locator("input[name=get_cash]").fill("120")
    enter(game, type="mortgage", player="C", square=11)  # another phone at the table
    banner = page.get_by_role("button", name="The game changed on another device — show it")
    expect(banner).to_be_visible(timeout=15000)  # the next poll, a second away (15 s: a loaded machine)
    expect(trade).to_have_attribute("open", "")
    expect(chip(trade, "Ulica Stalowa")).to_be_checked()
    expect(trade.locator("input[name=get_cash]")).to_have_value("120")
    screen(ref, "forms-05-game-changed-banner")
    with page.expect_response("**/panel/"):
        banner.click()
    expect(page.locator(".player", has_text="Celina")).to_contain_text("mortgaged")
    expect(banner).to_have_count(0)
    context.close()


def test_a_poll_keeps_an_open_form_open_when_nothing_was_typed(live_server, browser, quick_poll):
    game, ref, context = dealt_game(live_server, browser, "ref12")
    page = ref.page
    actions = page.locator(".player", has_text="Bartek").locator("details.actions")  # folded: not his turn
    actions.locator("summary").click()
    enter(game, type="mortgage", player="C", square=11)
    expect(page.locator(".player", has_text="Celina")).to_contain_text("mortgaged", timeout=15000)  # a poll
    expect(actions).to_have_attribute("open", "")  # the panel swapped in: the same section, still open
    context.close()


def test_after_building_or_mortgaging_the_roll_is_back_in_view(live_server, browser):
    game, ref, context = dealt_game(live_server, browser, "ref13")
    page = ref.page
    for player, button in (
        ("Anna", "Build on Ulica Konopacka: +1 · 50"),
        ("Celina", "Mortgage Ulica Płowiecka (+70)"),
    ):
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the referee far below the dice
        holdings(page, player)
        ref.button(button)
        expect(page.locator("form.roll")).to_be_visible()
        assert in_view(page.locator("form.roll h2"))
    s = state(game)
    assert s.holdings[1].level == 1 and s.holdings[11].mortgaged
    screen(ref, "forms-06-roll-in-view-after-building")
    context.close()


def test_a_move_older_than_the_last_twelve_is_voided_from_all_moves(live_server, browser):
    game, ref, context = dealt_game(live_server, browser, "ref14")
    enter(game, type="mortgage", player="B", square=6)  # move #4, voided below
    for n in range(LOG_LENGTH):
        enter(game, type="unmortgage" if n % 2 else "mortgage", player="A", square=1)
    page = ref.page
    page.reload()
    page.get_by_role("link", name="Show all moves (16) to void an earlier one").click()
    move = page.locator("li", has_text="#4 ")
    move.locator("summary").click()
    move.locator("input[name=reason]").fill("it was Celina's street")
    with page.expect_navigation():
        move.get_by_role("button", name="Void this move").click()
    expect(page.locator("main")).to_contain_text("Move #4 was voided and the game replayed.")
    expect(page.locator("li.voided", has_text="#4 ")).to_contain_text("it was Celina's street")
    ref.shot("forms-07-all-moves-voided")
    assert not state(game).holdings[6].mortgaged
    context.close()


def test_the_income_and_cost_cards_fit_a_phone(live_server, browser):
    game, ref, context = dealt_game(live_server, browser, "ref15")
    for n in range(6):
        enter(game, type="unmortgage" if n % 2 else "mortgage", player="A", square=1)
    page = ref.page
    page.goto(f"{ref.base}/games/{game.pk}/cards/")
    expect(page.locator("table.ledger").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for table in page.locator(".scroll").all():  # each table fits: its balance column is not cut off
        assert table.evaluate("e => e.scrollWidth <= e.clientWidth")
    ref.shot("forms-08-cards-on-a-phone")
    context.close()


def test_htmx_says_nothing_in_the_browser_console(live_server, browser, quick_poll):
    game, ref, context = dealt_game(live_server, browser, "ref16")
    page = ref.page
    said = []
    page.on("console", lambda m: said.append((m.type, m.text)) if m.type in ("warning", "error") else None)
    page.reload()
    ref.roll(2, 3)  # the dice pad, then the purchase
    ref.button("Buy for 200")
    with page.expect_response(lambda r: "/panel/" in r.url, timeout=15000):  # a poll
        enter(game, type="mortgage", player="C", square=11)
    expect(page.locator(".player", has_text="Celina")).to_contain_text("mortgaged")
    assert said == []
    context.close()


def test_a_poll_answered_while_a_move_is_on_its_way_does_not_swallow_the_moves_answer(
    live_server, browser, quick_poll
):
    """The race behind the "Rent claimed" button left disabled: the poll replaced the panel while a move was
    on its way, and the move's answer then fell on a panel no longer on the screen."""
    game, ref, context = dealt_game(live_server, browser, "ref17")
    page = ref.page
    held = []
    page.route("**/act/", lambda route: held.append(route))
    holdings(page, "Anna")
    ref.tap(page.get_by_role("button", name="Build on Ulica Konopacka: +1 · 50"))
    page.wait_for_timeout(200)
    assert len(held) == 1  # the move is on its way, its answer held back
    page.evaluate(POLL_TURNS)
    enter(game, type="mortgage", player="C", square=11)  # meanwhile another device
    page.wait_for_function("() => window.pollTurns >= 1", timeout=15000)  # a poll's turn came, and waited
    held[0].continue_()
    ref.sees("Another device entered a move meanwhile")  # the move's answer is shown
    # (the refusal, said in Anna's form, names Celina's mortgage: hers is the card with her name on top)
    celina = page.locator(".player", has=page.locator("header", has_text="Celina"))
    expect(celina).to_contain_text("mortgaged")
    expect(page.locator("#console button:disabled")).to_have_count(0)
    context.close()
