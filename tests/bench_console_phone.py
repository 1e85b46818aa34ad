"""Benchmark of the referee's console at the phone (prints figures; not a test).

    python tests/bench_console_phone.py [--moves 60] [--throttle 4]

The app served on 127.0.0.1 (Django's threaded server with the static files, a fresh SQLite database) and a
game at a tournament's table; headless Chromium (Debian's, as the browser tests) at 360 px with its CPU slowed
down ``--throttle`` times (Chrome's DevTools emulation, as a mid-range phone). Prints:

- the console's first paint (the page's request to its screen drawn) and the rules' start on the phone;
- tap to screen with the rules on the phone: from a tap (a key of the dice pad, buy, rent claimed, …, what
  the screen asks for) to the next screen drawn (its elements in place), and to its frame painted (laid out
  and rasterised: Chromium here without a GPU), median and 95th percentile over ``--moves`` taps;
- the same with the rules kept from starting (a phone without WebAssembly, or their first seconds): the
  server checks each move and its answer carries the screen.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only")
os.environ.setdefault("DJANGO_HTTPS", "0")
os.environ.setdefault("DJANGO_STATIC_MANIFEST", "0")
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost")
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM used beside Playwright's event loop
os.environ["DJANGO_SQLITE_PATH"] = os.path.join(tempfile.mkdtemp(), "bench.sqlite3")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.contrib.staticfiles.handlers import StaticFilesHandler  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test.testcases import LiveServerThread  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from tournament.games import recording  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

#: One tap of what the screen asks for now, in the page: its time from the tap to the next screen drawn.
TAP = """async () => {
  const root = document.getElementById("console");
  const now = root.consoleView.now;
  const c = (s) => root.querySelector(s);
  const nobody = ".sold-to button.nobody";
  let target = null;
  if (now.buy) {
    target = now.buy.can_pay ? c(".card.buy button[data-what=buy]") : c(nobody);
  } else if (now.auctions.length) {
    target = c(".card.auction " + nobody);
  } else if (now.rents.length) {
    target = c(".card.rent button[data-what=rent]") || c(".card.rent .pad button[value='34']");
  } else if (now.card) {
    target = c(".card.card-draw .cardlist button, .card.card-draw .one-tap button");
  } else if (now.tax) {
    target = c(".card.tax button");
  } else if (now.debts.length) {
    return null;
  } else if (now.roll) {
    const d = 1 + Math.floor(Math.random() * 6), e = 1 + Math.floor(Math.random() * 6);
    target = c(`.roll-card .pad button[value='${d}${e}']`);
  }
  if (!target) { return null; }
  const before = Number(root.dataset.done || 0);
  let drawnAt = null;
  const painted = new Promise((resolve) => {
    const seen = new MutationObserver(() => {
      // drawn (the page's elements in place); then the frame laid out and painted (the next animation
      // frame, and the task after it)
      if (Number(root.dataset.done || 0) > before) {
        seen.disconnect();
        drawnAt = performance.now();
        requestAnimationFrame(() => setTimeout(resolve, 0));
      }
    });
    seen.observe(root, { attributes: true, attributeFilter: ["data-done"] });
  });
  const t = performance.now();
  target.click();
  await painted;
  return [drawnAt - t, performance.now() - t];
}"""


def p95(values):
    return sorted(values)[max(0, int(len(values) * 0.95) - 1)]


def serve():
    server = LiveServerThread("127.0.0.1", StaticFilesHandler, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    return server


def a_game(user):
    return recording.create_game(
        variant="classic",
        board="classic-us",
        players=[{"name": n} for n in ("Anna", "Bartek", "Celina", "Darek")],
        referees=[user],
    )


def measure(browser, base, game, throttle, moves, rules: bool):
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US")
    if not rules:  # the rules kept from starting: the server checks each move
        context.route("**/pyodide-*/**", lambda route: route.abort())
    page = context.new_page()
    page.goto(f"{base}/login/?next=/games/{game.pk}/")
    page.fill("input[name=username]", "bench")
    page.fill("input[name=password]", "pw")
    with page.expect_navigation():
        page.click("form:has(input[name=password]) button[type=submit]")
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.reload()
    paint = page.evaluate(
        """() => new Promise((resolve) => {
          const seen = () => document.querySelector('#console h1');
          const done = () => resolve(performance.now());
          if (seen()) { done(); return; }
          new MutationObserver((m, o) => { if (seen()) { o.disconnect(); done(); } })
            .observe(document.getElementById('console'), { childList: true });
        })"""
    )
    started = None
    if rules:
        page.wait_for_selector("#console[data-rules=ready]", timeout=180_000)
        started = page.evaluate("() => window.consoleRulesStartedMs")
    times = []
    while len(times) < moves:
        spent = page.evaluate(TAP)
        if spent is None:
            break
        times.append(spent)
        page.wait_for_function(
            "() => document.getElementById('console').dataset.waiting === '0'", timeout=60_000
        )
    context.close()
    return paint, started, times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--throttle", type=float, default=4)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    user = User.objects.create_user("bench", password="pw")
    server = serve()
    base = f"http://127.0.0.1:{server.port}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        print(f"load average {os.getloadavg()[0]:.2f}; CPU slowed down {args.throttle:g}×; 360 px")
        for rules in (True, False):
            paint, started, times = measure(browser, base, a_game(user), args.throttle, args.moves, rules)
            how = (
                "the rules on the phone" if rules else "the server checking each move (no rules on the phone)"
            )
            print(f"{how}: first paint {paint:.0f} ms after the page's start", end="")
            print(f"; the rules started in {started:.0f} ms" if started is not None else "")
            for k, what in enumerate(("drawn", "painted")):
                if times:
                    each = [t[k] for t in times]
                    print(
                        f"  tap to screen {what} over {len(each)} taps: "
                        f"median {statistics.median(each):.0f} ms, 95th percentile {p95(each):.0f} ms"
                    )
        browser.close()
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
