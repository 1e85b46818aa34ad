"""Pages that update themselves through their event streams, in a real browser against uvicorn (the ASGI
server production serves the streams with), the polls set ten minutes apart so that only a stream can
bring a change in time: a participant's page shows his seat when the director seats the round, then his
table's figures to sign when the referee's game ends, its stream following him to his table; a referee's
console on a second phone shows the move made on the first."""

import os
from types import SimpleNamespace

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import User  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from tests.browser import (  # noqa: E402
    BROWSER_TESTS,  # noqa: E402
    PHONE,
    SCREENS,
    Referee,
    director_at,  # noqa: E402
    polish_phone,
)
from tests.tournaments import make_tournament, play_table, start_game  # noqa: E402
from tournament.event import results, rounds, signatures  # noqa: E402
from tournament.people.participant_links import link_path  # noqa: E402
from tournament.public import views as public_views  # noqa: E402

pytestmark = BROWSER_TESTS
TEN_MINUTES = 600


@pytest.fixture
def streams_only(settings):
    """No poll comes in time; SQLite's streams read every 0.2 s (PostgreSQL's are told at each commit)."""
    settings.PARTICIPANT_POLL_SECONDS = settings.CONSOLE_POLL_SECONDS = TEN_MINUTES
    settings.PARTICIPANT_SPREAD_SECONDS = 1
    if not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        settings.STREAM_CHECK_SECONDS = 0.2


def test_his_page_follows_the_seating_and_his_tables_game_through_its_stream(
    asgi_server,
    browser,
    streams_only,
):
    _, port = asgi_server
    base = f"http://127.0.0.1:{port}"
    referee = User.objects.create_user("sedzia", password="pw")
    t = make_tournament(4, name="Puchar Łodzi", rounds=2, table_size=4)
    p = t.participants.get(name="P00")
    phone = Referee(browser.new_context(viewport=PHONE, locale="en-US").new_page(), base)
    page = phone.page
    streams = []
    page.on("request", lambda r: streams.append(r.url) if "/events/" in r.url else None)
    page.goto(f"{base}{link_path(p)}")
    expect(page.locator(".me-now")).to_contain_text("No round has been seated yet.")
    round_1 = rounds.seat_next_round(t)  # the director seats the round: his page shows his table by itself
    rounds.start_round(round_1)
    table = round_1.tables.get()
    expect(page.locator(".seat-now")).to_have_text("Round 1: table 1", timeout=10_000)
    expect(page.locator("#me")).to_have_attribute(
        "data-live", f"/tournaments/{t.pk}/events/?table={table.pk}"
    )
    play_table(table, referee)  # the referee plays the game to its end: its figures, to sign
    expect(page.locator(".me-sign h2")).to_have_text("Your table's result: round 1, table 1", timeout=10_000)
    phone.shot("participant-page-streamed")
    page.context.close()
    assert [u.removeprefix(base) for u in streams][:2] == [
        f"/tournaments/{t.pk}/events/",
        f"/tournaments/{t.pk}/events/?table={table.pk}",  # seated: his table's moves and signatures too
    ]


def test_a_change_told_while_his_page_is_being_read_is_read_after_it(
    asgi_server,
    browser,
    streams_only,
):
    """The referee starts the game; while his page reads that (its answer held back here), the game is played
    to its end and the stream tells it: the page asks again once its answer is in place (htmx's own queue lost
    that change, queued on the element the answer replaced)."""
    _, port = asgi_server
    base = f"http://127.0.0.1:{port}"
    referee = User.objects.create_user("sedzia", password="pw")
    t = make_tournament(4, name="Puchar Łodzi", rounds=2, table_size=4, game_rounds=2)
    p = t.participants.get(name="P00")
    round_1 = rounds.seat_next_round(t)
    rounds.start_round(round_1)
    table = round_1.tables.get()
    page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
    page.add_init_script(TOLD)
    held = []

    def hold(route):
        answer = route.fetch()
        if answer.status == 200 and not held:  # the game started: the answer swaps the page's content
            held.append(answer)
            ended = play_table(table, referee, game=game)
            # the stream tells the game's end while this answer is still held back
            told = "v => window.told.some(d => d.version === v)"
            page.wait_for_function(told, arg=ended.version, timeout=60_000)
        route.fulfill(response=answer)

    page.route("**/me/**?since=*", hold)  # (before the game starts: its first read is the one held)
    with page.expect_response(lambda r: "/events/" in r.url):  # the stream open before the game starts
        page.goto(f"{base}{link_path(p)}")
    stream = f"/tournaments/{t.pk}/events/?table={table.pk}"
    expect(page.locator("#me")).to_have_attribute("data-live", stream)
    game = start_game(table, referee)
    expect(page.locator(".me-sign h2")).to_have_text("Your table's result: round 1, table 1", timeout=30_000)
    assert held
    page.context.close()


# what each event stream of the page told, in order (window.told: the events' data)
TOLD = """
window.told = [];
const Told = window.EventSource;
window.EventSource = function (address, options) {
  const stream = new Told(address, options);
  stream.addEventListener("change", (event) => window.told.push(JSON.parse(event.data)));
  return stream;
};
window.EventSource.CLOSED = Told.CLOSED;
"""


@pytest.mark.postgres
def test_a_move_on_one_phone_shows_on_the_second_through_the_tables_stream(
    asgi_server,
    browser,
    streams_only,
):
    _, port = asgi_server
    server = SimpleNamespace(url=f"http://127.0.0.1:{port}")
    referee = User.objects.create_user("streams", password="pw")
    t = make_tournament(4, rounds=2, table_size=4)
    round_1 = rounds.seat_next_round(t)
    rounds.start_round(round_1)
    table = round_1.tables.get()
    table.referees.add(referee)
    order = [s.participant_id for s in table.seats.all()]
    game = rounds.start_table_game(table, order, user=referee)
    path = f"/games/{game.pk}/"
    mine, context = polish_phone(browser, server, "streams", path)
    theirs, other = polish_phone(browser, server, "streams", path)  # a second phone: the director watching
    panel = theirs.page.locator("#console")
    expect(panel).to_have_attribute("data-version", str(game.version))
    mine.roll(2, 5)
    game.refresh_from_db()
    expect(panel).to_have_attribute("data-version", str(game.version), timeout=10_000)  # no reload, no poll
    theirs.shot("console-second-phone-streamed")
    context.close()
    other.close()


def round_in_play(asgi_server):
    """The streams' server's address, the referee ("sedzia") and the one table of round 1 of a tournament of
    four, started; the director ("boss", password "pw") may log in: (server, referee, tournament, table)."""
    _, port = asgi_server
    User.objects.create_superuser("boss", password="pw")
    referee = User.objects.create_user("sedzia", password="pw")
    t = make_tournament(4, name="Puchar Łodzi", rounds=2, table_size=4)
    round_1 = rounds.seat_next_round(t)
    rounds.start_round(round_1)
    return SimpleNamespace(url=f"http://127.0.0.1:{port}"), referee, t, round_1.tables.get()


def test_the_round_page_the_standings_and_the_projector_follow_their_tournaments_stream(
    asgi_server,
    browser,
    streams_only,
    monkeypatch,
):
    """The referee ends his game: the director's round page says the result waits to be confirmed; he confirms
    it: the standings on a phone and the projector (one page: read anew every 20 s otherwise) show it."""
    monkeypatch.setattr(public_views, "REFRESH_SECONDS", TEN_MINUTES)  # the projector's own reload: too late
    server, referee, t, table = round_in_play(asgi_server)
    desk = director_at(browser, server, f"/tournaments/{t.pk}/rounds/1/")
    waiting = desk.page.locator("#waiting-live")
    expect(waiting).not_to_contain_text("result to confirm")
    phone = Referee(browser.new_context(viewport=PHONE, locale="en-US").new_page(), server.url)
    phone.page.goto(f"{server.url}/tournaments/{t.pk}/standings/")
    standings = phone.page.locator("#standings-live")
    before = standings.inner_text()
    play_table(table, referee)
    expect(waiting).to_contain_text("1 result to confirm", timeout=10_000)
    screen = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US").new_page()
    screen.goto(f"{server.url}/tournaments/{t.pk}/projector/")
    projected = screen.locator("main")
    shown_before = projected.inner_text()
    kept = f"stream:/tournaments/{t.pk}/events/?follow=standings"
    screen.wait_for_function("key => window.sessionStorage.getItem(key) !== null", arg=kept)  # its position
    results.confirm(table, referee)
    expect(standings).not_to_have_text(before, timeout=10_000, use_inner_text=True)
    expect(projected).not_to_have_text(shown_before, timeout=10_000, use_inner_text=True)
    phone.shot("standings-streamed")
    screen.screenshot(path=str(SCREENS / "projector-streamed.png"))
    for open_page in (desk.page, phone.page, screen):
        open_page.context.close()


def test_a_page_whose_stream_is_refused_polls_and_takes_the_stream_again_later(live_server, browser):
    """The streams' server restarting behind the proxy (a 502): the browser gives the stream up; the page
    polls meanwhile and opens its stream again some seconds later, not only at the next reload."""
    t = make_tournament(4, name="Puchar Łodzi", rounds=2, table_size=4)
    p = t.participants.get(name="P00")
    page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
    answered = []
    page.on("response", lambda r: answered.append((r.status, r.url)) if "/events/" in r.url else None)
    page.route("**/events/**", lambda route: route.fulfill(status=502, body="Bad Gateway"))
    page.goto(f"{live_server.url}{link_path(p)}")
    page.wait_for_function("() => true")
    page.wait_for_timeout(1_000)
    assert [s for s, _ in answered] == [502]  # refused once: given up, not retried every 2 s
    page.unroute("**/events/**")
    page.wait_for_event("response", lambda r: "/events/" in r.url and r.status == 200, timeout=40_000)
    page.context.close()


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            {
                "confirm": "1 result to confirm: table 1",
                "disputed": "1 result disputed, the director rules: table 1",
                "pill": "game over: result disputed",
            },
        ),
        (
            "pl",
            {
                "confirm": "1 wynik do zatwierdzenia: stolik 1",
                "disputed": "1 wynik zakwestionowany, rozstrzyga dyrektor: stolik 1",
                "pill": "koniec gry: wynik zakwestionowany",
            },
        ),
    ],
)
def test_the_round_page_says_by_itself_that_a_player_disputes_his_tables_figures(
    asgi_server,
    browser,
    streams_only,
    language,
    said,
):
    """The director's round page, open as a game ends: a player's dispute from their link (a signature, not
    a move) turns "to confirm" into "disputed" without a reload, in the director's language."""
    server, referee, t, table = round_in_play(asgi_server)
    game = play_table(table, referee)
    desk = director_at(browser, server, f"/tournaments/{t.pk}/rounds/1/")
    if language == "pl":
        desk.page.context.add_cookies([{"name": "django_language", "value": "pl", "url": server.url}])
        desk.page.reload()
    waiting = desk.page.locator("#waiting-live")
    expect(waiting).to_contain_text(said["confirm"])
    player = t.participants.get(pk=next(iter(signatures.players_of(game))))
    signatures.sign(player, table, agrees=False, reason="a rent was not paid", version=game.version)
    expect(waiting).to_contain_text(said["disputed"], timeout=10_000)
    expect(waiting).not_to_contain_text(said["confirm"])
    card = desk.page.locator("#table-1")  # the table's card follows: its state, no Confirm to be refused
    expect(card.locator("#table-1-pill")).to_contain_text(said["pill"])
    expect(card.locator("button[form=confirm-1]")).to_have_count(0)
    expect(desk.page.locator("form#confirm-1")).to_have_count(0)
    desk.page.context.close()
