#!/bin/sh
# Installs what the tests need on a fresh machine: Debian's chromium for the browser tests (Playwright drives
# it; no browser is downloaded) and Debian's postgresql for the run against PostgreSQL (`python -m pytest
# --postgres` starts a throw-away server of its own; nothing is configured), then the project with its test
# extra into the checkout's virtual environment .venv (tests/venv.sh makes it). Then `. .venv/bin/activate`.
set -e
cd "$(dirname "$0")/.."
missing=""
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$missing postgresql"
if [ -n "$missing" ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
sh tests/venv.sh test
