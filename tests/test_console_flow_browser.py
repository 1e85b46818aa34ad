"""The console's flow (issue 20) on a referee's phone: 360 px, in Polish, as he meets it in Playwright's
chromium. Undo right after a move in two taps; another device's move undone with a typed reason; after a build
the move just made and the next action in view; the order of play in one tap per player (and without
scripts); a stale screen naming the other device's moves; the roll card's warning of a rent it would end; the
game over panel leading to the confirmation and the sheet. Taps are counted and printed; screenshots go to
out/screens/flow-*.png (look at them)."""

from django.contrib.auth.models import Group, User
from django.utils import translation
from playwright.sync_api import expect

from tests import test_console_browser as phone
from tests.axe import assert_accessible
from tests.test_console_browser import PHONE, SCREENS, Referee, state
from tournament.console.panel import narration
from tournament.event import interventions, rounds
from tournament.games import recording
from tournament.models import GameEvent, Participant, Tournament
from tournament.people.access import REFEREES_GROUP

pytestmark = phone.pytestmark
browser = phone.browser  # the module's chromium


def enter(game, **event):
    """Another device enters a move."""
    game.refresh_from_db()
    return recording.submit(game.pk, event, version=game.version)


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


def in_view(locator) -> bool:
    return locator.evaluate(
        "e => { const r = e.getBoundingClientRect(); return r.top > -1 && r.top < innerHeight - 40; }"
    )


def screen(ref, name):
    """What the phone shows, where the referee is scrolled."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    ref.page.screenshot(path=str(SCREENS / f"flow-{name}.png"))


def short_game(username, names=("Anna", "Bartek", "Celina")):
    """A short game (deals two title deeds each): Anna holds Konopacka and Stalowa (a whole group), Bartek
    Radzymińska and Jagiellońska, Celina Płowiecka and Marsa."""
    user = User.objects.create_user(username, password="pw")
    game = recording.create_game(
        name="Stół 5",
        variant="short",
        board="classic-pl",
        referees=[user],
        players=[{"name": n} for n in names],
    )
    for pid, squares in (("A", [1, 3]), ("B", [6, 8]), ("C", [11, 13])):
        enter(game, type="deal", player=pid, squares=squares)
    return game


def test_the_move_just_made_is_undone_in_two_taps_beside_the_panel(live_server, browser):
    game = short_game("flow1")
    ref, context = polish_phone(browser, live_server, "flow1", f"/games/{game.pk}/")
    page = ref.page
    ref.roll(2, 5)  # Anna: 0 -> 7, a Szansa card: the wrong dice
    undo = page.locator(".undo-last summary")
    assert in_view(undo)  # right where the referee looks: no scrolling
    before = ref.taps
    ref.tap(undo)
    expect(page.locator("button[name=quick]")).to_have_count(3)
    screen(ref, "01-undo-open")
    assert_accessible(page, "the undo beside the panel")
    with ref.posted():
        ref.tap(page.locator("button[name=quick][value=dice]"))
    taps = ref.taps - before
    assert taps == 2
    row = GameEvent.objects.get(game=game, data__type="roll")
    assert row.status == GameEvent.Status.UNDONE and row.reason  # the words of "wrong dice", as he saw them
    expect(page.locator("form.roll")).to_be_visible()  # Anna rolls again, the pad in sight
    assert state(game).player("A").position == 0
    screen(ref, "02-undone")
    print(f"\ntaps to undo the move just made: {taps}")
    context.close()


def test_another_devices_move_is_undone_with_a_typed_reason(live_server, browser):
    game = short_game("flow2")
    mine, context = polish_phone(browser, live_server, "flow2", f"/games/{game.pk}/")
    mine.roll(2, 5)
    theirs, other = polish_phone(browser, live_server, "flow2", f"/games/{game.pk}/")  # a second phone
    page = theirs.page
    page.locator(".undo-last summary").click()
    expect(page.locator("button[name=quick]")).to_have_count(0)
    reason = page.locator("form.undo input[name=reason]")
    expect(reason).to_be_visible()
    screen(theirs, "03-undo-another-devices-move")
    reason.fill("kostka spadła ze stołu")
    with theirs.posted():
        page.locator("form.undo button").click()
    row = GameEvent.objects.get(game=game, data__type="roll")
    assert (row.status, row.reason) == (GameEvent.Status.UNDONE, "kostka spadła ze stołu")
    context.close()
    other.close()


def test_after_a_build_the_move_and_the_next_action_are_in_view(live_server, browser):
    game = short_game("flow3")
    ref, context = polish_phone(browser, live_server, "flow3", f"/games/{game.pk}/")
    page = ref.page
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the players' cards, below the dice
    before = ref.taps
    actions = page.locator(".player", has_text="Anna").locator("details.actions")
    if not actions.evaluate("d => d.open"):  # open by itself in her turn when she can build
        ref.tap(actions.locator("summary"))
    with ref.posted():
        ref.tap(page.locator("button[name=do][value='build:1']"))
    assert state(game).holdings[1].level == 1
    expect(page.locator("form.roll")).to_be_visible()
    assert in_view(page.locator("#just-now")) and in_view(page.locator("section.now .card").first)
    assert in_view(page.locator("form.roll h2"))
    screen(ref, "04-after-a-build")
    print(f"\ntaps to build a house from the players' cards: {ref.taps - before}")
    context.close()


def test_a_stale_screen_names_the_other_devices_moves(live_server, browser):
    game = short_game("flow4")
    ref, context = polish_phone(browser, live_server, "flow4", f"/games/{game.pk}/")
    page = ref.page
    page.route("**/panel/**", lambda route: route.abort())  # no poll: the screen stays as it was
    entered = enter(game, type="roll", player="A", dice=[1, 2]).game  # Anna: 3, another phone
    ref.roll(3, 4)
    error = page.locator("#console-error")
    expect(error).to_be_visible()
    row = entered.events.get(data__type="roll")
    with translation.override("pl"):
        told = f"#{row.seq} " + " ".join(narration(row))
    expect(error).to_contain_text(told)  # the roll as the log tells it, in Polish
    assert state(game).player("A").position == 3
    screen(ref, "05-stale")
    context.close()


def test_the_roll_card_warns_of_a_lapsing_rent_and_claims_it_in_one_tap(live_server, browser):
    game = short_game("flow5")
    enter(game, type="roll", player="A", dice=[2, 4])  # Anna: 6, Bartek's Radzymińska; her turn ends
    ref, context = polish_phone(browser, live_server, "flow5", f"/games/{game.pk}/")
    page = ref.page
    warning = page.locator(".roll-card .lapse")
    expect(warning).to_be_visible()
    warning.scroll_into_view_if_needed()
    screen(ref, "06-lapsing-rent")
    assert_accessible(page, "the roll card's warning of a lapsing rent")
    bartek = state(game).player("B").cash
    before = ref.taps
    with ref.posted():
        ref.tap(warning.locator("button[name=action][value=rent]"))
    assert ref.taps - before == 1
    assert state(game).player("B").cash > bartek and not state(game).rents
    expect(page.locator(".roll-card .lapse")).to_have_count(0)
    context.close()


def seated_table(referee_name, names=("Anna", "Bartek", "Celina", "Darek")):
    referee = User.objects.create_user(referee_name, password="pw")
    referee.groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])
    t = Tournament.objects.create(name="Puchar Łodzi", rounds=1, seed=5, table_size=4)
    for name in names:
        Participant.objects.create(tournament=t, name=name)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    table.referees.add(referee)
    return table, f"/tournaments/{t.pk}/rounds/1/tables/{table.number}/"


def test_the_order_of_play_in_one_tap_per_player(live_server, browser):
    table, url = seated_table("flow6")
    ref, context = polish_phone(browser, live_server, "flow6", url)
    page = ref.page
    seats = [s.participant for s in table.seats.order_by("order")]
    order = [seats[2], seats[0], seats[3], seats[1]]  # as the opening roll fell
    expect(page.locator("select[name^=place_]").first).to_be_hidden()  # the lists are the fallback
    start = page.locator("form button.primary")
    for i, p in enumerate(order):
        ref.tap(page.locator("button.tap-player", has_text=p.name))
        if i == 1:
            expect(start).to_be_disabled()  # half an order does not start
            screen(ref, "07-order-half-tapped")
            assert_accessible(page, "the order of play, half tapped")
    expect(page.locator("button.tap-player[aria-pressed=true]")).to_have_count(4)
    screen(ref, "08-order-tapped")
    ref.tap(start)
    page.wait_for_url("**/games/*/")
    table.refresh_from_db()
    assert [p.participant for p in table.game.players.order_by("seat")] == order
    assert ref.taps == 5
    print(f"\ntaps to start a game of four (the order of play and Start): {ref.taps}")
    context.close()


def test_a_second_tap_takes_a_player_back(live_server, browser):
    table, url = seated_table("flow7")
    ref, context = polish_phone(browser, live_server, "flow7", url)
    page = ref.page
    seats = [s.participant for s in table.seats.order_by("order")]
    tap = {p.pk: page.locator("button.tap-player", has_text=p.name) for p in seats}
    for p in (seats[1], seats[0]):
        tap[p.pk].click()
    tap[seats[1].pk].click()  # taken back: Anna moves up to the first place
    expect(tap[seats[0].pk].locator(".place")).to_have_text("1")
    for p in (seats[1], seats[3], seats[2]):
        tap[p.pk].click()
    page.locator("form button.primary").click()
    page.wait_for_url("**/games/*/")
    table.refresh_from_db()
    order = [seats[0], seats[1], seats[3], seats[2]]
    assert [p.participant for p in table.game.players.order_by("seat")] == order
    context.close()


def test_without_scripts_the_order_of_play_is_chosen_in_lists_and_kept_when_refused(live_server, browser):
    table, url = seated_table("flow8")
    ref, context = polish_phone(browser, live_server, "flow8", url, java_script_enabled=False)
    page = ref.page
    seats = [s.participant for s in table.seats.order_by("order")]
    expect(page.locator("button.tap-player").first).to_be_hidden()
    for p, n in zip(seats, ("2", "1", "1", "4"), strict=True):
        page.select_option(f"select[name=place_{p.pk}]", n)
    page.locator("form button.primary").click()
    expect(page.locator(".order-of-play .error")).to_be_visible()  # twice the 1st place: refused
    kept = [page.locator(f"select[name=place_{p.pk}]").input_value() for p in seats]
    assert kept == ["2", "1", "1", "4"]  # as chosen, not reset
    screen(ref, "09-order-without-scripts-refused")
    page.select_option(f"select[name=place_{seats[2].pk}]", "3")
    page.locator("form button.primary").click()
    page.wait_for_url("**/games/*/")
    table.refresh_from_db()
    assert [p.participant for p in table.game.players.order_by("seat")] == [
        seats[1],
        seats[0],
        seats[2],
        seats[3],
    ]
    context.close()


def test_game_over_leads_to_the_confirmation_and_the_sheet(live_server, browser):
    table, url = seated_table("flow9")
    referee = table.referees.get()
    game = rounds.start_table_game(table, [s.participant_id for s in table.seats.all()], user=referee)
    enter(game, type="roll", player=game.players.get(seat=0).pid, dice=[1, 3])
    boss = User.objects.create_superuser("boss9", password="pw")
    interventions.stop_game(table, boss, "harmonogram")
    ref, context = polish_phone(browser, live_server, "flow9", f"/games/{game.pk}/")
    page = ref.page
    steps = page.locator(".next-steps")
    expect(steps).to_be_visible()
    steps.scroll_into_view_if_needed()
    screen(ref, "10-game-over")
    assert_accessible(page, "the game over panel")
    sheet = steps.locator("a.button:not(.primary)")
    assert ref.page.request.get(live_server.url + sheet.get_attribute("href")).headers["content-type"] == (
        "application/pdf"
    )
    before = ref.taps
    ref.tap(steps.locator("a.button.primary"))  # to the table's result
    page.wait_for_url(f"**{url}#result")
    result = page.locator("#result")
    expect(result).to_be_visible()
    ref.tap(result.locator("button.primary"))  # confirmed
    page.wait_for_url(f"**{url}")
    assert table.results.filter(status="confirmed").exists()
    taps = ref.taps - before
    assert taps == 2
    screen(ref, "11-confirmed")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".next-steps a.button.primary")).to_have_count(0)  # nothing more to confirm
    print(f"\ntaps from the game over panel to a confirmed result: {taps}")
    context.close()


def test_a_form_being_filled_in_is_offered_the_other_devices_moves_by_name(live_server, browser, quick_poll):
    game = short_game("flow10")
    ref, context = polish_phone(browser, live_server, "flow10", f"/games/{game.pk}/")
    page = ref.page
    page.locator(".undo-last summary").click()
    page.locator("form.undo input[name=reason]").fill("pomył")  # half typed: the poll does not replace it
    row = enter(game, type="roll", player="A", dice=[1, 2]).game.events.get(data__type="roll")
    banner = page.locator("#console-changed")
    expect(banner).to_be_visible(timeout=15000)  # the next poll, a second away (15 s: a loaded machine)
    with translation.override("pl"):
        told = f"#{row.seq} " + " ".join(narration(row))
    expect(banner.locator("small")).to_contain_text(told)
    expect(page.locator("form.undo input[name=reason]")).to_have_value("pomył")
    screen(ref, "12-changed-meanwhile")
    context.close()
