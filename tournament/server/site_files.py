"""Where the site's templates/ and static/ are (Python's standard library only: the setup scripts' Pyodide
fetch reads it before Django is installed): a checkout's top-level folders, beside ``manage.py``; an installed
copy's ``tournament/site/`` (the wheel carries them there: pyproject.toml)."""

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1]  # tournament/


def in_checkout(package: Path = PACKAGE_DIR) -> bool:
    return (package.parent / "manage.py").is_file()


def site_folder(package: Path = PACKAGE_DIR) -> Path:
    """The folder that holds templates/ and static/."""
    return package.parent if in_checkout(package) else package / "site"
