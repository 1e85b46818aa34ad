"""How a phone joins the event (tournament/venue/): the join page the director shows on the projector (the
address the phones use, as a QR code), and with ``serve --https``'s own authority the trust page and the
authority's certificate. The address is the one the phones reach, also when the director opens the page on
the laptop itself, and the one the participants' slips and the referees' login links carry."""

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from tournament.server import public_url, serving, venue_authority

pytestmark = pytest.mark.django_db

LAN = ["192.168.1.20", "10.0.0.7"]


@pytest.fixture
def on_the_laptop(settings, monkeypatch):
    """Served by ``serve`` on a laptop whose addresses on the venue's networks are LAN's."""
    settings.SERVE = True
    settings.SERVE_HOST = "0.0.0.0"  # every address (serve's default)
    settings.ALLOWED_HOSTS = ["*"]
    monkeypatch.setattr(serving, "lan_addresses", lambda: list(LAN))


def test_the_join_page_shows_the_address_as_a_qr_code_and_what_to_do_if_the_wi_fi_goes(client):
    page = client.get(reverse("join")).content.decode()
    assert "<code>http://testserver/</code>" in page
    assert 'class="qr" src="data:image/svg+xml;base64,' in page
    assert "Do not reload the page while the Wi-Fi is down" in page  # plain HTTP: no service worker
    assert "trust this laptop" not in page


def test_opened_on_the_laptop_itself_it_shows_the_address_the_phones_reach(on_the_laptop):
    page = Client(HTTP_HOST="127.0.0.1:8000", HTTP_ACCEPT_LANGUAGE="en").get(reverse("join")).content.decode()
    assert "<code>http://192.168.1.20:8000/</code>" in page and "<code>http://10.0.0.7:8000/</code>" in page
    assert "127.0.0.1" not in page
    request = RequestFactory().get("/", HTTP_HOST="localhost:8000")
    assert (
        public_url.absolute(request, "/tournaments/3/me/k/") == "http://192.168.1.20:8000/tournaments/3/me/k/"
    )
    phone = RequestFactory().get("/", HTTP_HOST="192.168.1.20:8000")  # a phone's own address is kept
    assert public_url.absolute(phone, "/x/") == "http://192.168.1.20:8000/x/"


def test_served_on_one_address_or_on_loopback_only_it_shows_where_serve_listens(on_the_laptop, settings):
    settings.SERVE_HOST = "10.0.0.7"  # serve --host 10.0.0.7
    page = Client(HTTP_HOST="10.0.0.7:8000", HTTP_ACCEPT_LANGUAGE="en").get(reverse("join")).content.decode()
    assert "<code>http://10.0.0.7:8000/</code>" in page and "192.168.1.20" not in page
    settings.SERVE_HOST = "127.0.0.1"  # serve --host 127.0.0.1: no phone reaches it but through a proxy
    page = Client(HTTP_HOST="127.0.0.1:8000", HTTP_ACCEPT_LANGUAGE="en").get(reverse("join")).content.decode()
    assert "<code>http://127.0.0.1:8000/</code>" in page and "192.168.1.20" not in page


def test_a_page_of_slips_finds_the_phones_address_once(on_the_laptop, monkeypatch):
    asked = []
    monkeypatch.setattr(serving, "lan_addresses", lambda: asked.append(1) or list(LAN))
    request = RequestFactory().get("/", HTTP_HOST="127.0.0.1:8000")
    links = [public_url.absolute(request, f"/tournaments/3/me/{k}/") for k in range(50)]
    assert links[49] == "http://192.168.1.20:8000/tournaments/3/me/49/" and len(asked) == 1


def test_the_sites_public_address_comes_first_when_set(on_the_laptop, settings):
    settings.PUBLIC_URL = "https://monopoly.example.org"
    page = Client(HTTP_HOST="127.0.0.1:8000", HTTP_ACCEPT_LANGUAGE="en").get(reverse("join")).content.decode()
    assert "<code>https://monopoly.example.org/</code>" in page and "192.168.1.20" not in page


def test_without_an_authority_of_the_events_own_there_is_nothing_to_trust(client, settings, tmp_path):
    settings.KEPT_DIR = tmp_path
    assert client.get(reverse("join_trust"), secure=True).status_code == 404
    assert client.get(reverse("join_authority"), secure=True).status_code == 404
    assert "trust this laptop" not in client.get(reverse("join"), secure=True).content.decode()


def test_with_serve_https_authority_the_phones_are_led_to_trust_it(
    on_the_laptop, settings, tmp_path, monkeypatch
):
    settings.KEPT_DIR = tmp_path
    venue_authority.authority(tmp_path)
    laptop = Client(HTTP_HOST="127.0.0.1:8000", HTTP_ACCEPT_LANGUAGE="en")
    page = laptop.get(reverse("join"), secure=True).content.decode()
    assert "<code>https://192.168.1.20:8000/join/trust/</code>" in page and page.count('class="qr"') == 2
    trust = laptop.get(reverse("join_trust"), secure=True).content.decode()
    assert f"“Monopoly tournament at {venue_authority.host_name()}”" in trust
    assert 'href="/join/monopoly-venue.crt" download' in trust
    assert 'data-worker="/console-sw.js"' in trust  # trust.js: the service worker registers, or not
    certificate = laptop.get(reverse("join_authority"), secure=True)
    assert certificate["Content-Type"] == "application/x-x509-ca-cert"
    assert certificate["Content-Disposition"] == 'attachment; filename="monopoly-venue.crt"'
    assert certificate.content == venue_authority.authority_certificate(tmp_path)
    assert b"PRIVATE KEY" not in certificate.content
    # a public address of the laptop's is not one its certificate names: the laptop's name instead
    monkeypatch.setattr(serving, "lan_addresses", lambda: ["203.0.113.5"])
    page = laptop.get(reverse("join"), secure=True).content.decode()
    assert f"<code>https://{venue_authority.local_names()[0]}:8000/</code>" in page and "203.0" not in page
    # over plain HTTP the authority is not offered (the page could not tell whether it worked)
    assert laptop.get(reverse("join_trust")).status_code == 404


def test_the_join_and_trust_pages_in_polish(on_the_laptop, settings, tmp_path):
    settings.KEPT_DIR = tmp_path
    venue_authority.authority(tmp_path)
    polish = Client(HTTP_HOST="127.0.0.1:8000", HTTP_ACCEPT_LANGUAGE="pl")
    page = polish.get(reverse("join"), secure=True).content.decode()
    assert "Dołącz do turnieju" in page and "Sędziowie: najpierw zaufajcie temu laptopowi" in page
    trust = polish.get(reverse("join_trust"), secure=True).content.decode()
    assert "Zaufaj temu laptopowi" in trust and "Pobierz certyfikat" in trust
