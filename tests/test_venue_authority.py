"""The venue's own certificate authority (``serve --https``, tournament/server/venue_authority.py): made once,
kept from others, vouching for this laptop's names and private addresses, and for nothing else."""

import ipaddress
import stat

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509 import DNSName, IPAddress
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError

from tests.threads import at_once, writes_held_together
from tournament.server import venue_authority as va


def verify(folder, leaf: x509.Certificate, name) -> None:
    """As a phone that installed the authority checks the laptop's certificate for ``name``."""
    authority = x509.load_pem_x509_certificate(va.authority_certificate(folder))
    PolicyBuilder().store(Store([authority])).build_server_verifier(name).verify(leaf, [])


def leaf_of(path) -> x509.Certificate:
    return x509.load_pem_x509_certificates(path.read_bytes())[0]


def test_the_authority_is_made_once_kept_from_others_and_the_same_at_every_start(tmp_path):
    assert va.authority_certificate(tmp_path) is None  # nothing to trust before serve --https made it
    first, _ = va.authority(tmp_path)
    assert stat.S_IMODE((tmp_path / va.AUTHORITY_FILE).stat().st_mode) == 0o600  # its key is in it
    again, _ = va.authority(tmp_path)
    assert again == first
    shown = va.authority_certificate(tmp_path)
    assert shown.startswith(b"-----BEGIN CERTIFICATE-----") and b"PRIVATE KEY" not in shown
    assert va.authority_name(shown) == f"Monopoly tournament at {va.host_name()}"


def test_two_starts_at_once_make_one_authority(tmp_path, monkeypatch):
    writes_held_together(monkeypatch, va, 4)
    made = [certificate for certificate, _key in at_once(*[lambda: va.authority(tmp_path)] * 4)]
    assert len({c.fingerprint(hashes.SHA256()) for c in made}) == 1
    assert [p.name for p in tmp_path.iterdir()] == [va.AUTHORITY_FILE]  # no temporary file left


def test_the_laptops_certificate_names_its_names_and_private_addresses_and_a_phone_accepts_it(tmp_path):
    path = va.server_certificate(tmp_path, ["192.168.1.20", "10.0.0.7", "203.0.113.5"])
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    leaf = leaf_of(path)
    names = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert set(va.local_names()) <= set(names.get_values_for_type(DNSName))
    ips = {str(a) for a in names.get_values_for_type(IPAddress)}
    assert ips == {"192.168.1.20", "10.0.0.7", "127.0.0.1", "::1"}  # not a public one: the authority may not
    for name in (DNSName(va.local_names()[0]), IPAddress(ipaddress.ip_address("192.168.1.20"))):
        verify(tmp_path, leaf, name)
    with pytest.raises(VerificationError):
        verify(tmp_path, leaf, DNSName("bank.example.com"))
    # a new start on another network: a new certificate, the same authority (the phones trust it already)
    again = leaf_of(va.server_certificate(tmp_path, ["172.20.0.3"]))
    verify(tmp_path, again, IPAddress(ipaddress.ip_address("172.20.0.3")))
    assert again.serial_number != leaf.serial_number


def test_the_authority_cannot_vouch_for_another_site_even_with_its_key_stolen(tmp_path):
    authority, key = va.authority(tmp_path)

    def signed_for(name: str) -> x509.Certificate:
        return (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(x509.NameOID.COMMON_NAME, name)]))
            .issuer_name(authority.subject)
            .public_key(ec.generate_private_key(ec.SECP256R1()).public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(authority.not_valid_before_utc)
            .not_valid_after(authority.not_valid_after_utc)
            .add_extension(x509.SubjectAlternativeName([DNSName(name)]), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([x509.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(key.public_key()), False)
            .sign(key, hashes.SHA256())
        )

    verify(tmp_path, signed_for("scoreboard.lan"), DNSName("scoreboard.lan"))  # a local name: it may
    with pytest.raises(VerificationError):
        verify(tmp_path, signed_for("bank.example.com"), DNSName("bank.example.com"))


def test_a_phone_keeps_trusting_the_laptop_after_it_is_renamed(tmp_path, monkeypatch):
    """The computer's bare name is in neither the authority's constraints nor the certificate (a rename would
    break every phone's trust; a name such as "dev" would cover a public domain): only local suffixes."""
    monkeypatch.setattr(va.socket, "gethostname", lambda: "alpha")
    authority, _ = va.authority(tmp_path)
    constraints = authority.extensions.get_extension_for_class(x509.NameConstraints).value
    names = {n.value for n in constraints.permitted_subtrees if isinstance(n, DNSName)}
    assert names == set(va.LOCAL_SUFFIXES)
    usage = authority.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(usage) == [x509.ExtendedKeyUsageOID.SERVER_AUTH]  # it vouches for web servers only
    monkeypatch.setattr(va.socket, "gethostname", lambda: "beta.example.org")
    leaf = leaf_of(va.server_certificate(tmp_path, ["192.168.1.20"]))
    names = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(DNSName) == ["beta.local", "localhost"]
    verify(tmp_path, leaf, DNSName("beta.local"))
    verify(tmp_path, leaf, IPAddress(ipaddress.ip_address("192.168.1.20")))


def test_where_a_phone_reaches_the_laptop_over_https(monkeypatch):
    monkeypatch.setattr(va.socket, "gethostname", lambda: "Laptop")
    assert va.phone_hosts(["192.168.1.20", "203.0.113.5"]) == ["192.168.1.20"]
    assert va.phone_hosts(["203.0.113.5"]) == ["laptop.local"]  # a public address: its name instead
    monkeypatch.setattr(va.socket, "gethostname", lambda: "my_laptop")  # not a name mDNS can carry
    assert va.local_names() == ["localhost"]
