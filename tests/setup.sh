#!/bin/sh
# Installs what the tests need on a fresh machine: Debian's chromium for the browser tests (Playwright drives
# it; no browser is downloaded) and Debian's postgresql for the run against PostgreSQL (`python -m pytest
# --postgres` starts a throw-away server of its own; nothing is configured), then the project with its test
# extra into the checkout's virtual environment .venv (tests/venv.sh makes it), and axe-core for the
# accessibility checks (from the npm registry, its pinned sha512 checked; no node: tests/fetch_axe.py); and
# Debian's haproxy for the load test's several servers (`tests/load_event_day.py --servers 2`); poppler's
# pdftoppm (PDF pages as PNG) and zbar's zbarimg (the QR codes printed on the participants' slips, read back);
# NSS's certutil (a test's browser trusts the certificate authority `serve --https` makes, as a phone would);
# Caddy, which the hosted recipe puts in front of the app (tests/test_caddy_recipe.py; not started here).
# Then `. .venv/bin/activate`.
set -e
cd "$(dirname "$0")/.."
missing=""
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$missing postgresql"
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing="$missing haproxy"  # the load test's --servers
command -v pdftoppm >/dev/null 2>&1 || missing="$missing poppler-utils"  # PDFs rendered to PNG, to look at
command -v zbarimg >/dev/null 2>&1 || missing="$missing zbar-tools"  # the slips' QR codes read back
command -v certutil >/dev/null 2>&1 || missing="$missing libnss3-tools"  # a browser trusting serve --https
command -v caddy >/dev/null 2>&1 || missing="$missing caddy"  # the hosted recipe (docs/deploy/), served through
if [ -n "$missing" ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
python3 tests/fetch_axe.py >/dev/null
sh tests/venv.sh test
