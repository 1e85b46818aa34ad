"""The real outage, in a real browser (Playwright driving Debian's chromium, a phone of 360 px): a referee
plays whole games on one console page without reloading it — the Polish board in the tournament's house
rules, the English board in classic, Anti-Monopoly's two-hour game — and the venue's Wi-Fi goes at moments the
test draws (between moves, in the middle of a move's request, during a trade and during a debt), for 10 to 30
moves each time; once the page is reloaded without network, once its tab is closed and opened again, and
during one outage another device enters a move. Every move is stored once and in order, the phone's screen
equals the server's after every move it sent (and the phone's rules' own while offline), and the moves the
server refused are listed.

The referee is a bot that reads the phone's screen (its view model, the console's own) and taps what a
person would tap there: the dice pad, the buttons, a price, a deed and a banknote for a trade, the debt
card's ticks (tests/console_bot.py)."""

import pytest
from playwright.sync_api import expect

from tests.browser import BROWSER_TESTS, RULES_START_MS, SCREENS
from tests.console_bot import CONSOLE, GAMES, Referee, a_game, a_table_game
from tournament.games import recording

pytestmark = BROWSER_TESTS


# the Polish table's game on PostgreSQL too: its locks and the unique request key under a phone's resends
@pytest.mark.parametrize(
    ("variant", "board", "options", "seed"),
    [pytest.param(*g, marks=pytest.mark.postgres) if g[0] == "tournament-pl" else g for g in GAMES],
)
def test_whole_games_through_outages_on_one_page(live_server, browser, variant, board, options, seed):
    game = a_table_game(variant, board) if variant == "tournament-pl" else a_game(variant, board, options)
    ref = Referee(browser, live_server, game, seed)
    ref.cut_within = {"trade", "debt"}
    rng = ref.rng
    outages, tapped, done = 0, [], set()
    while not ref.view["game"]["finished"] and len(tapped) < 400:
        # online for a while: each move sent at once, the screen the server's (unless the Wi-Fi goes in the
        # middle of a trade or a debt)
        for _ in range(rng.randint(3, 12)):
            if ref.view["game"]["finished"]:
                break
            tapped.append(ref.step())
            if ref.offline:
                break
            ref.page.wait_for_function("() => document.getElementById('console').dataset.waiting === '0'")
            ref.same_as_the_server()
        if ref.view["game"]["finished"] and not ref.offline:
            break
        # the Wi-Fi goes: between moves, or in the middle of a move's request (or it went within a trade or a
        # debt: what was filled in entered all the same)
        lost = None
        if not ref.offline:
            how = rng.choice(["between", "mid-request"])
            lost = ref.cut_mid_request() if how == "mid-request" else (ref.cut(), None)[1]
        outages += 1
        for i in range(rng.randint(10, 30)):
            if ref.view["game"]["finished"]:
                break
            tapped.append(ref.step())
            ref.same_as_its_rules()
            if outages == 1 and i == 5 and "reload" not in done:  # reloaded without network
                ref.page.reload()
                ref.page.wait_for_selector(f"{CONSOLE}[data-rules=ready] h1", timeout=RULES_START_MS)
                done.add("reload")
            if outages == 2 and i == 4 and "tab" not in done:  # the tab closed, then opened again
                ref.page.close()
                ref.page = ref.open()
                done.add("tab")
        ref.page.unroute("**/sync/")
        ref.back()
        assert lost is None or lost == [200]
        expect(ref.page.locator("#console-refused")).to_be_hidden()
        ref.same_as_the_server()
        ref.stored_once_and_in_order()
    ref.page.screenshot(path=str(SCREENS / f"outage-{board}.png"), full_page=True)
    assert {"reload", "tab"} <= done and outages >= 3, (done, outages)
    assert "trade" in ref.cut_inside, ref.cut_inside
    assert {"roll", "buy", "rent"} <= set(tapped), set(tapped)
    ref.context.close()


@pytest.mark.postgres
def test_another_devices_move_during_an_outage_refuses_the_phones_and_lists_them(live_server, browser):
    game = a_table_game("tournament-pl", "classic-pl")
    ref = Referee(browser, live_server, game, seed=1)
    for _ in range(4):
        ref.step()
    ref.page.wait_for_function("() => document.getElementById('console').dataset.waiting === '0'")
    ref.cut()
    for _ in range(3):
        ref.step()
    game.refresh_from_db()
    first = recording.current_state(game).players[0].id
    # the director's phone, on the network meanwhile: a cash count (it moves nothing, but it is a move)
    recording.submit(game.pk, {"type": "cash_count", "player": first, "counted": 0}, version=game.version)
    ref.back()
    refused = ref.page.locator("#console-refused")
    expect(refused.locator(".refused-move")).to_have_count(3, timeout=30_000)
    expect(refused.locator(".refused-move").first).to_contain_text(
        "Another device changed the game meanwhile"
    )
    for later in refused.locator(".refused-move").all()[1:]:
        expect(later).to_contain_text("Not sent: it followed a refused move.")
    ref.same_as_the_server()  # the phone goes on from the server's game
    ref.page.screenshot(path=str(SCREENS / "outage-refused.png"), full_page=True)
    refused.get_by_role("button", name="Understood").click()
    expect(refused).to_be_hidden()
    ref.context.close()


def test_an_answer_asked_for_before_the_phones_latest_moves_never_draws_the_game_back(game_and_referee):
    """The phone asks the server for its game (another device's moves: the stream, the poll, the page shown
    again), and the answer is slow: meanwhile the referee enters two moves, each taken by the server. The
    answer comes at last, with the game after the first of them: the phone keeps the newer game it has (drawn
    back, the referee would tap on the old screen and his move would be refused)."""
    game, ref = game_and_referee
    ref.ready()
    page = ref.page
    held = []

    def hold_the_first(route):
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/state/?*", hold_the_first)
    with page.expect_request("**/state/?*"):
        page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")  # the page shown again
    ref.roll(1, 3)
    assert len(held) == 1
    answer = held[0].fetch()  # the server answers now, after the first move: the game at its version
    game.refresh_from_db()
    assert answer.json()["version"] == game.version == 1
    ref.roll(2, 3)
    shown = page.locator("#console").inner_text()
    fetched = int(page.locator("#console").get_attribute("data-fetched") or 0)
    held[0].fulfill(response=answer)  # …and it comes now
    page.wait_for_function(
        "n => Number(document.getElementById('console').dataset.fetched || 0) > n", arg=fetched
    )
    assert page.locator("#console").inner_text() == shown
    page.unroute("**/state/?*")
