"""The browser tests' Chromium and the phones in it (Playwright driving Debian's chromium): a pytest plugin
(tests/conftest.py), so that its fixtures ``browser`` (a module's browser, whose phones keep the rules' engine
between contexts), ``chromium_type`` (Playwright's Chromium, launched by the test) and ``game_and_referee``
reach every test without an import; its helpers are imported: the Referee driving a phone, the screen sizes,
the marks of a browser test module (BROWSER_TESTS), the Wi-Fi cut (wi_fi), the phones logged in on a console
(console_phone, polish_phone), the director on a desktop (director_at, add_referee).

Set SKIP_BROWSER_TESTS=1 to skip the browser tests on a machine without chromium; CI installs it
(tests/setup.sh)."""

import base64
import os
import shutil
import subprocess
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
DESKTOP = {"width": 1280, "height": 900}
FULL_HD = {"width": 1920, "height": 1080}
#: The browser's locale for each of the site's languages.
LOCALES = {"en": "en-US", "pl": "pl-PL"}
#: The longest the rules may take to start on the phone (Pyodide's files fetched and run): on a CI machine
#: running four browsers at once, a minute was seen to pass.
RULES_START_MS = 180_000

#: A browser test module's marks (its ``pytestmark``): the live server's database, and skipped by
#: SKIP_BROWSER_TESTS=1.
BROWSER_TESTS = [
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


#: Where a failed browser test leaves a screenshot of each page it had open.
FAILED_SCREENS = SCREENS.parent / "failed"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A browser test that failed says what each of its pages showed then (its address and text, in the
    report; its screenshot in out/failed/): a failure on a loaded CI machine can be read afterwards."""
    report = yield
    phones = item.funcargs.get("browser") if report.when == "call" and report.failed else None
    if isinstance(phones, Phones):
        report.sections.append(("pages at the failure", pages_shown(phones._browser, item.name)))
    return report


def pages_shown(browser, name: str) -> str:
    from playwright.sync_api import Error as PlaywrightError

    FAILED_SCREENS.mkdir(parents=True, exist_ok=True)
    said = []
    pages = [page for context in browser.contexts for page in context.pages]
    for i, page in enumerate(pages):
        try:
            text = page.locator("body").inner_text(timeout=2_000)
            page.screenshot(path=str(FAILED_SCREENS / f"{name[:80]}-{i}.png"), timeout=5_000)
        except PlaywrightError as e:
            text = f"(not read: {str(e).splitlines()[0]})"
        said.append(f"--- page {i}: {page.url}\n{text[:2_000]}")
    return "\n".join(said) or "(no page open)"


@pytest.fixture
def open_page(browser, live_server):
    """``open_page(path, viewport, language)``: a page of the live server in a browser of its own (its
    locale the language's), closed after the test; a script error on it fails the test."""
    contexts = []

    def open_(path, viewport, language):
        context = browser.new_context(viewport=viewport, locale=LOCALES[language])
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: (_ for _ in ()).throw(AssertionError(f"script error: {e}")))
        page.goto(f"{live_server.url}{path}")
        return page

    yield open_
    for context in contexts:
        context.close()


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
    """``game``'s state as stored now."""
    game.refresh_from_db()
    return recording.current_state(game)


@pytest.fixture
def chromium_type():
    """Playwright's Chromium, for a test that launches a browser of its own (phone_browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p.chromium


def phone_browser(playwright_type, home: Path, host: str, ca: Path | None):
    """Chromium with a certificate store of its own in ``home`` (trusting ``ca`` if given), finding ``host``
    at this computer."""
    store = home / ".pki" / "nssdb"
    store.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{store}", "-N", "--empty-password"], check=True)
    if ca:
        certutil = ["certutil", "-d", f"sql:{store}", "-A", "-t", "C,,", "-n", "venue", "-i", str(ca)]
        subprocess.run(certutil, check=True)
    return playwright_type.launch(
        executable_path=CHROMIUM,
        args=[*ARGS, f"--host-resolver-rules=MAP {host} 127.0.0.1"],
        env={**os.environ, "HOME": str(home)},
    )


def with_the_sites_policy(context):
    """The site's Content-Security-Policy on its static files too, as production's middleware sends it around
    WhiteNoise (the test's live server serves them without the middleware): the engine's worker runs under
    it."""
    from django.conf import settings

    def fulfill(route):
        answer = route.fetch()
        route.fulfill(
            response=answer,
            headers={**answer.headers, "content-security-policy": settings.CONTENT_SECURITY_POLICY},
        )

    context.route("**/static/**", fulfill)


def director_at(browser, live_server, path: str) -> Referee:
    """The director ("boss", password "pw") logged in on a desktop browser, at ``path``."""
    desk = Referee(browser.new_context(viewport=DESKTOP, locale="en-US").new_page(), live_server.url)
    desk.page.goto(f"{live_server.url}/login/?next={path}")
    desk.page.fill("input[name=username]", "boss")
    desk.page.fill("input[name=password]", "pw")
    desk.page.click("main button[type=submit]")
    desk.page.wait_for_url(f"**{path}")
    return desk


def add_referee(page, base, name, username, password=None):
    """The director's add form, filled in as he would: a password typed twice, or a one-time link."""
    page.goto(f"{base}/referees/new/")
    page.fill("input[name=name]", name)
    page.fill("input[name=username]", username)
    if password:
        page.check("input[name=how][value=password]")
        page.fill("input[name=password1]", password)
        page.fill("input[name=password2]", password)
    else:
        page.check("input[name=how][value=link]")
    page.locator("main form button[type=submit]").click()
