"""The house's layers hold (the import-linter contracts of pyproject.toml, drawn in docs/architecture.md), its
structure holds (.ci/structure.py) and every model change has its migration: all also run in .ci/run; here
they fail the suite where they break."""

import importlib.util
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[1]


#: import-linter's command, beside the Python running the suite (its .venv, activated or not)
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def test_the_structure_holds():
    """No import circle, no module over 500 lines, no test module importing another (.ci/structure.py)."""
    run = subprocess.run([sys.executable, ".ci/structure.py"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]


def test_the_layers_contracts_are_kept():
    run = subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]


@pytest.mark.django_db
def test_every_model_change_has_its_migration():
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as e:  # --check exits 1 when a migration is missing
        pytest.fail(f"a model changed without its migration (exit {e.code}):\n{out.getvalue()}")


def test_the_browser_modules_checks_find_a_breach(tmp_path, monkeypatch):
    """The checks of static/'s modules can fail: a circle (also through a dynamic import), an import of no
    file, a module over the limit; static/vendor/ is not theirs to judge."""
    spec = importlib.util.spec_from_file_location("structure", ROOT / ".ci" / "structure.py")
    structure = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(structure)
    monkeypatch.setattr(structure, "STATIC", tmp_path)
    (tmp_path / "site").mkdir()
    (tmp_path / "vendor").mkdir()
    (tmp_path / "site" / "a.js").write_text('import { b } from "./b.js";\nimport "../gone.js";\n')
    (tmp_path / "site" / "b.js").write_text('export const b = () => import("./c.js");\n')
    (tmp_path / "site" / "c.js").write_text('export { a } from "./a.js";\n' + "//\n" * structure.MAX_LINES)
    (tmp_path / "vendor" / "big.js").write_text("//\n" * (structure.MAX_LINES + 1))
    assert structure.js_import_circles() == [
        "site/a.js imports gone.js, no such file",
        "site/a.js → site/b.js → site/c.js → site/a.js",
    ]
    assert [line.split(":")[0] for line in structure.long_modules()][-1] == str(tmp_path / "site" / "c.js")
    assert not any("vendor" in line for line in structure.long_modules())
