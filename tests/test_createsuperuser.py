"""The director's account made as the README says (``manage.py createsuperuser``), in a terminal: every
prompt in one language (English: Django writes most of them in English only; the field names came in
Polish, "Nazwa użytkownika (leave blank to use 'root')")."""

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def converse(command: list[str], env: dict, answers: list[str], until: str) -> str:
    """Run ``command`` on a terminal of its own, answering each prompt (a line ending with ": ") in turn;
    what it wrote, once ``until`` is in it or it has ended."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, on the terminal
        os.chdir(ROOT)
        os.execve(command[0], command, env)
    out, answered = b"", 0
    deadline = time.monotonic() + 60  # a bound for a command that hangs, not a wait
    try:
        while until.encode() not in out and time.monotonic() < deadline:
            ready, _w, _x = select.select([fd], [], [], 1)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the command has ended
                break
            out += chunk
            if out.rstrip(b" ").endswith((b":", b"]:")) and answered < len(answers):
                os.write(fd, answers[answered].encode() + b"\n")
                answered += 1
    finally:
        os.waitpid(pid, 0)
        os.close(fd)
    return out.decode(errors="replace")


@pytest.mark.parametrize("language", ["pl_PL.UTF-8", "en_US.UTF-8"])
def test_createsuperuser_asks_in_one_language(tmp_path, language):
    env = {
        **os.environ,
        "DJANGO_SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "DJANGO_SECRET_KEY": "test",
        "LANG": language,
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)  # manage.py's own
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    said = converse(
        [sys.executable, "manage.py", "createsuperuser"],
        env,
        ["boss", "", "pw", "pw", "y"],
        until="Superuser created successfully.",
    )
    assert "Username (leave blank to use" in said and "Email address:" in said, said
    assert "Nazwa" not in said and "Adres" not in said and "hasło" not in said, said
    assert "This password is too short." in said and "Superuser created successfully." in said, said
