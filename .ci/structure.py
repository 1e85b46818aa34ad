"""The house's structure, checked (run by .ci/run and by tests/test_architecture.py; the layers' contracts are
import-linter's, in pyproject.toml):

- no import circle between the modules of rules/, ledger/ and tournament/ (imports made only for the type
  checker excepted: they are not run);
- no module of theirs over MAX_LINES lines (the migrations excepted: Django writes them);
- the same two for the browser's modules (static/**/*.js, ES modules importing each other by relative
  address; static/vendor/ excepted: others write it);
- no test module (tests/test_*.py) imports another: what tests share lives in helper modules and fixtures
  (tests/conftest.py and the plugins it names).

Prints each breach and exits 1 when there is one.

    python .ci/structure.py
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "ledger", "tournament")
MAX_LINES = 500
STATIC = ROOT / "static"
#: a browser module's imports by relative address: static ones and re-exports (``import … from "./x.js"``,
#: ``import "./x.js"``, ``export … from``) and dynamic ones (``import("./x.js")``)
JS_IMPORT = re.compile(
    r"""(?:^|\n)\s*(?:import|export)\b[^;'"]*?(?:\bfrom\s*)?["'](\.{1,2}/[^"']+)["']|\bimport\(\s*["'](\.{1,2}/[^"']+)["']"""
)


def import_circles() -> list[str]:
    """Each circle of the Python modules once, as its modules in import order (a → b → a)."""
    sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True, cache_dir=None)
    return circles_of({m: graph.find_modules_directly_imported_by(m) for m in graph.modules})


def js_modules() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*.js") if "vendor" not in p.relative_to(STATIC).parts)


def js_imports() -> dict[str, set[str]]:
    """Each browser module (its path under static/) and those it imports; an import of no file is a breach
    too (``missing:`` before its address)."""
    imports = {}
    for path in js_modules():
        found = set()
        for match in JS_IMPORT.finditer(path.read_text(encoding="utf-8")):
            target = (path.parent / (match.group(1) or match.group(2))).resolve()
            name = target.relative_to(STATIC).as_posix() if target.is_relative_to(STATIC) else str(target)
            found.add(name if target.is_file() else f"missing: {name}")
        imports[path.relative_to(STATIC).as_posix()] = found
    return imports


def js_import_circles() -> list[str]:
    imports = js_imports()
    missing = [
        f"{m} imports {t.removeprefix('missing: ')}, no such file"
        for m, ts in imports.items()
        for t in ts
        if t.startswith("missing: ")
    ]
    return missing + circles_of({m: {t for t in ts if t in imports} for m, ts in imports.items()})


def circles_of(imports: dict[str, set[str]]) -> list[str]:
    """Each circle of an import graph once (a → b → a)."""
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
    paths = [
        p
        for package in PACKAGES
        for p in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in p.parts
    ]
    out = []
    for path in paths + js_modules():
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
            out.append(f"{shown}: {n} lines (at most {MAX_LINES})")
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
        "browser modules' import circles": js_import_circles(),
        f"modules over {MAX_LINES} lines": long_modules(),
        "test modules importing test modules": test_modules_importing_tests(),
    }
    for what, found in breaches.items():
        for line in found:
            print(f"{what}: {line}")
    if any(breaches.values()):
        return 1
    print(f"structure: no import circle (Python or browser), no module over {MAX_LINES} lines,", end=" ")
    print("no test module importing another")
    return 0


if __name__ == "__main__":
    sys.exit(main())
