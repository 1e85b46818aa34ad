"""The tournament director's fallbacks in a real browser, as he meets them on the day: a no-show (the table
starts with three), a player moved, the referees of a round in one form, a table's result entered from paper,
a game stopped. Screenshots go to out/screens/ (look at them)."""

import os

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import Group, User  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from tests.browser import BROWSER_TESTS, DESKTOP, PHONE, Referee  # noqa: E402
from tests.tournaments import start_game  # noqa: E402
from tournament.event import results, rounds  # noqa: E402
from tournament.games import recording  # noqa: E402
from tournament.models import AuditEntry, Participant, Tournament  # noqa: E402
from tournament.people.access import DIRECTORS_GROUP, REFEREES_GROUP  # noqa: E402

pytestmark = BROWSER_TESTS


def test_a_director_handles_a_no_show_a_paper_table_and_a_game_to_stop(live_server, browser):
    boss = User.objects.create_user("boss", password="pw")
    boss.groups.add(Group.objects.create(name=DIRECTORS_GROUP))
    referees = Group.objects.get_or_create(name=REFEREES_GROUP)[0]
    for name in ("ania", "bartek"):
        User.objects.create_user(name, password="pw").groups.add(referees)
    t = Tournament.objects.create(name="Puchar Łodzi", rounds=2, table_size=4, seed=3, created_by=boss)
    for i, name in enumerate(
        ["Łucja", "Zenon", "Adam", "Ewa", "Ola", "Piotr", "Kasia", "Marek", "Igor", "Jan"]
    ):
        Participant.objects.create(tournament=t, name=name, club="SP 1" if i < 2 else "")
    round_ = rounds.seat_next_round(t)  # 10 players: tables of 4, 3, 3
    rounds.start_round(round_)

    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    director = Referee(page, live_server.url)
    director.login("boss", "pw", f"/tournaments/{t.pk}/rounds/1/")

    # The referees of every table in one form, with check boxes (only accounts with the referee role).
    ania = User.objects.get(username="ania").pk
    page.locator(f"input[name=table_1][value='{ania}']").check()
    bartek = User.objects.get(username="bartek").pk
    page.locator(f"input[name=table_2][value='{bartek}']").check()
    page.get_by_role("button", name="Save the referees").click()
    expect(page.locator("body")).to_contain_text("Referees saved.")
    assert [u.username for u in round_.tables.get(number=1).referees.all()] == ["ania"]
    director.shot("director-01-round")

    # A no-show at table 1: the table starts without him, and the log says who, when and why.
    table1 = round_.tables.get(number=1)
    absent = table1.seats.order_by("order").first().participant
    page.goto(f"{live_server.url}/tournaments/{t.pk}/rounds/1/tables/1/")
    page.get_by_text("A player does not come").click()
    page.locator("select[name=participant]").select_option(str(absent.pk))
    page.fill("input[name=reason][placeholder*='did not come']", "did not come by 10:15")
    page.get_by_role("button", name="Absent").click()
    expect(page.locator("body")).to_contain_text("does not play at this table")
    expect(page.locator("body")).to_contain_text("did not come by 10:15")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/games/*/")
    game = round_.tables.get(number=1).game
    assert game.players.count() == 3

    # Table 2 played on paper: its result typed from the sheet.
    page.goto(f"{live_server.url}/tournaments/{t.pk}/rounds/1/tables/2/")
    page.get_by_role("link", name="Enter the result by hand").click()
    people = [s.participant for s in round_.tables.get(number=2).seats.all()]
    for i, p in enumerate(people):
        page.fill(f"input[name=place_{p.pk}]", "1" if i == 0 else "3")  # wrong: 1, 3, 3 (no 2nd)
        page.fill(f"input[name=score_{p.pk}]", str(1500 - 100 * i))
    page.fill("input[name=reason]", "the tablet's battery died")
    page.get_by_role("button", name="Check the result").click()
    expect(page.locator("body")).to_contain_text("Places must be 1, 2, 3")
    assert page.locator(f"input[name=score_{people[1].pk}]").input_value() == "1400"  # what was typed stays
    for i, p in enumerate(people):
        page.fill(f"input[name=place_{p.pk}]", str(i + 1))
    page.get_by_role("button", name="Check the result").click()
    director.shot("director-02-hand-result")
    page.get_by_role("button", name="Confirm this result").click()
    expect(page.locator("body")).to_contain_text("Result entered by hand")
    assert results.current_result(round_.tables.get(number=2)).by_hand

    # Table 1's game has no time limit: the director stops it; it is scored, then confirmed.
    for ev in [{"type": "roll", "player": game.players.first().pid, "dice": [3, 4]}]:
        recording.submit(game.pk, ev, version=None)
    page.goto(f"{live_server.url}/tournaments/{t.pk}/rounds/1/tables/1/")
    page.get_by_text("Stop the game now").click()
    page.fill("input[name=reason][placeholder*='schedule']", "the schedule")
    page.get_by_role("button", name="Stop the game").click()
    expect(page.locator("body")).to_contain_text("Result from the game")
    director.shot("director-03-stopped")
    assert sorted(AuditEntry.objects.values_list("action", flat=True)) == [
        "absent",
        "end_game",
        "hand_result",
    ]

    # On a phone the round page still reads: the log and the seating check fit.
    context.close()
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pl-PL", has_touch=True)
    page = context.new_page()
    phone = Referee(page, live_server.url)
    phone.login("boss", "pw", f"/tournaments/{t.pk}/rounds/1/")
    expect(page.locator("body")).to_contain_text("Dziennik dyrektora")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.shot("director-04-round-phone-pl")
    context.close()


def test_a_director_seats_a_round_and_adds_a_co_director_on_a_phone_in_polish(live_server, browser):
    """The tournament page as a director meets it on a 360 px phone in Polish: the round seated with one tap
    (a second tap on a page of before is told it is seated already), a co-director added from the list of
    directors' accounts (the reason required by the browser), then removed; another director sees none of
    it."""
    group = Group.objects.create(name=DIRECTORS_GROUP)
    boss, ola, other = (User.objects.create_user(n, password="pw") for n in ("boss", "ola", "other"))
    for user in (boss, ola, other):
        user.groups.add(group)
    t = Tournament.objects.create(name="Puchar Gdańska", rounds=2, table_size=4, seed=5, created_by=boss)
    for name in ["Łucja", "Zenon", "Adam", "Ewa", "Ola", "Piotr", "Kasia", "Marek"]:
        Participant.objects.create(tournament=t, name=name)

    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pl-PL", has_touch=True)
    page = context.new_page()
    director = Referee(page, live_server.url)
    director.login("boss", "pw", f"/tournaments/{t.pk}/")
    second = context.new_page()  # the same page open in a second tab, rendered before the round is seated
    second.goto(f"{live_server.url}/tournaments/{t.pk}/")
    page.get_by_role("button", name="Rozsadź następną rundę").click()
    page.wait_for_url(f"**/tournaments/{t.pk}/rounds/1/")
    second.get_by_role("button", name="Rozsadź następną rundę").click()
    second.wait_for_url(f"**/tournaments/{t.pk}/rounds/1/")
    expect(second.locator("body")).to_contain_text("Runda 1 jest już rozsadzona.")
    assert t.round_set.count() == 1
    second.close()

    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    page.get_by_text("Dodaj współdyrektora").click()
    page.locator("select[name=username]").select_option("ola")
    page.get_by_role("button", name="Dodaj", exact=True).click()  # no reason: the browser keeps the form
    assert list(t.directors.order_by("username").values_list("username", flat=True)) == ["boss"]
    page.locator("form[action$='/directors/add/'] input[name=reason]").fill("sędzia główny w sobotę")
    page.get_by_role("button", name="Dodaj", exact=True).click()
    expect(page.locator("body")).to_contain_text("ola też prowadzi teraz ten turniej.")
    assert list(t.directors.order_by("username").values_list("username", flat=True)) == ["boss", "ola"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    director.shot("director-05-co-director-phone-pl")
    remove = page.locator("details.inline", has=page.locator("input[name=username][value=ola]"))
    remove.locator("summary").click()
    remove.locator("input[name=reason]").fill("tylko sobota")
    remove.get_by_role("button", name="Usuń").click()
    expect(page.locator("body")).to_contain_text("ola nie prowadzi już tego turnieju.")
    assert list(t.directors.values_list("username", flat=True)) == ["boss"]
    context.close()

    context = browser.new_context(viewport=PHONE, locale="pl-PL")
    page = context.new_page()
    Referee(page, live_server.url).login("other", "pw", "/tournaments/")
    response = page.goto(f"{live_server.url}/tournaments/{t.pk}/rounds/1/")
    assert response.status == 403
    context.close()


@pytest.mark.parametrize(
    ("locale", "over", "final_steps", "finishing"),
    [
        (
            "pl-PL",
            "Koniec gry: gra przerwana przez dyrektora",
            "Gra przerwana przez dyrektora: rozliczenia tylko z Bankiem",
            "Gra przerwana przez dyrektora: bieżąca kolejka jest dokańczana",
        ),
        (
            "en-US",
            "Game over: the director stopped the game",
            "The director stopped the game: dealings with the bank only",
            "The director stopped the game: finishing the round",
        ),
    ],
)
def test_the_referees_phone_says_the_director_stopped_the_game(
    live_server,
    browser,
    locale,
    over,
    final_steps,
    finishing,
):
    """The director stops a table's game while its referee has the console open on his phone: the phone says
    the director stopped it (not that a time limit was reached: the game had none), in the phone's language;
    an Anti-Monopoly two-hour game stopped goes on to its final steps (at once between two rounds, after the
    round in play in the middle of one), and the phone says who stopped it."""
    boss = User.objects.create_user("boss", password="pw")
    boss.groups.add(Group.objects.create(name=DIRECTORS_GROUP))
    ania = User.objects.create_user("ania", password="pw")
    ania.groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])
    games = {}
    tables = (
        ("tournament-pl", "classic-pl"),
        ("anti-monopoly", "anti-monopoly-us"),
        ("mid-round", "anti-monopoly-us"),
    )
    for key, board in tables:
        variant = "anti-monopoly" if key == "mid-round" else key
        t = Tournament.objects.create(  # (Anti-Monopoly's ending: the two-hour game, the default)
            name=f"Puchar {key}",
            rounds=1,
            table_size=4,
            seed=3,
            created_by=boss,
            variant=variant,
            board=board,
        )
        for name in ["Łucja", "Zenon", "Adam", "Ewa"]:
            Participant.objects.create(tournament=t, name=name)
        round_ = rounds.seat_next_round(t)
        rounds.start_round(round_)
        table = round_.tables.get()
        table.referees.add(ania)
        game = start_game(table, None)
        if key == "mid-round":  # the first player has thrown (4+6: visiting the prison, nothing pending)
            recording.submit(
                game.pk, {"type": "roll", "player": game.players.first().pid, "dice": [4, 6]}, version=None
            )
        games[key] = (t, game)

    referee_context = browser.new_context(viewport=PHONE, locale=locale, has_touch=True)
    director_context = browser.new_context(viewport=DESKTOP, locale=locale)
    desk = director_context.new_page()
    Referee(desk, live_server.url).login("boss", "pw", f"/tournaments/{games['tournament-pl'][0].pk}/")
    phone = Referee(referee_context.new_page(), live_server.url)
    phone.login("ania", "pw", f"/games/{games['tournament-pl'][1].pk}/")
    for variant, said in (("tournament-pl", over), ("anti-monopoly", final_steps), ("mid-round", finishing)):
        t, game = games[variant]
        if variant != "tournament-pl":
            phone.page.goto(f"{live_server.url}/games/{game.pk}/")
            phone.ready()
        desk.goto(f"{live_server.url}/tournaments/{t.pk}/rounds/1/tables/1/")
        desk.locator("details:has(form[action$='/stop/']) > summary").click()
        desk.locator("form[action$='/stop/'] input[name=reason]").fill("harmonogram")
        desk.locator("form[action$='/stop/'] button").click()
        desk.wait_for_load_state()
        # the phone learns of it as of any other device's move (the table's stream, or its poll)
        expect(phone.page.locator("#console")).to_contain_text(said, timeout=60_000)
        for time_words in (
            ("Czas minął", "limit czasu") if locale == "pl-PL" else ("Time is up", "time limit")
        ):
            expect(phone.page.locator("#console")).not_to_contain_text(time_words)  # no clock ran out
        phone.shot(f"console-stopped-{variant}-{locale[:2]}")
    referee_context.close()
    director_context.close()


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        (
            "en-US",
            {
                "notice": "The sheets print your login, “boss”, for the results you confirm.",
                "give": "Give your name",
                "field": "Your name on the score sheets",
                "save": "Save",
                "saved": "The score sheets print Anna Dyrektorska from now on.",
                "missing": "Give your name, as the score sheets print it.",
            },
        ),
        (
            "pl-PL",
            {
                "notice": "Protokoły drukują Twój login „boss” przy zatwierdzanych przez Ciebie wynikach.",
                "give": "Podaj imię i nazwisko",
                "field": "Twoje imię i nazwisko na protokołach",
                "save": "Zapisz",
                "saved": "Od teraz protokoły drukują: Anna Dyrektorska.",
                "missing": "Podaj imię i nazwisko tak, jak mają być wydrukowane na protokołach.",
            },
        ),
    ],
)
def test_a_director_made_by_createsuperuser_gives_his_name_for_the_sheets(live_server, browser, locale, said):
    """A director with only a login is told on his tournament's page that the sheets print it, and gives his
    name there on his phone: blank, the browser keeps the form (required); a name of spaces is refused by
    the server in his language; his name then on the page and the sheets."""
    boss = User.objects.create_superuser("boss", password="pw")
    t = Tournament.objects.create(name="Puchar", rounds=1, table_size=4, seed=5, created_by=boss)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale=locale, has_touch=True)
    page = context.new_page()
    director = Referee(page, live_server.url)
    director.login("boss", "pw", f"/tournaments/{t.pk}/")
    expect(page.locator("#own-name")).to_contain_text(said["notice"])
    page.locator("#own-name").get_by_role("link", name=said["give"]).click()
    field = page.get_by_label(said["field"])
    page.get_by_role("button", name=said["save"], exact=True).click()  # empty: the browser asks for it
    assert page.evaluate("() => document.querySelector('input[name=name]').validity.valueMissing")
    field.fill("   ")
    page.get_by_role("button", name=said["save"], exact=True).click()
    expect(page.locator("main")).to_contain_text(said["missing"])
    boss.refresh_from_db()
    assert boss.get_full_name() == ""
    page.get_by_label(said["field"]).fill("Anna Dyrektorska")
    page.get_by_role("button", name=said["save"], exact=True).click()
    expect(page.locator("body")).to_contain_text(said["saved"])
    boss.refresh_from_db()
    assert (boss.first_name, boss.last_name) == ("Anna", "Dyrektorska")
    director.shot(f"director-own-name-{locale}")
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    expect(page.locator("#own-name")).to_have_count(0)
    context.close()
