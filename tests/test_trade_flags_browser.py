"""The flagged trades in a real browser: the director opens the table page on a 360 px phone, finds the large
gift with its figures and the link to the replay at its move, writes a note and marks it seen; the round page
on the desktop lists it seen, and its link opens the replay just after the trade. Screenshots:
/tmp/trade-flags-*.png (look at them)."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from tests.browser import BROWSER_TESTS, PHONE, director_at  # noqa: E402
from tests.trade_flag_sims import flagged_table  # noqa: E402
from tournament.models import TradeFlagReview  # noqa: E402
from tournament.reports.trade_flags import flags_of_round  # noqa: E402

pytestmark = BROWSER_TESTS


def test_the_director_reads_a_flag_and_marks_it_seen(live_server, browser):
    director = User.objects.create_user("boss", password="pw", is_staff=True)
    table = flagged_table(director)
    t = table.round.tournament
    (flag,) = [f for f in flags_of_round(table.round) if f.flag.kind == "large"]
    path = f"/tournaments/{t.pk}/rounds/1/tables/{table.number}/"
    desk = director_at(browser, live_server, path)
    page = desk.page
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}{path}#trade-flags")
    card = page.locator(f'[id="flag-{flag.key}"]')
    expect(card).to_contain_text("large value moved")
    expect(card).to_contain_text(f"{flag.flag.value} moved")
    expect(card).to_contain_text("not seen yet")
    expect(card.get_by_role("link", name=f"move {flag.flag.seq} in the replay")).to_have_attribute(
        "href", flag.url
    )
    card.scroll_into_view_if_needed()
    page.screenshot(path="/tmp/trade-flags-phone.png", full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scrolling
    card.get_by_label("Note").fill("Asked both players: a slip")
    card.get_by_role("button", name="Mark seen").click()
    card = page.locator(f'[id="flag-{flag.key}"]')
    expect(card).to_contain_text("seen by")
    expect(card).to_contain_text("Asked both players: a slip")
    assert TradeFlagReview.objects.get(tournament=t, key=flag.key).note == "Asked both players: a slip"
    # a note of one long word (a link pasted, say) wraps: the phone's page does not scroll sideways
    card.get_by_label("Note").fill("x" * 200)
    card.get_by_role("button", name="Save the note").click()
    expect(page.locator(f'[id="flag-{flag.key}"]')).to_contain_text("x" * 200)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    card = page.locator(f'[id="flag-{flag.key}"]')
    card.get_by_label("Note").fill("Asked both players: a slip")
    card.get_by_role("button", name="Save the note").click()
    expect(card.locator("p.checked-in")).to_contain_text("“Asked both players: a slip”")
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/tournaments/{t.pk}/rounds/1/#trade-flags")
    expect(page.locator(f'[id="flag-{flag.key}"]')).to_contain_text("Asked both players: a slip")
    page.locator("#trade-flags").screenshot(path="/tmp/trade-flags-round.png")
    # its link opens the replay just after the trade: the director sees the table as it was then
    page.locator(f'[id="flag-{flag.key}"]').get_by_role(
        "link", name=f"move {flag.flag.seq} in the replay"
    ).click()
    expect(page.locator("#replay-where")).to_contain_text(f"After move #{flag.flag.seq} (")
    expect(page.locator("#replay-moves li.current")).to_contain_text("gives")
    page.screenshot(path="/tmp/trade-flags-replay.png")
