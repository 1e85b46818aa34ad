"""A spectator's live board in a real browser (Playwright driving Debian's chromium): the page open on a
1920×1080 projector and on a 360 px phone while the referee's moves are entered; each page follows the game
through the table's event stream — a token moves, an owner's colour appears on the square bought, the cash
changes — on the classic Polish board, on the American one, and in Anti-Monopoly with its roles. Screenshots:
/tmp/live-*.png (look at them)."""

import os
import re

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from playwright.sync_api import expect  # noqa: E402

from tests.browser import BROWSER_TESTS, FULL_HD, PHONE  # noqa: E402
from tests.live_games import live_table  # noqa: E402
from tests.tournaments import make_tournament  # noqa: E402
from tournament.event import rounds  # noqa: E402
from tournament.games import recording  # noqa: E402

pytestmark = BROWSER_TESTS
BOARD = "#live-board"
LOCAL_NUMBER = "n => n.toLocaleString(document.documentElement.lang)"  # as board.js writes a figure


@pytest.fixture
def quick_stream(settings):
    """Under the test's WSGI server a table's stream answers once and the browser asks again ``retry``
    (CONSOLE_POLL_SECONDS) later: a second, so that a change comes in time; the page's own poll not at all."""
    settings.CONSOLE_POLL_SECONDS = 1


def shown(page, game):
    """The page shows the game's version now (the stream told it, the JSON was read anew)."""
    expect(page.locator(BOARD)).to_have_attribute("data-version", str(game.version), timeout=15_000)


def fits(page, viewport) -> bool:
    width = page.evaluate("document.documentElement.scrollWidth")
    return width <= viewport["width"]


@pytest.mark.parametrize(
    "variant, board",
    [("tournament-pl", "classic-pl"), ("classic", "classic-us"), ("anti-monopoly", "anti-monopoly-us")],
)
def test_the_board_follows_the_game_on_a_projector_and_a_phone(open_page, quick_stream, variant, board):
    live = live_table(variant, board, moves=1)
    path = f"/tables/{live.table.pk}/board/"
    projector = open_page(path, FULL_HD, "en")
    phone = open_page(path, PHONE, "pl")
    pages = [projector, phone]
    for page in pages:
        shown(page, live.game)
        assert page.locator(f"{BOARD} .square").count() == 40
    first = recording.current_state(live.game).players[0]
    token = f".token[data-player='{first.id}']"
    at_start = first.position
    assert projector.locator(f".square[data-square='{at_start}'] {token}").count() == 1

    # moves entered until the first square is bought (the dice have moved a token by then)
    live.play_until(lambda s: bool(s.holdings))
    state = recording.current_state(live.game)
    [(square, holding)] = state.holdings.items()
    owner = state.by_id[holding.owner]
    for page in pages:
        shown(page, live.game)
        bought = page.locator(f".square[data-square='{square}']")
        expect(bought).to_have_attribute("data-owner", owner.id)
        expect(bought).to_have_class(re.compile(r"\bowned\b"))
        for p in state.players:
            expect(
                page.locator(f".square[data-square='{p.position}'] .token[data-player='{p.id}']")
            ).to_have_count(1)
            cash = page.locator(f".players li[data-player='{p.id}'] .cash b")
            expect(cash).to_have_text(
                page.evaluate("n => n.toLocaleString(document.documentElement.lang)", p.cash)
            )
    assert any(p.position != 0 for p in state.players)  # a token moved
    assert owner.cash < state.variant.starting_cash  # his cash changed: the page shows the new figure
    if variant == "anti-monopoly":
        roles = projector.locator(".players .role").all_inner_texts()
        assert {r.lower() for r in roles} == {"competitor", "monopolist"}
        assert len(phone.locator(".players .role").all_inner_texts()) == len(state.players)

    # a few more moves: the pages follow again
    live.play(5)
    for page in pages:
        shown(page, live.game)
    assert fits(phone, PHONE) and fits(projector, FULL_HD)
    assert projector.evaluate("document.documentElement.scrollHeight") <= FULL_HD["height"]
    projector.screenshot(path=f"/tmp/live-{board}-projector.png")
    phone.screenshot(path=f"/tmp/live-{board}-phone.png", full_page=True)


def test_before_its_game_starts_the_board_names_nobody_to_play(open_page):
    """A table seated, its game not started: its board drawn empty, its players listed, none "to play"."""
    t = make_tournament([f"Gracz {c}" for c in "ABCD"], "Klub", name="Puchar", table_size=4, live_boards=True)
    rounds.start_round(rounds.seat_next_round(t))
    table = t.round_set.get().tables.get()
    page = open_page(f"/tables/{table.pk}/board/", PHONE, "en")
    players = page.locator("#live-board li[data-player]")
    expect(players).to_have_count(4)
    expect(page.locator("#live-board .board .square")).to_have_count(40)  # the tournament's board, empty
    expect(page.locator("#live-board .now")).to_have_count(0)
    expect(page.locator("#live-board")).not_to_contain_text("to play")
