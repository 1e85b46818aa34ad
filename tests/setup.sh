#!/bin/sh
# Installs what the tests need on a fresh machine: the project with its test extra, and Debian's chromium
# for the browser tests (Playwright drives it; no browser is downloaded).
set -e
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
python -m pip install --quiet --disable-pip-version-check -e ".[test]"
