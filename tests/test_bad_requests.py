"""Malformed requests at every endpoint (found from the URL configuration, so a new page is covered too), as
the director, a referee and a visitor, on SQLite and on PostgreSQL: never a 500, and a request that is
refused changes nothing.

Values are what a broken phone, a stale tab or a prankster sends: NULs, overlong and non-ASCII text, huge and
negative numbers, keys of other forms.
"""

import uuid

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.legal import legal_actions
from rules.simulate import simulate
from tournament import moves, rounds
from tournament.models import Participant, Tournament
from tournament.permissions import DIRECTORS_GROUP, REFEREES_GROUP

pytestmark = pytest.mark.django_db

FIELDS = [
    # the console
    "action", "player", "d1", "d2", "square", "count", "winner", "price", "nobody", "card", "do", "with",
    "effect_kind", "effect_amount", "effect_square", "effect_steps", "effect_square_kind", "give_squares",
    "get_squares", "give_cash", "get_cash", "give_jail_cards", "get_jail_cards", "squares", "version",
    "client_key", "reason",
    # the director's and referee's forms
    "name", "club", "seed", "date", "variant", "board", "game_rounds", "time_limit_minutes",
    "move_time_limit", "rounds", "table_size", "final_table_size", "placement_points", "tie_breaks",
    "second_confirmation", "a", "b", "referees", "order", "place_1", "place_2", "players", "max_rounds",
    # elsewhere
    "q", "sort", "next", "language", "username", "password",
]  # fmt: skip
VALUES = st.one_of(
    st.sampled_from(
        ["", " ", "0", "1", "-1", "2", "A", "B", "roll", "buy", "auction", "trade", "build:1", "x" * 121,
         "x" * 201, "k" * 65, "9" * 25, "1e9", "NaN", "\x00", "a\x00b", "żółć", "=HYPERLINK(\"x\")",
         "<script>", "../../etc", "2026-02-30", "4, 2, 1, 0", "points"]
    ),
    st.integers(-(2**63), 2**63).map(str),
    st.text(max_size=30),
)  # fmt: skip
SKIP = ("admin", "i18n")  # Django's own admin; set_language is exercised through "language"


def endpoints():
    """(name, route) of every named URL of the project outside SKIP."""

    def walk(patterns, prefix=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                if not str(p.pattern).startswith(SKIP):
                    yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern) and p.name:
                yield p.name, prefix + str(p.pattern)

    return sorted(set(walk(get_resolver().url_patterns)))


def fingerprint():
    """Every row of the project's models and of the accounts: what a refused request must leave as it was."""
    models = [*apps.get_app_config("tournament").get_models(), User]
    return {m.__name__: list(m.objects.order_by("pk").values_list()) for m in models}


def refused(response) -> bool:
    body = response.content.decode(errors="replace")
    return response.status_code >= 400 or any(
        mark in body for mark in ('class="msg error"', 'class="error"', 'class="errorlist', "errornote")
    )


@pytest.fixture
def world():
    director = User.objects.create_user("director", password="pw", is_staff=True)
    referee = User.objects.create_user("ref", password="pw")
    referee.groups.create(name=REFEREES_GROUP)
    User.objects.create_user("deputy", password="pw").groups.create(name=DIRECTORS_GROUP)  # a co-director
    t = Tournament.objects.create(name="Cup", rounds=2, game_rounds=1, seed=3, created_by=director)
    for i in range(8):
        Participant.objects.create(tournament=t, name=f"P{i}", club=f"c{i % 3}")
    round_ = rounds.seat_next_round(t)
    for table in round_.tables.all():
        table.referees.set([referee])
    rounds.start_round(round_)
    table = round_.tables.get(number=1)
    game = rounds.start_table_game(table, [s.participant_id for s in table.seats.all()], referee)
    for ev in simulate(t.variant, t.board, 4, seed=2, rounds=1)["events"][:12]:
        game = moves.submit(game.pk, ev, version=game.version).game
    return {"director": director, "referee": referee, "tournament": t, "game": game}


def url_for(name, route, world):
    kwargs = {}
    for key in ("pk", "number", "table", "seq", "participant"):
        if f"<id:{key}>" in route:
            kwargs[key] = {
                "pk": world["game"].pk if route.startswith("games/") else world["tournament"].pk,
                "number": 1,
                "table": 1,
                "seq": 3,
                "participant": world["tournament"].participants.first().pk,
            }[key]
    return reverse(name, kwargs=kwargs)


def valid_form(name: str, world) -> dict:
    """A request the endpoint would accept now; the test spoils one or two of its fields."""
    t, game = world["tournament"], world["game"]
    game.refresh_from_db()
    keyed = {"version": game.version, "client_key": uuid.uuid4().hex}
    table = t.round_set.get(number=1).tables.get(number=1)
    seated = [s.participant_id for s in table.seats.all()]
    people = list(t.participants.values_list("pk", flat=True))
    tournament_form = {
        "name": "Cup", "date": "2026-12-05", "variant": "tournament-pl", "board": "classic-pl",
        "game_rounds": "10", "rounds": "5", "table_size": "4", "placement_points": "4, 2, 1, 0",
        "tie_breaks": "points, total_score", "seed": "42",
    }  # fmt: skip
    roller = legal_actions(moves.current_state(game)).roll or "A"
    return {
        "console_act": {**keyed, "action": "roll", "player": roller, "d1": "1", "d2": "2"},
        "console_undo": {**keyed, "reason": "wrong dice"},
        "console_void": {**keyed, "reason": "wrong dice"},
        "game_new": {"name": "Practice", "variant": "classic", "board": "classic-us", "players": "A\nB"},
        "tournament_new": tournament_form,
        "tournament_edit": tournament_form,
        "participant_add": {"name": "Newcomer", "club": "c", "seed": "3"},
        "directors_add": {"username": "deputy", "reason": "runs the afternoon"},
        "directors_remove": {"username": "director", "reason": "went home"},
        "round_swap": {"a": people[0], "b": people[-1]},
        "table": {"order": "1", **{f"place_{pk}": str(i + 1) for i, pk in enumerate(seated)}},
        "round_referees": {"tables": ["1"], "table_1": [world["referee"].pk]},
        "round_move": {"participant": people[0], "to_table": "2", "reason": "a quarrel"},
        "round_reseat": {"reason": "late arrivals"},
        "table_absent": {"participant": people[0], "reason": "did not come"},
        "table_stop": {"reason": "out of time"},
        "table_hand_result": {"reason": "played on paper"},
        "table_reopen": {"reason": "dice misread"},
        "login": {"username": "ref", "password": "wrong"},
        "set_language": {"language": "pl", "next": "/"},
        "board_upload": {"board": "new-board", "name": "New board"},  # no file: refused, whatever the fields
        "board_delete": {"board": "classic-us"},
    }.get(name, {})


BAD = ["\x00", "a\x00b", "", "x" * 5000, "9" * 30, "-1", "żółć\u200b", "=cmd|' /C calc'!A0"]


def check_refused_changes_nothing(client, url, data, htmx=False):
    """Posted by a client that carries no message from an earlier request (the page shows only this one's)."""
    before = fingerprint()
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(url, data, follow=True, **headers)
    assert response.status_code < 500, (url, data)
    if refused(response):
        assert fingerprint() == before, (url, data)
    return response


@pytest.mark.parametrize("who", ["director", "referee"])
def test_every_field_of_every_form_with_each_bad_value(world, who):
    """A grid, not a sample: each field of each form the project has, with each bad value in turn."""
    routes = dict(endpoints())
    for name in sorted(routes):
        for field in valid_form(name, world):
            for value in BAD:
                client = Client(HTTP_ACCEPT_LANGUAGE="en")
                client.force_login(world[who])
                data = {**valid_form(name, world), field: value}
                check_refused_changes_nothing(client, url_for(name, routes[name], world), data, htmx=True)


@pytest.mark.parametrize("who", ["director", "referee", "visitor"])
def test_malformed_requests_at_every_endpoint_never_fail_and_change_nothing_when_refused(world, who):
    routes = dict(endpoints())
    assert len(routes) >= 25  # the whole project, not a few pages

    @settings(max_examples=len(routes) * 10, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        name=st.sampled_from(sorted(routes)),
        method=st.sampled_from(["get", "post", "post"]),
        spoil=st.lists(st.tuples(st.sampled_from(FIELDS), VALUES), max_size=2),
        pick=st.randoms(use_true_random=False),
        htmx=st.booleans(),
    )
    def check(name, method, spoil, pick, htmx):
        client = Client(HTTP_ACCEPT_LANGUAGE="en")  # a fresh phone: no message left from an earlier example
        if who != "visitor":
            client.force_login(world[who])
        url = url_for(name, routes[name], world)
        data = valid_form(name, world) if method == "post" else {}
        for field, value in spoil:  # a field of the form (or another) gets a bad value
            data[pick.choice(sorted(data)) if data and pick.random() < 0.7 else field] = value
        before = fingerprint()
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = getattr(client, method)(url, data, follow=method == "post", **headers)
        assert response.status_code < 500, (url, method, data)
        if method == "get" or (spoil and refused(response)):
            assert fingerprint() == before, (url, method, data)

    check()


@pytest.mark.parametrize("digits", [19, 30, 5000])
def test_an_id_too_large_for_the_database_is_not_found(client, world, digits):
    client.force_login(world["director"])
    huge = "9" * digits
    for _name, route in endpoints():
        if "<id:" not in route:
            continue
        url = route
        for key in ("pk", "number", "table", "seq", "participant"):
            url = url.replace(f"<id:{key}>", huge)
        for method in ("get", "post"):
            assert getattr(client, method)("/" + url).status_code == 404, url
