"""The console without the Wi-Fi, in a real browser (Playwright's ``context.set_offline``), against the live
server (SQLite, and PostgreSQL with ``--postgres``): the referee goes on entering moves on the phone (the
rules run on it: Pyodide, static/console/engine.js), they are kept in its outbox, survive a reload without
network, and are sent once and in order when the network is back, the game then in the very state the phone
showed; a move another device entered meanwhile makes the phone's moves refused, each listed with why.

The referee here is a bot that reads the phone's own panel: it taps what the panel offers (the buttons carry
the events they enter) and steers the dice to a card, to streets to buy, to an auction and a build; the same
events applied by the test to its own copy of the game (tournament/console/view_model/phone.py, the engine the
phone runs) say what
the server must hold in the end."""

import json

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from playwright.sync_api import expect

from rules.board import get_board
from rules.messages import from_data
from rules.snapshot import load_state
from tests import test_console_browser as phone
from tests.test_console_browser import PHONE, SCREENS, browser  # noqa: F401 (the browser fixture)
from tests.test_offline_engine_browser import with_the_sites_policy
from tests.tournaments import make_tournament
from tournament.console.view_model import phone as phone_engine
from tournament.event import rounds
from tournament.games import recording
from tournament.games.messages import message_text
from tournament.models import GameEvent

pytestmark = phone.pytestmark
PANEL = "#console-offline-panel"
CARD_KINDS = ("chance", "community_chest", "card")


def referee_phone(browser, live_server, path, locale="en-US"):  # noqa: F811
    context = browser.new_context(viewport=PHONE, locale=locale, has_touch=True)
    with_the_sites_policy(context)
    return logged_in(context.new_page(), live_server, path), context


def logged_in(page, live_server, path):
    """The referee logged in on ``path``; the service worker installed with the files it keeps (Pyodide among
    them), the page under its control."""
    page.goto(f"{live_server.url}/login/?next={path}")
    page.fill("input[name=username]", "sedzia")
    page.fill("input[name=password]", "pw")
    with page.expect_navigation():
        page.click("form:has(input[name=password]) button[type=submit]")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    return page


def a_game(live_server, variant="tournament-pl", board="classic-pl"):
    User.objects.create_user("sedzia", password="pw")
    t = make_tournament(4, name="Puchar Łodzi", rounds=2, table_size=4, variant=variant, board=board)
    round_1 = rounds.seat_next_round(t)
    rounds.start_round(round_1)
    table = round_1.tables.get()
    table.referees.add(User.objects.get(username="sedzia"))
    return rounds.start_table_game(table, [s.participant_id for s in table.seats.all()], user=None)


class Bot:
    """Taps the phone's offline panel; keeps its own copy of the game with the events each tap entered."""

    def __init__(self, page, game):
        self.page = page
        self.panel = page.locator(PANEL)
        state = game.state
        self.states = [json.dumps({"state": state, "ledger": game.ledger})]  # the game as the phone keeps it
        self.entered: list[list[dict]] = []  # the events of each move kept, in order
        self.done: set[str] = set()
        self.board = get_board(state["board"])
        self.auctions = load_state(state).variant.auction_on_decline  # (Anti-Monopoly: none)
        self.wanted = {"buy", "card", "build", "undo", *(["auction"] if self.auctions else [])}

    @property
    def view(self) -> dict:
        return json.loads(phone_engine.view(self.states[-1]))

    def tap(self, locator, what: str):
        """Tap ``locator`` (its events read at the tap) and check that the phone kept one more move."""
        events = json.loads(locator.get_attribute("data-events"))
        locator.click()
        out = json.loads(phone_engine.apply(self.states[-1], json.dumps(events)))
        assert out["ok"], (what, events, out)
        self.states.append(json.dumps(out["game"]))
        self.entered.append(out["events"])  # as the engine read them (the phone keeps and sends these)
        self.done.add(what)
        self.expect_waiting()
        said = self.panel.locator("#offline-just-now [role=status]")
        expect(said).not_to_contain_text("{")  # the engine's words, every value in its place

    def expect_waiting(self):
        expect(self.page.locator("#console-connection")).to_contain_text(
            f"Moves waiting to be sent: {len(self.entered)}", timeout=20_000
        )

    def undo(self):
        self.panel.locator("[data-undo]").click()
        self.states.pop()
        self.entered.pop()
        self.done.add("undo")
        if self.entered:
            self.expect_waiting()
        else:
            expect(self.page.locator("#console-connection")).not_to_contain_text("waiting")

    def dice_to(self, position: int) -> str:
        """The dice key that moves the token from ``position`` to a square worth landing on."""
        owned = {int(sq) for sq in json.loads(self.states[-1])["state"]["holdings"]}
        for steps in range(3, 12):
            sq = self.board.square((position + steps) % 40)
            wanted = (sq.kind in CARD_KINDS and "card" not in self.done) or (
                sq.kind == "street" and sq.index not in owned and not self.wanted <= self.done | {"undo"}
            )
            if wanted:
                a = 1 if steps - 1 <= 6 else steps - 6
                return f"{a}{steps - a}"
        return "34"

    def step(self):
        view = self.view
        legal = view["now"]
        now = self.panel.locator("section.now")
        if legal["buy"]:
            if not self.auctions or "buy" not in self.done or "auction" in self.done:
                return self.tap(now.locator("""[data-events*='"type":"buy"']"""), "buy")
            return self.tap(now.locator("""[data-events*='"type":"decline"']"""), "decline")
        if legal["auctions"]:
            auction = now.locator(".card", has=self.page.locator("select"))
            auction.locator("select").select_option(index=1)
            auction.locator("input").fill(str(legal["auctions"][0]["opening_bid"] or 10))
            return self.tap(auction.get_by_role("button", name="Sold"), "auction")
        if legal["card"]:
            return self.tap(now.locator(".cardlist [data-events]").first, "card")
        for kind in ("rents", "tax", "foundation"):
            if legal[kind]:
                return self.tap(now.locator("[data-events]").first, kind)
        builders = [p["id"] for p in view["players"] if p["may"] and p["may"]["build"]]
        if builders and "build" not in self.done:
            box = self.panel.locator(f".player[data-player='{builders[0]}']")
            box.locator("summary").click()
            return self.tap(box.get_by_role("button", name="Build", exact=True), "build")
        if legal["roll"]:
            player = next(p for p in view["players"] if p["id"] == legal["roll"]["player"])
            key = now.locator(f".pad button[value='{self.dice_to(player['position'])}']")
            return self.tap(key, "roll")
        raise AssertionError(f"nothing to tap: {legal}")


def go_offline(page, context, said="Offline"):
    context.set_offline(True)
    page.evaluate("() => window.dispatchEvent(new Event('offline'))")  # (as the browser tells a page)
    expect(page.locator(PANEL + " .pad, " + PANEL + " section.now .card").first).to_be_visible(timeout=60_000)
    expect(page.locator("#console-connection")).to_contain_text(said)


@pytest.mark.parametrize(
    ("variant", "board"), [("tournament-pl", "classic-pl"), ("anti-monopoly", "anti-monopoly-us")]
)
def test_twenty_moves_entered_offline_are_sent_once_and_in_order(live_server, browser, variant, board):  # noqa: F811
    game = a_game(live_server, variant, board)
    page, context = referee_phone(browser, live_server, f"/games/{game.pk}/")
    go_offline(page, context)
    bot, version = Bot(page, game), game.version
    while len(bot.entered) < 20 or not bot.wanted <= bot.done:
        bot.step()
        if len(bot.entered) == 6 and "undo" not in bot.done:
            bot.undo()  # a move taken back before it was ever sent
        assert len(bot.entered) < 60, bot.done
    page.screenshot(path=str(SCREENS / f"console-offline-{board}.png"), full_page=True)
    shown = page.locator(PANEL + " .players").inner_text()

    page.reload()  # no network: the service worker's page, the outbox from the phone's storage
    expect(page.locator("#console-connection")).to_contain_text(
        f"Moves waiting to be sent: {len(bot.entered)}"
    )
    expect(page.locator(PANEL + " .players")).to_have_text(shown, use_inner_text=True, timeout=60_000)
    assert GameEvent.objects.filter(game=game).count() == 0  # nothing reached the server meanwhile

    context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator("#console-connection")).to_have_text("Online", timeout=30_000)
    expect(page.locator("#console")).to_be_visible()
    game.refresh_from_db()
    stored = list(GameEvent.objects.filter(game=game).order_by("seq"))
    assert [e.data for e in stored] == [recording.event_data(e) for move in bot.entered for e in move]
    assert len({e.client_key.split("#")[0] for e in stored if e.client_key}) == len(bot.entered)  # once each
    assert game.version == version + len(bot.entered) and game.state == json.loads(bot.states[-1])["state"]
    page.screenshot(path=str(SCREENS / f"console-offline-sent-{board}.png"), full_page=True)
    context.close()


def online_moves(page, game, count: int) -> None:
    """``count`` moves entered on the server's panel, as a referee taps them with the Wi-Fi up: the roll's
    pad (dice the test steers to plain squares and streets), a purchase, a rent; each answer swapped in."""
    ref = phone.Referee(page, "")
    for _ in range(count):
        game_state(game)
        state = json.loads(phone_engine.view(json.dumps({"state": game.state, "ledger": game.ledger})))
        legal = state["now"]
        if legal["buy"]:
            ref.button(f"Buy for {legal['buy']['price']}")
        elif legal["rents"]:
            ref.button("Rent claimed")
        elif legal["roll"]:
            player = next(p for p in state["players"] if p["id"] == legal["roll"]["player"])
            ref.throw(page.locator("form.roll"), *plain_dice(get_board(state["board"]), player["position"]))
        else:
            raise AssertionError(f"nothing to tap online: {legal}")


def game_state(game) -> dict:
    game.refresh_from_db()
    return game.state


def plain_dice(board, position: int) -> tuple[int, int]:
    """Dice (not a double) to a street, a railroad or a square where nothing happens: nothing the test must
    answer but a purchase or a fixed rent."""
    for steps in (3, 5, 7, 9, 11, 4, 6, 8, 10):
        if board.square((position + steps) % 40).kind in ("street", "railroad", "parking", "jail"):
            a = 1 if steps <= 7 else steps - 6
            return a, steps - a
    return 1, 2


def test_the_wifi_lost_after_moves_entered_online_goes_on_from_the_last_one(live_server, browser):  # noqa: F811
    """The outage of an event day: the console open since the first move, moves entered online (each answer
    swapped into the page), then the Wi-Fi goes. The phone goes on from the last move the server took, not
    from the page's first state: its moves are sent once, in order, and none is refused."""
    game = a_game(live_server)
    page, context = referee_phone(browser, live_server, f"/games/{game.pk}/")
    online_moves(page, game, 6)
    game.refresh_from_db()
    version = game.version
    assert version == 6
    go_offline(page, context)
    bot = Bot(page, game)
    expect(page.locator(PANEL + " .players")).to_contain_text(str(bot.view["players"][0]["cash"]))
    for _ in range(8):
        bot.step()
    context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator("#console-connection")).to_have_text("Online", timeout=30_000)
    expect(page.locator("#console-refused")).to_be_hidden()
    stored = list(GameEvent.objects.filter(game=game).order_by("seq"))
    assert [e.data for e in stored[6:]] == [recording.event_data(e) for move in bot.entered for e in move]
    game.refresh_from_db()
    assert game.version == version + len(bot.entered) and game.state == json.loads(bot.states[-1])["state"]
    context.close()


def test_a_move_another_device_entered_meanwhile_refuses_the_phones_moves_one_by_one(live_server, browser):  # noqa: F811
    game = a_game(live_server)
    page, context = referee_phone(browser, live_server, f"/games/{game.pk}/")
    go_offline(page, context)
    bot = Bot(page, game)
    for _ in range(3):
        bot.step()
    first = bot.entered[0][0]
    other = {**first, "dice": [6, 5]} if first["type"] == "roll" else first
    recording.submit(game.pk, other, version=game.version)  # the director's phone, on the network meanwhile

    context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    refused = page.locator("#console-refused")
    expect(refused.locator(".refused-move")).to_have_count(3, timeout=30_000)
    expect(refused.locator(".refused-move").first).to_contain_text("Another device")
    expect(refused).not_to_contain_text("{")
    for later in refused.locator(".refused-move").all()[1:]:
        expect(later).to_contain_text("Not sent: it followed a refused move.")
    assert GameEvent.objects.filter(game=game).count() == 1  # the other device's move alone
    expect(page.locator("#console-connection")).to_have_text("Online")
    page.screenshot(path=str(SCREENS / "console-offline-refused.png"), full_page=True)
    refused.get_by_role("button", name="Understood").click()
    expect(refused).to_be_hidden()
    context.close()


def test_offline_the_phone_speaks_the_referees_language(live_server, browser):  # noqa: F811
    """In Polish: the line above, the panel's words and the engine's notes, translated as the server would."""
    game = a_game(live_server)
    page, context = referee_phone(browser, live_server, f"/games/{game.pk}/", locale="pl-PL")
    page.select_option("select[name=language]", "pl")  # the language switched, as the referee does
    page.wait_for_load_state()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    go_offline(page, context, said="Brak połączenia")
    first = game.state["players"][0]
    page.locator(PANEL + " .pad button[value='34']").click()
    expect(page.locator("#console-connection")).to_contain_text("Ruchy czekające na wysłanie: 1")
    out = json.loads(
        phone_engine.apply(
            json.dumps({"state": game.state, "ledger": game.ledger}),
            json.dumps([{"type": "roll", "player": first["id"], "dice": [3, 4]}]),
        )
    )
    with translation.override("pl"):
        said = " ".join(message_text(from_data(n)) for n in out["notes"])
    expect(page.locator(PANEL + " #offline-just-now [role=status]")).to_have_text(said)
    expect(page.locator(PANEL + " h1")).to_have_text("Puchar Łodzi · runda 1 · stolik 1")
    context.close()


def test_the_outbox_outlives_its_tab_and_two_tabs_send_each_move_once(live_server, browser):  # noqa: F811
    """The tab closed with moves waiting: a new tab of the same phone has them. Back online, two tabs of the
    console send at once: each move is stored once, in order."""
    game = a_game(live_server)
    page, context = referee_phone(browser, live_server, f"/games/{game.pk}/")
    go_offline(page, context)
    bot = Bot(page, game)
    for _ in range(4):
        bot.step()
    page.close()
    tabs = [context.new_page(), context.new_page()]
    for tab in tabs:
        tab.goto(f"{live_server.url}/games/{game.pk}/")  # no network: the service worker's page
        expect(tab.locator("#console-connection")).to_contain_text("Moves waiting to be sent: 4")
    context.set_offline(False)
    for tab in tabs:
        tab.evaluate("() => window.dispatchEvent(new Event('online'))")
    for tab in tabs:
        expect(tab.locator("#console-connection")).to_have_text("Online", timeout=30_000)
    stored = list(GameEvent.objects.filter(game=game).order_by("seq"))
    assert [e.data for e in stored] == [recording.event_data(e) for move in bot.entered for e in move]
    expect(tabs[1].locator("#console-refused")).to_be_hidden()
    context.close()


def test_the_outbox_outlives_a_restart_of_the_phone(live_server, browser, tmp_path):  # noqa: F811
    """The browser closed with moves waiting and started again without network (its profile on disk, as a
    phone keeps it): the console opens from the service worker with the moves still waiting; then sent."""
    game = a_game(live_server)
    profile = dict(
        user_data_dir=str(tmp_path / "profile"),
        executable_path=phone.CHROMIUM,
        args=phone.ARGS,
        viewport=PHONE,
        locale="en-US",
    )
    context = browser.browser_type.launch_persistent_context(**profile)
    with_the_sites_policy(context)
    first_tab = context.pages[0] if context.pages else context.new_page()
    page = logged_in(first_tab, live_server, f"/games/{game.pk}/")
    go_offline(page, context)
    bot = Bot(page, game)
    for _ in range(3):
        bot.step()
    context.close()  # the phone restarted

    context = browser.browser_type.launch_persistent_context(**profile)
    context.set_offline(True)
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#console-connection")).to_contain_text("Moves waiting to be sent: 3", timeout=30_000)
    assert GameEvent.objects.filter(game=game).count() == 0
    context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator("#console-connection")).to_have_text("Online", timeout=30_000)
    stored = list(GameEvent.objects.filter(game=game).order_by("seq"))
    assert [e.data for e in stored] == [recording.event_data(e) for move in bot.entered for e in move]
    context.close()
