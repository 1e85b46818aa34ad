"""The referee's console in a real browser (Playwright driving Debian's chromium) at phone size.

A referee plays several full turns: a purchase, a refused auction bid, an auction, a rent, a card, a jail
exit with the fine, an undo. Screenshots go to out/screens/ (look at them). Set SKIP_BROWSER_TESTS=1 to skip
on a machine without chromium; CI installs it (tests/setup.sh).
"""

import base64
import os
import shutil
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import User  # noqa: E402

from tests import environment  # noqa: E402
from tournament.games import recording  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCREENS = Path(__file__).resolve().parents[1] / "out" / "screens"
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}
#: The longest the rules may take to start on the phone (Pyodide's files fetched and run): on a CI machine
#: running four browsers at once, a minute was seen to pass.
RULES_START_MS = 180_000

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(os.environ.get("SKIP_BROWSER_TESTS") == "1", reason="SKIP_BROWSER_TESTS=1"),
]


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield Phones(b)
        b.close()


#: The engine a phone keeps after its first console (static/console/engine-worker.js: Python with the rules
#: imported, gzipped in IndexedDB), once a context of this process has kept it: its key, its URL on the live
#: server (a static folder of this process's own, tests/environment.py) and a blank page's beside it.
KEPT_ENGINE: list[str] = []

#: Put the kept engine in the phone's IndexedDB, as the worker would have left it.
KEEP_ENGINE = """async ([key, url]) => {
  const answer = await fetch(url);
  if (!answer.ok) { throw new Error(`${url}: ${answer.status}`); }
  const bytes = new Uint8Array(await answer.arrayBuffer());
  await new Promise((resolve, reject) => {
    const opening = indexedDB.open("console-engine", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("pyodide-snapshots");
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const db = opening.result;
      const tx = db.transaction("pyodide-snapshots", "readwrite");
      tx.objectStore("pyodide-snapshots").put(bytes, key);
      tx.oncomplete = () => { db.close(); resolve(); };
      tx.onerror = tx.onabort = () => { db.close(); reject(tx.error); };
    };
  });
}"""


class Phones:
    """The browser, whose new contexts are phones that have opened a console before (most phones on an event
    day, from the second game on): their console restores the engine kept then rather than start Python
    afresh (4 s of CPU a console in the suite). The kept engine is put in the context's storage by its first
    page, on a blank page of the live server, before the test has it (not by a route: a route would turn the
    browser's HTTP cache off).
    ``new_context(cold=True)``: a phone that never has; so is a context without JavaScript or offline. The
    first start, the keeping and the restoring are tested in tests/test_offline_engine_browser.py."""

    def __init__(self, browser):
        self._browser = browser

    def __getattr__(self, name):
        return getattr(self._browser, name)

    def new_context(self, cold: bool = False, **options):
        from playwright.sync_api import Error as PlaywrightError

        context = self._browser.new_context(**options)
        if cold or options.get("java_script_enabled") is False or options.get("offline"):
            return context
        if KEPT_ENGINE:
            new_page = context.new_page

            def kept_first(*args, **kwargs):  # the first page puts the engine in, then is the test's
                del context.new_page
                page = new_page(*args, **kwargs)
                kept = list(KEPT_ENGINE)
                try:
                    page.goto(kept[2])
                    page.evaluate(KEEP_ENGINE, kept[:2])
                except PlaywrightError:  # not put in: this phone starts afresh
                    if kept == KEPT_ENGINE and not answers(kept[2]):  # its server gone (a test's own one)
                        KEPT_ENGINE.clear()
                        self._keeping(context)
                return page

            context.new_page = kept_first
            return context
        return self._keeping(context)

    @staticmethod
    def _keeping(context):
        """``context``, which keeps the engine its console kept when it is closed, if none is kept yet."""
        close = context.close

        def close_and_keep(*args, **kwargs):
            if not KEPT_ENGINE:
                keep_engine(context.storage_state(indexed_db=True))
            return close(*args, **kwargs)

        context.close = close_and_keep
        return context


def answers(url: str) -> bool:
    """Whether a server answers at ``url`` (a kept engine's, which may be a server of one test only)."""
    try:
        with urllib.request.urlopen(url, timeout=10):
            return True
    except OSError:
        return False


def keep_engine(state: dict) -> None:
    """The engine a context's console kept (its storage state), if it did, served to the next contexts (from
    the static folder tests/environment.py gives this process)."""
    from django.conf import settings

    for origin in state["origins"]:
        for db in origin.get("indexedDB", []):
            for store in db["stores"] if db["name"] == "console-engine" else ():
                for record in store["records"]:
                    if "ta" in record.get("valueEncoded", {}):
                        folder = Path(os.environ[environment.KEPT_ENGINE])
                        engine = base64.b64decode(record["valueEncoded"]["ta"]["b"])
                        (folder / "engine.bin").write_bytes(engine)
                        (folder / "blank.html").write_text("<!doctype html><title>-</title>")
                        url = f"{origin['origin']}{settings.STATIC_URL}tests-kept-engine/"
                        KEPT_ENGINE.extend([record["key"], f"{url}engine.bin", f"{url}blank.html"])
                        return


class Referee:
    """A referee's phone: counts his taps and takes screenshots."""

    def __init__(self, page, base_url):
        self.page, self.base, self.taps = page, base_url, 0

    def tap(self, locator):
        locator.click()
        self.taps += 1

    def login(self, username, password, next_url):
        self.page.goto(f"{self.base}/login/?next={next_url}")
        self.page.fill("input[name=username]", username)
        self.page.fill("input[name=password]", password)
        self.page.click("button[type=submit]")
        self.page.wait_for_url(f"**{next_url}")
        if "/games/" in next_url:
            self.ready()

    def ready(self):
        """The console drawn, and the rules running on the phone (a tap is applied on it at once)."""
        self.page.wait_for_selector("#console[data-rules=ready] h1", timeout=RULES_START_MS)

    def tap_kept(self, locator):
        """A tap the phone deals with alone (offline: its move waits to be sent), done once the console has
        counted it."""
        before = int(self.page.locator("#console").get_attribute("data-done") or 0)
        self.tap(locator)
        done = "n => Number(document.getElementById('console').dataset.done) > n"
        self.page.wait_for_function(done, arg=before)

    def roll(self, d1, d2):
        self.throw(self.page.locator("#console .roll-card"), d1, d2)

    def throw(self, where, d1, d2):
        """One key of the dice pad in ``where``: it enters the throw."""
        with self.posted():
            self.tap(where.locator(f".pad button[value='{d1}{d2}']").first)

    def button(self, name):
        with self.posted():
            self.tap(self.page.get_by_role("button", name=name, exact=True).first)

    def confirmed(self, name):
        """A button that asks first (a bankruptcy, the game's time): tapped, then "Yes"."""
        self.tap(self.page.get_by_role("button", name=name, exact=True).first)
        self.button("Yes")

    @contextmanager
    def posted(self):
        """Wait until the tap has been dealt with and its move taken by the server: the console counts the
        taps it dealt with (``data-done``) and the moves waiting on the phone (``data-waiting``)."""
        page = self.page
        before = int(page.locator("#console").get_attribute("data-done") or 0)
        yield
        page.wait_for_function(
            "n => { const c = document.getElementById('console');"
            " return Number(c.dataset.done || 0) > n && c.dataset.waiting === '0'; }",
            arg=before,
            timeout=60_000,
        )

    def shot(self, name):
        SCREENS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)

    def sees(self, text):
        from playwright.sync_api import expect

        expect(self.page.locator("#console")).to_contain_text(text)


def wi_fi(page, up: bool) -> None:
    """The phone's network lost (``up`` False) or back: the browser's context offline (or online), and the
    page's ``offline`` (``online``) event sent, which the console listens for."""
    page.context.set_offline(not up)
    page.evaluate(f"() => window.dispatchEvent(new Event('{'online' if up else 'offline'}'))")


def console_phone(browser, base: str, game, locale="en-US"):
    """A referee's phone at 360 px (``ref`` / ``pw``) on ``game``'s console at ``base``, the rules running
    on it: the Referee and its browser context (closed by the caller)."""
    context = browser.new_context(viewport=PHONE, locale=locale, has_touch=True)
    ref = Referee(context.new_page(), base)
    ref.login("ref", "pw", f"/games/{game.pk}/")
    return ref, context


def polish_phone(browser, live_server, username, next_url, **options):
    """A referee's phone in Polish at 360 px, logged in on ``next_url``."""
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, locale="pl-PL", has_touch=True, **options
    )
    ref = Referee(context.new_page(), live_server.url)
    page = ref.page
    page.goto(f"{live_server.url}/login/?next={next_url}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw")
    with page.expect_navigation():
        page.click("form:has(input[name=password]) button[type=submit]")
    assert page.url == live_server.url + next_url, page.locator("main, body").first.inner_text()
    return ref, context


def table_three(user):
    """A standalone game of the tournament's rules on the Polish board, Anna, Bartek and Celina, refereed by
    ``user``."""
    return recording.create_game(
        name="Table 3",
        variant="tournament-pl",
        board="classic-pl",
        referees=[user],
        players=[{"name": "Anna"}, {"name": "Bartek"}, {"name": "Celina"}],
    )


@pytest.fixture
def game_and_referee(live_server, browser):
    user = User.objects.create_user("ref", password="pw")
    game = table_three(user)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="en-US", has_touch=True)
    page = context.new_page()
    referee = Referee(page, live_server.url)
    referee.login("ref", "pw", f"/games/{game.pk}/")
    yield game, referee
    context.close()


def state(game):
    game.refresh_from_db()
    return recording.current_state(game)


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
):  # noqa: F811
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
def test_each_keeping_a_share_warns_of_a_rent_it_lets_lapse(live_server, browser, locale, said):  # noqa: F811
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
