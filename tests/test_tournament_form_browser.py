"""A new tournament in a real browser, as a director meets it: typed a name, every other default untouched,
saved (in English at 1280 px and in Polish on a 360 px phone); the edit form keeps its date in Polish and
saves the private links ticked onto the result sheets (off until then); picking Anti-Monopoly offers only the
boards made for it (the tournament's form and a game started on its own), and without scripts the server
refuses a board that does not fit, naming those that do. Screenshots go to out/screens/ (look at them)."""

import os
from datetime import date

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import Group, User  # noqa: E402
from django.utils import translation  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from tests.browser import BROWSER_TESTS, DESKTOP, PHONE, Referee  # noqa: E402
from tests.tournaments import make_tournament  # noqa: E402
from tournament.boards.editions import board_misfit  # noqa: E402
from tournament.event import rounds  # noqa: E402
from tournament.models import Tournament  # noqa: E402
from tournament.people.access import DIRECTORS_GROUP  # noqa: E402

pytestmark = BROWSER_TESTS
CLASSIC_BOARDS = ["classic-pl", "classic-us"]


@pytest.fixture
def boss():
    user = User.objects.create_user("boss", password="pw")
    user.groups.add(Group.objects.create(name=DIRECTORS_GROUP))
    return user


def director_in(browser, live_server, viewport, language, *, scripts=True):
    context = browser.new_context(
        viewport=viewport, locale="pl-PL" if language == "pl" else "en-US", java_script_enabled=scripts
    )
    director = Referee(context.new_page(), live_server.url)
    page = director.page
    page.goto(f"{live_server.url}/login/?next=/tournaments/new/")
    page.fill("input[name=username]", "boss")
    page.fill("input[name=password]", "pw")
    page.click("main button[type=submit]")  # (without scripts the language menu has a button too)
    page.wait_for_url("**/tournaments/new/")
    if language == "pl":
        director.page.context.add_cookies(
            [{"name": "django_language", "value": "pl", "url": live_server.url}]
        )
        director.page.reload()
    return director


def boards_offered(page) -> list[str]:
    """The ids of the boards the select offers, in id order (the select orders them by their names)."""
    return sorted(page.locator("select[name=board] option").evaluate_all("os => os.map(o => o.value)"))


def no_horizontal_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize(
    ("viewport", "language", "save"),
    [(DESKTOP, "en", "Save"), (PHONE, "pl", "Zapisz")],
    ids=["english-desktop", "polish-phone"],
)
def test_a_new_tournament_saved_with_its_defaults(live_server, browser, boss, viewport, language, save):
    director = director_in(browser, live_server, viewport, language)
    page = director.page
    today = page.locator("input[name=date]").input_value()
    assert today == date.today().isoformat()  # the date input shows today's date, not an empty field
    assert boards_offered(page) == CLASSIC_BOARDS  # the default variant's boards
    page.fill("input[name=name]", "Puchar Łodzi")
    director.shot(f"tournament-form-new-{language}")
    no_horizontal_scroll(page)
    # each checkbox's words right beside it (they sat at the form's far side), and a tap on them ticks it
    gaps = page.evaluate(
        """() => [...document.querySelectorAll("form label.check")].map(l => {
             const box = l.querySelector("input").getBoundingClientRect();
             const words = l.querySelector("span").getBoundingClientRect();
             return words.left - box.right; })"""
    )
    assert len(gaps) >= 4 and all(0 <= gap <= 16 for gap in gaps), gaps
    second = page.locator("input[name=second_confirmation]")
    page.locator("label.check", has=second).locator("span").click()
    expect(second).to_be_checked()
    page.locator("label.check", has=second).locator("span").click()
    expect(second).not_to_be_checked()
    page.get_by_role("button", name=save, exact=True).click()
    page.wait_for_url("**/tournaments/*/")
    t = Tournament.objects.get()
    assert (t.name, t.date.isoformat(), t.variant, t.board) == (
        "Puchar Łodzi",
        today,
        "tournament-pl",
        "classic-pl",
    )
    assert t.tie_breaks == ["points", "total_score", "best_score"] and t.placement_points == [4, 2, 1, 0]
    assert not t.links_on_sheets  # the private links stay off the result sheets unless he ticks it

    # The edit form keeps the date (in Polish too) and saves it unchanged; he ticks the links on the sheets.
    page.goto(f"{live_server.url}/tournaments/{t.pk}/edit/")
    assert page.locator("input[name=date]").input_value() == today
    links_on_sheets = page.locator("input[name=links_on_sheets]")
    expect(links_on_sheets).not_to_be_checked()
    links_on_sheets.check()
    director.shot(f"tournament-form-edit-{language}")
    page.get_by_role("button", name=save, exact=True).click()
    page.wait_for_url(f"**/tournaments/{t.pk}/")
    t.refresh_from_db()
    assert t.date.isoformat() == today and t.links_on_sheets

    # Anti-Monopoly: only the boards made for it; back to a Monopoly variant, the Monopoly boards.
    page.goto(f"{live_server.url}/tournaments/new/")
    page.fill("input[name=name]", "Anty")
    page.select_option("select[name=variant]", "anti-monopoly")
    assert boards_offered(page) == ["anti-monopoly-us"]
    assert page.locator("select[name=board]").input_value() == "anti-monopoly-us"
    director.shot(f"tournament-form-anti-monopoly-{language}")
    page.select_option("select[name=variant]", "classic")
    assert boards_offered(page) == CLASSIC_BOARDS
    page.select_option("select[name=variant]", "anti-monopoly")
    page.get_by_role("button", name=save, exact=True).click()
    page.wait_for_url("**/tournaments/*/")
    assert Tournament.objects.get(name="Anty").board == "anti-monopoly-us"


def test_without_scripts_the_server_refuses_a_board_that_does_not_fit(live_server, browser, boss):
    director = director_in(browser, live_server, PHONE, "pl", scripts=False)
    page = director.page
    assert boards_offered(page) == ["anti-monopoly-us", *CLASSIC_BOARDS]  # no script filters them
    page.fill("input[name=name]", "Anty")
    page.select_option("select[name=variant]", "anti-monopoly")  # the Warsaw board stays chosen
    page.get_by_role("button", name="Zapisz", exact=True).click()
    with translation.override("pl"):
        refusal = board_misfit("anti-monopoly", "classic-pl")
    expect(page.locator(".error")).to_have_text(refusal)  # in Polish, naming the board that fits by its name
    assert "Anty-Monopoly, edycja amerykańska" in refusal
    assert page.locator("input[name=date]").input_value() == date.today().isoformat()  # kept, in Polish
    director.shot("tournament-form-refused-pl")
    no_horizontal_scroll(page)
    assert not Tournament.objects.exists()


def test_a_game_started_on_its_own_offers_the_boards_of_its_variant(live_server, browser, boss):
    director = director_in(browser, live_server, PHONE, "en")
    page = director.page
    page.goto(f"{live_server.url}/games/new/")
    assert boards_offered(page) == CLASSIC_BOARDS
    page.select_option("select[name=variant]", "anti-monopoly")
    assert boards_offered(page) == ["anti-monopoly-us"]
    page.fill("textarea[name=players]", "Anna; C\nBartek; M")
    director.shot("game-new-anti-monopoly")
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_url("**/games/*/")


def test_zero_rounds_is_refused_by_the_browser_and_by_the_server(live_server, browser, boss):
    """A director types 0 into the rounds: the browser does not send it (the field's min), and a browser that
    sends it all the same (the limit taken out of the page) gets the server's refusal, in Polish; nothing is
    saved either way."""
    director = director_in(browser, live_server, PHONE, "pl")
    page = director.page
    page.fill("input[name=name]", "Puchar Zera")
    rounds = page.locator("input[name=rounds]")
    rounds.fill("0")
    page.get_by_role("button", name="Zapisz", exact=True).click()
    assert rounds.evaluate("e => !e.validity.valid && e.validity.rangeUnderflow")
    assert page.url.endswith("/tournaments/new/") and not Tournament.objects.exists()
    rounds.evaluate("e => e.removeAttribute('min')")
    with page.expect_navigation():
        page.get_by_role("button", name="Zapisz", exact=True).click()
    errors = page.locator("main .error")
    expect(errors.first).to_be_visible()
    with translation.override("pl"):
        from django.core.validators import MinValueValidator

        message = str(MinValueValidator(1).message) % {"limit_value": 1}
    expect(errors.first).to_contain_text(message)
    assert page.locator("input[name=rounds]").input_value() == "0"  # what he typed, kept to mend
    assert not Tournament.objects.exists()
    director.shot("tournament-form-zero-rounds-pl")
    no_horizontal_scroll(page)


@pytest.mark.parametrize(
    ("viewport", "language", "save", "said"),
    [
        (DESKTOP, "en", "Save", "Enter a date from 1935-01-01 to"),
        (PHONE, "pl", "Zapisz", "Podaj datę od 1935-01-01 do"),
    ],
    ids=["english-desktop", "polish-phone"],
)
def test_a_year_typed_wrong_is_refused_by_the_browser_and_by_the_server(
    live_server,
    browser,
    boss,
    viewport,
    language,
    save,
    said,
):
    """1900 or 2206 for 2026: the date input takes no date outside the years a tournament may have (the
    browser says so at Save); a browser that does not check (the form's checks off) is told by the server,
    in its language, what it takes, the rest of the form as typed."""
    director = director_in(browser, live_server, viewport, language)
    page = director.page
    page.fill("input[name=name]", "Puchar Łodzi")
    date_input = page.locator("input[name=date]")
    for day, refused in (("1900-12-05", "rangeUnderflow"), ("2206-12-05", "rangeOverflow")):
        date_input.fill(day)
        page.get_by_role("button", name=save, exact=True).click()
        assert date_input.evaluate(f"e => e.validity.{refused}")  # the browser keeps the form
        assert page.url.endswith("/tournaments/new/") and not Tournament.objects.exists()
    page.locator("form:has(input[name=date])").evaluate("f => { f.noValidate = true; }")
    page.get_by_role("button", name=save, exact=True).click()
    expect(page.locator("body")).to_contain_text(said)
    assert page.locator("input[name=name]").input_value() == "Puchar Łodzi"  # nothing typed is lost
    assert date_input.input_value() == "2206-12-05"
    director.shot(f"tournament-form-date-refused-{language}")
    no_horizontal_scroll(page)
    assert not Tournament.objects.exists()
    date_input.fill(date.today().isoformat())
    page.get_by_role("button", name=save, exact=True).click()
    page.wait_for_url("**/tournaments/*/")
    assert Tournament.objects.get().date == date.today()
    page.context.close()


def test_switching_the_language_mid_form_keeps_what_was_typed(live_server, browser, boss):
    """A director half way through the new tournament's form switches to Polish: the page comes back in
    Polish with what he typed, chose and ticked, and saves it; the form after the save starts afresh."""
    director = director_in(browser, live_server, DESKTOP, "en")
    page = director.page
    page.fill("input[name=name]", "Puchar Łodzi")
    page.select_option("select[name=variant]", "anti-monopoly")
    page.fill("input[name=rounds]", "7")
    page.select_option("select[name=tie_breaks_1]", "best_score")
    page.select_option("select[name=tie_breaks_2]", "total_score")
    page.locator("input[name=second_confirmation]").check()
    page.select_option("header select[name=language]", "pl")
    page.wait_for_load_state()
    expect(page.get_by_role("button", name="Zapisz", exact=True)).to_be_visible()
    expect(page.locator("input[name=name]")).to_have_value("Puchar Łodzi")
    expect(page.locator("select[name=variant]")).to_have_value("anti-monopoly")
    expect(page.locator("select[name=board]")).to_have_value("anti-monopoly-us")  # the variant's boards
    expect(page.locator("input[name=rounds]")).to_have_value("7")
    expect(page.locator("select[name=tie_breaks_1]")).to_have_value("best_score")
    expect(page.locator("select[name=tie_breaks_2]")).to_have_value("total_score")
    expect(page.locator("input[name=second_confirmation]")).to_be_checked()
    director.shot("tournament-form-language-switched-pl")
    page.get_by_role("button", name="Zapisz", exact=True).click()
    page.wait_for_url("**/tournaments/*/")
    t = Tournament.objects.get()
    assert (t.name, t.variant, t.board, t.rounds, t.second_confirmation) == (
        "Puchar Łodzi",
        "anti-monopoly",
        "anti-monopoly-us",
        7,
        True,
    )
    assert t.tie_breaks == ["points", "best_score", "total_score"]
    page.goto(f"{live_server.url}/tournaments/new/")  # kept once: a new form is a new form
    expect(page.locator("input[name=name]")).to_have_value("")


@pytest.mark.parametrize(
    ("viewport", "language", "save"),
    [(DESKTOP, "en", "Save"), (PHONE, "pl", "Zapisz")],
    ids=["english-desktop", "polish-phone"],
)
def test_once_the_first_round_started_only_the_any_time_settings_are_offered(
    live_server, browser, boss, viewport, language, save
):
    """The first round started, the settings that change a game are locked; the tournament's page links to
    those that may still change (the live boards, the trade flags' thresholds), which the director changes
    and saves as a browser posts them."""
    t = make_tournament(8, name="Puchar Łodzi", created_by=boss)
    rounds.start_round(rounds.seat_next_round(t))
    director = director_in(browser, live_server, viewport, language)
    page = director.page
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    page.locator(f"a[href='/tournaments/{t.pk}/edit/']").click()
    page.wait_for_url(f"**/tournaments/{t.pk}/edit/")
    assert page.locator("input[name=rounds], select[name=variant]").count() == 0
    expect(page.locator("input[name=trade_flag_cash]")).to_have_value("300")
    page.locator("label.check", has=page.locator("input[name=live_boards]")).locator("span").click()
    page.fill("input[name=trade_flag_cash]", "450")
    director.shot(f"tournament-form-any-time-{language}")
    no_horizontal_scroll(page)
    page.get_by_role("button", name=save, exact=True).click()
    page.wait_for_url(f"**/tournaments/{t.pk}/")
    t.refresh_from_db()
    assert (t.live_boards, t.trade_flag_cash, t.trade_flag_percent, t.rounds) == (True, 450, 20, 5)
