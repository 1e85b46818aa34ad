"""The documents people read, held to what they promise: the README short, its two commands within its first
40 lines and the test command the one CI runs; no paragraph over 120 words in the README and the readers'
guides; every link to a file of the project and every screenshot there, each screenshot one a browser test
makes (tests/doc_screens.py copies it again after a run that made it); every shell command in them one that a
test or CI runs."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tournament.server.environment import guide_table

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GUIDES = sorted(
    path
    for reader in ("referee", "director", "participant", "serving", "developers")
    for path in (ROOT / "docs" / f"{reader}.md", ROOT / "docs" / f"{reader}.pl.md")
    if path.exists()
)
READ = [README, *GUIDES]
SERVE = "sh tests/venv.sh && . .venv/bin/activate && python manage.py serve --demo"
TEST = "sh tests/setup.sh && . .venv/bin/activate && python -m pytest && python -m pytest --postgres"


def test_the_readers_guides_are_there():
    names = {p.name for p in GUIDES}
    for guide in ("referee", "director", "participant"):
        assert {f"{guide}.md", f"{guide}.pl.md"} <= names
    assert {"serving.md", "developers.md"} <= names


def test_the_readme_is_short_and_its_two_commands_come_first():
    lines = README.read_text().splitlines()
    assert len(lines) <= 200
    commands = [line.strip() for line in lines if line.startswith("    ") and line.strip()]
    assert commands[:2] == [SERVE, TEST]
    assert max(lines.index("    " + SERVE), lines.index("    " + TEST)) < 40
    assert TEST in (ROOT / ".ci" / "run").read_text()  # the README's test command is what CI runs


def paragraphs(text: str) -> list[str]:
    """Prose paragraphs: blocks between blank lines, not code, tables or headings."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    out = []
    for block in re.split(r"\n\s*\n", text):
        lines = [ln for ln in block.splitlines() if not ln.startswith(("    ", "|", "#", "!["))]
        # each item of a list is a paragraph of its own
        for item in re.split(r"\n(?=\s*(?:[-*]|\d+\.) )", "\n".join(lines)):
            if item.strip():
                out.append(" ".join(item.split()))
    return out


@pytest.mark.parametrize("path", READ, ids=lambda p: p.name)
def test_no_paragraph_over_120_words(path):
    for paragraph in paragraphs(path.read_text()):
        words = len(paragraph.split())
        assert words <= 120, f"{path.name}: {words} words: {paragraph[:80]}…"


def links(path: Path) -> list[str]:
    return re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", path.read_text())


@pytest.mark.parametrize("path", READ, ids=lambda p: p.name)
def test_every_link_to_a_file_of_the_project_leads_to_one(path):
    for target in links(path):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        assert (path.parent / target).exists(), f"{path.name}: {target}"


def shot_names() -> list[re.Pattern]:
    """The names the tests' screenshots are written under: each string of the tests' sources (an f-string's
    values as any text), as a pattern."""
    patterns = []
    for source in (ROOT / "tests").glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) < 80:
                patterns.append(re.compile(re.escape(node.value)))
            elif isinstance(node, ast.JoinedStr):
                literal = [v.value for v in node.values if isinstance(v, ast.Constant)]
                if sum(len(t) for t in literal) < 4:
                    continue  # all values ("{a}{b}"): it would match any name
                parts = [re.escape(v.value) if isinstance(v, ast.Constant) else "[^/]+" for v in node.values]
                patterns.append(re.compile("".join(parts)))
    return patterns


def test_every_screenshot_in_the_guides_is_there_and_made_by_a_browser_test():
    used = {t for path in READ for t in links(path) if t.startswith("screens/")}
    assert used, "the guides show no screenshot"
    patterns = shot_names()
    for target in sorted(used):
        assert (ROOT / "docs" / target).exists(), target
        name = Path(target).stem
        assert any(p.fullmatch(name) for p in patterns), f"no test makes {name}"
    kept = {f"screens/{p.name}" for p in (ROOT / "docs" / "screens").glob("*.png")}
    assert kept <= used, f"shown by no guide: {sorted(kept - used)}"


def commands(path: Path) -> list[str]:
    """The shell commands of a document: the lines of its ```sh blocks and its indented blocks."""
    text = path.read_text()
    found = [
        ln.strip() for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S) for ln in block.splitlines()
    ]
    found += [
        ln.strip() for ln in text.splitlines() if re.match(r"    (python|sh|monopoly-tournament|pip) ", ln)
    ]
    return [c for c in found if c and not c.startswith("#")]


def suite_source() -> str:
    return (
        "\n".join(p.read_text() for p in (ROOT / "tests").glob("*.py")) + (ROOT / ".ci" / "run").read_text()
    )


@pytest.mark.parametrize("path", READ, ids=lambda p: p.name)
def test_every_command_in_the_documents_is_run_by_a_test_or_ci(path):
    """A command's program and each of its options appear in a test that runs it (a management command:
    its name called, each ``--option`` passed); a setup script, in CI or a test."""
    source = suite_source()
    for line in commands(path):
        for part in re.split(r"\s*&&\s*", line):
            words = part.split()
            if part.startswith(". .venv/bin/activate"):
                continue
            if part.startswith("sh tests/"):
                assert words[1] in source, f"{path.name}: {part}"
                continue
            if "manage.py" in words or words[0] == "monopoly-tournament":
                at = words.index("manage.py") + 1 if "manage.py" in words else 1
                name = words[at]
                assert re.search(rf"""["']{re.escape(name)}["']""", source), f"{path.name}: {part}"
                for option in (w.split("=")[0] for w in words[at + 1 :] if w.startswith("--")):
                    assert f'"{option}' in source or f"'{option}" in source, (
                        f"{path.name}: {option} in {part}"
                    )
                continue
            if words[:3] == ["python", "-m", "pytest"]:
                continue  # the suite itself
            if words[0] == "python" and words[1].startswith("tests/"):
                assert (ROOT / words[1]).exists(), f"{path.name}: {part}"
                continue
            raise AssertionError(f"{path.name}: a command no test runs: {part}")


def test_the_settings_table_is_the_declared_one():
    """docs/serving.md lists the environment's settings as tournament/server/environment.py declares them
    (their one place): a setting added, renamed or reworded there is so in the guide too."""
    assert guide_table() in (ROOT / "docs" / "serving.md").read_text(encoding="utf-8")


def test_every_did_it_change_marker_is_where_the_architecture_says():
    """docs/architecture.md's table of markers (versions, digests, positions, marks): each marker's name is
    found in the module it says makes it, and its word is one of the four."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text.split("## Did it change", 1)[1].split("\n## ", 1)[0]
    rows = [line.split(" | ") for line in table.splitlines() if line.startswith("| ") and "`" in line]
    assert len(rows) >= 8
    for marker, word, _changes, made_in, *_ in rows:
        name = re.findall(r"`([^`]+)`", marker)[0].split("'")[0].split(".")[-1]
        module = re.findall(r"`([^`]+)`", made_in)[0]
        assert word in {"version", "digest", "position", "mark"}, marker
        assert name in (ROOT / module).read_text(encoding="utf-8"), f"{name} not in {module}"
