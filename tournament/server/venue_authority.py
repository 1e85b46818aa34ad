"""``serve --https`` on a venue laptop: a certificate authority of the event's own, made once and kept beside
the database, and, at each start, a certificate it signs for this laptop's names and addresses.

A phone's browser gives the console its service worker (a reload without the network) only over HTTPS with a
certificate it trusts; the venue laptop has no domain and often no internet, so no public authority can vouch
for it. A phone that installs this authority once (``/join/trust/`` leads it, Android and iOS) trusts every
certificate the laptop makes afterwards, on whichever network and address the venue gives it.

The authority may vouch only for web servers (its extended key usage) at private addresses and under local
names (X.509 name constraints, which browsers enforce): installed on a phone, it cannot vouch for a bank's
site. It can still vouch for any private address or local name, on any network the phone joins later: a
phone removes it after the event (the trust page says how).

Nothing here imports Django (``serve`` calls it; the join pages read the authority's certificate)."""

from __future__ import annotations

import datetime
import ipaddress
import re
import socket
from pathlib import Path

from tournament.server.private_files import write_private

#: The authority (its key and certificate, one file only its owner may read), beside the kept secret key.
AUTHORITY_FILE = "venue_authority.pem"
#: The laptop's certificate and key, made anew at each start (its names and addresses may have changed).
SERVER_FILE = "venue_server.pem"
#: What the authority may vouch for: private and loopback addresses, and names that only a local network
#: resolves (mDNS's .local, .lan, RFC 8375's home.arpa, .internal). Not this computer's bare name: it would
#: change with the computer's name (and every phone's trust with it), and a name such as "dev" would cover a
#: public domain (.dev).
PRIVATE_NETWORKS = (
    "10.0.0.0/8",
    "172.16.0.0/12",
    "192.168.0.0/16",
    "169.254.0.0/16",
    "100.64.0.0/10",  # (a carrier-grade NAT's shared addresses, which some venue routers hand out)
    "127.0.0.0/8",
    "fc00::/7",
    "fe80::/10",
    "::1/128",
)
LOCAL_SUFFIXES = ("localhost", "local", "lan", "home.arpa", "internal")
AUTHORITY_YEARS = 10
#: Apple's devices refuse a server certificate valid for longer than 825 days; a start makes a new one anyway.
SERVER_DAYS = 397


def _pem_of_key(key) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _pem_of_certificate(certificate) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return certificate.public_bytes(serialization.Encoding.PEM)


def nameable(address: str) -> bool:
    """Whether the authority may vouch for ``address`` (a private or loopback one): a phone reaches a laptop
    on a public address by its name instead."""
    ip = ipaddress.ip_address(address)
    return any(ip in ipaddress.ip_network(n) for n in PRIVATE_NETWORKS)


def host_name() -> str:
    """This computer's name (its first label, in lower case), as its authority is called."""
    return socket.gethostname().split(".")[0].lower() or "laptop"


def local_names() -> list[str]:
    """The names a phone may reach this computer by, besides its addresses: its name under mDNS's .local
    (when the name can be one: letters, digits and hyphens) and localhost."""
    host = host_name()
    return ([f"{host}.local"] if re.fullmatch(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?", host) else []) + ["localhost"]


def phone_hosts(addresses: list[str]) -> list[str]:
    """Where a phone reaches this computer over ``serve --https``: its addresses the certificate can name, or
    else its .local name."""
    return [a for a in addresses if nameable(a)] or local_names()[:1]


def authority(folder: Path):
    """The event's authority (its certificate and key), made in ``folder`` the first time."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    path = folder / AUTHORITY_FILE
    if not path.exists():
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name(
            [
                x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Monopoly tournament"),
                x509.NameAttribute(NameOID.COMMON_NAME, f"Monopoly tournament at {host_name()}"),
            ]
        )
        now = datetime.datetime.now(datetime.UTC)
        permitted = [x509.IPAddress(ipaddress.ip_network(n)) for n in PRIVATE_NETWORKS]
        permitted += [x509.DNSName(n) for n in LOCAL_SUFFIXES]
        certificate = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=365 * AUTHORITY_YEARS))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(
                x509.KeyUsage(
                    digital_signature=True,
                    content_commitment=False,
                    key_encipherment=False,
                    data_encipherment=False,
                    key_agreement=False,
                    key_cert_sign=True,
                    crl_sign=True,
                    encipher_only=False,
                    decipher_only=False,
                ),
                critical=True,
            )
            .add_extension(x509.NameConstraints(permitted_subtrees=permitted, excluded_subtrees=None), True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256())
        )
        write_private(path, _pem_of_key(key) + _pem_of_certificate(certificate), replace=False)
    data = path.read_bytes()
    return x509.load_pem_x509_certificate(data), serialization.load_pem_private_key(data, password=None)


def authority_certificate(folder: Path) -> bytes | None:
    """The authority's certificate (PEM, what a phone installs), or None when ``serve --https`` made none."""
    try:
        data = (folder / AUTHORITY_FILE).read_bytes()
    except FileNotFoundError:
        return None
    start = data.find(b"-----BEGIN CERTIFICATE-----")
    return data[start:] if start >= 0 else None


def server_certificate(folder: Path, addresses: list[str]) -> Path:
    """A certificate for this computer's names and ``addresses`` (and loopback's), signed by the event's
    authority, with its key: one file only its owner may read (uvicorn's ``ssl_certfile``)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    issuer, issuer_key = authority(folder)
    key = ec.generate_private_key(ec.SECP256R1())
    names = local_names()
    ips = [ipaddress.ip_address(a) for a in dict.fromkeys([*addresses, "127.0.0.1", "::1"]) if nameable(a)]
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Monopoly tournament server")]))
        .issuer_name(issuer.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=SERVER_DAYS))
        .add_extension(
            x509.SubjectAlternativeName([x509.DNSName(n) for n in names] + [x509.IPAddress(a) for a in ips]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer.public_key()), critical=False
        )
        .sign(issuer_key, hashes.SHA256())
    )
    path = folder / SERVER_FILE
    write_private(path, _pem_of_key(key) + _pem_of_certificate(certificate), replace=True)
    return path


def authority_name(certificate_pem: bytes) -> str:
    """The name a phone lists the authority under (iOS: Certificate Trust Settings)."""
    from cryptography import x509
    from cryptography.x509.oid import NameOID

    subject = x509.load_pem_x509_certificate(certificate_pem).subject
    return str(subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value)
