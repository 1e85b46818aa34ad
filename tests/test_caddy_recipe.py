"""The hosted recipe (docs/deploy/) as it is written: the app started with the systemd unit's command and the
recipe's environment, behind Caddy reading the recipe's Caddyfile (here with Caddy's own certificate
authority instead of Let's Encrypt, and ports of the test's). Through Caddy: the pages over HTTPS, plain
HTTP sent to HTTPS, the static files, the phones' engine, an event stream held open; and a phone
(Chromium trusting Caddy's authority, finding the domain at this computer) whose console is ready for an
outage and reloads without the network."""

from __future__ import annotations

import http.client
import os
import re
import shlex
import socket
import ssl
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from tests.browser import PHONE, RULES_START_MS, Referee, phone_browser, wi_fi
from tests.processes import MAKE_GAME, first_answer, free_port, killed, shell, started
from tournament.console import pyodide
from tournament.server import serving

ROOT = Path(__file__).resolve().parents[1]
RECIPE = ROOT / "docs" / "deploy"
DOMAIN = "monopoly.test"


def recipe_environment() -> dict[str, str]:
    """monopoly.env's settings, for the test's domain; SQLite in place of its PostgreSQL server."""
    settings = {}
    for line in (RECIPE / "monopoly.env").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            settings[name] = value.replace("monopoly.example.org", DOMAIN)
    del settings["DATABASE_URL"]
    return settings


def unit_command() -> list[str]:
    """What the unit's ExecStart runs after ``monopoly-tournament``."""
    (line,) = [
        x
        for x in (RECIPE / "monopoly-tournament.service").read_text().splitlines()
        if x.startswith("ExecStart=")
    ]
    argv = shlex.split(line.removeprefix("ExecStart="))
    assert argv[0].endswith("/monopoly-tournament") and argv[1] == "serve", argv
    return argv[1:]


def https(port: int, ca: Path, path: str, headers: dict | None = None) -> http.client.HTTPResponse:
    """``path`` asked of Caddy at ``https://monopoly.test:port`` (connected to this computer), trusting only
    Caddy's authority and checking the certificate names the domain."""
    connection = http.client.HTTPConnection(DOMAIN, port, timeout=30)
    context = ssl.create_default_context(cafile=str(ca))
    connection.sock = context.wrap_socket(
        socket.create_connection(("127.0.0.1", port)), server_hostname=DOMAIN
    )
    connection.request("GET", path, headers=headers or {})
    return connection.getresponse()


@pytest.fixture(scope="module")
def hosted(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hosted")
    app_port, http_port, https_port = free_port(), free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "DB"))}
    env |= recipe_environment()
    env |= {"DJANGO_SQLITE_PATH": str(tmp / "db.sqlite3"), "DJANGO_STATIC_ROOT": str(tmp / "staticfiles")}
    command = unit_command()
    command[command.index("--port") + 1] = str(app_port)
    app = started([sys.executable, "manage.py", *command], tmp / "app.log", cwd=ROOT, env=env)
    config = tmp / "Caddyfile"
    config.write_text(
        "{\n"
        "\tlocal_certs\n\tskip_install_trust\n\tadmin off\n"
        f"\thttp_port {http_port}\n\thttps_port {https_port}\n\tstorage file_system {tmp / 'caddy'}\n"
        "}\n"
        f"import {RECIPE / 'Caddyfile'}\n"
    )
    caddy_env = {**os.environ, "MONOPOLY_DOMAIN": DOMAIN, "MONOPOLY_UPSTREAM": f"127.0.0.1:{app_port}"}
    caddy_env |= {
        "HOME": str(tmp),
        "XDG_DATA_HOME": str(tmp / "data"),
        "XDG_CONFIG_HOME": str(tmp / "config"),
    }
    caddy = started(
        ["caddy", "run", "--config", str(config), "--adapter", "caddyfile"], tmp / "caddy.log", env=caddy_env
    )
    try:
        first_answer(app, f"http://127.0.0.1:{app_port}/login/", tmp / "app.log", within=120)
        ca = tmp / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        game = int(shell(env, MAKE_GAME))
        tournament = int(
            shell(
                env,
                "from tournament.models import Tournament; print(Tournament.objects.create(name='Cup').pk)",
            )
        )
        yield SimpleNamespace(
            ca=ca,
            port=https_port,
            http_port=http_port,
            app_port=app_port,
            caddy=caddy,
            log=tmp / "caddy.log",
            game=game,
            tournament=tournament,
        )
    finally:
        killed(caddy)
        killed(app)


def answered(hosted, path: str, **headers) -> http.client.HTTPResponse:
    """``path`` through Caddy, once it answers (its certificate is made as it starts)."""
    last = None
    for _ in range(600):
        assert hosted.caddy.poll() is None, hosted.log.read_text()
        try:
            return https(hosted.port, hosted.ca, path, headers)
        except (OSError, ssl.SSLError) as e:  # not listening yet, or its authority not written yet
            last = e
            time.sleep(0.1)
    raise AssertionError(f"Caddy did not answer: {last}\n{hosted.log.read_text()}")


def test_through_caddy_pages_static_files_the_engine_and_streams_answer(hosted):
    page = answered(hosted, "/login/")
    body = page.read().decode()
    assert page.status == 200 and 'name="password"' in body
    assert "max-age=31536000" in page.getheader("Strict-Transport-Security")  # a domain: HSTS
    css = re.search(r'href="(/static/[^"]+\.css)"', body).group(1)
    style = answered(hosted, css)
    assert style.status == 200 and "immutable" in style.getheader("Cache-Control") and style.read()
    engine = answered(hosted, f"/static/{pyodide.folder_name()}/pyodide.asm.wasm")
    assert engine.status == 200 and engine.getheader("Content-Type") == "application/wasm"
    assert engine.read() == (ROOT / "static" / pyodide.folder_name() / "pyodide.asm.wasm").read_bytes()
    stream = answered(hosted, f"/tournaments/{hosted.tournament}/events/?follow=standings")
    assert stream.status == 200 and stream.getheader("Content-Type").startswith("text/event-stream")
    assert stream.readline()  # the first event's first line, while the stream stays open
    # plain HTTP is sent to HTTPS
    plain = http.client.HTTPConnection("127.0.0.1", hosted.http_port, timeout=30)
    plain.request("GET", "/login/", headers={"Host": DOMAIN})
    moved = plain.getresponse()
    assert moved.status in (301, 308) and moved.getheader("Location").startswith(f"https://{DOMAIN}")


def test_the_app_listens_on_loopback_only_so_no_phone_reaches_it_past_caddy(hosted):
    answered(hosted, "/login/")
    if not serving.lan_addresses():
        pytest.skip("this computer has no address but loopback")
    for address in serving.lan_addresses():  # this computer's addresses on its networks
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection((address, hosted.app_port), timeout=5).close()
    assert https(hosted.port, hosted.ca, "/login/").status == 200  # (through Caddy it is there)


def test_a_phone_through_caddy_is_ready_for_an_outage_and_reloads_offline(hosted, chromium_type, tmp_path):
    answered(hosted, "/login/")
    phone = phone_browser(chromium_type, tmp_path / "phone", DOMAIN, hosted.ca)
    try:
        context = phone.new_context(viewport=PHONE, locale="en-US", has_touch=True)
        base = f"https://{DOMAIN}:{hosted.port}"
        ref = Referee(context.new_page(), base)
        ref.login("ref", "pw", f"/games/{hosted.game}/")
        ref.ready()
        expect(ref.page.locator("#console-connection")).to_contain_text(
            "Ready for an outage", timeout=RULES_START_MS
        )
        ref.roll(3, 3)
        wi_fi(ref.page, False)
        ref.page.reload()
        ref.ready()
        ref.sees("Buy for 100")  # the game as it was, from the phone alone
        wi_fi(ref.page, True)
        context.close()
    finally:
        phone.close()
