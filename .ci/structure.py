"""The house's structure, checked (run by .ci/run and by tests/test_architecture.py; the layers' contracts are
import-linter's, in pyproject.toml):

- no import circle between the modules of rules/, ledger/ and tournament/ (imports made only for the type
  checker excepted: they are not run);
- no module of theirs over MAX_LINES lines (the migrations excepted: Django writes them);
- no test module (tests/test_*.py) imports another: what tests share lives in helper modules and fixtures
  (tests/conftest.py and the plugins it names).

Prints each breach and exits 1 when there is one.

    python .ci/structure.py
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "ledger", "tournament")
MAX_LINES = 500


def import_circles() -> list[str]:
    """Each circle once, as its modules in import order (a → b → a)."""
    sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True, cache_dir=None)
    imports = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    circles, state, stack = [], {}, []

    def visit(module: str) -> None:  # depth first; a module met again on the current path closes a circle
        state[module] = "open"
        stack.append(module)
        for other in sorted(imports[module]):
            if state.get(other) == "open":
                circles.append(" → ".join([*stack[stack.index(other) :], other]))
            elif other not in state:
                visit(other)
        stack.pop()
        state[module] = "done"

    sys.setrecursionlimit(10_000)
    for module in sorted(imports):
        if module not in state:
            visit(module)
    return circles


def long_modules() -> list[str]:
    out = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            n = len(path.read_text(encoding="utf-8").splitlines())
            if n > MAX_LINES:
                out.append(f"{path.relative_to(ROOT)}: {n} lines (at most {MAX_LINES})")
    return out


def test_modules_importing_tests() -> list[str]:
    out = []
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] if node.level == 0 else [f".{node.module or ''}"]
                names += [f"{node.module}.{a.name}" for a in node.names if node.module == "tests"]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                last = name.rsplit(".", 1)[-1]
                if last.startswith("test_") and name.startswith(("tests.", ".", "test_")):
                    out.append(f"{path.relative_to(ROOT)}:{node.lineno}: imports {name}")
    return out


def main() -> int:
    breaches = {
        "import circles": import_circles(),
        f"modules over {MAX_LINES} lines": long_modules(),
        "test modules importing test modules": test_modules_importing_tests(),
    }
    for what, found in breaches.items():
        for line in found:
            print(f"{what}: {line}")
    if any(breaches.values()):
        return 1
    print("structure: no import circle, no module over 500 lines, no test module importing another")
    return 0


if __name__ == "__main__":
    sys.exit(main())
