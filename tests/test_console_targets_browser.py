"""Touch targets on the referee's phone (issue 20: every control at least 44 px tall): the console at 360 px,
at the start of a game and after a purchase (the panel, undo, the players' cards with their mortgage buttons),
and the top bar's links. Measured as the browser lays them out."""

import os

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from tests.test_console_browser import browser, game_and_referee  # noqa: E402, F401 (fixtures)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(os.environ.get("SKIP_BROWSER_TESTS") == "1", reason="SKIP_BROWSER_TESTS=1"),
]
MIN_TARGET = 44  # px: the height a thumb hits without a second try

SMALL = """min => [...document.querySelectorAll(
    'button, a.button, .topbar a, .topbar select, summary, input[type=submit]')]
  .filter(e => e.offsetParent !== null && getComputedStyle(e).visibility !== 'hidden')
  .map(e => [e.tagName + '.' + e.className + ' ' + (e.innerText || e.value || '').trim().slice(0, 30),
             Math.round(e.getBoundingClientRect().height)])
  .filter(([, h]) => h < min)"""


def small_targets(page):
    return page.evaluate(SMALL, MIN_TARGET)


def test_every_control_of_the_console_is_a_thumbs_height(game_and_referee):  # noqa: F811
    _game, ref = game_and_referee
    page = ref.page
    ref.sees("Anna rolls")
    found = small_targets(page)
    assert found == [], found
    ref.roll(3, 3)
    ref.sees("Buy for 100")
    found = small_targets(page)
    assert found == [], found
    ref.button("Buy for 100")
    ref.sees("Anna rolls again (double)")
    found = small_targets(page)
    assert found == [], found
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")  # every section
    found = small_targets(page)
    assert found == [], found
    ref.shot("targets-after-a-purchase")
