"""Event-day load test (prints figures and a verdict; not a pytest test — tests/test_load_event_day.py tests
its verdict, and runs it once, small, with ``--slow``).

    python tests/load_event_day.py --db sqlite --tables 60 --pace 3
    python tests/load_event_day.py --db sqlite --tables 60 --pace 0
    python tests/load_event_day.py --db postgres --tables 250 --pace 3 --workers 4 --threads 8
    python tests/load_event_day.py --db postgres --tables 250 --pace 0 --workers 4 --threads 8
    python tests/load_event_day.py --db postgres --tables 20 --pace 2 --servers 2 --kill-one-at 20
    python tests/load_event_day.py --db postgres --tables 500 --pace 5 --spectators 1000

The app is served by gunicorn (gthread) on 127.0.0.1 only, from a fresh database in a temporary directory
(SQLite, or a throw-away PostgreSQL cluster: ``tests/pgserver.py``, durable as on an event day). One
tournament of N tables of 4 (no time limit per game, no move clock: a game ends by its rules or by the
director), round 1 started, each table's game started, each table with its own referee; two more tables are
seated but not started (the director's). Each referee (a thread with its own keep-alive HTTP connection and
cookies) logs in through the login page, opens the console, then enters the first M moves of a simulated
game (``rules.simulate``, one seed per table) the way the console does (an HTMX POST of the form's fields with
the game's version and a fresh ``client_key``), one move every --pace s on average (a schedule drawn before
the start), polling the panel every 10 s as the console page does. Mixed in at seeded rates:

- RESEND: the same request again after the first was answered (must be 200, nothing stored twice);
- DOUBLE TAP: the same request on two connections at once (both 200, stored once);
- STALE: a move made on an older version with a new key (refused "Another device entered a move
  meanwhile", nothing stored); the referee then submits the real move on the version that answer shows.

A 5xx or a connection error is answered the way a referee does: tap again (the same form: the same key); a
page or a poll is asked again.

At some tables, what an event day also brings (unless --plain), each through the pages' own URLs and fields:

- TWO PHONES (tables 2, 10, 18, …): a second referee's phone sends a different roll at the same moment as
  the first phone's move; one is stored, the other refused as stale. The refused phone reloads the console
  and goes on; if the wrong roll was the one stored, it is undone first (with a reason).
- UNDO (tables 3, 11, …): a move undone with a reason, the undo resent (nothing more undone), the move
  entered again.
- VOID (tables 4, 12, …): a wrong extra move (a small cash trade the game did not have), the next move,
  then the wrong one voided with a reason from its void form; the game is replayed without it.
- THE DIRECTOR (one more thread, a staff account): during play marks a player absent at a table not started
  and moves another there, views the round page, a table page, the standings PDF and the workbook every
  --director-every s, and stops the game at table 1 (its stop form) halfway through the referee's moves. That
  referee, refused or polled into the stopped game, confirms its result; an undo is then refused (the game is
  read-only); the director reopens the result (a reason) and the referee confirms it again.

THE PHONES AT THE ROUND'S END (--spectators N; 0, the default: none): when the last referee is done (every
table played to its end, its last move acknowledged), N phones each reload the tournament's public standings
page once (``/tournaments/<id>/standings/``, no login): each on an HTTP connection of its own, without
cookies, the page alone (its styles and script have hashed names cached forever: a reload does not ask for
them again). Their taps are drawn (seeded) uniformly over the --spectator-window s (10) from the round's end;
--spectator-concurrency client threads (64) send them, each the earliest tap not yet sent, and a phone's time
is counted from its tap: a tap that waited for a free thread waited as that phone would. Behind HAProxy
(--servers) they go through it as the referees do. The move phase's figures (moves/s, CPU) end at the round's
end; the phones have figures of their own: requests, statuses, connection errors, p50/p95/p99/max from the
tap, when the last phone had its page, the CPU used until then.

THE EVENT STREAMS (--streams N; 0, the default: none): uvicorn (``tournament.asgi``, --stream-workers
processes) beside gunicorn on a port of its own, with the same environment, its own log and process group, as
in production (README: ``/events/`` routed to it). Before the referees log in, N streams are opened, spread
round-robin over the tables, each at a participant's page's address (``/tournaments/<id>/events/?table=<pk>``:
the tournament's topic and his table's), --stream-open-concurrency at a time (a connection, the headers, the
first event), all held by one client thread: an asyncio loop with a plain HTTP/1.1 GET each
(``asyncio.open_connection``; the chunked body and the Server-Sent Events read by hand: ``body_chunks``,
``SseParser``). Each event that tells its table's game's version is kept with its arrival (monotonic time).
The referees keep each change they were answered as stored (a move, an undo, a void: the game's version after
it, and when its answer came). Afterwards, for each such change and each stream of its table: the delay from
the referee's answer to the stream's event of that version (negative when the event came first: the server
announces a move at its commit, before the referee has read the answer), or, when no event of that version
came, "coalesced" if a later version did (two changes read at once: the page reads itself anew all the same)
and "missing" otherwise. After the last referee the streams get --stream-drain s (10) to show every game's
last version. Printed: the delays (p50/p95/p99/max), the share delivered or coalesced, the events and the
heartbeats, the memory of uvicorn's and gunicorn's processes (the sum of their VmRSS, sampled every second of
the move phase: the most) and the CPU uvicorn used. Note that the streams' client shares this process (and its
GIL) with the referees: on a busy machine an arrival is read a little late, never early.

Afterwards, with gunicorn stopped, every game is read from the database: its active events must be exactly
the acknowledged moves less the undone and voided ones (stored as such, with their reasons), in order, each
once (lost / doubled), plus the director's stop at table 1; the stored snapshot and the ledger totals must
equal a replay of the game record, and the version the number of changes; the director's absent, move, stop,
reopen and the results are checked in the database too.

Prints moves/s, latency percentiles by kind of request, HTTP statuses, connection errors, CPU use of the
server, the database and this client during the move phase, and what the gunicorn log says; then each
criterion with its figure and limit, and ``RESULT: PASS`` (exit status 0) only when every one holds:

- 5xx: none;
- connection errors: none (a request without an answer, an answer cut short, a keep-alive connection closed
  under a request — each is counted even when the referee's tap again succeeded; tolerance
  --connection-error-tolerance, 0 by default: on 127.0.0.1 a healthy server drops no connection, so one means
  a worker killed, restarted or overwhelmed, and on an event day a referee tapping again);
- the gunicorn log: no traceback, no worker timeout or restart, no "database is locked", no error or warning
  line (only gunicorn's INFO lines);
- every table played to the end: all its M moves entered (or its game over before), none stopped by the run's
  --duration-limit, none given up after retries, none refused;
- no game ended by a time limit or the move clock (only table 1's, by the director's stop);
- pace (when --pace > 0): the moves acknowledged per second at least --pace-fraction (90 %) of the rate the
  referees' schedule offered (its moves over its span: about tables / pace, less for a short run whose
  start is spread over one pace and whose last table ends after the average);
- latency of the move requests (act, retry, resend, double tap, stale, two phones, undo, void): p95 at most
  --p95-limit (500 ms), p99 at most --p99-limit (2000 ms) — ten times what an idle 2-core machine answers;
- integrity: no lost, doubled, out-of-order or mismatched move, no replay mismatch, the director's changes
  stored as done;
- no anomaly on the client's side (a legal move refused, a stale move applied, a poll that was not 204, a
  page or a form answered otherwise than expected, …);
- with --spectators N, the standings for the phones: every one of the N answered 200 with the standings table
  (no 5xx, no connection error, none unsent);
- with --streams N, the event streams: every one connected (HTTP 200, an event stream, its first event
  within 30 s), none closed early by the server (or silent for longer than two heartbeats), no unreadable
  event or one of another table; uvicorn's log clean (nothing at all: it logs warnings and errors only);
- with --streams N, the moves on the streams: at least 99 % of the (change, stream) pairs delivered or
  coalesced (the delays are printed, not judged);
- with --spectators N, the standings in time: the last phone had its page at most --spectator-window +
  --spectator-limit s (10 + 10) after the round's end, i.e. at most --spectator-limit s after the last tap
  could come (``--spectator-window 5 --spectator-limit 5``: every phone served within 10 s of the round's
  end).

SEVERAL SERVERS (--servers N, N >= 2; docs/scaling.md): N gunicorns, each on its own port with its own log
(its control socket beside it: gunicorn 24+) and process group, behind an HAProxy from Debian (``apt-get
install haproxy``; refused with that line when missing) that balances them (--balance, leastconn by default),
checks their health and sends again only what no server received (``haproxy_config``); the servers read the
phone's address from its X-Forwarded-For (DJANGO_BEHIND_PROXY=1). --kill-one-at S (or P% of the referees'
schedule) kills the first server's master and workers at once (``kill -9`` of its process group) S s into the
move phase, at a moment when requests are in flight. Every failed request (a 5xx, a connection error) is kept
with its time: those within --kill-window s of the kill are the kill's, judged apart ("a server killed": each
answered by tapping again, moves acknowledged after the kill, the other servers still up); any other still
fails "5xx answers" or "connection errors". Behind HAProxy, "every server served" checks that each was sent
requests. With PostgreSQL, the connections the servers hold are counted. With --streams, each gunicorn has
its uvicorn beside it (a machine runs both) and HAProxy sends the streams' addresses to the uvicorns (a
backend of their own, leastconn); the kill takes the first machine's uvicorn too, and the phones' streams it
held come back as a browser's EventSource does: after the server's ``retry``, the same address with the last
event's id (``Last-Event-ID``), to a server left, which sends at once what changed meanwhile. "Streams through
the kill": connections were cut, all within the kill window, and each was answered again (the gaps printed);
the moves meanwhile are judged by "moves on the streams" as any (coalesced into the event the stream resumed
with, not missing).

The temporary directory with the SQLite file and the gunicorn log is kept after a FAIL (or with --keep).

Bounded: at most 500 tables, --duration-limit seconds overall (default 600) after which referees stop (and the
run fails: its tables were not played to the end). Referees log in first (a phase of its own,
--login-concurrency at a time; PBKDF2 makes each login cost about 0.2 s of server CPU), then all start
together: moves/s and the move latencies are of the move phase only. Note that this client runs on the same
machine as the server: its CPU use is printed with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import contextlib
import csv
import functools
import html
import http.client
import io
import json
import os
import queue
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
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.simulate import simulate  # noqa: E402

MAX_TABLES = 500
EXTRA_TABLES = 2  # seated, not started: the director's absent and move
PASSWORD = "load-test-" + secrets.token_hex(4)
REQUEST_TIMEOUT_S = 60
KEEPALIVE_REUSE_S = 1.0  # gunicorn closes idle keep-alive connections after 2 s: reuse only fresher ones
MAX_TRIES = 5  # a referee taps again after a 5xx or a lost answer, then gives up on the table
STALE_TEXT = "Another device changed the game meanwhile"
GAME_OVER_TEXT = "The game is over"
CLOSED_TEXT = "This table's result is confirmed"
CONSOLE_DATA_RE = re.compile(rb'<script id="console-data" type="application/json">(.*?)</script>', re.S)
ERROR_RE = re.compile(rb'<p class="error"[^>]*>(.*?)</p>', re.S)
NOTICE_RE = re.compile(rb'<p class="notice"[^>]*>(.*?)</p>', re.S)
# the move just made: "#12", or "#10–#12" for the moves one tap entered together (the last is the latest)
JUST_NOW_RE = re.compile(rb'class="just-now"[^>]*>\s*<p[^>]*><span class="muted">(?:#\d+[^#<]*)?#(\d+)<')
MESSAGE_RE = re.compile(rb'<p class="msg[^"]*"[^>]*>(.*?)</p>', re.S)
FINISHED_RE = re.compile(rb'<section class="now finished">')
CSRF_INPUT_RE = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
STANDINGS_TABLE_RE = re.compile(rb'<table[^>]*class="standings"')  # the public standings' table
RETRYABLE = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError, ConnectionAbortedError)
#: The statuses of an answered request of the outbox: taken (200), refused as stale or closed (409), by the
#: rules (422), each saying why (tournament/console/sync.py).
ANSWERED = (200, 409, 422)
#: the requests that enter or change moves: the latency criterion is theirs
MOVE_KINDS = ("act", "retry", "resend", "double tap", "stale", "two phones", "undo", "void")
# gunicorn's keep-alive behind HAProxy: longer than HAProxy keeps an idle connection to it, so that HAProxy
# never sends a request on a connection gunicorn is closing (it would close the phone's connection unanswered)
BEHIND_HAPROXY_KEEPALIVE_S = 30
KILL_IN_FLIGHT = 2  # the kill waits for this many requests in flight
HEALTH_PATH = "/login/"  # what the load balancer's health checks ask: a page of the app, cheap
STREAM_OPEN_TIMEOUT_S = 30  # a stream's connection, headers and first event (--streams)
STREAM_SILENCE_S = 40  # a stream that said nothing this long (two heartbeats and more) is dead


# -- figures ---------------------------------------------------------------------------------------------
@dataclass
class Failure:
    """A request answered 5xx, or not answered (a connection error), and when: the kill's accounting tells
    those the kill of a server caused from the others, and whether tapping again answered each."""

    at: float  # time.monotonic() when it failed
    what: int | str  # the HTTP status, or the kind of connection error
    answered: bool = False  # the same request, sent again, was answered
    key: str | None = None  # the client_key of the form it sent, if any


class Stats:
    """Everything the referees and the director measure, behind one lock: latencies and statuses by kind of
    request, what happened (``note``), what went wrong on the client's side (``anomaly``), the connection
    errors (``connection_error``), each with a few examples, and every failed request with its time."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.status: Counter = Counter()
        self.count: Counter = Counter()
        self.anomalies: Counter = Counter()
        self.connection: Counter = Counter()
        self.examples: dict[str, list[str]] = defaultdict(list)
        self.failures: list[Failure] = []
        self.in_flight = 0  # requests sent, not yet answered (the kill waits for some)

    def _failure(self, what: int | str) -> Failure:
        failure = Failure(time.monotonic(), what)
        self.failures.append(failure)
        return failure

    def request(self, kind: str, status: int | None, seconds: float) -> Failure | None:
        """Counts a request; a 5xx answer is a failure too (no answer: see ``connection_error``)."""
        with self.lock:
            self.latency[kind].append(seconds)
            self.status[status if status is not None else "no answer"] += 1
            return self._failure(status) if status is not None and status >= 500 else None

    def flying(self, n: int) -> None:
        with self.lock:
            self.in_flight += n

    def _example(self, what: str, example: str | None) -> None:
        if example is not None and len(self.examples[what]) < 5:
            self.examples[what].append(example)

    def note(self, what: str, example: str | None = None, n: int = 1) -> None:
        with self.lock:
            self.count[what] += n
            self._example(what, example)

    def anomaly(self, what: str, example: str | None = None) -> None:
        with self.lock:
            self.anomalies[what] += 1
            self._example(what, example)

    def connection_error(self, what: str, example: str | None = None) -> Failure:
        with self.lock:
            self.connection[what] += 1
            self._example(what, example)
            return self._failure(what)


def percentile(values: list[float], p: float) -> float:
    """Linear interpolation between closest ranks (p in 0..100)."""
    if not values:
        return float("nan")
    s = sorted(values)
    k = (len(s) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


# -- the verdict (pure: tests/test_load_event_day.py feeds it) ------------------------------------------
@dataclass
class Limits:
    p95_s: float = 0.5
    p99_s: float = 2.0
    pace_fraction: float = 0.9
    connection_errors: int = 0
    spectator_limit_s: float = 10.0  # the phones' last answer at most this long after their window's end
    stream_delivery: float = 0.99  # of the (change, stream) pairs delivered or coalesced at least


@dataclass
class Tally:
    """What a run measured, as the verdict reads it."""

    tables: int
    workers: int
    moves_acked: int = 0  # the planned moves acknowledged (each once, even when undone and entered again)
    move_phase_s: float = 0.0  # from the start to the last planned move's answer
    offered_rate: float | None = None  # moves/s the referees' schedule offered; None: flat out
    move_latencies: list[float] = field(default_factory=list)  # seconds, every move request
    statuses: Counter = field(default_factory=Counter)  # HTTP status (or "no answer") -> requests
    connection: Counter = field(default_factory=Counter)  # connection errors and cut answers, by kind
    anomalies: Counter = field(default_factory=Counter)  # what went wrong on the client's side
    not_finished: Counter = field(default_factory=Counter)  # tables not played to the end, by why
    ended_on_time: int = 0  # games ended by a time limit or the move clock (not the director's stop)
    integrity: Counter | None = None  # lost, doubled, replay mismatches, …; None: not verified
    # --servers 2 or more with --kill-one-at: one server killed during the move phase
    kill_asked: bool = False
    kill_at: float | None = None  # s from the start of the move phase; None: no server was killed
    kill_window_s: float = 10.0  # the failures this long after the kill are the kill's
    failures: list[tuple[float, int | str, bool]] = field(default_factory=list)  # (s, what, answered)
    acked_after_kill: int = 0  # planned moves acknowledged after the kill (by the servers left)
    committed_unanswered: int | None = None  # moves stored before the kill whose answer the kill took
    others_up: bool = True  # every server but the killed one still running at the end
    sent: dict[str, int] | None = None  # behind HAProxy: the requests it sent each server
    # --spectators N: N phones reload the public standings at the round's end; 0: none (no criterion)
    spectators: int = 0
    spectator_window_s: float = 10.0  # their taps drawn over this long from the round's end
    reloads: list[Reload] = field(default_factory=list)  # what each phone got
    # --streams N: N event streams held open on uvicorn during the run; 0: none (no criterion)
    streams: int = 0
    stream_failures: Counter = field(default_factory=Counter)  # streams not opened, by why
    streams_closed_early: Counter = field(default_factory=Counter)  # streams the server ended, by how
    stream_bad_events: Counter = field(default_factory=Counter)  # unreadable, or of another table
    delivery: Delivery | None = None  # the referees' changes on the streams of their tables
    stream_log: str = ""  # uvicorn's log
    # with a kill: each stream's connection cut and opened again, (s into the move phase of the cut, s it took
    # to be answered again or None when it was not)
    stream_cuts: list[tuple[float, float | None]] = field(default_factory=list)


@dataclass
class Reload:
    """One phone's reload of the public standings at the round's end (--spectators)."""

    start: float  # s after the round's end: when the phone tapped (its time drawn before the run)
    seconds: float  # from the tap to the whole answer read (or the error): waiting for a client thread counts
    status: int | str  # the HTTP status, or the kind of connection error
    standings: bool = True  # the answer showed the standings table

    @property
    def done(self) -> float:
        """s after the round's end when the phone had its answer."""
        return self.start + self.seconds


def in_kill_window(at: float, kill_at: float | None, window_s: float) -> bool:
    """Whether a request that failed ``at`` s into the move phase failed because of the kill: from the kill
    (a request in flight on the killed server fails at once, its connection reset) until the load balancer
    has stopped sending to it (its health checks, a few seconds) and the last retries are through."""
    return kill_at is not None and kill_at <= at <= kill_at + window_s


def kill_failures(tally: Tally) -> list[tuple[float, int | str, bool]]:
    """The failed requests the kill caused (see ``in_kill_window``)."""
    return [f for f in tally.failures if in_kill_window(f[0], tally.kill_at, tally.kill_window_s)]


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


LOG_LINE_RE = re.compile(r"^\[[^\]]+\] \[\d+\] \[(\w+)\] ")


def log_findings(text: str, workers: int = 0) -> Counter:
    """What the gunicorn log says beyond gunicorn's INFO lines: tracebacks, worker timeouts, workers booted
    again (one died or was killed), "database is locked", error lines (gunicorn's ERROR and CRITICAL,
    Django's "Internal Server Error"…) and any other line (a warning, Django's "Not Found: …", "Forbidden
    (CSRF …)")."""
    found = Counter()
    in_traceback = False
    for line in text.splitlines():
        if not line.strip():
            continue
        m = LOG_LINE_RE.match(line)
        level = m.group(1) if m else None
        if level == "INFO":
            in_traceback = False
            if "Booting worker" in line:
                found["workers booted"] += 1
            continue
        if "Traceback (most recent call last)" in line:
            found["tracebacks"] += 1
            in_traceback = True
            continue
        if "WORKER TIMEOUT" in line:
            found["worker timeouts"] += 1
        elif "database is locked" in line:
            found["database is locked"] += 1
        elif level in ("ERROR", "CRITICAL") or "Error" in line or "error" in line:
            if not (in_traceback and line[:1].isspace()):
                found["error lines"] += 1
        elif in_traceback and (line[:1].isspace() or line.startswith("During handling")):
            continue  # the traceback's frames and code
        else:
            found["other lines"] += 1
        if m:
            in_traceback = False
    booted = found.pop("workers booted", 0)
    if booted > workers:
        found["workers booted again"] = booted - workers
    return found


def verdict(tally: Tally, log_text: str, limits: Limits | None = None) -> list[Check]:
    """Each criterion of the run, with its figure and its limit; PASS is every one ``ok``."""
    limits = limits or Limits()

    def listed(counter: Counter) -> str:
        return ", ".join(f"{k}: {n}" for k, n in sorted(counter.items(), key=lambda x: str(x[0])) if n)

    checks = []
    killed = kill_failures(tally)
    killed_5xx = Counter(f[1] for f in killed if isinstance(f[1], int))
    killed_conn = Counter(f[1] for f in killed if isinstance(f[1], str))

    def besides_the_kill(n: int) -> str:
        return f"; {n} more in the kill window, judged below" if n else ""

    fives = Counter({s: n for s, n in tally.statuses.items() if isinstance(s, int) and s >= 500})
    five = sum((fives - killed_5xx).values())
    checks.append(Check("5xx answers", five == 0, f"{five} (limit 0)" + besides_the_kill(killed_5xx.total())))
    connection = tally.connection - killed_conn
    conn = connection.total()
    checks.append(
        Check(
            "connection errors",
            conn <= limits.connection_errors,
            f"{conn} (limit {limits.connection_errors}){': ' + listed(connection) if conn else ''}"
            + besides_the_kill(killed_conn.total()),
        )
    )
    if tally.sent is not None:
        idle = [name for name, n in tally.sent.items() if n == 0]
        checks.append(
            Check(
                "every server served",
                not idle,
                ", ".join(f"{name}: {n} requests" for name, n in tally.sent.items())
                + " (limit: more than 0 each)",
            )
        )
    if tally.kill_asked and tally.kill_at is None:
        checks.append(Check("a server killed", False, "no server was killed (the run ended before)"))
    elif tally.kill_at is not None:
        unanswered = sum(1 for f in killed if not f[2])
        by_what = listed(Counter(f[1] if isinstance(f[1], str) else f"HTTP {f[1]}" for f in killed))
        checks.append(
            Check(
                "a server killed",
                unanswered == 0 and tally.acked_after_kill > 0 and tally.others_up,
                f"at {tally.kill_at:.1f} s; {len(killed)} requests failed in the {tally.kill_window_s:g} s "
                f"after{' (' + by_what + ')' if killed else ''}, {len(killed) - unanswered} answered by "
                f"tapping again (limit: all)"
                + (
                    f", {tally.committed_unanswered} of them moves stored before the kill (sent again: found "
                    "stored, not stored twice)"
                    if tally.committed_unanswered
                    else ""
                )
                + f"; {tally.acked_after_kill} moves acknowledged after it (limit: more than 0)"
                + ("" if tally.others_up else "; another server is down"),
            )
        )
    found = log_findings(log_text, tally.workers)
    bad_log = sum(found.values())
    checks.append(Check("server log", bad_log == 0, (listed(found) or "clean") + " (limit: clean)"))
    stopped = sum(tally.not_finished.values())
    checks.append(
        Check(
            "tables played to the end",
            stopped == 0,
            f"{tally.tables - stopped} of {tally.tables}"
            + (f"; not: {listed(tally.not_finished)}" if stopped else ""),
        )
    )
    checks.append(
        Check(
            "games ended by a time limit or the move clock",
            tally.ended_on_time == 0,
            f"{tally.ended_on_time} (limit 0)",
        )
    )
    achieved = tally.moves_acked / tally.move_phase_s if tally.move_phase_s > 0 else 0.0
    if tally.offered_rate:
        floor = limits.pace_fraction * tally.offered_rate
        checks.append(
            Check(
                "pace",
                achieved >= floor,
                f"{achieved:.2f} moves/s ({achieved / tally.offered_rate:.0%}) of {tally.offered_rate:.2f} "
                f"offered (limit {limits.pace_fraction:.0%}: {floor:.2f})",
            )
        )
    else:
        checks.append(Check("pace", True, f"{achieved:.2f} moves/s flat out (no limit)"))
    if tally.move_latencies:
        p95, p99 = percentile(tally.move_latencies, 95), percentile(tally.move_latencies, 99)
        checks.append(
            Check(
                "latency of moves",
                p95 <= limits.p95_s and p99 <= limits.p99_s,
                f"p95 {p95 * 1000:.0f} ms (limit {limits.p95_s * 1000:.0f}), "
                f"p99 {p99 * 1000:.0f} ms (limit {limits.p99_s * 1000:.0f}) of {len(tally.move_latencies)}",
            )
        )
    else:
        checks.append(Check("latency of moves", False, "no move was answered"))
    if tally.integrity is None:
        checks.append(Check("integrity", False, "not verified"))
    else:
        bad = sum(tally.integrity.values())
        checks.append(
            Check("integrity", bad == 0, listed(tally.integrity) or "no lost, doubled or mismatched move")
        )
    n = sum(tally.anomalies.values())
    checks.append(Check("client anomalies", n == 0, listed(tally.anomalies) or "none"))
    if tally.spectators:
        checks += spectator_checks(tally, limits)
    if tally.streams:
        checks += stream_checks(tally, limits)
    return checks


def spectator_checks(tally: Tally, limits: Limits) -> list[Check]:
    """--spectators: every phone answered 200 with the standings (no 5xx, no connection error, none left
    unsent), and the last of them had its page at most the window of their taps plus
    ``limits.spectator_limit_s`` after the round's end."""
    n, reloads = tally.spectators, tally.reloads
    shown = [r for r in reloads if r.status == 200 and r.standings]
    statuses = Counter(r.status for r in reloads)
    fives = sum(k for s, k in statuses.items() if isinstance(s, int) and s >= 500)
    conn = sum(k for s, k in statuses.items() if isinstance(s, str))
    without = sum(1 for r in reloads if r.status == 200 and not r.standings)
    detail = (
        f"{len(shown)} of {n} phones answered 200 with the standings (limit: all); "
        + ", ".join(f"{s}: {k}" for s, k in sorted(statuses.items(), key=lambda x: str(x[0])))
        + f"; 5xx: {fives}, connection errors: {conn} (limit 0)"
        + (f"; {without} answered 200 without the standings table" if without else "")
        + (f"; {n - len(reloads)} never asked (the run was stopped)" if len(reloads) < n else "")
    )
    checks = [Check("standings for the phones", len(shown) == n, detail)]
    deadline = tally.spectator_window_s + limits.spectator_limit_s
    limit = (
        f"(limit {deadline:g} s: their taps over {tally.spectator_window_s:g} s "
        f"+ {limits.spectator_limit_s:g} s)"
    )
    if not shown:
        checks.append(Check("standings in time", False, f"no phone had the standings {limit}"))
        return checks
    last = max(r.done for r in shown)
    took = [r.seconds for r in shown]
    checks.append(
        Check(
            "standings in time",
            last <= deadline,
            f"{'all ' if len(shown) == n else ''}{len(shown)} phones had the standings within {last:.2f} s "
            f"of the round's end {limit}; from a phone's tap: p95 {percentile(took, 95) * 1000:.0f} ms, "
            f"max {max(took) * 1000:.0f} ms",
        )
    )
    return checks


# -- the event streams (--streams; pure, but for ``read_head`` and ``body_chunks`` on an asyncio reader) ----
@dataclass
class SseEvent:
    """One Server-Sent Event, as a browser's EventSource dispatches it."""

    event: str = "message"
    data: str = ""
    id: str | None = None  # the last event id so far (an event without ``id:`` keeps the one before)


class SseParser:
    """The event stream's lines into events (the HTML standard's "event stream interpretation"), fed the body
    as it comes, in pieces cut anywhere: a line ends at CRLF, LF or CR; ``:`` begins a comment (the server's
    heartbeat, counted in ``comments``); a blank line dispatches the event when it has data (``retry:`` alone
    dispatches nothing; it is kept in ``retry``)."""

    LINE_END = re.compile(r"\r\n|\n|\r")

    def __init__(self):
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._buffer = ""
        self._data: list[str] = []
        self._event = ""
        self._id: str | None = None
        self.retry: int | None = None
        self.comments = 0

    def feed(self, data: bytes) -> list[SseEvent]:
        self._buffer += self._decoder.decode(data)
        events = []
        while m := self.LINE_END.search(self._buffer):
            if m.group() == "\r" and m.end() == len(self._buffer):
                break  # perhaps the first half of a CRLF: wait for the next piece
            line, self._buffer = self._buffer[: m.start()], self._buffer[m.end() :]
            if (event := self._line(line)) is not None:
                events.append(event)
        return events

    def _line(self, line: str) -> SseEvent | None:
        if not line:
            data, self._data = self._data, []
            event, self._event = self._event, ""
            return SseEvent(event or "message", "\n".join(data), self._id) if data else None
        if line.startswith(":"):
            self.comments += 1
            return None
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self._id = value
        elif name == "retry" and value.isdigit():
            self.retry = int(value)
        return None


def arrival_of(event: SseEvent, table: int) -> tuple[int, int] | None:
    """(game, version) when the event tells its table's game's version (its table topic changed), None when
    it does not (the tournament's topic only, another kind of event). ValueError: its data is not the JSON
    object the app sends ("unreadable data"), or it tells another table's figures ("of another table")."""
    if event.event != "change":
        return None
    try:
        data = json.loads(event.data)
    except ValueError:
        raise ValueError("unreadable data") from None
    if not isinstance(data, dict) or not isinstance(data.get("changed"), list):
        raise ValueError("unreadable data")
    if "version" not in data:
        return None
    game, version = data.get("game"), data["version"]
    if not isinstance(version, int) or not isinstance(game, int):
        raise ValueError("unreadable data")
    if data.get("table") != table or f"table{table}" not in data["changed"]:
        raise ValueError("of another table")
    return game, version


@dataclass
class Delivery:
    """The referees' changes on the streams of their tables: one (change, stream) pair for each stream of the
    change's table."""

    pairs: int = 0
    delays: list[float] = field(default_factory=list)  # s from the referee's answer to the stream's event
    coalesced: int = 0  # no event of that version, a later one came (read together with the next change)
    missing: int = 0  # no event of that version, nor of a later one
    examples: list[str] = field(default_factory=list)  # a few missing pairs

    @property
    def delivered(self) -> int:
        return len(self.delays)

    @property
    def share(self) -> float:
        """Of the pairs, delivered or coalesced."""
        return (self.delivered + self.coalesced) / self.pairs if self.pairs else 0.0


def deliveries(
    acks: list[tuple[int, int, float]], streams: list[tuple[int, list[tuple[int, int, float]]]]
) -> Delivery:
    """``acks``: each change a referee was answered as stored, (game, version after it, monotonic time of the
    answer); ``streams``: each stream's game and its arrivals, (game, version, monotonic time). For each
    change and each stream of its game: the delay to that version's first event on the stream (arrival -
    answer: negative when it came before the answer), else coalesced or missing."""
    followed: dict[int, list[tuple[dict[int, float], int | None, int]]] = defaultdict(list)
    for i, (game, arrivals) in enumerate(streams):
        first: dict[int, float] = {}
        for g, version, at in arrivals:
            if g == game:
                first.setdefault(version, at)
        followed[game].append((first, max(first, default=None), i))
    out = Delivery()
    for game, version, answered in acks:
        for first, top, i in followed.get(game, ()):
            out.pairs += 1
            if version in first:
                out.delays.append(first[version] - answered)
            elif top is not None and top > version:
                out.coalesced += 1
            else:
                out.missing += 1
                if len(out.examples) < 5:
                    out.examples.append(f"game {game} version {version} on stream {i} (its last: {top})")
    return out


def streams_behind(acks: list[tuple[int, int, float]], tops: list[tuple[int, int | None]]) -> int:
    """The streams (each its game and the highest version of it it showed) that have not yet shown the last
    version a referee was answered for their game."""
    last: dict[int, int] = {}
    for game, version, _at in acks:
        last[game] = max(last.get(game, version), version)
    return sum(1 for game, top in tops if game in last and (top is None or top < last[game]))


def stream_checks(tally: Tally, limits: Limits) -> list[Check]:
    """--streams: every stream connected and held to the end, its events readable and its table's, uvicorn's
    log clean; and at least ``limits.stream_delivery`` of the (change, stream) pairs delivered or
    coalesced. The delays are figures, not criteria."""

    def listed(counter: Counter) -> str:
        return ", ".join(f"{k}: {n}" for k, n in sorted(counter.items()) if n)

    n = tally.streams
    failed, closed, bad = (
        sum(c.values()) for c in (tally.stream_failures, tally.streams_closed_early, tally.stream_bad_events)
    )
    checks = [
        Check(
            "event streams",
            failed == 0 and closed == 0 and bad == 0,
            f"{n - failed} of {n} connected (limit: all)"
            + (f" (not: {listed(tally.stream_failures)})" if failed else "")
            + f", {closed} closed early (limit 0)"
            + (f" ({listed(tally.streams_closed_early)})" if closed else "")
            + (f"; events: {listed(tally.stream_bad_events)} (limit 0)" if bad else ""),
        )
    ]
    d = tally.delivery
    if d is None or not d.pairs:
        checks.append(Check("moves on the streams", False, "no change of a game was followed by a stream"))
    else:
        delays = (
            f"from the referee's answer: p50 {percentile(d.delays, 50) * 1000:.0f} ms, "
            f"p95 {percentile(d.delays, 95) * 1000:.0f} ms (no limit)"
            if d.delays
            else "none delivered"
        )
        checks.append(
            Check(
                "moves on the streams",
                d.share >= limits.stream_delivery,
                f"{d.share:.2%} of {d.pairs} (change, stream) pairs delivered or coalesced "
                f"(limit {limits.stream_delivery:.0%}): {d.delivered} delivered, {d.coalesced} coalesced, "
                f"{d.missing} missing; {delays}",
            )
        )
    if tally.kill_at is not None:
        checks.append(streams_through_the_kill(tally))
    found = log_findings(tally.stream_log)
    checks.append(Check("stream server log", not found, (listed(found) or "clean") + " (limit: clean)"))
    return checks


def streams_through_the_kill(tally: Tally) -> Check:
    """--streams with --kill-one-at: the killed server's streams were cut by the kill (within its window) and
    each was answered again by a server left (the phone's EventSource reconnecting with Last-Event-ID through
    the load balancer); the moves meanwhile are judged by "moves on the streams" (coalesced, not missing)."""
    cuts = tally.stream_cuts
    late = [at for at, _ in cuts if not in_kill_window(at, tally.kill_at, tally.kill_window_s)]
    unanswered = sum(1 for _, gap in cuts if gap is None)
    gaps = [gap for _, gap in cuts if gap is not None]
    return Check(
        "streams through the kill",
        bool(cuts) and not late and not unanswered,
        f"{len(cuts)} connections cut (limit: more than 0, all in the kill window: {len(late)} outside), "
        f"{len(cuts) - unanswered} answered again (limit: all)"
        + (f", after p50 {percentile(gaps, 50):.1f} s, at most {max(gaps):.1f} s" if gaps else ""),
    )


def stream_request(path: str, port: int, last_id: str | None = None) -> bytes:
    """A browser's EventSource GET, plain HTTP/1.1 (kept alive: the stream is its answer); when it reconnects,
    with the last event's id (``Last-Event-ID``: the server sends at once what changed since)."""
    resume = f"Last-Event-ID: {last_id}\r\n" if last_id is not None else ""
    return (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n{resume}"
        "Cache-Control: no-cache\r\nAccept-Language: en\r\nUser-Agent: load-event-day stream\r\n\r\n"
    ).encode()


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    """The status and the headers (lower-case names) of an HTTP/1.1 answer. ValueError: not one;
    ConnectionError: closed before its end."""
    line = await reader.readline()
    if not line:
        raise ConnectionError("closed before an answer")
    parts = line.decode("latin-1").split(None, 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise ValueError(f"not an HTTP status line: {line[:80]!r}")
    headers = {}
    while (line := await reader.readline()) not in (b"\r\n", b"\n"):
        if not line:
            raise ConnectionError("closed in the headers")
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(parts[1]), headers


async def body_chunks(reader: asyncio.StreamReader, chunked: bool):
    """An answer's body as it comes: its chunks (``Transfer-Encoding: chunked``), or what the connection
    brings until it closes. Ends at the last chunk or the connection's end (the server ended the stream);
    asyncio.IncompleteReadError or ValueError: a chunk cut short or garbled."""
    if not chunked:
        while data := await reader.read(65536):
            yield data
        return
    while True:
        line = await reader.readline()
        if not line:
            return
        size = int(line.split(b";", 1)[0].strip(), 16)
        if size == 0:
            return
        data = await reader.readexactly(size + 2)
        if data[-2:] != b"\r\n":
            raise ValueError("a chunk not ended by CRLF")
        yield data[:-2]


# -- HTTP ------------------------------------------------------------------------------------------------
class JsonBody(dict):
    """A request's body sent as JSON (the console's outbox), not as a form's fields."""


@dataclass
class Answer:
    status: int
    body: bytes
    headers: http.client.HTTPMessage
    seconds: float

    def _text(self, pattern: re.Pattern) -> str | None:
        m = pattern.search(self.body)
        return html.unescape(m.group(1).decode()).strip() if m else None

    @functools.cached_property
    def data(self) -> dict | None:
        """The JSON answer (the outbox's, a poll's), or the console page's data (its JSON script)."""
        if "json" in (self.headers.get("Content-Type") or ""):
            try:
                return json.loads(self.body)
            except ValueError:
                return None
        m = CONSOLE_DATA_RE.search(self.body)
        return json.loads(m.group(1)) if m else None

    @property
    def position(self) -> dict | None:
        """The game as the answer gives it: the console page's, a poll's, a move's with ``full``."""
        data = self.data or {}
        return data.get("position", data) if "state" in data or "position" in data else None

    @property
    def version(self) -> int | None:
        data = self.data or {}
        if "version" in data:
            return data["version"]
        return (data.get("position") or {}).get("version")

    @property
    def error(self) -> str | None:
        """Why a request was refused (the outbox's answer); None when it was taken."""
        data = self.data
        if data is not None and "ok" in data:
            return None if data["ok"] else data.get("message", "")
        return self._text(ERROR_RE)

    @property
    def why(self) -> str | None:
        return (self.data or {}).get("why")

    @property
    def notice(self) -> str | None:
        return self._text(NOTICE_RE)

    @property
    def just_now_seq(self) -> int | None:
        """The number of the move just entered (the outbox's answer)."""
        return (self.data or {}).get("seq")

    @property
    def finished(self) -> bool:
        position = self.position
        return bool(position and position["state"].get("finished"))

    @property
    def messages(self) -> list[str]:
        return [html.unescape(m.decode()).strip() for m in MESSAGE_RE.findall(self.body)]

    @property
    def csrf(self) -> str | None:
        data = self.data
        if data and data.get("csrf"):
            return data["csrf"]
        m = CSRF_INPUT_RE.search(self.body)
        return m.group(1).decode() if m else None


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
        if isinstance(fields, JsonBody):
            headers = self._headers(htmx=False, form=True)
            headers["Content-Type"] = "application/json"
            return method, path, json.dumps(fields), headers
        body = urllib.parse.urlencode(fields, doseq=True) if fields is not None else None
        return method, path, body, self._headers(htmx=htmx, form=fields is not None)

    def request(self, kind: str, method: str, path: str, fields=None, *, htmx=False) -> Answer | None:
        """One request on the keep-alive connection (a fresh one when the old may have been closed by the
        server); None when no answer came. Every connection error is counted, even one sent again; the
        failures of this request (5xx, connection errors) are in ``self.failed`` afterwards."""
        self.failed: list[Failure] = []
        method, path, body, headers = self._prepare(method, path, fields, htmx)
        for attempt in (1, 2):
            reused = self.conn is not None and time.monotonic() - self.last_used < KEEPALIVE_REUSE_S
            if not reused:
                self.close()
                self.conn = self._new_connection()
            t0 = time.perf_counter()
            self.stats.flying(+1)
            try:
                self.conn.request(method, path, body=body, headers=headers)
                resp = self.conn.getresponse()
                data = resp.read()
            except RETRYABLE as e:
                self.close()
                if reused and attempt == 1:  # the server closed a kept-alive connection just then: send again
                    self.failed.append(
                        self.stats.connection_error(
                            "keep-alive connection closed under a request (sent again)",
                            f"{kind} {path}: {e!r}",
                        )
                    )
                    continue
                self.stats.request(kind, None, time.perf_counter() - t0)
                self.failed.append(
                    self.stats.connection_error("no answer (connection error)", f"{kind} {path}: {e!r}")
                )
                return None
            except http.client.HTTPException as e:  # an answer cut short or garbled
                self.close()
                self.stats.request(kind, None, time.perf_counter() - t0)
                self.failed.append(self.stats.connection_error("answer cut short", f"{kind} {path}: {e!r}"))
                return None
            except (TimeoutError, OSError) as e:
                self.close()
                self.stats.request(kind, None, time.perf_counter() - t0)
                self.failed.append(
                    self.stats.connection_error(
                        "no answer (timeout or socket error)", f"{kind} {path}: {e!r}"
                    )
                )
                return None
            finally:
                self.stats.flying(-1)
            seconds = time.perf_counter() - t0
            self.last_used = time.monotonic()
            if resp.will_close:
                self.close()
            self._keep_cookies(resp.headers)
            if failure := self.stats.request(kind, resp.status, seconds):
                self.failed.append(failure)
            else:
                for failure in self.failed:  # the keep-alive resend was answered
                    failure.answered = True
            return Answer(resp.status, data, resp.headers, seconds)
        return None

    def fetch(self, kind: str, method: str, path: str, fields=None, *, htmx=False) -> Answer | None:
        """A request as a referee sends it: after a 5xx or no answer, tap again (the same form, the same
        ``client_key``: the server stores a move once however often it comes) up to MAX_TRIES times, the
        later tries counted as "retry". The answer that is not a 5xx, or None (given up)."""
        failed: list[Failure] = []
        again = "retry" if kind in MOVE_KINDS else kind
        for attempt in range(MAX_TRIES):
            if attempt:
                time.sleep(0.5 * attempt)
            a = self.request(kind if attempt == 0 else again, method, path, fields, htmx=htmx)
            for failure in self.failed:
                failure.key = (fields or {}).get("client_key")
            failed += self.failed
            if a is not None and a.status < 500:
                for failure in failed:
                    failure.answered = True
                return a
        return None


def send_together(
    kind: str, posts: list[tuple[Phone, str, dict]]
) -> tuple[list[Answer | None], list[Failure]]:
    """POSTs (HTMX) sent each on a fresh connection of its phone before any answer is read: a double tap (one
    phone twice) or two phones at once. The answers, and the failures among them."""
    prepared = [(phone, *phone._prepare("POST", path, fields, True)) for phone, path, fields in posts]
    conns = [phone._new_connection() for phone, *_ in prepared]
    started: list[float | None] = [None] * len(posts)
    out: list[Answer | None] = [None] * len(posts)
    failed: list[Failure] = []
    stats = posts[0][0].stats
    try:
        for i, (c, (_phone, method, path, body, headers)) in enumerate(zip(conns, prepared, strict=True)):
            started[i] = time.perf_counter()
            try:
                c.request(method, path, body=body, headers=headers)
            except OSError as e:
                started[i] = None
                stats.request(kind, None, 0.0)
                failed.append(stats.connection_error("no answer (connection error)", f"{kind} {path}: {e!r}"))
        for i, (c, (phone, _method, path, *_rest)) in enumerate(zip(conns, prepared, strict=True)):
            if started[i] is None:
                continue
            try:
                resp = c.getresponse()
                data = resp.read()
            except (OSError, http.client.HTTPException) as e:
                stats.request(kind, None, time.perf_counter() - started[i])
                failed.append(stats.connection_error("no answer (connection error)", f"{kind} {path}: {e!r}"))
                continue
            seconds = time.perf_counter() - started[i]
            phone._keep_cookies(resp.headers)
            if failure := stats.request(kind, resp.status, seconds):
                failed.append(failure)
            out[i] = Answer(resp.status, data, resp.headers, seconds)
    finally:
        for c in conns:
            c.close()
    keys = {fields.get("client_key") for *_, fields in posts}
    key = next(iter(keys)) if len(keys) == 1 else None  # a double tap: one key; two phones: two
    for failure in failed:
        failure.key = key
    return out, failed


class Browser:
    """What a referee and the director share: a phone, logging in, and the director's pages' forms (a page
    read for its CSRF token, the form posted, the redirect followed to the message it shows)."""

    run_: Run
    who: str

    def login(self, phone: Phone, username: str, next_path: str) -> bool:
        stats = self.run_.stats
        a = phone.request("login page", "GET", "/login/")
        if a is None or a.status != 200 or a.csrf is None:
            stats.anomaly("login failed", f"{self.who}: GET /login/ {a and a.status}")
            return False
        fields = {
            "csrfmiddlewaretoken": a.csrf,
            "username": username,
            "password": PASSWORD,
            "next": next_path,
        }
        a = phone.request("login", "POST", "/login/", fields)
        if a is None or a.status != 302 or "sessionid" not in phone.cookies:
            stats.anomaly("login failed", f"{self.who}: POST /login/ {a and a.status}")
            return False
        return True

    def form(self, phone: Phone, page: str, action: str, fields: dict, expect: str, kind: str) -> bool:
        """The form of ``page`` posted to ``action`` as a browser does; True when the page it leads to says
        ``expect``."""
        stats = self.run_.stats
        a = phone.fetch("director page", "GET", page)
        if a is None or a.status != 200 or a.csrf is None:
            stats.anomaly(f"{kind}: page not shown", f"{self.who} {page}: {a and a.status}")
            return False
        a = phone.fetch(kind, "POST", action, {"csrfmiddlewaretoken": a.csrf, **fields})
        if a is None or a.status != 302:
            stats.anomaly(f"{kind}: not redirected", f"{self.who} {action}: {a and a.status}")
            return False
        location = urllib.parse.urlsplit(a.headers.get("Location", "")).path
        a = phone.fetch("director page", "GET", location or page)
        said = a.messages if a is not None and a.status == 200 else []
        if not any(expect in m for m in said):
            stats.anomaly(f"{kind}: not done", f"{self.who} {action}: {said or (a and a.status)}")
            return False
        stats.note(f"director's forms: {kind}")
        return True


# -- a referee -------------------------------------------------------------------------------------------
@dataclass
class Plan:
    table: int
    game: int
    tournament: int
    username: str
    events: list[dict]
    scenario: str = ""  # "", "stop", "two phones", "undo", "void"
    at: int | None = None  # the index of the planned move where the scenario happens
    extra: dict | None = None  # two phones: the other phone's roll; void: the wrong move
    other_username: str | None = None  # two phones: the second referee

    @property
    def table_path(self) -> str:
        return f"/tournaments/{self.tournament}/rounds/1/tables/{self.table}/"


@dataclass
class Outcome:
    acked: list[tuple[str, dict]] = field(default_factory=list)  # (client_key, event) answered as stored
    taken_back: dict[str, tuple[str, str]] = field(default_factory=dict)  # client_key -> (status, reason)
    stale_keys: list[str] = field(default_factory=list)  # refused submissions (must never be stored)
    unknown_keys: list[str] = field(default_factory=list)  # sent, their answer never came (given up)
    planned_done: int = 0  # planned moves entered
    planned_offered: int = 0  # planned moves the schedule offered (table 1: until the director's stop)
    last_move_at: float | None = None  # monotonic time of the last planned move's answer
    acked_at: list[float] = field(default_factory=list)  # monotonic time of each planned move's answer
    lateness: list[float] = field(default_factory=list)  # s a move was sent after its time in the schedule
    finished: bool = False
    ended_by_director: bool = False
    stopped: str = ""  # why the referee stopped early


class GameStopped(Exception):
    """The director stopped this table's game: the referee sees it over."""


class Referee(Browser, threading.Thread):
    def __init__(self, run: Run, plan: Plan, seed: int):
        threading.Thread.__init__(self, name=f"referee-{plan.table}", daemon=True)
        self.run_ = run
        self.plan = plan
        self.who = f"table {plan.table}"
        self.rng = random.Random(seed)
        self.phone = Phone(run.port, run.stats)
        self.other = Phone(run.port, run.stats) if plan.scenario == "two phones" else None
        self.out = Outcome()
        self.ready = threading.Event()
        self.version: int | None = None
        self.next_poll = 0.0
        pace = run.args.pace
        t = self.rng.uniform(0, pace) if pace else 0.0
        self.schedule = []  # when each planned move is due, from the start of the move phase
        for _ in plan.events:
            self.schedule.append(t)
            t += pace * self.rng.uniform(0.5, 1.5) if pace else 0.0
        self.out.planned_offered = plan.at if plan.scenario == "stop" else len(plan.events)

    # the thread
    def run(self) -> None:
        try:
            with self.run_.login_gate:
                logged_in = self.login(self.phone, self.plan.username, f"/games/{self.plan.game}/")
                logged_in = logged_in and self.open_console(self.phone)
                if logged_in and self.other is not None:
                    logged_in = self.login(self.other, self.plan.other_username, f"/games/{self.plan.game}/")
                    logged_in = logged_in and self.open_console(self.other)
        except Exception as e:  # reported with the figures
            self.run_.stats.anomaly("client exceptions", f"table {self.plan.table} login: {e!r}")
            logged_in = False
        finally:
            self.ready.set()
        if not logged_in:
            self.out.stopped = "login failed"
            return
        self.run_.go.wait()
        try:
            try:
                self.play()
            except GameStopped:
                self.out.ended_by_director = self.out.finished = True
            if self.plan.scenario == "stop" and self.out.finished:
                self.stopped_game()
        except Exception as e:  # reported with the figures
            self.run_.stats.anomaly("client exceptions", f"table {self.plan.table}: {e!r}")
            self.out.stopped = f"exception {e!r}"
            self.out.finished = False
        finally:
            self.phone.close()
            if self.other is not None:
                self.other.close()

    @property
    def act_path(self) -> str:
        """Where the console's outbox sends each move (tournament/console/sync.py)."""
        return f"/games/{self.plan.game}/sync/"

    def move_body(self, version: int, key: str, event: dict, **more) -> JsonBody:
        """One tap's request as the console's outbox sends it."""
        return JsonBody(client_key=key, version=version, events=[event], waiting=1, **more)

    @property
    def console_path(self) -> str:
        return f"/games/{self.plan.game}/"

    def open_console(self, phone: Phone) -> bool:
        a = phone.fetch("console page", "GET", self.console_path)
        if a is None or a.status != 200 or a.version is None:
            self.run_.stats.anomaly("console page failed", f"table {self.plan.table}: {a and a.status}")
            return False
        self.version = a.version
        self.next_poll = time.monotonic() + self.run_.args.poll * self.rng.random()
        return True

    def reload(self, phone: Phone) -> Answer | None:
        """The console page again (the referee reloads): its version becomes the referee's."""
        a = phone.fetch("console page", "GET", self.console_path)
        if a is None or a.status != 200 or a.version is None:
            self.run_.stats.anomaly("console page failed", f"table {self.plan.table}: {a and a.status}")
            return None
        self.version = a.version
        return a

    def stopping(self) -> bool:
        return self.run_.stop.is_set() or time.monotonic() >= self.run_.deadline

    def poll(self) -> None:
        """What the console page does every 10 s: 204 when nothing changed since its version."""
        a = self.phone.fetch("poll", "GET", f"/games/{self.plan.game}/state/?version={self.version}")
        self.next_poll = time.monotonic() + self.run_.args.poll
        if a is not None and a.status != 204:
            if (
                self.plan.scenario == "stop"
                and a.status == 200
                and a.finished
                and self.run_.stop_sent.is_set()
            ):
                self.version = a.version
                self.run_.stats.note("stop: seen by the referee's polling")
                raise GameStopped
            self.run_.stats.anomaly("poll not 204", f"table {self.plan.table}: {a.status}")

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
        args, stats, plan = self.run_.args, self.run_.stats, self.plan
        special = plan.scenario == "stop"  # no resend, double tap or stale screen at the director's table
        for i, event in enumerate(plan.events):
            due = self.run_.t0 + self.schedule[i]
            if args.pace:
                self.wait_until(due)
            elif args.poll and time.monotonic() >= self.next_poll:
                self.poll()
            if self.stopping():
                self.out.stopped = "time limit" if not self.run_.stop.is_set() else "stopped"
                return
            if args.pace:
                self.out.lateness.append(time.monotonic() - due)
            here = plan.at is not None and i in (plan.at, plan.at + 1)
            stale = not special and not here and self.version and self.rng.random() < args.stale_rate
            if stale and not self.stale(event):
                return
            r = self.rng.random()
            mode = ""
            if not special and not here and r < args.resend_rate:
                mode = "resend"
            elif not special and not here and r < args.resend_rate + args.double_rate:
                mode = "double"
            if plan.scenario == "two phones" and i == plan.at:
                if not self.two_phones(event, plan.extra):
                    return
            elif not self.enter(event, mode):
                return
            if plan.scenario == "undo" and i == plan.at and not self.undo_and_again(event):
                return
            if plan.scenario == "void" and i == plan.at and not self.wrong_move(plan.extra):
                return
            if plan.scenario == "void" and i == plan.at + 1 and not self.void_wrong_move():
                return
            self.out.planned_done = i + 1
            self.out.last_move_at = time.monotonic()
            self.out.acked_at.append(self.out.last_move_at)
            stats.note("moves acknowledged")
            if plan.scenario == "stop" and i + 1 == plan.at:
                self.run_.stop_wanted.set()  # the director stops the game now, while this referee goes on
        self.out.finished = True

    def stale(self, event: dict) -> bool:
        """A move made on an older screen: refused as stale, nothing stored; the answer shows the current
        version. False when the referee cannot go on."""
        key = "load." + uuid.uuid4().hex
        self.out.stale_keys.append(key)
        fields = self.move_body(self.version - 1, key, event)
        a = self.submit(fields, "stale")
        if a is None:
            return False
        error = a.error or ""
        if STALE_TEXT in error and a.version == self.version:
            self.run_.stats.note("stale submissions refused")
            return True
        if a.error is None:
            self.run_.stats.anomaly("STALE SUBMISSION APPLIED", f"table {self.plan.table} v{self.version}")
            self.out.stale_keys.pop()  # it is in the game now: count it as the move, to go on
            self.out.acked.append((key, event))
            self.version = a.version
            return False
        self.run_.stats.anomaly(
            "stale submission answered otherwise", f"table {self.plan.table}: {error!r} v={a.version}"
        )
        self.out.stopped = "refused"
        return False

    def submit(
        self, fields: dict, kind: str, path: str | None = None, phone: Phone | None = None, answered=ANSWERED
    ):
        """POST the request (a move by default); after a 5xx or no answer, tap again (same key) up to
        MAX_TRIES times. Returns the answer (a status of ``answered``), or None (the referee gives up on this
        table)."""
        phone = phone or self.phone
        a = phone.fetch(kind, "POST", path or self.act_path, fields)
        if a is None:
            self.out.unknown_keys.append(fields["client_key"])
            self.run_.stats.anomaly("requests given up after retries", f"table {self.plan.table} {kind}")
            self.out.stopped = "gave up after retries"
            return None
        if a.status not in answered:
            self.run_.stats.anomaly(f"{kind} answered {a.status}", f"table {self.plan.table}")
            self.out.stopped = "refused"
            return None
        return a

    def accepted(self, a: Answer, event: dict, expected: int, kind: str, key: str) -> bool:
        if a.error is not None:
            if self.plan.scenario == "stop" and (STALE_TEXT in a.error or GAME_OVER_TEXT in a.error):
                self.out.stale_keys.append(key)  # refused: never stored
                if self.reload(self.phone) is not None and self.run_.stop_sent.is_set():
                    self.run_.stats.note("stop: seen by the referee's next move (refused)")
                    raise GameStopped
            what = "unexpected stale refusal" if STALE_TEXT in a.error else "legal move refused"
            self.run_.stats.anomaly(what, f"table {self.plan.table} {kind} {event}: {a.error}")
            self.out.stopped = "refused"
            return False
        if a.version != expected:
            self.run_.stats.anomaly(
                "answer shows an unexpected version",
                f"table {self.plan.table} {kind}: {a.version} instead of {expected}",
            )
        return True

    def enter(self, event: dict, mode: str = "") -> bool:
        key = "load." + uuid.uuid4().hex
        fields = self.move_body(self.version, key, event)
        expected = self.version + 1
        if mode == "double":
            answers, failed = send_together("double tap", [(self.phone, self.act_path, fields)] * 2)
            good = [a for a in answers if a is not None and a.status in ANSWERED]
            for a in answers:
                if a is not None and a.status not in ANSWERED and a.status < 500:
                    self.run_.stats.anomaly(f"double tap answered {a.status}", f"table {self.plan.table}")
            if len(good) < 2 and not (failed and all(self.run_.killed_it(f) for f in failed)):
                self.run_.stats.anomaly("double taps not both answered 200", f"table {self.plan.table}")
            if not all(self.accepted(a, event, expected, "double tap", key) for a in good):
                return False
            a = good[0] if good else self.submit(fields, "act")  # neither answered: tap again
            answered = time.monotonic()
            if a is not None:
                for failure in failed:  # the same request, answered
                    failure.answered = True
            self.run_.stats.note("double taps")
        else:
            a = self.submit(fields, "act")
            answered = time.monotonic()
        if a is None:
            self.out.stopped = self.out.stopped or "no answer"
            return False
        if not self.accepted(a, event, expected, "act", key):
            return False
        self.out.acked.append((key, event))
        self.version = a.version if a.version is not None else expected
        self.run_.acked(self.plan.game, self.version, answered)
        if mode == "resend":
            again = self.submit(fields, "resend")
            if again is None:
                return False
            if not self.accepted(again, event, self.version, "resend", key):
                return False
            self.run_.stats.note("resends")
        return True

    # what an event day also brings
    def take_back(
        self, kind: str, reason: str, void: int | None = None, phone: Phone | None = None
    ) -> str | None:
        """An undo (the console's outbox, a reason typed) or a void (the page of all moves' form, with its
        reason), resent once with the same key (nothing more may change); the key, or None when it was not
        done as expected."""
        key = "load." + uuid.uuid4().hex
        if void is None:
            path = self.act_path
            fields = JsonBody(client_key=key, version=self.version, kind="undo", reason=reason, waiting=1)
        else:
            path = f"/games/{self.plan.game}/void/{void}/"
            fields = {"version": self.version, "client_key": key, "reason": reason}
        expected = self.version + 1
        answered = 0.0
        for again in (False, True):
            a = self.submit(fields, kind, path, phone, answered=(302,) if void is not None else ANSWERED)
            answered = answered or time.monotonic()  # the first answer's: the resend changes nothing
            if a is None:
                return None
            if void is not None:  # the page of all moves again, saying what was done
                a = (phone or self.phone).fetch("moves page", "GET", f"/games/{self.plan.game}/moves/")
                done = a is not None and any(f"Move #{void} was voided" in m for m in a.messages)
                version_ok = True
            else:
                done, version_ok = a.error is None, a.version == expected
            if not done or not version_ok:
                self.run_.stats.anomaly(
                    f"{kind} not done as expected" + (" (resent)" if again else ""),
                    f"table {self.plan.table}: {a and a.error!r}, {a and a.messages!r}, "
                    f"v{a and a.version}/{expected}",
                )
                self.out.stopped = "refused"
                return None
        self.version = expected
        self.run_.acked(self.plan.game, self.version, answered)
        return key

    def undo(self, reason: str) -> str | None:
        return self.take_back("undo", reason)

    def undo_and_again(self, event: dict) -> bool:
        """The last move undone (the dice were misread), the undo resent, the move entered again."""
        key = self.out.acked[-1][0]
        reason = "misread the dice"
        if self.undo(reason) is None:
            return False
        self.out.taken_back[key] = ("undone", reason)
        self.run_.stats.note("scenario: undone, resent, entered again")
        return self.enter(event)

    def wrong_move(self, event: dict) -> bool:
        """A move the game did not have, entered by mistake (voided after the next move)."""
        key = "load." + uuid.uuid4().hex
        fields = self.move_body(self.version, key, event)
        a = self.submit(fields, "act")
        answered = time.monotonic()
        if a is None or not self.accepted(a, event, self.version + 1, "act", key):
            return False
        self.out.acked.append((key, event))
        self.version = a.version
        self.run_.acked(self.plan.game, self.version, answered)
        self.wrong = (key, a.just_now_seq)
        if a.just_now_seq is None:
            self.run_.stats.anomaly("move's number not shown", f"table {self.plan.table}")
            self.out.stopped = "refused"
            return False
        return True

    def void_wrong_move(self) -> bool:
        key, seq = self.wrong
        reason = "entered by mistake"
        if self.take_back("void", reason, void=seq) is None:
            return False
        self.out.taken_back[key] = ("voided", reason)
        self.run_.stats.note("scenario: a wrong move voided after the next one")
        return True

    def two_phones(self, event: dict, other_roll: dict) -> bool:
        """Two phones at the table send different moves at once: one is stored, the other refused as stale.
        The refused phone reloads and goes on (after undoing the other's roll if that one was stored)."""
        v = self.version
        mine = self.move_body(v, "load." + uuid.uuid4().hex, event)
        theirs = self.move_body(v, "load." + uuid.uuid4().hex, other_roll)
        posts = [(self.phone, self.act_path, mine), (self.other, self.act_path, theirs)]
        first = self.rng.random() < 0.5
        answers, _failed = send_together("two phones", posts if first else posts[::-1])
        answered = time.monotonic()
        a_mine, a_theirs = answers if first else answers[::-1]
        if any(a is None or a.status not in ANSWERED for a in (a_mine, a_theirs)):
            self.run_.stats.anomaly("two phones: not both answered", f"table {self.plan.table}")
            self.out.unknown_keys += [mine["client_key"], theirs["client_key"]]
            self.out.stopped = "no answer"
            return False
        refused = [a is not None and STALE_TEXT in (a.error or "") for a in (a_mine, a_theirs)]
        stored = [a.error is None and a.version == v + 1 for a in (a_mine, a_theirs)]
        if stored == [True, False] and refused == [False, True] and a_theirs.version == v + 1:
            self.out.acked.append((mine["client_key"], event))
            self.run_.acked(self.plan.game, v + 1, answered)
            self.out.stale_keys.append(theirs["client_key"])
            if self.reload(self.other) is None or self.version != v + 1:
                self.out.stopped = "refused"
                return False
            self.phone, self.other = self.other, self.phone  # the refused phone goes on
            self.run_.stats.note("scenario: two phones, the planned move first")
            return True
        if stored == [False, True] and refused == [True, False] and a_mine.version == v + 1:
            self.out.acked.append((theirs["client_key"], other_roll))
            self.run_.acked(self.plan.game, v + 1, answered)
            self.out.stale_keys.append(mine["client_key"])
            if self.reload(self.phone) is None or self.version != v + 1:
                self.out.stopped = "refused"
                return False
            reason = "the other phone's dice were wrong"
            if self.undo(reason) is None:
                return False
            self.out.taken_back[theirs["client_key"]] = ("undone", reason)
            self.run_.stats.note("scenario: two phones, the other phone's roll first (undone)")
            return self.enter(event)
        self.run_.stats.anomaly(
            "two phones: not one stored and one refused",
            f"table {self.plan.table}: {a_mine.error!r} v{a_mine.version}, "
            f"{a_theirs.error!r} v{a_theirs.version}",
        )
        self.out.stopped = "refused"
        return False

    def stopped_game(self) -> None:
        """Table 1 after the director's stop: the result confirmed; the game read-only (an undo refused); the
        director reopens it; confirmed again."""
        run, stats = self.run_, self.run_.stats
        if not self.out.ended_by_director:  # all moves entered before the stop came: wait for it
            run.stop_done.wait(max(0.0, run.deadline - time.monotonic()))
            a = self.reload(self.phone)
            if a is None or not a.finished:
                stats.anomaly("stop: the game is not over", f"table {self.plan.table}")
                return
            self.out.ended_by_director = True
            stats.note("stop: seen by the referee's reload")
        path = self.plan.table_path
        if not self.form(self.phone, path, path + "confirm/", {}, "Result confirmed", "confirm"):
            return
        key = "load." + uuid.uuid4().hex
        fields = JsonBody(client_key=key, version=self.version, kind="undo", reason="one more", waiting=1)
        a = self.submit(fields, "undo")
        if a is None or CLOSED_TEXT not in (a.error or "") or a.why != "closed":
            stats.anomaly("undo of a confirmed game not refused", f"{a and a.error!r} v{a and a.version}")
            return
        self.out.stale_keys.append(key)
        run.confirmed.set()
        if not run.reopened.wait(max(0.0, run.deadline - time.monotonic())):
            stats.anomaly("reopen: not done in time")
            return
        if self.form(self.phone, path, path + "confirm/", {}, "Result confirmed", "confirm again"):
            stats.note("scenario: stopped, confirmed, reopened, confirmed again")
            run.confirmed_again.set()


# -- the director ----------------------------------------------------------------------------------------
@dataclass
class DirectorPlan:
    tournament: int
    stop_table: int | None
    absent: tuple[int, int]  # (table, participant)
    move: tuple[int, int, int]  # (participant, from table, to table)
    look_at_table: int


class Director(Browser, threading.Thread):
    """The tournament director during play: the interventions, the pages and the files, through HTTP."""

    def __init__(self, run: Run, plan: DirectorPlan):
        threading.Thread.__init__(self, name="director", daemon=True)
        self.run_ = run
        self.plan = plan
        self.who = "director"
        self.phone = Phone(run.port, run.stats)
        self.ready = threading.Event()
        self.logged_in = False

    def base(self, rest: str = "") -> str:
        return f"/tournaments/{self.plan.tournament}/{rest}"

    def run(self) -> None:
        run = self.run_
        try:
            with run.login_gate:
                self.logged_in = self.login(self.phone, "director", self.base())
        except Exception as e:  # reported with the figures
            run.stats.anomaly("client exceptions", f"director login: {e!r}")
        finally:
            self.ready.set()
        if not self.logged_in:
            return
        run.go.wait()
        try:
            self.direct()
        except Exception as e:  # reported with the figures
            run.stats.anomaly("client exceptions", f"director: {e!r}")
        finally:
            self.phone.close()

    def get(self, kind: str, path: str, starts: bytes | None = None) -> None:
        a = self.phone.fetch(kind, "GET", path)
        if a is None or a.status != 200 or (starts is not None and not a.body.startswith(starts)):
            self.run_.stats.anomaly(f"{kind} not served", f"{path}: {a and a.status}")
        else:
            self.run_.stats.note(f"director's downloads: {kind}")

    def look(self) -> None:
        """The pages and files the director opens while the tables play."""
        self.get("director page", self.base("rounds/1/"))
        self.get("director page", self.base(f"rounds/1/tables/{self.plan.look_at_table}/"))
        self.get("standings.pdf", self.base("standings.pdf"), b"%PDF")
        self.get("workbook.xlsx", self.base("workbook.xlsx"), b"PK")

    def direct(self) -> None:
        run, plan = self.run_, self.plan
        every = run.args.director_every
        round_ = self.base("rounds/1/")
        todo = ["absent", "move"]
        next_look = time.monotonic() + min(2.0, every)
        stop_sent = reopen_sent = False
        while not run.referees_done.is_set() and time.monotonic() < run.deadline and not run.stop.is_set():
            if plan.stop_table is not None and not stop_sent and run.stop_wanted.is_set():
                stop_sent = True
                path = self.base(f"rounds/1/tables/{plan.stop_table}/")
                run.stop_sent.set()  # from now on, table 1's referee may find its game over
                self.form(
                    self.phone, path, path + "stop/", {"reason": "the schedule"}, "game is stopped", "stop"
                )
                run.stop_done.set()
            elif not reopen_sent and run.confirmed.is_set():
                reopen_sent = True
                path = self.base(f"rounds/1/tables/{plan.stop_table}/")
                fields = {"reason": "a score to check"}
                self.form(self.phone, path, path + "reopen/", fields, "Result reopened", "reopen")
                run.reopened.set()
            elif todo and time.monotonic() >= run.t0 + 1.0:
                what = todo.pop(0)
                if what == "absent":
                    table, participant = plan.absent
                    path = self.base(f"rounds/1/tables/{table}/")
                    fields = {"participant": participant, "reason": "did not come"}
                    self.form(
                        self.phone, path, path + "absent/", fields, "does not play at this table", "absent"
                    )
                else:
                    participant, _source, target = plan.move
                    fields = {"participant": participant, "to_table": target, "reason": "a table of 3"}
                    self.form(
                        self.phone, round_, round_ + "move/", fields, f"moved to table {target}", "move"
                    )
            elif time.monotonic() >= next_look:
                self.look()
                next_look = time.monotonic() + every
            else:
                run.wake_director.wait(0.2)
                run.wake_director.clear()


# -- the phones at the round's end ---------------------------------------------------------------------
def reload_once(port: int, path: str, start: float, round_end: float) -> Reload:
    """A phone reloading the public standings: a connection of its own, no cookies, one GET (the page's
    styles and script have hashed names WhiteNoise serves cached forever: a reload asks for the page alone).
    The time is counted from the phone's tap (``round_end + start``), not from the request's sending."""
    status: int | str
    standings = False
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_S)
    try:
        conn.request("GET", path, headers={"Accept-Language": "pl", "User-Agent": "load-event-day spectator"})
        resp = conn.getresponse()
        body = resp.read()
        status, standings = resp.status, STANDINGS_TABLE_RE.search(body) is not None
    except RETRYABLE:
        status = "no answer (connection error)"
    except http.client.HTTPException:
        status = "answer cut short"
    except (TimeoutError, OSError):
        status = "no answer (timeout or socket error)"
    finally:
        conn.close()
    return Reload(start, time.monotonic() - (round_end + start), status, standings)


class Spectators(threading.Thread):
    """--spectators N: at the round's end N phones each reload the tournament's public standings once, their
    taps drawn (seeded) uniformly over --spectator-window s from then; --spectator-concurrency threads send
    them, each the earliest tap not yet sent, so a tap that waits for a free thread waits as that phone
    would (its time counts). ``reloads``: what each phone got."""

    def __init__(self, run: Run, tournament: int):
        threading.Thread.__init__(self, name="spectators", daemon=True)
        args = run.args
        self.port = run.port
        self.path = f"/tournaments/{tournament}/standings/"
        rng = random.Random(f"spectators {args.seed}")
        self.starts = sorted(rng.uniform(0, args.spectator_window) for _ in range(args.spectators))
        self.threads = min(args.spectator_concurrency, args.spectators)
        self.halt = threading.Event()
        self.round_end = 0.0
        self.reloads: list[Reload] = []
        self.lock = threading.Lock()

    def run(self) -> None:
        self.round_end = time.monotonic()
        taps: queue.SimpleQueue[float] = queue.SimpleQueue()
        for start in self.starts:
            taps.put(start)
        phones = [
            threading.Thread(target=self.phone, args=(taps,), name=f"spectator-{i}", daemon=True)
            for i in range(self.threads)
        ]
        for t in phones:
            t.start()
        for t in phones:
            t.join()
        self.reloads.sort(key=lambda r: r.start)

    def phone(self, taps: queue.SimpleQueue) -> None:
        while not self.halt.is_set():
            try:
                start = taps.get_nowait()
            except queue.Empty:
                return
            if self.halt.wait(max(0.0, self.round_end + start - time.monotonic())):
                return
            reload = reload_once(self.port, self.path, start, self.round_end)
            with self.lock:
                self.reloads.append(reload)


# -- the event streams (--streams) -------------------------------------------------------------------------
@dataclass
class StreamState:
    """One phone's stream (a participant's page): where it reads, what came, how it ended."""

    path: str
    table: int  # its table's pk
    game: int  # that table's game's pk
    arrivals: list[tuple[int, int, float]] = field(default_factory=list)  # (game, version, monotonic time)
    events: int = 0
    heartbeats: int = 0  # the server's comments (": still here")
    top: int | None = None  # the highest version of its game it showed
    opened_at: float | None = None  # monotonic time of its first event
    failure: str | None = None  # why it did not open
    ended: str | None = None  # how the server ended it (closed early)
    ended_at: float | None = None  # and when (monotonic)
    bad: Counter = field(default_factory=Counter)  # unreadable events, events of another table
    last_id: str | None = None  # the last event's id (sent back as Last-Event-ID when it reconnects)
    retry_s: float = 2.0  # the wait before it reconnects, as the server's ``retry`` says
    cuts: list[float] = field(default_factory=list)  # monotonic times its connection was cut (reconnecting)
    reopened: list[float] = field(default_factory=list)  # and when each new connection was answered


class Streams(threading.Thread):
    """The phones holding event streams: one asyncio loop in one thread, a connection each (a plain HTTP/1.1
    GET), opened ``concurrency`` at a time (a stream is open at its first event), held until ``close``."""

    def __init__(self, port: int, states: list[StreamState], concurrency: int, reconnect: bool = False):
        super().__init__(name="streams", daemon=True)
        self.port, self.states, self.concurrency = port, states, concurrency
        # as a browser's EventSource: a stream cut after it opened is opened again after the server's
        # ``retry``, with Last-Event-ID (--kill-one-at: the killed server's streams); else a cut ends it
        self.reconnect = reconnect
        self.opened = threading.Event()  # every stream had its first event, or failed
        self.open_s: float | None = None  # from the first connection to the last stream opened
        self.error: BaseException | None = None
        self.close_s: float | None = None  # how long closing them took
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing: asyncio.Event | None = None
        self._leaving = False  # closing: the connections' ends are this side's
        self._writers: set[asyncio.StreamWriter] = set()
        self._running = threading.Event()
        self._resolved = 0
        self._t0 = 0.0

    def run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as e:  # reported with the figures
            self.error = e
        finally:
            self._running.set()
            self.opened.set()

    def close(self) -> None:
        """The phones leave: every connection closed (by this side), the loop ended."""
        self._running.wait(timeout=10)
        t0 = time.monotonic()
        if self._loop is not None and self._closing is not None and self.is_alive():
            with contextlib.suppress(RuntimeError):  # the loop already closed
                self._loop.call_soon_threadsafe(self._closing.set)
        self.join(timeout=30)
        if self.close_s is None:
            self.close_s = time.monotonic() - t0
        if self.is_alive() and self.error is None:
            self.error = TimeoutError("the streams' client did not stop within 30 s")

    async def _main(self) -> None:
        self._loop, self._closing = asyncio.get_running_loop(), asyncio.Event()
        self._running.set()
        gate = asyncio.Semaphore(self.concurrency)
        self._t0 = time.monotonic()
        if not self.states:
            self.opened.set()
        tasks = [asyncio.create_task(self._follow(s, gate)) for s in self.states]
        await self._closing.wait()
        self._leaving = True
        for w in list(self._writers):  # each read then ends at once, whatever it was doing
            w.transport.abort()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _event(self, s: StreamState, event: SseEvent, now: float) -> None:
        s.events += 1
        try:
            arrival = arrival_of(event, s.table)
        except ValueError as e:
            s.bad[str(e)] += 1
            return
        if arrival is not None:
            game, version = arrival
            s.arrivals.append((game, version, now))
            s.top = version if s.top is None else max(s.top, version)

    async def _follow(self, s: StreamState, gate: asyncio.Semaphore) -> None:
        opened = False

        def resolve() -> None:  # open, or given up: the next stream may be opened
            nonlocal opened
            if not opened:
                opened = True
                gate.release()
                self._resolved += 1
                if self._resolved == len(self.states):
                    self.open_s = time.monotonic() - self._t0
                    self.opened.set()

        try:
            await gate.acquire()
            while True:
                ended = await self._session(s, resolve)
                if ended is None or self._leaving:  # this side closed it (the run's end)
                    return
                if not (self.reconnect and s.opened_at is not None):
                    self._ended(s, *ended)
                    return
                s.cuts.append(time.monotonic())  # then, as a browser: the server's retry, and again
                await asyncio.sleep(s.retry_s)
        except asyncio.CancelledError:
            if s.opened_at is None and s.failure is None:
                s.failure = "not open when the run ended"
            raise
        finally:
            resolve()

    async def _session(self, s: StreamState, resolve) -> tuple[str, str] | None:
        """One connection of the stream: opened (with Last-Event-ID when it reconnects), read until it ends.
        None when this side closed it; else how it ended: (as a failure before the stream's first event, as
        an end after it)."""
        writer = None
        again = bool(s.cuts)
        give_up = time.monotonic() + STREAM_OPEN_TIMEOUT_S
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", self.port), STREAM_OPEN_TIMEOUT_S
            )
            self._writers.add(writer)
            if self._leaving:
                return None
            writer.write(stream_request(s.path, self.port, s.last_id if again else None))
            await writer.drain()
            status, headers = await asyncio.wait_for(read_head(reader), give_up - time.monotonic())
            if status != 200:
                return f"HTTP {status}", f"HTTP {status} when it reconnected"
            if not headers.get("content-type", "").startswith("text/event-stream"):
                kind = f"not an event stream ({headers.get('content-type')})"
                return kind, kind
            if again:
                s.reopened.append(time.monotonic())
            parser = SseParser()
            heartbeats = s.heartbeats
            body = body_chunks(reader, "chunked" in headers.get("transfer-encoding", "").lower())
            while True:
                wait = STREAM_SILENCE_S if s.opened_at is not None else max(0.0, give_up - time.monotonic())
                try:
                    data = await asyncio.wait_for(anext(body), wait)
                except StopAsyncIteration:
                    break
                now = time.monotonic()
                for event in parser.feed(data):
                    self._event(s, event, now)
                    if event.id is not None:
                        s.last_id = event.id
                    if s.opened_at is None:
                        s.opened_at = now
                        resolve()
                s.heartbeats = heartbeats + parser.comments
                if parser.retry is not None:
                    s.retry_s = parser.retry / 1000
                if self._leaving:
                    return None
            return "closed before its first event", "closed by the server"
        except TimeoutError:
            return f"no first event within {STREAM_OPEN_TIMEOUT_S} s", f"silent for {STREAM_SILENCE_S} s"
        except (OSError, asyncio.IncompleteReadError, ValueError) as e:
            return f"connection error ({type(e).__name__})", f"cut ({type(e).__name__})"
        finally:
            if writer is not None:
                self._writers.discard(writer)
                writer.close()

    def _ended(self, s: StreamState, failure: str, ended: str) -> None:
        """How a stream ended: a failure before its first event, closed early after it; neither when this
        side closed it (the run's end)."""
        if self._leaving:
            if s.opened_at is None and s.failure is None:
                s.failure = "not open when the run ended"
        elif s.opened_at is None:
            s.failure = failure
        else:
            s.ended, s.ended_at = ended, time.monotonic()


def stream_states(args, plans: list[Plan]) -> list[StreamState]:
    """--streams N spread round-robin over the tables, each at a participant's page's address (the
    tournament's topic and his table's); the tables' pks read from their games (in this process: the data
    was just created here)."""
    from tournament.models import Game

    tables = dict(Game.objects.filter(pk__in=[p.game for p in plans]).values_list("pk", "table_id"))
    states = []
    for i in range(args.streams):
        plan = plans[i % len(plans)]
        table = tables[plan.game]
        states.append(StreamState(f"/tournaments/{plan.tournament}/events/?table={table}", table, plan.game))
    return states


def catch_up(run: Run, drain_s: float) -> float | None:
    """After the run: waits (at most ``drain_s``) until every stream still open has shown the last version its
    game's referee was answered for; the seconds it took, None when some had not by then."""
    t0 = time.monotonic()
    while True:
        with run.acks_lock:
            acks = list(run.acks or [])
        live = [(s.game, s.top) for s in run.stream_states if s.failure is None and s.ended is None]
        if streams_behind(acks, live) == 0:
            return time.monotonic() - t0
        if time.monotonic() - t0 >= drain_s:
            return None
        time.sleep(0.1)


def enough_files(n: int) -> None:
    """This process's limit of open files at least ``n`` when the hard limit allows (uvicorn, started after,
    inherits it): a stream is a socket on each side."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < n:
        resource.setrlimit(
            resource.RLIMIT_NOFILE, (n if hard == resource.RLIM_INFINITY else min(n, hard), hard)
        )


def rss_kib(pid: int) -> int:
    """A process's resident memory (VmRSS, KiB; 0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


class MemorySampler(threading.Thread):
    """The servers' memory every ``every`` s until ``done``: the sum of VmRSS over each name's process groups
    (a server's master and its workers), the most seen as (KiB, processes then)."""

    def __init__(self, groups: dict[str, list[int]], every: float = 1.0):
        super().__init__(name="memory", daemon=True)
        self.groups, self.every = groups, every
        self.most: dict[str, tuple[int, int]] = {name: (0, 0) for name in groups}
        self.samples = 0
        self.done = threading.Event()

    def sample(self) -> dict[str, tuple[int, int]]:
        now = {}
        for name, pgids in self.groups.items():
            pids = [pid for pgid in pgids for pid in group_members(pgid)]
            now[name] = (sum(rss_kib(pid) for pid in pids), len(pids))
        return now

    def run(self) -> None:
        while True:
            for name, (kib, n) in self.sample().items():
                if kib > self.most[name][0]:
                    self.most[name] = (kib, n)
            self.samples += 1
            if self.done.wait(self.every):
                return


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
        self.t0 = 0.0  # the start of the move phase (monotonic)
        # the director's table: referee and director in turn
        self.stop_wanted = threading.Event()
        self.stop_sent = threading.Event()
        self.stop_done = threading.Event()
        self.confirmed = threading.Event()
        self.reopened = threading.Event()
        self.confirmed_again = threading.Event()
        self.referees_done = threading.Event()
        self.wake_director = threading.Event()
        self.killed_at: float | None = None  # monotonic time of the kill of a server (--kill-one-at)
        self.killed_wall: float | None = None  # the same, as time.time() (the database's clock)
        self.reloads: list[Reload] = []  # --spectators: the phones' reloads of the standings
        self.phones_cpu: dict | None = None  # and the CPU used from the round's end until the last answer
        # --streams: each change a referee was answered as stored, (game, its version after, monotonic time)
        self.acks: list[tuple[int, int, float]] | None = [] if args.streams else None
        self.acks_lock = threading.Lock()
        self.stream_states: list[StreamState] = []  # and what each stream showed
        self.streams_open_s: float | None = None  # how long opening them took
        self.streams_error: BaseException | None = None  # the streams' client failed
        self.streams_close_s: float | None = None  # how long closing them took (this side)
        self.caught_up_s: float | None = (
            None  # after the last referee: every stream at its game's last version
        )
        self.memory: dict[str, tuple[int, int]] = {}  # the most (KiB, processes) during the move phase
        self.memory_idle: dict[str, tuple[int, int]] = {}  # before the moves (the streams open)
        self.stream_log = ""  # uvicorn's log

    def acked(self, game: int, version: int | None, at: float) -> None:
        """A change the referee was answered as stored: the game's version after it (--streams)."""
        if self.acks is not None and version is not None:
            with self.acks_lock:
                self.acks.append((game, version, at))

    def killed_it(self, failure: Failure) -> bool:
        """Whether the kill of a server explains this failed request."""
        kill_at = None if self.killed_at is None else self.killed_at - self.t0
        return in_kill_window(failure.at - self.t0, kill_at, self.args.kill_window)


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


def server_env(tmp: Path, database_url: str | None, behind_proxy: bool = False) -> dict[str, str]:
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
    if behind_proxy:  # the phone's address from HAProxy's X-Forwarded-For (the login throttling's key)
        env["DJANGO_BEHIND_PROXY"] = "1"
    if database_url:
        env["DATABASE_URL"] = database_url
    else:
        env["DJANGO_SQLITE_PATH"] = str(tmp / "load.sqlite3")
    return env


def _states(record: dict) -> list:
    """The state before each event of a simulated record, and after the last."""
    from rules import apply, parse_record
    from rules.replay import start_state

    parsed = parse_record(record)
    state = start_state(parsed)
    states = [state]
    for event in parsed.events:
        state = apply(state, event).state
        states.append(state)
    return states


def _legal(state, *events) -> bool:
    from rules import RulesError, apply

    try:
        for event in events:
            state = apply(state, event).state
    except RulesError:
        return False
    return True


def other_roll(events: list[dict], states: list) -> tuple[int, dict] | None:
    """Two phones: a planned roll from a third of the way on, and another legal throw of the dice for it."""
    for i in range(len(events) // 3, len(events)):
        e = events[i]
        if e["type"] != "roll" or "dice" not in e:
            continue
        for dice in ([1, 2], [2, 3], [3, 4], [4, 6], [5, 6], [1, 3]):
            if sorted(dice) != sorted(e["dice"]) and _legal(states[i], {**e, "dice": dice}):
                return i, {**e, "dice": dice}
    return None


def wrong_move(events: list[dict], states: list) -> tuple[int, dict] | None:
    """Void: a move the game did not have (a gift of 1 between two players) after planned move i, such that
    planned move i + 1 is still legal after it (so the wrong move is voided after the next one)."""
    for i in range(len(events) // 2, len(events) - 2):
        state = states[i + 1]
        players = [p for p in state.players if not p.bankrupt and p.cash > 1]
        for giver in players:
            for taker in players:
                if taker is giver:
                    continue
                gift = {"type": "trade", "player": giver.id, "with": taker.id, "give": {"cash": 1}, "get": {}}
                if _legal(state, gift, events[i + 1]):
                    return i, gift
    return None


def create_data(args) -> tuple[list[Plan], DirectorPlan | None]:
    """A tournament of N tables of 4 (and two more seated, not started, unless --plain), no time limit per
    game and no move clock; round 1 started, each of the N tables' games started with its own referee; the
    scenarios drawn on the simulated games."""
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User
    from django.db import transaction

    from rules import make_variant
    from tournament.event import rounds
    from tournament.models import Participant, Tournament

    hashed = make_password(PASSWORD)  # hashed once: the same (slow) hash for every referee
    extra = 0 if args.plain else EXTRA_TABLES
    plans = []
    with transaction.atomic():
        t = Tournament.objects.create(
            name="Load test",
            rounds=1,
            seed=args.seed % 1_000_000 + 1,
            time_limit_minutes=None,  # games end by their rules (or the director): see ended_on_time
            move_time_limit=None,
        )
        options = t.game_options()
        variant = make_variant(t.variant, options)
        if variant.timed or variant.move_time_limit:
            raise SystemExit(f"the load test's games must not be timed: {t.variant} {options}")
        Participant.objects.bulk_create(
            Participant(tournament=t, name=f"Player {i:04d}") for i in range(4 * (args.tables + extra))
        )
        round_ = rounds.seat_next_round(t)
        tables = list(round_.tables.order_by("number"))
        if len(tables) != args.tables + extra:
            raise SystemExit(f"seated {len(tables)} tables instead of {args.tables + extra}")
        played, spare = tables[: args.tables], tables[args.tables :]
        User.objects.create(username="director", password=hashed, is_staff=True)
        names = [f"referee{n.number:03d}" for n in played]
        names += [f"referee{n.number:03d}b" for n in played if scenario_of(args, n.number) == "two phones"]
        User.objects.bulk_create(User(username=name, password=hashed) for name in names)
        users = {u.username: u for u in User.objects.filter(username__startswith="referee")}
        for table in played:
            mine = [users[f"referee{table.number:03d}"]]
            if f"referee{table.number:03d}b" in users:
                mine.append(users[f"referee{table.number:03d}b"])
            table.referees.set(mine)
        rounds.start_round(round_)
        for table in played:
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
            record["events"] = record["events"][: args.moves_per_table]
            plan = Plan(table.number, game.pk, t.pk, user.username, record["events"])
            plan.scenario = scenario_of(args, table.number)
            if plan.scenario:
                states = _states(record)
                if plan.scenario == "stop":
                    if len(plan.events) < 4 or states[-1].finished:
                        plan.scenario = ""  # over before the director could stop it
                    else:
                        plan.at = len(plan.events) // 2
                elif plan.scenario == "two phones":
                    found = other_roll(plan.events, states)
                    plan.at, plan.extra = found if found else (None, None)
                    plan.other_username = f"referee{table.number:03d}b"
                elif plan.scenario == "undo":
                    plan.at = len(plan.events) // 2 if plan.events else None
                elif plan.scenario == "void":
                    found = wrong_move(plan.events, states)
                    plan.at, plan.extra = found if found else (None, None)
                if plan.at is None:
                    plan.scenario = ""
            plans.append(plan)
    if args.plain:
        return plans, None
    a_seats = list(spare[0].seats.order_by("order").values_list("participant_id", flat=True))
    b_seats = list(spare[1].seats.order_by("order").values_list("participant_id", flat=True))
    stop = next((p.table for p in plans if p.scenario == "stop"), None)
    look = plans[len(plans) // 2].table
    director = DirectorPlan(
        t.pk, stop, (spare[0].number, a_seats[0]), (b_seats[0], spare[1].number, spare[0].number), look
    )
    return plans, director


def scenario_of(args, number: int) -> str:
    """Table 1: the director's stop; then, by eights, two phones, undo, void, and five tables as usual."""
    if args.plain:
        return ""
    if number == 1:
        return "stop"
    return {2: "two phones", 3: "undo", 4: "void"}.get((number - 2) % 8 + 2, "")


def subset(small, big) -> bool:
    """Every field of the submitted event is in the stored one (which adds defaults such as count: 1)."""
    if isinstance(small, dict):
        return isinstance(big, dict) and all(subset(v, big.get(k)) for k, v in small.items())
    if isinstance(small, (list, tuple)):
        return isinstance(big, (list, tuple)) and len(small) == len(big) and all(map(subset, small, big))
    return small == big


def committed_before_the_kill(run: Run) -> int:
    """The moves whose answer the kill took (a failed request of the kill's, with its ``client_key``) that are
    stored as entered before the kill: committed before their answer was lost — by the killed server, or by
    an earlier tap of the same form — so tapping again found them stored (the integrity check says none is
    there twice). The case a load balancer must not retry on its own, and the app makes harmless."""
    from tournament.models import GameEvent

    if run.killed_wall is None:
        return 0
    keys = {f.key for f in run.stats.failures if f.key and run.killed_it(f)}
    killed = datetime.fromtimestamp(run.killed_wall, UTC)
    return GameEvent.objects.filter(client_key__in=keys, entered_at__lt=killed).count()


def verify(referees: list[Referee], director: DirectorPlan | None) -> dict:
    """Each game's log against what its referee was told, and a replay against the stored state; the
    director's changes and the results in the database."""
    from ledger import Ledger
    from rules import replay
    from rules.snapshot import dump_state
    from tournament.event import results
    from tournament.games import recording
    from tournament.models import AuditEntry, Game, GameEvent, Seat, TableResult

    v = Counter()
    examples = defaultdict(list)
    ended_on_time = 0

    def bad(what, text, n=1):
        v[what] += n
        if len(examples[what]) < 5:
            examples[what].append(text)

    for ref in referees:
        n = ref.plan.table
        game = Game.objects.get(pk=ref.plan.game)
        everything = list(
            game.events.order_by("seq").values_list("client_key", "data", "status", "reason", "change_key")
        )
        rows = [(k, data) for k, data, status, _r, _c in everything if status == GameEvent.Status.ACTIVE]
        taken = ref.out.taken_back
        for k, _data, status, reason, change_key in everything:
            if status == GameEvent.Status.ACTIVE:
                continue
            if k not in taken:
                bad("taken back unasked", f"table {n}: {k} {status}")
            elif taken[k] != (status, reason) or not change_key:
                bad("taken back otherwise", f"table {n}: {status} {reason!r}, asked {taken[k]}")
        missing = set(taken) - {
            k for k, _d, status, _r, _c in everything if status != GameEvent.Status.ACTIVE
        }
        if missing:
            bad("take-back not stored", f"table {n}: {len(missing)}")
        director_rows = [data for k, data in rows if k is None]
        if ref.out.ended_by_director or (ref.plan.scenario == "stop" and ref.run_.stop_sent.is_set()):
            if director_rows != [{"type": "time_up", "now": True}] or not rows or rows[-1][0] is not None:
                bad("director's stop not stored as the last move", f"table {n}: {director_rows}")
            rows = [(k, data) for k, data in rows if k is not None]
        stored = [k for k, _ in rows]
        acked = [k for k, _ in ref.out.acked if k not in taken]
        acked_set, stored_set = set(acked), set(stored)
        unknown = set(ref.out.unknown_keys)
        lost = [k for k in acked if k not in stored_set]
        extra = [k for k in stored if k not in acked_set and k not in unknown]
        doubled = len(extra) + (len(stored) - len(stored_set))
        v["moves acknowledged"] += len(ref.out.acked)
        v["events stored"] += len(everything)
        if unknown & stored_set:
            v["unanswered move stored (answer lost, then given up)"] += len(unknown & stored_set)
        if lost:
            bad("lost", f"table {n}: {len(lost)} acknowledged, not stored", len(lost))
        if doubled:
            bad("doubled", f"table {n}: {doubled} stored beyond the acknowledged", doubled)
        all_keys = {k for k, *_ in everything}
        stale_stored = [k for k in ref.out.stale_keys if k in all_keys]
        if stale_stored:
            bad("refused submissions stored", f"table {n}: {len(stale_stored)}")
        if not lost and not extra and [k for k in stored if k not in unknown] != acked:
            bad("out of order", f"table {n}")
        by_key = dict(rows)
        for k, event in ref.out.acked:
            if k in by_key and not subset(event, by_key[k]):
                bad("stored data differs", f"table {n}: sent {event}, stored {by_key[k]}")
        if game.version != len(everything) + len(taken) - len(missing):
            bad("version != changes", f"table {n}: version {game.version}, {len(everything)} events")
        record = recording.record_of(game)
        result = replay(record, keep=True)
        if result.error is not None:
            bad("replay mismatches", f"table {n}: replay error {result.error}")
            continue
        state = recording.current_state(game)
        if dump_state(result.state) != dump_state(state):
            bad("replay mismatches", f"table {n}: replayed state != stored snapshot")
            continue
        ledger = Ledger([p["id"] for p in record["players"]], result.state.variant.starting_cash)
        for i, out in enumerate(result.outcomes):
            ledger.post(i, out.movements)
        totals = {pid: [ledger.income(pid), ledger.cost(pid)] for pid in ledger.players}
        if totals != game.ledger:
            bad("replay mismatches", f"table {n}: ledger {game.ledger} != replayed {totals}")
        clock_events = [d for k, d in rows if d.get("type") in ("time_up", "timeout")]
        if clock_events or (state.end_reason == "time" and not director_rows):
            ended_on_time += 1
        if ref.plan.scenario == "stop" and ref.run_.confirmed_again.is_set():
            table = game.table
            history = list(
                table.results.order_by("pk").values_list("status", "reason", "reopened_by__username")
            )
            wanted = [
                (TableResult.Status.REOPENED, "a score to check", "director"),
                (TableResult.Status.CONFIRMED, "", None),
            ]
            if history != wanted:
                bad("results not as confirmed and reopened", f"table {n}: {history}")
            elif results.current_result(table).ranking != results.table_ranking(table, game):
                bad("confirmed ranking != the game's", f"table {n}")
            if not AuditEntry.objects.filter(table_number=n, action=AuditEntry.Action.END_GAME).exists():
                bad("director's stop not audited", f"table {n}")
    if director is not None:
        (a_table, absent), (moved, source, target) = director.absent, director.move
        seated = lambda table: set(  # noqa: E731
            Seat.objects.filter(
                table__round__tournament_id=director.tournament, table__number=table
            ).values_list("participant_id", flat=True)
        )
        if (
            absent in seated(a_table)
            or not AuditEntry.objects.filter(action="absent", participant=absent).exists()
        ):
            bad("director's absent not stored", f"table {a_table}")
        if moved not in seated(target) or moved in seated(source):
            bad("director's move not stored", f"to table {target}")
        elif not AuditEntry.objects.filter(action="move", participant=moved).exists():
            bad("director's move not audited", f"to table {target}")
    for k in ("lost", "doubled", "replay mismatches"):
        v.setdefault(k, 0)
    return {"counts": v, "examples": examples, "ended on time": ended_on_time}


def gunicorn_command(args, port: int, control: Path) -> list[str]:
    command = [
        sys.executable, "-m", "gunicorn", "tournament.wsgi:application",
        "-b", f"127.0.0.1:{port}", "-k", "gthread",
        "--workers", str(args.workers), "--threads", str(args.threads),
    ]  # fmt: skip
    if args.servers > 1:  # behind HAProxy: it, not gunicorn, ends idle connections (see haproxy_config)
        command += ["--keep-alive", str(BEHIND_HAPROXY_KEEPALIVE_S)]
    if args.reuse_port:  # a listening socket per worker: the kernel, not a race to accept(), shares them out
        command += ["--reuse-port"]
    with contextlib.suppress(ImportError):
        from gunicorn.config import KNOWN_SETTINGS

        if any(s.name == "control_socket" for s in KNOWN_SETTINGS):  # gunicorn 24+: its own, not ~/.gunicorn
            command += ["--control-socket", str(control)]
    return command


def start_gunicorn(args, env, port, log_path) -> subprocess.Popen:
    """gunicorn in a session (and process group) of its own, its control socket beside its log (one each
    when several run); returned once it answers."""
    log = open(log_path, "ab")  # noqa: SIM115 (kept open by the child)
    command = gunicorn_command(args, port, log_path.with_suffix(".ctl"))
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True)
    log.close()
    wait_until_it_answers(proc, port, "gunicorn", log_path)
    return proc


def uvicorn_command(port: int, workers: int) -> list[str]:
    """The event streams' server, as in production (``uvicorn tournament.asgi:application``): warnings and
    errors only in its log (a clean one is empty), 3 s for the streams still open when it is stopped."""
    return [
        sys.executable, "-m", "uvicorn", "tournament.asgi:application", "--host", "127.0.0.1",
        "--port", str(port), "--workers", str(workers), "--log-level", "warning",
        "--timeout-graceful-shutdown", "3",
    ]  # fmt: skip


def start_uvicorn(args, env, port, log_path) -> subprocess.Popen:
    """uvicorn beside gunicorn (--streams): the same environment, a session (and process group) of its own,
    its log in ``log_path``; returned once it answers."""
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(
            uvicorn_command(port, args.stream_workers),
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
    wait_until_it_answers(proc, port, "uvicorn", log_path)
    return proc


def wait_until_it_answers(proc: subprocess.Popen, port: int, name: str, log_path: Path) -> None:
    give_up = time.monotonic() + 60
    while time.monotonic() < give_up:
        if proc.poll() is not None:
            raise SystemExit(f"{name} exited with {proc.returncode}: see {log_path}")
        with contextlib.suppress(OSError, http.client.HTTPException):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", HEALTH_PATH, headers={"Host": "127.0.0.1"})
            status = c.getresponse().status
            c.close()
            if status == 200:
                return
        time.sleep(0.2)
    stop_process(proc)
    raise SystemExit(f"{name} did not answer within 60 s: see {log_path}")


def established_to(port: int) -> int:
    """TCP connections established to ``port`` on this machine (its server's side, from /proc/net/tcp{,6})."""
    n = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as f:
            next(f, None)  # the header
            for line in f:
                fields = line.split()
                if fields[3] == "01" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    n += 1
    return n


def wait_until_left(ports: list[int], give_up_s: float = 30.0) -> int:
    """Wait until no connection is established to any of ``ports`` (the phones gone, and the balancer's
    connections behind them closed), at most ``give_up_s``: the connections still there (0 when all left)."""
    give_up = time.monotonic() + give_up_s
    while (left := sum(established_to(p) for p in ports)) and time.monotonic() < give_up:
        time.sleep(0.05)
    return left


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


# -- several servers: HAProxy in front, one killed -------------------------------------------------------
@dataclass
class AppServer:
    """One gunicorn: its master and workers, a process group of their own, on a port of their own."""

    name: str
    port: int
    proc: subprocess.Popen
    log_path: Path


def haproxy_config(
    port: int,
    servers: list[tuple[str, int]],
    balance: str = "leastconn",
    stats_port: int | None = None,
    stream_servers: list[tuple[str, int]] = (),
) -> str:
    """HAProxy in front of the app servers, as on an event day (docs/scaling.md), on 127.0.0.1.

    What it retries is what is safe to: a request it could not send (the connection to a server refused or
    timed out: ``retry-on conn-failure``, HAProxy's default) goes to another server (``option redispatch``).
    A request a server received is never sent again by HAProxy: it may have been committed before the
    server died, and only the app knows a resend is harmless (a move's ``client_key``) — its answer is a 502,
    and the referee taps again. A server is taken out at its first connection error (``observe layer4``)
    or three failed health checks two seconds apart (a check waits 5 s for its answer: a server slow under
    load is not taken out), and put back after two good ones.

    ``stream_servers``: the event streams' servers (uvicorn, one beside each gunicorn), to which the streams'
    addresses go (README: ``/events/`` routed to it); each holds its streams, and a stream it dropped comes
    back through here to another (the browser reconnects)."""
    lines = [
        "global",
        "    log stdout format raw local0 info",
        "    maxconn 4096",
        "",
        "defaults",
        "    mode http",
        "    log global",
        "    option httplog",
        "    option dontlog-normal  # only the requests that failed, and the servers going down or up",
        "    option forwardfor  # X-Forwarded-For: the app reads the phone's address (DJANGO_BEHIND_PROXY=1)",
        "    option http-keep-alive",
        "    timeout connect 2s",
        "    timeout client 60s",
        "    timeout server 60s",
        "    timeout http-keep-alive 2s  # the phones' idle connections",
        "    retries 3",
        "    option redispatch 1",
        "    retry-on conn-failure",
        "",
        "frontend event",
        f"    bind 127.0.0.1:{port}",
        *(
            ["    acl stream path_reg ^/tournaments/[0-9]+/events/$", "    use_backend streams if stream"]
            if stream_servers
            else []
        ),
        "    default_backend app",
        "",
        "backend app",
        f"    balance {balance}",
        "    option httpchk",
        f"    http-check send meth GET uri {HEALTH_PATH} ver HTTP/1.1 hdr Host 127.0.0.1",
        "    http-check expect status 200",
        "    timeout check 5s  # a busy server is slow, not dead",
        "    default-server check inter 2s fall 3 rise 2 observe layer4 error-limit 1 on-error mark-down",
        "    default-server pool-purge-delay 5s  # idle connections to a server: gunicorn keeps them longer",
        *(f"    server {name} 127.0.0.1:{server_port}" for name, server_port in servers),
    ]
    if stream_servers:  # a connection check: a stream's server is up when it takes connections
        lines += [
            "",
            "backend streams",
            "    balance leastconn",
            "    default-server check inter 2s fall 3 rise 2 observe layer4 error-limit 1 on-error mark-down",
            *(f"    server {name} 127.0.0.1:{server_port}" for name, server_port in stream_servers),
        ]
    if stats_port is not None:  # what each server was sent (haproxy_sent)
        lines += [
            "",
            "listen stats",
            f"    bind 127.0.0.1:{stats_port}",
            "    stats enable",
            "    stats uri /",
        ]
    return "\n".join(lines) + "\n"


def haproxy_sent(stats_port: int) -> dict[str, int]:
    """The requests HAProxy sent each server so far (its statistics page as CSV: ``req_tot``)."""
    c = http.client.HTTPConnection("127.0.0.1", stats_port, timeout=10)
    try:
        c.request("GET", "/;csv")
        text = c.getresponse().read().decode()
    finally:
        c.close()
    rows = csv.DictReader(io.StringIO(text.lstrip("# ")))
    return {
        r["svname"]: int(r["req_tot"] or 0)
        for r in rows
        if r["pxname"] == "app" and r["svname"] not in ("FRONTEND", "BACKEND")
    }


def start_haproxy(
    port: int,
    servers: list[AppServer],
    tmp: Path,
    balance: str,
    stats_port: int,
    stream_servers: list[AppServer] = (),
) -> subprocess.Popen:
    """HAProxy in front of ``servers``, in the foreground (``-db``), its log (stdout) in tmp/haproxy.log."""
    binary = shutil.which("haproxy") or next(
        (p for p in ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy") if os.path.exists(p)), None
    )
    if binary is None:
        raise SystemExit(
            "--servers 2 or more puts HAProxy in front of the servers, and it is not installed: "
            "apt-get install -y haproxy (Debian's package)"
        )
    config = tmp / "haproxy.cfg"
    config.write_text(
        haproxy_config(
            port,
            [(s.name, s.port) for s in servers],
            balance,
            stats_port,
            [(s.name, s.port) for s in stream_servers],
        )
    )
    subprocess.run([binary, "-c", "-q", "-f", str(config)], check=True)
    log_path = tmp / "haproxy.log"
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(
            [binary, "-db", "-f", str(config)], stdout=log, stderr=log, start_new_session=True
        )
    wait_until_it_answers(proc, port, "haproxy", log_path)
    return proc


def group_members(pgid: int) -> list[int]:
    """The live processes (not zombies) of a process group (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                state, _ppid, pgrp = f.read().rsplit(")", 1)[1].split()[:3]
        except (OSError, ValueError):
            continue
        if int(pgrp) == pgid and state != "Z":
            found.append(int(entry))
    return found


def kill_server(server: AppServer) -> None:
    """``kill -9`` of a gunicorn master and all its workers at once (its process group), as a machine that
    dies; returns when none is left."""
    os.killpg(server.proc.pid, signal.SIGKILL)
    server.proc.wait(timeout=10)
    give_up = time.monotonic() + 10
    while group_members(server.proc.pid):
        if time.monotonic() > give_up:
            raise RuntimeError(
                f"{server.name}: processes left after kill -9: {group_members(server.proc.pid)}"
            )
        time.sleep(0.05)


class Killer(threading.Thread):
    """Kills one server ``at`` s into the move phase (unless the run is over first), at a moment when
    requests are in flight (up to 5 s later): some are on the killed server then, and their answers are lost
    after the server may have committed them — what tapping again must mend."""

    def __init__(self, run: Run, server: AppServer, at: float, beside: AppServer | None = None):
        super().__init__(name="killer", daemon=True)
        self.run_, self.server, self.at = run, server, at
        self.beside = beside  # the streams' server on the same machine (--streams): killed with it
        self.error: Exception | None = None

    def run(self) -> None:
        run = self.run_
        run.go.wait()
        if run.stop.wait(max(0.0, run.t0 + self.at - time.monotonic())) or run.referees_done.is_set():
            return
        busy_by = time.monotonic() + 5
        while run.stats.in_flight < KILL_IN_FLIGHT and time.monotonic() < busy_by:
            time.sleep(0.001)
        # taken before the signal: every failure it causes comes after
        run.killed_at, run.killed_wall = time.monotonic(), time.time()
        try:
            for server in (self.server, self.beside):
                if server is not None:
                    kill_server(server)
        except Exception as e:  # reported with the figures
            self.error = e
            return
        at = run.killed_at - run.t0
        names = " and ".join(s.name for s in (self.server, self.beside) if s is not None)
        print(f"killed {names} (kill -9 of each process group) at {at:.1f} s", flush=True)


class ConnectionCount(threading.Thread):
    """PostgreSQL's connections to the load test's database, counted every second: what N servers x workers x
    threads hold (each thread keeps its own, CONN_MAX_AGE)."""

    def __init__(self, url: str):
        super().__init__(name="pg-connections", daemon=True)
        self.url = url
        self.most = 0
        self.done = threading.Event()

    def run(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as c:
            while not self.done.wait(1.0):
                row = c.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND backend_type = 'client backend' AND pid <> pg_backend_pid()"  # not autovacuum
                ).fetchone()
                self.most = max(self.most, row[0])


def haproxy_summary(log: str) -> str:
    """HAProxy's log in a few lines: the servers taken out and put back, and the requests it logged (with
    ``option dontlog-normal``, the ones that failed or were sent again)."""
    lines = [line for line in log.splitlines() if not re.match(r"\[(NOTICE|WARNING|ALERT)\]", line)]
    changes = [line for line in lines if re.search(r"Server \S+ is (DOWN|UP)|has no server available", line)]
    requests = [line for line in lines if '"' in line and line not in changes]
    shown = "".join(f"\n  {line}" for line in changes[:8] + requests[:8])
    logged = f"{len(requests)} requests logged (failed or sent again)"
    return f"HAProxy: {len(changes)} changes of the servers' state, {logged}{shown}"


def first_traceback(text: str) -> str:
    i = text.find("Traceback")
    if i < 0:
        return ""
    start = text.rfind("\n", 0, max(0, i - 300)) + 1
    return "\n".join(text[start:].splitlines()[:60])


def ms(x: float) -> str:
    return f"{x * 1000:9.1f}"


def tally_of(
    run: Run,
    referees: list[Referee],
    verification: dict | None,
    *,
    others_up: bool = True,
    sent: dict[str, int] | None = None,
    committed: int | None = None,
) -> Tally:
    args, stats = run.args, run.stats
    done = [r.out.last_move_at for r in referees if r.out.last_move_at is not None]
    offered = None
    if args.pace:
        spans = [r.schedule[r.out.planned_offered - 1] for r in referees if r.out.planned_offered]
        moves_offered = sum(r.out.planned_offered for r in referees)
        offered = moves_offered / max(spans) if spans and max(spans) > 0 else None
    not_finished = Counter(r.out.stopped or "?" for r in referees if not r.out.finished)
    integrity = None
    if verification is not None:
        integrity = Counter(
            {
                k: n
                for k, n in verification["counts"].items()
                if k not in ("moves acknowledged", "events stored") and not k.startswith("unanswered")
            }
        )
    kill_at = None if run.killed_at is None else run.killed_at - run.t0
    return Tally(
        tables=len(referees),
        workers=args.workers * args.servers,
        moves_acked=sum(r.out.planned_done for r in referees),
        move_phase_s=(max(done) - run.t0) if done else 0.0,
        offered_rate=offered,
        move_latencies=[x for kind in MOVE_KINDS for x in stats.latency.get(kind, [])],
        statuses=Counter(stats.status),
        connection=Counter(stats.connection),
        anomalies=Counter(stats.anomalies),
        not_finished=not_finished,
        ended_on_time=verification["ended on time"] if verification is not None else 0,
        integrity=integrity,
        kill_asked=args.kill_one_at is not None,
        kill_at=kill_at,
        kill_window_s=args.kill_window,
        failures=[(f.at - run.t0, f.what, f.answered) for f in stats.failures],
        acked_after_kill=sum(
            1 for r in referees for t in r.out.acked_at if run.killed_at is not None and t > run.killed_at
        ),
        others_up=others_up,
        sent=sent,
        committed_unanswered=committed,
        spectators=args.spectators,
        spectator_window_s=args.spectator_window,
        reloads=list(run.reloads),
        **(stream_tally(run) if args.streams else {}),
    )


def stream_tally(run: Run) -> dict:
    """--streams: the Tally's fields of the streams."""
    states = run.stream_states
    failures = Counter(s.failure for s in states if s.failure)
    if run.streams_error is not None:  # the client itself failed: its streams are none of them known
        failures[f"the streams' client failed ({run.streams_error!r})"] = max(
            1, sum(1 for s in states if s.opened_at is None and s.failure is None)
        )
    if len(states) < run.args.streams:
        failures["never opened"] += run.args.streams - len(states)
    bad = Counter()
    for s in states:
        bad.update(s.bad)
    return {
        "streams": run.args.streams,
        "stream_failures": failures,
        "streams_closed_early": Counter(s.ended for s in states if s.ended),
        "stream_bad_events": bad,
        "delivery": deliveries(list(run.acks or []), [(s.game, s.arrivals) for s in states]),
        "stream_log": run.stream_log,
        "stream_cuts": [
            (cut - run.t0, next((r - cut for r in s.reopened if r >= cut), None))
            for s in states
            for cut in s.cuts
        ],
    }


def report(
    run: Run,
    referees,
    wall: float,
    cpu: dict,
    verification: dict | None,
    log_text: str,
    *,
    others_up: bool = True,
    notes: tuple[str, ...] = (),
    sent: dict[str, int] | None = None,
    committed: int | None = None,
) -> bool:
    args, stats = run.args, run.stats
    tally = tally_of(run, referees, verification, others_up=others_up, sent=sent, committed=committed)
    planned = sum(len(r.plan.events) for r in referees)
    print()
    print(
        f"move phase: {tally.move_phase_s:.1f} s to the last move ({wall:.1f} s with the results), "
        f"{tally.moves_acked} of {planned} planned moves acknowledged"
    )
    rate = tally.moves_acked / tally.move_phase_s if tally.move_phase_s > 0 else 0.0
    offered = ""
    if args.pace:
        offered = f" (offered: {len(referees) / args.pace:.2f} moves/s at this pace"
        if tally.offered_rate:
            offered += f", {tally.offered_rate:.2f} by the referees' schedule"
        offered += ")"
    print(f"moves/s: {rate:.2f}{offered}")
    late = [x for r in referees for x in r.out.lateness]
    if late:
        print(
            f"moves sent after their time (s): p50 {percentile(late, 50):.2f}, "
            f"p95 {percentile(late, 95):.2f}, max {max(late):.2f}"
        )
    print()
    print(f"{'latency (ms)':<16}{'count':>8}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}")
    order = [*MOVE_KINDS, "poll", "login", "login page", "console page", "director page", "standings.pdf",
             "workbook.xlsx"]  # fmt: skip
    for kind in order + sorted(set(stats.latency) - set(order)):
        values = stats.latency.get(kind)
        if values:
            print(
                f"{kind:<16}{len(values):>8}{ms(percentile(values, 50))}{ms(percentile(values, 95))}"
                f"{ms(percentile(values, 99))}{ms(max(values))}"
            )
    if tally.move_latencies:
        values = tally.move_latencies
        print(
            f"{'all moves':<16}{len(values):>8}{ms(percentile(values, 50))}{ms(percentile(values, 95))}"
            f"{ms(percentile(values, 99))}{ms(max(values))}"
        )
    statuses = ", ".join(f"{s}: {n}" for s, n in sorted(stats.status.items(), key=lambda x: str(x[0])))
    if tally.failures:
        shown = [f"{at:.2f} {what}{'' if ok else ' (not answered)'}" for at, what, ok in tally.failures[:12]]
        print("failed requests (s into the move phase): " + ", ".join(shown))
    print()
    print(f"HTTP statuses: {statuses}")
    print("connection errors: " + (", ".join(f"{k}: {n}" for k, n in stats.connection.items()) or "none"))
    print("events: " + ", ".join(f"{k}: {n}" for k, n in sorted(stats.count.items())))
    if stats.anomalies:
        print("anomalies: " + ", ".join(f"{k}: {n}" for k, n in sorted(stats.anomalies.items())))
    for what, ex in stats.examples.items():
        for e in ex[:3]:
            print(f"  e.g. {what}: {e}")
    scenarios = Counter(r.plan.scenario for r in referees if r.plan.scenario)
    if scenarios:
        print("tables with a scenario: " + ", ".join(f"{k}: {n}" for k, n in sorted(scenarios.items())))
    if tally.not_finished:
        print(
            "tables not played to the end: " + ", ".join(f"{k}: {n}" for k, n in tally.not_finished.items())
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
            + (f"haproxy {pct(cpu['haproxy']):.0f}%, " if cpu.get("haproxy") else "")
            + (f"uvicorn {pct(cpu['uvicorn']):.0f}%, " if args.streams else "")
            + f"this client {100 * cpu['client'] / wall:.0f}%; load average after: {cpu['load']}"
        )
        if tally.moves_acked:
            server_ms = 1000 * (cpu["gunicorn"] + cpu["postgres"]) / cpu["hz"] / tally.moves_acked
            print(
                f"server CPU per acknowledged move (its requests, gunicorn + postgres): {server_ms:.1f} ms"
                f" -> at most ~{cores * 1000 / server_ms:.0f} moves/s on {cores} otherwise idle cores"
            )
    if args.streams:
        report_streams(run, tally, cpu, wall)
    elif run.memory:
        print(f"memory (the most, sampled every second of the move phase): {memory_text(run.memory)}")
    if args.spectators:
        report_spectators(run, tally)
    found = log_findings(log_text, tally.workers)
    print("gunicorn log: " + (", ".join(f"{k}: {n}" for k, n in found.items()) or "only INFO lines"))
    for note in notes:
        print(note)
    if first := first_traceback(log_text):
        print("first traceback in the gunicorn log:\n" + first)
    if verification is not None:
        c = verification["counts"]
        print()
        print(
            f"verified {len(referees)} games in the database: {c['moves acknowledged']} moves acknowledged, "
            f"{c['events stored']} events stored"
        )
        print(f"lost: {c['lost']}, doubled: {c['doubled']}, replay mismatches: {c['replay mismatches']}")
        for what, ex in verification["examples"].items():
            for e in ex[:3]:
                print(f"  e.g. {what}: {e}")
    limits = Limits(
        args.p95_limit / 1000, args.p99_limit / 1000, args.pace_fraction, args.connection_error_tolerance
    )
    checks = verdict(tally, log_text, limits)
    print()
    for c in checks:
        print(f"{'ok  ' if c.ok else 'FAIL'} {c.name}: {c.detail}")
    ok = all(c.ok for c in checks)
    print()
    print("RESULT: " + ("PASS" if ok else "FAIL (" + ", ".join(c.name for c in checks if not c.ok) + ")"))
    return ok


def memory_text(memory: dict[str, tuple[int, int]]) -> str:
    return ", ".join(
        f"{name} {kib / 1024:.0f} MiB ({n} process{'es' if n != 1 else ''})"
        for name, (kib, n) in memory.items()
    )


def report_streams(run: Run, tally: Tally, cpu: dict, wall: float) -> None:
    """The figures of the event streams (--streams)."""
    args, states, d = run.args, run.stream_states, tally.delivery
    print()
    tables = len({s.table for s in states})
    print(
        f"streams: {args.streams} on uvicorn ({args.stream_workers} worker"
        f"{'s' if args.stream_workers > 1 else ''}), participants' pages "
        f"(/tournaments/<id>/events/?table=<pk>) over {tables} tables "
        f"(~{args.streams / max(1, tables):.1f} a table); opened in "
        + (f"{run.streams_open_s:.1f} s" if run.streams_open_s is not None else "? s (not all)")
        + f", {args.stream_open_concurrency} at a time"
    )
    failures = ", ".join(f"{k}: {n}" for k, n in sorted(tally.stream_failures.items())) or "none"
    ended = ", ".join(f"{k}: {n}" for k, n in sorted(tally.streams_closed_early.items())) or "none"
    with_version = sum(len(s.arrivals) for s in states)
    print(
        f"stream events: {sum(s.events for s in states)} ({with_version} with a table's version), "
        f"heartbeats: {sum(s.heartbeats for s in states)}; connection failures: {failures}; "
        f"closed early: {ended}"
        + (
            "; bad events: " + ", ".join(f"{k}: {n}" for k, n in sorted(tally.stream_bad_events.items()))
            if tally.stream_bad_events
            else ""
        )
    )
    if d is not None and d.pairs:
        print(
            f"changes on the streams: {len(run.acks or [])} changes acknowledged (moves, undos, voids) x "
            f"the streams of their tables = {d.pairs} pairs: {d.delivered} delivered "
            f"({d.delivered / d.pairs:.2%}), "
            f"{d.coalesced} coalesced ({d.coalesced / d.pairs:.2%}), {d.missing} missing "
            f"({d.missing / d.pairs:.2%})"
        )
        for e in d.examples[:3]:
            print(f"  e.g. missing: {e}")
    if d is not None and d.delays:
        x = d.delays
        early = sum(1 for v in x if v < 0)
        print(
            f"{'delivery (ms)':<16}{'count':>8}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}{'min':>9}"
            "   (the stream's event - the referee's answer)"
        )
        print(
            f"{'answer->event':<16}{len(x):>8}{ms(percentile(x, 50))}{ms(percentile(x, 95))}"
            f"{ms(percentile(x, 99))}{ms(max(x))}{ms(min(x))}"
        )
        print(f"  {early} of {len(x)} ({early / len(x):.1%}) came before the referee's answer (negative)")
    ended_at = [s.ended_at for s in states if s.ended_at is not None]
    if ended_at:
        print(
            f"  the first closed early {min(ended_at) - run.t0:.1f} s into the move phase, the last "
            f"{max(ended_at) - run.t0:.1f} s"
        )
    print(
        "after the run, every stream showed its game's last version "
        + (
            f"within {run.caught_up_s:.1f} s"
            if run.caught_up_s is not None
            else f"NOT within {args.stream_drain:g} s"
        )
        + (
            f"; then closed (this side) in {run.streams_close_s:.2f} s"
            if run.streams_close_s is not None
            else ""
        )
    )
    if run.memory:
        print(f"memory (the most, sampled every second of the move phase): {memory_text(run.memory)}")
    if run.memory_idle:
        print(f"memory before the moves (the streams open): {memory_text(run.memory_idle)}")
    if cpu and wall:
        pct = lambda ticks: 100 * ticks / cpu["hz"] / wall  # noqa: E731
        print(
            f"CPU of uvicorn during the move phase: {pct(cpu['uvicorn']):.0f}% (by process: "
            f"{' '.join(f'{pct(t):.0f}%' for t in cpu['uvicorn per process'])})"
            + (
                f"; {1000 * cpu['uvicorn'] / cpu['hz'] / max(1, len(run.acks or [])):.1f} ms a change"
                if run.acks
                else ""
            )
        )
    if run.streams_error is not None:
        print(f"the streams' client failed: {run.streams_error!r}")
    found = log_findings(tally.stream_log)
    print("uvicorn log: " + (", ".join(f"{k}: {n}" for k, n in found.items()) or "empty"))
    if first := first_traceback(tally.stream_log):
        print("first traceback in the uvicorn log:\n" + first)
    elif found:
        print("uvicorn log begins:\n" + "\n".join(tally.stream_log.splitlines()[:10]))


def report_spectators(run: Run, tally: Tally) -> None:
    """The figures of the phones that reloaded the standings at the round's end (--spectators)."""
    args, reloads = run.args, tally.reloads
    print()
    print(
        f"round's end (the last referee done): {args.spectators} phones reload the public standings, each "
        f"once on a connection of its own, no login, tapping over {args.spectator_window:g} s (seeded), "
        f"{min(args.spectator_concurrency, args.spectators)} client threads"
    )
    statuses = Counter(r.status for r in reloads)
    conn = {s: n for s, n in statuses.items() if isinstance(s, str)}
    print(
        f"standings requests: {len(reloads)}; HTTP statuses: "
        + (", ".join(f"{s}: {n}" for s, n in sorted(statuses.items(), key=lambda x: str(x[0]))) or "none")
        + "; connection errors: "
        + (", ".join(f"{s}: {n}" for s, n in conn.items()) or "none")
    )
    without = sum(1 for r in reloads if r.status == 200 and not r.standings)
    if without:
        print(f"answered 200 without the standings table: {without}")
    answered = [r for r in reloads if isinstance(r.status, int)]
    if answered:
        took = [r.seconds for r in answered]
        print(
            f"{'standings (ms)':<16}{'count':>8}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}"
            "   (from the phone's tap: a wait for a client thread counts)"
        )
        print(
            f"{'from the tap':<16}{len(took):>8}{ms(percentile(took, 50))}{ms(percentile(took, 95))}"
            f"{ms(percentile(took, 99))}{ms(max(took))}"
        )
    shown = [r for r in reloads if r.status == 200 and r.standings]
    if shown:
        last = max(shown, key=lambda r: r.done)
        print(
            f"{'all ' if len(shown) == args.spectators else ''}{len(shown)}"
            f"{'' if len(shown) == args.spectators else f' of {args.spectators}'} phones had the standings "
            f"within {last.done:.2f} s of the round's end (the last tap "
            f"{max(r.start for r in reloads):.2f} s after it)"
        )
    cpu = run.phones_cpu
    if cpu and cpu["wall"] > 0:
        pct = lambda ticks: 100 * ticks / cpu["hz"] / cpu["wall"]  # noqa: E731
        per_page = (
            f"; server CPU per standings page (gunicorn + postgres): "
            f"{1000 * (cpu['gunicorn'] + cpu['postgres']) / cpu['hz'] / len(answered):.1f} ms"
            if answered
            else ""
        )
        print(
            f"CPU from the round's end to the last answer ({cpu['wall']:.1f} s): machine busy "
            f"{cpu['machine']:.0f}%, gunicorn {pct(cpu['gunicorn']):.0f}%, "
            f"postgres {pct(cpu['postgres']):.0f}%, "
            + (f"haproxy {pct(cpu['haproxy']):.0f}%, " if cpu.get("haproxy") else "")
            + f"this client {100 * cpu['client'] / cpu['wall']:.0f}%{per_page}"
        )
    print()


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
    p.add_argument(
        "--director-every", type=float, default=30, help="the director's pages and files every S s"
    )
    p.add_argument("--plain", action="store_true", help="moves only: no director, no two phones, undo, void")
    p.add_argument("--p95-limit", type=float, default=500, help="ms: the moves' 95th percentile at most")
    p.add_argument("--p99-limit", type=float, default=2000, help="ms: the moves' 99th percentile at most")
    p.add_argument("--pace-fraction", type=float, default=0.9, help="of the offered moves/s at least")
    p.add_argument("--connection-error-tolerance", type=int, default=0, help="connection errors allowed")
    p.add_argument(
        "--servers", type=int, default=1, help="gunicorn instances, behind HAProxy when 2 or more (1..8)"
    )
    p.add_argument(
        "--reuse-port",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="gunicorn's --reuse-port (each worker its own socket: connections shared out evenly)",
    )
    p.add_argument("--balance", choices=["leastconn", "roundrobin"], default="leastconn", help="HAProxy's")
    p.add_argument(
        "--kill-one-at",
        type=kill_time,
        metavar="S|P%",
        help="kill -9 one server (master and workers) S s into the move phase, or at P%% of the referees' "
        "schedule; the others must carry on",
    )
    p.add_argument(
        "--kill-window", type=float, default=10, help="s after the kill whose failed requests are the kill's"
    )
    p.add_argument(
        "--spectators",
        type=int,
        default=0,
        help="phones that each reload the public standings once at the round's end (0 = none)",
    )
    p.add_argument(
        "--spectator-window", type=float, default=10, help="s from the round's end over which they tap"
    )
    p.add_argument(
        "--spectator-limit",
        type=float,
        default=10,
        help="s after the window: the last phone's standings at most window + this after the round's end",
    )
    p.add_argument(
        "--spectator-concurrency", type=int, default=64, help="client threads sending the phones' reloads"
    )
    p.add_argument(
        "--streams",
        type=int,
        default=0,
        help="event streams held open on uvicorn (participants' pages, round-robin over the tables; 0: none)",
    )
    p.add_argument("--stream-workers", type=int, default=1, help="uvicorn's worker processes (1..16)")
    p.add_argument(
        "--stream-open-concurrency", type=int, default=32, help="streams being opened at once (1..512)"
    )
    p.add_argument(
        "--stream-drain",
        type=float,
        default=10,
        help="s after the last referee for the streams to show every game's last version",
    )
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
    if args.director_every <= 0 or not 0 < args.pace_fraction <= 1:
        p.error("bad --director-every or --pace-fraction")
    if not 1 <= args.servers <= 8:
        p.error("--servers must be 1..8")
    if args.servers > 1 and args.db != "postgres":
        p.error("--servers 2 or more share one PostgreSQL (--db postgres): machines share no SQLite file")
    if args.kill_one_at is not None and args.servers < 2:
        p.error("--kill-one-at needs --servers 2 or more: the others carry on")
    if args.kill_one_at is not None and args.kill_one_at[1] and not args.pace:
        p.error("--kill-one-at P% needs a --pace (flat out, the schedule has no length): give seconds")
    if args.kill_window <= 0:
        p.error("--kill-window must be more than 0")
    if not 0 <= args.spectators <= 5000 or not 1 <= args.spectator_concurrency <= 512:
        p.error("--spectators must be 0..5000, --spectator-concurrency 1..512")
    if not (0 < args.spectator_window <= 600 and 0 < args.spectator_limit <= 600):
        p.error("--spectator-window and --spectator-limit must be more than 0 (at most 600 s)")
    if not 0 <= args.streams <= 5000 or not 1 <= args.stream_workers <= 16:
        p.error("--streams must be 0..5000, --stream-workers 1..16")
    if not 1 <= args.stream_open_concurrency <= 512 or not 0 <= args.stream_drain <= 600:
        p.error("--stream-open-concurrency must be 1..512, --stream-drain 0..600 s")
    return args


def kill_time(text: str) -> tuple[float, bool]:
    """``--kill-one-at``: seconds (``20``) or a share of the referees' schedule (``40%``): (value, share?)."""
    share = text.endswith("%")
    try:
        value = float(text[:-1] if share else text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: seconds (20) or a percentage (40%)") from None
    if value < 0 or (share and value > 100):
        raise argparse.ArgumentTypeError(f"{text!r}: 0 or more seconds, or 0..100%")
    return (value / 100, True) if share else (value, False)


def main(argv=None) -> int:
    args = parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="monopoly-load-"))
    pg = balancer = streams = None
    uvicorns: list[AppServer] = []  # the streams' servers (--streams): one beside each gunicorn
    servers: list[AppServer] = []
    ok = False

    def terminate(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    try:
        database_url = None
        if args.db == "postgres":
            from tests.pgserver import Server

            connections_wanted = args.servers * args.workers * args.threads + 20
            if args.streams:  # each uvicorn worker's hub: a reader and a listener; the streams being opened
                connections_wanted += args.servers * 2 * args.stream_workers + args.stream_open_concurrency
            pg = Server(durable=True, max_connections=max(300, connections_wanted))
            pg.start()
            pg.create_database("loadtest")
            database_url = pg.url("loadtest")
        env = server_env(tmp, database_url, behind_proxy=args.servers > 1)
        for k in [k for k in os.environ if k in ("DATABASE_URL", "DB") or k.startswith(("DB_", "DJANGO_"))]:
            del os.environ[k]
        os.environ.update({k: v for k, v in env.items() if k.startswith(("DJANGO_", "DATABASE_URL"))})
        served = f"gunicorn gthread {args.workers} workers x {args.threads} threads on 127.0.0.1"
        served += " (--reuse-port)" if args.reuse_port else ""
        if args.servers > 1:
            served = f"{args.servers} x {served}, behind HAProxy ({args.balance})"
            if args.kill_one_at is not None:
                value, share = args.kill_one_at
                served += f", one killed at {f'{value:.0%} of the schedule' if share else f'{value:g} s'}"
        print(
            f"event-day load test: {args.db}, {args.tables} tables x {args.moves_per_table} moves, "
            f"pace {'flat out' if not args.pace else f'{args.pace:g} s per move per table'}, "
            f"{served}, "
            f"resend {args.resend_rate:.0%} / double tap {args.double_rate:.0%} / "
            f"stale {args.stale_rate:.0%}, "
            f"poll every {args.poll:g} s, "
            + ("no scenarios, no director, " if args.plain else f"director every {args.director_every:g} s, ")
            + (
                f"{args.spectators} phones reload the standings over {args.spectator_window:g} s from the "
                f"round's end ({args.spectator_concurrency} at a time), "
                if args.spectators
                else ""
            )
            + (
                f"{args.streams} event streams (participants' pages) on uvicorn ({args.stream_workers} "
                f"worker{'s' if args.stream_workers > 1 else ''}) beside gunicorn, "
                if args.streams
                else ""
            )
            + f"seed {args.seed}, time limit {args.duration_limit:g} s"
        )
        print(f"machine: {os.cpu_count()} cores, load average before: {os.getloadavg()}")
        t_setup = time.monotonic()
        # run once, whatever the number of servers (docs/scaling.md)
        for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True)
        import django

        django.setup()
        from django.db import connections

        plans, director_plan = create_data(args)
        states = stream_states(args, plans) if args.streams else []
        connections.close_all()
        for i in range(1, args.servers + 1):
            name = "gunicorn" if args.servers == 1 else f"app{i}"
            port, log_path = free_port(), tmp / f"{name}.log"
            servers.append(AppServer(name, port, start_gunicorn(args, env, port, log_path), log_path))
        if args.streams:  # beside each gunicorn (a machine runs both), behind HAProxy with them
            enough_files(2 * (args.streams + args.tables) + 1024)  # this client's sockets, and uvicorn's
            for server in servers:
                name = "uvicorn" if args.servers == 1 else f"{server.name}-streams"
                stream_port, log_path = free_port(), tmp / f"{name}.log"
                uvicorns.append(
                    AppServer(name, stream_port, start_uvicorn(args, env, stream_port, log_path), log_path)
                )
        port = servers[0].port
        stream_port = uvicorns[0].port if uvicorns else None
        if args.servers > 1:
            port, stats_port = free_port(), free_port()
            balancer = start_haproxy(port, servers, tmp, args.balance, stats_port, uvicorns)
            stream_port = port
        print(
            f"set-up: {time.monotonic() - t_setup:.1f} s; "
            + ", ".join(f"{s.name} pid {s.proc.pid} on 127.0.0.1:{s.port}" for s in servers)
            + (f"; HAProxy pid {balancer.pid} on 127.0.0.1:{port}" if balancer else "")
            + "".join(f"; {u.name} pid {u.proc.pid} on 127.0.0.1:{u.port}" for u in uvicorns)
        )

        run = Run(args, port)
        memory = MemorySampler(
            {
                "gunicorn": [s.proc.pid for s in servers],
                **({"uvicorn": [u.proc.pid for u in uvicorns]} if uvicorns else {}),
            }
        )
        if uvicorns:  # the phones' streams, open before the referees come
            run.stream_states = states
            streams = Streams(
                stream_port, states, args.stream_open_concurrency, reconnect=args.kill_one_at is not None
            )
            streams.start()
            streams.opened.wait(
                timeout=STREAM_OPEN_TIMEOUT_S * (1 + len(states) // args.stream_open_concurrency)
            )
            run.streams_open_s = streams.open_s
            up = sum(1 for st in states if st.opened_at is not None and st.ended is None)
            print(
                f"streams: {up} of {len(states)} open"
                + (f" in {streams.open_s:.1f} s" if streams.open_s is not None else "")
                + f" ({args.stream_open_concurrency} opened at a time)"
            )
        run.memory_idle = memory.sample()
        referees = [Referee(run, plan, seed=args.seed * 100_003 + plan.table) for plan in plans]
        director = Director(run, director_plan) if director_plan is not None else None
        spectators = Spectators(run, plans[0].tournament) if args.spectators else None
        killer = None
        if args.kill_one_at is not None:
            value, share = args.kill_one_at
            if share:
                span = max(
                    (r.schedule[r.out.planned_offered - 1] for r in referees if r.out.planned_offered),
                    default=0,
                )
                value *= span
            killer = Killer(run, servers[0], value, beside=uvicorns[0] if uvicorns else None)
            killer.start()
        pg_connections = ConnectionCount(database_url) if database_url else None
        t_login = time.monotonic()
        for r in [*referees, *([director] if director else [])]:
            r.start()
        try:
            for r in [*referees, *([director] if director else [])]:
                r.ready.wait(timeout=max(0.0, run.deadline - time.monotonic()))
            print(f"logins: {time.monotonic() - t_login:.1f} s for {len(referees)} referees")
            if pg_connections is not None:
                pg_connections.start()
            hz = os.sysconf("SC_CLK_TCK")
            pg_pid = None
            if pg is not None:
                with contextlib.suppress(OSError, ValueError):
                    pg_pid = int((pg.data / "postmaster.pid").read_text().split()[0])

            def app_ticks() -> dict[int, int]:
                return {pid: t for s in servers for pid, t in cpu_ticks(s.proc.pid).items()}

            def stream_ticks() -> dict[int, int]:
                return {pid: t for u in uvicorns for pid, t in cpu_ticks(u.proc.pid).items()}

            def cpu_since(before) -> dict:
                total, idle = machine_ticks()
                usage = resource.getrusage(resource.RUSAGE_SELF)
                after_app, after_streams = app_ticks(), stream_ticks()
                return {
                    "hz": hz,
                    "gunicorn": ticks_used(before[0], after_app),
                    "per process": sorted(
                        (t - before[0].get(pid, 0) for pid, t in after_app.items()), reverse=True
                    ),
                    "postgres": ticks_used(before[1], cpu_ticks(pg_pid)),
                    "uvicorn": ticks_used(before[5], after_streams),
                    "uvicorn per process": sorted(
                        (t - before[5].get(pid, 0) for pid, t in after_streams.items()), reverse=True
                    ),
                    "haproxy": ticks_used(before[4], cpu_ticks(balancer.pid if balancer else None)),
                    "machine": 100
                    * (os.cpu_count() or 1)
                    * (1 - (idle - before[2][1]) / max(1, total - before[2][0])),
                    "client": (usage.ru_utime + usage.ru_stime) - (before[3].ru_utime + before[3].ru_stime),
                    "load": tuple(round(x, 2) for x in os.getloadavg()),
                }

            def cpu_now() -> tuple:
                return (
                    app_ticks(),
                    cpu_ticks(pg_pid),
                    machine_ticks(),
                    resource.getrusage(resource.RUSAGE_SELF),
                    cpu_ticks(balancer.pid if balancer else None),
                    stream_ticks(),
                )

            before = cpu_now()
            run.t0 = t0 = time.monotonic()
            run.go.set()
            memory.start()
            for r in referees:
                r.join(timeout=max(1.0, run.deadline - time.monotonic()))
            memory.done.set()
            run.stop.set()  # the time limit: stop the referees still going
            run.referees_done.set()
            run.wake_director.set()
            if spectators is not None:  # the round's end: the move phase's figures, then the phones
                wall, cpu = time.monotonic() - t0, cpu_since(before)
                before_phones = cpu_now()
                spectators.start()
            for r in [*referees, *([director] if director else [])]:
                r.join(timeout=REQUEST_TIMEOUT_S * MAX_TRIES)
            if spectators is None:
                wall, cpu = time.monotonic() - t0, cpu_since(before)
            else:
                spectators.join(timeout=args.spectator_window + 2 * REQUEST_TIMEOUT_S)
                spectators.halt.set()
                run.reloads = list(spectators.reloads)
                run.phones_cpu = cpu_since(before_phones)
                run.phones_cpu["wall"] = time.monotonic() - spectators.round_end
            memory.join(timeout=5)
            run.memory = dict(memory.most)
            if streams is not None:
                run.caught_up_s = catch_up(run, args.stream_drain)
        except KeyboardInterrupt:
            run.stop.set()
            memory.done.set()
            if spectators is not None:
                spectators.halt.set()
            raise
        notes = []
        if pg_connections is not None:
            pg_connections.done.set()
            pg_connections.join(timeout=5)
            notes.append(
                f"PostgreSQL connections of the servers: at most {pg_connections.most} "
                f"({args.servers} x {args.workers} workers x {args.threads} threads = "
                f"{args.servers * args.workers * args.threads} possible; "
                f"max_connections {pg.max_connections})"
                + (
                    f"; uvicorn's included ({len(uvicorns)} x {args.stream_workers} x a reader, a listener)"
                    if uvicorns
                    else ""
                )
            )
        killed = killer.server if killer is not None and run.killed_at is not None else None
        if killer is not None and killer.error is not None:
            notes.append(f"the kill failed: {killer.error!r}")
        dead = (killed, killer.beside) if killed is not None else ()
        others_up = all(s.proc.poll() is None for s in [*servers, *uvicorns] if s not in dead)
        sent = None
        if balancer is not None:
            sent = haproxy_sent(stats_port)
            notes.append(
                "HAProxy sent: "
                + ", ".join(f"{name} {n} requests{' (killed)' if killed and name == killed.name else ''}"
                            for name, n in sent.items())
            )  # fmt: skip
        if streams is not None:  # the phones leave first: uvicorn then stops without streams to cancel
            streams.close()
            run.streams_error, run.streams_close_s = streams.error, streams.close_s
            if left := wait_until_left([u.port for u in uvicorns]):
                notes.append(f"{left} connections to the streams' servers open 30 s after the phones left")
            for u in uvicorns:
                stop_process(u.proc)
            run.stream_log = "".join(
                u.log_path.read_text(errors="replace") for u in uvicorns if u.log_path.exists()
            )
        stop_process(balancer)  # first: its health checks would see the servers stop
        for s in servers:
            stop_process(s.proc)
        if balancer is not None:
            notes.append(haproxy_summary((tmp / "haproxy.log").read_text(errors="replace")))
        if any(r.is_alive() for r in referees):
            print("warning: some referees were still waiting for an answer when gunicorn was stopped")
        verification = verify(referees, director_plan)
        committed = committed_before_the_kill(run)
        connections.close_all()
        log_text = "".join(s.log_path.read_text(errors="replace") for s in servers if s.log_path.exists())
        ok = report(
            run,
            referees,
            wall,
            cpu,
            verification,
            log_text,
            others_up=others_up,
            notes=tuple(notes),
            sent=sent,
            committed=committed,
        )
    except KeyboardInterrupt:
        print("interrupted")
    finally:
        if streams is not None:
            streams.close()
        for u in uvicorns:
            stop_process(u.proc)
        stop_process(balancer)
        for s in servers:
            stop_process(s.proc)
        if pg is not None:
            pg.stop()
        if ok and not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"kept: {tmp} (the servers' logs are there)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
