"""Event-day load test (prints figures; not a pytest test).

    python tests/load_event_day.py --db sqlite --tables 60 --pace 3
    python tests/load_event_day.py --db sqlite --tables 60 --pace 0
    python tests/load_event_day.py --db postgres --tables 250 --pace 3 --workers 4 --threads 8
    python tests/load_event_day.py --db postgres --tables 250 --pace 0 --workers 4 --threads 8

The app is served by gunicorn (gthread) on 127.0.0.1 only, from a fresh database in a temporary directory
(SQLite, or a throw-away PostgreSQL cluster: ``tests/pgserver.py``, durable as on an event day). One
tournament of N tables of 4, round 1 started, each table's game started, each table with its own referee. Each
referee (a thread with its own keep-alive HTTP connection and cookies) logs in through the login page, opens
the console, then enters the first M moves of a simulated game (``rules.simulate``, one seed per table) the
way the console does (an HTMX POST of the form's fields with the game's version and a fresh ``client_key``),
polling the panel every 10 s as the console page does. Mixed in at seeded rates:

- RESEND: the same request again after the first was answered (must be 200, nothing stored twice);
- DOUBLE TAP: the same request on two connections at once (both 200, stored once);
- STALE: a move made on an older version with a new key (refused "Another device entered a move
  meanwhile", nothing stored); the referee then submits the real move on the version that answer shows.

A 5xx or a connection error is answered the way a referee does: tap again (the same form: the same key).

Afterwards, with gunicorn stopped, every game is read from the database: its active events must be exactly the
acknowledged moves, in order, each once (lost / doubled), the stored snapshot and the ledger totals must equal
a replay of the game record, and the version the number of moves. Prints moves/s (acknowledged moves over the
wall time of the move phase), latency percentiles by kind of request, HTTP statuses (5xx apart), CPU use of
the server, the database and this client during the move phase, and what the gunicorn log says (tracebacks,
"database is locked", worker timeouts). Exit status 0 when there is no 5xx, no lost, doubled or mismatched
move, no refused legal move and no other anomaly; 1 otherwise (the temporary directory with the SQLite file
and the gunicorn log is then kept).

Bounded: at most 500 tables, --duration-limit seconds overall (default 600) after which referees stop.
Referees log in first (a phase of its own, --login-concurrency at a time; PBKDF2 makes each login cost about
0.2 s of server CPU), then all start together: moves/s and the move latencies are of the move phase only.
Note that this client runs on the same machine as the server: its CPU use is printed with the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import html
import http.client
import os
import random
import re
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.simulate import simulate  # noqa: E402
from tests.console_posts import post_form  # noqa: E402

MAX_TABLES = 500
PASSWORD = "load-test-" + secrets.token_hex(4)
REQUEST_TIMEOUT_S = 60
KEEPALIVE_REUSE_S = 1.0  # gunicorn closes idle keep-alive connections after 2 s: reuse only fresher ones
MAX_TRIES = 5  # a referee taps again after a 5xx or a lost answer, then gives up on the table
STALE_TEXT = "Another device entered a move meanwhile"
VERSION_RE = re.compile(rb'id="console"[^>]*?data-version="(\d+)"', re.S)
ERROR_RE = re.compile(rb'<p class="error"[^>]*>(.*?)</p>', re.S)
CSRF_INPUT_RE = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
RETRYABLE = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError, ConnectionAbortedError)


# -- figures ---------------------------------------------------------------------------------------------
class Stats:
    """Everything the referees measure, behind one lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.status: Counter = Counter()
        self.count: Counter = Counter()
        self.examples: dict[str, list[str]] = defaultdict(list)

    def request(self, kind: str, status: int | None, seconds: float) -> None:
        with self.lock:
            self.latency[kind].append(seconds)
            self.status[status if status is not None else "no answer"] += 1

    def note(self, what: str, example: str | None = None, n: int = 1) -> None:
        with self.lock:
            self.count[what] += n
            if example is not None and len(self.examples[what]) < 5:
                self.examples[what].append(example)


def percentile(values: list[float], p: float) -> float:
    """Linear interpolation between closest ranks (p in 0..100)."""
    if not values:
        return float("nan")
    s = sorted(values)
    k = (len(s) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


# -- HTTP ------------------------------------------------------------------------------------------------
@dataclass
class Answer:
    status: int
    body: bytes
    headers: http.client.HTTPMessage
    seconds: float

    @property
    def version(self) -> int | None:
        m = VERSION_RE.search(self.body)
        return int(m.group(1)) if m else None

    @property
    def error(self) -> str | None:
        m = ERROR_RE.search(self.body)
        return html.unescape(m.group(1).decode()).strip() if m else None


class Phone:
    """One referee's browser: cookies, a keep-alive connection to 127.0.0.1, the CSRF header."""

    def __init__(self, port: int, stats: Stats):
        self.port = port
        self.stats = stats
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None
        self.last_used = 0.0

    def _new_connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT_S)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def _headers(self, *, htmx: bool, form: bool) -> dict[str, str]:
        h = {"Accept-Language": "en", "User-Agent": "load-event-day"}
        if self.cookies:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            h["HX-Request"] = "true"
        if form:
            h["Content-Type"] = "application/x-www-form-urlencoded"
            h["Origin"] = f"http://127.0.0.1:{self.port}"
            if "csrftoken" in self.cookies:
                h["X-CSRFToken"] = self.cookies["csrftoken"]
        return h

    def _keep_cookies(self, headers: http.client.HTTPMessage) -> None:
        for raw in headers.get_all("Set-Cookie") or []:
            name, _, rest = raw.partition("=")
            value = rest.split(";", 1)[0]
            if value in ("", '""') or "max-age=0" in raw.lower():
                self.cookies.pop(name.strip(), None)
            else:
                self.cookies[name.strip()] = value

    def _prepare(self, method, path, fields, htmx):
        body = urllib.parse.urlencode(fields, doseq=True) if fields is not None else None
        return method, path, body, self._headers(htmx=htmx, form=fields is not None)

    def request(self, kind: str, method: str, path: str, fields=None, *, htmx=False) -> Answer | None:
        """One request on the keep-alive connection (a fresh one when the old may have been closed by the
        server); None when no answer came (counted)."""
        method, path, body, headers = self._prepare(method, path, fields, htmx)
        for attempt in (1, 2):
            reused = self.conn is not None and time.monotonic() - self.last_used < KEEPALIVE_REUSE_S
            if not reused:
                self.close()
                self.conn = self._new_connection()
            t0 = time.perf_counter()
            try:
                self.conn.request(method, path, body=body, headers=headers)
                resp = self.conn.getresponse()
                data = resp.read()
            except RETRYABLE as e:
                self.close()
                if reused and attempt == 1:  # the server closed an idle connection just then: send again
                    self.stats.note("resent on a fresh connection (keep-alive closed)")
                    continue
                self.stats.request(kind, None, time.perf_counter() - t0)
                self.stats.note("no answer (connection error)", f"{kind} {path}: {e!r}")
                return None
            except (TimeoutError, OSError) as e:
                self.close()
                self.stats.request(kind, None, time.perf_counter() - t0)
                self.stats.note("no answer (timeout or socket error)", f"{kind} {path}: {e!r}")
                return None
            seconds = time.perf_counter() - t0
            self.last_used = time.monotonic()
            if resp.will_close:
                self.close()
            self._keep_cookies(resp.headers)
            self.stats.request(kind, resp.status, seconds)
            return Answer(resp.status, data, resp.headers, seconds)
        return None

    def double_tap(self, kind: str, path: str, fields) -> list[Answer | None]:
        """The same POST sent on two fresh connections before either answer is read."""
        method, path, body, headers = self._prepare("POST", path, fields, True)
        conns = [self._new_connection(), self._new_connection()]
        started: list[float | None] = [None, None]
        out: list[Answer | None] = [None, None]
        try:
            for i, c in enumerate(conns):
                started[i] = time.perf_counter()
                try:
                    c.request(method, path, body=body, headers=headers)
                except OSError as e:
                    started[i] = None
                    self.stats.note("no answer (connection error)", f"{kind} {path}: {e!r}")
            for i, c in enumerate(conns):
                if started[i] is None:
                    self.stats.request(kind, None, 0.0)
                    continue
                try:
                    resp = c.getresponse()
                    data = resp.read()
                except (OSError, http.client.HTTPException) as e:
                    self.stats.request(kind, None, time.perf_counter() - started[i])
                    self.stats.note("no answer (connection error)", f"{kind} {path}: {e!r}")
                    continue
                seconds = time.perf_counter() - started[i]
                self._keep_cookies(resp.headers)
                self.stats.request(kind, resp.status, seconds)
                out[i] = Answer(resp.status, data, resp.headers, seconds)
        finally:
            for c in conns:
                c.close()
        return out


# -- a referee -------------------------------------------------------------------------------------------
@dataclass
class Plan:
    table: int
    game: int
    username: str
    events: list[dict]


@dataclass
class Outcome:
    acked: list[tuple[str, dict]] = field(default_factory=list)  # (client_key, event) answered as entered
    stale_keys: list[str] = field(default_factory=list)  # stale submissions (must never be stored)
    unknown_key: str | None = None  # a move sent whose answer never came (the referee gave up)
    finished: bool = False
    stopped: str = ""  # why the referee stopped early


class Referee(threading.Thread):
    def __init__(self, run: Run, plan: Plan, seed: int):
        super().__init__(name=f"referee-{plan.table}", daemon=True)
        self.run_ = run
        self.plan = plan
        self.rng = random.Random(seed)
        self.phone = Phone(run.port, run.stats)
        self.out = Outcome()
        self.ready = threading.Event()
        self.version: int | None = None
        self.next_poll = 0.0

    # the thread
    def run(self) -> None:
        try:
            with self.run_.login_gate:
                logged_in = self.login() and self.open_console()
        except Exception as e:  # reported with the figures
            self.run_.stats.note("client exceptions", f"table {self.plan.table} login: {e!r}")
            logged_in = False
        finally:
            self.ready.set()
        if not logged_in:
            self.out.stopped = "login failed"
            return
        self.run_.go.wait()
        try:
            self.play()
        except Exception as e:  # reported with the figures
            self.run_.stats.note("client exceptions", f"table {self.plan.table}: {e!r}")
            self.out.stopped = f"exception {e!r}"
        finally:
            self.phone.close()

    @property
    def act_path(self) -> str:
        return f"/games/{self.plan.game}/act/"

    def login(self) -> bool:
        a = self.phone.request("login page", "GET", "/login/")
        if a is None or a.status != 200 or not (m := CSRF_INPUT_RE.search(a.body)):
            self.run_.stats.note("login failed", f"table {self.plan.table}: GET /login/ {a and a.status}")
            return False
        fields = {
            "csrfmiddlewaretoken": m.group(1).decode(),
            "username": self.plan.username,
            "password": PASSWORD,
            "next": f"/games/{self.plan.game}/",
        }
        a = self.phone.request("login", "POST", "/login/", fields)
        if a is None or a.status != 302 or "sessionid" not in self.phone.cookies:
            self.run_.stats.note("login failed", f"table {self.plan.table}: POST /login/ {a and a.status}")
            return False
        return True

    def open_console(self) -> bool:
        a = self.phone.request("console page", "GET", f"/games/{self.plan.game}/")
        if a is None or a.status != 200 or a.version is None:
            self.run_.stats.note("console page failed", f"table {self.plan.table}: {a and a.status}")
            return False
        self.version = a.version
        self.next_poll = time.monotonic() + self.run_.args.poll * self.rng.random()
        return True

    def stopping(self) -> bool:
        return self.run_.stop.is_set() or time.monotonic() >= self.run_.deadline

    def poll(self) -> None:
        """What the console page does every 10 s: 204 when nothing changed since its version."""
        a = self.phone.request(
            "poll", "GET", f"/games/{self.plan.game}/panel/?version={self.version}", htmx=True
        )
        if a is not None and a.status != 204:
            self.run_.stats.note("poll not 204", f"table {self.plan.table}: {a.status}")
        self.next_poll = time.monotonic() + self.run_.args.poll

    def wait_until(self, when: float) -> None:
        """Sleep until ``when``, polling the panel when due (and stopping early when told)."""
        poll = self.run_.args.poll
        while not self.stopping():
            now = time.monotonic()
            if poll and now >= self.next_poll:
                self.poll()
                continue
            if now >= when:
                return
            wake = min(when, self.next_poll) if poll else when
            self.run_.stop.wait(max(0.0, min(wake - now, 1.0)))

    def play(self) -> None:
        args, stats = self.run_.args, self.run_.stats
        pace = args.pace
        next_start = time.monotonic() + (self.rng.uniform(0, pace) if pace else 0.0)
        for event in self.plan.events:
            if pace:
                self.wait_until(next_start)
                next_start += pace * self.rng.uniform(0.5, 1.5)
            elif args.poll and time.monotonic() >= self.next_poll:
                self.poll()
            if self.stopping():
                self.out.stopped = "time limit" if not self.run_.stop.is_set() else "stopped"
                return
            if self.version and self.rng.random() < args.stale_rate and not self.stale(event):
                return
            r = self.rng.random()
            mode = ""
            if r < args.resend_rate:
                mode = "resend"
            elif r < args.resend_rate + args.double_rate:
                mode = "double"
            if not self.enter(event, mode):
                return
            stats.note("moves acknowledged")
        self.out.finished = True

    def stale(self, event: dict) -> bool:
        """A move made on an older screen: refused as stale, nothing stored; the answer shows the current
        version. False when the referee cannot go on."""
        key = uuid.uuid4().hex
        self.out.stale_keys.append(key)
        fields = {"version": self.version - 1, "client_key": key, **post_form(event)}
        a = self.submit(fields, "stale")
        if a is None:
            return False
        error = a.error or ""
        if STALE_TEXT in error and a.version == self.version:
            self.run_.stats.note("stale submissions refused")
            return True
        if a.error is None:
            self.run_.stats.note("STALE SUBMISSION APPLIED", f"table {self.plan.table} v{self.version}")
            self.out.stale_keys.pop()  # it is in the game now: count it as the move, to go on
            self.out.acked.append((key, event))
            self.version = a.version
            return False
        self.run_.stats.note(
            "stale submission answered otherwise", f"table {self.plan.table}: {error!r} v={a.version}"
        )
        return False

    def submit(self, fields: dict, kind: str) -> Answer | None:
        """POST the move; after a 5xx or no answer, tap again (same key) up to MAX_TRIES times. Returns a
        200 answer, or None (the referee gives up on this table)."""
        for attempt in range(MAX_TRIES):
            if attempt:
                time.sleep(0.5 * attempt)
            a = self.phone.request(
                kind if attempt == 0 else "retry", "POST", self.act_path, fields, htmx=True
            )
            if a is None or a.status >= 500:
                continue
            if a.status != 200:
                self.run_.stats.note(f"act answered {a.status}", f"table {self.plan.table} {kind}")
                return None
            return a
        self.out.unknown_key = fields["client_key"]
        self.run_.stats.note("moves given up after retries", f"table {self.plan.table} {kind}")
        self.out.stopped = "gave up after retries"
        return None

    def accepted(self, a: Answer, event: dict, expected: int, kind: str) -> bool:
        if a.error is not None:
            what = "unexpected stale refusal" if STALE_TEXT in a.error else "legal move refused"
            self.run_.stats.note(what, f"table {self.plan.table} {kind} {event}: {a.error}")
            return False
        if a.version != expected:
            self.run_.stats.note(
                "answer shows an unexpected version",
                f"table {self.plan.table} {kind}: {a.version} instead of {expected}",
            )
        return True

    def enter(self, event: dict, mode: str) -> bool:
        key = uuid.uuid4().hex
        fields = {"version": self.version, "client_key": key, **post_form(event)}
        expected = self.version + 1
        if mode == "double":
            answers = self.phone.double_tap("double tap", self.act_path, fields)
            good = [a for a in answers if a is not None and a.status == 200]
            for a in answers:
                if a is not None and a.status != 200 and a.status < 500:
                    self.run_.stats.note(f"act answered {a.status}", f"table {self.plan.table} double tap")
            if len(good) < 2:
                self.run_.stats.note("double taps not both answered 200")
            if not all(self.accepted(a, event, expected, "double tap") for a in good):
                self.out.stopped = "refused"
                return False
            a = good[0] if good else self.submit(fields, "act")  # neither answered: tap again
            self.run_.stats.note("double taps")
        else:
            a = self.submit(fields, "act")
        if a is None:
            self.out.stopped = self.out.stopped or "no answer"
            return False
        if not self.accepted(a, event, expected, "act"):
            self.out.stopped = "refused"
            return False
        self.out.acked.append((key, event))
        self.version = a.version if a.version is not None else expected
        if mode == "resend":
            again = self.submit(fields, "resend")
            if again is None:
                return False
            if not self.accepted(again, event, self.version, "resend"):
                self.out.stopped = "refused"
                return False
            self.run_.stats.note("resends")
        return True


# -- the run ---------------------------------------------------------------------------------------------
class Run:
    def __init__(self, args, port: int):
        self.args = args
        self.port = port
        self.stats = Stats()
        self.stop = threading.Event()
        self.go = threading.Event()
        self.login_gate = threading.Semaphore(args.login_concurrency)
        self.deadline = time.monotonic() + args.duration_limit


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_ticks(root_pid: int | None) -> dict[int, int]:
    """utime+stime (clock ticks) of a process and its children, by pid (Linux /proc)."""
    if root_pid is None:
        return {}
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry), int(fields[1])
        if pid == root_pid or ppid == root_pid:
            out[pid] = int(fields[11]) + int(fields[12])
    return out


def machine_ticks() -> tuple[int, int]:
    with open("/proc/stat") as f:
        values = [int(x) for x in f.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values), idle


def ticks_used(before: dict[int, int], after: dict[int, int]) -> int:
    return sum(t - before.get(pid, 0) for pid, t in after.items())


def server_env(tmp: Path, database_url: str | None) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not (k == "DATABASE_URL" or k == "DB" or k.startswith("DB_") or k.startswith("DJANGO_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="tournament.settings",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_DEBUG="0",
        DJANGO_HTTPS="0",
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_STATIC_ROOT=str(tmp / "static"),
        PYTHONPATH=str(ROOT),
    )
    if database_url:
        env["DATABASE_URL"] = database_url
    else:
        env["DJANGO_SQLITE_PATH"] = str(tmp / "load.sqlite3")
    return env


def create_data(args) -> list[Plan]:
    """A tournament of N tables of 4, round 1 started, each table's game started with its own referee."""
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User
    from django.db import transaction

    from tournament import rounds
    from tournament.models import Participant, Tournament

    hashed = make_password(PASSWORD)  # hashed once: the same (slow) hash for every referee
    plans = []
    with transaction.atomic():
        t = Tournament.objects.create(name="Load test", rounds=1, seed=args.seed % 1_000_000 + 1)
        Participant.objects.bulk_create(
            Participant(tournament=t, name=f"Player {i:04d}") for i in range(4 * args.tables)
        )
        round_ = rounds.seat_next_round(t)
        tables = list(round_.tables.order_by("number"))
        if len(tables) != args.tables:
            raise SystemExit(f"seated {len(tables)} tables instead of {args.tables}")
        User.objects.bulk_create(User(username=f"referee{n.number:03d}", password=hashed) for n in tables)
        users = {u.username: u for u in User.objects.filter(username__startswith="referee")}
        for table in tables:
            table.referees.set([users[f"referee{table.number:03d}"]])
        rounds.start_round(round_)
        for table in tables:
            user = users[f"referee{table.number:03d}"]
            order = list(table.seats.order_by("order").values_list("participant_id", flat=True))
            game = rounds.start_table_game(table, order, user)
            record = simulate(
                t.variant,
                t.board,
                len(order),
                seed=args.seed * 10_000 + table.number,
                max_events=args.moves_per_table,
            )
            if record["options"] != game.options:
                raise SystemExit(f"simulated options {record['options']} != the game's {game.options}")
            plans.append(Plan(table.number, game.pk, user.username, record["events"][: args.moves_per_table]))
    return plans


def subset(small, big) -> bool:
    """Every field of the submitted event is in the stored one (which adds defaults such as count: 1)."""
    if isinstance(small, dict):
        return isinstance(big, dict) and all(subset(v, big.get(k)) for k, v in small.items())
    if isinstance(small, (list, tuple)):
        return isinstance(big, (list, tuple)) and len(small) == len(big) and all(map(subset, small, big))
    return small == big


def verify(referees: list[Referee]) -> dict:
    """Each game's log against what its referee was told, and a replay against the stored state."""
    from ledger import Ledger
    from rules import replay
    from rules.snapshot import dump_state
    from tournament import moves
    from tournament.models import Game, GameEvent

    v = Counter()
    examples = defaultdict(list)

    def bad(what, text, n=1):
        v[what] += n
        if len(examples[what]) < 5:
            examples[what].append(text)

    for ref in referees:
        game = Game.objects.get(pk=ref.plan.game)
        rows = list(moves.active_events(game).values_list("client_key", "data"))
        if GameEvent.objects.filter(game=game).count() != len(rows):
            bad("events not active", f"table {ref.plan.table}")
        stored = [k for k, _ in rows]
        acked = [k for k, _ in ref.out.acked]
        acked_set, stored_set = set(acked), set(stored)
        unknown = ref.out.unknown_key
        lost = [k for k in acked if k not in stored_set]
        extra = [k for k in stored if k not in acked_set and k != unknown]
        doubled = len(extra) + (len(stored) - len(stored_set))
        v["moves acknowledged"] += len(acked)
        v["events stored"] += len(stored)
        if unknown is not None and unknown in stored_set:
            v["unanswered move stored (answer lost, then given up)"] += 1
        if lost:
            bad("lost", f"table {ref.plan.table}: {len(lost)} acknowledged, not stored", len(lost))
        if doubled:
            bad("doubled", f"table {ref.plan.table}: {doubled} stored beyond the acknowledged", doubled)
        stale_stored = [k for k in ref.out.stale_keys if k in stored_set]
        if stale_stored:
            bad("stale submissions stored", f"table {ref.plan.table}: {len(stale_stored)}")
        if not lost and not extra and [k for k in stored if k != unknown] != acked:
            bad("out of order", f"table {ref.plan.table}")
        by_key = dict(rows)
        for k, event in ref.out.acked:
            if k in by_key and not subset(event, by_key[k]):
                bad("stored data differs", f"table {ref.plan.table}: sent {event}, stored {by_key[k]}")
        if game.version != len(stored):
            bad("version != events", f"table {ref.plan.table}: version {game.version}, {len(stored)} events")
        record = moves.record_of(game)
        result = replay(record, keep=True)
        if result.error is not None:
            bad("replay mismatches", f"table {ref.plan.table}: replay error {result.error}")
            continue
        if dump_state(result.state) != dump_state(moves.current_state(game)):
            bad("replay mismatches", f"table {ref.plan.table}: replayed state != stored snapshot")
            continue
        ledger = Ledger([p["id"] for p in record["players"]], result.state.variant.starting_cash)
        for i, out in enumerate(result.outcomes):
            ledger.post(i, out.movements)
        totals = {pid: [ledger.income(pid), ledger.cost(pid)] for pid in ledger.players}
        if totals != game.ledger:
            bad("replay mismatches", f"table {ref.plan.table}: ledger {game.ledger} != replayed {totals}")
    for k in ("lost", "doubled", "replay mismatches"):
        v.setdefault(k, 0)
    return {"counts": v, "examples": examples}


def start_gunicorn(args, env, port, log_path) -> subprocess.Popen:
    command = [
        sys.executable, "-m", "gunicorn", "tournament.wsgi:application",
        "-b", f"127.0.0.1:{port}", "-k", "gthread",
        "--workers", str(args.workers), "--threads", str(args.threads),
    ]  # fmt: skip
    log = open(log_path, "ab")  # noqa: SIM115 (kept open by the child)
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True)
    log.close()
    give_up = time.monotonic() + 60
    while time.monotonic() < give_up:
        if proc.poll() is not None:
            raise SystemExit(f"gunicorn exited with {proc.returncode}: see {log_path}")
        with contextlib.suppress(OSError):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/login/")
            status = c.getresponse().status
            c.close()
            if status == 200:
                return proc
        time.sleep(0.2)
    stop_process(proc)
    raise SystemExit(f"gunicorn did not answer within 60 s: see {log_path}")


def stop_process(proc: subprocess.Popen | None) -> None:
    """Stop gunicorn (started here, in its own session): TERM, then KILL its process group."""
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def log_findings(log_path: Path) -> tuple[Counter, str]:
    text = log_path.read_text(errors="replace") if log_path.exists() else ""
    found = Counter()
    for needle in ("Traceback", "database is locked", "WORKER TIMEOUT", "Internal Server Error",
                   "OperationalError", "IntegrityError", "Forbidden (CSRF", "Booting worker"):  # fmt: skip
        found[needle] = text.count(needle)
    first = ""
    i = text.find("Traceback")
    if i >= 0:
        start = text.rfind("\n", 0, max(0, i - 300)) + 1
        first = "\n".join(text[start:].splitlines()[:60])
    return found, first


def ms(x: float) -> str:
    return f"{x * 1000:9.1f}"


def report(run: Run, referees, wall: float, cpu: dict, verification: dict | None, log: tuple) -> bool:
    args, stats = run.args, run.stats
    acked = sum(len(r.out.acked) for r in referees)
    planned = sum(len(r.plan.events) for r in referees)
    print()
    print(f"move phase: {wall:.1f} s wall, {acked} of {planned} moves acknowledged")
    rate = f"{acked / wall:.1f}" if wall > 0 else "n/a"
    offered = f" (offered at this pace: ~{len(referees) / args.pace:.1f} moves/s)" if args.pace else ""
    print(f"moves/s: {rate}{offered}")
    print()
    print(f"{'latency (ms)':<16}{'count':>8}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}")
    order = ["act", "resend", "double tap", "stale", "retry", "poll", "login", "login page", "console page"]
    for kind in order + sorted(set(stats.latency) - set(order)):
        values = stats.latency.get(kind)
        if values:
            print(
                f"{kind:<16}{len(values):>8}{ms(percentile(values, 50))}{ms(percentile(values, 95))}"
                f"{ms(percentile(values, 99))}{ms(max(values))}"
            )
    five = sum(n for s, n in stats.status.items() if isinstance(s, int) and s >= 500)
    statuses = ", ".join(f"{s}: {n}" for s, n in sorted(stats.status.items(), key=lambda x: str(x[0])))
    print()
    print(f"HTTP statuses: {statuses}")
    print(f"5xx: {five}")
    print("events: " + ", ".join(f"{k}: {n}" for k, n in sorted(stats.count.items())))
    for what, ex in stats.examples.items():
        for e in ex[:3]:
            print(f"  e.g. {what}: {e}")
    stopped = Counter(r.out.stopped for r in referees if not r.out.finished)
    if stopped:
        print(
            "tables not played to the end: " + ", ".join(f"{why or '?'}: {n}" for why, n in stopped.items())
        )
    if cpu:
        cores = os.cpu_count() or 1
        pct = lambda ticks: 100 * ticks / cpu["hz"] / wall if wall else 0  # noqa: E731
        print(
            f"CPU during the move phase ({cores} cores = {cores * 100}%): "
            f"machine busy {cpu['machine']:.0f}%, "
            f"gunicorn {pct(cpu['gunicorn']):.0f}% (by process: "
            f"{' '.join(f'{pct(t):.0f}%' for t in cpu['per process'])}), "
            f"postgres {pct(cpu['postgres']):.0f}%, "
            f"this client {100 * cpu['client'] / wall:.0f}%; load average after: {cpu['load']}"
        )
        if acked:
            server_ms = 1000 * (cpu["gunicorn"] + cpu["postgres"]) / cpu["hz"] / acked
            print(
                f"server CPU per acknowledged move (its requests, gunicorn + postgres): {server_ms:.1f} ms"
                f" -> at most ~{cores * 1000 / server_ms:.0f} moves/s on {cores} otherwise idle cores"
            )
    found, first = log
    print("gunicorn log: " + ", ".join(f"{k!r}: {n}" for k, n in found.items()))
    if first:
        print("first traceback in the gunicorn log:\n" + first)
    ok = five == 0
    if verification is not None:
        c = verification["counts"]
        print()
        print(
            f"verified {len(referees)} games in the database: {c['moves acknowledged']} moves acknowledged, "
            f"{c['events stored']} events stored"
        )
        print(f"lost: {c['lost']}, doubled: {c['doubled']}, replay mismatches: {c['replay mismatches']}")
        others = {k: n for k, n in c.items() if k not in ("moves acknowledged", "events stored", "lost",
                                                          "doubled", "replay mismatches")}  # fmt: skip
        if others:
            print("other findings: " + ", ".join(f"{k}: {n}" for k, n in others.items()))
        for what, ex in verification["examples"].items():
            for e in ex[:3]:
                print(f"  e.g. {what}: {e}")
        ok = ok and all(
            n == 0
            for k, n in c.items()
            if k not in ("moves acknowledged", "events stored") and not k.startswith("unanswered")
        )
    else:
        ok = False
    client_errors = sum(
        n for k, n in stats.count.items()
        if k in ("legal move refused", "unexpected stale refusal", "STALE SUBMISSION APPLIED",
                 "stale submission answered otherwise", "client exceptions", "login failed",
                 "moves given up after retries", "double taps not both answered 200",
                 "answer shows an unexpected version", "poll not 204", "console page failed")
        or k.startswith("act answered")
    )  # fmt: skip
    ok = ok and client_errors == 0
    print()
    print("RESULT: " + ("PASS" if ok else "FAIL"))
    return ok


def parse_args(argv=None):
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    p.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    p.add_argument("--tables", type=int, default=60)
    p.add_argument("--pace", type=float, default=3.0, help="seconds between a table's moves (0 = flat out)")
    p.add_argument("--moves-per-table", type=int, default=60)
    p.add_argument("--workers", type=int, default=3)
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--duration-limit", type=float, default=600, help="seconds overall, then referees stop")
    p.add_argument("--poll", type=float, default=10, help="panel polling every S s as the console (0 = off)")
    p.add_argument("--resend-rate", type=float, default=0.05)
    p.add_argument("--double-rate", type=float, default=0.05)
    p.add_argument("--stale-rate", type=float, default=0.05)
    p.add_argument("--login-concurrency", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--keep", action="store_true", help="keep the temporary directory (SQLite file, gunicorn log)"
    )
    args = p.parse_args(argv)
    if not 1 <= args.tables <= MAX_TABLES:
        p.error(f"--tables must be 1..{MAX_TABLES}")
    if not 1 <= args.moves_per_table <= 1000:
        p.error("--moves-per-table must be 1..1000")
    if not (1 <= args.workers <= 16 and 1 <= args.threads <= 64):
        p.error("--workers 1..16, --threads 1..64")
    if not 1 <= args.duration_limit <= 3600:
        p.error("--duration-limit must be 1..3600 s")
    if args.pace < 0 or args.poll < 0 or args.resend_rate + args.double_rate > 1:
        p.error("bad --pace, --poll or rates")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="monopoly-load-"))
    log_path = tmp / "gunicorn.log"
    pg = proc = None
    ok = False

    def terminate(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    try:
        database_url = None
        if args.db == "postgres":
            from tests.pgserver import Server

            pg = Server(durable=True, max_connections=max(300, args.workers * args.threads + 20))
            pg.start()
            pg.create_database("loadtest")
            database_url = pg.url("loadtest")
        env = server_env(tmp, database_url)
        for k in [k for k in os.environ if k in ("DATABASE_URL", "DB") or k.startswith(("DB_", "DJANGO_"))]:
            del os.environ[k]
        os.environ.update({k: v for k, v in env.items() if k.startswith(("DJANGO_", "DATABASE_URL"))})
        print(
            f"event-day load test: {args.db}, {args.tables} tables x {args.moves_per_table} moves, "
            f"pace {'flat out' if not args.pace else f'{args.pace:g} s per move per table'}, "
            f"gunicorn gthread {args.workers} workers x {args.threads} threads on 127.0.0.1, "
            f"resend {args.resend_rate:.0%} / double tap {args.double_rate:.0%} / "
            f"stale {args.stale_rate:.0%}, "
            f"poll every {args.poll:g} s, seed {args.seed}, time limit {args.duration_limit:g} s"
        )
        print(f"machine: {os.cpu_count()} cores, load average before: {os.getloadavg()}")
        t_setup = time.monotonic()
        for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True)
        import django

        django.setup()
        from django.db import connections

        plans = create_data(args)
        connections.close_all()
        port = free_port()
        proc = start_gunicorn(args, env, port, log_path)
        print(f"set-up: {time.monotonic() - t_setup:.1f} s; gunicorn pid {proc.pid} on 127.0.0.1:{port}")

        run = Run(args, port)
        referees = [Referee(run, plan, seed=args.seed * 100_003 + plan.table) for plan in plans]
        t_login = time.monotonic()
        for r in referees:
            r.start()
        try:
            for r in referees:
                r.ready.wait(timeout=max(0.0, run.deadline - time.monotonic()))
            print(f"logins: {time.monotonic() - t_login:.1f} s for {len(referees)} referees")
            hz = os.sysconf("SC_CLK_TCK")
            pg_pid = None
            if pg is not None:
                with contextlib.suppress(OSError, ValueError):
                    pg_pid = int((pg.data / "postmaster.pid").read_text().split()[0])
            before = (
                cpu_ticks(proc.pid),
                cpu_ticks(pg_pid),
                machine_ticks(),
                resource.getrusage(resource.RUSAGE_SELF),
            )
            t0 = time.monotonic()
            run.go.set()
            for r in referees:
                r.join(timeout=max(1.0, run.deadline - time.monotonic()))
            run.stop.set()  # the time limit: stop the referees still going
            for r in referees:
                r.join(timeout=REQUEST_TIMEOUT_S * MAX_TRIES)
            wall = time.monotonic() - t0
            total, idle = machine_ticks()
            usage = resource.getrusage(resource.RUSAGE_SELF)
            cpu = {
                "hz": hz,
                "gunicorn": ticks_used(before[0], after_gunicorn := cpu_ticks(proc.pid)),
                "per process": sorted(
                    (t - before[0].get(pid, 0) for pid, t in after_gunicorn.items()), reverse=True
                ),
                "postgres": ticks_used(before[1], cpu_ticks(pg_pid)),
                "machine": 100
                * (os.cpu_count() or 1)
                * (1 - (idle - before[2][1]) / max(1, total - before[2][0])),
                "client": (usage.ru_utime + usage.ru_stime) - (before[3].ru_utime + before[3].ru_stime),
                "load": tuple(round(x, 2) for x in os.getloadavg()),
            }
        except KeyboardInterrupt:
            run.stop.set()
            raise
        stop_process(proc)
        if any(r.is_alive() for r in referees):
            print("warning: some referees were still waiting for an answer when gunicorn was stopped")
        verification = verify(referees)
        connections.close_all()
        ok = report(run, referees, wall, cpu, verification, log_findings(log_path))
    except KeyboardInterrupt:
        print("interrupted")
    finally:
        stop_process(proc)
        if pg is not None:
            pg.stop()
        if ok and not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"kept: {tmp} (gunicorn log: {log_path})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
