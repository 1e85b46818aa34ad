"""A throw-away PostgreSQL server for the tests and the load test: a new cluster in a temporary directory,
listening on 127.0.0.1 only (a free port), stopped and deleted afterwards.

Uses Debian's ``postgresql`` package (``tests/setup.sh`` installs it). PostgreSQL refuses to run as root: as
root the cluster belongs to the ``postgres`` system user the package creates.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if found:
        return found[-1]
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"PostgreSQL's {name} was not found: run tests/setup.sh (installs postgresql)")
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, *, durable: bool = False, max_connections: int = 300):
        self.dir = Path(tempfile.mkdtemp(prefix="monopoly-pg-"))
        self.data = self.dir / "data"
        self.port = _free_port()
        self.durable = durable  # fsync on (a real server) or off (tests: faster, nothing to keep)
        self.max_connections = max_connections
        self._as = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        subprocess.run([*self._as, *args], check=True, capture_output=True, cwd=self.dir)

    def start(self) -> Server:
        self._run(
            _bin("initdb"),
            "-D",
            str(self.data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        )
        options = [
            "-c listen_addresses=127.0.0.1",
            f"-p {self.port}",
            f"-k {self.dir}",
            f"-c max_connections={self.max_connections}",
        ]
        if not self.durable:
            options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        self._run(
            _bin("pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.dir / "log"),
            "-w",
            "-t",
            "60",
            "-o",
            " ".join(options),
            "start",
        )
        return self

    def create_database(self, name: str) -> None:
        self._run(_bin("createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)

    def url(self, name: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError, FileNotFoundError):
            self._run(_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


@contextlib.contextmanager
def throwaway_postgres(**kwargs) -> Iterator[Server]:
    server = Server(**kwargs)
    try:
        yield server.start()
    finally:
        server.stop()
