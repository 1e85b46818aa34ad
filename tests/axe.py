"""axe-core in a Playwright page: the accessibility violations a disabled person's browser would meet.

``serious_violations(page)`` injects axe-core (fetched by tests/fetch_axe.py, pinned in tests/axe-core.json)
into the page as it is now, runs it and returns the violations of impact critical or serious;
``assert_accessible(page)`` fails with a readable list of them (rule, what it asks, the elements)."""

from __future__ import annotations

from tests.fetch_axe import fetch

BLOCKING = ("critical", "serious")

_source: str | None = None


def axe_source() -> str:
    global _source
    if _source is None:
        _source = fetch().read_text(encoding="utf-8")
    return _source


def serious_violations(page, *, disable: tuple[str, ...] = ()) -> list[dict]:
    """The critical and serious violations on ``page`` (axe's own result objects), ``disable`` rules aside.

    The script goes in through the DevTools protocol (``evaluate``), which the page's Content-Security-Policy
    (script-src 'self') does not stop, as it would stop an inline script tag."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    options = {"resultTypes": ["violations"], "rules": {rule: {"enabled": False} for rule in disable}}
    result = page.evaluate("options => window.axe.run(document, options)", options)
    return [v for v in result["violations"] if v.get("impact") in BLOCKING]


def describe(violations: list[dict]) -> str:
    """One paragraph per violated rule: its id and impact, what it asks, and each element's selector with
    axe's summary of what is wrong there."""
    out = []
    for v in violations:
        out.append(f"{v['id']} ({v['impact']}): {v['help']} — {v['helpUrl']}")
        for node in v["nodes"]:
            target = " ".join(str(t) for t in node["target"])
            summary = " ".join((node.get("failureSummary") or "").split())
            out.append(f"    {target}: {summary}")
    return "\n".join(out)


def assert_accessible(page, what: str = "", **kwargs) -> None:
    found = serious_violations(page, **kwargs)
    where = what or page.url
    assert not found, f"axe-core: critical/serious violations on {where}:\n{describe(found)}"
