"""axe-core in the browser tests: a WCAG 2.1 AA audit of the page a test has open.

axe-core comes from the npm registry (``tests/e2e/package.json``, pinned in its lock file):
``npm ci --prefix tests/e2e`` puts it in ``tests/e2e/node_modules``. Without it an audit skips
with the command to run, except under ``CI=true``, where it fails.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from tests.conftest import need

HERE = Path(__file__).resolve().parent
AXE = HERE / "node_modules" / "axe-core" / "axe.min.js"
COLOUR = HERE / "colour.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = ("serious", "critical")
INSTALL = "run `npm ci --prefix tests/e2e`"
IMPACTS = ("minor", "moderate", "serious", "critical")
RUN = """async (tags) => {
  const results = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
  return results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), summary: n.failureSummary, html: n.html.slice(0, 200)})),
  }));
}"""


def need_axe() -> None:
    """Skip (fail under CI) when axe-core has not been installed from the npm registry."""
    need(AXE.exists(), f"axe-core is not installed: {INSTALL} ({AXE} is missing)")


@cache
def _source() -> str:
    return AXE.read_text(encoding="utf-8")


def audit(page: Any) -> list[dict[str, Any]]:
    """Every WCAG 2.1 A/AA violation axe finds in ``page`` as it is now, of any impact."""
    need_axe()
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=_source())
    return page.evaluate(RUN, TAGS)


def blocking(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The serious and critical ones: what the audit may not find."""
    return [violation for violation in violations if violation["impact"] in BLOCKING]


def describe(violations: list[dict[str, Any]]) -> list[str]:
    """One line a developer can act on per violation and element."""
    return [
        f"{v['impact']} {v['id']} ({v['help']}): {node['target']}: {node['summary']}"
        for v in violations
        for node in v["nodes"]
    ]


def colour_alone(page: Any) -> list[str]:
    """Elements of ``page`` that show a vote by the guilty / not-guilty colours and nothing else a
    sighted reader could tell apart (tests/e2e/colour.js says what counts)."""
    return page.evaluate(COLOUR.read_text(encoding="utf-8"))
