"""``serve --https`` at a venue: a phone that trusted the laptop's own certificate authority (as the trust
page leads it; here the authority imported into the browser's certificate store, NSS's, as a phone's settings
import it) reaches the laptop by its name on the venue's network (Chromium told that ``<host>.local`` is this
computer), gets a console ready for an outage, loses the network, reloads the page without it and plays on,
then comes back: every move stored once. A phone that has not trusted it is told so by the trust page."""

import os
import shutil
import ssl
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from tests.browser import PHONE, RULES_START_MS, Referee, phone_browser, wi_fi
from tests.processes import MAKE_GAME, first_answer, free_port, killed, shell, started
from tournament.server import serving, venue_authority

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.browser
LINE = "#console-connection"
STORED = (
    "from tournament.models import Game; "
    "print(*(e.data['type'] for e in Game.objects.get(pk={}).events.order_by('seq')))"
)


@pytest.fixture
def venue(tmp_path):
    """``manage.py serve --https`` on a free port, its database, key, authority and static files in
    ``tmp_path`` (the authority made first, as a director's earlier run would have); a game made in it."""
    venue_authority.authority(tmp_path)
    ca = tmp_path / "venue.crt"
    ca.write_bytes(venue_authority.authority_certificate(tmp_path))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "DB"))}
    env["DJANGO_SQLITE_PATH"] = str(tmp_path / "db.sqlite3")
    env["DJANGO_STATIC_ROOT"] = str(tmp_path / "static")
    log = tmp_path / "serve.log"
    argv = [sys.executable, "manage.py", "serve", "--https", "--port", str(port), "--workers", "1"]
    proc = started(argv, log, cwd=ROOT, env=env)

    try:
        trusting = ssl.create_default_context(cafile=str(ca))
        status, _, _ = first_answer(proc, f"https://127.0.0.1:{port}/login/", log, 120, trusting)
        assert status == 200
        game = SimpleNamespace(pk=int(shell(env, MAKE_GAME)))
        yield SimpleNamespace(port=port, ca=ca, game=game, stored=lambda: shell(env, STORED.format(game.pk)))
    finally:
        killed(proc)


@pytest.mark.skipif(not shutil.which("certutil"), reason="libnss3-tools (tests/setup.sh installs it)")
def test_a_phone_that_trusts_the_laptop_reloads_its_console_offline_and_loses_nothing(
    venue, chromium_type, tmp_path
):
    host = venue_authority.local_names()[0]  # <host>.local: the laptop's name by mDNS
    base = f"https://{host}:{venue.port}"
    phone = phone_browser(chromium_type, tmp_path / "phone", host, venue.ca)
    try:
        context = phone.new_context(viewport=PHONE, locale="en-US", has_touch=True)
        ref = Referee(context.new_page(), base)
        page = ref.page
        page.goto(f"{base}/join/trust/")
        expect(page.locator("#trust-state")).to_have_text(
            "This phone trusts this laptop: its console survives an outage, even a reload without the Wi-Fi."
        )
        ref.shot("25-trust-page-trusted")
        ref.login("ref", "pw", f"/games/{venue.game.pk}/")
        ref.ready()
        expect(page.locator(LINE)).to_contain_text("Ready for an outage", timeout=RULES_START_MS)
        ref.roll(3, 3)  # Anna: 0 -> 6, a double
        ref.button("Buy for 100")
        wi_fi(page, False)
        page.reload()  # without the network: the service worker answers
        ref.ready()

        ref.tap_kept(page.locator("#console .roll-card .pad button[value='12']"))  # Anna again: 6 -> 9
        ref.tap_kept(page.get_by_role("button", name="Buy for 120", exact=True).first)
        expect(page.locator(LINE)).to_contain_text("moves waiting to be sent")
        assert venue.stored() == "roll buy"  # the two before the outage
        wi_fi(page, True)
        page.wait_for_function("() => document.getElementById('console').dataset.waiting === '0'")
        assert venue.stored() == "roll buy roll buy"
        context.close()
    finally:
        phone.close()


@pytest.mark.skipif(not shutil.which("certutil"), reason="libnss3-tools (tests/setup.sh installs it)")
def test_a_phone_that_has_not_trusted_the_laptop_is_told_so_and_given_the_certificate(
    venue, chromium_type, tmp_path
):
    host = venue_authority.local_names()[0]
    phone = phone_browser(chromium_type, tmp_path / "phone", host, None)
    try:
        # past the browser's warning, as a referee taps through it to reach the trust page
        context = phone.new_context(viewport=PHONE, locale="pl-PL", has_touch=True, ignore_https_errors=True)
        page = context.new_page()
        page.goto(f"https://{host}:{venue.port}/join/trust/")
        expect(page.locator("#trust-state")).to_contain_text("Ten telefon jeszcze nie ufa temu laptopowi")
        Referee(page, "").shot("26-trust-page-not-yet-pl")
        with page.expect_download() as download:
            page.get_by_role("link", name="Pobierz certyfikat").click()
        assert Path(download.value.path()).read_bytes() == venue.ca.read_bytes()
        context.close()
    finally:
        phone.close()


def test_the_projector_shows_the_phones_address_and_the_trust_page_as_codes_a_camera_reads(
    venue, chromium_type, tmp_path
):
    """The director opens the join page on the laptop itself and shows it at 1920×1080: its two QR codes,
    read back from the screen (zbar), are the address the phones use and the trust page's, as printed."""
    laptop = phone_browser(chromium_type, tmp_path / "laptop", "localhost", venue.ca)
    try:
        context = laptop.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US")
        page = context.new_page()
        page.goto(f"https://127.0.0.1:{venue.port}/join/")
        printed = page.locator(".join-address code").all_inner_texts()
        shot = tmp_path / "projector.png"
        page.screenshot(path=str(shot))
        Referee(page, "").shot("27-join-page-projector")
        read = subprocess.run(["zbarimg", "--quiet", "--raw", str(shot)], capture_output=True, text=True)
        assert sorted(read.stdout.split()) == sorted(printed), read.stderr
        first = printed[0]
        assert first.startswith("https://") and first.endswith(f":{venue.port}/")
        assert printed[1] == first + "join/trust/"
        # the phones' address, not the one the laptop's browser used
        assert "127.0.0.1" not in first or not serving.lan_addresses()
        context.close()
    finally:
        laptop.close()
