"""The event-day load test's verdict (tests/load_event_day.py): each criterion fails the run on its own and
names itself with its figures; a clean run passes. Its bookkeeping of undone and voided moves and of the
director's stop against the database, and its set-up (no time limit, the scenarios drawn on the simulated
games). Several servers: HAProxy's configuration, the kill of one (its process group), and the failures it
causes judged apart, each answered by tapping again. The phones that reload the standings at the round's
end (--spectators): their criteria, and their timing from the tap. The event streams (--streams): their
text read into events however it is cut, the changes matched with the streams' events (delivered, coalesced,
missing, the delay's sign kept), their criteria, the client against a server of its own. Two small real runs
with ``--slow``: one server (gunicorn, 4 tables, SQLite, 40 phones at the end, 12 event streams on uvicorn),
and two behind HAProxy on PostgreSQL with one killed mid-run."""

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests import load_event_day as load
from tests.load_event_day import Limits, Reload, Tally, log_findings, verdict
from tournament.streams import hub

ROOT = Path(__file__).resolve().parents[1]
needs_haproxy = pytest.mark.skipif(
    shutil.which("haproxy") is None, reason="HAProxy is not installed (apt-get install haproxy)"
)

CLEAN_LOG = """\
[2026-11-25 02:02:49 +0000] [28407] [INFO] Starting gunicorn 27.0.1
[2026-11-25 02:02:49 +0000] [28407] [INFO] Listening at: http://127.0.0.1:50429 (28407)
[2026-11-25 02:02:49 +0000] [28407] [INFO] Using worker: gthread
[2026-11-25 02:02:49 +0000] [28410] [INFO] Booting worker with pid: 28410
[2026-11-25 02:02:50 +0000] [28411] [INFO] Booting worker with pid: 28411
[2026-11-25 02:02:50 +0000] [28412] [INFO] Booting worker with pid: 28412
[2026-11-25 02:02:50 +0000] [28407] [INFO] Control socket listening at /tmp/x/gunicorn.ctl
[2026-11-25 02:04:34 +0000] [28407] [INFO] Handling signal: term
[2026-11-25 03:04:34 +0100] [28410] [INFO] Worker exiting (pid: 28410)
[2026-11-25 03:04:34 +0100] [28411] [INFO] Worker exiting (pid: 28411)
[2026-11-25 03:04:34 +0100] [28412] [INFO] Worker exiting (pid: 28412)
[2026-11-25 02:04:36 +0000] [28407] [INFO] Shutting down: Master
"""

TRACEBACK = """\
Internal Server Error: /games/12/act/
Traceback (most recent call last):
  File "/usr/lib/python3/django/core/handlers/exception.py", line 55, in inner
    response = get_response(request)
  File "/work/tournament/moves.py", line 190, in submit_all
    game = _lock(game_id)
django.db.utils.OperationalError: database is locked
"""

WORKER_TIMEOUT = """\
[2026-11-25 02:03:40 +0000] [28407] [CRITICAL] WORKER TIMEOUT (pid:28411)
[2026-11-25 02:03:40 +0000] [28407] [ERROR] Worker (pid:28411) was sent SIGKILL! Perhaps out of memory?
[2026-11-25 02:03:41 +0000] [28500] [INFO] Booting worker with pid: 28500
"""


def clean() -> Tally:
    """A healthy run: 20 tables at one move every 3 s, every move acknowledged, answers in tens of ms."""
    return Tally(
        tables=20,
        workers=3,
        moves_acked=600,
        move_phase_s=95.0,
        offered_rate=6.5,
        move_latencies=[0.02] * 600 + [0.1] * 30 + [0.3] * 5,
        statuses=Counter({200: 700, 204: 100, 302: 30}),
        integrity=Counter({"lost": 0, "doubled": 0, "replay mismatches": 0}),
    )


def failed(tally: Tally, log: str = CLEAN_LOG, limits: Limits | None = None) -> dict[str, str]:
    return {c.name: c.detail for c in verdict(tally, log, limits) if not c.ok}


def test_a_clean_run_passes():
    checks = verdict(clean(), CLEAN_LOG)
    assert all(c.ok for c in checks), [c for c in checks if not c.ok]
    names = [c.name for c in checks]
    assert names == [
        "5xx answers",
        "connection errors",
        "server log",
        "tables played to the end",
        "games ended by a time limit or the move clock",
        "pace",
        "latency of moves",
        "integrity",
        "client anomalies",
    ]


def test_a_5xx_fails():
    t = clean()
    t.statuses[502] = 1
    assert failed(t) == {"5xx answers": "1 (limit 0)"}


@pytest.mark.parametrize(
    "kind",
    [
        "no answer (connection error)",
        "answer cut short",
        "no answer (timeout or socket error)",
        "keep-alive connection closed under a request (sent again)",  # the tap again succeeded: still counted
    ],
)
def test_a_connection_error_fails_even_when_tapping_again_succeeded(kind):
    t = clean()
    t.connection[kind] = 1
    assert failed(t) == {"connection errors": f"1 (limit 0): {kind}: 1"}


def test_connection_errors_within_a_stated_tolerance_pass():
    t = clean()
    t.connection["no answer (connection error)"] = 2
    assert failed(t, limits=Limits(connection_errors=2)) == {}
    assert "connection errors" in failed(t, limits=Limits(connection_errors=1))


def test_a_traceback_in_the_log_fails():
    bad = failed(clean(), CLEAN_LOG + TRACEBACK)
    assert list(bad) == ["server log"]
    assert "tracebacks: 1" in bad["server log"]
    assert "database is locked: 1" in bad["server log"]
    assert "error lines: 1" in bad["server log"]  # "Internal Server Error"; the traceback's frames: not lines


def test_a_worker_timeout_fails():
    bad = failed(clean(), CLEAN_LOG + WORKER_TIMEOUT)
    assert list(bad) == ["server log"]
    assert "worker timeouts: 1" in bad["server log"]
    assert "workers booted again: 1" in bad["server log"]
    assert "error lines: 1" in bad["server log"]


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("[2026-11-25 02:03:40 +0000] [28407] [ERROR] Exception in worker process", "error lines"),
        ("[2026-11-25 02:03:40 +0000] [28407] [WARNING] Worker graceful timeout (pid:28411)", "other lines"),
        ("Forbidden (CSRF token missing.): /games/3/act/", "other lines"),
        ("Not Found: /games/3/void/99/", "other lines"),
    ],
)
def test_an_error_or_a_warning_in_the_log_fails(line, kind):
    bad = failed(clean(), CLEAN_LOG + line + "\n")
    assert bad == {"server log": f"{kind}: 1 (limit: clean)"}


def test_the_log_of_a_clean_run_is_clean():
    assert log_findings(CLEAN_LOG, workers=3) == Counter()
    assert log_findings(CLEAN_LOG, workers=2) == Counter({"workers booted again": 1})


def test_tables_stopped_by_the_time_limit_fail():
    t = clean()
    t.tables = 250
    t.not_finished["time limit"] = 115  # the run's --duration-limit stopped them
    assert failed(t) == {"tables played to the end": "135 of 250; not: time limit: 115"}


def test_a_table_given_up_fails():
    t = clean()
    t.not_finished["gave up after retries"] = 1
    assert failed(t) == {"tables played to the end": "19 of 20; not: gave up after retries: 1"}


def test_a_game_ended_by_a_time_limit_fails():
    t = clean()
    t.ended_on_time = 1
    assert failed(t) == {"games ended by a time limit or the move clock": "1 (limit 0)"}


def test_a_missed_pace_fails():
    t = clean()
    t.moves_acked = 500  # 5.26 moves/s of 6.5 offered: 81 %
    bad = failed(t)
    assert list(bad) == ["pace"]
    assert bad["pace"] == "5.26 moves/s (81%) of 6.50 offered (limit 90%: 5.85)"


def test_the_pace_is_not_judged_flat_out():
    t = clean()
    t.offered_rate = None
    t.moves_acked = 10
    assert failed(t) == {}


@pytest.mark.parametrize(
    ("slow", "figure"),
    [
        ([0.8] * 40, "p95 800 ms (limit 500)"),  # 6 % of the moves at 800 ms
        ([0.3] * 30 + [3.0] * 8, "p99 3000 ms (limit 2000)"),  # p95 fine, 1.2 % at 3 s
    ],
)
def test_slow_moves_fail(slow, figure):
    t = clean()
    t.move_latencies = [0.02] * 600 + slow
    bad = failed(t)
    assert list(bad) == ["latency of moves"]
    assert figure in bad["latency of moves"]


def test_the_latency_limits_are_arguments():
    t = clean()
    assert "latency of moves" in failed(t, limits=Limits(p95_s=0.05))
    assert "latency of moves" in failed(t, limits=Limits(p99_s=0.05))


def test_no_move_answered_fails():
    t = clean()
    t.move_latencies = []
    assert failed(t) == {"latency of moves": "no move was answered"}


def test_a_lost_move_or_no_verification_fails():
    t = clean()
    t.integrity["lost"] = 2
    assert failed(t) == {"integrity": "lost: 2"}
    t.integrity = None
    assert failed(t) == {"integrity": "not verified"}


def test_a_client_anomaly_fails():
    t = clean()
    t.anomalies["legal move refused"] = 1
    assert failed(t) == {"client anomalies": "legal move refused: 1"}


def test_each_failure_is_named_on_the_result_line(capsys):
    t = clean()
    t.connection["answer cut short"] = 1
    t.not_finished["time limit"] = 3
    names = [c.name for c in verdict(t, CLEAN_LOG + TRACEBACK) if not c.ok]
    assert names == ["connection errors", "server log", "tables played to the end"]


# -- several servers, one killed -------------------------------------------------------------------------
def killed(**kw) -> Tally:
    """A clean run with a server killed 30 s in, whose failures were all answered by tapping again."""
    t = clean()
    t.kill_asked, t.kill_at, t.acked_after_kill = True, 30.0, 400
    t.statuses[502] += 2
    t.connection["no answer (connection error)"] = 1
    t.failures = [(30.01, 502, True), (30.02, 502, True), (30.5, "no answer (connection error)", True)]
    for k, v in kw.items():
        setattr(t, k, v)
    return t


def test_a_kill_whose_failures_were_answered_passes():
    checks = {c.name: c for c in verdict(killed(), CLEAN_LOG)}
    assert all(c.ok for c in checks.values()), [c for c in checks.values() if not c.ok]
    assert checks["5xx answers"].detail == "0 (limit 0); 2 more in the kill window, judged below"
    assert checks["connection errors"].detail == "0 (limit 0); 1 more in the kill window, judged below"
    assert checks["a server killed"].detail == (
        "at 30.0 s; 3 requests failed in the 10 s after (HTTP 502: 2, no answer (connection error): 1), "
        "3 answered by tapping again (limit: all); 400 moves acknowledged after it (limit: more than 0)"
    )


def test_the_moves_stored_before_their_answer_was_lost_are_named():
    detail = {c.name: c.detail for c in verdict(killed(committed_unanswered=2), CLEAN_LOG)}["a server killed"]
    assert "3 answered by tapping again (limit: all), 2 of them moves stored before the kill" in detail


def test_without_a_kill_there_is_no_kill_criterion():
    assert "a server killed" not in [c.name for c in verdict(clean(), CLEAN_LOG)]


def test_a_failure_outside_the_kill_window_fails():
    t = killed()
    t.statuses[503] += 1
    t.failures.append((12.0, 503, True))  # before the kill: answered or not, a failure of its own
    t.connection["answer cut short"] = 1
    t.failures.append((45.0, "answer cut short", True))  # after the window
    assert failed(t) == {
        "5xx answers": "1 (limit 0); 2 more in the kill window, judged below",
        "connection errors": "1 (limit 0): answer cut short: 1; 1 more in the kill window, judged below",
    }


@pytest.mark.parametrize(
    ("at", "inside"), [(29.99, False), (30.0, True), (35.0, True), (40.0, True), (40.01, False)]
)
def test_the_kill_window_runs_from_the_kill(at, inside):
    assert load.in_kill_window(at, 30.0, 10.0) is inside
    assert load.in_kill_window(at, None, 10.0) is False


def test_a_failure_of_the_kill_not_answered_fails():
    t = killed()
    t.failures[1] = (30.02, 502, False)  # the referee gave up (or never tapped again)
    assert "2 answered by tapping again" in failed(t)["a server killed"]


def test_the_servers_left_must_carry_on():
    assert "0 moves acknowledged after it" in failed(killed(acked_after_kill=0))["a server killed"]
    assert failed(killed(others_up=False))["a server killed"].endswith("; another server is down")


def test_behind_haproxy_every_server_must_have_served():
    t = killed(sent={"app1": 1200, "app2": 2400})
    assert failed(t) == {}
    t.sent["app1"] = 0  # the balancer sent it nothing: two servers in name only
    assert failed(t) == {
        "every server served": "app1: 0 requests, app2: 2400 requests (limit: more than 0 each)"
    }


def test_a_kill_asked_for_and_not_done_fails():
    t = clean()
    t.kill_asked = True
    assert failed(t) == {"a server killed": "no server was killed (the run ended before)"}


def test_kill_one_at_takes_seconds_or_a_share_of_the_schedule():
    two = ["--db", "postgres", "--servers", "2"]
    assert load.parse_args([*two, "--kill-one-at", "20"]).kill_one_at == (20.0, False)
    assert load.parse_args([*two, "--kill-one-at", "40%"]).kill_one_at == (0.4, True)
    assert load.parse_args([]).kill_one_at is None and load.parse_args([]).servers == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["--db", "postgres", "--kill-one-at", "20"],  # one server: nobody would carry on
        ["--db", "postgres", "--servers", "2", "--kill-one-at", "soon"],
        ["--db", "postgres", "--servers", "2", "--kill-one-at", "140%"],
        [
            "--db",
            "postgres",
            "--servers",
            "2",
            "--kill-one-at",
            "40%",
            "--pace",
            "0",
        ],  # flat out: no schedule
        ["--db", "postgres", "--servers", "9"],
        ["--db", "sqlite", "--servers", "2"],  # several machines share no SQLite file
    ],
)
def test_a_bad_kill_or_number_of_servers_is_refused(argv, capsys):
    with pytest.raises(SystemExit):
        load.parse_args(argv)
    assert "error:" in capsys.readouterr().err


def test_the_haproxy_configuration_retries_only_what_no_server_received():
    text = load.haproxy_config(8000, [("app1", 8001), ("app2", 8002)], "roundrobin")
    lines = [line.split("#")[0].strip() for line in text.splitlines()]
    assert "bind 127.0.0.1:8000" in lines and "balance roundrobin" in lines
    assert "server app1 127.0.0.1:8001" in lines and "server app2 127.0.0.1:8002" in lines
    assert "retry-on conn-failure" in lines and "option redispatch 1" in lines
    assert not [line for line in lines if line.startswith("retry-on") and line != "retry-on conn-failure"]
    assert f"http-check send meth GET uri {load.HEALTH_PATH} ver HTTP/1.1 hdr Host 127.0.0.1" in lines
    assert "option forwardfor" in lines  # the app behind it reads the phone's address: DJANGO_BEHIND_PROXY=1


def test_the_haproxy_configuration_sends_the_streams_to_the_streams_servers():
    apps, streamers = [("app1", 8001), ("app2", 8002)], [("s1", 8011), ("s2", 8012)]
    text = load.haproxy_config(8000, apps, stream_servers=streamers)
    lines = [line.split("#")[0].strip() for line in text.splitlines()]
    assert "acl stream path_reg ^/tournaments/[0-9]+/events/$" in lines
    assert "use_backend streams if stream" in lines
    streams = lines[lines.index("backend streams") :]
    assert "server s1 127.0.0.1:8011" in streams and "server s2 127.0.0.1:8012" in streams
    assert "server s1 127.0.0.1:8011" not in lines[: lines.index("backend streams")]
    assert "acl stream" not in load.haproxy_config(8000, [("app1", 8001)])  # without streams' servers: none


@needs_haproxy
@pytest.mark.parametrize("streams", [[], [("s1", 8011), ("s2", 8012)]], ids=["app", "app and streams"])
def test_haproxy_accepts_the_configuration(tmp_path, streams):
    config = tmp_path / "haproxy.cfg"
    config.write_text(load.haproxy_config(8000, [("app1", 8001), ("app2", 8002)], stream_servers=streams))
    out = subprocess.run(["haproxy", "-c", "-f", str(config)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "ALERT" not in out.stdout + out.stderr and "WARNING" not in out.stdout + out.stderr


def test_the_kill_takes_the_master_and_every_worker(tmp_path):
    """As gunicorn: a process in a session of its own, with children (its workers) in its process group."""
    proc = subprocess.Popen(
        ["sh", "-c", "sleep 300 & sleep 300 & wait"], start_new_session=True, stdout=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 10
        while len(load.group_members(proc.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(load.group_members(proc.pid)) == 3
        load.kill_server(load.AppServer("app1", 0, proc, tmp_path / "app1.log"))
        assert proc.returncode == -signal.SIGKILL and load.group_members(proc.pid) == []
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


class _FailsFirst(BaseHTTPRequestHandler):
    """Answers 502 to the first request of each path, as HAProxy does when the server died under it."""

    seen: set[str] = set()

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        status = 200 if self.path in self.seen else 502
        self.seen.add(self.path)
        self.send_response(status)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


def test_tapping_again_answers_a_failed_request():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FailsFirst)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        stats = load.Stats()
        phone = load.Phone(server.server_address[1], stats)
        a = phone.fetch("act", "POST", "/games/1/act/", {"client_key": "k"})
        assert a.status == 200
        assert [(f.what, f.answered) for f in stats.failures] == [(502, True)]
        assert stats.status == Counter({502: 1, 200: 1}) and len(stats.latency["retry"]) == 1
        phone.close()
    finally:
        server.shutdown()
        server.server_close()


# -- the phones at the round's end (--spectators) --------------------------------------------------------
def watched(n: int = 1000, **kw) -> Tally:
    """A clean run whose 1,000 phones each had the standings in 30 ms (the last, 120 ms), their taps over
    the 10 s from the round's end."""
    t = clean()
    t.spectators, t.spectator_window_s = n, 10.0
    t.reloads = [Reload(10.0 * i / n, 0.03, 200) for i in range(n)]
    t.reloads[-1].seconds = 0.12
    for k, v in kw.items():
        setattr(t, k, v)
    return t


def test_phones_all_served_in_time_pass():
    checks = {c.name: c for c in verdict(watched(), CLEAN_LOG)}
    assert all(c.ok for c in checks.values()), [c for c in checks.values() if not c.ok]
    assert list(checks)[-2:] == ["standings for the phones", "standings in time"]
    assert checks["standings for the phones"].detail == (
        "1000 of 1000 phones answered 200 with the standings (limit: all); 200: 1000; "
        "5xx: 0, connection errors: 0 (limit 0)"
    )
    assert checks["standings in time"].detail == (
        "all 1000 phones had the standings within 10.11 s of the round's end (limit 20 s: their taps over "
        "10 s + 10 s); from a phone's tap: p95 30 ms, max 120 ms"
    )


def test_without_spectators_there_is_no_phones_criterion():
    names = [c.name for c in verdict(clean(), CLEAN_LOG)]
    assert "standings for the phones" not in names and "standings in time" not in names


@pytest.mark.parametrize(
    ("status", "figure"),
    [
        (502, "502: 1; 5xx: 1, connection errors: 0"),
        (503, "503: 1; 5xx: 1, connection errors: 0"),
        ("no answer (connection error)", "no answer (connection error): 1; 5xx: 0, connection errors: 1"),
        ("answer cut short", "answer cut short: 1; 5xx: 0, connection errors: 1"),
        (404, "404: 1; 5xx: 0, connection errors: 0"),  # not a 5xx, still no standings for that phone
    ],
)
def test_a_phone_without_its_standings_fails(status, figure):
    t = watched()
    t.reloads[3] = Reload(0.03, 0.01, status, standings=False)
    bad = failed(t)
    assert list(bad) == ["standings for the phones"]  # in time: the others were
    assert bad["standings for the phones"].startswith("999 of 1000 phones answered 200 with the standings")
    assert figure in bad["standings for the phones"]


def test_a_200_without_the_standings_table_fails():
    t = watched()
    t.reloads[0].standings = False  # e.g. the login page or an error page answered 200
    assert failed(t) == {
        "standings for the phones": "999 of 1000 phones answered 200 with the standings (limit: all); "
        "200: 1000; 5xx: 0, connection errors: 0 (limit 0); 1 answered 200 without the standings table"
    }


def test_phones_never_sent_fail():
    t = watched()
    del t.reloads[-10:]  # the run was interrupted
    bad = failed(t)
    assert list(bad) == ["standings for the phones"]
    assert bad["standings for the phones"].endswith("; 10 never asked (the run was stopped)")


def test_the_last_phone_served_late_fails():
    t = watched()
    t.reloads[-1].seconds = 10.5  # tapped at 9.99 s, served at 20.49 s: after the 10 s window + 10 s
    bad = failed(t)
    assert list(bad) == ["standings in time"]
    assert bad["standings in time"].startswith("all 1000 phones had the standings within 20.49 s")
    assert "max 10500 ms" in bad["standings in time"]


@pytest.mark.parametrize(("done", "inside"), [(19.99, True), (20.0, True), (20.01, False)])
def test_the_time_runs_from_the_round_s_end_over_the_window_and_the_limit(done, inside):
    t = watched()
    t.reloads[-1] = Reload(9.0, done - 9.0, 200)  # a tap queued long behind the others: its wait counts
    assert ("standings in time" not in failed(t)) is inside


def test_the_phones_limit_and_window_are_arguments():
    t = watched()  # the last served 10.11 s after the round's end
    assert "standings in time" in failed(t, limits=Limits(spectator_limit_s=0.1))
    assert "standings in time" not in failed(t, limits=Limits(spectator_limit_s=0.12))
    t.spectator_window_s = 5.0  # 5 + 5: every phone within 10 s of the round's end
    assert "standings in time" in failed(t, limits=Limits(spectator_limit_s=5.0))


def test_no_phone_served_fails_both():
    t = watched(10)
    t.reloads = [Reload(r.start, 60.0, "no answer (timeout or socket error)") for r in t.reloads]
    bad = failed(t)
    assert bad["standings for the phones"].startswith("0 of 10 phones")
    assert bad["standings in time"] == "no phone had the standings (limit 20 s: their taps over 10 s + 10 s)"


def test_spectators_are_off_by_default_and_bounded(capsys):
    args = load.parse_args([])
    assert (args.spectators, args.spectator_window, args.spectator_limit) == (0, 10, 10)
    assert args.spectator_concurrency == 64
    args = load.parse_args(["--spectators", "1000", "--spectator-window", "5", "--spectator-limit", "5"])
    assert (args.spectators, args.spectator_window, args.spectator_limit) == (1000, 5, 5)
    for bad in (["--spectators", "-1"], ["--spectator-window", "0"], ["--spectator-concurrency", "0"]):
        with pytest.raises(SystemExit):
            load.parse_args(bad)
        assert "error:" in capsys.readouterr().err


class _SlowStandings(BaseHTTPRequestHandler):
    """The standings in 0.2 s, one request at a time; what each request carried is kept."""

    seen: list[tuple[str, str | None]] = []
    lock = threading.Lock()

    def do_GET(self):
        with self.lock:
            time.sleep(0.2)
            self.seen.append((self.path, self.headers.get("Cookie")))
        body = b'<table class="standings"></table>' if self.path.endswith("/standings/") else b"<p>no</p>"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_a_phone_waiting_for_a_client_thread_counts_its_wait():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _SlowStandings)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        args = load.parse_args(
            ["--spectators", "3", "--spectator-window", "0.01", "--spectator-concurrency", "1", "--seed", "4"]
        )
        phones = load.Spectators(load.Run(args, server.server_address[1]), tournament=7)
        again = load.Spectators(load.Run(args, 0), tournament=7)
        assert phones.starts == again.starts and len(phones.starts) == 3  # seeded
        assert all(0 <= s <= 0.01 for s in phones.starts)
        phones.start()
        phones.join(timeout=10)
        assert [(r.status, r.standings) for r in phones.reloads] == [(200, True)] * 3
        assert [r.start for r in phones.reloads] == phones.starts
        # one thread: the second waited for the first (0.2 s), the third for both (0.4 s); taps 0.01 s apart
        took = [r.seconds for r in phones.reloads]
        assert took[0] >= 0.2 and took[1] >= 0.39 and took[2] >= 0.58 and took[2] < 5, took
        assert _SlowStandings.seen == [("/tournaments/7/standings/", None)] * 3  # no login, no cookie
    finally:
        server.shutdown()
        server.server_close()


def test_a_phone_without_an_answer_is_a_connection_error():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    reload = load.reload_once(port, "/tournaments/1/standings/", 0.0, time.monotonic())
    assert reload.status == "no answer (timeout or socket error)" and not reload.standings


# -- the run's bookkeeping against the database ---------------------------------------------------------
def _args(*extra):
    return load.parse_args(["--tables", "4", "--moves-per-table", "12", "--pace", "0", *extra])


@pytest.mark.django_db
def test_set_up_has_no_time_limit_and_draws_each_scenario():
    from tournament.models import Game, Table

    plans, director = load.create_data(_args())
    assert [p.scenario for p in plans] == ["stop", "two phones", "undo", "void"]
    assert all(p.at is not None for p in plans)
    for game in Game.objects.all():
        assert "time_limit_minutes" not in game.options and "move_time_limit" not in game.options
    assert Table.objects.count() == 4 + load.EXTRA_TABLES  # two seated, not started: the director's
    assert director.stop_table == 1 and director.absent[0] == 5 and director.move[1:] == (6, 5)
    two = plans[1]
    assert two.other_username == "referee002b" and two.extra["dice"] != two.events[two.at]["dice"]
    void = plans[3]
    assert void.extra["type"] == "trade" and void.extra["give"] == {"cash": 1}


@pytest.mark.django_db
def test_plain_set_up_has_no_scenario_and_no_director():
    plans, director = load.create_data(_args("--plain", "--seed", "2"))
    assert director is None and len(plans) == 4 and not any(p.scenario for p in plans)


def _entered(game, events, run, **scenario):
    """A referee who entered ``events`` (through tournament.games.recording, as the views do)."""
    from tournament.games import recording

    plan = load.Plan(1, game.pk, 0, "referee", events, **scenario)
    ref = load.Referee(run, plan, seed=1)
    for e in events:
        key = os.urandom(8).hex()
        recording.submit(game.pk, e, version=None, client_key=key)
        ref.out.acked.append((key, e))
    return ref


@pytest.mark.django_db
def test_verify_accounts_for_undone_and_voided_moves():
    from rules.simulate import simulate
    from tournament.games import recording

    record = simulate("classic", "classic-pl", 3, seed=5, max_events=12)
    game = recording.create_game(
        variant="classic", board="classic-pl", players=[{"name": n} for n in "ABC"], options=record["options"]
    )
    run = load.Run(_args(), port=0)
    ref = _entered(game, record["events"][:8], run)
    undone_key = ref.out.acked[-1][0]
    recording.undo_last(game.pk, version=None, reason="misread the dice", client_key="u1")
    ok = load.verify([ref], None)
    assert ok["counts"]["lost"] == 1  # the undone move is not accounted for: it is missing from the game
    assert ok["examples"]["taken back unasked"]
    ref.out.taken_back[undone_key] = ("undone", "misread the dice")
    ok = load.verify([ref], None)
    bad = {k: n for k, n in ok["counts"].items() if n and k not in ("moves acknowledged", "events stored")}
    assert bad == {} and ok["ended on time"] == 0
    ref.out.taken_back[undone_key] = ("voided", "misread the dice")  # stored as undone, not voided
    assert load.verify([ref], None)["counts"]["taken back otherwise"] == 1


@pytest.mark.django_db
def test_verify_counts_a_game_ended_on_time_and_accepts_the_directors_stop():
    from rules.simulate import simulate
    from tournament.games import recording

    record = simulate("classic", "classic-pl", 3, seed=6, max_events=6)
    run = load.Run(_args(), port=0)
    game = recording.create_game(variant="classic", board="classic-pl", players=[{"name": n} for n in "ABC"])
    ref = _entered(game, record["events"], run)
    recording.submit(game.pk, {"type": "time_up", "now": True}, version=None)  # not the director's table
    found = load.verify([ref], None)
    assert found["ended on time"] == 1 and found["counts"]["doubled"] == 1
    other = recording.create_game(variant="classic", board="classic-pl", players=[{"name": n} for n in "ABC"])
    ref = _entered(other, record["events"], run, scenario="stop", at=3)
    recording.submit(other.pk, {"type": "time_up", "now": True}, version=None)
    ref.out.ended_by_director = True
    found = load.verify([ref], None)
    assert found["ended on time"] == 0 and found["counts"]["doubled"] == 0


# -- one real run ---------------------------------------------------------------------------------------
SCENARIOS = (
    "scenario: two phones",
    "scenario: undone, resent, entered again",
    "scenario: a wrong move voided after the next one",
    "scenario: stopped, confirmed, reopened, confirmed again",
    "director's forms: absent",
    "director's forms: move",
    "director's downloads: standings.pdf",
    "director's downloads: workbook.xlsx",
)


@pytest.mark.slow
def test_a_small_real_run_passes_and_exercises_every_scenario():
    """4 tables x 12 moves on SQLite through gunicorn, 12 event streams on uvicorn beside it, then 40 phones
    reload the standings over 2 s (~30 s on an idle 2-core machine, more when busy)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "DB_"))}
    out = subprocess.run(
        [sys.executable, "tests/load_event_day.py", "--db", "sqlite", "--tables", "4", "--moves-per-table",
         "12", "--pace", "0.5", "--director-every", "5", "--duration-limit", "150", "--spectators", "40",
         "--spectator-window", "2", "--spectator-concurrency", "8", "--streams", "12"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "RESULT: PASS" in out.stdout
    assert re.search(r"^ok   standings for the phones: 40 of 40 phones answered 200", out.stdout, re.M)
    assert re.search(r"^ok   standings in time: all 40 phones had the standings within", out.stdout, re.M)
    assert re.search(r"^ok   event streams: 12 of 12 connected", out.stdout, re.M)
    assert re.search(r"^ok   moves on the streams: \S+ of \d+ \(change, stream\) pairs", out.stdout, re.M)
    assert re.search(r"^ok   stream server log: clean", out.stdout, re.M)
    events = re.search(r"^events: (.*)$", out.stdout, re.M).group(1)
    for what in SCENARIOS:
        assert what in events, what


@pytest.mark.slow
@needs_haproxy
def test_two_servers_one_killed_mid_run_passes():
    """8 tables x 30 moves on PostgreSQL, two gunicorns behind HAProxy, one killed (kill -9 of its master and
    workers) 10 s in while requests are in flight: nothing lost or doubled, every table played to the end
    on the other server, each failed request answered by tapping again (~1 min on an idle 2-core machine).
    The latency limits are loose: this is about the kill, not the capacity (a busy machine answers slowly)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "DB_"))}
    out = subprocess.run(
        [sys.executable, "tests/load_event_day.py", "--db", "postgres", "--tables", "8", "--moves-per-table",
         "30", "--pace", "1", "--director-every", "5", "--duration-limit", "200", "--servers", "2",
         "--kill-one-at", "10", "--p95-limit", "3000", "--p99-limit", "6000"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=400,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout[-5000:] + out.stderr[-2000:]
    assert "RESULT: PASS" in out.stdout
    kill = re.search(r"^ok   a server killed: at (\S+) s; .* (\d+) moves acknowledged", out.stdout, re.M)
    assert kill and float(kill.group(1)) >= 10 and int(kill.group(2)) > 0, out.stdout[-3000:]
    assert re.search(r"^killed app1 \(kill -9 of its process group\)", out.stdout, re.M)
    assert re.search(r"^ok   every server served: app1: \d+ requests, app2: \d+ requests", out.stdout, re.M)


# -- the event streams (--streams) ------------------------------------------------------------------------
def app_event(table: int, game: int, version: int, *, tournament: int | None = 3) -> str:
    """An event as the app sends it (tournament/streams/hub.py's ``message``): the table's topic changed
    (and the tournament's, when given)."""
    shown = {("table", table): {"token": f"{version}.x", "table": table, "game": game, "version": version}}
    changed = [("table", table)]
    if tournament is not None:
        shown[("tournament", tournament)] = {"token": "1.y", "tournament": tournament}
        changed.append(("tournament", tournament))
    return hub.message(f"table{table}=x", changed, shown)


def test_the_streams_text_is_parsed_into_events_however_it_is_cut():
    text = (
        "retry: 2000\n\n"
        + app_event(12, 34, 57)
        + ": still here\n\n"
        + 'id: table12=58\r\nevent: change\r\ndata: {"changed":["tournament3"],"tournament":3}\r\n\r\n'
        + "data: one\rdata: two\r\r"  # CR alone ends a line too; two data lines, one event
        + ": a CR at the end may be half a CRLF: the next line tells\n"
    ).encode()
    for cut in (1, 2, 3, 7, len(text)):  # the body as the network cuts it: anywhere, even inside CRLF
        parser = load.SseParser()
        events = [e for i in range(0, len(text), cut) for e in parser.feed(text[i : i + cut])]
        assert [(e.event, e.id) for e in events] == [
            ("change", "table12=x"),
            ("change", "table12=58"),
            ("message", "table12=58"),  # without an id: the last one's
        ], cut
        assert json.loads(events[0].data) == {
            "changed": ["table12", "tournament3"],
            "table": 12,
            "game": 34,
            "version": 57,
            "tournament": 3,
        }
        assert events[2].data == "one\ntwo"
        assert parser.retry == 2000 and parser.comments == 2  # the heartbeat, the last line


def test_an_event_tells_its_tables_game_and_version_or_nothing():
    parse = lambda text: load.SseParser().feed(text.encode())[0]  # noqa: E731
    assert load.arrival_of(parse(app_event(12, 34, 57)), 12) == (34, 57)
    assert load.arrival_of(parse(app_event(12, 34, 0, tournament=None)), 12) == (34, 0)
    tournament_only = 'event: change\ndata: {"changed":["tournament3"],"tournament":3}\n\n'
    assert load.arrival_of(parse(tournament_only), 12) is None
    assert load.arrival_of(parse('event: other\ndata: {"version": 1}\n\n'), 12) is None
    for bad in ("{", "[1]", '{"version": 3}', '{"changed": [], "version": "3", "game": 1, "table": 12}'):
        with pytest.raises(ValueError, match="unreadable data"):
            load.arrival_of(parse(f"event: change\ndata: {bad}\n\n"), 12)
    with pytest.raises(ValueError, match="of another table"):
        load.arrival_of(parse(app_event(13, 35, 57)), 12)


def test_each_change_is_matched_with_its_version_on_each_stream_of_its_table():
    acks = [(34, 5, 10.0), (34, 6, 11.0), (34, 7, 12.0), (35, 2, 10.5)]
    streams = [
        (34, [(34, 1, 1.0), (34, 5, 9.9), (34, 5, 10.3), (34, 7, 12.2)]),  # 6 read with 7: coalesced
        (34, [(34, 5, 10.1), (34, 6, 11.05)]),  # closed before 7: missing
        (35, [(35, 2, 10.6)]),
        (36, [(36, 9, 10.0)]),  # no change acknowledged at its table
    ]
    d = load.deliveries(acks, streams)
    assert (d.pairs, d.delivered, d.coalesced, d.missing) == (7, 5, 1, 1)
    # the first event of a version counts, and one before the referee's answer keeps its sign
    assert [round(x, 3) for x in d.delays] == [-0.1, 0.1, 0.05, 0.2, 0.1]
    assert d.share == pytest.approx(6 / 7)
    assert d.examples == ["game 34 version 7 on stream 1 (its last: 6)"]
    # an arrival of another game on a stream does not count for that game
    assert load.deliveries([(34, 5, 10.0)], [(34, [(35, 5, 10.0)])]).missing == 1
    assert load.deliveries([], streams).pairs == 0 and load.Delivery().share == 0.0


def test_the_streams_behind_have_not_shown_their_games_last_version():
    acks = [(34, 5, 1.0), (34, 7, 2.0), (35, 2, 1.0)]
    assert load.streams_behind(acks, [(34, 7), (34, 8), (35, 2), (36, None)]) == 0
    assert load.streams_behind(acks, [(34, 6), (34, None), (35, 2)]) == 2


def streamed(**kw) -> Tally:
    """A clean run with 40 streams: its 1,200 (change, stream) pairs delivered (half of them before the
    referee's answer) or coalesced, uvicorn's log empty."""
    t = clean()
    t.streams = 40
    t.delivery = load.Delivery(pairs=1200, delays=[-0.1] * 600 + [0.05] * 590, coalesced=10)
    for k, v in kw.items():
        setattr(t, k, v)
    return t


def test_streams_all_open_and_delivered_pass():
    checks = {c.name: c for c in verdict(streamed(), CLEAN_LOG)}
    assert all(c.ok for c in checks.values()), [c for c in checks.values() if not c.ok]
    assert list(checks)[-3:] == ["event streams", "moves on the streams", "stream server log"]
    assert checks["event streams"].detail == "40 of 40 connected (limit: all), 0 closed early (limit 0)"
    assert checks["moves on the streams"].detail == (
        "100.00% of 1200 (change, stream) pairs delivered or coalesced (limit 99%): 1190 delivered, "
        "10 coalesced, 0 missing; from the referee's answer: p50 -100 ms, p95 50 ms (no limit)"
    )
    assert checks["stream server log"].detail == "clean (limit: clean)"


def test_without_streams_there_is_no_streams_criterion():
    names = [c.name for c in verdict(clean(), CLEAN_LOG)]
    assert not {"event streams", "moves on the streams", "stream server log"} & set(names)


@pytest.mark.parametrize(
    ("field", "value", "figure"),
    [
        ("stream_failures", Counter({"HTTP 503": 1}), "39 of 40 connected (limit: all) (not: HTTP 503: 1)"),
        ("stream_failures", Counter({"no first event within 30 s": 2}), "38 of 40 connected"),
        ("streams_closed_early", Counter({"closed by the server": 1}), "1 closed early (limit 0)"),
        ("streams_closed_early", Counter({"silent for 40 s": 1}), "(silent for 40 s: 1)"),
        ("stream_bad_events", Counter({"of another table": 3}), "; events: of another table: 3 (limit 0)"),
    ],
)
def test_a_stream_not_open_closed_early_or_wrong_fails(field, value, figure):
    bad = failed(streamed(**{field: value}))
    assert list(bad) == ["event streams"]
    assert figure in bad["event streams"]


@pytest.mark.parametrize(("delivered", "ok"), [(979, False), (980, True), (990, True)])
def test_at_least_99_percent_of_the_pairs_delivered_or_coalesced_pass(delivered, ok):
    d = load.Delivery(pairs=1000, delays=[0.05] * delivered, coalesced=10, missing=990 - delivered)
    bad = failed(streamed(delivery=d))
    assert ("moves on the streams" not in bad) is ok
    if not ok:
        assert bad["moves on the streams"].startswith(
            "98.90% of 1000 (change, stream) pairs delivered or coalesced (limit 99%): 979 delivered, "
            "10 coalesced, 11 missing"
        )
    every = "moves on the streams" not in failed(streamed(delivery=d), limits=Limits(stream_delivery=1.0))
    assert every is (delivered == 990)  # the limit is an argument


def test_slow_deliveries_are_figures_not_a_criterion():
    d = load.Delivery(pairs=100, delays=[30.0] * 100)
    assert failed(streamed(delivery=d)) == {}


def test_no_change_followed_by_a_stream_fails():
    for d in (None, load.Delivery()):
        assert failed(streamed(delivery=d)) == {
            "moves on the streams": "no change of a game was followed by a stream"
        }


@pytest.mark.parametrize(
    ("log", "figure"),
    [
        (
            "ERROR:    Exception in ASGI application\nTraceback (most recent call last):\n"
            '  File "x.py", line 1, in f\nRuntimeError: boom\n',
            "tracebacks: 1",
        ),
        (
            "2026-11-25 02:03:40,001 WARNING tournament.streams.hub: The streams lost PostgreSQL's",
            "other lines",
        ),
        ("WARNING:  Invalid HTTP request received.\n", "other lines: 1"),
    ],
)
def test_anything_in_uvicorns_log_fails(log, figure):
    bad = failed(streamed(stream_log=log))
    assert list(bad) == ["stream server log"]
    assert figure in bad["stream server log"]


def _read(data: bytes, coroutine):
    async def go():
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        return await coroutine(reader)

    return asyncio.run(go())


def test_the_answers_head_and_its_chunked_body_are_read():
    head = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"

    async def everything(reader):
        status, headers = await load.read_head(reader)
        return status, headers, [c async for c in load.body_chunks(reader, True)]

    body = b"d\r\nretry: 2000\n\n\r\n5;ext=1\r\n: hi\n\r\n0\r\n\r\n"
    status, headers, chunks = _read(head + body, everything)
    assert (status, headers["transfer-encoding"]) == (200, "chunked")
    assert headers["content-type"] == "text/event-stream"
    assert chunks == [b"retry: 2000\n\n", b": hi\n"]
    assert _read(head + b"5\r\n: hi\n\r\n", everything)[2] == [b": hi\n"]  # the connection's end: ends it
    with pytest.raises(asyncio.IncompleteReadError):
        _read(head + b"10\r\n: cut short", everything)
    with pytest.raises(ValueError):
        _read(head + b"zz\r\n", everything)
    with pytest.raises(ValueError):
        _read(b"SSH-2.0-OpenSSH\r\n\r\n", load.read_head)
    with pytest.raises(ConnectionError):
        _read(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n", load.read_head)

    async def unchunked(reader):
        return b"".join([c async for c in load.body_chunks(reader, False)])

    assert _read(b"retry: 2000\n\n", unchunked) == b"retry: 2000\n\n"
    assert load.stream_request("/tournaments/3/events/?table=12", 8000).startswith(
        b"GET /tournaments/3/events/?table=12 HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n"
    )


class _EventStreams(BaseHTTPRequestHandler):
    """Event streams as uvicorn answers them (HTTP/1.1, chunked): table 12's goes on (its first event, then
    version 58 cut across two chunks, then heartbeats), table 13's ends after its first event, 14 is a 404,
    15's sends an event every millisecond (the client is closed while they come). Table 16's is cut after its
    first event (its id: table16=x) unless asked again with that Last-Event-ID: then version 60 (what changed
    meanwhile) and heartbeats."""

    protocol_version = "HTTP/1.1"

    def handle(self):
        with contextlib.suppress(OSError):  # table 16's connection shut under the handler
            super().handle()

    def chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def do_GET(self):
        table = int(self.path.rsplit("=", 1)[1])
        if table == 14:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        if table == 16:
            self.chunk(b"retry: 50\n\n")
            if self.headers.get("Last-Event-ID") != "table16=x":
                self.chunk(app_event(table, table + 22, 57).encode())
                self.connection.shutdown(socket.SHUT_RDWR)  # the server dies: no end of the chunks
                return
            self.chunk(app_event(table, table + 22, 60).encode())
            with contextlib.suppress(OSError):
                while True:
                    time.sleep(0.05)
                    self.chunk(b": still here\n\n")
        self.chunk(b"retry: 2000\n\n")
        self.chunk(app_event(table, table + 22, 57).encode())
        if table == 13:
            self.chunk(b"")
            return
        second = app_event(table, table + 22, 58).encode()
        self.chunk(second[:20])
        self.chunk(second[20:])
        with contextlib.suppress(OSError):
            for version in range(59, 10**9):
                if table == 15:
                    time.sleep(0.001)
                    self.chunk(app_event(table, table + 22, version).encode())
                else:
                    time.sleep(0.05)
                    self.chunk(b": still here\n\n")

    def log_message(self, *args):
        pass


def test_the_streams_client_reads_many_streams_and_tells_how_each_ended():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EventStreams)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        tables = (12, 12, 13, 14, *[15] * 8)
        states = [load.StreamState(f"/tournaments/3/events/?table={t}", t, t + 22) for t in tables]
        streams = load.Streams(server.server_address[1], states, concurrency=2)
        streams.start()
        assert streams.opened.wait(timeout=10) and streams.open_s is not None
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not (
            all(s.top == 58 and s.heartbeats for s in states[:2]) and all(s.top > 60 for s in states[4:])
        ):  # (on a loaded machine table 15's events may come later than the others')
            time.sleep(0.02)
        streams.close()  # while table 15's events come: a read that ends as it is cancelled still stops
        assert not streams.is_alive() and streams.error is None and streams.close_s < 5
        assert all(s.ended is None and s.failure is None and s.top > 60 for s in states[4:])
        for s in states[:2]:
            assert [(g, v) for g, v, _at in s.arrivals] == [(34, 57), (34, 58)]
            assert s.events == 2 and s.heartbeats > 0 and s.failure is None and s.ended is None
            assert s.arrivals[0][2] <= s.arrivals[1][2] and s.opened_at == s.arrivals[0][2]
        assert states[2].ended == "closed by the server" and states[2].top == 57
        assert states[3].failure == "HTTP 404" and states[3].opened_at is None
        run = load.Run(load.parse_args(["--streams", "4"]), port=0)
        run.stream_states = states = states[:4]
        run.acks = [(34, 58, states[0].arrivals[1][2] - 0.01), (35, 58, 0.0)]
        tally = load.stream_tally(run)
        assert tally["stream_failures"] == Counter({"HTTP 404": 1})
        assert tally["streams_closed_early"] == Counter({"closed by the server": 1})
        d = tally["delivery"]
        assert (d.pairs, d.delivered, d.missing) == (3, 2, 1)  # table 13's stream closed before 58
    finally:
        server.shutdown()
        server.server_close()


def test_a_stream_cut_after_it_opened_reconnects_with_its_last_event_id_when_asked():
    """--kill-one-at: the phones' EventSource comes back after the server's retry, with Last-Event-ID, and is
    answered by a server left; without a kill a cut ends the stream (a criterion of its own)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EventStreams)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for reconnect in (True, False):
            states = [load.StreamState("/tournaments/3/events/?table=16", 16, 38)]
            streams = load.Streams(server.server_address[1], states, concurrency=1, reconnect=reconnect)
            streams.start()
            assert streams.opened.wait(timeout=10)
            s = states[0]
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not (s.ended or (s.top == 60 and s.heartbeats)):
                time.sleep(0.02)
            streams.close()
            assert streams.error is None
            if reconnect:
                assert [(g, v) for g, v, _at in s.arrivals] == [(38, 57), (38, 60)] and s.ended is None
                assert len(s.cuts) == len(s.reopened) == 1 and s.cuts[0] <= s.reopened[0]
                assert s.retry_s == 0.05 and s.last_id == "table16=x"
                run = load.Run(load.parse_args(["--streams", "1"]), port=0)
                run.stream_states, run.t0 = states, s.cuts[0] - 20.0
                ((at, gap),) = load.stream_tally(run)["stream_cuts"]
                assert at == pytest.approx(20.0) and gap == pytest.approx(s.reopened[0] - s.cuts[0])
            else:
                assert s.ended in ("closed by the server", "cut (IncompleteReadError)"), s.ended
                assert s.cuts == [] and s.top == 57
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(
    ("cuts", "ok", "figure"),
    [
        ([(20.1, 2.2), (20.3, 2.1)], True, "2 connections cut (limit: more than 0, all in the kill window: 0 "
         "outside), 2 answered again (limit: all), after p50 2.2 s, at most 2.2 s"),
        ([], False, "0 connections cut"),
        ([(20.1, 2.2), (20.2, None)], False, "1 answered again (limit: all)"),
        ([(20.1, 2.2), (45.0, 2.0)], False, "all in the kill window: 1 outside"),
    ],
)  # fmt: skip
def test_the_streams_cut_by_the_kill_must_each_be_answered_again(cuts, ok, figure):
    t = streamed(kill_asked=True, kill_at=20.0, acked_after_kill=100, stream_cuts=cuts)
    checks = {c.name: c for c in verdict(t, CLEAN_LOG)}
    assert checks["streams through the kill"].ok is ok
    assert figure in checks["streams through the kill"].detail
    assert "streams through the kill" not in {c.name for c in verdict(streamed(), CLEAN_LOG)}  # no kill: none


def test_the_referees_changes_are_kept_only_with_streams():
    run = load.Run(load.parse_args([]), port=0)
    run.acked(34, 5, 1.0)
    assert run.acks is None
    run = load.Run(load.parse_args(["--streams", "10"]), port=0)
    run.acked(34, 5, 1.0)
    run.acked(34, None, 2.0)  # no version shown: nothing to match
    assert run.acks == [(34, 5, 1.0)]


def test_streams_are_off_by_default_and_bounded(capsys):
    args = load.parse_args([])
    assert (args.streams, args.stream_workers, args.stream_open_concurrency, args.stream_drain) == (
        0,
        1,
        32,
        10,
    )
    args = load.parse_args(["--streams", "1000", "--stream-workers", "2"])
    assert (args.streams, args.stream_workers) == (1000, 2)
    for bad in (
        ["--streams", "-1"],
        ["--streams", "5001"],
        ["--stream-workers", "0"],
        ["--stream-drain", "-1"],
    ):
        with pytest.raises(SystemExit):
            load.parse_args(bad)
        assert "error:" in capsys.readouterr().err
    command = load.uvicorn_command(8123, 2)
    assert command[1:4] == ["-m", "uvicorn", "tournament.asgi:application"]
    assert " ".join(command[4:]) == (
        "--host 127.0.0.1 --port 8123 --workers 2 --log-level warning --timeout-graceful-shutdown 3"
    )


def test_the_memory_of_a_process_group_is_summed():
    assert load.rss_kib(os.getpid()) > 1000 and load.rss_kib(2**22 + 1) == 0
    sampler = load.MemorySampler({"here": [os.getpgid(0)]}, every=0.01)
    kib, n = sampler.sample()["here"]
    assert n >= 1 and kib >= load.rss_kib(os.getpid())
    sampler.start()
    deadline = time.monotonic() + 10
    while sampler.samples < 2 and time.monotonic() < deadline:  # (a loaded machine samples slower)
        time.sleep(0.01)
    sampler.done.set()
    sampler.join(timeout=5)
    assert sampler.samples >= 2 and sampler.most["here"][0] > 0


def test_the_streams_servers_are_stopped_once_their_connections_have_left():
    """A server's side of each connection is counted (not the client's, nor the listening socket), and the
    wait ends when the last one has closed: then uvicorn has no stream to cancel at its stop."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        assert load.established_to(port) == 0
        phones = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
        accepted = [server.accept()[0] for _ in phones]
        assert load.established_to(port) == 2
        assert load.wait_until_left([port], give_up_s=0) == 2  # still there: said, not waited forever
        for s in phones + accepted:
            s.close()
        assert load.wait_until_left([port]) == 0
