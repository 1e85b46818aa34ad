"""The phones' engine (Pyodide's files) is served, or a system check says so before the event starts
(tournament/console/engine_check.py: ``check --deploy``, and ``serve`` before it listens)."""

from pathlib import Path

from django.core import checks
from django.test import override_settings

from tournament.console import pyodide
from tournament.console.engine_check import TAG

ROOT = Path(__file__).resolve().parents[1]
PLAIN = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
COLLECTED = {**PLAIN, "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}}


def engine_errors() -> list[checks.CheckMessage]:
    return checks.run_checks(tags=[TAG], include_deployment_checks=True)


def copy_of_the_engine(static: Path) -> None:
    folder = static / pyodide.folder_name()
    folder.mkdir(parents=True)
    for name in pyodide.file_names():
        (folder / name).write_bytes(b"x")


@override_settings(STORAGES=PLAIN)
def test_the_checkouts_engine_is_found():
    # tests/venv.sh fetched it
    assert (ROOT / "static" / pyodide.folder_name() / "pyodide.asm.wasm").is_file()
    assert engine_errors() == []


def test_without_pyodide_the_check_fails_saying_what_is_missing_where_and_what_to_run(tmp_path):
    with override_settings(STORAGES=PLAIN, STATICFILES_DIRS=[tmp_path]):
        (error,) = engine_errors()
    assert error.id == "tournament.E003" and error.level == checks.ERROR
    assert "pyodide.asm.wasm" in error.msg and "python_stdlib.zip" in error.msg
    assert "python -m tournament.console.pyodide" in error.hint


def test_served_with_hashed_names_the_collected_files_count_not_the_sources(tmp_path):
    collected = tmp_path / "staticfiles"
    with override_settings(STORAGES=COLLECTED, STATIC_ROOT=collected):
        (error,) = engine_errors()  # the checkout has them, collectstatic has not run
        assert str(collected) in error.msg
        copy_of_the_engine(collected)
        assert engine_errors() == []


def test_the_check_is_a_deployment_one_so_a_development_check_does_not_run_it(tmp_path):
    with override_settings(STORAGES=PLAIN, STATICFILES_DIRS=[tmp_path]):
        assert checks.run_checks(tags=[TAG]) == []


def test_pyodide_is_fetched_where_the_app_serves_its_static_files_from(tmp_path):
    assert pyodide.static_folder() == ROOT / "static"
    installed = tmp_path / "site-packages" / "tournament"  # no manage.py beside it
    installed.mkdir(parents=True)
    assert pyodide.static_folder(installed) == installed / "site" / "static"
