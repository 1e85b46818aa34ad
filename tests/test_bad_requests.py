"""Malformed requests at every endpoint (found from the URL configuration, so a new page is covered too), as
the director, a referee and a visitor, on SQLite and on PostgreSQL: never a 500, and a request that is
refused changes nothing.

Values are what a broken phone, a stale tab or a prankster sends: NULs, overlong and non-ASCII text, huge and
negative numbers, keys of other forms.
"""

import contextlib
import copy
import datetime
import html
import io
import json
import re
import uuid

import pytest
from django.apps import apps
from django.conf import settings as django_settings
from django.contrib.auth.models import Group, User
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook, load_workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from rules.board import BOARDS_DIR
from rules.simulate import simulate
from tests.fuzzing import examples
from tests.tournaments import start_game
from tournament.boards.files.template import template_workbook
from tournament.event import rounds
from tournament.files import backup
from tournament.games import recording
from tournament.models import Game, Participant, PastEntrant, PastEvent, Player, Tournament
from tournament.people.access import DIRECTORS_GROUP, REFEREES_GROUP

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
    "how", "password1", "password2", "active",
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


def writes():
    """How many rows the database connection has written so far (inserted, changed or deleted), never less
    than before: SQLite's count for the connection; PostgreSQL's for the transaction the test runs in, with
    the transaction's id. A request that leaves it as it was changed nothing."""
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        return connection.connection.total_changes
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT txid_current(), coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)"
            " FROM pg_stat_xact_all_tables"
        )
        return cursor.fetchone()


class Phones:
    """Fresh phones of one user (None: a visitor), each signed in with the same session, made once: a login
    per request would write the session and the user's last login every time. A request that ends the session
    (a logout) or changes its key is seen by ``done``, and the next phone signs in anew.

    ``database`` is the ``fingerprint``, read again only when a row was written since it was last read
    (``writes``): most refused requests write nothing, and it is read once for them instead of twice."""

    def __init__(self, user):
        self.user, self.session = user, None
        self.known, self.at = None, None

    def fresh(self) -> Client:
        """A phone carrying no message or cookie of an earlier request but the session's."""
        client = Client(HTTP_ACCEPT_LANGUAGE="en")
        if self.user is not None:
            if self.session is None:
                client.force_login(self.user)
                self.session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
            else:
                client.cookies[django_settings.SESSION_COOKIE_NAME] = self.session
        return client

    def database(self) -> dict:
        count = writes()
        if self.known is None or count != self.at:
            self.known, self.at = fingerprint(), count
        return self.known

    def done(self, client: Client) -> None:
        """After a request: the session it ended or renewed is signed in anew for the next phone."""
        cookie = client.cookies.get(django_settings.SESSION_COOKIE_NAME)
        if self.user is not None and (cookie is None or cookie.value != self.session):
            self.session = None


def refused(response) -> bool:
    body = response.content.decode(errors="replace")
    return response.status_code >= 400 or any(
        mark in body for mark in ('class="msg error"', 'class="error"', 'class="errorlist', "errornote")
    )


@pytest.fixture
def world():
    director = User.objects.create_user("director", password="pw", is_staff=True)
    referee = User.objects.create_user("ref", password="pw")
    referee.groups.add(Group.objects.get_or_create(name=REFEREES_GROUP)[0])
    User.objects.create_user("deputy", password="pw").groups.create(name=DIRECTORS_GROUP)  # a co-director
    t = Tournament.objects.create(name="Cup", rounds=2, game_rounds=1, seed=3, created_by=director)
    for i in range(8):
        Participant.objects.create(tournament=t, name=f"P{i}", club=f"c{i % 3}")
    round_ = rounds.seat_next_round(t)
    for table in round_.tables.all():
        table.referees.set([referee])
    rounds.start_round(round_)
    table = round_.tables.get(number=1)
    game = start_game(table, referee)
    for ev in simulate(t.variant, t.board, 4, seed=2, rounds=1)["events"][:12]:
        game = recording.submit(game.pk, ev, version=game.version).game
    player = Player.objects.create(name="P0", club="c0")
    Participant.objects.filter(tournament=t, name="P0").update(player=player)
    event = PastEvent.objects.create(name="Old cup", date=datetime.date(2025, 5, 1))
    PastEntrant.objects.create(event=event, name="P1", club="c1")
    return {
        "director": director,
        "referee": referee,
        "tournament": t,
        "game": game,
        "player": player,
        "event": event,
    }


def url_for(name, route, world):
    kwargs = {}
    for key in ("pk", "number", "table", "seq", "participant", "account", "player", "event"):
        if f"<id:{key}>" in route:
            kwargs[key] = {
                "pk": world["game"].pk
                if route.startswith("games/")
                else world["player"].pk
                if route.startswith("league/players/")
                else world["event"].pk
                if route.startswith("league/past/")
                else world["tournament"].pk,
                "player": world["player"].pk,
                "event": world["event"].pk,
                "number": 1,
                "table": 1,
                "seq": 3,
                "participant": world["tournament"].participants.first().pk,
                "account": world["referee"].pk,
            }[key]
    if "<slug:secret>" in route:  # a one-time login link nobody was given
        kwargs["secret"] = "x" * 43
    if "<slug:language>" in route:  # the engine's words for the phone (console/engine_files.py)
        kwargs["language"] = "pl"
    if "<slug:key>" in route:  # a participant's private link, as long as it was not revoked
        kwargs["key"] = world["tournament"].participants.first().link_key or "x" * 24
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
    return {
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
        "participant_link_change": {"do": "new", "reason": "lost his slip"},
        "participant_check_in": {"do": "in"},
        "login": {"username": "ref", "password": "wrong"},
        "set_language": {"language": "pl", "next": "/"},
        "board_upload": {"board": "new-board", "name": "New board"},  # no file: refused, whatever the fields
        "board_delete": {"board": "classic-us"},
        "referee_add": {
            "name": "Jan Nowak",
            "username": "jnowak",
            "how": "password",
            "password1": "long-enough-1",
            "password2": "long-enough-1",
        },
        "referee_password": {"password1": "long-enough-2", "password2": "long-enough-2"},
        "referee_active": {"active": "0"},
        "referee_rename": {"name": "Jan Nowak"},
    }.get(name, {})


BAD = ["\x00", "a\x00b", "", "x" * 5000, "9" * 30, "-1", "żółć\u200b", "=cmd|' /C calc'!A0"]


def check_refused_changes_nothing(phones: Phones, url, data, htmx=False):
    """Posted by a phone that carries no message from an earlier request (the page shows only this one's)."""
    client = phones.fresh()
    before = phones.database()
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(url, data, follow=True, **headers)
    phones.done(client)
    assert response.status_code < 500, (url, data)
    if refused(response):
        assert phones.database() == before, (url, data)
    return response


def test_the_count_of_writes_sees_every_change(world):
    """What ``Phones.database`` trusts: a read leaves the count as it was, any write (an insert, an update, a
    delete, one in a savepoint rolled back) moves it."""
    from django.db import transaction

    t = world["tournament"]
    count = writes()
    fingerprint()
    assert writes() == count
    for write in (
        lambda: Participant.objects.create(tournament=t, name="Newcomer"),
        lambda: Participant.objects.filter(name="Newcomer").update(club="x"),
        lambda: Participant.objects.filter(name="Newcomer").delete(),
    ):
        write()
        assert writes() != count
        count = writes()
    with contextlib.suppress(RuntimeError), transaction.atomic():
        t.participants.update(club="y")
        raise RuntimeError  # rolled back
    assert writes() != count


@pytest.mark.postgres
@pytest.mark.parametrize("who", ["director", "referee"])
def test_every_field_of_every_form_with_each_bad_value(world, who):
    """A grid, not a sample: each field of each form the project has, with each bad value in turn."""
    routes = dict(endpoints())
    phones = Phones(world[who])
    for name in sorted(routes):
        for field in valid_form(name, world):
            for value in BAD:
                data = {**valid_form(name, world), field: value}
                check_refused_changes_nothing(phones, url_for(name, routes[name], world), data, htmx=True)


#: How many malformed requests an endpoint gets, as a share of the profile's examples (tests/fuzzing.py): in
#: the suite's default profile 3 an endpoint (a budget that fits CI), ``--hypothesis-profile thorough`` 30.
REQUESTS_AN_ENDPOINT = 3
#: The endpoints in this many parts, each a test of its own (run side by side by the suite's workers).
PARTS = 2


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("who", ["director", "referee", "visitor"])
def test_malformed_requests_at_every_endpoint_never_fail_and_change_nothing_when_refused(world, who, part):
    every = dict(endpoints())
    assert len(every) >= 25  # the whole project, not a few pages
    routes = {name: every[name] for name in sorted(every)[part::PARTS]}

    @settings(
        max_examples=examples(len(routes) * REQUESTS_AN_ENDPOINT), suppress_health_check=list(HealthCheck)
    )
    @given(
        name=st.sampled_from(sorted(routes)),
        method=st.sampled_from(["get", "post", "post"]),
        spoil=st.lists(st.tuples(st.sampled_from(FIELDS), VALUES), max_size=2),
        pick=st.randoms(use_true_random=False),
        htmx=st.booleans(),
    )
    def check(name, method, spoil, pick, htmx):
        client = phones.fresh()  # a fresh phone: no message left from an earlier example
        url = url_for(name, routes[name], world)
        data = valid_form(name, world) if method == "post" else {}
        for field, value in spoil:  # a field of the form (or another) gets a bad value
            data[pick.choice(sorted(data)) if data and pick.random() < 0.7 else field] = value
        before = phones.database()
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = getattr(client, method)(url, data, follow=method == "post", **headers)
        phones.done(client)
        assert response.status_code < 500, (url, method, data)
        if method == "get" or (spoil and refused(response)):
            assert phones.database() == before, (url, method, data)

    phones = Phones(None if who == "visitor" else world[who])
    check()


@pytest.mark.postgres
@pytest.mark.parametrize("digits", [19, 30, 5000])
def test_an_id_too_large_for_the_database_is_not_found(client, world, digits):
    client.force_login(world["director"])
    huge = "9" * digits
    for _name, route in endpoints():
        if "<id:" not in route:
            continue
        url = route
        for key in ("pk", "number", "table", "seq", "participant", "account", "player", "event"):
            url = url.replace(f"<id:{key}>", huge)
        for method in ("get", "post"):
            assert getattr(client, method)("/" + url).status_code == 404, url


# -- forged and damaged files at the import pages (and the backup's command) ---------------------------------

#: What a forger or a damaged disk puts in a file's place: numbers beyond every column, text no database
#: stores, the wrong kind of value, a structure nested too deeply.
HOSTILE = [
    10**40, -(10**40), 3 * 10**10, 2**31, 2**63, -1, 0, 1, 1.5, True, None, "", " ", "\x00", "a\x00b",
    "\ud800", "x" * 300, "NaN", "=cmd|' /C calc'!A0", [], {}, [1, 2], {"t": "{x.y}", "p": {"x": 1}},
    [[[[[[[[]]]]]]]],
]  # fmt: skip
#: Whole texts no JSON reader of the app may fail on.
HOSTILE_TEXTS = [
    b"[" * 100_000 + b"]" * 100_000, b'{"a": ' * 3000 + b"1" + b"}" * 3000, b'{"x": NaN}', b'{"x": 1e400}',
    b'{"x": 1' + b"0" * 5000 + b"}", b"\xff\xfe", b"", b"null", b'"text"', b'{"format": "\\ud800"}',
]  # fmt: skip


def paths(value, prefix=()):
    """The place of every value in a JSON structure (a key of an object, an index of a list)."""
    out = []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        out.append((*prefix, key))
        out.extend(paths(item, (*prefix, key)))
    return out


def forged(data, path, action, value):
    """``data`` with the value at ``path`` replaced by ``value``, dropped, listed twice, or with ``value``
    beside it."""
    data = copy.deepcopy(data)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if action == "set":
        parent[key] = value
    elif action == "drop":
        del parent[key]
    elif action == "add":  # a key the reader does not know, beside this one
        if isinstance(parent, list):
            parent.append(value)
        else:
            parent[f"{key}_extra"] = value
    elif isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    else:
        parent[key] = [parent[key], copy.deepcopy(parent[key])]
    return data


#: JSON that Python's reader takes but no database stores (or no reader of the app may fail on), put in a
#: place of a forged file as it is.
RAW = ["1e400", "-1e400", "NaN", "Infinity", "1" + "0" * 5000, "[" * 200 + "]" * 200, '"\\u0000"']


def hostile_json(base: dict):
    """A forged JSON file (one or two places of ``base`` changed), its text cut short, or hostile text."""
    where = st.sampled_from(paths(base))
    value = st.one_of(st.sampled_from(HOSTILE), st.sampled_from(range(len(RAW))).map(lambda i: f"@raw{i}@"))
    change = st.tuples(where, st.sampled_from(["set", "set", "set", "add", "drop", "twice"]), value)

    def write(changes, cut):
        data = base
        for path, action, value in changes:
            with contextlib.suppress(KeyError, IndexError, TypeError):  # an earlier change took it away
                data = forged(data, path, action, value)
        text = json.dumps(data)  # NUL and lone surrogates escaped, as a forger writes them
        for i, raw in enumerate(RAW):
            text = text.replace(f'"@raw{i}@"', raw)
        text = text.encode()
        return text[: len(text) * cut // 100] if cut else text

    return st.one_of(
        st.builds(write, st.lists(change, min_size=1, max_size=2), st.sampled_from([0] * 9 + [50, 99])),
        st.sampled_from(HOSTILE_TEXTS),
    )


def hostile_cells(rows: int, columns: int):
    cell = st.one_of(
        st.sampled_from([str(v) for v in HOSTILE if isinstance(v, int | float | str)] + ["9" * 5000]),
        st.integers(-(2**70), 2**70).map(str),
        st.text(max_size=20),
    )
    return st.lists(st.lists(cell, min_size=1, max_size=columns), min_size=1, max_size=rows)


def in_a_cell(value):
    """A value a workbook can hold: no control characters (openpyxl refuses them) nor lone surrogates."""
    if isinstance(value, str):
        return re.sub(r"[\ud800-\udfff]", "", ILLEGAL_CHARACTERS_RE.sub("", value))
    return value


def workbook_bytes(rows) -> bytes:
    wb = Workbook()
    for row in rows:
        wb.active.append([in_a_cell(v) for v in row])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def forged_board_workbook(template: bytes):
    """The board template with a few cells changed to hostile values."""
    value = st.one_of(st.sampled_from([v for v in HOSTILE if isinstance(v, int | float | str)]), st.text())

    def write(cells):
        wb = load_workbook(io.BytesIO(template))
        for sheet, row, column, v in cells:
            wb[sheet].cell(row=row, column=column, value=in_a_cell(v))
        out = io.BytesIO()
        wb.save(out)
        return out.getvalue()

    cells = st.tuples(
        st.sampled_from(["board", "squares", "decks", "cards"]),
        st.integers(1, 45),
        st.integers(1, 30),
        value,
    )
    return st.builds(write, st.lists(cells, min_size=1, max_size=3))


def post_file(client, url, field, name, data, **fields):
    upload = io.BytesIO(data)
    upload.name = name
    return client.post(url, {field: upload, **fields}, follow=True)


def shown(response) -> str:
    return html.unescape(response.content.decode(errors="replace"))


IMPORT_PAGES = ["board json", "board workbook", "game record", "participants csv", "participants workbook"]


@pytest.mark.parametrize("target", IMPORT_PAGES)
def test_forged_files_at_the_import_pages_never_fail_and_change_nothing_when_refused(world, target):
    t = world["tournament"]
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(world["director"])
    board = json.loads((BOARDS_DIR / "classic-us.json").read_text(encoding="utf-8")) | {"id": "fuzz-board"}
    files = {
        "board json": hostile_json(board).map(lambda d: ("board.json", d)),
        "board workbook": forged_board_workbook(template_workbook(board)).map(lambda d: ("board.xlsx", d)),
        "game record": hostile_json(recording.record_of(world["game"])).map(lambda d: ("record.json", d)),
        "participants csv": hostile_cells(6, 4).map(
            lambda rows: ("p.csv", "\n".join(",".join(r) for r in rows).encode("utf-8", "surrogatepass"))
        ),
        "participants workbook": hostile_cells(6, 4).map(lambda rows: ("p.xlsx", workbook_bytes(rows))),
    }
    board_page = reverse("board_upload")
    url, field, fields = {
        "board json": (board_page, "file", {"replace": "on"}),
        "board workbook": (board_page, "file", {"replace": "on", "board": "fuzz-board"}),
        "game record": (reverse("table_record_import", args=[t.pk, 1, 1]), "record", {}),
        "participants csv": (reverse("participant_import", args=[t.pk]), "file", {}),
        "participants workbook": (reverse("participant_import", args=[t.pk]), "file", {}),
    }[target]

    @settings(max_examples=examples(40), suppress_health_check=list(HealthCheck))
    @given(file=files[target])
    def check(file):
        name, data = file
        before = fingerprint()
        response = post_file(client, url, field, name, data, **fields)
        assert response.status_code == 200, (target, data[:300])
        if refused(response):
            assert fingerprint() == before, (target, data[:300])
            assert 'class="msg error"' in shown(response)  # a message, not a page of its own

    check()


def test_forged_backups_never_fail_and_change_nothing_when_refused(world, tmp_path):
    """The backup is restored from the command line: a forged one ends in the command's message (exit status
    1) with nothing stored, or is restored; never a traceback."""
    data = backup.export_tournament(world["tournament"])
    data["tournament"]["name"] = "Restored Cup"
    path = tmp_path / "backup.json"

    @settings(max_examples=examples(60), suppress_health_check=list(HealthCheck))
    @given(text=hostile_json(data))
    def check(text):
        path.write_bytes(text)
        before = fingerprint()
        try:
            call_command("import_tournament", str(path), stdout=io.StringIO())
        except CommandError as e:
            assert e.returncode == 1 and str(e).startswith("Nothing was imported. "), str(e)
            assert fingerprint() == before
        else:  # restored: taken away again, so that the next file may be restored too
            restored = Tournament.objects.exclude(pk=world["tournament"].pk)
            Game.objects.filter(table__round__tournament__in=restored).delete()
            restored.delete()

    with translation.override("en"):
        check()
