#!/bin/sh
# Makes the checkout's virtual environment .venv (if it has none that works) and installs the project into it,
# editable: `sh tests/venv.sh` the app alone (the README's start command), `sh tests/venv.sh test` with the test
# extra too (tests/setup.sh). A fresh Debian has `python3` but no `python`, and its pip refuses to install
# beside Debian's packages (PEP 668): everything goes into .venv, whose bin/ has `python` once activated
# (`. .venv/bin/activate`). Debian's python3 makes a venv only with its python3-venv package: installed here
# when missing. Then Pyodide, with which a referee's phone runs the rules while the Wi-Fi is down, from the npm
# registry as tournament/console/pyodide.json pins it (nothing fetched when it is there already).
set -e
cd "$(dirname "$0")/.."
if ! { [ -x .venv/bin/python ] && .venv/bin/python -m pip --version >/dev/null 2>&1; }; then
    if ! python3 -c "import ensurepip, venv" >/dev/null 2>&1; then
        SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv >/dev/null
    fi
    python3 -m venv --clear .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${1:+[$1]}"
.venv/bin/python -m tournament.console.pyodide >/dev/null
