"""A result typed from a paper sheet in a real browser, on a 360 px phone in Polish: the places checked
against the scores, a review of what will be stored before it counts, the roles of an Anti-Monopoly table
at a glance, and a reopen that keeps every value typed. Screenshots go to out/screens/ (look at them)."""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM is used beside Playwright's event loop

from django.contrib.auth.models import Group, User  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from tests.browser import BROWSER_TESTS, PHONE, Referee  # noqa: E402
from tournament.event import results, rounds  # noqa: E402
from tournament.models import Participant, TableResult, Tournament  # noqa: E402
from tournament.people.access import DIRECTORS_GROUP  # noqa: E402

pytestmark = BROWSER_TESTS


def fits(page) -> None:
    """Nothing wider than the phone: the page does not scroll sideways (what is too wide, if it does)."""
    wide = page.evaluate(
        "[...document.querySelectorAll('*')].filter(e => e.getBoundingClientRect().right > innerWidth)"
        ".map(e => e.tagName + '.' + e.className).slice(0, 5)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide


def test_a_result_by_hand_reviewed_and_kept_on_reopen_on_a_phone(live_server, browser):
    boss = User.objects.create_user("boss", password="pw")
    boss.groups.add(Group.objects.create(name=DIRECTORS_GROUP))
    t = Tournament.objects.create(
        name="Puchar Łodzi",
        rounds=1,
        table_size=4,
        seed=3,
        created_by=boss,
        variant="anti-monopoly",
        board="anti-monopoly-us",
    )
    t.directors.add(boss)
    for name in ["Małgorzata Źdźbło-Nowakowska", "Zenon", "Łucja", "Grzegorz Brzęczyszczykiewicz"]:
        Participant.objects.create(tournament=t, name=name)
    round_ = rounds.seat_next_round(t)
    rounds.start_round(round_)
    table = round_.tables.get()
    people = [s.participant for s in table.seats.order_by("order")]
    roles = {s.participant_id: s.role for s in table.seats.all()}
    assert sorted(roles.values()) == ["competitor", "competitor", "monopolist", "monopolist"]

    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="pl-PL", has_touch=True)
    page = context.new_page()
    phone = Referee(page, live_server.url)
    table_url = f"/tournaments/{t.pk}/rounds/1/tables/1/"
    phone.login("boss", "pw", table_url)
    # the roles before the game starts, told apart by shape and colour (on the order of play's tap buttons)
    expect(page.locator(".role-monopolist:visible")).to_have_count(2)
    expect(page.locator(".role-competitor:visible")).to_have_count(2)
    assert page.locator(".role-monopolist").first.evaluate("e => getComputedStyle(e).backgroundColor") != (
        page.locator(".role-competitor").first.evaluate("e => getComputedStyle(e).backgroundColor")
    )
    fits(page)
    phone.shot("hand-01-table-roles")

    page.locator(f"a[href='/tournaments/{t.pk}/rounds/1/tables/1/result-by-hand/']").click()
    scores = [2400, 1900, 1500, 900]
    for i, p in enumerate(people):
        page.fill(f"input[name=place_{p.pk}]", str(i + 1))
        page.fill(f"input[name=score_{p.pk}]", str(scores[i] if i < 3 else 2000))  # the 4th above the 2nd
    page.fill("label[for=hand-reason] + input", "tablet padł")
    fits(page)
    page.locator("form.hand-result button.primary").click()
    expect(page.locator("p.error")).to_contain_text(f"{people[1].name} (miejsce 2) ma niższy wynik")
    assert page.locator(f"input[name=score_{people[3].pk}]").input_value() == "2000"  # what was typed stays
    page.fill(f"input[name=score_{people[3].pk}]", "900")
    page.locator("form.hand-result button.primary").click()

    # the review: what will be stored, nothing stored yet
    review = page.locator("form.hand-result table")
    expect(review).to_contain_text("2400")
    for i, p in enumerate(people):
        expect(review.locator("tr").nth(i + 1)).to_contain_text(p.name)
    assert not TableResult.objects.exists()
    fits(page)
    phone.shot("hand-02-review")
    page.locator("button[name=edit]").click()  # back to change it: the values are still there
    assert page.locator(f"input[name=score_{people[0].pk}]").input_value() == "2400"
    page.locator("form.hand-result button.primary").click()
    page.locator("button[name=confirm]").click()
    page.wait_for_url(f"**{table_url}")
    result = results.current_result(table)
    assert result.by_hand and [(r["rank"], r["score"]) for r in result.ranking] == list(
        zip((1, 2, 3, 4), scores + [900], strict=False)
    )
    fits(page)
    phone.shot("hand-03-confirmed")

    # reopened: the form starts from the values of the reopened result
    page.get_by_label("Dlaczego wynik jest otwierany ponownie?").fill("zamienione miejsca 3 i 4")  # labelled
    page.locator("form[action$='/reopen/'] button").click()
    page.wait_for_url(f"**{table_url}")
    assert results.current_result(table) is None
    page.locator(f"a[href='/tournaments/{t.pk}/rounds/1/tables/1/result-by-hand/']").click()
    for i, p in enumerate(people):
        assert page.locator(f"input[name=place_{p.pk}]").input_value() == str(i + 1)
        assert page.locator(f"input[name=score_{p.pk}]").input_value() == str((scores + [900])[i])
    assert page.locator("#hand-reason").input_value() == "tablet padł"
    fits(page)
    phone.shot("hand-04-reopened")
    context.close()
