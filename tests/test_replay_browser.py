"""The replay for disputes in a real browser, as the day goes: a finished game at a table, a participant
disputes it from his private link on his phone naming move N; the director opens the table page, follows the
dispute's link and sees the console's screen at move N (the slider at N, each player's cash on the screen the
rules' state after N events), then +1 and −1 move it; at 1920×1080 (a projector) and 360 px (a phone).
Screenshots: /tmp/replay-*.png."""

import os

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import Group, User  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from rules import replay as rules_replay  # noqa: E402
from tests.browser import BROWSER_TESTS, FULL_HD, PHONE  # noqa: E402
from tests.tournaments import one_table_played  # noqa: E402
from tournament.games.log import record_of  # noqa: E402
from tournament.models import Signature  # noqa: E402
from tournament.people.access import DIRECTORS_GROUP, REFEREES_GROUP  # noqa: E402

pytestmark = BROWSER_TESTS

MOVE = 9  # the move the participant disputes (no move undone: the replay's position 9)


def cash_after(game, n: int) -> list[int]:
    record = record_of(game)
    record["events"] = record["events"][:n]
    return [p.cash for p in rules_replay(record, check_fit=False).state.players]


def cash_shown(page) -> list[int]:
    return [int(x) for x in page.locator("#replay-screen article.player .cash").all_inner_texts()]


def at(page, n: int) -> None:
    """The replay drawn at ``n``: the screen, the slider, the log's mark and the address."""
    expect(page.locator("#replay-screen")).to_have_attribute("data-at", str(n))
    expect(page.locator("#replay-at")).to_have_value(str(n))
    expect(page.locator("#replay-moves li.current")).to_have_attribute("data-at", str(n))
    page.wait_for_function(
        "(n) => location.search === '?at=' + n && !document.querySelector('[data-loading]')", arg=n
    )


@pytest.fixture
def disputed_table(live_server, browser):
    boss = User.objects.create_user("boss", password="pw")
    boss.groups.add(Group.objects.create(name=DIRECTORS_GROUP))
    ref = User.objects.create_user("ania", password="pw")
    ref.groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])
    table = one_table_played(boss, ref, name="Puchar")
    t = table.round.tournament

    # The participant disputes from his private link, on his phone, naming the move.
    who = table.seats.order_by("order").first().participant
    phone = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True).new_page()
    phone.goto(f"{live_server.url}/tournaments/{t.pk}/me/{who.link_key}/")
    phone.get_by_text("I dispute these figures").click()
    phone.locator("input[name=reason]").fill("the rent on move 9 was wrong")
    phone.locator("input[name=move]").fill(str(MOVE))
    phone.screenshot(path="/tmp/replay-1-dispute-phone.png", full_page=True)
    phone.get_by_role("button", name="I dispute").click()
    expect(phone.locator("body")).to_contain_text(
        f"You dispute these figures. Your reason: “the rent on move 9 was wrong” (move {MOVE})"
    )
    phone.context.close()
    assert Signature.objects.get().disputed_move == MOVE
    return t, table


@pytest.mark.parametrize("viewport,name", [(FULL_HD, "projector"), (PHONE, "phone")])
def test_the_director_opens_the_replay_at_the_disputed_move(
    live_server, browser, disputed_table, viewport, name
):
    t, table = disputed_table
    page = browser.new_context(viewport=viewport, locale="en-US").new_page()
    path = f"/tournaments/{t.pk}/rounds/1/tables/{table.number}/"
    page.goto(f"{live_server.url}/login/?next={path}")
    page.fill("input[name=username]", "boss")
    page.fill("input[name=password]", "pw")
    page.click("main button[type=submit]")
    page.wait_for_url(f"**{path}")
    page.get_by_role("link", name=f"replay at move {MOVE}").click()

    at(page, MOVE)
    assert cash_shown(page) == cash_after(table.game, MOVE)
    total = table.game.events.count()
    assert page.locator("#replay-where").inner_text() == f"After move #{MOVE} ({MOVE} of {total})"
    assert page.locator("#replay-screen button:enabled").count() == 0  # read-only: nothing to press
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]  # no sideways scroll
    page.screenshot(path=f"/tmp/replay-2-at-{MOVE}-{name}.png", full_page=name == "phone")

    scrolled = page.evaluate("scrollY")
    page.get_by_role("button", name="+1 · One move on").click()
    at(page, MOVE + 1)
    assert page.evaluate("scrollY") == scrolled  # the page stays: only the log scrolls to the move
    assert cash_shown(page) == cash_after(table.game, MOVE + 1)
    page.get_by_role("button", name="−1 · One move back").click()
    page.get_by_role("button", name="−1 · One move back").click()
    at(page, MOVE - 1)
    assert cash_shown(page) == cash_after(table.game, MOVE - 1)
    page.screenshot(path=f"/tmp/replay-3-at-{MOVE - 1}-{name}.png")

    # the address follows: the same link opens the same move
    page.reload()
    at(page, MOVE - 1)
    assert cash_shown(page) == cash_after(table.game, MOVE - 1)

    # the slider to the end (its keys), then a move of the log tapped
    page.locator("#replay-at").focus()
    page.keyboard.press("End")
    at(page, total)
    assert cash_shown(page) == cash_after(table.game, total)
    page.locator("#replay-moves li[data-at='3'] a").click()
    at(page, 3)
    assert cash_shown(page) == cash_after(table.game, 3)
    page.context.close()
