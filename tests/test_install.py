"""What `pip install .` installs serves the app (the README's production recipe), without the checkout.

The wheel carries every module, the boards, the translations, the PDF fonts and the checkout's top-level
templates/ and static/ (as tournament/site/). Installed into a virtual environment of its own and run from a
directory outside the checkout, its `monopoly-tournament` command migrates SQLite (a file in that directory)
and collects the static files there, and gunicorn serves the real pages and the static files.

The wheel's own dependencies are not installed again: the temporary environment sees those of the
environment the tests run in (a path in a .pth file; that environment's own .pth files, among them the
editable install's path to the checkout, are not read).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import re
import shutil
import signal
import site
import subprocess
import sys
import tarfile
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.processes import fetch, first_answer, free_port, killed, started

ROOT = Path(__file__).resolve().parents[1]
PYTHON_DIRS = ("rules", "ledger", "tournament")


def checkout_files(folder: str, pattern: str = "*") -> set[str]:
    return {
        p.relative_to(ROOT / folder).as_posix()
        for p in (ROOT / folder).rglob(pattern)
        if p.is_file() and "__pycache__" not in p.parts
    }


def built_wheel(source: Path, out: Path) -> Path:
    """The wheel pip builds of the project at ``source``, in ``out``."""
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--quiet", "-w", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    (path,) = out.glob("monopoly_tournament-*.whl")
    return path


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    return built_wheel(ROOT, tmp_path_factory.mktemp("wheel"))


def test_the_wheel_carries_everything_the_app_serves(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = {n.removeprefix("tournament/site/templates/") for n in names if "/site/templates/" in n}
    static = {n.removeprefix("tournament/site/static/") for n in names if "/site/static/" in n}
    assert templates == checkout_files("templates")
    assert {"home.html", "base.html", "console/page.html", "registration/login.html"} <= templates
    assert static == checkout_files("static")
    assert {"console/console.css", "vendor/htmx-2.0.11.min.js"} <= static
    for folder in PYTHON_DIRS:  # every module of every package
        assert {f"{folder}/{f}" for f in checkout_files(folder, "*.py")} <= names
    assert {f"rules/boards/{f}" for f in checkout_files("rules/boards", "*.json")} <= names
    assert "tournament/locale/pl/LC_MESSAGES/django.mo" in names
    assert {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE"} <= {
        n.removeprefix("tournament/exports/fonts/") for n in names
    }
    (entry_points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    assert "monopoly-tournament = tournament.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_a_wheel_built_from_a_checkout_without_pyodide_carries_it(tmp_path):
    """A fresh checkout has no Pyodide (git-ignored; tests/venv.sh fetches it): the build fetches it first
    (tournament/console/wheel_hook.py), as pinned. The pin here names a tarball of the test's own (file://),
    with its sha512: nothing downloaded, and a wrong file would be refused as the registry's would."""
    copy = tmp_path / "checkout"
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file() and not name.startswith("static/vendor/pyodide-"):
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    pin = json.loads((ROOT / "tournament/console/pyodide.json").read_text())
    tarball = io.BytesIO()
    with tarfile.open(fileobj=tarball, mode="w:gz") as tar:
        for member in pin["files"]:
            data = f"{member} as pinned".encode()
            info = tarfile.TarInfo(member)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    (tmp_path / "pyodide.tgz").write_bytes(tarball.getvalue())
    digest = base64.b64encode(hashlib.sha512(tarball.getvalue()).digest()).decode()
    pin.update(tarball=(tmp_path / "pyodide.tgz").as_uri(), integrity=f"sha512-{digest}")
    (copy / "tournament/console/pyodide.json").write_text(json.dumps(pin))
    assert not (copy / "static/vendor" / f"pyodide-{pin['version']}").exists()

    path = built_wheel(copy, tmp_path / "wheel")
    folder = f"tournament/site/static/vendor/pyodide-{pin['version']}"
    with zipfile.ZipFile(path) as whl:
        for member in pin["files"]:
            assert whl.read(f"{folder}/{member.rsplit('/', 1)[-1]}") == f"{member} as pinned".encode()


def test_the_installed_wheel_serves_pages_from_outside_the_checkout(wheel, tmp_path):
    venv, work, home = tmp_path / "venv", tmp_path / "site", tmp_path / "home"
    work.mkdir()
    home.mkdir()
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "test-environment.pth").write_text("".join(f"{d}\n" for d in site.getsitepackages()))
    tests_own = ("DJANGO_", "DATABASE_URL", "DB_", "PYTHON", "VIRTUAL_ENV", "XDG_RUNTIME_DIR")
    env = {k: v for k, v in os.environ.items() if k != "DB" and not k.startswith(tests_own)}
    env.update(
        PATH=f"{venv / 'bin'}:/usr/bin:/bin",
        HOME=str(home),  # gunicorn 25 and later would put their control socket in ~/.gunicorn
        DJANGO_SECRET_KEY="install-test-" + "x" * 40,
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_HTTPS="0",
    )

    def run(*command, timeout=180):
        out = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
        assert out.returncode == 0, f"{command}: {out.stdout}\n{out.stderr}"
        return out.stdout

    run(python, "-m", "pip", "install", "--no-deps", "--no-index", "--ignore-installed", "--quiet", wheel)
    where = run(python, "-c", "import tournament, rules; print(tournament.__file__, rules.__file__)").split()
    assert all(Path(w).is_relative_to(venv) for w in where), where  # not the checkout's
    command = venv / "bin" / "monopoly-tournament"
    # where the database will be, said while there is none (run from the wrong folder, a new one is made)
    first = subprocess.run([command, "check"], cwd=work, env=env, capture_output=True, text=True, timeout=180)
    assert first.returncode == 0 and f"No database at {work / 'db.sqlite3'}" in first.stderr, first.stderr
    assert not (work / "db.sqlite3").exists()
    run(command, "migrate", "-v", "0")
    run(command, "check", "--fail-level", "WARNING")
    # Pyodide, in the wheel, is where the installed copy serves it from (fetching it again writes nothing)
    engine = run(python, "-m", "tournament.console.pyodide").split()
    served_from = Path(purelib, "tournament", "site", "static")
    assert engine and all(Path(e).is_relative_to(served_from) for e in engine)
    run(command, "collectstatic", "--noinput", "-v", "0")
    deploy = run(command, "check", "--deploy", "--fail-level", "ERROR")
    assert "tournament.E003" not in deploy
    assert (work / "db.sqlite3").is_file()  # in the directory it runs in, not in site-packages
    manifest = json.loads((work / "staticfiles" / "staticfiles.json").read_text())["paths"]

    port = free_port()
    server = started(
        [python, "-m", "gunicorn", "tournament.wsgi:application", "--bind", f"127.0.0.1:{port}"]
        + ["-k", "gthread", "--workers", "1", "--threads", "2"],
        tmp_path / "gunicorn.log",
        cwd=work,
        env=env,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        status, kind, body = first_answer(server, f"{base}/", tmp_path / "gunicorn.log", within=60)
        page = body.decode()
        assert status == 200 and kind.startswith("text/html"), page
        # home.html in base.html's layout, in Polish (the .mo), listing the shipped boards (rules/boards)
        assert '<html lang="pl">' in page and "<title>Turniej Monopoly</title>" in page
        assert "<h2>Plansze</h2>" in page and 'class="topbar"' in page
        status, _, body = fetch(f"{base}/login/")
        assert status == 200 and 'name="password"' in body.decode()

        css = re.search(r'href="(/static/console/console\.[0-9a-f]{12}\.css)"', page)
        assert css, page
        status, kind, _ = fetch(base + css.group(1))
        assert status == 200 and kind.startswith("text/css")
        htmx = "vendor/htmx-2.0.11.min.js"
        status, _, body = fetch(f"{base}/static/{manifest[htmx]}")
        assert status == 200 and body == (ROOT / "static" / htmx).read_bytes()
        for name in engine:  # the phones' engine
            served = f"{Path(name).parent.name}/{Path(name).name}"
            status, _, body = fetch(f"{base}/static/{manifest['vendor/' + served]}")
            assert status == 200 and body == Path(name).read_bytes()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()

    # The event served by the installed copy's one command: its key made in the directory it runs in.
    port = free_port()
    served_env = {k: v for k, v in env.items() if k != "DJANGO_SECRET_KEY"}
    log = tmp_path / "serve.log"
    argv = [command, "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "1"]
    serving = started(argv, log, cwd=work, env=served_env)
    try:
        status, _, body = first_answer(serving, f"http://127.0.0.1:{port}/login/", log, within=120)
        assert status == 200 and 'name="password"' in body.decode()
        assert (work / "secret_key").stat().st_mode & 0o777 == 0o600
        wasm = next(e for e in engine if e.endswith(".wasm"))  # the phones' engine
        served = f"vendor/{Path(wasm).parent.name}/{Path(wasm).name}"
        status, kind, body = fetch(f"http://127.0.0.1:{port}/static/{manifest[served]}")
        assert status == 200 and kind == "application/wasm" and body == Path(wasm).read_bytes()
        code = "from tournament.models import Tournament; print(Tournament.objects.create(name='T').pk)"
        pk = run(command, "shell", "--no-imports", "-c", code).strip()  # (reads the key serve kept)
        with urllib.request.urlopen(
            f"http://127.0.0.1:{port}/tournaments/{pk}/events/", timeout=30
        ) as stream:
            assert stream.headers["Content-Type"].startswith("text/event-stream") and stream.readline()
        os.killpg(serving.pid, signal.SIGINT)
        assert serving.wait(timeout=60) == 0, log.read_text()
    finally:
        killed(serving)

    # Without the phones' engine an installed copy does not start: it says what is missing and what to run.
    shutil.rmtree(Path(wasm).parent)
    elsewhere = tmp_path / "elsewhere"  # (no static files collected there before)
    elsewhere.mkdir()
    refused = subprocess.run(
        [command, "serve", "--host", "127.0.0.1", "--port", str(free_port())],
        cwd=elsewhere,
        env=served_env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert refused.returncode != 0 and "tournament.E003" in refused.stderr, refused.stderr
    assert "python -m tournament.console.pyodide" in refused.stderr
