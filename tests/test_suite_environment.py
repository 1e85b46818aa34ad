"""The suite's own environment (tests/environment.py) cleans up after itself, however pytest ends."""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_usage_error_under_postgres_leaves_no_server_running():
    """``pytest --postgres`` with a mistyped option: the throw-away server it started is stopped (its folder
    gone), though pytest ends before its unconfigure hook."""
    tmp = Path(tempfile.mkdtemp(prefix="suite-environment-"))  # (not pytest's tmp_path: the server's user
    tmp.chmod(0o755)  # may not enter it when the suite runs as root)
    try:
        left = run_with_a_usage_error(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    assert not left, "the PostgreSQL server was left running"


def run_with_a_usage_error(tmp: Path) -> list[Path]:
    """The throw-away servers' folders left in ``tmp`` by such a run."""
    env = {**os.environ, "TMPDIR": str(tmp)}
    env.pop("DATABASE_URL", None)
    env.pop("PYTEST_XDIST_WORKER", None)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "--postgres", "--no-such-option", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 4, run.stderr[-2_000:]  # pytest's usage error
    assert "--no-such-option" in run.stderr
    return list(tmp.glob("monopoly-pg-*"))
